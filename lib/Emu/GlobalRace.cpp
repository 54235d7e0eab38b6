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
// Coarse tags: each aligned block of 64 dwords (256 bytes, what a whole
// wave's contiguous dword access covers) has one writer and one reader
// block tag. While every dword of a block has the same tag, the block tag
// holds it and the per-dword tags are unused, so such an access checks and
// updates one tag of each kind instead of 64. The first access of a kind
// that does not cover the whole block with whole dwords (a partial wave, a
// misaligned run, a scalar access, an atomic, a write-back) splits that
// kind's block: the block tag is copied into its 64 per-dword tags and
// becomes Mixed for good. The logical tag of a dword is the block tag, or
// its own tag when the block is Mixed, and every rule below is applied to
// logical tags exactly as before (a rule applied to 64 equal tags with the
// same accessor and byte mask gives 64 equal results).
//
// Byte tags: hardware reads and writes bytes, so two workgroups may read
// and store different halves of one dword (16-bit data with an odd block).
// One tag per dword would merge them into a conflict. The first access that
// covers part of a dword splits that kind's dword tag into four byte tags
// (again under a marker, for good), and the rules apply to each byte's
// logical tag (its byte tag, or the dword tag while that kind is not
// split). Whole-dword accesses to dwords never touched in part keep the
// dword (and block) path.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "llvm/Support/FormatVariadic.h"

#include <new>
#include <optional>
#include <thread>
#include <type_traits>
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

