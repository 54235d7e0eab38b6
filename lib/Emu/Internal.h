//===- Internal.h - Emulator internals shared by lib/Emu ---------*- C++ -*-===//
//
// The pre-decoded instruction (Inst), the wave state (Wave), the workgroup
// (Workgroup), the per-thread execution context (Ctx) and the opcode table.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_LIB_EMU_INTERNAL_H
#define ASMEVO_LIB_EMU_INTERNAL_H

#include "asmevo/Emu/Emulator.h"
#include "asmevo/MC/TargetInfo.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <atomic>
#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace asmevo {
class CodeObject;
namespace emu {

struct Wave;
struct Inst;
using Handler = void (*)(Wave &, const Inst &);

// Indices into Wave::S (hardware SGPR-file encoding).
enum : unsigned {
  SFlatScrLo = 102,
  SXnackLo = 104,
  SVccLo = 106,
  SVccHi = 107,
  STtmp0 = 108,
  SM0 = 124,
  SExecLo = 126,
  SExecHi = 127,
};

/// A data operand of a pre-decoded instruction.
enum class OK : uint8_t {
  None,
  S,     // SGPR file (index Reg, Count 32-bit registers)
  V,     // VGPR
  A,     // AGPR
  Imm,   // constant (Imm)
  Scc,   // src_scc
  Execz, // src_execz
  Vccz,  // src_vccz
  Bad,   // register the emulator does not model (Imm = MCRegister)
};
struct Opnd {
  OK Kind = OK::None;
  uint8_t Count = 0;
  uint16_t Reg = 0;
  uint64_t Imm = 0;
  bool isVReg() const { return Kind == OK::V || Kind == OK::A; }
};

/// A register range for the scoreboard: File 0 = SGPR file, 1 = VGPR, 2 = AGPR.
struct RegRef {
  uint8_t File = 0;
  uint16_t First = 0;
  uint16_t Count = 0;
};

enum class Enc : uint8_t { Other, E32, VOP3, VOP3P, SDWA, DPP };

struct OpInfo;

struct Inst {
  Handler Fn = nullptr;
  uint64_t PC = 0; // loaded virtual address
  uint8_t Size = 0;
  Enc E = Enc::Other;
  uint8_t NDst = 0, NSrc = 0;
  Opnd Dst[2];
  Opnd Src[5];
  // VOP3/VOP3P/SDWA/DPP modifiers (from the encoding bits).
  uint8_t Neg = 0, Abs = 0, NegHi = 0; // bit i: source i
  uint8_t OpSel = 0;                   // bits 0-2 sources, bit 3 dst
  uint8_t OpSelHi = 0;                 // VOP3P, bits 0-2
  bool Clamp = false;
  uint8_t Omod = 0;
  // SDWA
  uint8_t DstSel = 6, DstUnused = 0, SrcSel[2] = {6, 6};
  bool SrcSext[2] = {false, false};
  // DPP
  uint16_t DppCtrl = 0;
  uint8_t RowMask = 0xf, BankMask = 0xf;
  bool BoundCtrl = false;
  // MAI
  uint8_t Cbsz = 0, Abid = 0, Blgp = 0;
  // FLAT: the ADDR field (VGPR number of vaddr) of the encoding.
  uint16_t AddrReg = 0;
  // Format-specific control values (offsets, simm16, flags...).
  int64_t Off = 0;
  uint32_t C0 = 0, C1 = 0, C2 = 0;
  uint32_t Aux = 0; // from the opcode table
  bool Simple = true; // no DPP/SDWA/modifiers/gpr-idx: fast path
  bool IsMem = false; // memory instruction (scoreboard issue)
  bool IsValu = false;
  bool IsAtomic = false;   // atomic memory op (interleaved scheduling)
  uint8_t MemCounters = 0; // 1 = VM, 2 = LGKM in order, 4 = LGKM out of order
  Fidelity Fid = Fidelity::Exact;
  // A D16 load whose unused half the hardware does not specify: the code
  // object may run with SRAM ECC on (see Ctx::D16Zero).
  bool D16Unspecified = false;
  const OpInfo *Info = nullptr;
  const DecodedInst *D = nullptr;
  uint32_t Index = 0; // dense index (profile)
  uint16_t MaxV = 0, MaxA = 0; // highest VGPR/AGPR index used + 1
  llvm::SmallVector<RegRef, 4> Uses, Defs;
  std::string Error; // predecode problem: executing this instruction fails
};

struct OpInfo {
  Handler Fn = nullptr;
  Fidelity Fid = Fidelity::Exact;
  uint32_t Aux = 0;
};

/// The opcode table: base mnemonic (no _e32/_e64/_sdwa/_dpp) -> handler.
struct OpTable {
  llvm::StringMap<OpInfo> Map;
  void add(llvm::StringRef Name, Handler Fn, Fidelity F = Fidelity::Exact,
           uint32_t Aux = 0) {
    Map[Name] = OpInfo{Fn, F, Aux};
  }
  const OpInfo *find(llvm::StringRef Name) const {
    auto It = Map.find(Name);
    return It == Map.end() ? nullptr : &It->second;
  }
};
const OpTable &opTable();
void registerSalu(OpTable &T);
void registerValu(OpTable &T);
void registerMem(OpTable &T);
void registerMfma(OpTable &T);
/// A D16 load (FLAT/GLOBAL/SCRATCH, MUBUF or DS) that writes one half of its
/// destination VGPR.
bool isD16Load(const OpInfo &Info);
llvm::StringRef baseMnemonic(llvm::StringRef M);

class Program;

/// Pending memory results of one wave (the wait-counter scoreboard).
struct Scoreboard {
  struct Op {
    uint64_t PC = 0;
    uint32_t Gen = 0;
    uint8_t Remaining = 0; // queues it is still in
    bool Live = false;
    int32_t StoreGroup = -1; // global stores of this op (StoreShadow)
    llvm::SmallVector<RegRef, 2> Regs;
  };
  struct QEntry {
    uint32_t Id;
    bool OutOfOrder;
  };
  std::vector<Op> Ops;
  std::vector<uint32_t> Free;
  uint32_t LastId = ~0u; // op created by the last issue() (~0: none)
  /// FIFO of counter entries: a vector with a head index (a std::deque
  /// allocated a node every 64 pushes and a new deque per lgkmcnt wait).
  struct Queue {
    std::vector<QEntry> E;
    size_t Head = 0;
    size_t size() const { return E.size() - Head; }
    bool empty() const { return Head == E.size(); }
    void push_back(uint32_t Id, bool OutOfOrder) {
      if (Head && Head == E.size()) {
        E.clear();
        Head = 0;
      } else if (Head >= 64 && 2 * Head >= E.size()) { // drop the popped ones
        E.erase(E.begin(), E.begin() + Head);
        Head = 0;
      }
      // Fields written in place: a QEntry built on the stack and copied
      // stalled on store forwarding (two narrow stores, one wide load).
      QEntry &Q = E.emplace_back();
      Q.Id = Id;
      Q.OutOfOrder = OutOfOrder;
    }
    QEntry &front() { return E[Head]; }
    void pop_front() { ++Head; }
    QEntry *begin() { return E.data() + Head; }
    QEntry *end() { return E.data() + E.size(); }
  };
  Queue VM, LGKM;
  uint32_t Live = 0;
  uint8_t PendS[128] = {};
  std::vector<uint8_t> PendV, PendA;
  // Kind of the newest pending write per register, for WAW rules: 1 VM, 2 LGKM
  // in order, 4 out of order.
  uint8_t KindS[128] = {};
  std::vector<uint8_t> KindV, KindA;
  std::vector<uint64_t> FromPC; // not used per register; see Ops
  // Store groups whose op retired since the wave last looked (StoreRace.cpp).
  std::vector<int32_t> RetiredGroups;

