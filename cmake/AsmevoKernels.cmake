# AsmevoKernels.cmake - build the in-tree test kernels (test/Kernels) into
# AMDGPU code objects with clang-22, without ROCm.
#
#   asmevo_add_test_kernel(SOURCE <file.hip|file.cl|file.ll>
#                          [NAME <stem>]          # default: file name without extension
#                          [ARCHS <target-id>...] # default: ${ASMEVO_TEST_KERNEL_DEFAULT_ARCHS}
#                          [COV <n>...]           # code object versions, default: 5
#                          [FLAGS <flag>...]      # extra compiler flags for every variant
#                          [DEPENDS <file>...]    # extra inputs besides source and headers
#                          [NO_HOST_CHECK])       # .hip: skip the host C++ syntax check
#
# Builds one code object per (arch, cov) pair:
#
#   ${ASMEVO_TEST_KERNEL_DIR}/<stem>-<arch>-v<cov>.hsaco
#
# where <arch> is the target id with ':' replaced by '_' (gfx942,
# gfx90a_xnack+, gfx9-4-generic) and ASMEVO_TEST_KERNEL_DIR is
# ${CMAKE_BINARY_DIR}/test/Kernels. Calling the function again for the same
# source with another NAME/ARCHS/COV/FLAGS adds variants; an output built twice
# is an error.
#
# Languages, by extension:
#   .hip  clang++ -x hip --offload-arch=<arch> --cuda-device-only
#           --no-gpu-bundle-output -nogpuinc -nogpulib -O3
#           -mcode-object-version=<cov> -DASMEVO_COV=<cov>
#           -I test/Kernels/include
#         plus, once per source, a host check: the same file must compile as
#         plain C++ with -DASMEVO_HOST (-fsyntax-only; stamp file).
#   .cl   clang -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=<arch>
#           -nogpulib -O3 -mcode-object-version=<cov>
#   .ll   clang -x ir --target=amdgcn-amd-amdhsa -mcpu=<arch> -nogpulib -O3
#           -mcode-object-version=<cov>
#
# Results, for tests that iterate over every kernel:
#   target   asmevo-test-kernels       (in ALL) builds all of them
#   global property ASMEVO_TEST_KERNELS  list of .hsaco paths
#   ${ASMEVO_TEST_KERNEL_DIR}/kernels.txt  one .hsaco path per line
#   ${ASMEVO_TEST_KERNEL_DIR}/kernels.tsv  path, source, target id, cov,
#                                          language (tab separated, with header)
# The two files are written at the end of the top-level configure step, so
# they include kernels added from any directory.

include_guard(GLOBAL)

# Cache (INTERNAL) so that the function works from any directory.
set(ASMEVO_TEST_KERNEL_DIR "${CMAKE_BINARY_DIR}/test/Kernels"
    CACHE INTERNAL "Where the test kernel code objects are written")
get_filename_component(_asmevo_kinc
                       "${CMAKE_CURRENT_LIST_DIR}/../test/Kernels/include"
                       ABSOLUTE)
set(ASMEVO_TEST_KERNEL_INCLUDE_DIR "${_asmevo_kinc}"
    CACHE INTERNAL "asmevo_hip.h directory")
set(ASMEVO_TEST_KERNEL_DEFAULT_ARCHS gfx942 gfx90a
    CACHE STRING "Targets the test kernels are built for by default")

# clang++ for HIP; clang (C driver, same directory) for OpenCL and IR.
if(NOT ASMEVO_CLANG)
  find_program(ASMEVO_CLANG NAMES clang++-22 clang++
               HINTS /usr/lib/llvm-22/bin REQUIRED)
endif()
get_filename_component(_asmevo_clang_dir "${ASMEVO_CLANG}" DIRECTORY)
find_program(ASMEVO_CLANG_C NAMES clang-22 clang
             HINTS "${_asmevo_clang_dir}" /usr/lib/llvm-22/bin
             NO_DEFAULT_PATH)
if(NOT ASMEVO_CLANG_C)
  set(ASMEVO_CLANG_C "${ASMEVO_CLANG}" CACHE FILEPATH "" FORCE)
