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

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace asmevo {
struct KernelInfo;

namespace verify {

/// The contents of a sparse buffer or region (`"sparse": true`,
/// docs/run-spec.md): every byte is a function of its offset (the fill, then
/// the patches), so the emulator maps a page when it is first touched and a
/// buffer may be far larger than the memory of the host.
struct SparseFill {
  enum Kind : uint8_t { Zero, Random, IntF16, IntF32, IntF64 } K = Zero;
  uint64_t Size = 0;
  uint64_t Seed = 0;
  int64_t Lo = -3, Hi = 3;
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> Patches;
  /// The bytes [Off, Off + Len) of the buffer before the run.
  void fill(uint64_t Off, uint8_t *Out, size_t Len) const;
};
/// Sparse buffers are at most 64 GiB minus 1 MiB: buffers are 64 GiB apart
/// and a guard follows each.
constexpr uint64_t MaxSparseSize = (1ull << 36) - (1ull << 20);
constexpr uint64_t SparsePageSize = 4096;
/// Bytes of sparse buffers a dispatch may touch (whole pages) before it
/// fails: a clear error, not the host running out of memory.
constexpr uint64_t MaxSparseTouched = 256ull << 20;

/// Maps the pages of sparse buffers when an access first touches them (a
/// Memory::Observer calls access() for every global access). Not thread
/// safe: runs that use it run on one host thread.
class SparsePager {
public:
  void add(uint64_t Base, uint8_t Perms, std::string Name,
           std::shared_ptr<const SparseFill> Fill);
  bool empty() const { return Ranges.empty(); }
  /// Maps the ranges earlier runs asked for (call on a fresh Memory, before
  /// the run).
  llvm::Error begin(emu::Memory &M);
  /// The region holding [Addr, Addr + Len), mapping a sparse page on demand.
  emu::Region *access(emu::Memory &M, uint64_t Addr, uint64_t Len);
  /// After a failed run: true when an access straddled a mapped and an
  /// unmapped page; the next run (begin()) maps them as one region.
  bool retry();
  /// Set when the run touched more than MaxSparseTouched bytes.
  std::string Overflow;
  uint64_t touched() const { return Touched; }
  /// The bound on touched bytes (tests lower it).
  uint64_t MaxTouched = MaxSparseTouched;
  /// The touched pages of the sparse range at Base after the run, by byte
  /// offset in the range (SparsePageSize bytes, fewer at its end).
  std::map<uint64_t, std::vector<uint8_t>> pages(const emu::Memory &M,
                                                 uint64_t Base) const;

private:
  struct Range {
    uint64_t Base;
    uint8_t Perms;
    std::string Name;
    std::shared_ptr<const SparseFill> Fill;
  };
  const Range *rangeOf(uint64_t Addr) const;
  llvm::Expected<emu::Region *> mapPages(emu::Memory &M, const Range &R,
                                         uint64_t Lo, uint64_t Hi);
  std::vector<Range> Ranges;
  std::vector<std::pair<uint64_t, uint64_t>> Want, Pre; // [lo, hi)
  uint64_t Touched = 0;
};

/// Runs a dispatch whose sparse buffers P maps on demand. Map maps everything
/// else into a fresh Memory; Run runs the dispatch on it, with an observer
/// that sends accesses to P.access() when P is not empty. A run that failed
/// on an access straddling a mapped and an unmapped page runs again with
/// both mapped as one region (at most MaxSparseRetries times). Returns the
/// memory of the last run; Result is its result, its message prefixed with
/// P.Overflow when the run touched more than P allows.
constexpr unsigned MaxSparseRetries = 16;
llvm::Expected<std::unique_ptr<emu::Memory>>
runWithSparsePages(SparsePager &P,
                   llvm::function_ref<llvm::Error(emu::Memory &)> Map,
                   llvm::function_ref<emu::RunResult(emu::Memory &)> Run,
                   emu::RunResult &Result);

/// A `global_buffer` argument given by the spec.
struct SpecBuffer {
  unsigned ArgIndex = 0;      // index among the explicit arguments
  uint64_t KernargOffset = 0; // where its pointer goes
  std::vector<uint8_t> Data;
  bool ReadOnly = false;
  /// The argument points this many bytes into the region (a pointer into
  /// the middle of an allocation, as a caller may pass one).
  uint64_t PointerOffset = 0;
  /// Non-null: a sparse buffer (Data is empty).
  std::shared_ptr<const SparseFill> Sparse;
  uint64_t size() const { return Sparse ? Sparse->Size : Data.size(); }
};

/// A named memory region of the spec's "regions" that is not a kernel
/// argument: reached through pointers the spec stores in other memory (an
/// array of device pointers, a by-value struct holding pointers).
struct SpecRegion {
  std::string Name;
  uint64_t Address = 0; // specRegionAddress of its rank by name
  std::vector<uint8_t> Data;
  bool ReadOnly = false;
  std::shared_ptr<const SparseFill> Sparse; // non-null: Data is empty
  uint64_t size() const { return Sparse ? Sparse->Size : Data.size(); }
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
  /// Buffers and regions that are sparse.
  unsigned SparseBuffers = 0;
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
/// the pointers (specBufferPointer) into Spec.Launch.Kernarg. Sparse
/// buffers and regions go to Pager (mapped when touched; an error without
/// one).
llvm::Error mapSpecBuffers(DispatchSpec &Spec, emu::Memory &Mem,
                           SparsePager *Pager = nullptr);

} // namespace verify
} // namespace asmevo

#endif // ASMEVO_VERIFY_SPEC_H