  uint8_t *pend(uint8_t File) {
    return File == 0 ? PendS : File == 1 ? PendV.data() : PendA.data();
  }
  uint8_t *kind(uint8_t File) {
    return File == 0 ? KindS : File == 1 ? KindV.data() : KindA.data();
  }
  void issue(uint64_t PC, uint8_t Counters, bool LgkmOOO,
             llvm::ArrayRef<RegRef> Regs);
  void retire(uint32_t Id);
  void waitVM(unsigned N);
  void waitLGKM(unsigned N);
};

struct Workgroup;
struct Ctx;
struct GlobalShadow;
struct RegionShadow;

struct Wave {
  uint32_t S[128];
  bool SCC = false;
  uint32_t *V = nullptr; // NumV * 64, register-major
  uint32_t *A = nullptr; // NumA * 64
  unsigned NumV = 0, NumA = 0;
  std::vector<uint32_t> VStore;
  uint64_t PC = 0;
  uint32_t Mode = 0;  // MODE hardware register
  bool Ieee = true;
  bool Dx10Clamp = true;
  // s_set_gpr_idx_on state.
  bool GprIdxOn = false;
  uint8_t GprIdxMode = 0; // bit0 SRC0, bit1 SRC1, bit2 SRC2, bit3 DST
  // Status.
  enum Status : uint8_t { Running, Barrier, Done, Failed } St = Running;
  bool Stop = false;
  unsigned Id = 0; // wave index in the workgroup
  uint64_t Executed = 0;
  Workgroup *WG = nullptr;
  Ctx *C = nullptr;
  Scoreboard SB;
  // Private memory: PrivPerLane bytes per lane, lane-major.
  std::vector<uint8_t> Priv;
  uint32_t PrivPerLane = 0;
  uint32_t TrapSts = 0;
  // LDS written by LDS-DMA loads whose vmcnt has not been waited for:
  // [Lo, Hi) byte ranges and the scoreboard op (Id, Gen) that retires them.
  struct DmaRange {
    uint32_t Lo, Hi, Id, Gen;
  };
  std::vector<DmaRange> Dma;
  // LDS bytes accessed by this wave's DS (or flat-to-LDS) ops whose lgkmcnt
  // has not been waited for. LDS ops of different waves can be reordered
  // (several LDS request queues per CU: AMDGPUUsage, memory model GFX90A/
  // GFX942), so s_barrier orders them only after s_waitcnt lgkmcnt: an
  // access by another wave that conflicts with one of these is a race, even
  // across a barrier. Id ~0u: the op being executed (attached at issue).
  // CrossEpoch: the epoch opened by an s_barrier this op was in flight at.
  // The wave's s_waitcnt after that barrier orders the op only for itself,
  // so for the other waves it stays pending until the next barrier, however
  // early the emulator's wave order reaches that wait.
  struct PendingLds {
    uint32_t Lo, Hi, Id, Gen;
    bool Write, Atomic;
    uint32_t CrossEpoch = 0;
    uint64_t PC = 0; // of the op (its scoreboard slot may be reused)
  };
  // Reads and writes (atomics included) apart: a read conflicts only with
  // writes, so it need not scan the other waves' pending reads.
  std::vector<PendingLds> PendLdsRead, PendLdsWrite;