endif()

# Depfiles work with the Ninja and Makefile generators (CMake >= 3.20).
if(CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
  set(_ASMEVO_KERNEL_DEPFILES ON CACHE INTERNAL "")
else()
  set(_ASMEVO_KERNEL_DEPFILES OFF CACHE INTERNAL "")
endif()

if(NOT TARGET asmevo-test-kernels)
  add_custom_target(asmevo-test-kernels ALL)
  set_target_properties(asmevo-test-kernels PROPERTIES FOLDER "Tests")
endif()

function(_asmevo_write_test_kernel_lists)
  get_property(paths GLOBAL PROPERTY ASMEVO_TEST_KERNELS)
  get_property(rows GLOBAL PROPERTY ASMEVO_TEST_KERNEL_ROWS)
  string(REPLACE ";" "\n" txt "${paths}")
  set(tsv "path\tsource\ttarget\tcov\tlanguage\n")
  foreach(row IN LISTS rows)
    string(REPLACE "|" "\t" row "${row}")
    string(APPEND tsv "${row}\n")
  endforeach()
  if(paths)
    string(APPEND txt "\n")
  endif()
  file(GENERATE OUTPUT "${ASMEVO_TEST_KERNEL_DIR}/kernels.txt" CONTENT "${txt}")
  file(GENERATE OUTPUT "${ASMEVO_TEST_KERNEL_DIR}/kernels.tsv" CONTENT "${tsv}")
endfunction()

function(asmevo_add_test_kernel)
  cmake_parse_arguments(ARG "NO_HOST_CHECK" "SOURCE;NAME"
                        "ARCHS;COV;FLAGS;DEPENDS" ${ARGN})
  if(NOT ARG_SOURCE)
    message(FATAL_ERROR "asmevo_add_test_kernel: SOURCE is required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
            "asmevo_add_test_kernel: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  get_filename_component(src "${ARG_SOURCE}" ABSOLUTE)
  get_filename_component(ext "${src}" LAST_EXT)
  if(ARG_NAME)
    set(stem "${ARG_NAME}")
  else()
    get_filename_component(stem "${src}" NAME_WE)
  endif()
  if(NOT ARG_ARCHS)
    set(ARG_ARCHS ${ASMEVO_TEST_KERNEL_DEFAULT_ARCHS})
  endif()
  if(NOT ARG_COV)
    set(ARG_COV 5)
  endif()

  if(ext STREQUAL ".hip")
    set(lang hip)
    set(deps "${src}" "${ASMEVO_TEST_KERNEL_INCLUDE_DIR}/asmevo_hip.h")
  elseif(ext STREQUAL ".cl")
    set(lang opencl)
    set(deps "${src}")
  elseif(ext STREQUAL ".ll")
    set(lang ir)
    set(deps "${src}")
  else()
    message(FATAL_ERROR "asmevo_add_test_kernel: ${src}: unknown language "
                        "(expected .hip, .cl or .ll)")
  endif()
  list(APPEND deps ${ARG_DEPENDS})

  file(RELATIVE_PATH src_rel "${CMAKE_SOURCE_DIR}" "${src}")
  get_property(known GLOBAL PROPERTY ASMEVO_TEST_KERNELS)
  set(outputs)
  foreach(arch IN LISTS ARG_ARCHS)
    string(REPLACE ":" "_" arch_file "${arch}")
    foreach(cov IN LISTS ARG_COV)
      set(out "${ASMEVO_TEST_KERNEL_DIR}/${stem}-${arch_file}-v${cov}.hsaco")
      if(out IN_LIST known OR out IN_LIST outputs)
        message(FATAL_ERROR "asmevo_add_test_kernel: ${out} is built twice")
      endif()
      if(lang STREQUAL "hip")
        set(cmd "${ASMEVO_CLANG}" -x hip "--offload-arch=${arch}"
            --cuda-device-only --no-gpu-bundle-output -nogpuinc -nogpulib
            -O3 "-mcode-object-version=${cov}" "-DASMEVO_COV=${cov}"
            "-I${ASMEVO_TEST_KERNEL_INCLUDE_DIR}")
      elseif(lang STREQUAL "opencl")
        set(cmd "${ASMEVO_CLANG_C}" -x cl -cl-std=CL2.0
            --target=amdgcn-amd-amdhsa "-mcpu=${arch}" -nogpulib -O3
            "-mcode-object-version=${cov}" "-DASMEVO_COV=${cov}")
      else()
        set(cmd "${ASMEVO_CLANG_C}" -x ir --target=amdgcn-amd-amdhsa
            "-mcpu=${arch}" -nogpulib -O3 "-mcode-object-version=${cov}")
      endif()
      list(APPEND cmd ${ARG_FLAGS})
      set(depfile_args)
      if(_ASMEVO_KERNEL_DEPFILES AND NOT lang STREQUAL "ir")
        # clang's -MD is dropped with --cuda-device-only; ask cc1 directly.
        list(APPEND cmd -Xclang -dependency-file -Xclang "${out}.d"
             -Xclang -MT -Xclang "${out}")
        set(depfile_args DEPFILE "${out}.d")
      endif()
      list(APPEND cmd "${src}" -o "${out}")
      add_custom_command(
        OUTPUT "${out}"
        COMMAND ${cmd}
        DEPENDS ${deps}
        ${depfile_args}
        COMMENT "Building test kernel ${stem}-${arch_file}-v${cov}.hsaco"
        VERBATIM COMMAND_EXPAND_LISTS)
      list(APPEND outputs "${out}")
      set_property(GLOBAL APPEND PROPERTY ASMEVO_TEST_KERNEL_ROWS
                   "${out}|${src_rel}|${arch}|${cov}|${lang}")
    endforeach()
  endforeach()

  # Host check: the kernel source must also be valid host C++ with
  # -DASMEVO_HOST (see test/Kernels/include/asmevo_hip.h). Once per source.
  if(lang STREQUAL "hip" AND NOT ARG_NO_HOST_CHECK)
    get_property(checked GLOBAL PROPERTY _ASMEVO_TEST_KERNEL_HOST_CHECKED)
    if(NOT src IN_LIST checked)
      set_property(GLOBAL APPEND PROPERTY _ASMEVO_TEST_KERNEL_HOST_CHECKED
                   "${src}")
      get_filename_component(src_stem "${src}" NAME_WE)
      set(stamp "${ASMEVO_TEST_KERNEL_DIR}/hostcheck/${src_stem}.stamp")
      add_custom_command(
        OUTPUT "${stamp}"
        COMMAND "${ASMEVO_CLANG}" -x c++ -std=c++17 -DASMEVO_HOST
                -fsyntax-only "-I${ASMEVO_TEST_KERNEL_INCLUDE_DIR}" "${src}"
        COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
        DEPENDS ${deps}
        COMMENT "Checking that ${src_rel} compiles as host C++"
        VERBATIM)
      list(APPEND outputs "${stamp}")
    endif()
  endif()

  # One target per call; the aggregate target depends on all of them.
  string(MAKE_C_IDENTIFIER "${stem}" tname)
  set(target "asmevo-test-kernel-${tname}")
  set(n 2)
  while(TARGET "${target}")
    set(target "asmevo-test-kernel-${tname}-${n}")
    math(EXPR n "${n} + 1")
  endwhile()
  add_custom_target(${target} DEPENDS ${outputs})
  set_target_properties(${target} PROPERTIES FOLDER "Tests/Kernels")
  add_dependencies(asmevo-test-kernels ${target})

  foreach(out IN LISTS outputs)
    if(out MATCHES "\\.hsaco$")
      set_property(GLOBAL APPEND PROPERTY ASMEVO_TEST_KERNELS "${out}")
    endif()
  endforeach()

  get_property(deferred GLOBAL PROPERTY _ASMEVO_TEST_KERNEL_LISTS_DEFERRED)
  if(NOT deferred)
    set_property(GLOBAL PROPERTY _ASMEVO_TEST_KERNEL_LISTS_DEFERRED ON)
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}"
                   CALL _asmevo_write_test_kernel_lists)
  endif()
endfunction()
