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

struct DispatchSpec {
  /// Grid, workgroup, dynamic LDS and the kernarg with every explicit
  /// argument except buffer pointers (written by mapSpecBuffers).
  emu::Dispatch Launch;
  std::vector<SpecBuffer> Buffers;
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

/// The pointer the kernel receives for B: its region's address plus B's
/// pointer offset.
inline uint64_t specBufferPointer(const SpecBuffer &B) {
  return specBufferAddress(B.ArgIndex) + B.PointerOffset;
}

/// Maps every buffer of Spec at specBufferAddress (read-only when asked;
/// an empty buffer is a 0-byte region: every access faults) named "arg<I>",
/// and writes the pointers (specBufferPointer) into Spec.Launch.Kernarg.
llvm::Error mapSpecBuffers(DispatchSpec &Spec, emu::Memory &Mem);

} // namespace verify
} // namespace asmevo

#endif // ASMEVO_VERIFY_SPEC_H