  // Global memory accesses of the executing instruction, recorded when the
  // workgroup has several waves (StoreRace.cpp).
  struct GlobalAcc {
    uint64_t Addr;
    uint32_t Len;
    uint8_t Lane; // 64: scalar, 65: scalar with glc (scalar cache bypassed)
    bool Write, Atomic;
    // Non-zero: the accesses of all active lanes from Lane on, Stride bytes
    // each, back to back in lane order (one entry for a contiguous wave).
    uint8_t Stride = 0;
  };
  std::vector<GlobalAcc> GAcc;
  // Host prefetch of strided whole-wave global accesses: per instruction
  // (a few slots by PC), the last address. A wave's loop steps such an
  // access by a fixed stride (a grid-stride loop by the grid's size, far
  // beyond the host's own prefetchers), so the next iteration's guest
  // bytes (Mem.cpp) and race-shadow tags (GlobalRace.cpp) are fetched
  // while this one runs. Performance only.
  struct StrideSlot {
    uint64_t PC = 0, Last = 0;
    // The address one stride on, or 0; records Addr.
    uint64_t next(uint64_t Key, uint64_t Addr) {
      uint64_t N = PC == Key && Addr != Last ? 2 * Addr - Last : 0;
      PC = Key;
      Last = Addr;
      return N;
    }
  };
  static constexpr unsigned StrideSlots = 8;
  StrideSlot DataStride[StrideSlots], TagStride[StrideSlots];
  uint32_t L1InvEpoch = 0; // barrier epoch of the last vector L1 invalidate
  // Record GAcc: several waves in the workgroup (StoreRace.cpp) or the
  // dispatch-wide race shadow is on (GlobalRace.cpp).
  bool TrackGlobal = false;
  // Bytes written by this wave's scalar stores/atomics that may still sit
  // in the scalar cache ([Lo, Hi)); the first SWbIssued ranges are covered
  // by an issued s_dcache_wb (written back at its s_waitcnt lgkmcnt(0) or
  // at s_endpgm). GlobalRace.cpp.
  std::vector<std::pair<uint64_t, uint64_t>> SDirty;
  unsigned SWbIssued = 0;

