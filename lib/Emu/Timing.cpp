//===- Timing.cpp - The emulator's timing mode (cost model) --------------===//
//
// Execution-driven model of one dispatch on an AMD Instinct GPU
// (CostModel.h; parameters and their sources in docs/cost-model.md).
//
// The grid's workgroups are spread round-robin over the device's CUs. A few
// CUs (evenly spread over the active ones) are modelled in detail: their
// workgroups are launched as the occupancy rules allow, their waves are
// placed on the 4 SIMDs, and every wave-instruction is executed functionally
// (stepInstruction) at the cycle the model issues it. Everything else runs
// functionally in Exec.cpp first; it only reports which memory lines it
// touches, so that the modelled CUs find data other workgroups brought in
// already in the L2 cache.
//
// Per modelled CU, time advances from one issue slot to the next: SIMD s is
// offered the slots t with t % 4 == s; among its ready waves (oldest first)
// it issues at most one instruction per unit class (VALU/MFMA, SALU, VMEM,
// LDS, SMEM, branch). A wave's next instruction is ready when its previous
// instruction's issue time has passed, the registers it reads are written,
// the wait counters it waits for have dropped, and (VALU/MFMA) the SIMD's
// VALU or matrix unit is free. Every cycle of a wave's life is charged to one
// instruction and one reason (CostModel.h, Stall).
//
//===----------------------------------------------------------------------===//

#include "Timing.h"

#include "asmevo/CodeObject/CodeObject.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCSchedule.h"
#include "llvm/MC/MCSubtargetInfo.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <unordered_set>

using namespace llvm;

