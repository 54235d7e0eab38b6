//===- Exec.cpp - Dispatch setup, wave scheduling and the run loop -------===//
//
// Initial wave state follows AMDGPUUsage "Initial Kernel Execution State"
// (user SGPRs in order, kernarg preload, system SGPRs, packed work-item ids
// in v0 on gfx90a/gfx942), hidden kernargs as the ROCm runtime fills them for
// code object v5/v6, and an hsa_kernel_dispatch_packet_t in memory.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"
#include "Timing.h"

#include "asmevo/CodeObject/CodeObject.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <thread>

using namespace llvm;

namespace asmevo {
namespace emu {

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

Expected<Region *> Memory::map(uint64_t Base, uint64_t Size, uint8_t Perms,
                               StringRef Name) {
  if (Size == 0)
    Size = 1;
  if (Base + Size < Base)
    return createStringError(formatv("region {0} wraps around", Name).str());
  auto It = std::lower_bound(
      Regions.begin(), Regions.end(), Base,
      [](const std::unique_ptr<Region> &R, uint64_t B) { return R->Base < B; });
  if (It != Regions.end() && (*It)->Base < Base + Size)
    return createStringError(
        formatv("region {0} at {1:x} overlaps {2}", Name, Base, (*It)->Name)
            .str());
  if (It != Regions.begin()) {
    const Region &P = **std::prev(It);
    if (P.Base + P.Size > Base)
      return createStringError(
          formatv("region {0} at {1:x} overlaps {2}", Name, Base, P.Name)
              .str());
  }
  auto R = std::make_unique<Region>();
  R->Base = Base;
  R->Size = Size;
  R->Perms = Perms;
  R->Name = Name.str();
  R->Data.assign(Size, 0);
  Region *Ptr = R.get();
  Regions.insert(It, std::move(R));
  return Ptr;
}

Region *Memory::find(uint64_t Addr, uint64_t Len) {
  auto It = std::upper_bound(
      Regions.begin(), Regions.end(), Addr,
      [](uint64_t A, const std::unique_ptr<Region> &R) { return A < R->Base; });
  if (It == Regions.begin())
    return nullptr;
  Region *R = std::prev(It)->get();
  return R->contains(Addr, Len) ? R : nullptr;
}

const Region *Memory::findByName(StringRef Name) const {
  for (auto &R : Regions)
    if (R->Name == Name)
      return R.get();
  return nullptr;
}

Region *Memory::at(uint64_t Base) {
  for (auto &R : Regions)
    if (R->Base == Base)
      return R.get();
  return nullptr;
}

bool Memory::unmap(uint64_t Base) {
  for (auto It = Regions.begin(); It != Regions.end(); ++It)
    if ((*It)->Base == Base) {
      Regions.erase(It);
      return true;
    }
  return false;
}

uint64_t Memory::freeAddress(uint64_t Hint, uint64_t Size,
                             uint64_t Align) const {
  uint64_t A = (Hint + Align - 1) / Align * Align;
  for (auto &R : Regions) {
    if (R->Base + R->Size <= A)
      continue;
    if (R->Base >= A + Size)
      break;
    A = (R->Base + R->Size + Align - 1) / Align * Align;
  }
  return A;
}

//===----------------------------------------------------------------------===//
// Scoreboard
//===----------------------------------------------------------------------===//

void Scoreboard::issue(uint64_t PC, uint8_t Counters, bool LgkmOOO,
                       ArrayRef<RegRef> Regs) {
  uint32_t Id;
  if (!Free.empty()) {
    Id = Free.back();
    Free.pop_back();
  } else {
    Id = Ops.size();
    Ops.emplace_back();
  }
  Op &O = Ops[Id];
  O.PC = PC;
  ++O.Gen;
  O.StoreGroup = -1;
  LastId = Id;
  O.Live = true;
  O.Remaining = 0;
  O.Regs.assign(Regs.begin(), Regs.end());
  if (Counters & 1) {
    VM.push_back(Id, false);
    ++O.Remaining;
  }
  if (Counters & 6) {
    LGKM.push_back(Id, LgkmOOO);
    ++O.Remaining;
  }
  if (!O.Remaining) {
    O.Live = false;
    Free.push_back(Id);
    LastId = ~0u;
    return;
  }
  for (const RegRef &R : Regs) {
    uint8_t *P = pend(R.File), *K = kind(R.File);
    for (unsigned J = 0; J < R.Count; ++J) {
      ++P[R.First + J];
      K[R.First + J] = Counters | (LgkmOOO ? 8 : 0);
    }
  }
  ++Live;
}

void Scoreboard::retire(uint32_t Id) {
  Op &O = Ops[Id];
  if (!O.Live || --O.Remaining)
    return;
  for (const RegRef &R : O.Regs) {
    uint8_t *P = pend(R.File);
    for (unsigned J = 0; J < R.Count; ++J)
      --P[R.First + J];
  }
  O.Live = false;
  --Live;
  Free.push_back(Id);
  if (O.StoreGroup >= 0) {
    RetiredGroups.push_back(O.StoreGroup);
    O.StoreGroup = -1;
  }
}

void Scoreboard::waitVM(unsigned N) {
  // gfx9: VMEM loads and stores return in issue order.
  while (VM.size() > N) {
    uint32_t Id = VM.front().Id;
    VM.pop_front();
    retire(Id);
  }
}

void Scoreboard::waitLGKM(unsigned N) {
  size_t L = LGKM.size();
  if (L <= N)
    return;
  // K operations are known complete. LDS/GDS/message operations complete in
  // order among themselves; SMEM (and FLAT) may complete in any order, so an
  // adversarial completion order finishes every out-of-order operation before
  // the in-order ones. An in-order entry at in-order position p is certain iff
  // p < K - (number of out-of-order entries); an out-of-order entry is
  // certain only when every entry is (N == 0).
  size_t K = L - N, OOO = 0;
  for (auto &E : LGKM)
    OOO += E.OutOfOrder;
  size_t InOrderPos = 0;
  QEntry *Keep = LGKM.begin(); // kept entries are compacted in place
  for (QEntry *E = LGKM.begin(), *End = LGKM.end(); E != End; ++E) {
    bool Certain;
    if (E->OutOfOrder)
      Certain = K >= L;
    else
      Certain = K > OOO && InOrderPos < K - OOO;
    if (!E->OutOfOrder)
      ++InOrderPos;
    if (Certain)
      retire(E->Id);
    else
      *Keep++ = *E;
  }
  LGKM.E.resize(Keep - LGKM.E.data());
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

static void recordError(Shared &Sh, uint64_t Order, ErrorKind K,
                        const std::string &Msg) {
  std::lock_guard<std::mutex> L(Sh.ErrMutex);
  if (Sh.ErrKind == ErrorKind::None || Order < Sh.ErrOrder.load()) {
    Sh.ErrKind = K;
    Sh.ErrMsg = Msg;
    Sh.ErrOrder.store(Order);
  }
  Sh.Abort.store(true, std::memory_order_relaxed);
}

void Wave::fail(ErrorKind K, const Inst &I, const std::string &Msg) {
  if (St == Failed)
    return;
  std::string Text = C->Sh->Prog->text(I);
  std::string Full = formatv("{0} at pc {1:x} (offset {2:x}) `{3}` in "
                             "workgroup ({4},{5},{6}) wave {7}: {8}",
                             errorKindName(K), I.PC,
                             I.PC - C->Sh->Prog->LoadBase, Text, WG->Id[0],
                             WG->Id[1], WG->Id[2], Id, Msg)
                         .str();
  St = Failed;
  Stop = true;
  recordError(*C->Sh, C->WgLinear, K, Full);
}

void Wave::fail(ErrorKind K, const std::string &Msg) {
  if (St == Failed)
    return;
  std::string Full = formatv("{0} at pc {1:x} in workgroup ({2},{3},{4}) "
                             "wave {5}: {6}",
                             errorKindName(K), PC, WG->Id[0], WG->Id[1],
                             WG->Id[2], Id, Msg)
                         .str();
  St = Failed;
  Stop = true;
  recordError(*C->Sh, C->WgLinear, K, Full);
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

uint32_t readS32(Wave &W, const Opnd &O) {
  switch (O.Kind) {
  case OK::S:
    return W.S[O.Reg];
  case OK::Imm:
    return O.Count == 0xff ? uint32_t(O.Imm >> 32) : uint32_t(O.Imm);
  case OK::Scc:
    return W.SCC;
  case OK::Execz:
    return W.exec() == 0;
  case OK::Vccz:
    return W.vcc() == 0;
  default:
    return 0;
  }
}

uint64_t readS64(Wave &W, const Opnd &O) {
  switch (O.Kind) {
  case OK::S:
    return uint64_t(W.S[O.Reg]) | uint64_t(W.S[(O.Reg + 1) & 127]) << 32;
  case OK::Imm:
    return O.Imm;
  case OK::Scc:
    return W.SCC;
  case OK::Execz:
    return W.exec() == 0;
  case OK::Vccz:
    return W.vcc() == 0;
  default:
    return 0;
  }
}

void writeS32(Wave &W, const Opnd &O, uint32_t V) {
  if (O.Kind == OK::S)
    W.S[O.Reg] = V;
}

void writeS64(Wave &W, const Opnd &O, uint64_t V) {
  if (O.Kind == OK::S) {
    W.S[O.Reg] = uint32_t(V);
    W.S[(O.Reg + 1) & 127] = uint32_t(V >> 32);
  }
}

//===----------------------------------------------------------------------===//
// The run loop
//===----------------------------------------------------------------------===//

static std::string regName(const RegRef &R, unsigned J) {
  const char *P = R.File == 0 ? "s" : R.File == 1 ? "v" : "a";
  unsigned N = R.First + J;
  if (R.File == 0) {
    if (N == SVccLo)
      return "vcc_lo";
    if (N == SVccHi)
      return "vcc_hi";
    if (N == SExecLo)
      return "exec_lo";
    if (N == SExecHi)
      return "exec_hi";
    if (N == SM0)
      return "m0";
    if (N >= STtmp0 && N < STtmp0 + 16)
      return "ttmp" + std::to_string(N - STtmp0);
  }
  return P + std::to_string(N);
}

static uint64_t pendingPC(Scoreboard &SB, const RegRef &R, unsigned J) {
  for (auto &O : SB.Ops) {
    if (!O.Live)
      continue;
    for (auto &X : O.Regs)
      if (X.File == R.File && R.First + J >= X.First &&
          R.First + J < X.First + X.Count)
        return O.PC;
  }
  return 0;
}

static unsigned firstLane(uint64_t M) {
  return M ? __builtin_ctzll(M) : 0;
}

static bool checkScoreboard(Wave &W, const Inst &I) {
  Scoreboard &SB = W.SB;
  for (const RegRef &R : I.Uses) {
    uint8_t *P = SB.pend(R.File);
    for (unsigned J = 0; J < R.Count; ++J)
      if (P[R.First + J]) {
        W.fail(ErrorKind::Race, I,
               formatv("reads {0} (lane {1}) before the s_waitcnt that "
                       "guarantees the memory result written by pc {2:x}",
                       regName(R, J), R.File ? firstLane(W.exec()) : 0,
                       pendingPC(SB, R, J))
                   .str());
        return false;
      }
  }
  for (const RegRef &R : I.Defs) {
    uint8_t *P = SB.pend(R.File), *K = SB.kind(R.File);
    for (unsigned J = 0; J < R.Count; ++J) {
      if (!P[R.First + J])
        continue;
      // Two in-order results of the same counter land in order: no race.
      uint8_t PK = K[R.First + J];
      bool InOrder = I.IsMem && !(PK & 8) && !(I.MemCounters & 4) &&
                     (PK & 7) == I.MemCounters;
      if (InOrder)
        continue;
      W.fail(ErrorKind::Race, I,
             formatv("overwrites {0} while the memory result from pc {1:x} "
                     "may still land (missing s_waitcnt)",
                     regName(R, J), pendingPC(SB, R, J))
                 .str());
      return false;
    }
  }
  return true;
}

// Executes the wave's next instruction. Returns it, or null when the wave
// failed before executing anything (bad PC, registers, scoreboard race,
// refused opcode); a failure during or after execution leaves the wave
// Failed with the instruction returned. The cost model (Timing.cpp) drives
// waves through this one instruction at a time.
namespace {
/// What the run loop reads for every instruction, loaded once per run of a
/// wave rather than through W.C->Sh->... per instruction (the compiler
/// cannot hoist those loads past the handlers' stores to the wave).
struct StepEnv {
  Ctx &C;
  Shared &Sh;
  Program &P;
  const RunOptions &O;
  // The first code range (most code objects have one).
  uint64_t Begin = 0, End = 0;
  std::atomic<Inst *> *Slots = nullptr;
  explicit StepEnv(Wave &W) : C(*W.C), Sh(*C.Sh), P(*Sh.Prog), O(*Sh.Opts) {
    if (!P.Ranges.empty()) {
      Begin = P.Ranges.front().Begin;
      End = P.Ranges.front().End;
      Slots = P.Ranges.front().Slots.get();
    }
  }
  const Inst *decoded(uint64_t PC) const {
    if (PC < Begin || PC >= End || ((PC - Begin) & 3))
      return nullptr;
    return Slots[(PC - Begin) >> 2].load(std::memory_order_acquire);
  }
};
} // namespace

static inline const Inst *stepInstructionImpl(Wave &W, const StepEnv &E) {
  Ctx &C = E.C;
  Shared &Sh = E.Sh;
  Program &P = E.P;
  const RunOptions &O = E.O;
  uint64_t Budget = O.Budget;
  {
    const Inst *I = E.decoded(W.PC);
    if (!I) {
      std::string Err;
      I = P.at(W.PC, Err);
      if (!I) {
        W.fail(ErrorKind::Invalid, Err);
        return nullptr;
      }
    }
    if (I->MaxV > W.NumV || I->MaxA > W.NumA) {
      W.fail(ErrorKind::Invalid, *I,
             formatv("uses VGPRs up to v{0}/a{1} but the kernel descriptor "
                     "allocates {2} VGPRs and {3} AGPRs",
                     int(I->MaxV) - 1, int(I->MaxA) - 1, W.NumV, W.NumA)
                 .str());
      return nullptr;
    }
    if (W.SB.Live && !checkScoreboard(W, *I))
      return nullptr;
    if (I->Fid == Fidelity::Approximate) {
      if (O.RefuseApproximate) {
        W.fail(ErrorKind::Approximate, *I,
               "approximate opcode refused (its hardware result is not "
               "specified bit for bit)");
        return nullptr;
      }
      if (C.ApproxCount.size() <= I->Index)
        C.ApproxCount.resize(I->Index + 64);
      ++C.ApproxCount[I->Index];
      if (Sh.Mem->Obs) // verification hook
        approxHookBefore(W, *I);
    }
    if (I->D16Unspecified) {
      if (O.RefuseApproximate) {
        W.fail(ErrorKind::Approximate, *I,
               "D16 load refused: the unused half of its destination is not "
               "specified with SRAM ECC on or any (the code object does not "
               "say sramecc-)");
        return nullptr;
      }
      ++C.D16Loads;
      C.D16Zero = !(Sh.Mem->Obs && Sh.Mem->Obs->keepD16Unused());
    }
    if (O.Profile) {
      if (C.Profile.size() <= I->Index)
        C.Profile.resize(I->Index + 64);
      ++C.Profile[I->Index];
    }
    if (O.Trace) {
      std::lock_guard<std::mutex> L(Sh.TraceMutex);
      raw_ostream &OS = O.TraceOut ? *O.TraceOut : errs();
      OS << formatv("wg({0},{1},{2}) w{3} {4:x} exec={5:x16} {6}\n", W.WG->Id[0],
                    W.WG->Id[1], W.WG->Id[2], W.Id, I->PC - P.LoadBase,
                    W.exec(), P.text(*I));
    }
    W.PC = I->PC + I->Size;
    if (W.GprIdxOn && I->IsValu) {
      // VGPR indexing mode: M0[7:0] is added to the VGPR operands selected
      // by M0[15:12] (SRC0, SRC1, SRC2, DST).
      Inst T = *I;
      unsigned Idx = W.S[SM0] & 0xff, Mode = (W.S[SM0] >> 12) & 0xf;
      bool Bad = false;
      for (unsigned K = 0; K < 3 && K < T.NSrc; ++K)
        if ((Mode >> K & 1) && T.Src[K].Kind == OK::V) {
          T.Src[K].Reg += Idx;
          Bad |= T.Src[K].Reg + T.Src[K].Count > W.NumV;
        }
      if ((Mode & 8) && T.NDst && T.Dst[0].Kind == OK::V) {
        T.Dst[0].Reg += Idx;
        Bad |= T.Dst[0].Reg + T.Dst[0].Count > W.NumV;
      }
      T.Simple = false;
      if (Bad) {
        W.fail(ErrorKind::Fault, *I, "indexed VGPR (s_set_gpr_idx) beyond "
                                     "the allocated VGPRs");
        return I;
      }
      T.Fn(W, T);
    } else {
      I->Fn(W, *I);
    }
    if (C.ApproxPending) // verification hook
      approxHookAfter(W, *I);
    C.D16Zero = false;
    if (I->IsMem && I->MemCounters && W.St != Wave::Failed) {
      W.SB.issue(I->PC,
                 (I->MemCounters & 1) | ((I->MemCounters & 6) ? 2 : 0),
                 I->MemCounters & 4, I->Defs);
      // LDS-DMA ranges recorded by the handler belong to this op.
      for (Wave::DmaRange &R : W.Dma)
        if (R.Id == ~0u) {
          R.Id = W.SB.LastId;
          R.Gen = R.Id == ~0u ? 0 : W.SB.Ops[R.Id].Gen;
        }
      attachPendingLds(W);
    }
    if (!W.GAcc.empty() || !W.SB.RetiredGroups.empty())
      trackGlobalAccesses(W, *I);
    ++C.Executed;
    if (++W.Executed > Budget) {
      W.fail(ErrorKind::Budget, *I,
             formatv("instruction budget of {0} wave-instructions exhausted "
                     "(runaway kernel?)",
                     Budget)
                 .str());
      return I;
    }
    return I;
  }
}

const Inst *stepInstruction(Wave &W) {
  return stepInstructionImpl(W, StepEnv(W));
}

static void runWave(Wave &W) {
  StepEnv E(W);
  Ctx &C = E.C;
  Shared &Sh = E.Sh;
  W.Stop = false;
  while (!W.Stop) {
    const Inst *I = stepInstructionImpl(W, E);
    if (!I || W.St == Wave::Failed)
      break;
    if ((W.Executed & 0xfff) == 0 && Sh.stopped(C.WgLinear))
      break;
  }
}

/// Runs all waves of a workgroup to completion (round robin between
/// barriers).
static void runWorkgroup(Workgroup &WG, Ctx &C) {
  for (;;) {
    bool AnyRunning = false;
    for (Wave *W : WG.Waves) {
      if (W->St != Wave::Running)
        continue;
      runWave(*W);
      if (W->St == Wave::Failed || C.Sh->stopped(C.WgLinear))
        return;
    }
    unsigned AtBarrier = 0, Done = 0;
    for (Wave *W : WG.Waves) {
      AtBarrier += W->St == Wave::Barrier;
      Done += W->St == Wave::Done;
      AnyRunning |= W->St == Wave::Running;
    }
    if (Done == WG.Waves.size())
      return;
    if (AnyRunning)
      continue;
    // Every live wave is at the barrier: release it (waves that ended do
    // not take part).
    if (AtBarrier)
      releaseBarrier(WG);
  }
}

// Interleaved scheduling: runs W until it stops, or for Slice instructions
// (0: no limit), or up to and including an atomic when AfterAtomic.
static void runWaveSlice(Wave &W, unsigned Slice, bool AfterAtomic) {
  StepEnv E(W);
  W.Stop = false;
  for (unsigned K = 0; !W.Stop;) {
    const Inst *I = stepInstructionImpl(W, E);
    if (!I || W.St == Wave::Failed)
      break;
    if (++K == Slice || (AfterAtomic && I->IsAtomic))
      break;
  }
}

/// Runs co-resident workgroups on one thread: their waves take turns (in
/// workgroup, then wave order) at the points RunOptions asks for, and each
/// workgroup's barrier is released when all its live waves reach it.
static void runInterleaved(ArrayRef<Workgroup *> WGs, Ctx &C) {
  const RunOptions &O = *C.Sh->Opts;
  for (;;) {
    bool AnyLive = false;
    for (Workgroup *WG : WGs) {
      bool Running = false, AtBarrier = false;
      for (Wave *W : WG->Waves) {
        Running |= W->St == Wave::Running;
        AtBarrier |= W->St == Wave::Barrier;
      }
      if (!Running && AtBarrier)
        releaseBarrier(*WG);
      for (Wave *W : WG->Waves) {
        if (W->St != Wave::Running)
          continue;
        AnyLive = true;
        C.WgLinear = WG->Linear;
        runWaveSlice(*W, O.InterleaveEvery, O.InterleaveAtomics);
        if (W->St == Wave::Failed || C.Sh->Abort.load())
          return;
      }
    }
    if (!AnyLive)
      return;
  }
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

namespace {
struct DispatchPlan {
  const KernelInfo *K = nullptr;
  std::array<uint32_t, 3> Grid{}, WGSize{};
  uint32_t LdsSize = 0;
  unsigned NumV = 0, NumA = 0;
  uint32_t PrivPerLane = 0;
  uint64_t KernargAddr = 0, PacketAddr = 0, QueueAddr = 0;
  std::vector<uint32_t> UserSgprs; // values of s0..s(n-1)
  std::vector<uint8_t> Kernarg;
  bool WgId[3] = {};
  bool WaveOffset = false;
  unsigned VgprIds = 0;
  uint32_t Mode = 0;
  bool Ieee = true, Dx10 = true;
  bool PreloadPrologue = false;
  bool TgSplit = false;
};
} // namespace

static void put(std::vector<uint8_t> &B, uint64_t Off, uint64_t V,
                unsigned Size) {
  if (Off + Size > B.size())
    B.resize(Off + Size);
  std::memcpy(B.data() + Off, &V, Size);
}

static Error fillHidden(DispatchPlan &P, const KernelMetadata &M,
                        bool Fill) {
  if (!Fill)
    return Error::success();
  std::array<uint64_t, 3> GridItems;
  for (int D = 0; D < 3; ++D)
    GridItems[D] = uint64_t(P.Grid[D]) * P.WGSize[D];
  unsigned Dims = P.Grid[2] * P.WGSize[2] > 1   ? 3
                  : P.Grid[1] * P.WGSize[1] > 1 ? 2
                                                : 1;
  for (const KernelArgMetadata &A : M.Args) {
    StringRef VK = A.ValueKind;
    if (!A.isHidden())
      continue;
    auto dim = [&](StringRef Prefix) -> int {
      if (!VK.starts_with(Prefix))
        return -1;
      char C = VK.back();
      return C == 'x' ? 0 : C == 'y' ? 1 : 2;
    };
    uint64_t V = 0;
    int D;
    if ((D = dim("hidden_block_count_")) >= 0)
      V = P.Grid[D];
    else if ((D = dim("hidden_group_size_")) >= 0)
      V = P.WGSize[D];
    else if ((D = dim("hidden_remainder_")) >= 0)
      V = 0; // whole workgroups only
    else if ((D = dim("hidden_global_offset_")) >= 0)
      V = 0;
    else if (VK == "hidden_grid_dims")
      V = Dims;
    else if (VK == "hidden_dynamic_lds_size")
      V = 0; // set below (needs the dispatch)
    else if (VK == "hidden_private_base")
      V = Emulator::PrivateApertureBase >> 32;
    else if (VK == "hidden_shared_base")
      V = Emulator::SharedApertureBase >> 32;
    else if (VK == "hidden_queue_ptr")
      V = P.QueueAddr;
    else
      V = 0; // printf/hostcall buffers, default queue, heap...: null
    put(P.Kernarg, A.Offset, V, std::min<uint64_t>(A.Size, 8));
  }
  return Error::success();
}

static Expected<DispatchPlan> plan(Program &Prog, const KernelInfo &K,
                                   const Dispatch &D, const RunOptions &O) {
  DispatchPlan P;
  P.K = &K;
  P.Grid = D.Workgroups;
  P.WGSize = D.WorkgroupSize;
  const KernelDescriptor &KD = K.KD;
  uint64_t Items = uint64_t(P.WGSize[0]) * P.WGSize[1] * P.WGSize[2];
  if (!Items || Items > 1024)
    return createStringError(
        formatv("workgroup size {0}x{1}x{2} is not in 1..1024 work-items",
                P.WGSize[0], P.WGSize[1], P.WGSize[2])
            .str());
  if (!P.Grid[0] || !P.Grid[1] || !P.Grid[2])
    return createStringError("the grid has no workgroups");
  // An AQL kernel dispatch packet gives the grid in work-items, 32 bits per
  // dimension (hsa_kernel_dispatch_packet_t::grid_size_x/y/z): no larger
  // dispatch exists to model.
  for (unsigned Dim = 0; Dim < 3; ++Dim)
    if (uint64_t(P.Grid[Dim]) * P.WGSize[Dim] > 0xffffffffull)
      return createStringError(
          formatv("the grid's dimension {0} has {1} workgroups of {2} "
                  "work-items: more than the 2^32-1 work-items of a "
                  "dispatch packet's grid size",
                  "xyz"[Dim], P.Grid[Dim], P.WGSize[Dim])
              .str());
  if (KD.enableWavefrontSize32())
    return createStringError("wave32 kernels are not supported (gfx9 is "
                             "wave64)");
  if (K.Meta) {
    if (K.Meta->ReqdWorkgroupSize) {
      auto R = *K.Meta->ReqdWorkgroupSize;
      if (R[0] != P.WGSize[0] || R[1] != P.WGSize[1] || R[2] != P.WGSize[2])
        return createStringError(
            formatv("kernel requires workgroup size {0}x{1}x{2}", R[0], R[1],
                    R[2])
                .str());
    }
    if (K.Meta->MaxFlatWorkgroupSize && Items > K.Meta->MaxFlatWorkgroupSize)
      return createStringError(
          formatv("workgroup of {0} work-items exceeds the kernel's "
                  "max_flat_workgroup_size {1}",
                  Items, K.Meta->MaxFlatWorkgroupSize)
              .str());
  }
  P.LdsSize = KD.GroupSegmentFixedSize + D.DynamicLds;
  if (P.LdsSize > 65536)
    return createStringError(
        formatv("LDS of {0} bytes exceeds 64 KiB", P.LdsSize).str());
  // gfx90a/gfx942: unified VGPR file, granule 8; AGPRs after accum_offset.
  unsigned Total = (KD.granulatedWorkitemVgprCount() + 1) * 8;
  unsigned Acc = KD.accumOffset();
  P.NumV = std::min(Total, Acc);
  P.NumA = Total > Acc ? Total - Acc : 0;
  P.NumV = std::min(P.NumV, 512u);
  P.NumA = std::min(P.NumA, 256u);
  // Private memory per lane.
  uint32_t Priv = O.ScratchPerLane;
  if (!Priv) {
    Priv = KD.PrivateSegmentFixedSize;
    bool Dyn = KD.usesDynamicStack() || (K.Meta && K.Meta->UsesDynamicStack);
    if (Dyn)
      Priv += O.DynamicStackPerLane;
  }
  P.PrivPerLane = (Priv + 15) & ~15u;
  // Kernarg segment.
  P.Kernarg = D.Kernarg;
  uint64_t KSize = KD.KernargSize;
  if (K.Meta)
    KSize = std::max<uint64_t>(KSize, K.Meta->KernargSegmentSize);
  // The runtime's kernarg buffers come in 16-byte units and LLVM relies on
  // it: the segment pointer is 16-byte aligned and 3 dwords are loaded with
  // s_load_dwordx4 (no x3 on gfx9), reading past a 20-byte segment's end.
  KSize = (KSize + 15) & ~uint64_t(15);
  if (P.Kernarg.size() < KSize)
    P.Kernarg.resize(KSize, 0);
  P.KernargAddr = Emulator::KernargBase;
  P.PacketAddr = Emulator::KernargBase + 0x100000;
  P.QueueAddr = Emulator::KernargBase + 0x200000;
  if (K.Meta) {
    if (Error E = fillHidden(P, *K.Meta, D.FillHidden))
      return std::move(E);
    if (D.FillHidden)
      for (const KernelArgMetadata &A : K.Meta->Args)
        if (A.ValueKind == "hidden_dynamic_lds_size")
          put(P.Kernarg, A.Offset, D.DynamicLds, 4);
  }
  // User SGPRs in AMDGPUUsage order.
  auto push64 = [&](uint64_t V) {
    P.UserSgprs.push_back(uint32_t(V));
    P.UserSgprs.push_back(uint32_t(V >> 32));
  };
  if (KD.enableSgprPrivateSegmentBuffer()) {
    if (Prog.IsGfx942)
      return createStringError("the kernel asks for a private segment buffer "
                               "on a target with architected flat scratch");
    // V#: base = scratch marker, num_records = per-lane size (lane-private
    // model), swizzled (ADD_TID) as the runtime sets it up.
    uint64_t Base = 0xffff00000000ull;
    P.UserSgprs.push_back(uint32_t(Base));
    P.UserSgprs.push_back(uint32_t(Base >> 32) | (1u << 31) /*swizzle*/);
    P.UserSgprs.push_back(0xffffffffu);
    P.UserSgprs.push_back(0x00027000u);
  }
  if (KD.enableSgprDispatchPtr())
    push64(P.PacketAddr);
  if (KD.enableSgprQueuePtr())
    push64(P.QueueAddr);
  if (KD.enableSgprKernargSegmentPtr())
    push64(P.KernargAddr);
  if (KD.enableSgprDispatchId())
    push64(0);
  if (KD.enableSgprFlatScratchInit()) {
    if (Prog.IsGfx942)
      return createStringError("flat scratch init requested on a target with "
                               "architected flat scratch");
    push64(0);
  }
  if (KD.enableSgprPrivateSegmentSize())
    P.UserSgprs.push_back(P.PrivPerLane);
  unsigned Preload = KD.kernargPreloadLength();
  if (Preload) {
    unsigned Off = KD.kernargPreloadOffset() * 4;
    for (unsigned J = 0; J < Preload; ++J) {
      uint32_t V = 0;
      if (Off + J * 4 + 4 <= P.Kernarg.size())
        std::memcpy(&V, P.Kernarg.data() + Off + J * 4, 4);
      P.UserSgprs.push_back(V);
    }
  }
  if (P.UserSgprs.size() != KD.userSgprCount())
    return createStringError(
        formatv("the kernel descriptor's user_sgpr_count is {0} but its "
                "enable bits ask for {1} user SGPRs",
                KD.userSgprCount(), P.UserSgprs.size())
            .str());
  for (int J = 0; J < 3; ++J)
    P.WgId[J] = KD.enableSgprWorkgroupId(J);
  if (KD.enableSgprWorkgroupInfo())
    return createStringError("the workgroup info system SGPR is not "
                             "supported by the emulator");
  P.WaveOffset = KD.enablePrivateSegment() && !Prog.IsGfx942;
  P.VgprIds = KD.enableVgprWorkitemId();
  // MODE: fp_round[3:0], fp_denorm[7:4], dx10_clamp 8, ieee 9.
  P.Mode = KD.floatRoundMode32() | KD.floatRoundMode1664() << 2 |
           KD.floatDenormMode32() << 4 | KD.floatDenormMode1664() << 6 |
           (KD.enableDx10Clamp() ? 1u << 8 : 0) |
           (KD.enableIeeeMode() ? 1u << 9 : 0);
  P.Ieee = KD.enableIeeeMode();
  P.Dx10 = KD.enableDx10Clamp();
  P.PreloadPrologue = O.KernargPreloadPrologue;
  P.TgSplit = KD.tgSplit();
  return P;
}

static void initWave(Wave &W, const DispatchPlan &P, Workgroup &WG,
                     unsigned WaveId, uint64_t Items) {
  std::fill(std::begin(W.S), std::end(W.S), 0u);
  // Pending ranges refer to the previous workgroup's scoreboard.
  W.Dma.clear();
  W.PendLdsRead.clear();
  W.PendLdsWrite.clear();
  W.GAcc.clear();
  W.L1InvEpoch = 0;
  W.SDirty.clear();
  W.SWbIssued = 0;
  W.TrackGlobal = uint64_t(P.WGSize[0]) * P.WGSize[1] * P.WGSize[2] > 64 ||
                  (W.C && W.C->Sh->GShadow);
  if (WaveId == 0) { // a new workgroup
    WG.Stores.clear();
    WG.TgSplit = P.TgSplit;
  }
  unsigned K = 0;
  for (uint32_t V : P.UserSgprs)
    W.S[K++] = V;
  for (int D = 0; D < 3; ++D)
    if (P.WgId[D])
      W.S[K++] = WG.Id[D];
  if (P.WaveOffset)
    W.S[K++] = 0;
  W.NumV = P.NumV;
  W.NumA = P.NumA;
  // Only the allocated registers are zeroed (an instruction naming one
  // beyond the allocation fails): clearing all 768 per wave and workgroup
  // cost ~5% of a memory-bound run.
  W.VStore.resize(size_t(512 + 256) * 64);
  W.V = W.VStore.data();
  W.A = W.VStore.data() + size_t(512) * 64;
  std::memset(W.V, 0, size_t(std::min(W.NumV, 512u)) * 64 * 4);
  std::memset(W.A, 0, size_t(std::min(W.NumA, 256u)) * 64 * 4);
  W.SB.PendV.assign(512, 0);
  W.SB.KindV.assign(512, 0);
  W.SB.PendA.assign(256, 0);
  W.SB.KindA.assign(256, 0);
  uint64_t Exec = 0;
  for (unsigned L = 0; L < 64; ++L) {
    uint64_t Flat = uint64_t(WaveId) * 64 + L;
    if (Flat >= Items)
      continue;
    Exec |= 1ull << L;
    uint32_t X = Flat % P.WGSize[0];
    uint32_t Y = (Flat / P.WGSize[0]) % P.WGSize[1];
    uint32_t Z = Flat / (uint64_t(P.WGSize[0]) * P.WGSize[1]);
    uint32_t V0 = X;
    if (P.VgprIds >= 1)
      V0 |= Y << 10;
    if (P.VgprIds >= 2)
      V0 |= Z << 20;
    W.V[L] = V0;
  }
  W.setExec(Exec);
  W.Mode = P.Mode;
  W.Ieee = P.Ieee;
  W.Dx10Clamp = P.Dx10;
  W.PC = P.K->CodeAddr + Emulator::CodeLoadBase;
  if (P.K->KD.kernargPreloadLength() && !P.PreloadPrologue)
    W.PC += 256; // firmware with kernarg preload skips the prologue
  W.PrivPerLane = P.PrivPerLane;
  if (P.PrivPerLane)
    W.Priv.assign(size_t(P.PrivPerLane) * 64, 0);
  W.Id = WaveId;
  W.WG = &WG;
  W.St = Wave::Running;
  if (W.C && W.C->Sh->Mem->Obs) // verification hook (VerifyHooks.cpp)
    poisonInitialState(W, K);
}

Error Emulator::mapCodeObject(Memory &Mem) const {
  const CodeObject &CO = *Prog->CO;
  // Checked before anything is mapped: a refused relocation leaves Mem as
  // it was.
  auto Relocs = dynamicRelocations(CO);
  if (!Relocs)
    return Relocs.takeError();
  std::vector<Region *> Segs;
  for (const ElfSegment &S : CO.segments()) {
    if (S.Type != ELF::PT_LOAD || !S.MemSize)
      continue;
    uint8_t Perms = PermRead | ((S.Flags & ELF::PF_W) ? PermWrite : 0);
    auto R = Mem.map(Prog->LoadBase + S.VAddr, S.MemSize, Perms,
                     formatv("code object segment {0:x}", S.VAddr).str());
    if (!R)
      return R.takeError();
    Segs.push_back(*R);
    ArrayRef<uint8_t> Img = CO.image();
    if (S.Offset + S.FileSize <= Img.size())
      std::memcpy((*R)->Data.data(), Img.data() + S.Offset,
                  std::min(S.FileSize, S.MemSize));
  }
  if (Segs.empty())
    return createStringError("code object has no PT_LOAD segment");
  // The loader patches the loaded image, whatever the segment's
  // permissions (.got is read-only after relocation).
  for (const DynamicRelocation &D : *Relocs) {
    uint64_t A = Prog->LoadBase + D.Offset;
    auto It = llvm::find_if(Segs, [&](Region *R) { return R->contains(A, 8); });
    if (It == Segs.end())
      return createStringError(
          formatv("code object {0}: relocation at {1:x} patches bytes of "
                  "two segments",
                  CO.name(), D.Offset));
    support::endian::write64le((*It)->Data.data() + (A - (*It)->Base),
                               Prog->LoadBase + D.Target);
  }
  return Error::success();
}

RunResult Emulator::run(const KernelInfo &K, const Dispatch &D, Memory &Mem,
                        const RunOptions &O) {
  RunResult RR;
  auto T0 = std::chrono::steady_clock::now();
  Program &P = *Prog;
  auto PlanOr = plan(P, K, D, O);
  if (!PlanOr) {
    RR.Kind = ErrorKind::Invalid;
    RR.Message = toString(PlanOr.takeError());
    return RR;
  }
  DispatchPlan &Pl = *PlanOr;
  // Kernarg segment, dispatch packet and queue (read-only).
  std::vector<uint64_t> Mapped;
  auto mapRO = [&](uint64_t Addr, ArrayRef<uint8_t> Bytes,
                   StringRef Name) -> Error {
    auto R = Mem.map(Addr, std::max<size_t>(Bytes.size(), 1), PermRead, Name);
    if (!R)
      return R.takeError();
    std::memcpy((*R)->Data.data(), Bytes.data(), Bytes.size());
    Mapped.push_back(Addr);
    return Error::success();
  };
  std::vector<uint8_t> Packet(64, 0);
  {
    // hsa_kernel_dispatch_packet_t.
    unsigned Dims = Pl.Grid[2] * Pl.WGSize[2] > 1   ? 3
                    : Pl.Grid[1] * Pl.WGSize[1] > 1 ? 2
                                                    : 1;
    put(Packet, 0, 2 /*HSA_PACKET_TYPE_KERNEL_DISPATCH*/, 2);
    put(Packet, 2, Dims, 2);
    for (int J = 0; J < 3; ++J) {
      put(Packet, 4 + 2 * J, Pl.WGSize[J], 2);
      put(Packet, 12 + 4 * J, uint64_t(Pl.Grid[J]) * Pl.WGSize[J], 4);
    }
    put(Packet, 24, Pl.PrivPerLane, 4);
    put(Packet, 28, Pl.LdsSize, 4);
    put(Packet, 32, K.DescriptorAddr + CodeLoadBase, 8);
    put(Packet, 40, Pl.KernargAddr, 8);
  }
  std::vector<uint8_t> Queue(256, 0);
  if (Error E = mapRO(Pl.KernargAddr, Pl.Kernarg, "kernarg segment")) {
    RR.Kind = ErrorKind::Invalid;
    RR.Message = toString(std::move(E));
    return RR;
  }
  if (Error E = mapRO(Pl.PacketAddr, Packet, "dispatch packet")) {
    RR.Kind = ErrorKind::Invalid;
    RR.Message = toString(std::move(E));
    for (uint64_t A : Mapped)
      Mem.unmap(A);
    return RR;
  }
  if (Error E = mapRO(Pl.QueueAddr, Queue, "queue")) {
    RR.Kind = ErrorKind::Invalid;
    RR.Message = toString(std::move(E));
    for (uint64_t A : Mapped)
      Mem.unmap(A);
    return RR;
  }

  Shared Sh;
  Sh.Mem = &Mem;
  Sh.Prog = &P;
  Sh.Opts = &O;
  Sh.IsGfx942 = P.IsGfx942;
  std::shared_ptr<GlobalShadow> GShadow;
  if (O.GlobalRaceCheck) {
    GShadow = makeGlobalShadow(Pl.Grid);
    Sh.GShadow = GShadow.get();
  }
  uint64_t NumWG = uint64_t(Pl.Grid[0]) * Pl.Grid[1] * Pl.Grid[2];
  uint64_t Items = uint64_t(Pl.WGSize[0]) * Pl.WGSize[1] * Pl.WGSize[2];
  unsigned WavesPerWG = (Items + 63) / 64;
  //--- Timing mode (cost model, Timing.cpp) --------------------------------
  // The workgroups of the CUs modelled in detail are run by the cost model
  // after the others (which run here as usual, reporting their memory
  // lines); per-PC counts are always collected.
  std::unique_ptr<TimedDispatch> Timed;
  RunOptions TimedOpts;
  if (O.Timing) {
    Timed = std::make_unique<TimedDispatch>(
        *O.Timing, P, K, NumWG, WavesPerWG, unsigned(Items), Pl.LdsSize,
        Pl.NumV + Pl.NumA);
    TimedOpts = O;
    TimedOpts.Profile = true;
    Sh.Opts = &TimedOpts;
  }
  //-------------------------------------------------------------------------
  unsigned Threads = O.Threads ? O.Threads : std::thread::hardware_concurrency();
  if (!Threads)
    Threads = 1;
  if (O.Trace || O.interleaved())
    Threads = 1; // readable, deterministic trace; interleaving is one thread
  Threads = std::min<uint64_t>(Threads, NumWG);
  std::atomic<uint64_t> Next{0};
  std::vector<Ctx> Ctxs(Threads + (Timed ? 1 : 0));
  // Workgroup L's initial state: ids, zeroed LDS and its race shadows, and
  // every wave's registers per the dispatch (initWave).
  auto startWorkgroup = [&](Workgroup &WG,
                            std::vector<std::unique_ptr<Wave>> &Waves,
                            uint64_t L, Ctx &C) {
    WG.Linear = L;
    WG.Id = {uint32_t(L % Pl.Grid[0]), uint32_t(L / Pl.Grid[0] % Pl.Grid[1]),
             uint32_t(L / (uint64_t(Pl.Grid[0]) * Pl.Grid[1]))};
    WG.Lds.assign(Pl.LdsSize, 0);
    WG.LdsWriter.assign(Pl.LdsSize, 0);
    WG.LdsReader.assign(Pl.LdsSize, 0);
    WG.Epoch = 1;
    WG.Waves.clear();
    Waves.resize(WavesPerWG);
    for (unsigned J = 0; J < WavesPerWG; ++J) {
      if (!Waves[J])
        Waves[J] = std::make_unique<Wave>();
      Wave &W = *Waves[J];
      W.SB = Scoreboard();
      W.C = &C;
      initWave(W, Pl, WG, J, Items);
      W.Executed = 0;
      WG.Waves.push_back(&W);
    }
  };
  auto Worker = [&](unsigned T) {
    Ctx &C = Ctxs[T];
    C.Sh = &Sh;
    if (Timed) // timing mode: report memory lines
      C.Sink = Timed->functionalSink(T, Threads);
    Workgroup WG;
    std::vector<std::unique_ptr<Wave>> Waves; // allocated by startWorkgroup
    for (;;) {
      uint64_t L = Next.fetch_add(1);
      if (L >= NumWG || Sh.stopped(L))
        break;
      if (Timed && Timed->modelled(L)) // run by the cost model below
        continue;
      C.WgLinear = L;
      startWorkgroup(WG, Waves, L, C);
      runWorkgroup(WG, C);
    }
  };
  // Interleaved scheduling: batches of co-resident workgroups, one thread.
  auto InterleavedWorker = [&] {
    Ctx &C = Ctxs[0];
    C.Sh = &Sh;
    unsigned Batch = std::max(1u, O.CoResident);
    std::vector<Workgroup> WGs(Batch);
    std::vector<std::vector<std::unique_ptr<Wave>>> Waves(Batch);
    for (uint64_t First = 0; First < NumWG && !Sh.Abort.load();
         First += Batch) {
      std::vector<Workgroup *> Live;
      for (unsigned B = 0; B < Batch && First + B < NumWG; ++B) {
        uint64_t L = First + B;
        Workgroup &WG = WGs[B];
        C.WgLinear = L;
        startWorkgroup(WG, Waves[B], L, C);
        Live.push_back(&WG);
      }
      runInterleaved(Live, C);
    }
  };
  if (GShadow) // concurrent only with a pool (timed CUs run after it)
    setGlobalShadowConcurrent(*GShadow,
                              Threads > 1 && !(O.interleaved() && !Timed));
  if (O.interleaved() && !Timed) {
    InterleavedWorker();
  } else if (Threads == 1) {
    Worker(0);
  } else {
    std::vector<std::thread> Pool;
    for (unsigned T = 0; T < Threads; ++T)
      Pool.emplace_back(Worker, T);
    for (auto &T : Pool)
      T.join();
  }
  if (Timed && !Sh.Abort.load()) {
    // Timing mode: the modelled CUs' workgroups, one instruction at a time.
    Ctx &C = Ctxs.back();
    C.Sh = &Sh;
    Timed->run(C, [&](uint64_t L, Workgroup &WG,
                      std::vector<std::unique_ptr<Wave>> &Waves) {
      startWorkgroup(WG, Waves, L, C);
    });
  }
  for (uint64_t A : Mapped)
    Mem.unmap(A);

  RR.Kind = Sh.ErrKind;
  RR.Message = Sh.ErrMsg;
  RR.Workgroups = NumWG;
  RR.Waves = NumWG * WavesPerWG;
  std::vector<uint64_t> Prof, Approx;
  for (Ctx &C : Ctxs) {
    RR.WaveInstructions += C.Executed;
    if (Prof.size() < C.Profile.size())
      Prof.resize(C.Profile.size());
    for (size_t J = 0; J < C.Profile.size(); ++J)
      Prof[J] += C.Profile[J];
    if (Approx.size() < C.ApproxCount.size())
      Approx.resize(C.ApproxCount.size());
    for (size_t J = 0; J < C.ApproxCount.size(); ++J)
      Approx[J] += C.ApproxCount[J];
    RR.D16UnspecifiedLoads += C.D16Loads;
    RR.UnspecifiedResults += C.UnspecifiedResults;
  }
  {
    std::lock_guard<std::mutex> L(P.M);
    for (size_t J = 0; J < Prof.size() && J < P.ByIndex.size(); ++J)
      if (Prof[J]) {
        const Inst *I = P.ByIndex[J];
        RR.Profile[I->PC - P.LoadBase] += Prof[J];
        RR.ProfileText[I->PC - P.LoadBase] = P.text(*I);
      }
    for (size_t J = 0; J < Approx.size() && J < P.ByIndex.size(); ++J)
      if (Approx[J] && P.ByIndex[J]->D)
        RR.ApproximateOps[baseMnemonic(P.ByIndex[J]->D->Mnemonic).str()] +=
            Approx[J];
  }
  if (Timed)
    Timed->finish(RR);
  RR.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                             T0)
                   .count();
  return RR;
}

} // namespace emu
} // namespace asmevo

namespace asmevo {
namespace emu {

SnippetResult runSnippet(StringRef CPU, ArrayRef<uint8_t> Code,
                         const SnippetState &Init, Memory *Mem,
                         const RunOptions &Opts) {
  SnippetResult Res;
  auto TI = TargetInfo::get(CPU, "");
  if (!TI) {
    Res.Run.Kind = ErrorKind::Invalid;
    Res.Run.Message = toString(TI.takeError());
    return Res;
  }
  Program P;
  P.TI = *TI;
  P.IsGfx942 = CPU != "gfx90a";
  P.D16UnusedUnspecified = !StringRef(Init.Features).contains("-sramecc");
  P.LoadBase = Emulator::CodeLoadBase;
  std::vector<uint8_t> Bytes(Code.begin(), Code.end());
  Program::CodeRange CR;
  CR.Begin = P.LoadBase;
  CR.End = P.LoadBase + Bytes.size();
  CR.Bytes = Bytes;
  size_t NSlots = (Bytes.size() + 3) / 4;
  CR.Slots.reset(new std::atomic<Inst *>[NSlots]);
  for (size_t K = 0; K < NSlots; ++K)
    CR.Slots[K].store(nullptr);
  P.Ranges.push_back(std::move(CR));
  Memory Local;
  Shared Sh;
  Sh.Mem = Mem ? Mem : &Local;
  Sh.Prog = &P;
  Sh.Opts = &Opts;
  Sh.IsGfx942 = P.IsGfx942;
  unsigned NumWG = std::max(Init.Workgroups, 1u);
  std::shared_ptr<GlobalShadow> GShadow;
  if (Opts.GlobalRaceCheck) {
    GShadow = makeGlobalShadow({NumWG, 1, 1});
    Sh.GShadow = GShadow.get();
    // Threads == 1 takes the shadow's one-thread paths; otherwise the
    // several-thread ones run (in order), as in a pool.
    setGlobalShadowConcurrent(*GShadow, Opts.Threads != 1);
  }
  Ctx C;
  C.Sh = &Sh;
  // Workgroups of one wave each, run in order on this thread; the result is
  // the last one's (or the first failing one's).
  Workgroup WG;
  std::unique_ptr<Wave> W;
  for (unsigned G = 0; G < NumWG; ++G) {
    WG = Workgroup();
    WG.Id = {G, 0, 0};
    WG.Linear = G;
    C.WgLinear = G;
    WG.Lds = Init.Lds;
    WG.LdsWriter.assign(WG.Lds.size(), 0);
    WG.LdsReader.assign(WG.Lds.size(), 0);
    W = std::make_unique<Wave>();
    std::copy(Init.S.begin(), Init.S.end(), W->S);
    if (Init.WorkgroupIdSgpr >= 0)
      W->S[Init.WorkgroupIdSgpr] = G;
    W->NumV = Init.V.size();
    W->NumA = Init.A.size();
    W->VStore.assign(size_t(512 + 256) * 64, 0);
    W->V = W->VStore.data();
    W->A = W->VStore.data() + size_t(512) * 64;
    for (size_t R = 0; R < Init.V.size(); ++R)
      std::copy(Init.V[R].begin(), Init.V[R].end(), W->V + R * 64);
    for (size_t R = 0; R < Init.A.size(); ++R)
      std::copy(Init.A[R].begin(), Init.A[R].end(), W->A + R * 64);
    W->SB.PendV.assign(512, 0);
    W->SB.KindV.assign(512, 0);
    W->SB.PendA.assign(256, 0);
    W->SB.KindA.assign(256, 0);
    W->setExec(Init.Exec);
    W->SCC = Init.SCC;
    W->Mode = Init.Mode;
    W->Ieee = Init.Ieee;
    W->PC = P.LoadBase;
    W->PrivPerLane = 256;
    W->Priv.assign(256 * 64, 0);
    W->WG = &WG;
    W->C = &C;
    W->St = Wave::Running;
    W->TrackGlobal = Sh.GShadow != nullptr;
    WG.Waves.push_back(W.get());
    runWorkgroup(WG, C);
    if (Sh.ErrKind != ErrorKind::None)
      break;
  }
  Res.Run.Kind = Sh.ErrKind;
  Res.Run.Message = Sh.ErrMsg;
  Res.Run.WaveInstructions = C.Executed;
  Res.Run.D16UnspecifiedLoads = C.D16Loads;
  Res.Run.UnspecifiedResults = C.UnspecifiedResults;
  SnippetState &S = Res.State;
  std::copy(W->S, W->S + 128, S.S.begin());
  S.V.resize(Init.V.size());
  for (size_t R = 0; R < S.V.size(); ++R)
    std::copy(W->V + R * 64, W->V + R * 64 + 64, S.V[R].begin());
  S.A.resize(Init.A.size());
  for (size_t R = 0; R < S.A.size(); ++R)
    std::copy(W->A + R * 64, W->A + R * 64 + 64, S.A[R].begin());
  S.Exec = W->exec();
  S.SCC = W->SCC;
  S.Mode = W->Mode;
  S.Ieee = W->Ieee;
  S.Lds = WG.Lds;
  return Res;
}

} // namespace emu
} // namespace asmevo