  uint64_t exec() const { return uint64_t(S[SExecLo]) | uint64_t(S[SExecHi]) << 32; }
  void setExec(uint64_t E) {
    S[SExecLo] = uint32_t(E);
    S[SExecHi] = uint32_t(E >> 32);
  }
  uint64_t vcc() const { return uint64_t(S[SVccLo]) | uint64_t(S[SVccHi]) << 32; }
  void setVcc(uint64_t E) {
    S[SVccLo] = uint32_t(E);
    S[SVccHi] = uint32_t(E >> 32);
  }
  uint32_t *vreg(unsigned R) { return V + size_t(R) * 64; }
  uint32_t *areg(unsigned R) { return A + size_t(R) * 64; }
  /// The 64 lanes of register J of a VGPR or AGPR operand; null for any
  /// other operand kind.
  uint32_t *lanes(const Opnd &O, unsigned J = 0) {
    return O.Kind == OK::V   ? vreg(O.Reg + J)
           : O.Kind == OK::A ? areg(O.Reg + J)
                             : nullptr;
  }

  // Error reporting: sets St = Failed and records the first error.
  void fail(ErrorKind K, const Inst &I, const std::string &Msg);
  void fail(ErrorKind K, const std::string &Msg);
};

/// Global stores of a workgroup's waves that another wave may not read yet:
/// a store is ordered before another wave's access only when its writer
/// waited for it (vmcnt) before an s_barrier that the reader passed. A group
/// is one store instruction; Retire is the barrier epoch in which its op was
/// waited for (~0u: still pending). Ranges are byte intervals by start.
struct StoreShadow {
  struct Group {
    uint64_t PC;
    uint32_t Retire;
    uint16_t Wave;
  };
  struct Range {
    uint64_t Hi;
    uint32_t Group;
  };
  std::vector<Group> Groups;
  std::multimap<uint64_t, Range> Ranges;
  uint64_t MaxLen = 0;
  uint32_t GcEpoch = 0;
  void clear() {
    Groups.clear();
    Ranges.clear();
    MaxLen = 0;
    GcEpoch = 0;
  }
};

/// LDS and barrier state of a workgroup.
struct Workgroup {
  std::vector<uint8_t> Lds;
  std::vector<uint32_t> LdsWriter, LdsReader; // race shadows, per byte
  uint32_t Epoch = 1;
  std::array<uint32_t, 3> Id{0, 0, 0};
  uint64_t Linear = 0; // linear workgroup id (GlobalRace.cpp, interleaving)
  std::vector<Wave *> Waves;
  StoreShadow Stores;
  // COMPUTE_PGM_RSRC3.TG_SPLIT: the waves may run on different CUs, so a
  // global store is ordered before another wave's read only by s_waitcnt
  // vmcnt before the s_barrier and an L1 invalidate after it.
  bool TgSplit = false;
};

/// Global dispatch state shared by all threads.
struct Shared {
  Memory *Mem = nullptr;
  Program *Prog = nullptr;
  const RunOptions *Opts = nullptr;
  std::atomic<bool> Abort{false};
  std::mutex ErrMutex;
  ErrorKind ErrKind = ErrorKind::None;
  std::string ErrMsg;
  std::atomic<uint64_t> ErrOrder{~0ull}; // workgroup linear id of the error
  /// True when workgroup L need not run on: an earlier one failed.
  bool stopped(uint64_t L) const {
    return Abort.load(std::memory_order_relaxed) &&
           L > ErrOrder.load(std::memory_order_relaxed);
  }
  std::mutex TraceMutex;
  static constexpr unsigned NumLocks = 256;
  std::mutex AtomicLocks[NumLocks];
  std::mutex &lockFor(uint64_t Addr) { return AtomicLocks[(Addr >> 3) % NumLocks]; }
  bool IsGfx942 = true;
  // Dispatch-wide race shadow of global memory (GlobalRace.cpp); null: off.
  GlobalShadow *GShadow = nullptr;
};

/// Cost model hook (Timing.cpp): sees every memory access of the executing
/// instruction (Space 0 global, 1 LDS, 2 private; LDS and private addresses
/// are offsets).
struct AccessSink {
  virtual ~AccessSink() = default;
  virtual void access(uint8_t Space, uint64_t Addr, uint32_t Len,
                      unsigned Lane) = 0;
};

/// Per host thread state.
struct Ctx {
  AccessSink *Sink = nullptr; // timing mode only (null: no cost)
  Shared *Sh = nullptr;
  uint64_t WgLinear = 0;
  uint64_t Executed = 0;
  std::vector<uint64_t> Profile;     // by Inst::Index
  std::vector<uint64_t> ApproxCount; // by Inst::Index
  // Region cache: a few entries, since a kernel streams several arrays at
  // once (a one-entry cache missed on every access of vadd-like kernels).
  static constexpr unsigned RegionWays = 4;
  Region *LastRegion[RegionWays] = {};
  unsigned RegionNext = 0;
  // Cache of the race shadow (GlobalRace.cpp): a few entries, since a
  // kernel streams several arrays at once and each miss takes a lock.
  static constexpr unsigned ShadowWays = 4;
  const Region *ShadowRegion[ShadowWays] = {};
  RegionShadow *Shadow[ShadowWays] = {};
  unsigned ShadowNext = 0;
  // Verification hook: per-lane masks of the approximate op being executed.
  bool ApproxPending = false;
  uint32_t ApproxMask[64] = {};
  // Set while a D16 load with Inst::D16Unspecified runs: the unused half of
  // its destination is zeroed (the plain rule) instead of kept.
  bool D16Zero = false;
  uint64_t D16Loads = 0; // executed with Inst::D16Unspecified
  // Instructions that wrote results the hardware does not specify for
  // their operands (Memory::Observer::unspecifiedSeed).
  uint64_t UnspecifiedResults = 0;
  Region *findRegion(uint64_t Addr, uint64_t Len, bool Write = false,
                     unsigned Wave = ~0u, unsigned Lane = 64) {
    if (Sh->Mem->Obs) { // verification hook (VerifyHooks.cpp)
      Sh->Mem->Obs->accessor(WgLinear, Wave, Lane);
      return Sh->Mem->Obs->access(*Sh->Mem, Addr, Len, Write);
    }
    for (Region *R : LastRegion)
      if (R && R->contains(Addr, Len))
        return R;
    Region *R = Sh->Mem->find(Addr, Len);
    if (R)
      LastRegion[RegionNext++ % RegionWays] = R;
    return R;
  }
};

/// Decoded code of a code object: one Inst per instruction start, created on
/// first execution.
class Program {
public:
  TargetInfo *TI = nullptr;
  const CodeObject *CO = nullptr;
  bool IsGfx942 = false;
  // The code object does not say "-sramecc": it may run with SRAM ECC on,
  // where LLVM does not rely on D16 loads keeping the unused half
  // (GCNSubtarget::d16PreservesUnusedBits: !TargetID.isSramEccOnOrAny()).
  bool D16UnusedUnspecified = false;
  uint64_t LoadBase = 0;
  struct CodeRange {
    uint64_t Begin = 0, End = 0; // loaded vaddrs
    llvm::ArrayRef<uint8_t> Bytes;
    std::unique_ptr<std::atomic<Inst *>[]> Slots; // per 4 bytes
  };
  std::vector<CodeRange> Ranges;
  std::mutex M;
  std::deque<Inst> Insts;
  std::vector<std::unique_ptr<Inst>> Scratch;
  std::atomic<uint32_t> NextIndex{0};
  std::vector<const Inst *> ByIndex; // under M
  std::map<std::string, Fidelity> ApproxNames;

