//===- CodeObjectLite.h - Kernarg layouts from a code object, no LLVM -----===//
//
// What the interposer and the test runtime need from a code object without
// linking LLVM into the host process: the image size of an in-memory ELF,
// the target id, and per kernel its kernarg segment size and argument layout
// (offset, size, value kind) from the NT_AMDGPU_METADATA note (msgpack).
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_TOOLS_CAPTURE_CODEOBJECTLITE_H
#define ASMEVO_TOOLS_CAPTURE_CODEOBJECTLITE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace asmevo {
namespace lite {

struct ArgLayout {
  uint64_t Offset = 0, Size = 0;
  std::string ValueKind;
  bool hidden() const { return ValueKind.compare(0, 7, "hidden_") == 0; }
};

struct KernelLayout {
  std::string Name;
  uint64_t KernargSize = 0;
  uint64_t GroupSegmentFixedSize = 0;
  std::vector<ArgLayout> Args;
};

struct CodeObjectInfo {
  std::string Target;
  std::vector<KernelLayout> Kernels;
  const KernelLayout *kernel(const std::string &Name) const {
    for (const KernelLayout &K : Kernels)
      if (K.Name == Name)
        return &K;
    return nullptr;
  }
};

/// Size of an ELF64 image from its headers (the furthest section, segment
/// or header table); 0 when Image is not an ELF64 little-endian object.
size_t elfImageSize(const uint8_t *Image);

/// Parses the AMDGPU metadata of an ELF image. False with Err on failure.
bool readCodeObject(const uint8_t *Image, size_t Size, CodeObjectInfo &Out,
                    std::string &Err);

/// The code object for device Device (a target id, "gfx942:sramecc+:xnack-")
/// in a clang offload bundle ("__CLANG_OFFLOAD_BUNDLE__", u64 entry count,
/// per entry u64 offset from the bundle start, u64 size, u64 id length, id
/// "hipv4-amdgcn-amd-amdhsa--gfx942:xnack-"): the entry of the same
/// processor whose every feature the device has, the most specific one.
/// False with Err when there is none, the bundle is compressed (CCOB) or
/// malformed.
bool codeObjectFromBundle(const uint8_t *Bundle, const std::string &Device,
                          std::vector<uint8_t> &Image, std::string &Err);

/// The explicit-argument part of the kernarg segment from HIP's
/// kernelParams (one pointer per explicit argument, metadata order).
std::vector<uint8_t> packKernelParams(const KernelLayout &K, void **Params);
/// The kernarg bytes from hipModuleLaunchKernel's `extra`
/// (HIP_LAUNCH_PARAM_BUFFER_POINTER/SIZE); false when absent or malformed.
bool kernargFromExtra(void **Extra, std::vector<uint8_t> &Out);

} // namespace lite
} // namespace asmevo

#endif
