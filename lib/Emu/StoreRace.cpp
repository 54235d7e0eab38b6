//===- StoreRace.cpp - Cross-wave ordering of global stores ---------------===//
//
// When is a global store of wave W ordered before another wave R's access
// to the same bytes? (AMDGPUUsage memory model, GFX90A/GFX942; LLVM's
// workgroup-scope release/acquire sequences.)
//  - Normal mode: the waves of a workgroup share one CU, whose vector memory
//    path keeps their operations in issue order, so an s_barrier between the
//    store's issue and the read orders them (LLVM emits no s_waitcnt vmcnt
//    before such a barrier). Only a read in the same barrier epoch as the
//    store is unordered.
//  - tgsplit mode (COMPUTE_PGM_RSRC3.TG_SPLIT): waves may run on different
//    CUs; the writer must wait for the store (s_waitcnt vmcnt) before the
//    s_barrier and the reader must invalidate its L1 (buffer_inv sc0 /
//    buffer_wbinvl1_vol) after it, as LLVM emits. A store not waited for
//    is pending until its op retires in the scoreboard.
// Epochs are the workgroup's barrier generations (Workgroup::Epoch), so the
// verdict does not depend on the order in which the emulator runs the waves
// between two barriers: a store is "settled" in the epoch of its issue
// (normal mode) or of its wait (tgsplit, ~0u while pending), and a read in
// epoch E races with another wave's store settled in an epoch >= E.
//
// Stores are recorded as byte ranges per instruction (lanes merged into
// contiguous runs) with a group per instruction. A tgsplit store never
// waited for (s_endpgm with vmcnt outstanding) stays unordered. Atomics are
// how waves communicate on purpose (a compare-and-swap loop reads the
// location with a plain load first and tolerates any value), so atomic
// writes are not recorded; the read half of an atomic is checked like a
// load. A read followed, in the same epoch, by another wave's store to the
// same bytes, and accesses of other workgroups, are GlobalRace.cpp's.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;

