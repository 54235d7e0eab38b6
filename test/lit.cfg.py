# -*- Python -*-
# lit configuration for asmevo's FileCheck tests.

import os

import lit.formats
import lit.util

config.name = "asmevo"
config.test_format = lit.formats.ShTest(not lit.util.which("bash") is None)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "Kernels", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.asmevo_obj_root, "test")

# Tools: ours first, then LLVM's FileCheck/not/count/split-file/yaml2obj.
config.environment["PATH"] = os.pathsep.join(
    [config.asmevo_tools_dir, config.llvm_tools_dir,
     config.environment.get("PATH", os.environ.get("PATH", ""))])
config.substitutions.append(("%kernels", config.asmevo_kernel_dir))
config.substitutions.append(("%clang", config.clang))
