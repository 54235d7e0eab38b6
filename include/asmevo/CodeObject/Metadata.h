//===- Metadata.h - AMDGPU HSA kernel metadata (msgpack) ---------*- C++ -*-=//
//
// The typed view of one entry of `amdhsa.kernels` in the NT_AMDGPU_METADATA
// note (code object v3+). Fields follow AMDGPUUsage's "Code Object V3 to V6
// Metadata" tables; absent optional fields keep their defaults.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_CODEOBJECT_METADATA_H
#define ASMEVO_CODEOBJECT_METADATA_H

#include "llvm/ADT/StringRef.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace asmevo {

struct KernelArgMetadata {
  std::string Name;          // .name (optional)
  std::string TypeName;      // .type_name (optional)
  uint64_t Offset = 0;       // .offset
  uint64_t Size = 0;         // .size
  std::string ValueKind;     // .value_kind: by_value, global_buffer, hidden_*
  std::string AddressSpace;  // .address_space: global, local, ... (pointers)
  std::string Access;        // .access (optional)
  std::string ActualAccess;  // .actual_access (optional)
  bool IsConst = false;      // .is_const
  bool IsRestrict = false;   // .is_restrict
  bool IsVolatile = false;   // .is_volatile
  uint64_t PointeeAlign = 0; // .pointee_align (dynamic_shared_pointer)

  bool isHidden() const { return llvm::StringRef(ValueKind).starts_with("hidden_"); }
  bool isPointer() const {
    return ValueKind == "global_buffer" || ValueKind == "dynamic_shared_pointer";
  }
};

struct KernelMetadata {
  std::string Name;   // .name
  std::string Symbol; // .symbol ("name.kd")
  std::vector<KernelArgMetadata> Args;
  uint64_t KernargSegmentSize = 0;
  uint64_t KernargSegmentAlign = 0;
  uint64_t GroupSegmentFixedSize = 0;
  uint64_t PrivateSegmentFixedSize = 0;
  uint32_t WavefrontSize = 64;
  uint32_t SgprCount = 0;
  uint32_t VgprCount = 0;
  uint32_t AgprCount = 0;
  uint32_t SgprSpillCount = 0;
  uint32_t VgprSpillCount = 0;
  uint32_t MaxFlatWorkgroupSize = 0;
  std::optional<std::array<uint32_t, 3>> ReqdWorkgroupSize;
  bool UniformWorkGroupSize = false;
  bool UsesDynamicStack = false;
  bool WorkgroupProcessorMode = false;
  uint32_t KernargPreloadCount = 0; // number of preloaded SGPRs (optional)

  /// Builds the typed view from one map node. Errors say which field is
  /// malformed.
  static llvm::Expected<KernelMetadata> fromNode(llvm::msgpack::DocNode &Node);
  /// Writes the count fields that emission recomputes back into a map node.
  static void updateCounts(llvm::msgpack::DocNode &Node, uint32_t SgprCount,
                           uint32_t VgprCount, uint32_t AgprCount);
};

/// Rewrites the values of a metadata note's msgpack bytes so that they read
/// as NewRoot, without changing the note's size: every scalar that differs
/// is written over its original bytes in the same msgpack width. Fails,
/// naming the path, when the structure differs, a string changes length or
/// a number does not fit its original width.
llvm::Error patchMetadataInPlace(llvm::MutableArrayRef<uint8_t> Blob,
                                 const llvm::msgpack::DocNode &NewRoot);

/// Checks that Blob is one well-formed msgpack object whose map keys are
/// scalars, before LLVM's msgpack::Document reads it: the Document asserts
/// (traps) on map keys that are maps or arrays. Errors give the byte offset.
llvm::Error validateMsgpack(llvm::StringRef Blob);

} // namespace asmevo

#endif // ASMEVO_CODEOBJECT_METADATA_H
