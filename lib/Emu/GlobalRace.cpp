//===- GlobalRace.cpp - Dispatch-wide races on global memory --------------===//
//
// Workgroups are ordered by nothing but atomics, and the waves of a
// workgroup only by s_barrier, yet the emulator runs them one after another:
// a read by one and a later store by another to the same bytes would give
// the emulator one value where hardware may give either. This shadow keeps,
// per dword of every writable region, the last writer and the readers as
// tags (workgroup, wave, barrier epoch, bytes, flags) and reports an access
// that conflicts with a tag of another workgroup, or of another wave of its
// workgroup in the same barrier epoch:
//  - a store after such a read (write-after-read) or store (write-after-
//    write), and a load after another workgroup's store (read-after-write;
//    within a workgroup StoreRace.cpp checks it, tgsplit rules included);
//  - atomics are ordered by the memory system: they are neither checked
//    against reads nor recorded as readers (a compare-and-swap loop reads
//    with a plain load on purpose), but an atomic and another's plain store
//    of the same bytes conflict.
// Because the first access of a conflicting pair leaves its tag and the
// second checks it, a conflict is found whichever of the two runs first, so
// the verdict does not depend on the order of workgroups or waves (the
// message names the side that ran second).
//
// The scalar cache is not coherent with vector memory (AMDGPUUsage, memory
// model GFX90A/GFX942), and it is write-back: plain scalar stores reach
// memory at s_dcache_wb (LLVM's SIInsertWaitcnts puts one before s_endpgm
// when a function has scalar stores). glc (globally coherent) loads miss in
// the scalar cache and glc stores write through; scalar atomics are
// performed in memory (hipSPARSELt's split-K kernels count workgroups with
// s_atomic_dec across the device and never write the cache back).
// Fail-closed rules:
//  - a scalar load without glc of bytes written in this dispatch by
//    anything but the wave's own scalar store may read a stale scalar-cache
//    line: race, except an atomic unordered with the load (any value the
//    location held is then a possible result anyway, as for a vector load);
//  - any other access (vector, glc, or another wave) to bytes a plain
//    scalar store left in a scalar cache (no s_dcache_wb + s_waitcnt
//    lgkmcnt(0) since) is a race, and a wave that ends with such bytes
//    fails.
//
// Tags are 64 bits: [31:0] workgroup linear id + 1, [35:32] wave, flags
// [38:36], byte mask [42:39], barrier epoch [63:43] (saturating).
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "llvm/Support/FormatVariadic.h"

#include <new>
#include <unordered_map>

#include <sys/mman.h>

using namespace llvm;

