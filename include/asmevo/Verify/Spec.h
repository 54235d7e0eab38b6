//===- Spec.h - The dispatch spec of asmevo-run / asmevo-verify -*- C++ -*-===//
//
// SPEC.json (docs/run-spec.md): grid, workgroup size, dynamic LDS and one
// entry per explicit kernel argument. Parsing yields the launch, the kernarg
// bytes of the explicit arguments and the buffers; placing the buffers maps
// them into an emulator Memory and writes their addresses into the kernarg.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_VERIFY_SPEC_H
#define ASMEVO_VERIFY_SPEC_H

#include "asmevo/Emu/Emulator.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace asmevo {
struct KernelInfo;

namespace verify {

/// A `global_buffer` argument given by the spec.
struct SpecBuffer {
  unsigned ArgIndex = 0;      // index among the explicit arguments
  uint64_t KernargOffset = 0; // where its pointer goes
  std::vector<uint8_t> Data;
  bool ReadOnly = false;
  /// The argument points this many bytes into the region (a pointer into
  /// the middle of an allocation, as a caller may pass one).
  uint64_t PointerOffset = 0;
};

/// A named memory region of the spec's "regions" that is not a kernel
/// argument: reached through pointers the spec stores in other memory (an
/// array of device pointers, a by-value struct holding pointers).
struct SpecRegion {
  std::string Name;
  uint64_t Address = 0; // specRegionAddress of its rank by name
  std::vector<uint8_t> Data;
  bool ReadOnly = false;
};

struct DispatchSpec {
  /// Grid, workgroup, dynamic LDS and the kernarg with every explicit
  /// argument except buffer pointers (written by mapSpecBuffers). Pointers
  /// of "pointers" entries are already in the kernarg and in the buffers'
  /// and regions' bytes.
  emu::Dispatch Launch;
  std::vector<SpecBuffer> Buffers;
  std::vector<SpecRegion> Regions; // sorted by name
  /// Pointers the spec stores in buffer or region bytes (not in the
  /// kernarg): they are only valid at the spec's own addresses.
  unsigned MemoryPointers = 0;
  std::string Name; // the spec's file name (diagnostics)
};

/// Parses a spec for Kernel. Relative buffer paths are read from BaseDir.
/// Errors name the spec and the argument.
llvm::Expected<DispatchSpec> parseSpec(llvm::StringRef Json,
                                       const KernelInfo &Kernel,
                                       llvm::StringRef BaseDir,
                                       llvm::StringRef Name);
llvm::Expected<DispatchSpec> loadSpec(llvm::StringRef Path,
                                      const KernelInfo &Kernel);

/// The address asmevo-run gives explicit buffer argument I (64 GiB apart).
inline uint64_t specBufferAddress(unsigned I) {
  return 0x100000000000ull + uint64_t(I) * 0x1000000000ull;
}

/// The address of the spec's extra region of rank I (regions sorted by
/// name), 64 GiB apart and above every argument buffer (a spec with regions
/// has at most MaxSpecArgsWithRegions explicit arguments).
inline uint64_t specRegionAddress(unsigned I) {
  return 0x300000000000ull + uint64_t(I) * 0x1000000000ull;
}
constexpr unsigned MaxSpecArgsWithRegions = 512;
constexpr unsigned MaxSpecRegions = 512;

/// The pointer the kernel receives for B: its region's address plus B's
/// pointer offset.
inline uint64_t specBufferPointer(const SpecBuffer &B) {
  return specBufferAddress(B.ArgIndex) + B.PointerOffset;
}

/// Maps every buffer of Spec at specBufferAddress (read-only when asked;
/// an empty buffer is a 0-byte region: every access faults) named "arg<I>",
/// and every extra region at its Address named "region <name>", and writes
/// the pointers (specBufferPointer) into Spec.Launch.Kernarg.
llvm::Error mapSpecBuffers(DispatchSpec &Spec, emu::Memory &Mem);

} // namespace verify
} // namespace asmevo

#endif // ASMEVO_VERIFY_SPEC_H