  /// The instruction at PC (loaded vaddr); null with Err set when there is no
  /// valid instruction there.
  const Inst *at(uint64_t PC, std::string &Err) {
    for (CodeRange &R : Ranges) {
      if (PC < R.Begin || PC >= R.End)
        continue;
      if ((PC - R.Begin) & 3) {
        Err = "misaligned PC";
        return nullptr;
      }
      std::atomic<Inst *> &Slot = R.Slots[(PC - R.Begin) >> 2];
      Inst *I = Slot.load(std::memory_order_acquire);
      if (I)
        return I;
      return decodeAt(R, PC, Err);
    }
    Err = "PC outside the code object's executable sections";
    return nullptr;
  }
  const Inst *decodeAt(CodeRange &R, uint64_t PC, std::string &Err);
  void predecode(Inst &I, llvm::ArrayRef<uint8_t> Bytes);
  std::string text(const Inst &I) const;
};

/// Calls Fn(L) for each lane L set in Mask, in ascending order. A full mask
/// is a plain counted loop (unrolled or vectorized by the compiler); a
/// partial one visits the set bits only, so divergent masks cost no branch
/// mispredictions per lane.
template <class F> inline void forEachLane(uint64_t Mask, F &&Fn) {
  if (Mask == ~0ull) {
    for (unsigned L = 0; L < 64; ++L)
      Fn(L);
    return;
  }
  for (; Mask; Mask &= Mask - 1)
    Fn(unsigned(__builtin_ctzll(Mask)));
}

// Operand helpers (Exec.cpp).
uint32_t readS32(Wave &W, const Opnd &O);
uint64_t readS64(Wave &W, const Opnd &O);
void writeS32(Wave &W, const Opnd &O, uint32_t V);
void writeS64(Wave &W, const Opnd &O, uint64_t V);

// Float helpers.
inline float asF(uint32_t X) {
  float F;
  std::memcpy(&F, &X, 4);
  return F;
}
inline uint32_t asU(float F) {
  uint32_t X;
  std::memcpy(&X, &F, 4);
  return X;
}
inline double asD(uint64_t X) {
  double F;
  std::memcpy(&F, &X, 8);
  return F;
}
inline uint64_t asU64(double F) {
  uint64_t X;
  std::memcpy(&X, &F, 8);
  return X;
}

// gfx942's 8-bit floats are the FNUZ variants (no infinities, no negative
// zero: 0x80 is the NaN); exact decodes to f32 for the conversions and MFMA.
inline float fp8e4m3fnuzToF32(uint8_t V) {
  if (V == 0x80)
    return NAN;
  int S = V >> 7, E = (V >> 3) & 15, M = V & 7;
  float R = E ? std::ldexp(1.0f + M / 8.0f, E - 8) : std::ldexp(M / 8.0f, -7);
  return S ? -R : R;
}
inline float bf8e5m2fnuzToF32(uint8_t V) {
  if (V == 0x80)
    return NAN;
  int S = V >> 7, E = (V >> 2) & 31, M = V & 3;
  float R = E ? std::ldexp(1.0f + M / 4.0f, E - 16) : std::ldexp(M / 4.0f, -15);
  return S ? -R : R;
}

// Folds V into the hash H: the verification hooks' keys of approximate
// operations and poison, and Mfma.cpp's unspecified SMFMAC elements.
inline uint64_t mixHash(uint64_t H, uint64_t V) {
  H ^= V + 0x9e3779b97f4a7c15ull + (H << 6) + (H >> 2);
  H *= 0xbf58476d1ce4e5b9ull;
  return H ^ (H >> 31);
}

// Verification hooks (VerifyHooks.cpp): Memory::Observer::approx around an
// approximate opcode.
void approxHookBefore(Wave &W, const Inst &I);
void approxHookAfter(Wave &W, const Inst &I);
// Memory::Observer::poisonSeed: undefined initial state (registers beyond
// the NumInitSgprs ABI SGPRs and v0 of active lanes, LDS, private memory).
void poisonInitialState(Wave &W, unsigned NumInitSgprs);

// Attaches the LDS ranges recorded by the op just issued to its scoreboard
// entry and drops the ranges of retired ops (Mem.cpp).
void attachPendingLds(Wave &W);
/// Opens the next barrier epoch of WG and resumes the waves waiting at the
/// s_barrier; their LDS ops still in flight stay pending for the other waves
/// during the new epoch (Wave::PendingLds::CrossEpoch).
void releaseBarrier(Workgroup &WG);
/// The part of releaseBarrier for one wave resumed in the new epoch (the
/// timing model releases its barriers itself).
void crossPendingLds(Wave &W);

// Cross-wave ordering of global stores (StoreRace.cpp): checks the reads of
// W.GAcc against other waves' unordered stores, records its stores, and
// notes the store groups whose ops the last s_waitcnt retired. Called after
// every instruction that left W.GAcc or W.SB.RetiredGroups non-empty.
void trackGlobalAccesses(Wave &W, const Inst &I);

// Dispatch-wide races on global memory (GlobalRace.cpp): checks W.GAcc
// against the accesses of other workgroups and of other waves of its
// workgroup in the same barrier interval, and the scalar cache's
// incoherence; records the accesses.
std::shared_ptr<GlobalShadow> makeGlobalShadow(std::array<uint32_t, 3> Grid);
// False when the dispatch's workgroups all run on one host thread: the
// shadow's tags then need no cross-thread ordering (GlobalRace.cpp).
void setGlobalShadowConcurrent(GlobalShadow &S, bool Concurrent);
void checkGlobalShadow(Wave &W, const Inst &I);
// s_dcache_wb covered ranges written back (s_waitcnt lgkmcnt(0)); at
// s_endpgm, a scalar store never written back fails the wave.
void scalarWriteBack(Wave &W);
bool scalarEndCheck(Wave &W, const Inst &I);
// The lane of access A that touches Addr (A.Lane for per-lane entries).
unsigned laneOfAccess(const Wave &W, const Wave::GlobalAcc &A, uint64_t Addr);
// Applies the atomic operation Op (Mem.cpp's codes, atomicOpCode) to N = 4 or
// 8 bytes at Mem; returns the old value.
uint64_t atomicRmw(uint8_t *Mem, unsigned N, unsigned Op, uint64_t Data,
                   uint64_t Cmp);
// The code of an atomic operation by its mnemonic suffix ("add", "cmpswap",
// "dec", ...); 0 when unknown.
unsigned atomicOpCode(llvm::StringRef Name);

// Memory access helpers (Mem.cpp). Return false after failing the wave.
bool globalAccess(Wave &W, const Inst &I, unsigned Lane, uint64_t Addr,
                  unsigned Len, bool Write, void *Data);

} // namespace emu
} // namespace asmevo

#endif
