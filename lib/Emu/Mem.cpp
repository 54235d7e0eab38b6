//===- Mem.cpp - DS, FLAT/GLOBAL/SCRATCH and MUBUF instructions ----------===//
//
// Every lane's access is checked: global accesses against the mapped
// regions and their permissions, LDS against the workgroup's allocation,
// private memory against the per-lane size. LDS accesses of different waves
// between two barriers that conflict are reported as races. Atomics on
// global memory take a lock striped by address, so workgroups running on
// different host threads see them atomically.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace asmevo {
namespace emu {

namespace {

enum MK : uint32_t { Load = 0, Store = 1, Atomic = 2 };
enum AOp : uint32_t {
  ASwap = 1, ACmpSwap, AAdd, ASub, ARsub, ASMin, AUMin, ASMax, AUMax, AAnd,
  AOr, AXor, AInc, ADec, AAddF32, AAddF64, AMinF64, AMaxF64, AMinF32, AMaxF32,
  AMskOr, APkAddF16
};
constexpr uint32_t aux(unsigned Size, MK Kind, bool Sext = false,
                       unsigned D16 = 0, unsigned Op = 0, bool Rtn = false,
                       unsigned Two = 0) {
  return Size | Kind << 8 | (Sext ? 1u << 10 : 0) | D16 << 11 | Op << 16 |
         (Rtn ? 1u << 24 : 0) | Two << 25;
}
inline unsigned auxSize(uint32_t A) { return A & 0xff; }
inline MK auxKind(uint32_t A) { return MK((A >> 8) & 3); }
inline bool auxSext(uint32_t A) { return (A >> 10) & 1; }
inline unsigned auxD16(uint32_t A) { return (A >> 11) & 3; }
inline unsigned auxOp(uint32_t A) { return (A >> 16) & 0xff; }
inline bool auxRtn(uint32_t A) { return (A >> 24) & 1; }
inline unsigned auxTwo(uint32_t A) { return (A >> 25) & 3; } // 1 x2, 2 st64

// Gathers the bytes of a lane's data operand (N bytes from consecutive
// registers).
void gatherData(Wave &W, const Opnd &O, unsigned L, unsigned N, uint8_t *Out) {
  uint32_t *P = W.lanes(O);
  for (unsigned K = 0; K < (N + 3) / 4; ++K) {
    uint32_t V = P ? P[K * 64 + L] : readS32(W, O);
    std::memcpy(Out + K * 4, &V, std::min(4u, N - K * 4));
  }
}

// Writes loaded bytes into a lane's destination registers.
void scatterResult(Wave &W, const Opnd &D, unsigned L, const uint8_t *B,
                   unsigned N, uint32_t Aux) {
  uint32_t *P = W.lanes(D);
  if (!P)
    return;
  if (N >= 4) {
    for (unsigned K = 0; K < N / 4; ++K)
      std::memcpy(&P[K * 64 + L], B + K * 4, 4);
    return;
  }
  uint32_t V = 0;
  std::memcpy(&V, B, N);
  if (auxSext(Aux))
    V = N == 1 ? uint32_t(int32_t(int8_t(V))) : uint32_t(int32_t(int16_t(V)));
  unsigned D16 = auxD16(Aux);
  // Without SRAM ECC the other half is kept (LLVM relies on it); with it on
  // or any, it is zeroed unless the observer asks to keep it (Ctx::D16Zero;
  // a verifier runs both rules).
  uint32_t Keep = W.C->D16Zero ? 0 : P[L];
  if (D16 == 1)
    P[L] = (Keep & 0xffff0000u) | (V & 0xffff);
  else if (D16 == 2)
    P[L] = (Keep & 0xffff) | (V << 16);
  else
    P[L] = V;
}

// Applies an atomic operation to Mem (N = 4 or 8 bytes); returns old value.
uint64_t atomicApply(uint8_t *Mem, unsigned N, unsigned Op, uint64_t Data,
                     uint64_t Cmp) {
  uint64_t Old = 0;
  std::memcpy(&Old, Mem, N);
  uint64_t New = Old;
  bool W64 = N == 8;
  auto sx = [&](uint64_t V) {
    return W64 ? int64_t(V) : int64_t(int32_t(uint32_t(V)));
  };
  uint64_t Mask = W64 ? ~0ull : 0xffffffffull;
  switch (Op) {
  case ASwap: New = Data; break;
  case ACmpSwap: New = (Old & Mask) == (Cmp & Mask) ? Data : Old; break;
  case AAdd: New = Old + Data; break;
  case ASub: New = Old - Data; break;
  case ARsub: New = Data - Old; break;
  case ASMin: New = sx(Data) < sx(Old) ? Data : Old; break;
  case AUMin: New = (Data & Mask) < (Old & Mask) ? Data : Old; break;
  case ASMax: New = sx(Data) > sx(Old) ? Data : Old; break;
  case AUMax: New = (Data & Mask) > (Old & Mask) ? Data : Old; break;
  case AAnd: New = Old & Data; break;
  case AOr: New = Old | Data; break;
  case AXor: New = Old ^ Data; break;
  case AInc: New = (Old & Mask) >= (Data & Mask) ? 0 : Old + 1; break;
  case ADec:
    New = ((Old & Mask) == 0 || (Old & Mask) > (Data & Mask)) ? Data : Old - 1;
    break;
  case AAddF32: New = asU(asF(uint32_t(Old)) + asF(uint32_t(Data))); break;
  case AMinF32: New = asU(std::fmin(asF(uint32_t(Old)), asF(uint32_t(Data)))); break;
  case AMaxF32: New = asU(std::fmax(asF(uint32_t(Old)), asF(uint32_t(Data)))); break;
  case AAddF64: New = asU64(asD(Old) + asD(Data)); break;
  case AMinF64: New = asU64(std::fmin(asD(Old), asD(Data))); break;
  case AMaxF64: New = asU64(std::fmax(asD(Old), asD(Data))); break;
  case AMskOr: New = (Old & ~Data) | Cmp; break;
  default: break;
  }
  std::memcpy(Mem, &New, N);
  return Old;
}

//===----------------------------------------------------------------------===//
// LDS
//===----------------------------------------------------------------------===//

// Race check of a non-atomic LDS access by wave W (see Emulator.h).
// Same (writes only, may be null): the bytes about to be stored. A store of
// the bytes the LDS already holds does not race with other waves' stores of
// this epoch: in any order they leave the same bytes (rocSPARSE's segmented
// COO kernels have every wave store one shared slot with one value). The
// dword is then tagged as written by several waves, so any later store of
// other bytes, and any read by another wave, still races.
bool ldsRaceCheck(Wave &W, const Inst &I, uint32_t Off, unsigned Len,
                  bool Write, unsigned Lane, const uint8_t *Same) {
  Workgroup &WG = *W.WG;
  if (WG.Waves.size() <= 1)
    return true;
  uint32_t Me = W.Id + 1, Ep = WG.Epoch;
  bool Unchanged =
      Write && Same && std::memcmp(WG.Lds.data() + Off, Same, Len) == 0;
  // Per byte: waves storing different bytes of one dword (Tensile's int8
  // kernels write LDS a byte at a time) do not race.
  for (uint32_t D = Off; D < Off + Len; ++D) {
    uint32_t Wr = WG.LdsWriter[D], Rd = WG.LdsReader[D];
    bool WrNow = (Wr >> 8) == Ep && (Wr & 0xff) != Me;
    bool RdNow = (Rd >> 8) == Ep && (Rd & 0xff) != Me;
    if (Unchanged && WrNow && !RdNow) {
      WG.LdsWriter[D] = Ep << 8 | 0xff;
      continue;
    }
    if (WrNow || (Write && RdNow)) {
      unsigned Other = (WrNow ? Wr : Rd) & 0xff;
      W.fail(ErrorKind::Race, I,
             formatv("LDS race on byte offset {0} (lane {1}): {2} by this "
                     "wave and {3} by wave {4} with no s_barrier between",
                     D, Lane, Write ? "write" : "read",
                     WrNow ? "write" : "read",
                     Other == 0xff ? std::string("several")
                                   : std::to_string(Other - 1))
                 .str());
      return false;
    }
    if (Write)
      WG.LdsWriter[D] = Ep << 8 | Me;
    else if ((Rd >> 8) != Ep)
      WG.LdsReader[D] = Ep << 8 | Me;
    else if ((Rd & 0xff) != Me)
      WG.LdsReader[D] = Ep << 8 | 0xff;
  }
  return true;
}

bool opLive(const Wave &O, const Wave::PendingLds &R) {
  return R.Id != ~0u && R.Id < O.SB.Ops.size() && O.SB.Ops[R.Id].Live &&
         O.SB.Ops[R.Id].Gen == R.Gen;
}

// Pending for the other waves: not waited for yet, or waited for only after
// the s_barrier that opened the current epoch.
bool pendingLive(const Wave &O, const Wave::PendingLds &R) {
  return R.Id != ~0u && (opLive(O, R) || R.CrossEpoch == O.WG->Epoch);
}

// LDS ops of other waves still in flight (no s_waitcnt lgkmcnt since they
// issued): a conflicting access is a race even across an s_barrier, since
// the LDS may perform the two in either order. Atomics commute with
// atomics. Records this access as pending until the op's lgkmcnt is waited.
bool ldsPendingCheck(Wave &W, const Inst &I, uint32_t Off, unsigned Len,
                     bool Write, bool IsAtomic, unsigned Lane) {
  Workgroup &WG = *W.WG;
  uint32_t Hi = Off + Len;
  // A read conflicts only with writes: the other waves' pending reads are
  // scanned (and purged) only for a write.
  auto Conflicts = [&](Wave &O, std::vector<Wave::PendingLds> &V) {
    V.erase(std::remove_if(V.begin(), V.end(),
                           [&](const Wave::PendingLds &R) {
                             return R.Id != ~0u && !pendingLive(O, R);
                           }),
            V.end());
    for (const Wave::PendingLds &R : V) {
      if (R.Id == ~0u || Off >= R.Hi || Hi <= R.Lo || (!R.Write && !Write) ||
          (R.Atomic && IsAtomic))
        continue;
      W.fail(ErrorKind::Race, I,
             formatv("LDS race on byte offset {0} (lane {1}): {2} by this "
                     "wave while the {3} at pc {4:x} of wave {5} is still in "
                     "flight (no s_waitcnt lgkmcnt before the s_barrier)",
                     std::max(Off, R.Lo), Lane, Write ? "write" : "read",
                     R.Write ? "write" : "read", R.PC, O.Id)
                 .str());
      return true;
    }
    return false;
  };
  for (Wave *O : WG.Waves) {
    if (O == &W)
      continue;
    if (!O->PendLdsWrite.empty() && Conflicts(*O, O->PendLdsWrite))
      return false;
    if (Write && !O->PendLdsRead.empty() && Conflicts(*O, O->PendLdsRead))
      return false;
  }
  auto &V = Write ? W.PendLdsWrite : W.PendLdsRead;
  if (!V.empty() && V.back().Id == ~0u && V.back().Atomic == IsAtomic &&
      Off <= V.back().Hi && Hi >= V.back().Lo) {
    V.back().Lo = std::min(V.back().Lo, Off);
    V.back().Hi = std::max(V.back().Hi, Hi);
  } else {
    V.push_back({Off, Hi, ~0u, 0, Write, IsAtomic});
  }
  return true;
}

// How an LDS access is made, for its alignment rule.
enum class LdsVia : uint8_t { Ds, DsPair, Flat, Dma };

// The alignment an LDS access needs (docs/emulator.md, "LDS alignment").
// ROCm's KFD runs every gfx9 queue with SH_MEM_CONFIG.ALIGNMENT_MODE =
// UNALIGNED, and gfx9 has unaligned DS access (LLVM: FeatureUnalignedDSAccess,
// +unaligned-access-mode on amdhsa, which then emits ds_read/ds_write_b16 to
// b128 at any byte address), so a plain DS read or write needs none. No
// source says what the mode does to ds_read2/ds_write2 elements, atomics
// (LLVM will not emit a misaligned one), FLAT or LDS-DMA accesses: those
// keep the aligned rule and are refused when they break it.
unsigned ldsAlignment(const Wave &W, unsigned Len, bool IsAtomic, LdsVia Via) {
  if (IsAtomic)
    return Len;
  if (Via == LdsVia::Ds && !W.C->Sh->Opts->StrictLdsAlignment)
    return 1;
  return Len >= 4 ? 4 : Len;
}

uint8_t *ldsPtr(Wave &W, const Inst &I, uint64_t Off, unsigned Len, bool Write,
                bool IsAtomic, unsigned Lane, const uint8_t *Same = nullptr,
                LdsVia Via = LdsVia::Ds) {
  Workgroup &WG = *W.WG;
  if (Off + Len > WG.Lds.size()) {
    W.fail(ErrorKind::Fault, I,
           formatv("LDS access of {0} bytes at offset {1:x} (lane {2}) is "
                   "outside the workgroup's {3} bytes of LDS",
                   Len, Off, Lane, WG.Lds.size())
               .str());
    return nullptr;
  }
  if (unsigned Need = ldsAlignment(W, Len, IsAtomic, Via); Off % Need) {
    if (W.C->Sh->Opts->StrictLdsAlignment) {
      W.fail(ErrorKind::Fault, I,
             formatv("misaligned LDS access of {0} bytes at offset {1:x} "
                     "(lane {2}; strict LDS alignment)",
                     Len, Off, Lane)
                 .str());
      return nullptr;
    }
    static const char *const ViaName[] = {"DS", "ds_read2/ds_write2", "FLAT",
                                          "LDS-DMA"};
    W.fail(ErrorKind::Unsupported, I,
           formatv("misaligned LDS {0} of {1} bytes at offset {2:x} (lane "
                   "{3}): under ROCm's unaligned mode only plain DS reads "
                   "and writes are modelled at any address",
                   IsAtomic ? std::string("atomic")
                            : std::string(ViaName[unsigned(Via)]) + " access",
                   Len, Off, Lane)
               .str());
    return nullptr;
  }
  if (!IsAtomic && !ldsRaceCheck(W, I, uint32_t(Off), Len, Write, Lane, Same))
    return nullptr;
  // LDS written by an LDS-DMA load that no s_waitcnt vmcnt has covered yet.
  for (Wave *O : WG.Waves) {
    if (O->Dma.empty())
      continue;
    auto &V = O->Dma;
    V.erase(std::remove_if(V.begin(), V.end(),
                           [&](const Wave::DmaRange &R) {
                             return R.Id != ~0u &&
                                    (!O->SB.Ops[R.Id].Live ||
                                     O->SB.Ops[R.Id].Gen != R.Gen);
                           }),
            V.end());
    for (const Wave::DmaRange &R : V)
      if (R.Id != ~0u && Off < R.Hi && Off + Len > R.Lo) {
        W.fail(ErrorKind::Race, I,
               formatv("LDS bytes at offset {0} (lane {1}) are written by the "
                       "LDS-DMA load at pc {2:x} of wave {3}, not yet covered "
                       "by s_waitcnt vmcnt",
                       Off, Lane, O->SB.Ops[R.Id].PC, O->Id)
                   .str());
        return nullptr;
      }
  }
  if (WG.Waves.size() > 1 &&
      !ldsPendingCheck(W, I, uint32_t(Off), Len, Write, IsAtomic, Lane))
    return nullptr;
  if (W.C->Sink) // cost model (timing mode)
    W.C->Sink->access(1, Off, Len, Lane);
  return WG.Lds.data() + Off;
}

uint8_t *privPtr(Wave &W, const Inst &I, uint64_t Off, unsigned Len,
                 unsigned Lane) {
  if (Off + Len > W.PrivPerLane || Off > W.PrivPerLane) {
    W.fail(ErrorKind::Fault, I,
           formatv("private (scratch) access of {0} bytes at offset {1:x} "
                   "(lane {2}) is outside the {3} bytes per lane",
                   Len, int64_t(Off), Lane, W.PrivPerLane)
               .str());
    return nullptr;
  }
  if (W.C->Sink) // cost model (timing mode)
    W.C->Sink->access(2, Off, Len, Lane);
  return W.Priv.data() + size_t(Lane) * W.PrivPerLane + Off;
}

uint8_t *globalPtr(Wave &W, const Inst &I, uint64_t Addr, unsigned Len,
                   bool Write, unsigned Lane) {
  Region *R = W.C->findRegion(Addr, Len, Write, W.Id, Lane);
  if (!R || !(R->Perms & (Write ? PermWrite : PermRead))) {
    W.fail(ErrorKind::Fault, I,
           formatv("{0} of {1} bytes at address {2:x} (lane {3}): {4}",
                   Write ? "write" : "read", Len, Addr, Lane,
                   !R ? "unmapped or out of bounds"
                      : Write ? "region is read-only" : "region is not readable")
               .str());
    return nullptr;
  }
  if (W.C->Sink) // cost model (timing mode)
    W.C->Sink->access(0, Addr, Len, Lane);
  if (W.TrackGlobal) // cross-wave and dispatch-wide races (StoreRace.cpp,
                     // GlobalRace.cpp)
    W.GAcc.push_back(
        {Addr, Len, uint8_t(Lane), Write, auxKind(I.Aux) == Atomic});
  return R->Data.data() + (Addr - R->Base);
}

// Resolves a flat address: LDS aperture, private aperture or global.
uint8_t *flatPtr(Wave &W, const Inst &I, uint64_t Addr, unsigned Len,
                 bool Write, bool IsAtomic, unsigned Lane, int &Space) {
  uint32_t Hi = Addr >> 32;
  if (Hi == uint32_t(Emulator::SharedApertureBase >> 32)) {
    Space = 1;
    return ldsPtr(W, I, uint32_t(Addr), Len, Write, IsAtomic, Lane, nullptr,
                  LdsVia::Flat);
  }
  if (Hi == uint32_t(Emulator::PrivateApertureBase >> 32)) {
    Space = 2;
    return privPtr(W, I, uint32_t(Addr), Len, Lane);
  }
  Space = 0;
  return globalPtr(W, I, Addr, Len, Write, Lane);
}

// Performs the per-lane memory operation at Ptr.
void doLane(Wave &W, const Inst &I, uint8_t *Ptr, int Space, unsigned Lane,
            const Opnd *Dst, const Opnd *Data) {
  uint32_t A = I.Aux;
  unsigned N = auxSize(A);
  switch (auxKind(A)) {
  case Load:
    if (Dst)
      scatterResult(W, *Dst, Lane, Ptr, N, A);
    break;
  case Store: {
    uint8_t Buf[16];
    unsigned D16 = auxD16(A);
    // A d16_hi store reads the whole register to take its high half.
    gatherData(W, *Data, Lane, D16 == 2 ? 4 : N, Buf);
    if (D16 == 2) { // store the high half of the register
      uint32_t V;
      std::memcpy(&V, Buf, 4);
      V >>= 16;
      std::memcpy(Buf, &V, 4);
    }
    std::memcpy(Ptr, Buf, N);
    break;
  }
  case Atomic: {
    unsigned Op = auxOp(A);
    uint8_t Buf[16] = {};
    unsigned DataBytes = Op == ACmpSwap ? 2 * N : N;
    gatherData(W, *Data, Lane, DataBytes, Buf);
    uint64_t D = 0, C = 0;
    std::memcpy(&D, Buf, N);
    std::memcpy(&C, Buf + N, N);
    uint64_t Old;
    if (Space == 0) {
      std::lock_guard<std::mutex> G(W.C->Sh->lockFor(uintptr_t(Ptr)));
      Old = atomicApply(Ptr, N, Op, D, C);
    } else {
      Old = atomicApply(Ptr, N, Op, D, C);
    }
    if (auxRtn(A) && Dst) {
      uint8_t OB[8];
      std::memcpy(OB, &Old, 8);
      scatterResult(W, *Dst, Lane, OB, N, A & ~(3u << 11));
    }
    break;
  }
  }
}

// Writes one lane's LDS-DMA dword and records the range as pending until
// the op's vmcnt is waited for.
bool ldsDma(Wave &W, const Inst &I, unsigned L, uint32_t V) {
  uint64_t LdsOff = uint64_t(W.S[SM0]) + uint32_t(I.Off) + 4 * L;
  uint8_t *P = ldsPtr(W, I, LdsOff, 4, true, false, L, nullptr, LdsVia::Dma);
  if (!P)
    return false;
  std::memcpy(P, &V, 4);
  if (!W.Dma.empty() && W.Dma.back().Id == ~0u &&
      W.Dma.back().Hi == uint32_t(LdsOff))
    W.Dma.back().Hi += 4;
  else
    W.Dma.push_back({uint32_t(LdsOff), uint32_t(LdsOff) + 4, ~0u, 0});
  return true;
}

//===----------------------------------------------------------------------===//
// FLAT / GLOBAL / SCRATCH
//===----------------------------------------------------------------------===//

// A full wave whose lanes are back to back (the coalesced access of most
// kernels): one region lookup and block copies. Returns false when the
// access is not of that shape or not in one region with the permission.
bool fullContiguousCopy(Wave &W, const uint64_t *Addr, unsigned N, bool Write,
                        uint32_t *Reg) {
  uint64_t A0 = Addr[0];
  // Zero iff contiguous. Branch-free and without a 64-bit multiply, so
  // that the compiler vectorizes it (SSE2 has none).
  uint64_t Diff = 0, Expect = A0;
  for (unsigned L = 0; L < 64; ++L, Expect += N)
    Diff |= Addr[L] ^ Expect;
  uint64_t Len = uint64_t(64) * N;
  if (Diff || A0 + Len < A0)
    return false;
  Region *R = W.C->findRegion(A0, Len, Write);
  if (!R || !(R->Perms & (Write ? PermWrite : PermRead)))
    return false;
  // The next iteration's bytes, one stride on (see Wave::StrideSlot).
  Wave::StrideSlot &SS = W.DataStride[(W.PC >> 2) % Wave::StrideSlots];
  if (uint64_t Next = SS.next(W.PC, A0); Next && R->contains(Next, Len)) {
    const uint8_t *Q = R->Data.data() + (Next - R->Base);
    for (uint64_t K = 0; K < Len; K += 64) {
      if (Write)
        __builtin_prefetch(Q + K, 1);
      else
        __builtin_prefetch(Q + K, 0);
    }
  }
  if (W.TrackGlobal) // cross-wave and dispatch-wide races (StoreRace.cpp,
                     // GlobalRace.cpp)
    W.GAcc.push_back({A0, uint32_t(Len), 0, Write, false, uint8_t(N)});
  uint8_t *P = R->Data.data() + (A0 - R->Base);
  unsigned Dw = N / 4;
  if (Dw == 1) {
    if (Write)
      std::memcpy(P, Reg, 256);
    else
      std::memcpy(Reg, P, 256);
    return true;
  }
  // Lane L's dword K is at P + 4 * (L * Dw + K); register row K holds it.
  for (unsigned K = 0; K < Dw; ++K) {
    uint32_t *Row = Reg + K * 64;
    for (unsigned L = 0; L < 64; ++L) {
      uint8_t *Q = P + 4 * (L * Dw + K);
      if (Write)
        std::memcpy(Q, &Row[L], 4);
      else
        std::memcpy(&Row[L], Q, 4);
    }
  }
  return true;
}

// Whole-wave loads and stores of whole dwords at the per-lane addresses
// Addr (active lanes of Exec): when every lane's bytes lie in one mapped
// region with the permission (one lookup for the wave's address span
// instead of one per lane), the lanes are copied directly and true is
// returned; otherwise nothing is done and the caller's per-lane path runs
// (it reports faults lane by lane).
bool wholeWaveCopy(Wave &W, const uint64_t *Addr, uint64_t Exec, unsigned N,
                   bool Write, uint32_t *Reg) {
  if (Exec == ~0ull && fullContiguousCopy(W, Addr, N, Write, Reg))
    return true;
  uint64_t Lo = ~0ull, Hi = 0;
  bool Contig = true; // each active lane right after the previous one
  for (uint64_t M = Exec; M; M &= M - 1) {
    uint64_t A = Addr[__builtin_ctzll(M)];
    Contig &= Hi == 0 || A == Hi;
    Lo = std::min(Lo, A);
    Hi = std::max(Hi, A + N);
  }
  if (Hi <= Lo)
    return false;
  Region *R = W.C->findRegion(Lo, Hi - Lo, Write);
  if (!R || !(R->Perms & (Write ? PermWrite : PermRead)))
    return false;
  uint8_t *Base = R->Data.data() - R->Base;
  bool Track = W.TrackGlobal;
  if (Track && Contig) { // cross-wave store ordering (StoreRace.cpp)
    W.GAcc.push_back({Lo, uint32_t(Hi - Lo), uint8_t(__builtin_ctzll(Exec)),
                      Write, false, uint8_t(N)});
    Track = false;
  }
  for (uint64_t M = Exec; M; M &= M - 1) {
    unsigned L = __builtin_ctzll(M);
    uint8_t *P = Base + Addr[L];
    for (unsigned K = 0; K < N / 4; ++K) {
      if (Write)
        std::memcpy(P + 4 * K, &Reg[K * 64 + L], 4);
      else
        std::memcpy(&Reg[K * 64 + L], P + 4 * K, 4);
    }
    if (Track)
      W.GAcc.push_back({Addr[L], N, uint8_t(L), Write, false});
  }
  return true;
}

// The register file rows a whole-wave copy reads or writes, or null when
// the access needs the per-lane path (atomics, sub-dword or d16 data, the
// cost model's or a verifier's memory hook, no data register).
uint32_t *wholeWaveReg(Wave &W, const Inst &I, MK Kind, unsigned N,
                       const Opnd *Dst, const Opnd *Data) {
  if (Kind == Atomic || (N & 3) || auxD16(I.Aux) || W.C->Sink ||
      W.C->Sh->Mem->Obs || !W.exec())
    return nullptr;
  const Opnd *O = Kind == Store ? Data : Dst;
  return O ? W.lanes(*O) : nullptr;
}

// FLAT/GLOBAL: whole-wave path unless a flat address is in an aperture.
bool globalFastPath(Wave &W, const Inst &I, unsigned Seg, const Opnd *SAddr,
                    uint64_t SBase, const uint32_t *V0, const uint32_t *V1,
                    MK Kind, unsigned N, const Opnd *Dst, const Opnd *Data) {
  uint32_t *Reg = wholeWaveReg(W, I, Kind, N, Dst, Data);
  if (!Reg || (!V0 && !SAddr))
    return false;
  uint64_t Exec = W.exec();
  uint64_t Addr[64];
  uint64_t Off = I.Off;
  if (Seg == 2 && SAddr)
    forEachLane(Exec, [&](unsigned L) { Addr[L] = SBase + V0[L] + Off; });
  else
    forEachLane(Exec, [&](unsigned L) {
      Addr[L] = (uint64_t(V1[L]) << 32 | V0[L]) + Off;
    });
  if (Seg == 0) { // flat: apertures go through the per-lane path
    bool Aperture = false;
    forEachLane(Exec, [&](unsigned L) {
      uint32_t AH = Addr[L] >> 32;
      Aperture |= AH == uint32_t(Emulator::SharedApertureBase >> 32) ||
                  AH == uint32_t(Emulator::PrivateApertureBase >> 32);
    });
    if (Aperture)
      return false;
  }
  return wholeWaveCopy(W, Addr, Exec, N, Kind == Store, Reg);
}

// The bytes one lane of a store writes: the first Len bytes of its data at
// Addr (Part 1: ds_write2's DATA2).
struct StoreSpan {
  uint64_t Addr;
  uint8_t Lane, Len, Part;
  bool operator<(const StoreSpan &O) const {
    return Addr != O.Addr ? Addr < O.Addr : Lane < O.Lane;
  }
};

// Two active lanes of one store that write different bytes to the same
// address: the ISA orders no lane of a store before another, so the memory
// is left undefined (in HIP a data race between work-items). Storing lanes
// in ascending order would hide a candidate that lets a lane with a partial
// result overwrite the lane with the whole one; such a store fails as a
// race. Lanes storing the same bytes leave one result and pass. The spans
// of one lane are not compared: a lane's accesses are in the order of the
// ISA's pseudo-code (ds_write2: DATA then DATA2). Bytes(Span, Out) fills
// Out with the span's Len bytes. Returns false after failing the wave.
template <typename BytesFn>
bool storeSpansAgree(Wave &W, const Inst &I, StoreSpan *S, unsigned NS,
                     bool Lds, BytesFn Bytes) {
  // Strictly increasing, non-overlapping spans in lane order (coalesced and
  // strided stores, ds_write2 whose second offset lies past every lane's
  // first): nothing to compare.
  uint64_t Next = 0;
  bool Disjoint = true;
  for (unsigned K = 0; K < NS && Disjoint; ++K) {
    Disjoint = S[K].Addr >= Next && S[K].Addr + S[K].Len > S[K].Addr;
    Next = S[K].Addr + S[K].Len;
  }
  if (Disjoint)
    return true;
  std::sort(S, S + NS);
  uint8_t Buf[128][16];
  bool Have[128] = {};
  auto Get = [&](unsigned K) {
    if (!Have[K])
      Bytes(S[K], Buf[K]);
    Have[K] = true;
    return Buf[K];
  };
  for (unsigned K = 0; K < NS; ++K) {
    uint64_t End = S[K].Addr + S[K].Len;
    for (unsigned J = K + 1; J < NS && S[J].Addr < End; ++J) {
      if (S[J].Lane == S[K].Lane)
        continue;
      const uint8_t *BK = Get(K), *BJ = Get(J);
      for (uint64_t A = S[J].Addr; A < End && A < S[J].Addr + S[J].Len; ++A)
        if (BK[A - S[K].Addr] != BJ[A - S[J].Addr]) {
          unsigned L0 = std::min(S[K].Lane, S[J].Lane),
                   L1 = std::max(S[K].Lane, S[J].Lane);
          W.fail(ErrorKind::Race, I,
                 formatv("lanes {0} and {1} of one store write different "
                         "bytes to {2}{3:x}: no order between a store's "
                         "lanes",
                         L0, L1, Lds ? "LDS offset " : "", A)
                     .str());
          return false;
        }
    }
  }
  return true;
}

// A lane's store data (N bytes; d16_hi: the register's high half).
void storeBytes(Wave &W, const Inst &I, const Opnd &Data, unsigned L,
                unsigned N, uint8_t *Out) {
  bool Hi = auxD16(I.Aux) == 2;
  gatherData(W, Data, L, Hi ? 4 : N, Out);
  if (Hi)
    std::memmove(Out, Out + 2, 2);
}

void hFlat(Wave &W, const Inst &I) {
  unsigned Seg = I.C0;
  bool HasV = I.C1 & 2, HasS = I.C1 & 4;
  // Bit 13 is LDS for FLAT/GLOBAL, SVE (VGPR address enable) for scratch.
  bool ToLds = (I.C1 & 1) && Seg != 1;
  if (ToLds && (Seg != 2 || auxSize(I.Aux) != 4))
    return W.fail(ErrorKind::Unsupported, I, "sub-dword/flat loads into LDS");
  const Opnd *VAddr = nullptr, *SAddr = nullptr, *Data = nullptr;
  // The MCInst operand order differs between variants (scratch stores put
  // vdata first): vaddr is the VGPR named by the encoding's ADDR field.
  for (unsigned K = 0; K < I.NSrc; ++K) {
    const Opnd &O = I.Src[K];
    if (O.Kind == OK::V && HasV && !VAddr && O.Reg == I.AddrReg)
      VAddr = &O;
  }
  for (unsigned K = 0; K < I.NSrc; ++K) {
    const Opnd &O = I.Src[K];
    if (O.Kind == OK::S || O.Kind == OK::Imm) {
      if (!SAddr && HasS)
        SAddr = &O;
    } else if (O.isVReg() && &O != VAddr && !Data) {
      Data = &O;
    }
  }
  MK Kind = auxKind(I.Aux);
  const Opnd *Dst = I.NDst ? &I.Dst[0] : nullptr;
  if ((Kind != Load && !Data) || (HasV && !VAddr))
    return W.fail(ErrorKind::Invalid, I, "unexpected FLAT operands");
  unsigned N = auxSize(I.Aux);
  bool Write = Kind != Load, IsAtomic = Kind == Atomic;
  uint64_t Exec = W.exec();
  uint64_t SBase = 0;
  if (SAddr)
    SBase = Seg == 1 ? readS32(W, *SAddr) : readS64(W, *SAddr);
  const uint32_t *V0 = VAddr ? W.lanes(*VAddr) : nullptr;
  const uint32_t *V1 = V0 ? V0 + 64 : nullptr;
  if (Kind == Store && Seg != 1 && Exec & (Exec - 1)) {
    // Lanes in the lane-private aperture are exempt: each has its own.
    StoreSpan S[64];
    unsigned NS = 0;
    forEachLane(Exec, [&](unsigned L) {
      uint64_t A = !V0                 ? SBase
                   : Seg == 2 && SAddr ? SBase + V0[L]
                                       : (uint64_t(V1[L]) << 32 | V0[L]);
      A += I.Off;
      if (Seg == 2 ||
          uint32_t(A >> 32) != uint32_t(Emulator::PrivateApertureBase >> 32))
        S[NS++] = {A, uint8_t(L), uint8_t(N), 0};
    });
    if (!storeSpansAgree(W, I, S, NS, false,
                         [&](const StoreSpan &P, uint8_t *Out) {
                           storeBytes(W, I, *Data, P.Lane, N, Out);
                         }))
      return;
  }
  if (Seg != 1 && !ToLds && globalFastPath(W, I, Seg, SAddr, SBase, V0, V1,
                                           Kind, N, Dst, Data))
    return;
  for (unsigned L = 0; L < 64; ++L) {
    if (!((Exec >> L) & 1))
      continue;
    uint8_t *Ptr;
    int Space = 0;
    if (Seg == 1) { // scratch: lane-private offset
      uint64_t Off = uint32_t(SBase + (V0 ? V0[L] : 0) + I.Off);
      Space = 2;
      Ptr = privPtr(W, I, Off, N, L);
    } else if (Seg == 2) { // global
      uint64_t Addr = SAddr ? SBase + V0[L] : (uint64_t(V1[L]) << 32 | V0[L]);
      Addr += I.Off;
      Ptr = globalPtr(W, I, Addr, N, Write, L);
      if (Ptr && ToLds) {
        uint32_t V;
        std::memcpy(&V, Ptr, 4);
        if (!ldsDma(W, I, L, V))
          return;
        continue;
      }
      if (Ptr && IsAtomic && (Addr % N))
        return W.fail(ErrorKind::Fault, I,
                      formatv("misaligned atomic at {0:x} (lane {1})", Addr, L)
                          .str());
    } else { // flat
      uint64_t Addr = (uint64_t(V1[L]) << 32 | V0[L]) + I.Off;
      Ptr = flatPtr(W, I, Addr, N, Write, IsAtomic, L, Space);
      if (Ptr && IsAtomic && (Addr % N))
        return W.fail(ErrorKind::Fault, I,
                      formatv("misaligned atomic at {0:x} (lane {1})", Addr, L)
                          .str());
    }
    if (!Ptr)
      return;
    doLane(W, I, Ptr, Space, L, Dst, Data);
  }
}

//===----------------------------------------------------------------------===//
// MUBUF
//===----------------------------------------------------------------------===//

constexpr uint64_t ScratchRsrcBase = 0xffff00000000ull;

void hBuf(Wave &W, const Inst &I) {
  bool Offen = I.C0, Idxen = I.C1;
  bool ToLds = I.C2;
  if (ToLds && (auxSize(I.Aux) != 4 || auxKind(I.Aux) != Load))
    return W.fail(ErrorKind::Unsupported, I, "sub-dword MUBUF loads into LDS");
  const Opnd *Rsrc = nullptr, *SOff = nullptr;
  const Opnd *VOps[3] = {};
  unsigned NV = 0;
  for (unsigned K = 0; K < I.NSrc; ++K) {
    const Opnd &O = I.Src[K];
    if (O.Kind == OK::S && O.Count == 4 && !Rsrc)
      Rsrc = &O;
    else if (Rsrc && !SOff && (O.Kind == OK::S || O.Kind == OK::Imm))
      SOff = &O;
    else if (O.isVReg() && NV < 3)
      VOps[NV++] = &O;
  }
  MK Kind = auxKind(I.Aux);
  const Opnd *Data = nullptr, *VAddr = nullptr;
  if (Kind == Load) {
    VAddr = NV ? VOps[0] : nullptr;
  } else {
    Data = NV ? VOps[0] : nullptr;
    VAddr = NV > 1 ? VOps[1] : nullptr;
  }
  if (!Rsrc || ((Offen || Idxen) && !VAddr) || (Kind != Load && !Data))
    return W.fail(ErrorKind::Invalid, I, "unexpected MUBUF operands");
  uint32_t *D = &W.S[Rsrc->Reg];
  uint64_t Base = (uint64_t(D[1] & 0xffff) << 32) | D[0];
  uint32_t Stride = (D[1] >> 16) & 0x3fff;
  uint32_t NumRec = D[2];
  bool AddTid = (D[3] >> 23) & 1;
  uint32_t SOffset = SOff ? readS32(W, *SOff) : 0;
  unsigned N = auxSize(I.Aux);
  bool Write = Kind != Load;
  const Opnd *Dst = I.NDst ? &I.Dst[0] : nullptr;
  const uint32_t *VA = VAddr ? W.lanes(*VAddr) : nullptr;
  bool Scratch = (Base >> 32) == (ScratchRsrcBase >> 32);
  // A lane's buffer index and offset from VADDR: with both, the index is
  // the first VGPR and the offset the second.
  auto laneIndexAndOffset = [&](unsigned L) -> std::pair<uint32_t, uint32_t> {
    if (Idxen && Offen)
      return {VA[L], VA[64 + L]};
    if (Idxen)
      return {VA[L], 0};
    if (Offen)
      return {0, VA[L]};
    return {0, 0};
  };
  uint64_t Exec = W.exec();
  // Lanes of one store writing one address (scratch is lane-private; ADD_TID
  // resources are not modelled). Only in-range bytes are written, and they
  // are a prefix of the lane's data: both range bounds only grow with the
  // dword index.
  if (Kind == Store && !Scratch && !AddTid && Exec & (Exec - 1)) {
    StoreSpan S[64];
    unsigned NS = 0, Unit = N >= 4 ? 4 : N;
    forEachLane(Exec, [&](unsigned L) {
      auto [VIdx, VOff] = laneIndexAndOffset(L);
      uint64_t Off = uint64_t(VOff) + I.Off;
      unsigned Len = 0;
      while (Len < N &&
             (Stride == 0 ? Off + Len + Unit <= NumRec
                          : VIdx < NumRec && Off + Len + Unit <= Stride))
        Len += Unit;
      if (Len)
        S[NS++] = {Base + SOffset + uint64_t(VIdx) * Stride + Off, uint8_t(L),
                   uint8_t(Len), 0};
    });
    if (!storeSpansAgree(W, I, S, NS, false,
                         [&](const StoreSpan &P, uint8_t *Out) {
                           storeBytes(W, I, *Data, P.Lane, N, Out);
                         }))
      return;
  }
  // Whole-wave path: every active lane's access entirely in range.
  if (!Scratch && !ToLds && !AddTid && (!(Offen || Idxen) || VA)) {
    if (uint32_t *Reg = wholeWaveReg(W, I, Kind, N, Dst, Data)) {
      uint64_t Addr[64];
      bool AllIn = true;
      for (uint64_t M = Exec; M && AllIn; M &= M - 1) {
        unsigned L = __builtin_ctzll(M);
        auto [VIdx, VOff] = laneIndexAndOffset(L);
        uint64_t Off = uint64_t(VOff) + I.Off;
        // Dword-granular range check of the whole access (gfx9 rules).
        AllIn = Stride == 0 ? Off + N <= NumRec
                            : VIdx < NumRec && Off + N <= Stride;
        Addr[L] = Base + SOffset + uint64_t(VIdx) * Stride + Off;
      }
      if (AllIn && wholeWaveCopy(W, Addr, Exec, N, Write, Reg))
        return;
    }
  }
  for (unsigned L = 0; L < 64; ++L) {
    if (!((Exec >> L) & 1))
      continue;
    auto [VIdx, VOff] = laneIndexAndOffset(L);
    uint64_t Off = uint64_t(VOff) + I.Off;
    if (Scratch) {
      // Private segment buffer (swizzled per lane by hardware): the lane's
      // private offset is base offset + soffset + offset.
      uint64_t P = uint32_t((Base - ScratchRsrcBase) + SOffset + Off);
      uint8_t *Ptr = privPtr(W, I, P, N, L);
      if (!Ptr)
        return;
      doLane(W, I, Ptr, 2, L, Dst, Data);
      continue;
    }
    if (AddTid)
      return W.fail(ErrorKind::Unsupported, I, "ADD_TID buffer resources");
    uint64_t Index = VIdx;
    // Range check per dword (per element for sub-dword accesses).
    unsigned Unit = N >= 4 ? 4 : N;
    uint8_t Buf[16] = {};
    bool AllIn = true, AnyIn = false;
    bool In[4];
    for (unsigned K = 0; K < N / Unit; ++K) {
      bool Ok;
      if (Stride == 0)
        Ok = Off + K * Unit + Unit <= NumRec;
      else
        Ok = Index < NumRec && Off + K * Unit + Unit <= Stride;
      In[K] = Ok;
      AllIn &= Ok;
      AnyIn |= Ok;
    }
    uint64_t Addr = Base + SOffset + Index * Stride + Off;
    if (ToLds) {
      // LDS-DMA: the dword goes to LDS at M0 + inst_offset + lane * 4 (the
      // immediate offset applies to both addresses); out of range reads 0.
      uint32_t V = 0;
      if (AllIn) {
        uint8_t *Ptr = globalPtr(W, I, Addr, 4, false, L);
        if (!Ptr)
          return;
        std::memcpy(&V, Ptr, 4);
      }
      if (!ldsDma(W, I, L, V))
        return;
      continue;
    }
    if (Kind == Atomic) {
      if (!AllIn)
        continue; // out-of-range atomics do nothing (returns 0 on rtn)
      uint8_t *Ptr = globalPtr(W, I, Addr, N, true, L);
      if (!Ptr)
        return;
      doLane(W, I, Ptr, 0, L, Dst, Data);
      continue;
    }
    if (AllIn) {
      uint8_t *Ptr = globalPtr(W, I, Addr, N, Write, L);
      if (!Ptr)
        return;
      doLane(W, I, Ptr, 0, L, Dst, Data);
      continue;
    }
    // Partially or fully out of range: loads read 0, stores drop.
    if (Kind == Load) {
      for (unsigned K = 0; K < N / Unit; ++K) {
        if (!In[K])
          continue;
        uint8_t *Ptr = globalPtr(W, I, Addr + K * Unit, Unit, false, L);
        if (!Ptr)
          return;
        std::memcpy(Buf + K * Unit, Ptr, Unit);
      }
      if (Dst)
        scatterResult(W, *Dst, L, Buf, N, I.Aux);
    } else {
      uint8_t DB[16];
      gatherData(W, *Data, L, N, DB);
      for (unsigned K = 0; K < N / Unit; ++K) {
        if (!In[K])
          continue;
        uint8_t *Ptr = globalPtr(W, I, Addr + K * Unit, Unit, true, L);
        if (!Ptr)
          return;
        std::memcpy(Ptr, DB + K * Unit, Unit);
      }
    }
    (void)AnyIn;
  }
}

//===----------------------------------------------------------------------===//
// DS
//===----------------------------------------------------------------------===//

void hDs(Wave &W, const Inst &I) {
  if (I.C2)
    return W.fail(ErrorKind::Unsupported, I, "GDS is not modelled");
  // Operands: [vdst]; addr, [data0], [data1].
  const Opnd *Addr = I.NSrc > 0 ? &I.Src[0] : nullptr;
  const Opnd *D0 = I.NSrc > 1 ? &I.Src[1] : nullptr;
  const Opnd *D1 = I.NSrc > 2 ? &I.Src[2] : nullptr;
  const Opnd *Dst = I.NDst ? &I.Dst[0] : nullptr;
  if (!Addr || Addr->Kind != OK::V)
    return W.fail(ErrorKind::Invalid, I, "unexpected DS operands");
  uint32_t A = I.Aux;
  unsigned N = auxSize(A), Two = auxTwo(A);
  MK Kind = auxKind(A);
  if (Kind == Store && (!D0 || (Two && !D1)))
    return W.fail(ErrorKind::Invalid, I, "unexpected DS operands");
  const uint32_t *VA = W.vreg(Addr->Reg);
  uint64_t Exec = W.exec();
  // Lanes of one ds_write writing different bytes to one LDS byte (atomics
  // are performed one lane after another and are not checked). DATA's
  // spans come before DATA2's, so a ds_write2 whose second offset lies past
  // every lane's first stays on the cheap path. A lane that faults (out of
  // range, misaligned) is reported by the lane loop below instead.
  if (Kind == Store && Exec & (Exec - 1)) {
    StoreSpan S[128];
    unsigned NS = 0;
    unsigned Scale = N * (Two == 2 ? 64 : 1);
    bool Faults = false;
    for (unsigned P = 0; P < (Two ? 2u : 1u); ++P)
      forEachLane(Exec, [&](unsigned L) {
        uint64_t Off = !Two ? uint64_t(VA[L]) + uint32_t(I.Off)
                            : uint64_t(VA[L]) + (P ? I.C1 : I.C0) * Scale;
        Faults |=
            Off + N > W.WG->Lds.size() ||
            Off % ldsAlignment(W, N, false, Two ? LdsVia::DsPair : LdsVia::Ds);
        S[NS++] = {Off, uint8_t(L), uint8_t(N), uint8_t(P)};
      });
    if (!Faults && !storeSpansAgree(W, I, S, NS, true,
                                    [&](const StoreSpan &P, uint8_t *Out) {
                                      if (Two)
                                        gatherData(W, P.Part ? *D1 : *D0,
                                                   P.Lane, N, Out);
                                      else
                                        storeBytes(W, I, *D0, P.Lane, N, Out);
                                    }))
      return;
  }
  for (unsigned L = 0; L < 64; ++L) {
    if (!((Exec >> L) & 1))
      continue;
    if (Two) {
      unsigned Scale = N * (Two == 2 ? 64 : 1);
      uint64_t O0 = uint64_t(VA[L]) + I.C0 * Scale;
      uint64_t O1 = uint64_t(VA[L]) + I.C1 * Scale;
      uint8_t *P0 =
          ldsPtr(W, I, O0, N, Kind == Store, false, L, nullptr, LdsVia::DsPair);
      if (!P0)
        return;
      uint8_t *P1 =
          ldsPtr(W, I, O1, N, Kind == Store, false, L, nullptr, LdsVia::DsPair);
      if (!P1)
        return;
      if (Kind == Load) {
        uint8_t B[16];
        std::memcpy(B, P0, N);
        std::memcpy(B + N, P1, N);
        scatterResult(W, *Dst, L, B, 2 * N, A);
      } else {
        uint8_t B0[8], B1[8];
        gatherData(W, *D0, L, N, B0);
        gatherData(W, *D1, L, N, B1);
        std::memcpy(P0, B0, N);
        std::memcpy(P1, B1, N);
      }
      continue;
    }
    uint64_t Off = uint64_t(VA[L]) + uint32_t(I.Off);
    uint8_t B[16];
    if (Kind == Store) {
      // The data first: the race check tells a store of unchanged bytes.
      // A d16_hi write reads the whole register to take its high half.
      gatherData(W, *D0, L, auxD16(A) == 2 ? 4 : N, B);
      if (auxD16(A) == 2) {
        uint32_t V;
        std::memcpy(&V, B, 4);
        V >>= 16;
        std::memcpy(B, &V, 4);
      }
    }
    uint8_t *P = ldsPtr(W, I, Off, N, Kind != Load, Kind == Atomic, L,
                        Kind == Store ? B : nullptr);
    if (!P)
      return;
    if (Kind == Load) {
      scatterResult(W, *Dst, L, P, N, A);
    } else if (Kind == Store) {
      std::memcpy(P, B, N);
    } else {
      unsigned Op = auxOp(A);
      uint8_t B0[8] = {}, B1[8] = {};
      gatherData(W, *D0, L, N, B0);
      if (D1)
        gatherData(W, *D1, L, N, B1);
      uint64_t X = 0, Y = 0;
      std::memcpy(&X, B0, N);
      std::memcpy(&Y, B1, N);
      uint64_t Old;
      if (Op == ACmpSwap) // DS_CMPST: DATA = compare, DATA2 = new value
        Old = atomicApply(P, N, ACmpSwap, Y, X);
      else if (Op == AMskOr) // DATA = mask, DATA2 = value
        Old = atomicApply(P, N, AMskOr, X, Y);
      else
        Old = atomicApply(P, N, Op, X, 0);
      if (auxRtn(A) && Dst) {
        uint8_t OB[8];
        std::memcpy(OB, &Old, 8);
        scatterResult(W, *Dst, L, OB, N, A);
      }
    }
  }
}

// ds_bpermute_b32 / ds_permute_b32: lane crossing without touching LDS.
// Source lanes that are inactive contribute 0.
template <bool Back> void hPermute(Wave &W, const Inst &I) {
  if (I.NSrc < 2 || I.Src[0].Kind != OK::V || I.Src[1].Kind != OK::V)
    return W.fail(ErrorKind::Invalid, I, "unexpected permute operands");
  const uint32_t *Addr = W.vreg(I.Src[0].Reg), *Data = W.vreg(I.Src[1].Reg);
  uint64_t Exec = W.exec();
  uint32_t Out[64] = {};
  if (Back) {
    for (unsigned L = 0; L < 64; ++L) {
      unsigned S = ((Addr[L] + uint32_t(I.Off)) >> 2) & 63;
      Out[L] = ((Exec >> S) & 1) ? Data[S] : 0;
    }
  } else {
    for (unsigned L = 0; L < 64; ++L)
      if ((Exec >> L) & 1)
        Out[((Addr[L] + uint32_t(I.Off)) >> 2) & 63] = Data[L];
  }
  uint32_t *D = W.lanes(I.Dst[0]);
  for (unsigned L = 0; L < 64; ++L)
    if ((Exec >> L) & 1)
      D[L] = Out[L];
}

void hSwizzle(Wave &W, const Inst &I) {
  uint32_t Off = uint32_t(I.Off) & 0xffff;
  const uint32_t *Data = W.vreg(I.Src[0].Reg);
  uint64_t Exec = W.exec();
  uint32_t Out[64];
  if (Off >= 0xe000)
    return W.fail(ErrorKind::Unsupported, I, "ds_swizzle FFT/rotate mode");
  for (unsigned L = 0; L < 64; ++L) {
    unsigned S;
    if (Off & 0x8000) { // quad permute
      S = (L & ~3u) | ((Off >> ((L & 3) * 2)) & 3);
    } else { // bit masks within 32-lane halves
      unsigned And = Off & 0x1f, Or = (Off >> 5) & 0x1f, Xor = (Off >> 10) & 0x1f;
      S = (L & 0x20) | (((L & And) | Or) ^ Xor);
    }
    Out[L] = ((Exec >> S) & 1) ? Data[S] : 0;
  }
  uint32_t *D = W.lanes(I.Dst[0]);
  for (unsigned L = 0; L < 64; ++L)
    if ((Exec >> L) & 1)
      D[L] = Out[L];
}

void hCacheNop(Wave &, const Inst &) {}
// Vector L1 invalidation: in tgsplit mode a wave sees another CU's stores
// only after one (StoreRace.cpp).
void hCacheInv(Wave &W, const Inst &) { W.L1InvEpoch = W.WG->Epoch; }

} // namespace

uint64_t atomicRmw(uint8_t *Mem, unsigned N, unsigned Op, uint64_t Data,
                   uint64_t Cmp) {
  return atomicApply(Mem, N, Op, Data, Cmp);
}

unsigned atomicOpCode(StringRef Name) {
  return StringSwitch<unsigned>(Name)
      .Case("swap", ASwap)
      .Case("cmpswap", ACmpSwap)
      .Case("add", AAdd)
      .Case("sub", ASub)
      .Case("smin", ASMin)
      .Case("umin", AUMin)
      .Case("smax", ASMax)
      .Case("umax", AUMax)
      .Case("and", AAnd)
      .Case("or", AOr)
      .Case("xor", AXor)
      .Case("inc", AInc)
      .Case("dec", ADec)
      .Default(0);
}

bool isD16Load(const OpInfo &Info) {
  return (Info.Fn == hFlat || Info.Fn == hBuf || Info.Fn == hDs) &&
         auxKind(Info.Aux) == Load && auxD16(Info.Aux) != 0;
}

void registerMem(OpTable &T) {
  // FLAT / GLOBAL / SCRATCH loads and stores.
  struct LS {
    const char *Suffix;
    uint32_t Aux;
  };
  static const LS Loads[] = {
      {"load_dword", aux(4, Load)},      {"load_dwordx2", aux(8, Load)},
      {"load_dwordx3", aux(12, Load)},   {"load_dwordx4", aux(16, Load)},
      {"load_ubyte", aux(1, Load)},      {"load_sbyte", aux(1, Load, true)},
      {"load_ushort", aux(2, Load)},     {"load_sshort", aux(2, Load, true)},
      {"load_short_d16", aux(2, Load, false, 1)},
      {"load_short_d16_hi", aux(2, Load, false, 2)},
      {"load_ubyte_d16", aux(1, Load, false, 1)},
      {"load_ubyte_d16_hi", aux(1, Load, false, 2)},
      {"load_sbyte_d16", aux(1, Load, true, 1)},
      {"load_sbyte_d16_hi", aux(1, Load, true, 2)},
      {"store_dword", aux(4, Store)},    {"store_dwordx2", aux(8, Store)},
      {"store_dwordx3", aux(12, Store)}, {"store_dwordx4", aux(16, Store)},
      {"store_byte", aux(1, Store)},     {"store_short", aux(2, Store)},
      {"store_byte_d16_hi", aux(1, Store, false, 2)},
      {"store_short_d16_hi", aux(2, Store, false, 2)},
  };
  for (const char *Pre : {"flat_", "global_", "scratch_"})
    for (const LS &E : Loads)
      T.add(std::string(Pre) + E.Suffix, hFlat, Fidelity::Exact, E.Aux);
  struct AT {
    const char *Name;
    unsigned Op;
    bool Float;
  };
  static const AT Atomics[] = {
      {"swap", ASwap, false}, {"cmpswap", ACmpSwap, false}, {"add", AAdd, false},
      {"sub", ASub, false},   {"smin", ASMin, false},       {"umin", AUMin, false},
      {"smax", ASMax, false}, {"umax", AUMax, false},       {"and", AAnd, false},
      {"or", AOr, false},     {"xor", AXor, false},         {"inc", AInc, false},
      {"dec", ADec, false}};
  for (const char *Pre : {"flat_atomic_", "global_atomic_", "buffer_atomic_"}) {
    Handler H = std::string(Pre) == "buffer_atomic_" ? hBuf : hFlat;
    for (const AT &E : Atomics) {
      // The _x2 forms are the 64-bit ones. Returning forms are the same
      // opcode with glc set; the presence of a def decides.
      T.add(std::string(Pre) + E.Name, H, Fidelity::Exact,
            aux(4, Atomic, false, 0, E.Op, true));
      T.add(std::string(Pre) + E.Name + "_x2", H, Fidelity::Exact,
            aux(8, Atomic, false, 0, E.Op, true));
    }
    // Float atomics: denormal handling of the memory-side ALU is not
    // documented bit for bit.
    T.add(std::string(Pre) + "add_f32", H, Fidelity::Approximate,
          aux(4, Atomic, false, 0, AAddF32, true));
    T.add(std::string(Pre) + "add_f64", H, Fidelity::Approximate,
          aux(8, Atomic, false, 0, AAddF64, true));
    T.add(std::string(Pre) + "min_f64", H, Fidelity::Approximate,
          aux(8, Atomic, false, 0, AMinF64, true));
    T.add(std::string(Pre) + "max_f64", H, Fidelity::Approximate,
          aux(8, Atomic, false, 0, AMaxF64, true));
  }
  // MUBUF loads/stores.
  for (const LS &E : Loads) {
    StringRef S = E.Suffix;
    T.add(("buffer_" + S).str(), hBuf, Fidelity::Exact, E.Aux);
  }
  T.add("global_load_lds_dword", hFlat, Fidelity::Exact, aux(4, Load));
  for (const char *N :
       {"buffer_wbinvl1", "buffer_wbinvl1_vol", "buffer_inv", "buffer_invl2"})
    T.add(N, hCacheInv);
  T.add("buffer_wbl2", hCacheNop);

  // DS.
  struct DSE {
    const char *Name;
    uint32_t Aux;
  };
  static const DSE DsOps[] = {
      {"ds_read_b32", aux(4, Load)},       {"ds_read_b64", aux(8, Load)},
      {"ds_read_b96", aux(12, Load)},      {"ds_read_b128", aux(16, Load)},
      {"ds_read_u8", aux(1, Load)},        {"ds_read_i8", aux(1, Load, true)},
      {"ds_read_u16", aux(2, Load)},       {"ds_read_i16", aux(2, Load, true)},
      {"ds_read_u8_d16", aux(1, Load, false, 1)},
      {"ds_read_u8_d16_hi", aux(1, Load, false, 2)},
      {"ds_read_i8_d16", aux(1, Load, true, 1)},
      {"ds_read_i8_d16_hi", aux(1, Load, true, 2)},
      {"ds_read_u16_d16", aux(2, Load, false, 1)},
      {"ds_read_u16_d16_hi", aux(2, Load, false, 2)},
      {"ds_read2_b32", aux(4, Load, false, 0, 0, false, 1)},
      {"ds_read2_b64", aux(8, Load, false, 0, 0, false, 1)},
      {"ds_read2st64_b32", aux(4, Load, false, 0, 0, false, 2)},
      {"ds_read2st64_b64", aux(8, Load, false, 0, 0, false, 2)},
      {"ds_write_b8", aux(1, Store)},      {"ds_write_b16", aux(2, Store)},
      {"ds_write_b32", aux(4, Store)},     {"ds_write_b64", aux(8, Store)},
      {"ds_write_b96", aux(12, Store)},    {"ds_write_b128", aux(16, Store)},
      {"ds_write_b8_d16_hi", aux(1, Store, false, 2)},
      {"ds_write_b16_d16_hi", aux(2, Store, false, 2)},
      {"ds_write2_b32", aux(4, Store, false, 0, 0, false, 1)},
      {"ds_write2_b64", aux(8, Store, false, 0, 0, false, 1)},
      {"ds_write2st64_b32", aux(4, Store, false, 0, 0, false, 2)},
      {"ds_write2st64_b64", aux(8, Store, false, 0, 0, false, 2)},
  };
  for (const DSE &E : DsOps)
    T.add(E.Name, hDs, Fidelity::Exact, E.Aux);
  struct DA {
    const char *Name;
    unsigned Op;
    unsigned Size;
    Fidelity F;
  };
  static const DA DsAtomics[] = {
      {"add_u32", AAdd, 4, Fidelity::Exact},    {"sub_u32", ASub, 4, Fidelity::Exact},
      {"rsub_u32", ARsub, 4, Fidelity::Exact},  {"inc_u32", AInc, 4, Fidelity::Exact},
      {"dec_u32", ADec, 4, Fidelity::Exact},    {"min_i32", ASMin, 4, Fidelity::Exact},
      {"max_i32", ASMax, 4, Fidelity::Exact},   {"min_u32", AUMin, 4, Fidelity::Exact},
      {"max_u32", AUMax, 4, Fidelity::Exact},   {"and_b32", AAnd, 4, Fidelity::Exact},
      {"or_b32", AOr, 4, Fidelity::Exact},      {"xor_b32", AXor, 4, Fidelity::Exact},
      {"mskor_b32", AMskOr, 4, Fidelity::Exact},
      {"cmpst_b32", ACmpSwap, 4, Fidelity::Exact},
      {"add_f32", AAddF32, 4, Fidelity::Approximate},
      {"min_f32", AMinF32, 4, Fidelity::Approximate},
      {"max_f32", AMaxF32, 4, Fidelity::Approximate},
      {"add_u64", AAdd, 8, Fidelity::Exact},    {"sub_u64", ASub, 8, Fidelity::Exact},
      {"rsub_u64", ARsub, 8, Fidelity::Exact},  {"inc_u64", AInc, 8, Fidelity::Exact},
      {"dec_u64", ADec, 8, Fidelity::Exact},    {"min_i64", ASMin, 8, Fidelity::Exact},
      {"max_i64", ASMax, 8, Fidelity::Exact},   {"min_u64", AUMin, 8, Fidelity::Exact},
      {"max_u64", AUMax, 8, Fidelity::Exact},   {"and_b64", AAnd, 8, Fidelity::Exact},
      {"or_b64", AOr, 8, Fidelity::Exact},      {"xor_b64", AXor, 8, Fidelity::Exact},
      {"mskor_b64", AMskOr, 8, Fidelity::Exact},
      {"cmpst_b64", ACmpSwap, 8, Fidelity::Exact},
      {"add_f64", AAddF64, 8, Fidelity::Approximate},
  };
  for (const DA &E : DsAtomics) {
    std::string N = E.Name;
    size_t U = N.rfind('_');
    std::string Rtn = "ds_" + N.substr(0, U) + "_rtn" + N.substr(U);
    T.add("ds_" + N, hDs, E.F, aux(E.Size, Atomic, false, 0, E.Op, false));
    T.add(Rtn, hDs, E.F, aux(E.Size, Atomic, false, 0, E.Op, true));
  }
  T.add("ds_wrxchg_rtn_b32", hDs, Fidelity::Exact, aux(4, Atomic, false, 0, ASwap, true));
  T.add("ds_wrxchg_rtn_b64", hDs, Fidelity::Exact, aux(8, Atomic, false, 0, ASwap, true));
  T.add("ds_bpermute_b32", hPermute<true>);
  T.add("ds_permute_b32", hPermute<false>);
  T.add("ds_swizzle_b32", hSwizzle);
  T.add("ds_nop", hCacheNop);
}

void crossPendingLds(Wave &W) {
  for (auto *V : {&W.PendLdsRead, &W.PendLdsWrite})
    for (Wave::PendingLds &R : *V)
      if (opLive(W, R))
        R.CrossEpoch = W.WG->Epoch;
}

void releaseBarrier(Workgroup &WG) {
  ++WG.Epoch;
  for (Wave *W : WG.Waves) {
    if (W->St != Wave::Barrier)
      continue;
    W->St = Wave::Running;
    crossPendingLds(*W);
  }
}

void attachPendingLds(Wave &W) {
  uint32_t Id = W.SB.LastId;
  for (auto *V : {&W.PendLdsRead, &W.PendLdsWrite}) {
    if (V->empty())
      continue;
    V->erase(std::remove_if(V->begin(), V->end(),
                            [&](Wave::PendingLds &R) {
                              if (R.Id == ~0u) {
                                if (Id == ~0u)
                                  return true; // the op completed at issue
                                R.Id = Id;
                                R.Gen = W.SB.Ops[Id].Gen;
                                R.PC = W.SB.Ops[Id].PC;
                                return false;
                              }
                              return !pendingLive(W, R);
                            }),
             V->end());
  }
}

} // namespace emu
} // namespace asmevo
