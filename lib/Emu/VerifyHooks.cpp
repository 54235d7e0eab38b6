//===- VerifyHooks.cpp - Memory::Observer calls for approximate opcodes ---===//
//
// Verification hook used by lib/Verify (the differential oracle), kept apart
// from the execution code: when a Memory::Observer is installed, every lane
// of an executed approximate opcode is reported with a key that hashes the
// operation and the lane's operand bits (every lane's for DPP and matrix
// instructions), and the observer may perturb the lane's first VGPR result.
// Without an observer nothing here runs.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cmath>

namespace asmevo {
namespace emu {

namespace {
/// The perturbed result of v_rcp_f32 / v_rcp_iflag_f32 for the operand
/// bits X, as a mask to XOR into the emulator's correctly rounded result.
/// AMD's ISA guide gives V_RCP_F32 1 ULP accuracy and exact results where
/// the reciprocal is representable (its examples), and V_RCP_IFLAG_F32 the
/// same definition (no accuracy of its own); so the perturbed
/// implementation returns the other neighbour of the exact 1/x, or nothing
/// when 1/x is exact or a special value. (Rounded up, LLVM's 32-bit integer
/// division expansion overshoots for 34 divisors, e.g. 24683721:
/// utils/check-udiv32-estimate.cpp; K0 then computes another quotient
/// under this implementation, as it would on such hardware.)
uint32_t rcpPerturbation(uint32_t X) {
  float Ax = std::fabs(asF(X));
  if (!std::isnormal(Ax))
    return 0;
  float R = 1.0f / Ax;
  if (!std::isnormal(R))
    return 0;
  double P = double(R) * double(Ax); // exact: 24 x 24 bits
  if (P == 1.0)
    return 0;
  float T = std::nextafter(R, P > 1.0 ? 0.0f : INFINITY);
  return asU(R) ^ asU(T);
}
} // namespace

void approxHookBefore(Wave &W, const Inst &I) {
  Ctx &C = *W.C;
  Memory::Observer *Obs = C.Sh->Mem->Obs;
  // The operation: base mnemonic (encoding-independent), modifiers, MODE.
  llvm::StringRef Mn = I.D ? baseMnemonic(I.D->Mnemonic) : llvm::StringRef();
  uint64_t H = 0x243f6a8885a308d3ull;
  for (char Ch : Mn)
    H = mixHash(H, uint8_t(Ch));
  H = mixHash(H, uint64_t(I.Neg) | uint64_t(I.Abs) << 8 |
                     uint64_t(I.NegHi) << 16 | uint64_t(I.OpSel) << 24 |
                     uint64_t(I.OpSelHi) << 32 | uint64_t(I.Clamp) << 40 |
                     uint64_t(I.Omod) << 48);
  H = mixHash(H, uint64_t(I.DstSel) | uint64_t(I.DstUnused) << 8 |
                     uint64_t(I.SrcSel[0]) << 16 | uint64_t(I.SrcSel[1]) << 24 |
                     uint64_t(I.SrcSext[0]) << 32 |
                     uint64_t(I.SrcSext[1]) << 40);
  H = mixHash(H, uint64_t(I.DppCtrl) | uint64_t(I.RowMask) << 16 |
                     uint64_t(I.BankMask) << 24 | uint64_t(I.BoundCtrl) << 32 |
                     uint64_t(uint8_t(I.E)) << 40);
  H = mixHash(H, uint64_t(I.Off));
  H = mixHash(H, uint64_t(I.C0) | uint64_t(I.C1) << 32);
  H = mixHash(H, uint64_t(I.C2) | uint64_t(W.Mode) << 32);
  H = mixHash(H, uint64_t(I.Cbsz) | uint64_t(I.Abid) << 8 |
                     uint64_t(I.Blgp) << 16);
  // Uniform operands, and whole registers when lanes cross: DPP, and the
  // matrix instructions, whose result in a lane depends on every lane's A,
  // B and C (per-lane keys would let K1 regroup lanes between MFMAs with
  // the same per-lane multisets).
  bool Sparse = Mn.starts_with("v_smfmac");
  bool CrossLane = I.E == Enc::DPP || Sparse || Mn.starts_with("v_mfma");
  auto mixWholeRegisters = [&](const Opnd &O) {
    for (unsigned J = 0; J < O.Count; ++J) {
      const uint32_t *R = W.lanes(O, J);
      for (unsigned L = 0; L < 64; ++L)
        H = mixHash(H, R[L]);
    }
  };
  // SMFMAC reads its accumulator from the destination, not a source.
  if (Sparse && I.NDst >= 1 && I.Dst[0].isVReg())
    mixWholeRegisters(I.Dst[0]);
  for (unsigned K = 0; K < I.NSrc; ++K) {
    const Opnd &O = I.Src[K];
    H = mixHash(H, uint64_t(O.Kind) | uint64_t(O.Count) << 8);
    if (O.isVReg()) {
      if (CrossLane)
        mixWholeRegisters(O);
    } else if (O.Kind == OK::S) {
      for (unsigned J = 0; J < std::max<unsigned>(O.Count, 1); ++J)
        H = mixHash(H, W.S[(O.Reg + J) & 127]);
    } else {
      H = mixHash(H, readS64(W, O));
    }
  }
  uint64_t Exec = W.exec();
  bool PerLane = I.IsValu && !I.IsMem;
  std::fill(std::begin(C.ApproxMask), std::end(C.ApproxMask), 0u);
  if (!PerLane) {
    uint64_t K = H;
    for (unsigned Src = 0; Src < I.NSrc; ++Src) // memory ops: lane operands
      if (I.Src[Src].isVReg())
        for (unsigned L = 0; L < 64; ++L)
          if (Exec >> L & 1)
            for (unsigned J = 0; J < I.Src[Src].Count; ++J)
              K = mixHash(K, W.lanes(I.Src[Src], J)[L]);
    Obs->approx(C.WgLinear, W.Id, 0, K);
    return;
  }
  // Reciprocals get the documented error bound instead of low-bit flips
  // (plain VOP1/VOP3 forms with a register operand, no output modifiers).
  bool Rcp = (Mn == "v_rcp_iflag_f32" || Mn == "v_rcp_f32") &&
             I.E != Enc::DPP && I.E != Enc::SDWA && !I.Omod && !I.Clamp &&
             I.NSrc >= 1 && (I.Src[0].isVReg() || I.Src[0].Kind == OK::S);
  for (unsigned L = 0; L < 64; ++L) {
    if (!(Exec >> L & 1))
      continue;
    uint64_t K = H;
    for (unsigned Src = 0; Src < I.NSrc; ++Src) {
      const Opnd &O = I.Src[Src];
      if (!O.isVReg() || CrossLane)
        continue;
      for (unsigned J = 0; J < O.Count; ++J)
        K = mixHash(K, W.lanes(O, J)[L]);
    }
    uint32_t M = Obs->approx(C.WgLinear, W.Id, L, K);
    if (M && Rcp) {
      const Opnd &O = I.Src[0];
      uint32_t X = O.Kind == OK::S ? W.S[O.Reg & 127] : W.lanes(O)[L];
      M = rcpPerturbation(X);
    }
    // Under s_set_gpr_idx the destination is indexed: keep the value.
    C.ApproxMask[L] = W.GprIdxOn ? 0 : M;
    C.ApproxPending |= C.ApproxMask[L] != 0;
  }
}

void approxHookAfter(Wave &W, const Inst &I) {
  Ctx &C = *W.C;
  C.ApproxPending = false;
  if (W.St == Wave::Failed || !I.NDst || !I.Dst[0].isVReg())
    return;
  uint32_t *R = W.lanes(I.Dst[0]);
  for (unsigned L = 0; L < 64; ++L)
    R[L] ^= C.ApproxMask[L];
}

void poisonInitialState(Wave &W, unsigned NumInitSgprs) {
  uint64_t Seed = W.C->Sh->Mem->Obs->poisonSeed();
  if (!Seed)
    return;
  uint64_t H = mixHash(mixHash(Seed, W.C->WgLinear), W.Id);
  // Each value is keyed by where it lives, not drawn from one stream: K0 and
  // K1 that allocate different numbers of registers (amdgcn-regcompact)
  // must see the same poison in the same places (a stream shifted the LDS
  // poison by the AGPRs allocated and made equal kernels differ).
  auto at = [&](uint64_t Space, uint64_t Index) {
    return uint32_t(mixHash(mixHash(H, Space), Index) >> 16);
  };
  // SGPRs the ABI does not set; EXEC, flat_scratch, xnack_mask and the
  // trap temporaries keep their values.
  for (unsigned R = NumInitSgprs; R < 102; ++R)
    W.S[R] = at(1, R);
  W.S[SVccLo] = at(1, SVccLo);
  W.S[SVccHi] = at(1, SVccHi);
  W.S[SM0] = at(1, SM0);
  uint64_t Exec = W.exec();
  for (unsigned R = 0; R < W.NumV; ++R)
    for (unsigned L = 0; L < 64; ++L)
      if (R || !(Exec >> L & 1))
        W.vreg(R)[L] = at(2, uint64_t(R) * 64 + L);
  for (unsigned R = 0; R < W.NumA; ++R)
    for (unsigned L = 0; L < 64; ++L)
      W.areg(R)[L] = at(3, uint64_t(R) * 64 + L);
  for (size_t I = 0; I < W.Priv.size(); ++I)
    W.Priv[I] = uint8_t(at(4, I));
  if (W.Id == 0) // the first wave of the workgroup: its LDS
    for (size_t I = 0; I < W.WG->Lds.size(); ++I)
      W.WG->Lds[I] = uint8_t(at(5, I));
}

} // namespace emu
} // namespace asmevo