namespace asmevo {
namespace emu {

namespace {

// Writer flags.
constexpr uint64_t FDirty = 1ull << 36;  // scalar write still in a scalar cache
constexpr uint64_t FScalar = 1ull << 37; // written by a scalar store/atomic
constexpr uint64_t FAtomic = 1ull << 38; // written by an atomic
// Reader flags.
constexpr uint64_t FMultiWave = 1ull << 37; // several waves, same epoch
constexpr uint64_t FMultiWG = 1ull << 38;   // several workgroups
constexpr unsigned MaskShift = 39, EpochShift = 43;
constexpr uint64_t MaskBits = 0xfull << MaskShift;
constexpr uint32_t MaxEpoch = (1u << 21) - 1;

uint32_t tagWG(uint64_t T) { return uint32_t(T); }
unsigned tagWave(uint64_t T) { return (T >> 32) & 0xf; }
unsigned tagMask(uint64_t T) { return (T >> MaskShift) & 0xf; }
uint32_t tagEpoch(uint64_t T) { return uint32_t(T >> EpochShift); }
uint64_t makeTag(uint32_t WG1, unsigned Wave, uint32_t Epoch, unsigned Mask) {
  return uint64_t(WG1) | uint64_t(Wave & 0xf) << 32 |
         uint64_t(Mask) << MaskShift |
         uint64_t(std::min(Epoch, MaxEpoch)) << EpochShift;
}

struct Accessor {
  uint32_t WG1;  // workgroup linear id + 1
  unsigned Wave; // in the workgroup
  uint32_t Epoch;
};

// A tag's access is unordered with the accessor's: another workgroup, or
// another wave of the workgroup in the same barrier epoch.
bool unordered(uint64_t T, const Accessor &A) {
  if (!tagWG(T))
    return false;
  if (tagWG(T) != A.WG1)
    return true;
  return tagWave(T) != (A.Wave & 0xf) &&
         tagEpoch(T) == std::min(A.Epoch, MaxEpoch);
}

bool readerConflict(uint64_t R, const Accessor &A, unsigned Mask) {
  if (!R || !(tagMask(R) & Mask))
    return false;
  if ((R & FMultiWG) || tagWG(R) != A.WG1)
    return true;
  if (tagEpoch(R) != std::min(A.Epoch, MaxEpoch))
    return false;
  return (R & FMultiWave) || tagWave(R) != (A.Wave & 0xf);
}

uint64_t mergeReader(uint64_t R, const Accessor &A, unsigned Mask) {
  uint64_t M = uint64_t(Mask) << MaskShift;
  if (!R)
    return makeTag(A.WG1, A.Wave, A.Epoch, Mask);
  if (R & FMultiWG)
    return R | M;
  if (tagWG(R) != A.WG1)
    return R | FMultiWG | M;
  if (tagEpoch(R) != std::min(A.Epoch, MaxEpoch)) // older reads: ordered
    return makeTag(A.WG1, A.Wave, A.Epoch, Mask);
  if (tagWave(R) == (A.Wave & 0xf) && !(R & FMultiWave))
    return R | M;
  return R | FMultiWave | M;
}

} // namespace

/// Memory for shadow pages: chunks mapped fresh (zero-filled by the kernel)
/// at 2 MiB alignment and advised as transparent huge pages. A streamed
/// 12 MiB array has 48 MiB of tags; with 64 KiB pages from operator new,
/// zeroing them and the 4 KiB page faults took a third of a memory-bound
/// run. Freed all at once with the dispatch's shadow.
class PageArena {
  static constexpr size_t Huge = size_t(2) << 20, Chunk = size_t(16) << 20;
  std::mutex M;
  std::vector<std::pair<void *, size_t>> Maps;
  uint8_t *Next = nullptr, *End = nullptr;

public:
  PageArena() = default;
  PageArena(const PageArena &) = delete;
  PageArena &operator=(const PageArena &) = delete;
  ~PageArena() {
    for (auto &[P, N] : Maps)
      munmap(P, N);
  }
  /// N zero bytes, 64-byte aligned (N a multiple of 64).
  void *alloc(size_t N) {
    std::lock_guard<std::mutex> L(M);
    if (size_t(End - Next) < N) {
      size_t Len = std::max(Chunk, (N + Huge - 1) / Huge * Huge) + Huge;
      void *P = mmap(nullptr, Len, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (P == MAP_FAILED)
        throw std::bad_alloc();
      Maps.push_back({P, Len});
      uintptr_t A = (uintptr_t(P) + Huge - 1) & ~(uintptr_t(Huge) - 1);
#ifdef MADV_HUGEPAGE
      madvise(reinterpret_cast<void *>(A), Len - (A - uintptr_t(P)),
              MADV_HUGEPAGE);
#endif
      Next = reinterpret_cast<uint8_t *>(A);
      End = static_cast<uint8_t *>(P) + Len;
    }
    void *R = Next;
    Next += N;
    return R;
  }
};

/// Tags of one writable region. Writer and reader tags are in separate
/// pages, each allocated when a tag in it is first written: a streamed input
/// array gets no writer pages and an output array no reader pages, which
/// halves the tag memory and traffic of such kernels.
struct RegionShadow {
  static constexpr unsigned PageDwords = 4096;
  struct Page {
    std::atomic<uint64_t> T[PageDwords];
  };
  using Pages = std::unique_ptr<std::atomic<Page *>[]>;
  uint64_t Base = 0; // dword-aligned
  size_t NumPages = 0;
  Pages WPages, RPages;
  PageArena &Arena;
  RegionShadow(const Region &Rg, PageArena &Arena) : Arena(Arena) {
    Base = Rg.Base & ~3ull;
    uint64_t Dwords = (Rg.Base + Rg.Size - Base + 3) / 4;
    NumPages = (Dwords + PageDwords - 1) / PageDwords;
    WPages.reset(new std::atomic<Page *>[NumPages]);
    RPages.reset(new std::atomic<Page *>[NumPages]);
    for (size_t K = 0; K < NumPages; ++K) {
      WPages[K].store(nullptr, std::memory_order_relaxed);
      RPages[K].store(nullptr, std::memory_order_relaxed);
    }
  }
  Page *page(Pages &Ps, size_t P) {
    Page *Pg = Ps[P].load(std::memory_order_seq_cst);
    if (Pg)
      return Pg;
    // Zero bytes are zero tags; a page lost to a concurrent first touch
    // stays in the arena.
    Page *New = new (Arena.alloc(sizeof(Page))) Page;
    if (Ps[P].compare_exchange_strong(Pg, New, std::memory_order_seq_cst))
      return New;
    return Pg;
  }
  // Tags to update (their pages are allocated).
  std::atomic<uint64_t> &wtag(uint64_t Dw) {
    return page(WPages, Dw / PageDwords)->T[Dw % PageDwords];
  }
  std::atomic<uint64_t> &rtag(uint64_t Dw) {
    return page(RPages, Dw / PageDwords)->T[Dw % PageDwords];
  }
  // A tag's value, 0 while its page does not exist. The page pointer is
  // read seq_cst like the tag: of a reader publishing its tag and a writer
  // creating the page and then reading the reader tags, one sees the other.
  static uint64_t load(const Pages &Ps, uint64_t Dw, std::memory_order O) {
    Page *Pg = Ps[Dw / PageDwords].load(std::memory_order_seq_cst);
    return Pg ? Pg->T[Dw % PageDwords].load(O) : 0;
  }
  uint64_t wload(uint64_t Dw, std::memory_order O = std::memory_order_seq_cst) {
    return load(WPages, Dw, O);
  }
  uint64_t rload(uint64_t Dw, std::memory_order O = std::memory_order_seq_cst) {
    return load(RPages, Dw, O);
  }
};

struct GlobalShadow {
  std::array<uint32_t, 3> Grid{1, 1, 1};
  // Workgroups run on several host threads: tags are published with
  // sequentially consistent stores and read-modify-writes so that of two
  // conflicting accesses on different threads the second always sees the
  // first (store-buffering). On one thread plain loads and stores do.
  bool Concurrent = true;
  std::mutex M;
  PageArena Arena; // outlives Map's pages
  std::unordered_map<const Region *, std::unique_ptr<RegionShadow>> Map;
  RegionShadow *get(const Region &R) {
    std::lock_guard<std::mutex> L(M);
    auto &P = Map[&R];
    if (!P)
      P = std::make_unique<RegionShadow>(R, Arena);
    return P.get();
  }
};

void setGlobalShadowConcurrent(GlobalShadow &S, bool Concurrent) {
  S.Concurrent = Concurrent;
}

std::shared_ptr<GlobalShadow> makeGlobalShadow(std::array<uint32_t, 3> Grid) {
  auto S = std::make_shared<GlobalShadow>();
  S->Grid = Grid;
  return S;
}

unsigned laneOfAccess(const Wave &W, const Wave::GlobalAcc &A, uint64_t Addr) {
  if (!A.Stride)
    return A.Lane;
  // The k-th active lane from A.Lane on.
  uint64_t Exec = W.exec() >> A.Lane;
  for (uint64_t K = (Addr - A.Addr) / A.Stride; K && Exec; --K)
    Exec &= Exec - 1;
  return A.Lane + (Exec ? __builtin_ctzll(Exec) : 0);
}

namespace {

// The shadow of the writable region holding [Addr, Addr+Len), or null.
RegionShadow *shadowFor(Wave &W, uint64_t Addr, uint64_t Len) {
  Ctx &C = *W.C;
  if (C.ShadowRegion && C.ShadowRegion->contains(Addr, Len))
    return C.Shadow;
  // Regions are mapped during a run only by a verifier's single-threaded
  // observer, so the lookup does not race with a map().
  Region *R = C.Sh->Mem->find(Addr, Len);
  if (!R || !(R->Perms & PermWrite))
    return nullptr; // read-only memory cannot race
  C.ShadowRegion = R;
  C.Shadow = C.Sh->GShadow->get(*R);
  return C.Shadow;
}

std::string wgName(const GlobalShadow &S, uint32_t WG1) {
  uint64_t L = WG1 - 1;
  return formatv("({0},{1},{2})", L % S.Grid[0], L / S.Grid[0] % S.Grid[1],
                 L / (uint64_t(S.Grid[0]) * S.Grid[1]))
      .str();
}

std::string who(const GlobalShadow &S, uint64_t T, const Accessor &A) {
  if (tagWG(T) == A.WG1)
    return formatv("wave {0} of this workgroup in the same barrier interval",
                   tagWave(T))
        .str();
  return formatv("workgroup {0} wave {1} (workgroups are ordered only by "
                 "atomics)",
                 wgName(S, tagWG(T)), tagWave(T))
      .str();
}

// The common case of access() for a vector (not scalar, not atomic) load or
// store on one host thread: when the dword's tags show no conflict under
// access()'s rules (keep the two in step), records the access and returns
// true; otherwise changes nothing and returns false (access() then reports).
// A whole-wave access checks 64 dwords: this skips the message machinery.
// Own is the tag the access updates (reader tag of a load, writer tag of a
// store), Other the value of the other one. Merged: a load's reader tag
// was already merged (several threads: checkGlobalShadow publishes first).
inline bool quietVectorAccess(std::atomic<uint64_t> &Own, uint64_t Other,
                              const Accessor &A, bool Write, unsigned Mask,
                              bool Merged) {
  if (!Write) {
    uint64_t T = Other;
    if (T && (tagMask(T) & Mask) &&
        ((T & FDirty) || (!(T & FAtomic) && tagWG(T) != A.WG1)))
      return false;
    if (Merged)
      return true;
    uint64_t R = Own.load(std::memory_order_relaxed);
    uint64_t NR = mergeReader(R, A, Mask);
    if (NR != R)
      Own.store(NR, std::memory_order_relaxed);
    return true;
  }
  std::atomic<uint64_t> &WT = Own;
  uint64_t T = WT.load(std::memory_order_relaxed);
  if (T && (tagMask(T) & Mask) && ((T & FDirty) || unordered(T, A)))
    return false;
  if (readerConflict(Other, A, Mask))
    return false;
  uint64_t New = makeTag(A.WG1, A.Wave, A.Epoch, Mask);
  if (T)
    New |= T & MaskBits;
  if (T != New)
    WT.store(New, std::memory_order_relaxed);
  return true;
}

// Checks and records one access; returns an error message or "".
// quietVectorAccess() has the vector load/store rules too.
std::string access(GlobalShadow &S, RegionShadow &RS, const Accessor &A,
                   const Wave::GlobalAcc &X, uint64_t Dw, unsigned Mask) {
  bool Scalar = X.Lane >= 64;
  // glc loads miss in the scalar cache; glc stores and atomics go to memory.
  bool Coherent = X.Lane == 65;
  auto ownScalar = [&](uint64_t T) {
    return tagWG(T) == A.WG1 && tagWave(T) == (A.Wave & 0xf) && (T & FScalar) &&
           !(T & FAtomic);
  };
  if (!X.Write) { // load
    std::atomic<uint64_t> &RT = RS.rtag(Dw);
    uint64_t R = RT.load(std::memory_order_relaxed);
    uint64_t NR = mergeReader(R, A, Mask);
    // The store orders with a writer's load of RT (Dekker). Between threads
    // it is a compare-and-swap: two readers merging at once must not lose
    // one's tag (a later store would miss its write-after-read race).
    if (!S.Concurrent) {
      if (NR != R)
        RT.store(NR, std::memory_order_relaxed);
    } else {
      while (NR != R &&
             !RT.compare_exchange_weak(R, NR, std::memory_order_seq_cst))
        NR = mergeReader(R, A, Mask);
    }
    uint64_t T = RS.wload(Dw);
    if (!T || !(tagMask(T) & Mask))
      return "";
    // A location updated by another wave's atomic, unordered with this
    // load, may give any value it held (the compare-and-swap loops of
    // atomics.hip read it with s_load on purpose), as for vector loads.
    if (Scalar && !Coherent && !ownScalar(T) &&
        !((T & FAtomic) && unordered(T, A)))
      return "scalar load of bytes written in this dispatch by " +
             std::string((T & FScalar) ? "a scalar" : "a vector") +
             (T & FAtomic ? " atomic" : " store") + " of " +
             (tagWG(T) == A.WG1 && tagWave(T) == (A.Wave & 0xf)
                  ? std::string("this wave")
                  : formatv("workgroup {0} wave {1}", wgName(S, tagWG(T)),
                            tagWave(T))
                        .str()) +
             ": the scalar cache is not coherent with vector memory or "
             "other scalar caches and may return stale data";
    if ((!Scalar || Coherent || !ownScalar(T)) && (T & FDirty))
      return formatv("reads bytes that a scalar store of workgroup {0} wave "
                     "{1} may still hold in its scalar cache (no s_dcache_wb "
                     "and s_waitcnt lgkmcnt(0) since)",
                     wgName(S, tagWG(T)), tagWave(T))
          .str();
    if (!(T & FAtomic) && tagWG(T) != A.WG1)
      return "reads bytes stored by " + who(S, T, A) +
             ": the read and the store are unordered";
    return "";
  }
  if (X.Atomic) { // atomics: ordered among themselves
    std::atomic<uint64_t> &WT = RS.wtag(Dw);
    uint64_t T = WT.load(std::memory_order_seq_cst);
    if (T && (tagMask(T) & Mask)) {
      // Atomics are performed in memory: a scalar cache's dirty line would
      // overwrite the result when it is written back.
      if (T & FDirty)
        return formatv("atomic on bytes that a scalar store of workgroup "
                       "{0} wave {1} may still hold in its scalar cache (no "
                       "s_dcache_wb and s_waitcnt lgkmcnt(0) since)",
                       wgName(S, tagWG(T)), tagWave(T))
            .str();
      if (!(T & FAtomic) && unordered(T, A))
        return "atomic on bytes stored (non-atomically) by " + who(S, T, A) +
               ": the store and the atomic are unordered";
    }
    // Recorded only where no plain store is (scalar loads check any write).
    uint64_t New = makeTag(A.WG1, A.Wave, A.Epoch, Mask) | FAtomic |
                   (Scalar ? FScalar : 0);
    if (!T || (T & FAtomic)) {
      if (T & FAtomic)
        New |= T & MaskBits;
      if (S.Concurrent)
        WT.compare_exchange_strong(T, New, std::memory_order_seq_cst);
      else
        WT.store(New, std::memory_order_relaxed);
    }
    return "";
  }
  // Store.
  std::atomic<uint64_t> &WT = RS.wtag(Dw);
  uint64_t New = makeTag(A.WG1, A.Wave, A.Epoch, Mask) |
                 (Scalar ? FScalar : 0) | (Scalar && !Coherent ? FDirty : 0);
  uint64_t T = WT.load(std::memory_order_relaxed);
  // Same writer, same epoch: keep the bytes it wrote before; another
  // writer's bytes are kept too, so a mixed dword stays conservative.
  if (T)
    New |= T & MaskBits;
  if (T != New && S.Concurrent)
    T = WT.exchange(New, std::memory_order_seq_cst);
  else if (T != New) // one thread: nobody wrote since the load
    WT.store(New, std::memory_order_relaxed);
  if (T && (tagMask(T) & Mask)) {
    if ((T & FDirty) && !(Scalar && ownScalar(T)))
      return formatv("stores to bytes that a scalar store of workgroup {0} "
                     "wave {1} may still hold in its scalar cache (its "
                     "write-back would land after this store)",
                     wgName(S, tagWG(T)), tagWave(T))
          .str();
    if (unordered(T, A))
      return std::string("stores to bytes ") +
             (T & FAtomic ? "updated atomically" : "stored") + " by " +
             who(S, T, A) + ": the two writes are unordered";
  }
  uint64_t R = RS.rload(Dw);
  if (readerConflict(R, A, Mask)) {
    if (R & (FMultiWG | FMultiWave) && tagWG(R) == A.WG1 && !(R & FMultiWG))
      return "stores to bytes read by several waves of this workgroup in "
             "the same barrier interval: the reads and the store are "
             "unordered";
    if (R & FMultiWG)
      return "stores to bytes read by other workgroups (workgroups are "
             "ordered only by atomics): the reads and the store are "
             "unordered";
    return "stores to bytes read by " + who(S, R, A) +
           ": the read and the store are unordered";
  }
  return "";
}

} // namespace

void checkGlobalShadow(Wave &W, const Inst &I) {
  GlobalShadow &S = *W.C->Sh->GShadow;
  Accessor A{uint32_t(W.WG->Linear + 1), W.Id, W.WG->Epoch};
  for (const Wave::GlobalAcc &X : W.GAcc) {
    if (!X.Len)
      continue;
    RegionShadow *RS = shadowFor(W, X.Addr, X.Len);
    if (!RS)
      continue;
    uint64_t End = X.Addr + X.Len;
    // One thread: no other thread can change a tag between the look and
    // the update, so the quiet path needs no ordering. Several threads, a
    // vector load: the reader tags of the whole range are published first,
    // then one seq_cst fence, then the writer tags are looked at. Against a
    // writer's exchange and seq_cst load this is the store-buffering
    // argument of access()'s seq_cst store and load per dword, with one
    // fence instead of an exchange per dword.
    bool Quiet = X.Lane < 64 && !X.Atomic && (!S.Concurrent || !X.Write);
    if (Quiet && S.Concurrent) {
      for (uint64_t B = X.Addr & ~3ull; B < End; B += 4) {
        uint64_t Lo = std::max(B, X.Addr), Hi = std::min(B + 4, End);
        unsigned Mask = ((1u << (Hi - Lo)) - 1) << (Lo - B);
        std::atomic<uint64_t> &RT = RS->rtag((B - RS->Base) / 4);
        uint64_t R = RT.load(std::memory_order_relaxed);
        uint64_t NR = mergeReader(R, A, Mask);
        // Compare-and-swap: another thread's reader may merge at once.
        while (NR != R &&
               !RT.compare_exchange_weak(R, NR, std::memory_order_relaxed))
          NR = mergeReader(R, A, Mask);
      }
      std::atomic_thread_fence(std::memory_order_seq_cst);
    }
    // The access updates its own kind of tag and reads the other kind.
    RegionShadow::Pages &OwnPs = X.Write ? RS->WPages : RS->RPages;
    RegionShadow::Pages &OtherPs = X.Write ? RS->RPages : RS->WPages;
    RegionShadow::Page *OwnPg = nullptr, *OtherPg = nullptr;
    uint64_t PgNo = 0;
    if (X.Len >= 64) // a wave's range: fetch its tag lines in parallel
      for (uint64_t B = X.Addr & ~31ull; B < End; B += 32) {
        uint64_t Dw = (B < RS->Base ? 0 : B - RS->Base) / 4;
        size_t P = Dw / RegionShadow::PageDwords,
               K = Dw % RegionShadow::PageDwords;
        __builtin_prefetch(&RS->page(OwnPs, P)->T[K], 1);
        if (RegionShadow::Page *O = OtherPs[P].load(std::memory_order_relaxed))
          __builtin_prefetch(&O->T[K], 0);
      }
    for (uint64_t B = X.Addr & ~3ull; B < End; B += 4) {
      uint64_t Lo = std::max(B, X.Addr), Hi = std::min(B + 4, End);
      unsigned Mask = ((1u << (Hi - Lo)) - 1) << (Lo - B);
      uint64_t Dw = (B - RS->Base) / 4;
      if (Quiet) {
        if (!OwnPg || Dw / RegionShadow::PageDwords != PgNo) {
          PgNo = Dw / RegionShadow::PageDwords;
          OwnPg = RS->page(OwnPs, PgNo);
          OtherPg = OtherPs[PgNo].load(std::memory_order_relaxed);
        }
        size_t K = Dw % RegionShadow::PageDwords;
        uint64_t Other =
            OtherPg ? OtherPg->T[K].load(std::memory_order_relaxed) : 0;
        if (quietVectorAccess(OwnPg->T[K], Other, A, X.Write, Mask,
                              S.Concurrent))
          continue;
      }
      std::string Err = access(S, *RS, A, X, Dw, Mask);
      if (Err.empty())
        continue;
      unsigned Lane = laneOfAccess(W, X, Lo);
      W.fail(ErrorKind::Race, I,
             formatv("address {0:x} ({1}): {2}", Lo,
                     Lane >= 64 ? std::string("scalar")
                                : "lane " + std::to_string(Lane),
                     Err)
                 .str());
      return;
    }
  }
}

void scalarWriteBack(Wave &W) {
  unsigned N = std::min<size_t>(W.SWbIssued, W.SDirty.size());
  if (W.C->Sh->GShadow) {
    uint32_t WG1 = uint32_t(W.WG->Linear + 1);
    for (unsigned K = 0; K < N; ++K) {
      auto [Lo, Hi] = W.SDirty[K];
      for (uint64_t B = Lo & ~3ull; B < Hi; B += 4) {
        RegionShadow *RS = shadowFor(W, B, 4);
        if (!RS)
          continue;
        std::atomic<uint64_t> &WT = RS->wtag((B - RS->Base) / 4);
        uint64_t T = WT.load(std::memory_order_relaxed);
        while ((T & FDirty) && tagWG(T) == WG1 && tagWave(T) == (W.Id & 0xf) &&
               !WT.compare_exchange_weak(T, T & ~FDirty,
                                         std::memory_order_seq_cst))
          ;
      }
    }
  }
  W.SDirty.erase(W.SDirty.begin(), W.SDirty.begin() + N);
  W.SWbIssued = 0;
}

bool scalarEndCheck(Wave &W, const Inst &I) {
  if (W.SDirty.size() > W.SWbIssued) {
    W.fail(ErrorKind::Race, I,
           formatv("the wave ends with scalar-store bytes at {0:x} still in "
                   "the scalar cache (no s_dcache_wb after the store)",
                   W.SDirty[W.SWbIssued].first)
               .str());
    return false;
  }
  scalarWriteBack(W);
  return true;
}

} // namespace emu
} // namespace asmevo