// Block tag markers (no tag has workgroup field 0). Splitting: one thread
// copies the block tag into the dword tags; others wait for Mixed.
constexpr uint64_t Mixed = 1ull << 32, Splitting = 2ull << 32;
// Dword tag markers. ByteTags: the dword's tags of this kind are per byte
// (the region's byte pages); SplittingBytes: one thread copies the dword
// tag into them, others wait for ByteTags.
constexpr uint64_t ByteTags = 3ull << 32, SplittingBytes = 4ull << 32;
bool isMarker(uint64_t T) { return T && !uint32_t(T); }

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
/// run. The first chunk is not advised: most dispatches of tier-1 inputs
/// touch a few KiB of many small regions, and zeroing whole huge pages for
/// them was a fifth of asmevo-verify's time on rocSPARSE objects.
/// Freed all at once with the dispatch's shadow.
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
      bool First = Maps.empty();
      size_t Len = std::max(Chunk, (N + Huge - 1) / Huge * Huge) + Huge;
      void *P = mmap(nullptr, Len, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (P == MAP_FAILED)
        throw std::bad_alloc();
      Maps.push_back({P, Len});
      uintptr_t A = uintptr_t(P);
      if (!First) {
        A = (A + Huge - 1) & ~(uintptr_t(Huge) - 1);
#ifdef MADV_HUGEPAGE
        madvise(reinterpret_cast<void *>(A), Len - (A - uintptr_t(P)),
                MADV_HUGEPAGE);
#endif
      }
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
/// halves the tag memory and traffic of such kernels. Block tags (see the
/// file comment) are in front of them.
struct RegionShadow {
  static constexpr unsigned PageDwords = 4096, BlockDwords = 64;
  struct Page {
    std::atomic<uint64_t> T[PageDwords];
  };
  using Pages = std::unique_ptr<std::atomic<Page *>[]>;
  // Byte tags of the page's dwords that sub-dword accesses split; tag
  // format as above with the byte's mask bit only.
  struct BytePage {
    std::atomic<uint64_t> T[PageDwords * 4];
  };
  using BytePages = std::unique_ptr<std::atomic<BytePage *>[]>;
  uint64_t Base = 0; // 256-byte aligned, so blocks are aligned in memory
  size_t NumPages = 0;
  size_t TagDwords = 0; // dwords from Base, whole blocks
  Pages WPages, RPages;
  BytePages WBytes, RBytes;
  std::atomic<uint64_t> *WBlocks, *RBlocks; // zero: no tag yet
  size_t NumBlocks = 0;
  PageArena &Arena;
  RegionShadow(const Region &Rg, PageArena &Arena) : Arena(Arena) {
    Base = Rg.Base & ~255ull;
    uint64_t Dwords = (Rg.Base + Rg.Size - Base + 3) / 4;
    NumPages = (Dwords + PageDwords - 1) / PageDwords;
    TagDwords = (Dwords + BlockDwords - 1) / BlockDwords * BlockDwords;
    WPages.reset(new std::atomic<Page *>[NumPages]);
    RPages.reset(new std::atomic<Page *>[NumPages]);
    WBytes.reset(new std::atomic<BytePage *>[NumPages]);
    RBytes.reset(new std::atomic<BytePage *>[NumPages]);
    for (size_t K = 0; K < NumPages; ++K) {
      WPages[K].store(nullptr, std::memory_order_relaxed);
      RPages[K].store(nullptr, std::memory_order_relaxed);
      WBytes[K].store(nullptr, std::memory_order_relaxed);
      RBytes[K].store(nullptr, std::memory_order_relaxed);
    }
    // Zero block tags. Pages of blocks are whole.
    size_t N = std::max<size_t>(NumPages * (PageDwords / BlockDwords), 1);
    NumBlocks = N;
    WBlocks = new (std::calloc(N, 8)) std::atomic<uint64_t>[N];
    RBlocks = new (std::calloc(N, 8)) std::atomic<uint64_t>[N];
    if (!WBlocks || !RBlocks)
      throw std::bad_alloc();
  }
  ~RegionShadow() {
    std::free(WBlocks);
    std::free(RBlocks);
  }
  Pages &pages(bool Writer) { return Writer ? WPages : RPages; }
  std::atomic<uint64_t> *blocks(bool Writer) {
    return Writer ? WBlocks : RBlocks;
  }
  template <typename PageT>
  PageT *page(std::unique_ptr<std::atomic<PageT *>[]> &Ps, size_t P) {
    PageT *Pg = Ps[P].load(std::memory_order_seq_cst);
    if (Pg)
      return Pg;
    // Zero bytes are zero tags; a page lost to a concurrent first touch
    // stays in the arena. A region's last page holds only the blocks the
    // region covers: tier-1 discovery maps 4 KiB pieces, whose 8 KiB of
    // tags were a whole 32 KiB page for the kernel to zero. (The tags are
    // trivially constructed atomics: the placement new writes nothing past
    // the allocation.)
    static_assert(std::is_trivially_default_constructible_v<PageT>);
    constexpr size_t TagBytes = sizeof(PageT) / PageDwords;
    size_t Bytes =
        std::min(sizeof(PageT), (TagDwords - P * PageDwords) * TagBytes);
    PageT *New = new (Arena.alloc(Bytes)) PageT;
    if (Ps[P].compare_exchange_strong(Pg, New, std::memory_order_seq_cst))
      return New;
    return Pg;
  }
  BytePages &bytePages(bool Writer) { return Writer ? WBytes : RBytes; }
  // The block tag of block Blk, waiting while another thread splits it.
  // Loads of block tags are seq_cst: a Mixed seen then orders the dword
  // tags copied before it (and the store-buffering argument goes through
  // whichever tag an access publishes to).
  uint64_t block(bool Writer, uint64_t Blk) {
    std::atomic<uint64_t> &B = blocks(Writer)[Blk];
    uint64_t V = B.load(std::memory_order_seq_cst);
    while (V == Splitting) {
      std::this_thread::yield();
      V = B.load(std::memory_order_seq_cst);
    }
    return V;
  }
  // Makes the block's dword tags of one kind the logical ones: the block
  // tag is copied into them (under the Splitting marker, so that no update
  // of the block tag is lost) and becomes Mixed.
  void split(bool Writer, uint64_t Blk) {
    std::atomic<uint64_t> &B = blocks(Writer)[Blk];
    for (;;) {
      uint64_t V = block(Writer, Blk);
      if (V == Mixed)
        return;
      uint64_t Dw = Blk * BlockDwords;
      Page *Pg = page(pages(Writer), Dw / PageDwords);
      if (!V) { // dword tags of a never-tagged block are zero
        if (B.compare_exchange_strong(V, Mixed, std::memory_order_seq_cst))
          return;
        continue;
      }
      if (!B.compare_exchange_strong(V, Splitting, std::memory_order_seq_cst))
        continue;
      for (unsigned K = 0; K < BlockDwords; ++K)
        Pg->T[Dw % PageDwords + K].store(V, std::memory_order_relaxed);
      B.store(Mixed, std::memory_order_seq_cst);
      return;
    }
  }
  // Dword tags to update in place (their block is split first).
  std::atomic<uint64_t> &tag(bool Writer, uint64_t Dw) {
    split(Writer, Dw / BlockDwords);
    return page(pages(Writer), Dw / PageDwords)->T[Dw % PageDwords];
  }
  std::atomic<uint64_t> &wtag(uint64_t Dw) { return tag(true, Dw); }
  std::atomic<uint64_t> &rtag(uint64_t Dw) { return tag(false, Dw); }
  // A dword's logical tag, or ByteTags (never SplittingBytes: it waits).
  // The page pointer is read seq_cst like the tag: of a reader publishing
  // its tag and a writer creating the page and then reading the reader
  // tags, one sees the other.
  uint64_t load(bool Writer, uint64_t Dw,
                std::memory_order O = std::memory_order_seq_cst) {
    uint64_t V = block(Writer, Dw / BlockDwords);
    if (V != Mixed)
      return V;
    Page *Pg = pages(Writer)[Dw / PageDwords].load(std::memory_order_seq_cst);
    if (!Pg)
      return 0;
    V = Pg->T[Dw % PageDwords].load(O);
    while (V == SplittingBytes) {
      std::this_thread::yield();
      V = Pg->T[Dw % PageDwords].load(std::memory_order_seq_cst);
    }
    return V;
  }
  // Byte B's tag of a dword split into byte tags (splitBytes).
  std::atomic<uint64_t> &byteTag(bool Writer, uint64_t Dw, unsigned B) {
    BytePage *BP =
        bytePages(Writer)[Dw / PageDwords].load(std::memory_order_seq_cst);
    return BP->T[(Dw % PageDwords) * 4 + B];
  }
  // Makes the dword's byte tags of one kind the logical ones, so that
  // accesses to different bytes of it (16-bit or 8-bit data of different
  // workgroups) are told apart: the dword tag is copied into the bytes its
  // mask covers (under SplittingBytes, so no concurrent update is lost) and
  // becomes ByteTags for good. Exact: a dword tag only ever holds whole-
  // dword accesses (a sub-dword one splits first).
  void splitBytes(bool Writer, uint64_t Dw) {
    std::atomic<uint64_t> &T = tag(Writer, Dw);
    BytePage *BP = page(bytePages(Writer), Dw / PageDwords);
    for (;;) {
      uint64_t V = T.load(std::memory_order_seq_cst);
      if (V == ByteTags)
        return;
      if (V == SplittingBytes) {
        std::this_thread::yield();
        continue;
      }
      if (!T.compare_exchange_strong(V, SplittingBytes,
                                     std::memory_order_seq_cst))
        continue;
      for (unsigned B = 0; B < 4; ++B) {
        uint64_t BT = V && (tagMask(V) >> B & 1)
                          ? (V & ~MaskBits) | uint64_t(1u << B) << MaskShift
                          : 0;
        BP->T[(Dw % PageDwords) * 4 + B].store(BT, std::memory_order_relaxed);
      }
      T.store(ByteTags, std::memory_order_seq_cst);
      return;
    }
  }
};

// Calls F(T, M) with the logical tags of one kind of the bytes Mask of
// dword Dw: once with the dword tag, or once per byte when the dword is
// split into byte tags; returns F's first non-empty answer.
template <typename Fn>
std::string forLogical(RegionShadow &RS, bool Writer, uint64_t Dw,
                       unsigned Mask, Fn F) {
  uint64_t V = RS.load(Writer, Dw);
  if (V != ByteTags)
    return F(V, Mask);
  for (unsigned B = 0; B < 4; ++B) {
    if (!(Mask >> B & 1))
      continue;
    std::string E =
        F(RS.byteTag(Writer, Dw, B).load(std::memory_order_seq_cst), 1u << B);
    if (!E.empty())
      return E;
  }
  return "";
}

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
  for (unsigned K = 0; K < Ctx::ShadowWays; ++K)
    if (C.ShadowRegion[K] && C.ShadowRegion[K]->contains(Addr, Len))
      return C.Shadow[K];
  // Regions are mapped during a run only by a verifier's single-threaded
  // observer, so the lookup does not race with a map().
  Region *R = C.Sh->Mem->find(Addr, Len);
  if (!R || !(R->Perms & PermWrite))
    return nullptr; // read-only memory cannot race
  unsigned K = C.ShadowNext++ % Ctx::ShadowWays;
  C.ShadowRegion[K] = R;
  C.Shadow[K] = C.Sh->GShadow->get(*R);
  return C.Shadow[K];
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

// Whether a vector load of Mask's bytes of a dword with writer tag T races
// (loadMsg() is then not empty; keep the two in step).
bool vectorLoadRaces(uint64_t T, const Accessor &A, unsigned Mask) {
  return T && (tagMask(T) & Mask) &&
         ((T & FDirty) || (!(T & FAtomic) && tagWG(T) != A.WG1));
}

// Whether a vector store of Mask's bytes of a dword whose writer tag was T
// and whose reader tag is R races (storeMsg() is then not empty).
bool vectorStoreRaces(uint64_t T, uint64_t R, const Accessor &A,
                      unsigned Mask) {
  return (T && (tagMask(T) & Mask) && ((T & FDirty) || unordered(T, A))) ||
         readerConflict(R, A, Mask);
}

// The common case of access() for a vector (not scalar, not atomic) load or
// store on one host thread: when the dword's tags show no conflict under
// access()'s rules (keep the two in step), records the access and returns
// true; otherwise changes nothing and returns false (access() then reports).
// A whole-wave access checks 64 dwords: this skips the message machinery.
// Own is the dword tag the access updates (reader tag of a load, writer tag
// of a store; null when Merged), Other the logical value of the other one.
// Merged: a load's reader tag was already merged (several threads:
// checkGlobalShadow publishes first).
// Sub-dword masks and dwords split into byte tags go to access() too.
inline bool quietVectorAccess(std::atomic<uint64_t> *Own, uint64_t Other,
                              const Accessor &A, bool Write, unsigned Mask,
                              bool Merged) {
  if (Mask != 0xf || isMarker(Other))
    return false;
  if (!Write) {
    if (vectorLoadRaces(Other, A, Mask))
      return false;
    if (Merged)
      return true;
    uint64_t R = Own->load(std::memory_order_relaxed);
    if (isMarker(R))
      return false;
    uint64_t NR = mergeReader(R, A, Mask);
    if (NR != R)
      Own->store(NR, std::memory_order_relaxed);
    return true;
  }
  std::atomic<uint64_t> &WT = *Own;
  uint64_t T = WT.load(std::memory_order_relaxed);
  if (isMarker(T) || vectorStoreRaces(T, Other, A, Mask))
    return false;
  uint64_t New = makeTag(A.WG1, A.Wave, A.Epoch, Mask);
  if (T)
    New |= T & MaskBits;
  if (T != New)
    WT.store(New, std::memory_order_relaxed);
  return true;
}

// Whether T is one of this wave's plain scalar stores.
bool ownScalar(uint64_t T, const Accessor &A) {
  return tagWG(T) == A.WG1 && tagWave(T) == (A.Wave & 0xf) && (T & FScalar) &&
         !(T & FAtomic);
}

// The race of a load of Mask's bytes of a dword whose writer tag is T, or
// "". Scalar: a scalar load; Coherent: with glc.
[[gnu::noinline]] std::string loadMsg(GlobalShadow &S, const Accessor &A,
                                      uint64_t T, unsigned Mask, bool Scalar,
                                      bool Coherent) {
  if (!T || !(tagMask(T) & Mask))
    return "";
  // A location updated by another wave's atomic, unordered with this
  // load, may give any value it held (the compare-and-swap loops of
  // atomics.hip read it with s_load on purpose), as for vector loads.
  if (Scalar && !Coherent && !ownScalar(T, A) &&
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
  if ((!Scalar || Coherent || !ownScalar(T, A)) && (T & FDirty))
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

// The race of a store (not atomic) of Mask's bytes of a dword whose writer
// tag was T before it and whose reader tag is R, or "".
[[gnu::noinline]] std::string storeMsg(GlobalShadow &S, const Accessor &A,
                                       uint64_t T, uint64_t R, unsigned Mask,
                                       bool Scalar, bool Coherent) {
  if (T && (tagMask(T) & Mask)) {
    if ((T & FDirty) && !(Scalar && ownScalar(T, A)))
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

// Checks and records access X of the bytes Mask of dword Dw on Own, the
// logical tag of the access's own kind (the reader tag of a load, the
// writer tag of a store or atomic: a dword tag or a byte tag), and the
// other kind's logical tags. std::nullopt: Own is a dword tag that another
// thread split into byte tags meanwhile (nothing recorded; go by bytes).
std::optional<std::string> accessTag(GlobalShadow &S, RegionShadow &RS,
                                     const Accessor &A,
                                     const Wave::GlobalAcc &X,
                                     std::atomic<uint64_t> &Own, uint64_t Dw,
                                     unsigned Mask) {
  bool Scalar = X.Lane >= 64;
  // glc loads miss in the scalar cache; glc stores and atomics go to memory.
  bool Coherent = X.Lane == 65;
  if (!X.Write) { // load
    uint64_t R = Own.load(std::memory_order_relaxed);
    // The update orders with a writer's load of the reader tag (Dekker).
    // Between threads it is a compare-and-swap: two readers merging at once
    // must not lose one's tag (a later store would miss its write-after-
    // read race).
    for (;;) {
      if (isMarker(R))
        return std::nullopt;
      uint64_t NR = mergeReader(R, A, Mask);
      if (NR == R)
        break;
      if (!S.Concurrent) {
        Own.store(NR, std::memory_order_relaxed);
        break;
      }
      if (Own.compare_exchange_weak(R, NR, std::memory_order_seq_cst))
        break;
    }
    return forLogical(RS, true, Dw, Mask, [&](uint64_t T, unsigned M) {
      return loadMsg(S, A, T, M, Scalar, Coherent);
    });
  }
  if (X.Atomic) { // atomics: ordered among themselves
    uint64_t T = Own.load(std::memory_order_seq_cst);
    for (;;) {
      if (isMarker(T))
        return std::nullopt;
      if (T && (tagMask(T) & Mask)) {
        // Atomics are performed in memory: a scalar cache's dirty line
        // would overwrite the result when it is written back.
        if (T & FDirty)
          return formatv("atomic on bytes that a scalar store of workgroup "
                         "{0} wave {1} may still hold in its scalar cache "
                         "(no s_dcache_wb and s_waitcnt lgkmcnt(0) since)",
                         wgName(S, tagWG(T)), tagWave(T))
              .str();
        if (!(T & FAtomic) && unordered(T, A))
          return "atomic on bytes stored (non-atomically) by " + who(S, T, A) +
                 ": the store and the atomic are unordered";
      }
      // Recorded only where no plain store is (scalar loads check any
      // write).
      if (T && !(T & FAtomic))
        break;
      uint64_t New = makeTag(A.WG1, A.Wave, A.Epoch, Mask) | FAtomic |
                     (Scalar ? FScalar : 0) | (T & MaskBits);
      if (T == New)
        break;
      if (!S.Concurrent) {
        Own.store(New, std::memory_order_relaxed);
        break;
      }
      // On failure another access changed the tag: check it again.
      if (Own.compare_exchange_weak(T, New, std::memory_order_seq_cst))
        break;
    }
    return std::string();
  }
  // Store.
  uint64_t New = makeTag(A.WG1, A.Wave, A.Epoch, Mask) |
                 (Scalar ? FScalar : 0) | (Scalar && !Coherent ? FDirty : 0);
  uint64_t T = Own.load(std::memory_order_relaxed);
  for (;;) {
    if (isMarker(T))
      return std::nullopt;
    // Same writer, same epoch: keep the bytes it wrote before. (Another
    // writer's bytes are those of a whole-dword store: the same bytes.)
    uint64_t N = New | (T & MaskBits);
    if (T == N)
      break;
    if (!S.Concurrent) { // one thread: nobody wrote since the load
      Own.store(N, std::memory_order_relaxed);
      break;
    }
    if (Own.compare_exchange_weak(T, N, std::memory_order_seq_cst))
      break;
  }
  return forLogical(RS, false, Dw, Mask, [&](uint64_t R, unsigned M) {
    return storeMsg(S, A, T, R, M, Scalar, Coherent);
  });
}

// Checks and records one access of the bytes Mask of dword Dw; returns an
// error message or "". A sub-dword access, or one to a dword already split,
// goes by byte tags. quietVectorAccess() has the vector load/store rules
// too.
[[gnu::noinline]] std::string access(GlobalShadow &S, RegionShadow &RS,
                                     const Accessor &A,
                                     const Wave::GlobalAcc &X, uint64_t Dw,
                                     unsigned Mask) {
  bool Writer = X.Write;
  if (Mask == 0xf && RS.load(Writer, Dw) != ByteTags)
    if (std::optional<std::string> E =
            accessTag(S, RS, A, X, RS.tag(Writer, Dw), Dw, Mask))
      return *E;
  RS.splitBytes(Writer, Dw);
  for (unsigned B = 0; B < 4; ++B) {
    if (!(Mask >> B & 1))
      continue;
    // Byte tags are never markers.
    std::string E =
        *accessTag(S, RS, A, X, RS.byteTag(Writer, Dw, B), Dw, 1u << B);
    if (!E.empty())
      return E;
  }
  return "";
}

// A vector load or store of the whole block Blk with whole dwords, on the
// block tags: when the block tag of the access's own kind is Mixed, does
// nothing and returns false (the caller goes dword by dword). Otherwise
// records the access, checks it against the other kind's logical tags with
// access()'s rules, and returns true with the race in Err at dword ErrK of
// the block. Merged: a load whose reader tag was already published. The
// other kind is read after the own tag is published (a store's
// compare-and-swap, or the caller's publish and fence for a load): the
// store-buffering order of access().
bool blockAccess(GlobalShadow &S, RegionShadow &RS, const Accessor &A,
                 bool Write, uint64_t Blk, bool Merged, std::string &Err,
                 unsigned &ErrK) {
  constexpr unsigned Full = 0xf;
  std::atomic<uint64_t> &Own = RS.blocks(Write)[Blk];
  uint64_t T = 0;          // a store: the writer tag it replaced
  if (!Write && !Merged) { // one thread
    uint64_t R = RS.block(false, Blk);
    if (R == Mixed)
      return false;
    uint64_t NR = mergeReader(R, A, Full);
    if (NR != R)
      Own.store(NR, std::memory_order_relaxed);
  } else if (Write) {
    uint64_t New = makeTag(A.WG1, A.Wave, A.Epoch, Full);
    T = RS.block(true, Blk);
    for (;;) {
      if (T == Mixed)
        return false;
      if (T == New)
        break;
      if (!S.Concurrent) {
        Own.store(New, std::memory_order_relaxed);
        break;
      }
      if (Own.compare_exchange_weak(T, New, std::memory_order_seq_cst))
        break;
      if (T == Splitting)
        T = RS.block(true, Blk);
    }
  }
  uint64_t Other = RS.block(!Write, Blk);
  uint64_t Dw0 = Blk * RegionShadow::BlockDwords;
  auto Check = [&](uint64_t O, unsigned M) {
    if (Write ? vectorStoreRaces(T, O, A, M) : vectorLoadRaces(O, A, M))
      return Write ? storeMsg(S, A, T, O, M, false, false)
                   : loadMsg(S, A, O, M, false, false);
    return std::string();
  };
  for (unsigned K = 0; K < RegionShadow::BlockDwords; ++K) {
    uint64_t O = Other == Mixed ? RS.load(!Write, Dw0 + K) : Other;
    Err = O == ByteTags ? forLogical(RS, !Write, Dw0 + K, Full, Check)
                        : Check(O, Full);
    if (!Err.empty()) {
      ErrK = K;
      return true;
    }
    if (Other != Mixed)
      return true;
  }
  return true;
}

// Publishes the reader tags of a vector load of [Lo, End) that runs on one
// of several host threads (checkGlobalShadow then fences).
void publishReads(RegionShadow &RS, const Accessor &A, uint64_t Lo,
                  uint64_t End) {
  for (uint64_t B = Lo & ~255ull; B < End; B += 256) {
    uint64_t Blk = (B - RS.Base) / 256;
    uint64_t L = std::max(B, Lo), H = std::min(B + 256, End);
    if (L == B && H == B + 256) {
      std::atomic<uint64_t> &BT = RS.RBlocks[Blk];
      uint64_t R = RS.block(false, Blk);
      bool Done = false;
      // Compare-and-swap: another thread's reader may merge at once.
      while (R != Mixed) {
        uint64_t NR = mergeReader(R, A, 0xf);
        if (NR == R ||
            BT.compare_exchange_weak(R, NR, std::memory_order_relaxed)) {
          Done = true;
          break;
        }
        if (R == Splitting)
          R = RS.block(false, Blk);
      }
      if (Done)
        continue;
    }
    for (uint64_t D = L & ~3ull; D < H; D += 4) {
      uint64_t DLo = std::max(D, L), DHi = std::min(D + 4, H);
      unsigned Mask = ((1u << (DHi - DLo)) - 1) << (DLo - D);
      uint64_t Dw = (D - RS.Base) / 4;
      auto Merge = [&](std::atomic<uint64_t> &RT, unsigned M) {
        uint64_t R = RT.load(std::memory_order_relaxed);
        for (;;) {
          if (isMarker(R))
            return false;
          uint64_t NR = mergeReader(R, A, M);
          if (NR == R ||
              RT.compare_exchange_weak(R, NR, std::memory_order_relaxed))
            return true;
        }
      };
      // A whole dword merges into its dword tag unless that is (or becomes
      // meanwhile) split into byte tags.
      if (Mask == 0xf && RS.load(false, Dw) != ByteTags &&
          Merge(RS.rtag(Dw), Mask))
        continue;
      RS.splitBytes(false, Dw);
      for (unsigned B = 0; B < 4; ++B)
        if (Mask >> B & 1)
          Merge(RS.byteTag(false, Dw, B), 1u << B);
    }
  }
}

} // namespace

namespace {

// Reports the race Err of access X at Addr.
[[gnu::noinline, gnu::cold]] void reportRace(Wave &W, const Inst &I,
                                             const Wave::GlobalAcc &X,
                                             uint64_t Addr,
                                             const std::string &Err) {
  unsigned Lane = laneOfAccess(W, X, Addr);
  W.fail(ErrorKind::Race, I,
         formatv("address {0:x} ({1}): {2}", Addr,
                 Lane >= 64 ? std::string("scalar")
                            : "lane " + std::to_string(Lane),
                 Err)
             .str());
}

// Checks and records the bytes [Lo, Hi) of access X in block Blk dword by
// dword, the access's own kind of tag split; false when a race was
// reported. Kept out of checkGlobalShadow's whole-block path.
[[gnu::noinline]] bool checkDwords(Wave &W, const Inst &I, GlobalShadow &S,
                                   RegionShadow &RS, const Accessor &A,
                                   const Wave::GlobalAcc &X, uint64_t Blk,
                                   uint64_t Lo, uint64_t Hi, bool Merged) {
  bool Quiet = X.Lane < 64 && !X.Atomic && (!S.Concurrent || !X.Write);
  RegionShadow::Page *OwnPg = nullptr, *OtherPg = nullptr;
  uint64_t OtherB = 0;
  size_t PgNo = Blk * RegionShadow::BlockDwords / RegionShadow::PageDwords;
  if (Quiet) {
    if (!Merged) {
      RS.split(X.Write, Blk);
      OwnPg = RS.page(RS.pages(X.Write), PgNo);
    }
    OtherB = RS.block(!X.Write, Blk);
    if (OtherB == Mixed)
      OtherPg = RS.pages(!X.Write)[PgNo].load(std::memory_order_seq_cst);
  }
  for (uint64_t D = Lo & ~3ull; D < Hi; D += 4) {
    uint64_t DLo = std::max(D, Lo), DHi = std::min(D + 4, Hi);
    unsigned Mask = ((1u << (DHi - DLo)) - 1) << (DLo - D);
    uint64_t Dw = (D - RS.Base) / 4;
    if (Quiet) {
      size_t K = Dw % RegionShadow::PageDwords;
      uint64_t Other = OtherB != Mixed ? OtherB
                       : OtherPg ? OtherPg->T[K].load(std::memory_order_relaxed)
                                 : 0;
      if (quietVectorAccess(OwnPg ? &OwnPg->T[K] : nullptr, Other, A, X.Write,
                            Mask, Merged))
        continue;
    }
    std::string Err = access(S, RS, A, X, Dw, Mask);
    if (Err.empty())
      continue;
    reportRace(W, I, X, DLo, Err);
    return false;
  }
  return true;
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
    bool Vector = X.Lane < 64 && !X.Atomic;
    if (Vector && X.Len >= 256) {
      // The block tags of the next iteration (see Wave::StrideSlot).
      Wave::StrideSlot &SS = W.TagStride[(I.PC >> 2) % Wave::StrideSlots];
      if (uint64_t Next = SS.next(I.PC, X.Addr);
          Next >= RS->Base && Next + X.Len > Next &&
          (Next + X.Len - RS->Base) / 256 <= RS->NumBlocks) {
        uint64_t Blk = (Next - RS->Base) / 256;
        __builtin_prefetch(&RS->blocks(X.Write)[Blk], 1);
        __builtin_prefetch(&RS->blocks(!X.Write)[Blk], 0);
      }
    }
    // One thread: no other thread can change a tag between the look and
    // the update, so the quiet path needs no ordering. Several threads, a
    // vector load: the reader tags of the whole range are published first,
    // then one seq_cst fence, then the writer tags are looked at. Against a
    // writer's exchange and seq_cst load this is the store-buffering
    // argument of access()'s seq_cst store and load per dword, with one
    // fence instead of an exchange per dword.
    bool Merged = Vector && !X.Write && S.Concurrent;
    if (Merged) {
      publishReads(*RS, A, X.Addr, End);
      std::atomic_thread_fence(std::memory_order_seq_cst);
    }
    for (uint64_t B = X.Addr & ~255ull; B < End; B += 256) {
      uint64_t Blk = (B - RS->Base) / 256;
      uint64_t Lo = std::max(B, X.Addr), Hi = std::min(B + 256, End);
      if (Vector && Lo == B && Hi == B + 256) {
        unsigned ErrK = 0;
        std::string Err;
        if (blockAccess(S, *RS, A, X.Write, Blk, Merged, Err, ErrK)) {
          if (Err.empty())
            continue;
          reportRace(W, I, X, B + 4 * ErrK, Err);
          return;
        }
      }
      if (!checkDwords(W, I, S, *RS, A, X, Blk, Lo, Hi, Merged))
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
        // False when WT is a dword tag split into byte tags.
        auto Clean = [&](std::atomic<uint64_t> &WT) {
          uint64_t T = WT.load(std::memory_order_relaxed);
          while (!isMarker(T) && (T & FDirty) && tagWG(T) == WG1 &&
                 tagWave(T) == (W.Id & 0xf) &&
                 !WT.compare_exchange_weak(T, T & ~FDirty,
                                           std::memory_order_seq_cst))
            ;
          return !isMarker(T);
        };
        uint64_t Dw = (B - RS->Base) / 4;
        if (RS->load(true, Dw) != ByteTags && Clean(RS->wtag(Dw)))
          continue;
        RS->splitBytes(true, Dw); // waits for a split under way
        for (unsigned K = 0; K < 4; ++K)
          Clean(RS->byteTag(true, Dw, K));
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