namespace asmevo {
namespace emu {

namespace {

constexpr uint64_t Never = std::numeric_limits<uint64_t>::max();

/// How an instruction uses the machine.
enum class Unit : uint8_t {
  Valu,    // VALU (Busy cycles on the SIMD's VALU)
  Mfma,    // matrix core: issue on the VALU, Busy cycles on the XDL unit
  Salu,    // scalar ALU and other scalar instructions
  Smem,    // scalar memory (lgkmcnt, out of order)
  Vmem,    // vector memory: global/flat/scratch/buffer (vmcnt)
  Lds,     // DS (lgkmcnt, in order)
  Branch,  // s_branch, s_cbranch_*, s_setpc/s_swappc
  Waitcnt, // handled in the sequencer, no unit
  Barrier,
  Nop,
  Sleep,
  End,
};

/// Issue classes: at most one instruction per class per SIMD slot.
enum Group : uint8_t { GValu, GSalu, GVmem, GLds, GSmem, GBranch, GInternal };

Group groupOf(Unit U) {
  switch (U) {
  case Unit::Valu:
  case Unit::Mfma:
    return GValu;
  case Unit::Salu:
    return GSalu;
  case Unit::Smem:
    return GSmem;
  case Unit::Vmem:
    return GVmem;
  case Unit::Lds:
    return GLds;
  case Unit::Branch:
    return GBranch;
  default:
    return GInternal;
  }
}

struct ICls {
  bool Valid = false;
  Unit U = Unit::Salu;
  uint16_t Busy = 4;  // VALU: cycles on the VALU; MFMA: cycles on the XDL
  uint16_t Lat = 4;   // ALU result latency
  uint32_t Gap = 4;   // the wave's own issue time
  uint8_t Vm = 63, Lgkm = 15; // s_waitcnt
  bool LdsNoMem = false;      // ds_bpermute/ds_permute/ds_swizzle/ds_nop
};

/// Latency (in the model's units) and the largest resource occupancy of an
/// instruction from LLVM's scheduling model of the subtarget.
void schedInfo(const TargetInfo &TI, const MCInst &MI, unsigned &Lat,
               unsigned &Rel) {
  const MCSubtargetInfo &STI = TI.subtarget();
  const MCSchedModel &SM = STI.getSchedModel();
  if (!SM.hasInstrSchedModel())
    return;
  unsigned SC = TI.desc(MI.getOpcode()).getSchedClass();
  const MCSchedClassDesc *SCD = SM.getSchedClassDesc(SC);
  if (!SCD || !SCD->isValid())
    return;
  if (SCD->isVariant()) {
    SC = STI.resolveVariantSchedClass(SC, &MI, &TI.instrInfo(),
                                      SM.getProcessorID());
    if (!SC)
      return;
    SCD = SM.getSchedClassDesc(SC);
    if (!SCD || !SCD->isValid() || SCD->isVariant())
      return;
  }
  int L = MCSchedModel::computeInstrLatency(STI, *SCD);
  if (L > 0)
    Lat = unsigned(L);
  for (const MCWriteProcResEntry *W = STI.getWriteProcResBegin(SCD),
                                 *E = STI.getWriteProcResEnd(SCD);
       W != E; ++W)
    Rel = std::max<unsigned>(Rel, W->ReleaseAtCycle);
}

ICls classify(const Program &P, const Inst &I, const DeviceModel &D) {
  ICls C;
  C.Valid = true;
  C.Gap = D.IssuePeriod;
  C.Busy = D.IssuePeriod;
  C.Lat = D.SaluLatency;
  if (!I.D)
    return C;
  const TargetInfo &TI = *P.TI;
  uint64_t TS = TI.tsFlags(I.D->Inst.getOpcode());
  StringRef B = baseMnemonic(I.D->Mnemonic);
  unsigned Lat = 1, Rel = 1;
  schedInfo(TI, I.D->Inst, Lat, Rel);
  if (TS & InstFlag::SOPP) {
    if (B == "s_waitcnt") {
      C.U = Unit::Waitcnt;
      C.Vm = (I.C0 & 0xf) | ((I.C0 >> 14) & 3) << 4;
      C.Lgkm = (I.C0 >> 8) & 0xf;
    } else if (B == "s_barrier") {
      C.U = Unit::Barrier;
    } else if (B == "s_nop") {
      // SIMM16[3:0] + 1 wait states; a wave issues at most once per slot.
      C.U = Unit::Nop;
      C.Gap = ((I.C0 & 0xf) + 1) * D.IssuePeriod;
    } else if (B == "s_sleep") {
      C.U = Unit::Sleep;
      C.Gap = D.IssuePeriod + (I.C0 & 0x7f) * D.SleepUnitCycles;
    } else if (B.starts_with("s_endpgm")) {
      C.U = Unit::End;
    } else if (B.starts_with("s_branch") || B.starts_with("s_cbranch")) {
      C.U = Unit::Branch;
    } else {
      C.U = Unit::Salu;
    }
    return C;
  }
  if (B == "s_setpc_b64" || B == "s_swappc_b64") {
    C.U = Unit::Branch;
    return C;
  }
  if (TS & InstFlag::SMRD) {
    C.U = Unit::Smem;
    return C;
  }
  if (TS & InstFlag::DS) {
    C.U = Unit::Lds;
    C.LdsNoMem = B == "ds_bpermute_b32" || B == "ds_permute_b32" ||
                 B == "ds_swizzle_b32" || B == "ds_nop";
    return C;
  }
  if (TS & (InstFlag::FLAT | InstFlag::MUBUF | InstFlag::MTBUF |
            InstFlag::MIMG)) {
    C.U = Unit::Vmem;
    return C;
  }
  if ((TS & InstFlag::IsMAI) &&
      (B.starts_with("v_mfma") || B.starts_with("v_smfmac"))) {
    // LLVM: Write{2,4,8,16}PassMAI on HWXDL with ReleaseAtCycles = passes;
    // DGEMM variants on HWVALU with the same shape.
    unsigned Passes = std::max(Lat, Rel);
    C.U = Unit::Mfma;
    C.Busy = uint16_t(Passes * D.PassCycles);
    C.Lat = C.Busy;
    return C;
  }
  if (TS & InstFlag::VALU) {
    // SISchedule.td: gfx9 latencies are 1 / (operations per cycle) / 4, i.e.
    // in units of one wave64 pass (4 cycles) of the SIMD16.
    C.U = Unit::Valu;
    C.Busy = uint16_t(std::max(1u, Lat) * D.PassCycles);
    C.Lat = C.Busy;
    return C;
  }
  C.U = Unit::Salu;
  return C;
}

/// Per memory access of the instruction being executed (modelled CUs).
struct Access {
  uint8_t Space;
  uint32_t Len;
  unsigned Lane;
  uint64_t Addr;
};

struct InstSink : AccessSink {
  std::vector<Access> V;
  void access(uint8_t Space, uint64_t Addr, uint32_t Len,
              unsigned Lane) override {
    V.push_back({Space, Len, Lane, Addr});
  }
};

/// Lines touched by functionally run workgroups.
struct LineSink : AccessSink {
  std::unordered_set<uint64_t> Lines;
  uint64_t Last = ~0ull;
  unsigned LineBytes = 128;
  void access(uint8_t Space, uint64_t Addr, uint32_t Len,
              unsigned) override {
    if (Space != 0 || !Len)
      return;
    for (uint64_t L = Addr / LineBytes, E = (Addr + Len - 1) / LineBytes;
         L <= E; ++L)
      if (L != Last) {
        Lines.insert(L);
        Last = L;
      }
  }
};

struct TWG;

struct TWave {
  Wave *W = nullptr;
  TWG *G = nullptr;
  unsigned Simd = 0;
  uint64_t Age = 0;
  uint64_t Base = 0;     // earliest issue of Next by in-order issue
  uint64_t Earliest = 0; // max(Base, WaitUntil)
  uint64_t WaitUntil = 0;
  Stall Reason = Stall::Issue; // what WaitUntil waits for
  const Inst *Next = nullptr;
  bool Done = false, AtBarrier = false;
  uint64_t Arrive = 0;          // barrier arrival (after its issue time)
  const Inst *BarrierI = nullptr;
  std::deque<uint64_t> Vm;      // completion times, in order
  std::vector<uint64_t> Lgkm;   // completion times
  uint64_t LastVm = 0, LastLds = 0;
  uint64_t RegS[128];
  std::vector<uint64_t> RegV, RegA;
  uint64_t ScratchBase = 0;
};

struct TWG {
  uint64_t L = 0;
  Workgroup WG;
  std::vector<std::unique_ptr<Wave>> Waves;
  std::vector<TWave> TW;
  unsigned Live = 0;
  uint32_t Lds = 0;
};

struct TSimd {
  std::vector<TWave *> Waves; // by age
  uint64_t ValuFree = 0, XdlFree = 0;
};

/// One CU's resident state.
struct TCU {
  TSimd S[4];
  unsigned WavesOn[4] = {0, 0, 0, 0};
  uint64_t LdsFree = 0, VmemFree = 0;
  double HbmFree = 0;
  uint32_t LdsUsed = 0;
  unsigned WGs = 0;
  unsigned NextSimd = 0; // round-robin start of wave placement
};

/// Wave placement: each wave of a workgroup on the SIMD with the fewest
/// waves (ties: round robin from Start). Returns false when some wave finds
/// no SIMD below Cap.
bool placeWaves(const unsigned (&WavesOn)[4], unsigned Simds, unsigned Cap,
                unsigned N, unsigned Start, std::vector<unsigned> *Out) {
  unsigned On[4] = {WavesOn[0], WavesOn[1], WavesOn[2], WavesOn[3]};
  for (unsigned J = 0; J < N; ++J) {
    unsigned Best = ~0u;
    for (unsigned K = 0; K < Simds; ++K) {
      unsigned S = (Start + J + K) % Simds;
      if (On[S] >= Cap)
        continue;
      if (Best == ~0u || On[S] < On[Best])
        Best = S;
    }
    if (Best == ~0u)
      return false;
    ++On[Best];
    if (Out)
      Out->push_back(Best);
  }
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// Occupancy (CostModel.h)
//===----------------------------------------------------------------------===//

Occupancy computeOccupancy(const DeviceModel &D, unsigned WorkgroupSize,
                           unsigned UnifiedVgprs, unsigned Sgprs,
                           unsigned LdsBytes) {
  Occupancy O;
  unsigned Simds = std::min(4u, std::max(1u, D.SimdsPerCU));
  O.WavesPerWorkgroup = std::max(1u, (WorkgroupSize + 63) / 64);
  // LLVM getNumWavesPerEUWithNumVGPRs: below one granule, the maximum.
  unsigned G = std::max(1u, D.VgprGranule);
  O.VgprsAllocated = (std::max(UnifiedVgprs, 1u) + G - 1) / G * G;
  O.WavesPerSimdByVgpr =
      std::min(D.MaxWavesPerSimd,
               std::max(1u, D.VgprsPerSimdLane / O.VgprsAllocated));
  // LLVM getOccupancyWithNumSGPRs (VOLCANIC_ISLANDS..GFX9): 800 SGPRs per
  // SIMD in granules of 16.
  O.SgprsAllocated = (std::max(Sgprs, 1u) + 15) / 16 * 16;
  unsigned BySgpr = Sgprs <= 80 ? 10 : Sgprs <= 88 ? 9 : Sgprs <= 100 ? 8 : 7;
  O.WavesPerSimdBySgpr = std::min(D.MaxWavesPerSimd, BySgpr);
  unsigned Cap = std::min(O.WavesPerSimdByVgpr, O.WavesPerSimdBySgpr);
  // LDS, granule-rounded.
  unsigned LG = std::max(1u, D.LdsGranule);
  O.LdsAllocated = (LdsBytes + LG - 1) / LG * LG;
  O.WorkgroupsByLds =
      O.LdsAllocated ? D.LdsBytesPerCU / O.LdsAllocated : ~0u;
  // LLVM getMaxWorkGroupsPerCU.
  unsigned N = O.WavesPerWorkgroup;
  O.WorkgroupsByLimit =
      N == 1 ? D.WorkgroupWaveSlots
             : std::min(D.WorkgroupWaveSlots / N, D.MaxWorkgroupsPerCU);
  // Wave slots: place workgroups until one does not fit.
  unsigned On[4] = {0, 0, 0, 0};
  unsigned Count = 0, Start = 0;
  for (;;) {
    std::vector<unsigned> Where;
    if (!placeWaves(On, Simds, Cap, N, Start, &Where))
      break;
    for (unsigned S : Where)
      ++On[S];
    Start = (Start + N) % Simds;
    if (++Count > 4096)
      break;
  }
  O.WorkgroupsBySlots = Count;
  O.WorkgroupsPerCU = std::min(
      {O.WorkgroupsBySlots, O.WorkgroupsByLds, O.WorkgroupsByLimit});
  O.WavesPerCU = O.WorkgroupsPerCU * N;
  if (O.WorkgroupsPerCU == O.WorkgroupsByLds &&
      O.WorkgroupsByLds < O.WorkgroupsBySlots)
    O.Limiter = "lds";
  else if (O.WorkgroupsPerCU == O.WorkgroupsByLimit &&
           O.WorkgroupsByLimit < O.WorkgroupsBySlots)
    O.Limiter = "workgroups";
  else if (Cap == O.WavesPerSimdByVgpr && Cap < D.MaxWavesPerSimd)
    O.Limiter = "vgpr";
  else if (Cap == O.WavesPerSimdBySgpr && Cap < D.MaxWavesPerSimd)
    O.Limiter = "sgpr";
  else
    O.Limiter = "waves";
  return O;
}

//===----------------------------------------------------------------------===//
// The timed dispatch
//===----------------------------------------------------------------------===//

struct TimedDispatch::Impl {
  TimingRequest &Req;
  const DeviceModel &D;
  Program &P;
  const KernelInfo &K;
  uint64_t NumWG;
  unsigned WavesPerWG;
  uint32_t LdsBytes;
  unsigned UnifiedVgprs;
  Occupancy Occ;
  unsigned ActiveCUs = 0;
  std::vector<unsigned> ModelledCUs;
  std::vector<char> IsModelledCU;
  std::vector<std::unique_ptr<LineSink>> Sinks;
  std::unordered_set<uint64_t> Lines; // every line touched so far
  std::vector<ICls> Cls;              // by Inst::Index
  std::vector<PcCost> Cost;           // by Inst::Index
  std::vector<uint64_t> CuCycles;
  uint64_t ModelledWGs = 0;
  bool Failed = false;
  double HbmShare = 1;   // bytes per cycle of HBM for one CU
  double VmemBytesPerCycle = 64;
  InstSink Sink;
  uint64_t NextAge = 0;

  Impl(TimingRequest &R, Program &P, const KernelInfo &K, uint64_t NumWG,
       unsigned WavesPerWG, unsigned WGItems, uint32_t LdsBytes,
       unsigned UnifiedVgprs)
      : Req(R), D(R.Device), P(P), K(K), NumWG(NumWG),
        WavesPerWG(WavesPerWG), LdsBytes(LdsBytes),
        UnifiedVgprs(UnifiedVgprs) {
    unsigned Sgprs = (K.KD.granulatedWavefrontSgprCount() + 1) * 8;
    Occ = computeOccupancy(D, WGItems, UnifiedVgprs, Sgprs, LdsBytes);
    unsigned CUs = std::max(1u, D.CUs);
    ActiveCUs = unsigned(std::min<uint64_t>(CUs, NumWG));
    unsigned N = std::max(1u, std::min(R.MaxModelledCUs, ActiveCUs));
    IsModelledCU.assign(CUs, 0);
    for (unsigned J = 0; J < N; ++J) {
      unsigned C = unsigned(uint64_t(J) * ActiveCUs / N);
      if (!IsModelledCU[C]) {
        IsModelledCU[C] = 1;
        ModelledCUs.push_back(C);
      }
    }
    HbmShare = D.hbmBytesPerCycle() / std::max(1u, ActiveCUs);
    // Per CU: the vector L1 path, or its share of its XCD's L2 bandwidth.
    unsigned XCDs = std::max(1u, D.XCDs);
    unsigned PerXcd = (ActiveCUs + XCDs - 1) / XCDs;
    VmemBytesPerCycle = std::min(D.L1BytesPerCycle,
                                 D.L2BytesPerCyclePerXCD / std::max(1u, PerXcd));
  }

  const ICls &cls(const Inst &I) {
    if (Cls.size() <= I.Index)
      Cls.resize(I.Index + 64);
    ICls &C = Cls[I.Index];
    if (!C.Valid)
      C = classify(P, I, D);
    return C;
  }
  PcCost &cost(const Inst &I) {
    if (Cost.size() <= I.Index)
      Cost.resize(I.Index + 64);
    return Cost[I.Index];
  }

  //--- Per-wave readiness ---------------------------------------------------

  uint64_t *regReady(TWave &W, uint8_t File, unsigned R) {
    if (File == 0)
      return R < 128 ? &W.RegS[R] : nullptr;
    std::vector<uint64_t> &V = File == 1 ? W.RegV : W.RegA;
    return R < V.size() ? &V[R] : nullptr;
  }

  /// Time at which at most N of the completion times in V are pending.
  static uint64_t countDrops(std::vector<uint64_t> Sorted, unsigned N) {
    if (Sorted.size() <= N)
      return 0;
    size_t K = Sorted.size() - N - 1;
    std::nth_element(Sorted.begin(), Sorted.begin() + K, Sorted.end());
    return Sorted[K];
  }
  static uint64_t vmDrops(const std::deque<uint64_t> &V, unsigned N) {
    if (V.size() <= N)
      return 0;
    return V[V.size() - N - 1]; // in order: monotone
  }

  void computeEarliest(TWave &W) {
    W.WaitUntil = 0;
    W.Reason = Stall::Issue;
    const Inst *I = W.Next;
    if (!I) {
      W.Earliest = W.Base;
      return;
    }
    const ICls &C = cls(*I);
    uint64_t Dep = 0;
    for (const RegRef &R : I->Uses)
      for (unsigned J = 0; J < R.Count; ++J)
        if (uint64_t *T = regReady(W, R.File, R.First + J))
          Dep = std::max(Dep, *T);
    if (Dep > W.Base) {
      W.WaitUntil = Dep;
      W.Reason = Stall::Dependency;
    }
    if (C.U == Unit::Waitcnt) {
      uint64_t VmT = vmDrops(W.Vm, C.Vm);
      uint64_t LgT = countDrops(W.Lgkm, C.Lgkm);
      uint64_t T = std::max(VmT, LgT);
      if (T > W.Base && T > W.WaitUntil) {
        W.WaitUntil = T;
        W.Reason = VmT >= LgT ? Stall::Vmcnt : Stall::Lgkmcnt;
      }
    } else if (C.U == Unit::Vmem || C.U == Unit::Smem || C.U == Unit::Lds) {
      // The counters are 6 (vmcnt) and 4 (lgkmcnt) bits wide: a wave with
      // that many operations outstanding cannot issue another.
      uint64_t T = 0;
      Stall Why = Stall::Vmcnt;
      if (C.U == Unit::Vmem && W.Vm.size() >= 63)
        T = vmDrops(W.Vm, 62);
      if ((C.U != Unit::Vmem || (I->MemCounters & 6)) && W.Lgkm.size() >= 15) {
        uint64_t L = countDrops(W.Lgkm, 14);
        if (L > T) {
          T = L;
          Why = Stall::Lgkmcnt;
        }
      }
      if (T > W.Base && T > W.WaitUntil) {
        W.WaitUntil = T;
        W.Reason = Why;
      }
    }
    W.Earliest = std::max(W.Base, W.WaitUntil);
  }

  uint64_t unitFree(const TCU &Cu, const TWave &W) {
    if (!W.Next)
      return 0;
    const ICls &C = cls(*W.Next);
    const TSimd &S = Cu.S[W.Simd];
    if (C.U == Unit::Valu)
      return S.ValuFree;
    if (C.U == Unit::Mfma)
      return std::max(S.ValuFree, S.XdlFree);
    return 0;
  }

  //--- Memory costs -----------------------------------------------------------

  /// LDS service cycles of a DS instruction from its per-lane accesses: lanes
  /// are served in passes of LdsBytesPerCycle bytes; within a pass each bank
  /// serves one dword per cycle (the same dword to many lanes is one access).
  unsigned ldsService(const std::vector<Access> &A) {
    unsigned BankCount = std::max(1u, D.LdsBanks);
    unsigned BankBytes = std::max(1u, D.LdsBankBytes);
    // Bytes per lane (the widest lane).
    unsigned PerLane[64] = {};
    bool Any = false;
    for (const Access &X : A)
      if (X.Space == 1 && X.Lane < 64) {
        PerLane[X.Lane] += X.Len;
        Any = true;
      }
    if (!Any)
      return 1;
    unsigned Bytes = BankBytes;
    for (unsigned L = 0; L < 64; ++L)
      Bytes = std::max(Bytes, PerLane[L]);
    unsigned LanesPerPass = std::max(1u, D.LdsBytesPerCycle / Bytes);
    unsigned Passes = (64 + LanesPerPass - 1) / LanesPerPass;
    unsigned Total = 0;
    std::vector<uint64_t> Words;
    for (unsigned Pass = 0; Pass < Passes; ++Pass) {
      unsigned Lo = Pass * LanesPerPass, Hi = Lo + LanesPerPass;
      Words.clear();
      for (const Access &X : A) {
        if (X.Space != 1 || X.Lane < Lo || X.Lane >= Hi)
          continue;
        for (uint64_t B = X.Addr / BankBytes,
                      E = (X.Addr + std::max(1u, X.Len) - 1) / BankBytes;
             B <= E; ++B)
          Words.push_back(B);
      }
      if (Words.empty())
        continue;
      std::sort(Words.begin(), Words.end());
      Words.erase(std::unique(Words.begin(), Words.end()), Words.end());
      unsigned PerBank[64] = {};
      unsigned Worst = 0;
      for (uint64_t Wd : Words) {
        unsigned &N = PerBank[Wd % std::min(64u, BankCount)];
        Worst = std::max(Worst, ++N);
      }
      Total += Worst;
    }
    return std::max(1u, Total);
  }

  //--- The modelled CU --------------------------------------------------------

  void charge(TWave &W, const Inst &I, uint64_t T) {
    PcCost &PC = cost(I);
    if (T <= W.Base)
      return;
    uint64_t Wait = W.WaitUntil > W.Base ? std::min(W.WaitUntil, T) - W.Base : 0;
    if (Wait)
      PC.Cycles[unsigned(W.Reason)] += Wait;
    PC.Cycles[unsigned(Stall::Issue)] += T - W.Base - Wait;
  }

  void releaseBarrier(TWG &G, uint64_t T) {
    unsigned Waiting = 0;
    for (TWave &X : G.TW) {
      if (X.Done)
        continue;
      if (!X.AtBarrier)
        return;
      ++Waiting;
    }
    if (!Waiting)
      return;
    // Released at a multiple of the issue period, so that every SIMD sees
    // the release at the same phase of its slots (an earlier last arrival
    // never makes the waves resume later).
    uint64_t Per = std::max(1u, D.IssuePeriod);
    uint64_t R = (T + D.BarrierLatency + Per - 1) / Per * Per;
    ++G.WG.Epoch;
    for (TWave &X : G.TW) {
      if (X.Done || !X.AtBarrier)
        continue;
      if (R > X.Arrive)
        cost(*X.BarrierI).Cycles[unsigned(Stall::Barrier)] += R - X.Arrive;
      X.AtBarrier = false;
      X.Base = std::max(R, X.Arrive);
      X.W->St = Wave::Running;
      crossPendingLds(*X.W);
      X.W->Stop = false;
      std::string Err;
      X.Next = P.at(X.W->PC, Err);
      computeEarliest(X);
    }
  }

  /// Issues W's next instruction at T. False on a functional failure.
  bool issue(Ctx &C, TCU &Cu, TWave &W, uint64_t T, uint64_t &CuEnd,
             bool &WGDone) {
    const Inst *I = W.Next;
    Sink.V.clear();
    C.WgLinear = W.G->L;
    W.W->Stop = false;
    const Inst *E = stepInstruction(*W.W);
    if (!E || W.W->St == Wave::Failed)
      return false;
    I = E;
    const ICls K = cls(*I); // copy: cls() may grow the table
    charge(W, *I, T);
    PcCost &PC = cost(*I);
    ++PC.SampledExecuted;
    uint32_t Gap = K.Gap;
    TSimd &S = Cu.S[W.Simd];
    uint64_t DefReady = T + K.Lat;
    // Prune completed memory operations.
    while (!W.Vm.empty() && W.Vm.front() <= T)
      W.Vm.pop_front();
    W.Lgkm.erase(std::remove_if(W.Lgkm.begin(), W.Lgkm.end(),
                                [&](uint64_t X) { return X <= T; }),
                 W.Lgkm.end());
    switch (K.U) {
    case Unit::Valu:
      S.ValuFree = T + K.Busy;
      DefReady = T + K.Busy;
      break;
    case Unit::Mfma:
      S.ValuFree = T + D.PassCycles;
      S.XdlFree = T + K.Busy;
      DefReady = T + K.Busy;
      break;
    case Unit::Smem: {
      DefReady = T + D.SmemLatency;
      W.Lgkm.push_back(DefReady);
      break;
    }
    case Unit::Lds: {
      unsigned Service =
          K.LdsNoMem ? std::max(1u, unsigned(64 * 4 / std::max(1u, D.LdsBytesPerCycle)))
                     : ldsService(Sink.V);
      uint64_t Start = std::max(T, Cu.LdsFree);
      Cu.LdsFree = Start + Service;
      uint64_t Done = std::max(Start + Service + D.LdsLatency, W.LastLds);
      W.LastLds = Done;
      W.Lgkm.push_back(Done);
      DefReady = Done;
      break;
    }
    case Unit::Vmem: {
      std::vector<uint64_t> Ls;
      std::vector<char> Global;
      unsigned LB = std::max(1u, D.LineBytes);
      for (const Access &X : Sink.V) {
        if (X.Space == 1)
          continue; // FLAT to LDS, LDS-DMA destination
        uint64_t A = X.Addr;
        if (X.Space == 2) // scratch: swizzled per lane (dword interleave)
          A = W.ScratchBase + (X.Addr / 4) * 256 + X.Lane * 4;
        uint64_t Len = std::max(1u, X.Len);
        for (uint64_t L = A / LB, E = (A + Len - 1) / LB; L <= E; ++L)
          Ls.push_back(X.Space == 0 ? L : (L | (1ull << 63)));
      }
      std::sort(Ls.begin(), Ls.end());
      Ls.erase(std::unique(Ls.begin(), Ls.end()), Ls.end());
      uint64_t Misses = 0;
      for (uint64_t L : Ls)
        if (!(L >> 63) && Lines.insert(L).second)
          ++Misses;
      uint64_t Pipe = std::max<uint64_t>(
          D.IssuePeriod,
          uint64_t(std::ceil(double(Ls.size()) * LB / VmemBytesPerCycle)));
      uint64_t Start = std::max(T, Cu.VmemFree);
      Cu.VmemFree = Start + Pipe;
      double Ready = double(Start + Pipe);
      if (Misses) {
        double HS = std::max(double(Start), Cu.HbmFree);
        Cu.HbmFree = HS + double(Misses * LB) / HbmShare;
        Ready = std::max(Ready, Cu.HbmFree);
      }
      uint64_t Done = uint64_t(std::ceil(Ready)) + D.VmemLatency;
      Done = std::max(Done, W.LastVm);
      W.LastVm = Done;
      if (I->MemCounters & 1)
        W.Vm.push_back(Done);
      if (I->MemCounters & 6)
        W.Lgkm.push_back(Done);
      CuEnd = std::max(CuEnd, Done);
      DefReady = Done;
      break;
    }
    case Unit::Branch:
      if (W.W->PC != I->PC + I->Size)
        Gap = std::max<uint32_t>(Gap, D.BranchTakenCycles);
      break;
    default:
      break;
    }
    for (const RegRef &R : I->Defs)
      for (unsigned J = 0; J < R.Count; ++J)
        if (uint64_t *X = regReady(W, R.File, R.First + J))
          *X = std::max(*X, DefReady);
    PC.Cycles[unsigned(Stall::Busy)] += Gap;
    W.Base = T + Gap;
    WGDone = false;
    if (W.W->St == Wave::Done) {
      W.Done = true;
      CuEnd = std::max({CuEnd, W.Base, W.LastVm, W.LastLds});
      auto &V = S.Waves;
      V.erase(std::find(V.begin(), V.end(), &W));
      --Cu.WavesOn[W.Simd];
      if (--W.G->Live == 0)
        WGDone = true;
      else
        releaseBarrier(*W.G, W.Base); // waves that ended do not take part
      return true;
    }
    if (W.W->St == Wave::Barrier) {
      W.AtBarrier = true;
      W.Arrive = W.Base;
      W.BarrierI = I;
      releaseBarrier(*W.G, W.Base);
      return true;
    }
    std::string Err;
    W.Next = P.at(W.W->PC, Err);
    computeEarliest(W);
    return true;
  }

  bool fits(const TCU &Cu, unsigned Cap) {
    if (Cu.WGs >= Occ.WorkgroupsByLimit)
      return false;
    if (Occ.LdsAllocated && Cu.LdsUsed + Occ.LdsAllocated > D.LdsBytesPerCU)
      return false;
    return placeWaves(Cu.WavesOn, std::min(4u, D.SimdsPerCU), Cap, WavesPerWG,
                      Cu.NextSimd, nullptr);
  }

  /// Simulates one CU running workgroups WGs (in order). Returns its cycles;
  /// false in Ok when a wave failed functionally.
  uint64_t simulateCU(Ctx &C, const std::vector<uint64_t> &WGs,
                      const SetupFn &Setup, bool &Ok) {
    Ok = true;
    TCU Cu;
    unsigned Simds = std::min(4u, std::max(1u, D.SimdsPerCU));
    unsigned Cap = std::min(Occ.WavesPerSimdByVgpr, Occ.WavesPerSimdBySgpr);
    std::vector<std::unique_ptr<TWG>> Free, Active;
    size_t NextWG = 0;
    uint64_t CuEnd = 0;
    auto launch = [&](uint64_t At) {
      while (NextWG < WGs.size() && fits(Cu, Cap)) {
        std::unique_ptr<TWG> G;
        if (!Free.empty()) {
          G = std::move(Free.back());
          Free.pop_back();
        } else {
          G = std::make_unique<TWG>();
        }
        G->L = WGs[NextWG++];
        Setup(G->L, G->WG, G->Waves);
        G->TW.clear();
        G->TW.resize(WavesPerWG);
        G->Live = WavesPerWG;
        std::vector<unsigned> Where;
        placeWaves(Cu.WavesOn, Simds, Cap, WavesPerWG, Cu.NextSimd, &Where);
        Cu.NextSimd = (Cu.NextSimd + WavesPerWG) % Simds;
        ++Cu.WGs;
        Cu.LdsUsed += Occ.LdsAllocated;
        ++ModelledWGs;
        for (unsigned J = 0; J < WavesPerWG; ++J) {
          TWave &W = G->TW[J];
          W.W = G->WG.Waves[J];
          W.G = G.get();
          W.Simd = Where[J];
          W.Age = NextAge++;
          W.Base = At;
          std::fill(std::begin(W.RegS), std::end(W.RegS), 0);
          W.RegV.assign(W.W->NumV, 0);
          W.RegA.assign(W.W->NumA, 0);
          W.ScratchBase = (0xe000ull << 48) | (W.Age << 24);
          std::string Err;
          W.Next = P.at(W.W->PC, Err);
          computeEarliest(W);
          ++Cu.WavesOn[W.Simd];
          Cu.S[W.Simd].Waves.push_back(&W);
        }
        Active.push_back(std::move(G));
      }
    };
    launch(0);
    while (!Active.empty()) {
      // The next slot at which some SIMD has a wave that may issue.
      uint64_t Best = Never;
      for (unsigned S = 0; S < Simds; ++S) {
        uint64_t M = Never;
        for (TWave *W : Cu.S[S].Waves)
          if (!W->AtBarrier)
            M = std::min(M, std::max(W->Earliest, unitFree(Cu, *W)));
        if (M == Never)
          continue;
        uint64_t Period = std::max(1u, D.IssuePeriod);
        uint64_t Slot = M + (S + Period - M % Period) % Period;
        Best = std::min(Best, Slot);
      }
      if (Best == Never) {
        // Every resident wave waits at a barrier that cannot be released:
        // impossible unless the functional model disagrees; stop.
        Ok = false;
        C.Sh->Abort.store(true);
        return CuEnd;
      }
      uint64_t T = Best;
      unsigned S = unsigned(T % std::max(1u, D.IssuePeriod)) % Simds;
      bool Used[8] = {};
      SmallVector<TWave *, 16> Order(Cu.S[S].Waves.begin(),
                                     Cu.S[S].Waves.end()); // by age
      SmallVector<TWG *, 4> Finished;
      for (TWave *W : Order) {
        if (W->AtBarrier || W->Done)
          continue;
        if (std::max(W->Earliest, unitFree(Cu, *W)) > T)
          continue;
        Group Gr = W->Next ? groupOf(cls(*W->Next).U) : GSalu;
        if (Gr != GInternal && Used[Gr])
          continue;
        bool WGDone = false;
        if (!issue(C, Cu, *W, T, CuEnd, WGDone)) {
          Ok = false;
          return CuEnd;
        }
        if (Gr != GInternal)
          Used[Gr] = true;
        if (WGDone)
          Finished.push_back(W->G);
      }
      for (TWG *G : Finished) {
        --Cu.WGs;
        Cu.LdsUsed -= Occ.LdsAllocated;
        auto It = std::find_if(Active.begin(), Active.end(),
                               [&](auto &X) { return X.get() == G; });
        Free.push_back(std::move(*It));
        Active.erase(It);
      }
      if (!Finished.empty())
        launch(T + D.IssuePeriod);
      if (C.Sh->Abort.load(std::memory_order_relaxed)) {
        Ok = false;
        return CuEnd;
      }
    }
    return CuEnd;
  }

  void run(Ctx &C, const SetupFn &Setup) {
    // Lines the functional workers touched count as present in L2.
    for (auto &S : Sinks) {
      if (!S)
        continue;
      Lines.insert(S->Lines.begin(), S->Lines.end());
      S.reset();
    }
    Sink.V.reserve(256);
    C.Sink = &Sink;
    unsigned CUs = std::max(1u, D.CUs);
    for (unsigned Cu : ModelledCUs) {
      std::vector<uint64_t> WGs;
      for (uint64_t L = Cu; L < NumWG; L += CUs)
        WGs.push_back(L);
      bool Ok = true;
      uint64_t Cycles = simulateCU(C, WGs, Setup, Ok);
      if (!Ok) {
        Failed = true;
        break;
      }
      CuCycles.push_back(Cycles);
    }
    C.Sink = nullptr;
  }

  void finish(RunResult &RR) {
    TimingResult &R = Req.Result;
    R = TimingResult();
    R.Device = D;
    R.Kind = "modelled";
    R.Occ = Occ;
    R.ActiveCUs = ActiveCUs;
    R.ModelledCUs = unsigned(ModelledCUs.size());
    R.Workgroups = NumWG;
    R.ModelledWorkgroups = ModelledWGs;
    R.CuCycles = CuCycles;
    if (!RR.ok() || Failed || CuCycles.size() != ModelledCUs.size()) {
      R.Valid = false;
      return;
    }
    for (auto &S : Sinks)
      if (S)
        Lines.insert(S->Lines.begin(), S->Lines.end());
    R.UniqueBytes = uint64_t(Lines.size()) * D.LineBytes;
    R.CuBoundCycles = *std::max_element(CuCycles.begin(), CuCycles.end());
    R.HbmBoundCycles =
        uint64_t(std::ceil(double(R.UniqueBytes) / D.hbmBytesPerCycle()));
    R.Cycles = std::max(R.CuBoundCycles, R.HbmBoundCycles);
    R.Bound = R.Cycles == R.CuBoundCycles ? "cu" : "hbm";
    R.Seconds = D.cyclesToSeconds(double(R.Cycles));
    {
      std::lock_guard<std::mutex> L(P.M);
      for (size_t J = 0; J < Cost.size() && J < P.ByIndex.size(); ++J) {
        const Inst *I = P.ByIndex[J];
        if (!I || (!Cost[J].SampledExecuted && !Cost[J].total()))
          continue;
        uint64_t Off = I->PC - P.LoadBase;
        R.PerPC[Off] = Cost[J];
        R.Size[Off] = I->Size;
      }
    }
    for (auto &[Off, N] : RR.Profile) {
      R.PerPC[Off].Executed = N;
      auto T = RR.ProfileText.find(Off);
      if (T != RR.ProfileText.end())
        R.Text[Off] = T->second;
    }
    {
      std::lock_guard<std::mutex> L(P.M);
      for (const Inst *I : P.ByIndex)
        if (I && !R.Size.count(I->PC - P.LoadBase) &&
            R.PerPC.count(I->PC - P.LoadBase))
          R.Size[I->PC - P.LoadBase] = I->Size;
    }
    R.Valid = true;
  }
};

TimedDispatch::TimedDispatch(TimingRequest &Req, Program &P,
                             const KernelInfo &K, uint64_t NumWG,
                             unsigned WavesPerWG, unsigned WGItems,
                             uint32_t LdsBytes, unsigned UnifiedVgprs)
    : I(std::make_unique<Impl>(Req, P, K, NumWG, WavesPerWG, WGItems, LdsBytes,
                               UnifiedVgprs)) {}

TimedDispatch::~TimedDispatch() = default;

bool TimedDispatch::modelled(uint64_t L) const {
  return I->IsModelledCU[L % I->IsModelledCU.size()];
}

AccessSink *TimedDispatch::functionalSink(unsigned T, unsigned Threads) {
  // Called by each worker thread for itself: the vector is sized once by
  // the first caller under the program mutex.
  {
    std::lock_guard<std::mutex> L(I->P.M);
    if (I->Sinks.size() < Threads)
      I->Sinks.resize(Threads);
    if (!I->Sinks[T]) {
      I->Sinks[T] = std::make_unique<LineSink>();
      I->Sinks[T]->LineBytes = std::max(1u, I->D.LineBytes);
    }
    return I->Sinks[T].get();
  }
}

void TimedDispatch::run(Ctx &C, const SetupFn &Setup) { I->run(C, Setup); }

void TimedDispatch::finish(RunResult &RR) { I->finish(RR); }

} // namespace emu
} // namespace asmevo