namespace asmevo {
namespace emu {

namespace {

constexpr uint32_t Pending = ~0u;

struct Run {
  uint64_t Lo, Hi;
};

// Merges the accesses of one kind into sorted, disjoint byte runs. Lanes
// usually come in address order: one pass, sorting only when they do not.
void runsOf(const std::vector<Wave::GlobalAcc> &A, bool Writes,
            SmallVectorImpl<Run> &Out) {
  auto Wanted = [Writes](const Wave::GlobalAcc &X) {
    return Writes ? X.Write && !X.Atomic : !X.Write || X.Atomic;
  };
  size_t First = Out.size();
  for (const Wave::GlobalAcc &X : A) {
    if (!Wanted(X))
      continue;
    uint64_t Lo = X.Addr, Hi = X.Addr + X.Len;
    if (Out.size() == First) {
      Out.push_back({Lo, Hi});
      continue;
    }
    Run &B = Out.back();
    if (Lo >= B.Lo && Lo <= B.Hi) {
      B.Hi = std::max(B.Hi, Hi);
    } else if (Lo > B.Hi) {
      Out.push_back({Lo, Hi});
    } else { // out of order: sort and merge all of them
      Out.truncate(First);
      SmallVector<Run, 64> V;
      for (const Wave::GlobalAcc &Y : A)
        if (Wanted(Y))
          V.push_back({Y.Addr, Y.Addr + Y.Len});
      std::sort(V.begin(), V.end(),
                [](const Run &P, const Run &Q) { return P.Lo < Q.Lo; });
      for (const Run &Y : V) {
        if (Out.size() > First && Y.Lo <= Out.back().Hi)
          Out.back().Hi = std::max(Out.back().Hi, Y.Hi);
        else
          Out.push_back(Y);
      }
      return;
    }
  }
}

// Drops the ranges no later access can race with: settled before a barrier
// that every wave has passed (tgsplit: and every wave has invalidated its L1
// since).
void collect(Workgroup &WG, uint32_t Epoch) {
  StoreShadow &S = WG.Stores;
  S.GcEpoch = Epoch;
  uint32_t MinInv = ~0u;
  if (WG.TgSplit)
    for (const Wave *W : WG.Waves)
      MinInv = std::min(MinInv, W->L1InvEpoch);
  for (auto It = S.Ranges.begin(); It != S.Ranges.end();) {
    uint32_t R = S.Groups[It->second.Group].Retire;
    if (R < Epoch && MinInv > R)
      It = S.Ranges.erase(It);
    else
      ++It;
  }
  if (S.Ranges.empty()) {
    bool AnyPending = false;
    for (const StoreShadow::Group &G : S.Groups)
      AnyPending |= G.Retire == Pending;
    if (!AnyPending) { // group ids are not referenced any more
      S.Groups.clear();
      S.MaxLen = 0;
    }
  }
}

// Checks the reads of W.GAcc against other waves' unordered stores and
// records the stores; false after failing the wave.
bool storeOrder(Wave &W, const Inst &I) {
  Workgroup &WG = *W.WG;
  StoreShadow &S = WG.Stores;
  if (S.GcEpoch != WG.Epoch && !S.Ranges.empty())
    collect(WG, WG.Epoch);
  // Reads (and the read half of atomics) against other waves' stores.
  if (!S.Ranges.empty()) {
    SmallVector<Run, 16> Reads;
    runsOf(W.GAcc, false, Reads);
    for (const Run &R : Reads) {
      uint64_t From = R.Lo > S.MaxLen ? R.Lo - S.MaxLen : 0;
      for (auto It = S.Ranges.lower_bound(From);
           It != S.Ranges.end() && It->first < R.Hi; ++It) {
        const StoreShadow::Range &X = It->second;
        if (X.Hi <= R.Lo)
          continue;
        const StoreShadow::Group &G = S.Groups[X.Group];
        if (G.Wave == W.Id ||
            (G.Retire < WG.Epoch && (!WG.TgSplit || W.L1InvEpoch > G.Retire)))
          continue;
        // Name the first lane and address of the conflict.
        uint64_t Lo = std::max(R.Lo, It->first), Hi = std::min(R.Hi, X.Hi);
        unsigned Lane = 64;
        uint64_t Addr = Lo;
        for (const Wave::GlobalAcc &A : W.GAcc)
          if ((!A.Write || A.Atomic) && A.Addr < Hi && A.Addr + A.Len > Lo) {
            Addr = std::max(A.Addr, Lo);
            Lane = laneOfAccess(W, A, Addr);
            break;
          }
        W.fail(ErrorKind::Race, I,
               formatv("reads address {0:x} ({1}) stored by wave {2} at pc "
                       "{3:x}, unordered with this read: {4}",
                       Addr,
                       Lane >= 64 ? std::string("scalar")
                                  : "lane " + std::to_string(Lane),
                       G.Wave, G.PC,
                       G.Retire == WG.Epoch && !WG.TgSplit
                           ? "no s_barrier between the store and this read"
                       : G.Retire == Pending
                           ? "the store is not waited for (tgsplit mode needs "
                             "s_waitcnt vmcnt before the s_barrier)"
                       : G.Retire == WG.Epoch
                           ? "the store was waited for only after the last "
                             "s_barrier (tgsplit mode)"
                           : "this wave has not invalidated its L1 since the "
                             "s_barrier (tgsplit mode needs buffer_inv sc0)")
                   .str());
        return false;
      }
    }
  }
  // Stores: one group for this instruction, tied to its scoreboard op.
  SmallVector<Run, 16> Writes;
  runsOf(W.GAcc, true, Writes);
  if (Writes.empty())
    return true;
  uint32_t GId = S.Groups.size();
  bool Issued = WG.TgSplit && I.IsMem && I.MemCounters && W.SB.LastId != ~0u &&
                W.SB.Ops[W.SB.LastId].Live && W.SB.Ops[W.SB.LastId].PC == I.PC;
  S.Groups.push_back({I.PC, Issued ? Pending : WG.Epoch, uint16_t(W.Id)});
  if (Issued)
    W.SB.Ops[W.SB.LastId].StoreGroup = int32_t(GId);
  for (const Run &R : Writes) {
    S.Ranges.insert({R.Lo, {R.Hi, GId}});
    S.MaxLen = std::max(S.MaxLen, R.Hi - R.Lo);
  }
  return true;
}

} // namespace

void trackGlobalAccesses(Wave &W, const Inst &I) {
  Workgroup &WG = *W.WG;
  StoreShadow &S = WG.Stores;
  // Groups whose op the scoreboard retired: waited for in this epoch.
  for (int32_t G : W.SB.RetiredGroups)
    if (size_t(G) < S.Groups.size() && S.Groups[G].Retire == Pending)
      S.Groups[G].Retire = WG.Epoch;
  W.SB.RetiredGroups.clear();
  if (W.GAcc.empty())
    return;
  // Within the workgroup first (its messages name the store's pc), then
  // the dispatch-wide shadow (GlobalRace.cpp).
  if (W.St != Wave::Failed && (WG.Waves.size() <= 1 || storeOrder(W, I)) &&
      W.C->Sh->GShadow)
    checkGlobalShadow(W, I);
  W.GAcc.clear();
}

} // namespace emu
} // namespace asmevo
