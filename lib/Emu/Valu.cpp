//===- Valu.cpp - Vector ALU: VOP1/VOP2/VOP3/VOP3P/VOPC, DPP, SDWA -------===//
//
// Operands come from the pre-decoded Inst (registers and constants from the
// MCInst); neg/abs/op_sel/clamp/omod, SDWA selects and DPP controls come from
// the encoding bits (Program.cpp). Float semantics: IEEE-754 round to
// nearest even on the host; NaN results keep the first NaN operand's payload
// (quieted). Opcodes whose hardware results are not specified bit for bit
// (transcendentals, v_mad_f32's flushing) are declared Approximate.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

using namespace llvm;

namespace asmevo {
namespace emu {

namespace {

struct LaneCtx {
  Wave *W;
  unsigned L = 0;
  bool Cin = false;
  bool Cout = false;
  bool Clamp = false;
  const char *Err = nullptr; // set by an op: unsupported case
};

inline float F(uint64_t X) { return asF(uint32_t(X)); }
inline uint64_t U(float X) { return asU(X); }
inline double Dd(uint64_t X) { return asD(X); }
inline uint64_t U(double X) { return asU64(X); }

// f16 <-> f32 conversions (IEEE binary16), exact bit manipulation.
float h2f(uint16_t H) {
  uint32_t S = uint32_t(H & 0x8000) << 16, E = (H >> 10) & 0x1f, M = H & 0x3ff;
  uint32_t R;
  if (E == 0x1f)
    R = S | 0x7f800000 | (M << 13);
  else if (E)
    R = S | ((E + 112) << 23) | (M << 13);
  else if (!M)
    R = S;
  else {
    int Sh = 0;
    while (!(M & 0x400)) {
      M <<= 1;
      ++Sh;
    }
    R = S | ((113 - Sh) << 23) | ((M & 0x3ff) << 13);
  }
  return asF(R);
}
uint16_t f2h(float Fl, bool Rtz = false) {
  uint32_t X = asU(Fl);
  uint16_t S = (X >> 16) & 0x8000;
  uint32_t E = (X >> 23) & 0xff, M = X & 0x7fffff;
  if (E == 0xff)
    return S | 0x7c00 | (M ? 0x200 | (M >> 13) : 0);
  int Exp = int(E) - 127;
  if (Exp > 15)
    return Rtz ? S | 0x7bff : S | 0x7c00;
  uint32_t Mant = M | (E ? 0x800000 : 0);
  // Target: value = Mant * 2^(Exp-23). f16 has 10 fraction bits, min exp -14.
  int Shift; // right shift of Mant to get f16 significand (with implicit bit)
  uint16_t HE;
  if (Exp >= -14) {
    Shift = 13;
    HE = uint16_t(Exp + 15);
  } else {
    Shift = 13 + (-14 - Exp);
    HE = 0;
    if (Shift > 24 + 1) {
      // Far below the smallest denormal.
      return S;
    }
  }
  uint32_t Q = Shift >= 32 ? 0 : Mant >> Shift;
  uint32_t Rem = Shift >= 32 ? Mant : Mant & ((1u << Shift) - 1);
  uint32_t Half = 1u << (Shift - 1);
  if (!Rtz && (Rem > Half || (Rem == Half && (Q & 1))))
    ++Q;
  // Q includes the implicit bit for normals (bit 10).
  uint32_t R;
  if (HE) {
    if (Q & 0x800) { // mantissa overflow
      Q >>= 1;
      ++HE;
    }
    if (HE >= 31)
      return Rtz ? S | 0x7bff : S | 0x7c00;
    R = (uint32_t(HE) << 10) | (Q & 0x3ff);
  } else {
    R = Q; // denormal (may round up into the smallest normal: still right)
  }
  return S | uint16_t(R);
}

bool isSNaN32(uint32_t X) {
  return (X & 0x7f800000) == 0x7f800000 && (X & 0x7fffff) && !(X & 0x400000);
}
uint32_t quiet32(uint32_t X) { return X | 0x400000; }
bool isSNaN64(uint64_t X) {
  return (X & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
         (X & 0xfffffffffffffull) && !(X & 0x8000000000000ull);
}

// v_max/v_min: IEEE mode quiets sNaN inputs (returns NaN); otherwise a NaN
// operand yields the other operand. -0 < +0.
template <bool Max> uint32_t minmax32(uint32_t A, uint32_t B, bool Ieee) {
  float X = asF(A), Y = asF(B);
  bool NA = X != X, NB = Y != Y;
  if (NA && NB)
    return quiet32(A);
  if (NA)
    return (Ieee && isSNaN32(A)) ? quiet32(A) : B;
  if (NB)
    return (Ieee && isSNaN32(B)) ? quiet32(B) : A;
  if (X == Y) { // equal or +-0
    bool SA = A >> 31, SB = B >> 31;
    if (Max)
      return SA && !SB ? B : A;
    return !SA && SB ? B : A;
  }
  return (Max ? X > Y : X < Y) ? A : B;
}
template <bool Max> uint64_t minmax64(uint64_t A, uint64_t B, bool Ieee) {
  double X = asD(A), Y = asD(B);
  bool NA = X != X, NB = Y != Y;
  if (NA && NB)
    return A | 0x8000000000000ull;
  if (NA)
    return (Ieee && isSNaN64(A)) ? (A | 0x8000000000000ull) : B;
  if (NB)
    return (Ieee && isSNaN64(B)) ? (B | 0x8000000000000ull) : A;
  if (X == Y) {
    bool SA = A >> 63, SB = B >> 63;
    if (Max)
      return SA && !SB ? B : A;
    return !SA && SB ? B : A;
  }
  return (Max ? X > Y : X < Y) ? A : B;
}

uint32_t cvtI32(double X) {
  if (X != X)
    return 0;
  if (X >= 2147483647.0)
    return 0x7fffffff;
  if (X <= -2147483648.0)
    return 0x80000000u;
  return uint32_t(int32_t(X));
}
uint32_t cvtU32(double X) {
  if (X != X || X <= 0)
    return 0;
  if (X >= 4294967295.0)
    return 0xffffffffu;
  return uint32_t(X);
}

//===----------------------------------------------------------------------===//
// Generic operand fetch / writeback
//===----------------------------------------------------------------------===//

using LaneVals = uint64_t[64];

// DPP (gfx9): source lane for dst lane L, or -1 when invalid.
int dppSrcLane(unsigned Ctrl, unsigned L) {
  unsigned Row = L & ~15u, In = L & 15;
  if (Ctrl <= 0xff)
    return (L & ~3u) | ((Ctrl >> ((L & 3) * 2)) & 3);
  if (Ctrl >= 0x101 && Ctrl <= 0x10f) { // row_shl
    unsigned N = Ctrl & 15;
    return In + N < 16 ? int(L + N) : -1;
  }
  if (Ctrl >= 0x111 && Ctrl <= 0x11f) { // row_shr
    unsigned N = Ctrl & 15;
    return In >= N ? int(L - N) : -1;
  }
  if (Ctrl >= 0x121 && Ctrl <= 0x12f) // row_ror
    return Row | ((In - (Ctrl & 15)) & 15);
  switch (Ctrl) {
  case 0x130: // wave_shl:1
    return L < 63 ? int(L + 1) : -1;
  case 0x134: // wave_rol:1
    return (L + 1) & 63;
  case 0x138: // wave_shr:1
    return L > 0 ? int(L - 1) : -1;
  case 0x13c: // wave_ror:1
    return (L - 1) & 63;
  case 0x140: // row_mirror
    return Row | (15 - In);
  case 0x141: // row_half_mirror
    return (L & ~7u) | (7 - (L & 7));
  case 0x142: // row_bcast:15
    return Row ? int(Row - 1) : -1;
  case 0x143: // row_bcast:31
    return L >= 32 ? 31 : -1;
  }
  return -2; // unsupported control
}

bool applyDpp(Wave &W, const Inst &I, uint64_t *V, uint64_t &WriteMask) {
  uint64_t Exec = W.exec();
  uint64_t Tmp[64];
  uint64_t Mask = 0;
  for (unsigned L = 0; L < 64; ++L) {
    unsigned Row = L >> 4, Bank = (L >> 2) & 3;
    if (!((I.RowMask >> Row) & 1) || !((I.BankMask >> Bank) & 1)) {
      Tmp[L] = 0;
      continue;
    }
    int S = dppSrcLane(I.DppCtrl, L);
    if (S == -2)
      return false;
    if (S < 0 || !((Exec >> S) & 1)) {
      if (I.BoundCtrl) {
        Tmp[L] = 0;
        Mask |= 1ull << L;
      } else {
        Tmp[L] = 0;
      }
      continue;
    }
    Tmp[L] = V[S];
    Mask |= 1ull << L;
  }
  std::memcpy(V, Tmp, sizeof(Tmp));
  WriteMask &= Mask;
  return true;
}

void applySdwaSrc(const Inst &I, unsigned K, uint64_t *V) {
  unsigned Sel = I.SrcSel[K];
  if (Sel == 6)
    return;
  bool Sext = I.SrcSext[K];
  for (unsigned L = 0; L < 64; ++L) {
    uint32_t X = uint32_t(V[L]);
    uint32_t R;
    if (Sel <= 3) {
      R = (X >> (8 * Sel)) & 0xff;
      if (Sext)
        R = uint32_t(int32_t(int8_t(R)));
    } else {
      R = (X >> (16 * (Sel - 4))) & 0xffff;
      if (Sext)
        R = uint32_t(int32_t(int16_t(R)));
    }
    V[L] = R;
  }
}

struct Fetcher {
  Wave &W;
  const Inst &I;
  uint64_t WriteMask = ~0ull;
  bool Bad = false;
  void fetch(unsigned K, unsigned Bits, bool Float, uint64_t *Out) {
    const Opnd &O = I.Src[K];
    if (O.Kind == OK::V || O.Kind == OK::A) {
      const uint32_t *P = W.lanes(O);
      if (Bits == 64) {
        const uint32_t *Q = P + 64;
        for (unsigned L = 0; L < 64; ++L)
          Out[L] = P[L] | uint64_t(Q[L]) << 32;
      } else {
        for (unsigned L = 0; L < 64; ++L)
          Out[L] = P[L];
      }
    } else {
      uint64_t V;
      if (Bits == 64)
        V = readS64(W, O);
      else
        V = readS32(W, O);
      for (unsigned L = 0; L < 64; ++L)
        Out[L] = V;
    }
    if (I.Simple) {
      if (Bits == 16)
        for (unsigned L = 0; L < 64; ++L)
          Out[L] &= 0xffff;
      return;
    }
    if (I.E == Enc::DPP && K == 0)
      if (!applyDpp(W, I, Out, WriteMask))
        Bad = true;
    if (I.E == Enc::SDWA && K < 2)
      applySdwaSrc(I, K, Out);
    if (Bits == 16) {
      bool Hi = I.E == Enc::VOP3 && ((I.OpSel >> K) & 1);
      for (unsigned L = 0; L < 64; ++L)
        Out[L] = (Hi ? Out[L] >> 16 : Out[L]) & 0xffff;
    }
    if (Float && K < 3) {
      uint64_t Sign = 1ull << (Bits - 1);
      if ((I.Abs >> K) & 1)
        for (unsigned L = 0; L < 64; ++L)
          Out[L] &= ~Sign;
      if ((I.Neg >> K) & 1)
        for (unsigned L = 0; L < 64; ++L)
          Out[L] ^= Sign;
    }
  }
};

/// The output modifier (x2, x4, /2) and clamp to [0, 1] of a float result
/// (a NaN clamps to 0 under DX10_CLAMP, else stays NaN).
template <typename F> static F omodClamp(const Inst &I, const Wave &W, F X) {
  if (I.Omod == 1)
    X *= F(2);
  else if (I.Omod == 2)
    X *= F(4);
  else if (I.Omod == 3)
    X *= F(0.5);
  if (I.Clamp) {
    if (X != X)
      X = W.Dx10Clamp ? F(0) : X;
    else
      X = X < F(0) ? F(0) : X > F(1) ? F(1) : X;
  }
  return X;
}

uint64_t applyOmodClamp(const Inst &I, Wave &W, uint64_t R, unsigned FBits) {
  if (FBits == 32)
    return asU(omodClamp(I, W, asF(uint32_t(R))));
  if (FBits == 64)
    return asU64(omodClamp(I, W, asD(R)));
  if (FBits == 16) // in float: x2, x4 and /2 of a half are exact there
    return f2h(omodClamp(I, W, h2f(uint16_t(R))));
  return R;
}

void writeVec(Wave &W, const Inst &I, const Opnd &D, const uint64_t *Res,
              uint64_t Mask, unsigned Bits) {
  uint32_t *P = W.lanes(D);
  if (!P)
    return W.fail(ErrorKind::Unsupported, I, "VALU result to a non-VGPR");
  if (Bits == 64) {
    uint32_t *Q = P + 64;
    forEachLane(Mask, [&](unsigned L) {
      P[L] = uint32_t(Res[L]);
      Q[L] = uint32_t(Res[L] >> 32);
    });
    return;
  }
  if (I.E == Enc::SDWA && (I.DstSel != 6 || Bits == 16)) {
    unsigned Sel = I.DstSel;
    forEachLane(Mask, [&](unsigned L) {
      uint32_t R = uint32_t(Res[L]), Old = P[L], V;
      unsigned Lo, Wd;
      if (Sel <= 3) {
        Lo = 8 * Sel;
        Wd = 8;
      } else if (Sel <= 5) {
        Lo = 16 * (Sel - 4);
        Wd = 16;
      } else {
        Lo = 0;
        Wd = 32;
      }
      uint32_t FM = Wd == 32 ? ~0u : ((1u << Wd) - 1) << Lo;
      uint32_t Field = (R << Lo) & FM;
      if (I.DstUnused == 2) // preserve
        V = (Old & ~FM) | Field;
      else if (I.DstUnused == 1 && Wd < 32) { // sign extend upward
        V = Field;
        if ((R >> (Wd - 1)) & 1)
          V |= ~((1u << (Lo + Wd)) - 1);
      } else
        V = Field;
      P[L] = V;
    });
    return;
  }
  if (Bits == 16) {
    bool Hi = I.E == Enc::VOP3 && ((I.OpSel >> 3) & 1);
    forEachLane(Mask, [&](unsigned L) {
      uint32_t R = uint32_t(Res[L]) & 0xffff;
      P[L] = Hi ? (P[L] & 0xffff) | (R << 16) : (P[L] & 0xffff0000u) | R;
    });
    return;
  }
  forEachLane(Mask, [&](unsigned L) { P[L] = uint32_t(Res[L]); });
}

// Op traits: N sources of widths B0..B2 (F = float mask), result width DB,
// float result width FR (omod/clamp), CIN: index of the lane-mask carry-in
// source (-1 none), COUT: writes carry-out mask to Dst[1], ICLAMP: the op
// handles integer clamp itself.
template <class Op> void hValu(Wave &W, const Inst &I) {
  if (!Op::FR && !Op::ICLAMP && I.Clamp && I.E != Enc::E32)
    return W.fail(ErrorKind::Unsupported, I, "integer clamp on this opcode");
  if (!Op::FR && I.Omod)
    return W.fail(ErrorKind::Unsupported, I, "omod on an integer opcode");
  if (I.E == Enc::VOP3 && (((I.OpSel & 7) && Op::B0 != 16) ||
                           ((I.OpSel & 8) && Op::DB != 16)))
    return W.fail(ErrorKind::Unsupported, I,
                  "op_sel on an opcode without 16-bit operands");
  if ((Op::FR || Op::FM) && (W.Mode & 0xf))
    return W.fail(ErrorKind::Unsupported, I,
                  "non-default float rounding mode in MODE");
  if (Op::FR == 32 || (Op::FM && Op::B0 == 32)) {
    if (((W.Mode >> 4) & 3) != 3)
      return W.fail(ErrorKind::Unsupported, I,
                    "f32 denormal flushing mode is not modelled");
  } else if (Op::FR || Op::FM) {
    if (((W.Mode >> 6) & 3) != 3)
      return W.fail(ErrorKind::Unsupported, I,
                    "f64/f16 denormal flushing mode is not modelled");
  }
  LaneVals A, B, C;
  Fetcher Fe{W, I};
  if (Op::N >= 1)
    Fe.fetch(0, Op::B0, Op::FM & 1, A);
  if (Op::N >= 2)
    Fe.fetch(1, Op::B1, Op::FM & 2, B);
  if (Op::N >= 3)
    Fe.fetch(2, Op::B2, Op::FM & 4, C);
  if (Fe.Bad)
    return W.fail(ErrorKind::Unsupported, I, "unsupported DPP control");
  uint64_t Cin = 0;
  if (Op::CIN >= 0)
    Cin = readS64(W, I.Src[Op::CIN]);
  uint64_t Mask = W.exec() & Fe.WriteMask, Cout = 0;
  LaneVals R;
  LaneCtx X{&W};
  X.Clamp = I.Clamp;
  forEachLane(Mask, [&](unsigned L) {
    X.L = L;
    X.Cin = (Cin >> L) & 1;
    X.Cout = false;
    R[L] = Op::f(A[L], B[L], C[L], X);
    Cout |= uint64_t(X.Cout) << L;
  });
  if (X.Err)
    return W.fail(ErrorKind::Unsupported, I, X.Err);
  if (Op::FR && !I.Simple && (I.Omod || I.Clamp))
    forEachLane(Mask,
                [&](unsigned L) { R[L] = applyOmodClamp(I, W, R[L], Op::FR); });
  writeVec(W, I, I.Dst[0], R, Mask, Op::DB);
  if (Op::COUT)
    writeS64(W, I.Dst[1], Cout);
}

#define VOP(NAME, N_, B0_, B1_, B2_, DB_, F_, FR_, CIN_, COUT_, ICL_, ...)     \
  struct Op_##NAME {                                                           \
    static constexpr unsigned N = N_, B0 = B0_, B1 = B1_, B2 = B2_, DB = DB_,  \
                              FM = F_, FR = FR_;                                \
    static constexpr int CIN = CIN_;                                           \
    static constexpr bool COUT = COUT_, ICLAMP = ICL_;                         \
    static inline uint64_t f(uint64_t a, uint64_t b, uint64_t c,               \
                             LaneCtx &x) {                                     \
      (void)a;                                                                 \
      (void)b;                                                                 \
      (void)c;                                                                 \
      (void)x;                                                                 \
      __VA_ARGS__                                                              \
    }                                                                          \
  };
// Shorthands.
#define V1I(NAME, ...) VOP(NAME, 1, 32, 0, 0, 32, 0, 0, -1, false, false, __VA_ARGS__)
#define V2I(NAME, ...) VOP(NAME, 2, 32, 32, 0, 32, 0, 0, -1, false, false, __VA_ARGS__)
#define V3I(NAME, ...) VOP(NAME, 3, 32, 32, 32, 32, 0, 0, -1, false, false, __VA_ARGS__)
#define V1F(NAME, ...) VOP(NAME, 1, 32, 0, 0, 32, 1, 32, -1, false, false, __VA_ARGS__)
#define V2F(NAME, ...) VOP(NAME, 2, 32, 32, 0, 32, 3, 32, -1, false, false, __VA_ARGS__)
#define V3F(NAME, ...) VOP(NAME, 3, 32, 32, 32, 32, 7, 32, -1, false, false, __VA_ARGS__)
#define V1D(NAME, ...) VOP(NAME, 1, 64, 0, 0, 64, 1, 64, -1, false, false, __VA_ARGS__)
#define V2D(NAME, ...) VOP(NAME, 2, 64, 64, 0, 64, 3, 64, -1, false, false, __VA_ARGS__)
#define V3D(NAME, ...) VOP(NAME, 3, 64, 64, 64, 64, 7, 64, -1, false, false, __VA_ARGS__)
#define V1H(NAME, ...) VOP(NAME, 1, 16, 0, 0, 16, 1, 16, -1, false, false, __VA_ARGS__)
#define V2H(NAME, ...) VOP(NAME, 2, 16, 16, 0, 16, 3, 16, -1, false, false, __VA_ARGS__)
#define V3H(NAME, ...) VOP(NAME, 3, 16, 16, 16, 16, 7, 16, -1, false, false, __VA_ARGS__)

// --- integer 32 ---
V1I(v_mov_b32, return a;)
V1I(v_not_b32, return uint32_t(~a);)
V1I(v_bfrev_b32, return llvm::reverseBits<uint32_t>(uint32_t(a));)
V1I(v_ffbh_u32, { uint32_t v = a; return v ? __builtin_clz(v) : ~0u; })
V1I(v_ffbl_b32, { uint32_t v = a; return v ? __builtin_ctz(v) : ~0u; })
V1I(v_ffbh_i32, {
  uint32_t v = a;
  uint32_t y = int32_t(v) < 0 ? ~v : v;
  return y ? __builtin_clz(y) : ~0u;
})
VOP(v_add_u32, 2, 32, 32, 0, 32, 0, 0, -1, false, true, {
  uint64_t r = a + b;
  return x.Clamp && (r >> 32) ? 0xffffffffu : uint32_t(r);
})
VOP(v_sub_u32, 2, 32, 32, 0, 32, 0, 0, -1, false, true, {
  return x.Clamp && b > a ? 0u : uint32_t(a - b);
})
VOP(v_subrev_u32, 2, 32, 32, 0, 32, 0, 0, -1, false, true, {
  return x.Clamp && a > b ? 0u : uint32_t(b - a);
})
VOP(v_add_i32, 2, 32, 32, 0, 32, 0, 0, -1, false, true, {
  int64_t r = int64_t(int32_t(a)) + int32_t(b);
  if (x.Clamp)
    r = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r;
  return uint32_t(r);
})
VOP(v_sub_i32, 2, 32, 32, 0, 32, 0, 0, -1, false, true, {
  int64_t r = int64_t(int32_t(a)) - int32_t(b);
  if (x.Clamp)
    r = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r;
  return uint32_t(r);
})
VOP(v_add_co_u32, 2, 32, 32, 0, 32, 0, 0, -1, true, false, {
  uint64_t r = a + b;
  x.Cout = r >> 32;
  return uint32_t(r);
})
VOP(v_sub_co_u32, 2, 32, 32, 0, 32, 0, 0, -1, true, false, {
  x.Cout = b > a;
  return uint32_t(a - b);
})
VOP(v_subrev_co_u32, 2, 32, 32, 0, 32, 0, 0, -1, true, false, {
  x.Cout = a > b;
  return uint32_t(b - a);
})
VOP(v_addc_co_u32, 2, 32, 32, 0, 32, 0, 0, 2, true, false, {
  uint64_t r = a + b + x.Cin;
  x.Cout = r >> 32;
  return uint32_t(r);
})
VOP(v_subb_co_u32, 2, 32, 32, 0, 32, 0, 0, 2, true, false, {
  x.Cout = b + x.Cin > a;
  return uint32_t(a - b - x.Cin);
})
VOP(v_subbrev_co_u32, 2, 32, 32, 0, 32, 0, 0, 2, true, false, {
  x.Cout = a + x.Cin > b;
  return uint32_t(b - a - x.Cin);
})
VOP(v_cndmask_b32, 2, 32, 32, 0, 32, 3, 0, 2, false, false,
    return x.Cin ? b : a;)
V2I(v_and_b32, return a & b;)
V2I(v_or_b32, return a | b;)
V2I(v_xor_b32, return a ^ b;)
V2I(v_xnor_b32, return uint32_t(~(a ^ b));)
V2I(v_lshlrev_b32, return uint32_t(b << (a & 31));)
V2I(v_lshrrev_b32, return uint32_t(b) >> (a & 31);)
V2I(v_ashrrev_i32, return uint32_t(int32_t(b) >> (a & 31));)
V2I(v_min_i32, return int32_t(a) < int32_t(b) ? a : b;)
V2I(v_max_i32, return int32_t(a) > int32_t(b) ? a : b;)
V2I(v_min_u32, return uint32_t(a) < uint32_t(b) ? a : b;)
V2I(v_max_u32, return uint32_t(a) > uint32_t(b) ? a : b;)
V2I(v_mul_u32_u24, return uint32_t((a & 0xffffff) * (b & 0xffffff));)
V2I(v_mul_hi_u32_u24, return uint32_t(((a & 0xffffff) * (b & 0xffffff)) >> 32);)
V2I(v_mul_i32_i24, {
  int64_t p = int64_t(int32_t(uint32_t(a) << 8) >> 8) *
              int64_t(int32_t(uint32_t(b) << 8) >> 8);
  return uint32_t(p);
})
V2I(v_mul_hi_i32_i24, {
  int64_t p = int64_t(int32_t(uint32_t(a) << 8) >> 8) *
              int64_t(int32_t(uint32_t(b) << 8) >> 8);
  return uint32_t(uint64_t(p) >> 32);
})
V2I(v_mul_lo_u32, return uint32_t(a * b);)
V2I(v_mul_hi_u32, return uint32_t((a * b) >> 32);)
V2I(v_mul_hi_i32, {
  int64_t p = int64_t(int32_t(a)) * int64_t(int32_t(b));
  return uint32_t(uint64_t(p) >> 32);
})
V2I(v_bcnt_u32_b32, return __builtin_popcount(uint32_t(a)) + uint32_t(b);)
V2I(v_mbcnt_lo_u32_b32, {
  uint32_t m = x.L >= 32 ? ~0u : uint32_t((1ull << x.L) - 1);
  return __builtin_popcount(uint32_t(a) & m) + uint32_t(b);
})
V2I(v_mbcnt_hi_u32_b32, {
  uint32_t m = x.L < 32 ? 0u : uint32_t((1ull << (x.L - 32)) - 1);
  return __builtin_popcount(uint32_t(a) & m) + uint32_t(b);
})
V2I(v_bfm_b32, return ((1u << (a & 31)) - 1) << (b & 31);)
V3I(v_bfe_u32, {
  uint32_t off = b & 31, w = c & 31;
  return w == 0 ? 0u : (uint32_t(a) >> off) & ((1u << w) - 1);
})
V3I(v_bfe_i32, {
  uint32_t off = b & 31, w = c & 31;
  if (w == 0)
    return 0u;
  uint32_t v = uint32_t(a) >> off;
  return uint32_t(int32_t(v << (32 - w)) >> (32 - w));
})
V3I(v_bfi_b32, return (a & b) | (~a & c);)
V3I(v_alignbit_b32, {
  uint64_t v = (a << 32) | uint32_t(b);
  return uint32_t(v >> (c & 31));
})
V3I(v_alignbyte_b32, {
  uint64_t v = (a << 32) | uint32_t(b);
  return uint32_t(v >> (8 * (c & 3)));
})
V3I(v_add3_u32, return uint32_t(a + b + c);)
V3I(v_lshl_add_u32, return uint32_t((a << (b & 31)) + c);)
V3I(v_add_lshl_u32, return uint32_t(uint32_t(a + b) << (c & 31));)
V3I(v_lshl_or_b32, return uint32_t((a << (b & 31)) | c);)
V3I(v_and_or_b32, return uint32_t((a & b) | c);)
V3I(v_or3_b32, return uint32_t(a | b | c);)
V3I(v_xad_u32, return uint32_t((a ^ b) + c);)
V3I(v_mad_u32_u24, return uint32_t((a & 0xffffff) * (b & 0xffffff) + c);)
V3I(v_mad_i32_i24, {
  int64_t p = int64_t(int32_t(uint32_t(a) << 8) >> 8) *
              int64_t(int32_t(uint32_t(b) << 8) >> 8);
  return uint32_t(p + int32_t(c));
})
V3I(v_mad_u32_u16, return uint32_t((a & 0xffff) * (b & 0xffff) + c);)
V3I(v_mad_i32_i16, {
  return uint32_t(int32_t(int16_t(a)) * int32_t(int16_t(b)) + int32_t(c));
})
V3I(v_min3_i32, {
  int32_t x0 = a, x1 = b, x2 = c;
  return uint32_t(std::min(std::min(x0, x1), x2));
})
V3I(v_max3_i32, {
  int32_t x0 = a, x1 = b, x2 = c;
  return uint32_t(std::max(std::max(x0, x1), x2));
})
V3I(v_med3_i32, {
  int32_t x0 = a, x1 = b, x2 = c;
  return uint32_t(std::max(std::min(x0, x1), std::min(std::max(x0, x1), x2)));
})
V3I(v_min3_u32, {
  uint32_t x0 = a, x1 = b, x2 = c;
  return std::min(std::min(x0, x1), x2);
})
V3I(v_max3_u32, {
  uint32_t x0 = a, x1 = b, x2 = c;
  return std::max(std::max(x0, x1), x2);
})
V3I(v_med3_u32, {
  uint32_t x0 = a, x1 = b, x2 = c;
  return std::max(std::min(x0, x1), std::min(std::max(x0, x1), x2));
})
// Byte permute of {S0, S1} by selectors in S2 (CDNA3 ISA V_PERM_B32).
uint32_t permByte(uint64_t Data, uint32_t Sel) {
  Sel &= 0xff;
  if (Sel >= 13)
    return 0xff;
  if (Sel == 12)
    return 0;
  if (Sel == 11)
    return (Data >> 63) & 1 ? 0xff : 0;
  if (Sel == 10)
    return (Data >> 47) & 1 ? 0xff : 0;
  if (Sel == 9)
    return (Data >> 31) & 1 ? 0xff : 0;
  if (Sel == 8)
    return (Data >> 15) & 1 ? 0xff : 0;
  return (Data >> (8 * Sel)) & 0xff;
}
V3I(v_perm_b32, {
  uint64_t d = (a << 32) | uint32_t(b);
  uint32_t s = c;
  return permByte(d, s) | permByte(d, s >> 8) << 8 | permByte(d, s >> 16) << 16 |
         permByte(d, s >> 24) << 24;
})
V3I(v_lerp_u8, {
  uint32_t r = 0;
  for (int k = 0; k < 4; ++k) {
    uint32_t p = (a >> (8 * k)) & 0xff, q = (b >> (8 * k)) & 0xff,
             s = (c >> (8 * k)) & 1;
    r |= ((p + q + s) >> 1) << (8 * k);
  }
  return r;
})
V3I(v_sad_u8, {
  uint32_t s = 0;
  for (int k = 0; k < 4; ++k) {
    int p = (a >> (8 * k)) & 0xff, q = (b >> (8 * k)) & 0xff;
    s += p > q ? p - q : q - p;
  }
  return uint32_t(s + c);
})
V3I(v_sad_hi_u8, {
  uint32_t s = 0;
  for (int k = 0; k < 4; ++k) {
    int p = (a >> (8 * k)) & 0xff, q = (b >> (8 * k)) & 0xff;
    s += p > q ? p - q : q - p;
  }
  return uint32_t((s << 16) + c);
})
V3I(v_sad_u16, {
  uint32_t s = 0;
  for (int k = 0; k < 2; ++k) {
    int p = (a >> (16 * k)) & 0xffff, q = (b >> (16 * k)) & 0xffff;
    s += p > q ? p - q : q - p;
  }
  return uint32_t(s + c);
})
V3I(v_sad_u32, {
  uint32_t p = a, q = b;
  return uint32_t((p > q ? p - q : q - p) + c);
})
// Masked SAD: reference bytes (S1) equal to 0 are skipped.
V3I(v_msad_u8, {
  uint32_t s = 0;
  for (int k = 0; k < 4; ++k) {
    int p = (a >> (8 * k)) & 0xff, q = (b >> (8 * k)) & 0xff;
    if (q)
      s += p > q ? p - q : q - p;
  }
  return uint32_t(s + c);
})
V2I(v_cvt_pk_u16_u32, {
  uint32_t p = a, q = b;
  return (p > 0xffff ? 0xffffu : p) | (q > 0xffff ? 0xffffu : q) << 16;
})
V2I(v_cvt_pk_i16_i32, {
  int32_t p = a, q = b;
  auto sat = [](int32_t v) {
    return uint32_t(uint16_t(v > 32767 ? 32767 : v < -32768 ? -32768 : v));
  };
  return sat(p) | sat(q) << 16;
})
V2I(v_pack_b32_f16, return (a & 0xffff) | (b & 0xffff) << 16;)

// --- 64-bit integer ---
VOP(v_lshlrev_b64, 2, 32, 64, 0, 64, 0, 0, -1, false, false,
    return b << (a & 63);)
VOP(v_lshrrev_b64, 2, 32, 64, 0, 64, 0, 0, -1, false, false,
    return b >> (a & 63);)
VOP(v_ashrrev_i64, 2, 32, 64, 0, 64, 0, 0, -1, false, false,
    return uint64_t(int64_t(b) >> (a & 63));)
VOP(v_lshl_add_u64, 3, 64, 32, 64, 64, 0, 0, -1, false, false,
    return (a << (b & 7)) + c;)
VOP(v_mov_b64, 1, 64, 0, 0, 64, 0, 0, -1, false, false, return a;)
VOP(v_mad_u64_u32, 3, 32, 32, 64, 64, 0, 0, -1, true, false, {
  unsigned __int128 r = (unsigned __int128)(uint32_t(a) * uint64_t(uint32_t(b))) + c;
  x.Cout = uint64_t(r >> 64) != 0;
  return uint64_t(r);
})
VOP(v_mad_i64_i32, 3, 32, 32, 64, 64, 0, 0, -1, true, false, {
  __int128 r = (__int128)(int64_t(int32_t(a)) * int64_t(int32_t(b))) +
               (__int128)int64_t(c);
  x.Cout = r > (__int128)INT64_MAX || r < (__int128)INT64_MIN;
  return uint64_t(r);
})

// --- f32 ---
V2F(v_add_f32, return U(F(a) + F(b));)
V2F(v_sub_f32, return U(F(a) - F(b));)
V2F(v_subrev_f32, return U(F(b) - F(a));)
V2F(v_mul_f32, return U(F(a) * F(b));)
V2F(v_mul_legacy_f32, {
  float p = F(a), q = F(b);
  if (p == 0.0f || q == 0.0f) // 0 * anything (inf, NaN) = 0
    return U(std::signbit(p) != std::signbit(q) ? -0.0f : 0.0f);
  return U(p * q);
})
V2F(v_min_f32, return minmax32<false>(a, b, x.W->Ieee);)
V2F(v_max_f32, return minmax32<true>(a, b, x.W->Ieee);)
V3F(v_fma_f32, return U(std::fma(F(a), F(b), F(c)));)
V3F(v_fmac_f32, return U(std::fma(F(a), F(b), F(c)));)
V3F(v_mac_f32, return U(F(a) * F(b) + F(c));)
V3F(v_mad_f32, return U(F(a) * F(b) + F(c));)
V3F(v_madmk_f32, return U(F(a) * F(c) + F(b));)
V3F(v_madak_f32, return U(F(a) * F(b) + F(c));)
V3F(v_fmamk_f32, return U(std::fma(F(a), F(c), F(b)));)
V3F(v_fmaak_f32, return U(std::fma(F(a), F(b), F(c)));)
V3F(v_min3_f32, return minmax32<false>(minmax32<false>(a, b, x.W->Ieee), c,
                                       x.W->Ieee);)
V3F(v_max3_f32, return minmax32<true>(minmax32<true>(a, b, x.W->Ieee), c,
                                      x.W->Ieee);)
V3F(v_med3_f32, {
  float p = F(a), q = F(b), r = F(c);
  bool ie = x.W->Ieee;
  if (p != p || q != q || r != r)
    return minmax32<false>(minmax32<false>(a, b, ie), c, ie);
  uint64_t mx = minmax32<true>(minmax32<true>(a, b, ie), c, ie);
  if (mx == a)
    return minmax32<true>(b, c, ie);
  if (mx == b)
    return minmax32<true>(a, c, ie);
  return minmax32<true>(a, b, ie);
})
V1F(v_trunc_f32, return U(std::trunc(F(a)));)
V1F(v_ceil_f32, return U(std::ceil(F(a)));)
V1F(v_floor_f32, return U(std::floor(F(a)));)
V1F(v_rndne_f32, return U(std::nearbyint(F(a)));)
V1F(v_fract_f32, {
  float v = F(a);
  if (std::isinf(v))
    return U(std::numeric_limits<float>::quiet_NaN());
  if (v != v)
    return quiet32(uint32_t(a));
  float r = v - std::floor(v);
  return U(std::min(r, asF(0x3f7fffff)));
})
V1F(v_exp_f32, return U(std::exp2(F(a)));)
V1F(v_log_f32, return U(std::log2(F(a)));)
V1F(v_rcp_f32, return U(1.0f / F(a));)
V1F(v_rcp_iflag_f32, return U(1.0f / F(a));)
V1F(v_rsq_f32, return U(float(1.0 / std::sqrt(double(F(a)))));)
V1F(v_sqrt_f32, return U(std::sqrt(F(a)));)
V1F(v_sin_f32, return U(float(std::sin(double(F(a)) * 6.283185307179586)));)
V1F(v_cos_f32, return U(float(std::cos(double(F(a)) * 6.283185307179586)));)
V1F(v_frexp_mant_f32, {
  float v = F(a);
  if (std::isinf(v) || v != v || v == 0.0f)
    return a;
  int e;
  return U(std::frexp(v, &e));
})
VOP(v_frexp_exp_i32_f32, 1, 32, 0, 0, 32, 1, 0, -1, false, false, {
  float v = F(a);
  if (std::isinf(v) || v != v || v == 0.0f)
    return 0u;
  int e;
  std::frexp(v, &e);
  return uint32_t(e);
})
VOP(v_ldexp_f32, 2, 32, 32, 0, 32, 1, 32, -1, false, false,
    return U(std::ldexp(F(a), int32_t(b)));)
VOP(v_cvt_f32_i32, 1, 32, 0, 0, 32, 0, 32, -1, false, false,
    return U(float(int32_t(a)));)
VOP(v_cvt_f32_u32, 1, 32, 0, 0, 32, 0, 32, -1, false, false,
    return U(float(uint32_t(a)));)
VOP(v_cvt_i32_f32, 1, 32, 0, 0, 32, 1, 0, -1, false, false,
    return cvtI32(F(a));)
VOP(v_cvt_u32_f32, 1, 32, 0, 0, 32, 1, 0, -1, false, false,
    return cvtU32(F(a));)
VOP(v_cvt_rpi_i32_f32, 1, 32, 0, 0, 32, 1, 0, -1, false, false,
    return cvtI32(std::floor(double(F(a)) + 0.5));)
VOP(v_cvt_flr_i32_f32, 1, 32, 0, 0, 32, 1, 0, -1, false, false,
    return cvtI32(std::floor(double(F(a))));)
#define UBYTE(N)                                                               \
  VOP(v_cvt_f32_ubyte##N, 1, 32, 0, 0, 32, 0, 32, -1, false, false,            \
      return U(float((a >> (8 * N)) & 0xff));)
UBYTE(0)
UBYTE(1)
UBYTE(2)
UBYTE(3)
VOP(v_cvt_f16_f32, 1, 32, 0, 0, 16, 1, 16, -1, false, false,
    return f2h(F(a));)
VOP(v_cvt_f32_f16, 1, 16, 0, 0, 32, 1, 32, -1, false, false,
    return U(h2f(uint16_t(a)));)
VOP(v_cvt_pkrtz_f16_f32, 2, 32, 32, 0, 32, 3, 0, -1, false, false,
    return uint32_t(f2h(F(a), true)) | uint32_t(f2h(F(b), true)) << 16;)
VOP(v_cvt_f32_f64, 1, 64, 0, 0, 32, 1, 32, -1, false, false,
    return U(float(Dd(a)));)
VOP(v_cvt_f64_f32, 1, 32, 0, 0, 64, 1, 64, -1, false, false,
    return U(double(F(a)));)
VOP(v_cvt_f64_i32, 1, 32, 0, 0, 64, 0, 64, -1, false, false,
    return U(double(int32_t(a)));)
VOP(v_cvt_f64_u32, 1, 32, 0, 0, 64, 0, 64, -1, false, false,
    return U(double(uint32_t(a)));)
VOP(v_cvt_i32_f64, 1, 64, 0, 0, 32, 1, 0, -1, false, false,
    return cvtI32(Dd(a));)
VOP(v_cvt_u32_f64, 1, 64, 0, 0, 32, 1, 0, -1, false, false,
    return cvtU32(Dd(a));)

// Division helpers: v_div_scale, v_div_fmas and v_div_fixup as the AMD
// CDNA3/CDNA4 ISA pseudo-code defines them, with three corrections or
// refusals where the pseudo-code cannot be what the hardware does (a
// correctly rounded quotient of LLVM's fdiv expansion needs otherwise):
// - v_div_fmas scales by 2^32 (2^64) in the PDF, which undoes neither of
//   v_div_scale's 2^64 (2^128) scalings. The scale must be 2^+-64 (2^+-128):
//   up when v_div_scale scaled the denominator (the scaled quotient is then
//   at least 2^31 (2^639)), down when it scaled the numerator of a
//   subnormal quotient (then below 2^-62 (2^-894)). The direction is taken
//   from S2 (the quotient estimate) outside a wide window around 1 and
//   refused inside it, where no LLVM expansion puts it.
// - f32: the pseudo-code's "1.0 / 64'F(S1) == DENORM.f64" never holds, so
//   a denominator above 2^126 would reach v_rcp_f32 (which flushes
//   subnormal results) unscaled: refused.
// - f64: the branch "1/S1 and S2/S1 subnormal" scales an already huge
//   denominator up by 2^128 (to infinity): refused.
// v_div_fmas's downscaled result may be subnormal: whether the scale is
// applied before or after the FMA's rounding is not documented; refused
// when the two roundings differ.
bool subnormal32(float X) { return std::fpclassify(X) == FP_SUBNORMAL; }
bool subnormal64(double X) { return std::fpclassify(X) == FP_SUBNORMAL; }

uint32_t divScale32(uint32_t A, uint32_t B, uint32_t C, LaneCtx &X) {
  float S0 = asF(A), Den = asF(B), Num = asF(C);
  X.Cout = false;
  if (Num == 0.0f || Den == 0.0f)
    return 0xffc00000u; // NAN.f32: AMD's generated NaN (div_fixup's 0/0)
  int EN = (C >> 23) & 0xff, ED = (B >> 23) & 0xff;
  if (EN - ED >= 96) { // N/D near the largest float
    X.Cout = true;
    return S0 == Den ? asU(std::ldexp(S0, 64)) : A;
  }
  if (subnormal32(Den))
    return asU(std::ldexp(S0, 64));
  if (std::isfinite(Den) && std::fabs(Den) > 0x1p126f) {
    X.Err = "v_div_scale_f32 with a denominator above 2^126 (its reciprocal "
            "is subnormal; the documented scaling does not cover it)";
    return A;
  }
  if (subnormal32(Num / Den)) {
    X.Cout = true;
    return S0 == Num ? asU(std::ldexp(S0, 64)) : A;
  }
  if (EN <= 23) // tiny numerator
    return asU(std::ldexp(S0, 64));
  return A;
}

uint64_t divScale64(uint64_t A, uint64_t B, uint64_t C, LaneCtx &X) {
  double S0 = asD(A), Den = asD(B), Num = asD(C);
  X.Cout = false;
  if (Num == 0.0 || Den == 0.0)
    return 0xfff8000000000000ull; // NAN.f64, as div_fixup's 0/0
  int EN = int(C >> 52) & 0x7ff, ED = int(B >> 52) & 0x7ff;
  if (EN - ED >= 768) {
    X.Cout = true;
    return S0 == Den ? asU64(std::ldexp(S0, 128)) : A;
  }
  if (subnormal64(Den))
    return asU64(std::ldexp(S0, 128));
  bool RcpSub = subnormal64(1.0 / Den), QSub = subnormal64(Num / Den);
  if (RcpSub && QSub) {
    X.Err = "v_div_scale_f64 with a subnormal reciprocal and quotient (the "
            "documented scaling overflows the denominator)";
    return A;
  }
  if (RcpSub)
    return asU64(std::ldexp(S0, -128));
  if (QSub) {
    X.Cout = true;
    return S0 == Num ? asU64(std::ldexp(S0, 128)) : A;
  }
  if (EN <= 53)
    return asU64(std::ldexp(S0, 128));
  return A;
}

uint32_t divFmas32(uint32_t A, uint32_t B, uint32_t C, LaneCtx &X) {
  float P = asF(A), Q = asF(B), S2 = asF(C);
  float R = std::fma(P, Q, S2);
  if (!X.Cin)
    return asU(R);
  float M = std::fabs(S2);
  bool Up = !(M < 0x1p16f), Down = M < 0x1p-40f;
  if (!Up && !Down) {
    X.Err = "v_div_fmas_f32 with VCC set and a quotient estimate near 1 "
            "(scale direction not documented)";
    return asU(R);
  }
  if (Up || !std::isfinite(R) || R == 0.0f)
    return asU(Up ? std::ldexp(R, 64) : R);
  // Down: R * 2^-64 may be subnormal. The exact A*B+C is Hi + Lo (the
  // product is exact in double, TwoSum gives the addition's error).
  double Pr = double(P) * double(Q), Hi = Pr + double(S2);
  double Bv = Hi - Pr, Lo = (Pr - (Hi - Bv)) + (double(S2) - Bv);
  double Hs = std::ldexp(Hi, -64), Ls = std::ldexp(Lo, -64);
  float Once = float(Hs); // round to nearest of Hi alone ...
  if (Ls != 0.0 && double(Once) != Hs) {
    // ... differs from Hi + Lo only when Hi is a midpoint.
    float Other =
        std::nextafter(Once, Hs > double(Once) ? INFINITY : -INFINITY);
    if (std::fabs(Hs - double(Once)) == std::fabs(double(Other) - Hs))
      Once = (Ls > 0) == (double(Other) > double(Once)) ? Other : Once;
  }
  float Twice = float(std::ldexp(double(R), -64));
  if (asU(Once) != asU(Twice))
    X.Err = "v_div_fmas_f32 subnormal result whose rounding depends on "
            "whether the 2^-64 scale is fused (not documented)";
  return asU(Once);
}

uint64_t divFmas64(uint64_t A, uint64_t B, uint64_t C, LaneCtx &X) {
  double P = asD(A), Q = asD(B), S2 = asD(C);
  double R = std::fma(P, Q, S2);
  if (!X.Cin)
    return asU64(R);
  double M = std::fabs(S2);
  bool Up = !(M < 0x1p500), Down = M < 0x1p-800;
  if (!Up && !Down) {
    X.Err = "v_div_fmas_f64 with VCC set and a quotient estimate near 1 "
            "(scale direction not documented)";
    return asU64(R);
  }
  if (Up || !std::isfinite(R) || R == 0.0)
    return asU64(Up ? std::ldexp(R, 128) : R);
  double D = std::ldexp(R, -128); // rounds once, from the rounded FMA
  // It differs from one rounding of the exact A*B+C only when R lies on a
  // midpoint of the subnormal grid and the FMA was inexact.
  double Back = std::ldexp(D, 128);
  if (Back != R && std::fabs(R - Back) == std::ldexp(1.0, -1074 + 128 - 1)) {
    double Ph = P * Q, Pl = std::fma(P, Q, -Ph);
    double Hi = Ph + S2, Bv = Hi - Ph;
    double Lo = (Ph - (Hi - Bv)) + (S2 - Bv);
    if (Pl != 0.0 || Lo != 0.0 || Hi != R)
      X.Err = "v_div_fmas_f64 subnormal result on a rounding midpoint "
              "(whether the 2^-128 scale is fused is not documented)";
  }
  return asU64(D);
}

VOP(v_div_scale_f32, 3, 32, 32, 32, 32, 7, 32, -1, true, false,
    return divScale32(uint32_t(a), uint32_t(b), uint32_t(c), x);)
VOP(v_div_scale_f64, 3, 64, 64, 64, 64, 7, 64, -1, true, false,
    return divScale64(a, b, c, x);)
VOP(v_div_fmas_f32, 3, 32, 32, 32, 32, 7, 32, 3, false, false,
    return divFmas32(uint32_t(a), uint32_t(b), uint32_t(c), x);)
VOP(v_div_fmas_f64, 3, 64, 64, 64, 64, 7, 64, 3, false, false,
    return divFmas64(a, b, c, x);)
VOP(v_div_fixup_f32, 3, 32, 32, 32, 32, 7, 32, -1, false, false, {
  float q = F(a), den = F(b), num = F(c);
  bool sgn = std::signbit(den) != std::signbit(num);
  if (num != num)
    return quiet32(uint32_t(c));
  if (den != den)
    return quiet32(uint32_t(b));
  if (den == 0.0f && num == 0.0f)
    return 0xffc00000u;
  if (std::isinf(den) && std::isinf(num))
    return 0xffc00000u;
  if (den == 0.0f || std::isinf(num))
    return U(sgn ? -INFINITY : INFINITY);
  if (std::isinf(den) || num == 0.0f)
    return U(sgn ? -0.0f : 0.0f);
  // UNDERFLOW_F32: the quotient is below 2^-150 and rounds to zero.
  if (int(c >> 23 & 0xff) - int(b >> 23 & 0xff) < -150)
    return U(sgn ? -0.0f : 0.0f);
  if (q != q)
    x.Err = "v_div_fixup_f32 with a NaN quotient is not modelled";
  return U(sgn ? -std::fabs(q) : std::fabs(q));
})
VOP(v_div_fixup_f64, 3, 64, 64, 64, 64, 7, 64, -1, false, false, {
  double q = Dd(a), den = Dd(b), num = Dd(c);
  bool sgn = std::signbit(den) != std::signbit(num);
  if (num != num)
    return c | 0x8000000000000ull;
  if (den != den)
    return b | 0x8000000000000ull;
  if (den == 0.0 && num == 0.0)
    return 0xfff8000000000000ull;
  if (std::isinf(den) && std::isinf(num))
    return 0xfff8000000000000ull;
  if (den == 0.0 || std::isinf(num))
    return U(sgn ? -double(INFINITY) : double(INFINITY));
  if (std::isinf(den) || num == 0.0)
    return U(sgn ? -0.0 : 0.0);
  // UNDERFLOW_F64: the quotient is below 2^-1075 and rounds to zero.
  if (int(c >> 52 & 0x7ff) - int(b >> 52 & 0x7ff) < -1075)
    return U(sgn ? -0.0 : 0.0);
  if (q != q)
    x.Err = "v_div_fixup_f64 with a NaN quotient is not modelled";
  return U(sgn ? -std::fabs(q) : std::fabs(q));
})

// --- f64 ---
V2D(v_add_f64, return U(Dd(a) + Dd(b));)
V2D(v_mul_f64, return U(Dd(a) * Dd(b));)
V2D(v_min_f64, return minmax64<false>(a, b, x.W->Ieee);)
V2D(v_max_f64, return minmax64<true>(a, b, x.W->Ieee);)
V3D(v_fma_f64, return U(std::fma(Dd(a), Dd(b), Dd(c)));)
V3D(v_fmac_f64, return U(std::fma(Dd(a), Dd(b), Dd(c)));)
VOP(v_ldexp_f64, 2, 64, 32, 0, 64, 1, 64, -1, false, false,
    return U(std::ldexp(Dd(a), int32_t(b)));)
V1D(v_trunc_f64, return U(std::trunc(Dd(a)));)
V1D(v_ceil_f64, return U(std::ceil(Dd(a)));)
V1D(v_floor_f64, return U(std::floor(Dd(a)));)
V1D(v_rndne_f64, return U(std::nearbyint(Dd(a)));)
V1D(v_fract_f64, {
  double v = Dd(a);
  if (std::isinf(v))
    return U(std::numeric_limits<double>::quiet_NaN());
  if (v != v)
    return a | 0x8000000000000ull;
  return U(std::min(v - std::floor(v), asD(0x3fefffffffffffffull)));
})
V1D(v_rcp_f64, return U(1.0 / Dd(a));)
V1D(v_rsq_f64, return U(1.0 / std::sqrt(Dd(a)));)
V1D(v_sqrt_f64, return U(std::sqrt(Dd(a)));)
V1D(v_frexp_mant_f64, {
  double v = Dd(a);
  if (std::isinf(v) || v != v || v == 0.0)
    return a;
  int e;
  return U(std::frexp(v, &e));
})
VOP(v_frexp_exp_i32_f64, 1, 64, 0, 0, 32, 1, 0, -1, false, false, {
  double v = Dd(a);
  if (std::isinf(v) || v != v || v == 0.0)
    return 0u;
  int e;
  std::frexp(v, &e);
  return uint32_t(e);
})

// --- f16 (upper 16 bits of the destination preserved; see docs) ---
V2H(v_add_f16, return f2h(h2f(a) + h2f(b));)
V2H(v_sub_f16, return f2h(h2f(a) - h2f(b));)
V2H(v_subrev_f16, return f2h(h2f(b) - h2f(a));)
V2H(v_mul_f16, return f2h(h2f(a) * h2f(b));)
V3H(v_fma_f16, return f2h(float(std::fma(double(h2f(a)), double(h2f(b)),
                                         double(h2f(c)))));)
V3H(v_fmac_f16, return f2h(float(std::fma(double(h2f(a)), double(h2f(b)),
                                          double(h2f(c)))));)
V2H(v_max_f16, {
  return f2h(asF(minmax32<true>(U(h2f(a)), U(h2f(b)), x.W->Ieee)));
})
V2H(v_min_f16, {
  return f2h(asF(minmax32<false>(U(h2f(a)), U(h2f(b)), x.W->Ieee)));
})


// --- 16-bit integer and more f16 (upper half kept; see docs) ---
#define V2S(NAME, ...) VOP(NAME, 2, 16, 16, 0, 16, 0, 0, -1, false, false, __VA_ARGS__)
#define V3S(NAME, ...) VOP(NAME, 3, 16, 16, 16, 16, 0, 0, -1, false, false, __VA_ARGS__)
V2S(v_lshlrev_b16, return uint16_t(b << (a & 15));)
V2S(v_lshrrev_b16, return uint16_t(uint16_t(b) >> (a & 15));)
V2S(v_ashrrev_i16, return uint16_t(int16_t(b) >> (a & 15));)
V2S(v_add_u16, return uint16_t(a + b);)
V2S(v_sub_u16, return uint16_t(a - b);)
V2S(v_subrev_u16, return uint16_t(b - a);)
V2S(v_mul_lo_u16, return uint16_t(a * b);)
V2S(v_max_u16, return uint16_t(a) > uint16_t(b) ? a : b;)
V2S(v_min_u16, return uint16_t(a) < uint16_t(b) ? a : b;)
V2S(v_max_i16, return int16_t(a) > int16_t(b) ? a : b;)
V2S(v_min_i16, return int16_t(a) < int16_t(b) ? a : b;)
V3S(v_mad_u16, return uint16_t(a * b + c);)
V3S(v_mad_i16, return uint16_t(int16_t(a) * int16_t(b) + int16_t(c));)
V1H(v_sqrt_f16, return f2h(std::sqrt(h2f(a)));)
V1H(v_rcp_f16, return f2h(1.0f / h2f(a));)
V1H(v_rsq_f16, return f2h(float(1.0 / std::sqrt(double(h2f(a)))));)
V1H(v_exp_f16, return f2h(std::exp2(h2f(a)));)
V1H(v_log_f16, return f2h(std::log2(h2f(a)));)
V1H(v_floor_f16, return f2h(std::floor(h2f(a)));)
V1H(v_ceil_f16, return f2h(std::ceil(h2f(a)));)
V1H(v_trunc_f16, return f2h(std::trunc(h2f(a)));)
V1H(v_rndne_f16, return f2h(std::nearbyint(h2f(a)));)
VOP(v_cvt_f16_u16, 1, 16, 0, 0, 16, 0, 16, -1, false, false,
    return f2h(float(uint16_t(a)));)
VOP(v_cvt_f16_i16, 1, 16, 0, 0, 16, 0, 16, -1, false, false,
    return f2h(float(int16_t(a)));)
VOP(v_cvt_u16_f16, 1, 16, 0, 0, 16, 1, 0, -1, false, false, {
  float v = h2f(a);
  return v != v || v <= 0 ? 0u : v >= 65535.0f ? 0xffffu : uint32_t(v);
})
VOP(v_cvt_i16_f16, 1, 16, 0, 0, 16, 1, 0, -1, false, false, {
  float v = h2f(a);
  return v != v ? 0u : uint16_t(int16_t(v >= 32767.0f ? 32767 : v <= -32768.0f ? -32768 : int(v)));
})
VOP(v_ldexp_f16, 2, 16, 16, 0, 16, 1, 16, -1, false, false,
    return f2h(std::ldexp(h2f(a), int16_t(b)));)
V3H(v_max3_f16, {
  bool ie = x.W->Ieee;
  return f2h(asF(minmax32<true>(minmax32<true>(U(h2f(a)), U(h2f(b)), ie), U(h2f(c)), ie)));
})
V3H(v_min3_f16, {
  bool ie = x.W->Ieee;
  return f2h(asF(minmax32<false>(minmax32<false>(U(h2f(a)), U(h2f(b)), ie), U(h2f(c)), ie)));
})

// --- Dot products (exact for integers; f16 dot approximate) ---
// Integer clamp: LLVM (AMDGPUUsage: "the i1 fourth operand is used to clamp
// the output") and the ISA text available do not say whether the hardware
// saturates once at the end or after each partial sum, nor in which order or
// grouping it adds. When the positive terms (accumulator and products) and
// the negative ones each sum into the destination's range, every partial sum
// in any order and grouping lies between the two, nothing saturates under any
// of those rules and the result is the exact sum; otherwise it depends on the
// rule and is refused. Without clamp the sum wraps (modular, any order).
template <unsigned N>
inline uint64_t dotSum(int64_t Acc, const int64_t (&P)[N], bool Signed,
                       LaneCtx &x) {
  int64_t Pos = Acc > 0 ? Acc : 0, Neg = Acc < 0 ? Acc : 0;
  for (int64_t T : P)
    (T > 0 ? Pos : Neg) += T;
  int64_t Lo = Signed ? INT32_MIN : 0;
  int64_t Hi = Signed ? INT32_MAX : int64_t(UINT32_MAX);
  if (x.Clamp && (Pos > Hi || Neg < Lo))
    x.Err = "integer clamp of a dot product whose partial sums can leave "
            "the destination's range: the result depends on the order of "
            "saturation, which the ISA documentation does not give";
  return uint32_t(uint64_t(Pos + Neg));
}
#define V3IC(NAME, ...)                                                        \
  VOP(NAME, 3, 32, 32, 32, 32, 0, 0, -1, false, true, __VA_ARGS__)
V3IC(v_dot4_i32_i8, {
  int64_t p[4];
  for (int k = 0; k < 4; ++k)
    p[k] = int64_t(int8_t(a >> (8 * k))) * int8_t(b >> (8 * k));
  return dotSum(int32_t(c), p, true, x);
})
V3IC(v_dot4c_i32_i8, {
  int64_t p[4];
  for (int k = 0; k < 4; ++k)
    p[k] = int64_t(int8_t(a >> (8 * k))) * int8_t(b >> (8 * k));
  return dotSum(int32_t(c), p, true, x);
})
V3IC(v_dot4_u32_u8, {
  int64_t p[4];
  for (int k = 0; k < 4; ++k)
    p[k] = int64_t((a >> (8 * k)) & 0xff) * int64_t((b >> (8 * k)) & 0xff);
  return dotSum(int64_t(uint32_t(c)), p, false, x);
})
V3IC(v_dot2_i32_i16, {
  int64_t p[2];
  for (int k = 0; k < 2; ++k)
    p[k] = int64_t(int16_t(a >> (16 * k))) * int16_t(b >> (16 * k));
  return dotSum(int32_t(c), p, true, x);
})
V3IC(v_dot2_u32_u16, {
  int64_t p[2];
  for (int k = 0; k < 2; ++k)
    p[k] =
        int64_t((a >> (16 * k)) & 0xffff) * int64_t((b >> (16 * k)) & 0xffff);
  return dotSum(int64_t(uint32_t(c)), p, false, x);
})
V3IC(v_dot8_i32_i4, {
  int64_t p[8];
  for (int k = 0; k < 8; ++k)
    p[k] = int64_t(int32_t(uint32_t(a) << (28 - 4 * k)) >> 28) *
           (int32_t(uint32_t(b) << (28 - 4 * k)) >> 28);
  return dotSum(int32_t(c), p, true, x);
})
V3IC(v_dot8_u32_u4, {
  int64_t p[8];
  for (int k = 0; k < 8; ++k)
    p[k] = int64_t((a >> (4 * k)) & 15) * int64_t((b >> (4 * k)) & 15);
  return dotSum(int64_t(uint32_t(c)), p, false, x);
})
VOP(v_dot2c_f32_f16, 3, 32, 32, 32, 32, 0, 32, -1, false, false, {
  double s = double(h2f(uint16_t(a))) * h2f(uint16_t(b)) +
             double(h2f(uint16_t(a >> 16))) * h2f(uint16_t(b >> 16));
  return U(float(s + double(F(c))));
})
VOP(v_dot2_f32_f16, 3, 32, 32, 32, 32, 0, 32, -1, false, false, {
  double s = double(h2f(uint16_t(a))) * h2f(uint16_t(b)) +
             double(h2f(uint16_t(a >> 16))) * h2f(uint16_t(b >> 16));
  return U(float(s + double(F(c))));
})

// --- fp8/bf8 (gfx942 FNUZ formats) to f32: exact decodes (Internal.h) ---
VOP(v_cvt_f32_fp8, 1, 32, 0, 0, 32, 0, 32, -1, false, false,
    return U(fp8e4m3fnuzToF32(uint8_t(a)));)
VOP(v_cvt_f32_bf8, 1, 32, 0, 0, 32, 0, 32, -1, false, false,
    return U(bf8e5m2fnuzToF32(uint8_t(a)));)
VOP(v_cvt_pk_f32_fp8, 1, 32, 0, 0, 64, 0, 0, -1, false, false,
    return uint64_t(U(fp8e4m3fnuzToF32(uint8_t(a)))) |
           uint64_t(U(fp8e4m3fnuzToF32(uint8_t(a >> 8)))) << 32;)
VOP(v_cvt_pk_f32_bf8, 1, 32, 0, 0, 64, 0, 0, -1, false, false,
    return uint64_t(U(bf8e5m2fnuzToF32(uint8_t(a)))) |
           uint64_t(U(bf8e5m2fnuzToF32(uint8_t(a >> 8)))) << 32;)

// --- f32 -> fp8/bf8 (gfx942 FNUZ: e4m3 bias 8, e5m2 bias 16, no infinities,
// 0x80 the only NaN, no negative zero) ---
// Status of one conversion: exact result, or a case whose hardware result is
// not documented (infinity, a rounded magnitude above the largest finite
// value): the instruction is refused rather than guessed.
struct F8Result {
  uint8_t Code = 0;
  const char *Err = nullptr;
};
// Converts the f32 bits X. MantBits/Bias/MaxExp describe the format. SR:
// stochastic rounding, adding the dropped-bit count of low bits of Rand to
// the discarded fraction before truncating (AMD's reference conversion,
// cast_to_f8 in hipBLASLt/CK); otherwise round to nearest even.
F8Result f32ToF8(uint32_t X, unsigned MantBits, int Bias, bool SR,
                 uint32_t Rand) {
  F8Result R;
  uint32_t S = X >> 31, Ex = (X >> 23) & 0xff, Mx = X & 0x7fffff;
  if (Ex == 0xff) {
    if (Mx) {
      R.Code = 0x80; // NaN
      return R;
    }
    R.Err = "f32 infinity to fp8/bf8 (saturation behaviour not modelled)";
    return R;
  }
  // Value = Sig * 2^E2.
  uint64_t Sig = Ex ? (Mx | 0x800000u) : Mx;
  int E2 = Ex ? int(Ex) - 150 : -149;
  if (!Sig) {
    R.Code = 0; // +-0 -> 0 (FNUZ has no negative zero)
    return R;
  }
  int U = E2 + (63 - __builtin_clzll(Sig));      // floor(log2(value))
  int Q = std::max(U, 1 - Bias) - int(MantBits); // quantum exponent
  int Shift = Q - E2;
  uint64_t N;
  if (Shift <= 0) {
    N = Sig << -Shift;
  } else {
    uint64_t Rem = Shift >= 64 ? Sig : Sig & ((uint64_t(1) << Shift) - 1);
    N = Shift >= 64 ? 0 : Sig >> Shift;
    if (SR) {
      uint64_t RB = Shift >= 32 ? Rand : Rand & ((uint64_t(1) << Shift) - 1);
      if (Shift < 64 && Rem + RB >= (uint64_t(1) << Shift))
        ++N;
    } else if (Shift < 64) {
      uint64_t Half = uint64_t(1) << (Shift - 1);
      if (Rem > Half || (Rem == Half && (N & 1)))
        ++N;
    }
  }
  if (!N) {
    R.Code = 0;
    return R;
  }
  unsigned One = 1u << MantBits;
  if (N >= 2 * One) { // rounded up into the next binade
    N >>= 1;
    ++Q;
  }
  unsigned E = N >= One ? unsigned(Q + int(MantBits) + Bias) : 0;
  unsigned MaxE = MantBits == 3 ? 15 : 31;
  if (E > MaxE) {
    R.Err = "f32 to fp8/bf8 overflow (saturation behaviour not modelled)";
    return R;
  }
  unsigned M = N >= One ? unsigned(N - One) : unsigned(N);
  R.Code = uint8_t(S << 7 | E << MantBits | M);
  return R;
}

// v_cvt_pk_{fp8,bf8}_f32 D, S0, S1: D.word[op_sel dst] = {f8(S1), f8(S0)},
// the other word kept. v_cvt_sr_{fp8,bf8}_f32 D, S0, S1: D.byte[op_sel[3:2]]
// = f8(S0) rounded stochastically with the random bits S1, the other bytes
// kept.
template <bool Bf8, bool SR> void hCvtToF8(Wave &W, const Inst &I) {
  if (I.Clamp)
    return W.fail(ErrorKind::Unsupported, I,
                  "clamp on f32 -> fp8/bf8 (saturation not modelled)");
  if (I.Omod)
    return W.fail(ErrorKind::Unsupported, I, "omod on f32 -> fp8/bf8");
  if (I.E != Enc::VOP3 || I.Dst[0].Kind != OK::V || I.NSrc < 2)
    return W.fail(ErrorKind::Invalid, I, "unexpected f32 -> fp8/bf8 form");
  if ((I.OpSel & 3) || (!SR && (I.OpSel & 4)))
    return W.fail(ErrorKind::Unsupported, I, "op_sel on an f32 source");
  if ((W.Mode & 0xf) || ((W.Mode >> 4) & 3) != 3)
    return W.fail(ErrorKind::Unsupported, I,
                  "non-default rounding or f32 denormal mode in MODE");
  uint64_t A[64], B[64];
  Fetcher Fe{W, I};
  Fe.fetch(0, 32, true, A);
  // The random bits of SR are an integer: no float modifiers.
  if (SR && ((I.Neg | I.Abs) & 2))
    return W.fail(ErrorKind::Unsupported, I, "neg/abs on the random bits");
  Fe.fetch(1, 32, !SR, B);
  unsigned MB = Bf8 ? 2 : 3;
  int Bias = Bf8 ? 16 : 8;
  uint32_t *P = W.vreg(I.Dst[0].Reg);
  uint64_t Mask = W.exec();
  for (unsigned L = 0; L < 64; ++L) {
    if (!((Mask >> L) & 1))
      continue;
    F8Result X = f32ToF8(uint32_t(A[L]), MB, Bias, SR, uint32_t(B[L]));
    if (X.Err)
      return W.fail(ErrorKind::Unsupported, I,
                    std::string(X.Err) + " (lane " + std::to_string(L) + ")");
    if (SR) {
      unsigned Sh = 8 * ((I.OpSel >> 2) & 3);
      P[L] = (P[L] & ~(0xffu << Sh)) | uint32_t(X.Code) << Sh;
      continue;
    }
    F8Result Y = f32ToF8(uint32_t(B[L]), MB, Bias, false, 0);
    if (Y.Err)
      return W.fail(ErrorKind::Unsupported, I,
                    std::string(Y.Err) + " (lane " + std::to_string(L) + ")");
    uint32_t Word = X.Code | uint32_t(Y.Code) << 8;
    P[L] = (I.OpSel & 8) ? (P[L] & 0xffff) | Word << 16
                         : (P[L] & 0xffff0000u) | Word;
  }
}

// --- VOP3P packed and mixed ---
// Packed: lo result from halves selected by op_sel, hi from op_sel_hi; neg
// applies to lo, neg_hi to hi.
template <class Fn> void packed16(Wave &W, const Inst &I, unsigned N, Fn f) {
  uint64_t A[3][64];
  Fetcher Fe{W, I};
  for (unsigned K = 0; K < N; ++K)
    Fe.fetch(K, 32, false, A[K]);
  uint64_t Mask = W.exec();
  uint32_t *P = W.vreg(I.Dst[0].Reg);
  if (I.Dst[0].Kind != OK::V)
    return W.fail(ErrorKind::Unsupported, I, "packed result to non-VGPR");
  for (unsigned L = 0; L < 64; ++L) {
    if (!((Mask >> L) & 1))
      continue;
    uint16_t Lo[3], Hi[3];
    for (unsigned K = 0; K < N; ++K) {
      uint32_t V = uint32_t(A[K][L]);
      Lo[K] = ((I.OpSel >> K) & 1) ? V >> 16 : V & 0xffff;
      Hi[K] = ((I.OpSelHi >> K) & 1) ? V >> 16 : V & 0xffff;
    }
    uint32_t RLo = f(Lo, I.Neg, I.Clamp), RHi = f(Hi, I.NegHi, I.Clamp);
    P[L] = (RLo & 0xffff) | (RHi << 16);
  }
}
float hn(uint16_t V, uint8_t Neg, unsigned K) {
  float X = h2f(V);
  return ((Neg >> K) & 1) ? -X : X;
}
uint32_t clampH(float X, bool Cl) {
  if (Cl)
    X = X != X ? 0.0f : X < 0 ? 0.0f : X > 1 ? 1.0f : X;
  return f2h(X);
}
void h_v_pk_fma_f16(Wave &W, const Inst &I) {
  packed16(W, I, 3, [](uint16_t *S, uint8_t Ng, bool Cl) {
    return clampH(float(std::fma(double(hn(S[0], Ng, 0)), double(hn(S[1], Ng, 1)),
                                 double(hn(S[2], Ng, 2)))),
                  Cl);
  });
}
void h_v_pk_mul_f16(Wave &W, const Inst &I) {
  packed16(W, I, 2, [](uint16_t *S, uint8_t Ng, bool Cl) {
    return clampH(hn(S[0], Ng, 0) * hn(S[1], Ng, 1), Cl);
  });
}
void h_v_pk_add_f16(Wave &W, const Inst &I) {
  packed16(W, I, 2, [](uint16_t *S, uint8_t Ng, bool Cl) {
    return clampH(hn(S[0], Ng, 0) + hn(S[1], Ng, 1), Cl);
  });
}
void h_v_pk_add_u16(Wave &W, const Inst &I) {
  packed16(W, I, 2, [](uint16_t *S, uint8_t, bool) {
    return uint32_t(uint16_t(S[0] + S[1]));
  });
}
void h_v_pk_sub_u16(Wave &W, const Inst &I) {
  packed16(W, I, 2, [](uint16_t *S, uint8_t, bool) {
    return uint32_t(uint16_t(S[0] - S[1]));
  });
}
void h_v_pk_mul_lo_u16(Wave &W, const Inst &I) {
  packed16(W, I, 2, [](uint16_t *S, uint8_t, bool) {
    return uint32_t(uint16_t(S[0] * S[1]));
  });
}
void h_v_pk_lshlrev_b16(Wave &W, const Inst &I) {
  packed16(W, I, 2, [](uint16_t *S, uint8_t, bool) {
    return uint32_t(uint16_t(S[1] << (S[0] & 15)));
  });
}
void h_v_pk_lshrrev_b16(Wave &W, const Inst &I) {
  packed16(W, I, 2, [](uint16_t *S, uint8_t, bool) {
    return uint32_t(uint16_t(S[1] >> (S[0] & 15)));
  });
}
void h_v_pk_max_f16(Wave &W, const Inst &I) {
  bool Ie = W.Ieee;
  packed16(W, I, 2, [Ie](uint16_t *S, uint8_t Ng, bool Cl) {
    return clampH(asF(minmax32<true>(U(hn(S[0], Ng, 0)), U(hn(S[1], Ng, 1)), Ie)),
                  Cl);
  });
}
void h_v_pk_min_f16(Wave &W, const Inst &I) {
  bool Ie = W.Ieee;
  packed16(W, I, 2, [Ie](uint16_t *S, uint8_t Ng, bool Cl) {
    return clampH(asF(minmax32<false>(U(hn(S[0], Ng, 0)), U(hn(S[1], Ng, 1)), Ie)),
                  Cl);
  });
}

// v_fma_mix*: op_sel_hi[i] = 1: source i is f16 (op_sel[i] picks the half),
// else f32. neg = negate, neg_hi = abs.
template <int Kind> void hFmaMix(Wave &W, const Inst &I) {
  uint64_t A[3][64];
  Fetcher Fe{W, I};
  for (unsigned K = 0; K < 3; ++K)
    Fe.fetch(K, 32, false, A[K]);
  uint64_t Mask = W.exec();
  if (I.Dst[0].Kind != OK::V)
    return W.fail(ErrorKind::Unsupported, I, "mix result to non-VGPR");
  uint32_t *P = W.vreg(I.Dst[0].Reg);
  for (unsigned L = 0; L < 64; ++L) {
    if (!((Mask >> L) & 1))
      continue;
    float S[3];
    for (unsigned K = 0; K < 3; ++K) {
      uint32_t V = uint32_t(A[K][L]);
      float X = ((I.OpSelHi >> K) & 1)
                    ? h2f(((I.OpSel >> K) & 1) ? V >> 16 : V & 0xffff)
                    : asF(V);
      if ((I.NegHi >> K) & 1)
        X = std::fabs(X);
      if ((I.Neg >> K) & 1)
        X = -X;
      S[K] = X;
    }
    float R = std::fma(S[0], S[1], S[2]);
    if (I.Clamp)
      R = R != R ? 0.0f : R < 0 ? 0.0f : R > 1 ? 1.0f : R;
    if (Kind == 0)
      P[L] = asU(R);
    else if (Kind == 1)
      P[L] = (P[L] & 0xffff0000u) | f2h(R);
    else
      P[L] = (P[L] & 0xffff) | uint32_t(f2h(R)) << 16;
  }
}

// Packed f32 (gfx90a+): each half is a 32-bit lane of a 64-bit register pair.
template <int Kind> void hPkF32(Wave &W, const Inst &I) {
  unsigned N = Kind == 2 ? 3 : 2;
  uint64_t A[3][64];
  Fetcher Fe{W, I};
  for (unsigned K = 0; K < N; ++K)
    Fe.fetch(K, 64, false, A[K]);
  uint64_t Mask = W.exec();
  if (I.Dst[0].Kind != OK::V)
    return W.fail(ErrorKind::Unsupported, I, "packed result to non-VGPR");
  uint32_t *P = W.vreg(I.Dst[0].Reg), *Q = P + 64;
  for (unsigned L = 0; L < 64; ++L) {
    if (!((Mask >> L) & 1))
      continue;
    float Lo[3], Hi[3];
    for (unsigned K = 0; K < N; ++K) {
      uint64_t V = A[K][L];
      uint32_t X = ((I.OpSel >> K) & 1) ? uint32_t(V >> 32) : uint32_t(V);
      uint32_t Y = ((I.OpSelHi >> K) & 1) ? uint32_t(V >> 32) : uint32_t(V);
      Lo[K] = ((I.Neg >> K) & 1) ? -asF(X) : asF(X);
      Hi[K] = ((I.NegHi >> K) & 1) ? -asF(Y) : asF(Y);
    }
    float RL, RH;
    if (Kind == 0) {
      RL = Lo[0] + Lo[1];
      RH = Hi[0] + Hi[1];
    } else if (Kind == 1) {
      RL = Lo[0] * Lo[1];
      RH = Hi[0] * Hi[1];
    } else {
      RL = std::fma(Lo[0], Lo[1], Lo[2]);
      RH = std::fma(Hi[0], Hi[1], Hi[2]);
    }
    P[L] = asU(RL);
    Q[L] = asU(RH);
  }
}
void h_v_pk_mov_b32(Wave &W, const Inst &I) {
  uint64_t A[2][64];
  Fetcher Fe{W, I};
  Fe.fetch(0, 64, false, A[0]);
  Fe.fetch(1, 64, false, A[1]);
  uint64_t Mask = W.exec();
  uint32_t *P = W.vreg(I.Dst[0].Reg), *Q = P + 64;
  for (unsigned L = 0; L < 64; ++L) {
    if (!((Mask >> L) & 1))
      continue;
    uint32_t Lo = (I.OpSel & 1) ? uint32_t(A[0][L] >> 32) : uint32_t(A[0][L]);
    uint32_t Hi = (I.OpSel & 2) ? uint32_t(A[1][L] >> 32) : uint32_t(A[1][L]);
    P[L] = Lo;
    Q[L] = Hi;
  }
}

// --- Compares (VOPC) ---
enum CmpT { TF32, TF64, TF16, TI32, TU32, TI64, TU64, TI16, TU16 };
template <typename T> int cmpResult(T A, T B, unsigned P, bool Float) {
  bool Un = Float && (A != A || B != B);
  switch (P) {
  case 0: return 0;                  // f
  case 1: return A < B;              // lt
  case 2: return A == B;             // eq
  case 3: return A <= B;             // le
  case 4: return A > B;              // gt
  case 5: return Float ? (A < B || A > B) : A != B; // lg / ne
  case 6: return A >= B;             // ge
  case 7: return Float ? !Un : 1;    // o / t
  case 8: return Un;                 // u
  case 9: return !(A >= B);          // nge
  case 10: return !(A < B || A > B); // nlg
  case 11: return !(A > B);          // ngt
  case 12: return !(A <= B);         // nle
  case 13: return !(A == B);         // neq
  case 14: return !(A < B);          // nlt
  case 15: return 1;                 // tru
  }
  return 0;
}
unsigned classBits(double X, bool Snan) {
  if (X != X)
    return Snan ? 1 : 2;
  bool Neg = std::signbit(X);
  if (std::isinf(X))
    return Neg ? 1u << 2 : 1u << 9;
  if (X == 0)
    return Neg ? 1u << 5 : 1u << 6;
  return 0;
}
// A compare's lane mask with the predicate as a constant: cmpResult's
// switch folds away, leaving no branch on P in the lane loop. Get(L) gives
// lane L's operands.
template <unsigned P, bool Float, class Get>
uint64_t cmpLanesP(uint64_t Mask, const Get &G) {
  uint64_t R = 0;
  forEachLane(Mask, [&](unsigned L) {
    auto V = G(L);
    R |= uint64_t(cmpResult(V.first, V.second, P, Float)) << L;
  });
  return R;
}
template <bool Float, class Get>
uint64_t cmpLanes(uint64_t Mask, unsigned P, const Get &G) {
  switch (P) {
#define CMP_P(N)                                                               \
  case N:                                                                      \
    return cmpLanesP<N, Float>(Mask, G);
    CMP_P(0)
    CMP_P(1) CMP_P(2) CMP_P(3) CMP_P(4) CMP_P(5) CMP_P(6) CMP_P(7) CMP_P(8)
        CMP_P(9) CMP_P(10) CMP_P(11) CMP_P(12) CMP_P(13) CMP_P(14) CMP_P(15)
#undef CMP_P
  }
  return 0; // cmpResult's value for any other predicate
}
void hCmp(Wave &W, const Inst &I) {
  unsigned T = I.Aux & 0xff, P = (I.Aux >> 8) & 0xff;
  bool Cmpx = (I.Aux >> 16) & 1, Class = (I.Aux >> 17) & 1;
  unsigned Bits = (T == TF64 || T == TI64 || T == TU64) ? 64
                  : (T == TF16 || T == TI16 || T == TU16) ? 16
                                                          : 32;
  bool Float = T == TF32 || T == TF64 || T == TF16;
  uint64_t A[64], B[64];
  Fetcher Fe{W, I};
  Fe.fetch(0, Bits, Float, A);
  Fe.fetch(1, Class ? 32 : Bits, Float && !Class, B);
  if (Fe.Bad)
    return W.fail(ErrorKind::Unsupported, I, "unsupported DPP control");
  uint64_t Mask = W.exec() & Fe.WriteMask, R = 0;
  if (!Class) {
    auto Pair = [](auto X, auto Y) { return std::make_pair(X, Y); };
    switch (T) {
    case TF32:
      R = cmpLanes<true>(Mask, P,
                         [&](unsigned L) { return Pair(F(A[L]), F(B[L])); });
      break;
    case TF64:
      R = cmpLanes<true>(Mask, P,
                         [&](unsigned L) { return Pair(Dd(A[L]), Dd(B[L])); });
      break;
    case TF16:
      R = cmpLanes<true>(
          Mask, P, [&](unsigned L) { return Pair(h2f(A[L]), h2f(B[L])); });
      break;
    case TI32:
      R = cmpLanes<false>(Mask, P, [&](unsigned L) {
        return Pair(int32_t(A[L]), int32_t(B[L]));
      });
      break;
    case TU32:
      R = cmpLanes<false>(Mask, P, [&](unsigned L) {
        return Pair(uint32_t(A[L]), uint32_t(B[L]));
      });
      break;
    case TI64:
      R = cmpLanes<false>(Mask, P, [&](unsigned L) {
        return Pair(int64_t(A[L]), int64_t(B[L]));
      });
      break;
    case TU64:
      R = cmpLanes<false>(Mask, P, [&](unsigned L) {
        return Pair(uint64_t(A[L]), uint64_t(B[L]));
      });
      break;
    case TI16:
      R = cmpLanes<false>(Mask, P, [&](unsigned L) {
        return Pair(int16_t(A[L]), int16_t(B[L]));
      });
      break;
    default:
      R = cmpLanes<false>(Mask, P, [&](unsigned L) {
        return Pair(uint16_t(A[L]), uint16_t(B[L]));
      });
      break;
    }
  } else {
    forEachLane(Mask, [&](unsigned L) {
      int V;
      double X;
      bool Snan, Denorm = false, Normal = false;
      if (T == TF32) {
        X = F(A[L]);
        Snan = isSNaN32(uint32_t(A[L]));
        Denorm = std::fpclassify(F(A[L])) == FP_SUBNORMAL;
        Normal = std::isnormal(F(A[L]));
      } else if (T == TF64) {
        X = Dd(A[L]);
        Snan = isSNaN64(A[L]);
        Denorm = std::fpclassify(X) == FP_SUBNORMAL;
        Normal = std::isnormal(X);
      } else {
        uint16_t H = A[L];
        X = h2f(H);
        Snan = (H & 0x7c00) == 0x7c00 && (H & 0x3ff) && !(H & 0x200);
        Denorm = (H & 0x7c00) == 0 && (H & 0x3ff);
        Normal = (H & 0x7c00) && (H & 0x7c00) != 0x7c00;
      }
      unsigned C = classBits(X, Snan);
      if (Denorm)
        C = std::signbit(X) ? 1u << 4 : 1u << 7;
      if (Normal)
        C = std::signbit(X) ? 1u << 3 : 1u << 8;
      V = (C & uint32_t(B[L])) != 0;
      R |= uint64_t(V) << L;
    });
  }
  if (I.NDst)
    writeS64(W, I.Dst[0], R);
  if (Cmpx)
    W.setExec(R);
}

// --- Lane-crossing and special moves ---
void h_v_readlane_b32(Wave &W, const Inst &I) {
  unsigned Lane = readS32(W, I.Src[1]) & 63;
  if (I.Src[0].Kind != OK::V)
    return W.fail(ErrorKind::Invalid, I, "v_readlane source is not a VGPR");
  writeS32(W, I.Dst[0], W.vreg(I.Src[0].Reg)[Lane]);
}
void h_v_readfirstlane_b32(Wave &W, const Inst &I) {
  uint64_t E = W.exec();
  unsigned Lane = E ? __builtin_ctzll(E) : 0;
  uint32_t V;
  if (I.Src[0].Kind == OK::V)
    V = W.vreg(I.Src[0].Reg)[Lane];
  else
    V = readS32(W, I.Src[0]);
  writeS32(W, I.Dst[0], V);
}
void h_v_writelane_b32(Wave &W, const Inst &I) {
  unsigned Lane = readS32(W, I.Src[1]) & 63;
  if (I.Dst[0].Kind != OK::V)
    return W.fail(ErrorKind::Invalid, I, "v_writelane destination");
  W.vreg(I.Dst[0].Reg)[Lane] = readS32(W, I.Src[0]);
}
void h_v_nop(Wave &, const Inst &) {}
void h_v_swap_b32(Wave &W, const Inst &I) {
  // Operands: vdst0, vdst1 (defs); src0, src1 (tied uses).
  if (I.Dst[0].Kind != OK::V || I.Dst[1].Kind != OK::V)
    return W.fail(ErrorKind::Invalid, I, "v_swap operands");
  uint32_t *P = W.vreg(I.Dst[0].Reg), *Q = W.vreg(I.Dst[1].Reg);
  uint64_t E = W.exec();
  for (unsigned L = 0; L < 64; ++L)
    if ((E >> L) & 1)
      std::swap(P[L], Q[L]);
}
// v_movrels: D = VGPR[src + M0]; v_movreld: VGPR[dst + M0] = src;
// v_movrelsd: VGPR[dst + M0] = VGPR[src + M0].
template <int Kind> void hMovrel(Wave &W, const Inst &I) {
  unsigned M0 = W.S[SM0];
  unsigned SrcR = I.Src[0].Reg + ((Kind == 0 || Kind == 2) ? M0 : 0);
  unsigned DstR = I.Dst[0].Reg + ((Kind == 1 || Kind == 2) ? M0 : 0);
  if (I.Dst[0].Kind != OK::V || DstR >= W.NumV ||
      (I.Src[0].Kind == OK::V && SrcR >= W.NumV))
    return W.fail(ErrorKind::Fault, I, "v_movrel index out of range");
  uint32_t *D = W.vreg(DstR);
  uint64_t E = W.exec();
  if (I.Src[0].Kind == OK::V) {
    uint32_t *S = W.vreg(SrcR);
    for (unsigned L = 0; L < 64; ++L)
      if ((E >> L) & 1)
        D[L] = S[L];
  } else {
    uint32_t V = readS32(W, I.Src[0]);
    for (unsigned L = 0; L < 64; ++L)
      if ((E >> L) & 1)
        D[L] = V;
  }
}

// Shifts by a uniform amount. The per-lane shift count of the generic lane
// loop keeps it scalar (SSE2 has no per-lane variable shifts); compilers
// shift by an SGPR or a constant (address arithmetic, sign extension), and
// then one count serves every lane and the loop vectorizes. U::Sh is the
// count's source, U::Bits its significant bits; U::f computes lane L from
// the other sources. Anything but that plain form takes hValu<Op>.
template <class Op, class U> void hShiftUniform(Wave &W, const Inst &I) {
  const Opnd &S = I.Src[U::Sh];
  if (!I.Simple || S.Kind == OK::V || S.Kind == OK::A)
    return hValu<Op>(W, I);
  unsigned Count = readS32(W, S) & U::Bits;
  LaneVals A, B, C;
  Fetcher Fe{W, I};
  if (U::Sh != 0)
    Fe.fetch(0, Op::B0, false, A);
  if (Op::N >= 2 && U::Sh != 1)
    Fe.fetch(1, Op::B1, false, B);
  if (Op::N >= 3 && U::Sh != 2)
    Fe.fetch(2, Op::B2, false, C);
  LaneVals R;
  for (unsigned L = 0; L < 64; ++L)
    R[L] = U::f(A, B, C, L, Count);
  writeVec(W, I, I.Dst[0], R, W.exec() & Fe.WriteMask, Op::DB);
}

#define SHIFTU(NAME, SH, BITS, ...)                                            \
  struct U_##NAME {                                                            \
    static constexpr unsigned Sh = SH, Bits = BITS;                            \
    static uint64_t f(const uint64_t *a, const uint64_t *b, const uint64_t *c, \
                      unsigned L, unsigned n) {                                \
      (void)a;                                                                 \
      (void)b;                                                                 \
      (void)c;                                                                 \
      __VA_ARGS__                                                              \
    }                                                                          \
  };
// The same results as the VOP definitions above.
SHIFTU(v_lshlrev_b32, 0, 31, return uint32_t(b[L] << n);)
SHIFTU(v_lshrrev_b32, 0, 31, return uint32_t(b[L]) >> n;)
SHIFTU(v_ashrrev_i32, 0, 31, return uint32_t(int32_t(b[L]) >> n);)
SHIFTU(v_lshlrev_b64, 0, 63, return b[L] << n;)
SHIFTU(v_lshrrev_b64, 0, 63, return b[L] >> n;)
SHIFTU(v_ashrrev_i64, 0, 63, return uint64_t(int64_t(b[L]) >> n);)
SHIFTU(v_lshl_add_u64, 1, 7, return (a[L] << n) + c[L];)
#undef SHIFTU

} // namespace

void registerValu(OpTable &T) {
#define R(NAME) T.add(#NAME, hValu<Op_##NAME>)
#define RS(NAME) T.add(#NAME, hShiftUniform<Op_##NAME, U_##NAME>)
#define RA(NAME) T.add(#NAME, hValu<Op_##NAME>, Fidelity::Approximate)
  R(v_mov_b32); R(v_not_b32); R(v_bfrev_b32); R(v_ffbh_u32); R(v_ffbl_b32);
  R(v_ffbh_i32); R(v_add_u32); R(v_sub_u32); R(v_subrev_u32); R(v_add_i32);
  R(v_sub_i32); R(v_add_co_u32); R(v_sub_co_u32); R(v_subrev_co_u32);
  R(v_addc_co_u32); R(v_subb_co_u32); R(v_subbrev_co_u32); R(v_cndmask_b32);
  R(v_and_b32); R(v_or_b32); R(v_xor_b32); R(v_xnor_b32); RS(v_lshlrev_b32);
  RS(v_lshrrev_b32); RS(v_ashrrev_i32); R(v_min_i32); R(v_max_i32);
  R(v_min_u32); R(v_max_u32); R(v_mul_u32_u24); R(v_mul_hi_u32_u24);
  R(v_mul_i32_i24); R(v_mul_hi_i32_i24); R(v_mul_lo_u32); R(v_mul_hi_u32);
  R(v_mul_hi_i32); R(v_bcnt_u32_b32); R(v_mbcnt_lo_u32_b32);
  R(v_mbcnt_hi_u32_b32); R(v_bfm_b32); R(v_bfe_u32); R(v_bfe_i32);
  R(v_bfi_b32); R(v_alignbit_b32); R(v_alignbyte_b32); R(v_add3_u32);
  R(v_lshl_add_u32); R(v_add_lshl_u32); R(v_lshl_or_b32); R(v_and_or_b32);
  R(v_or3_b32); R(v_xad_u32); R(v_mad_u32_u24); R(v_mad_i32_i24);
  R(v_mad_u32_u16); R(v_mad_i32_i16); R(v_min3_i32); R(v_max3_i32);
  R(v_med3_i32); R(v_min3_u32); R(v_max3_u32); R(v_med3_u32); R(v_perm_b32);
  R(v_lerp_u8); R(v_sad_u8); R(v_sad_hi_u8); R(v_sad_u16); R(v_sad_u32);
  R(v_msad_u8); R(v_cvt_pk_u16_u32); R(v_cvt_pk_i16_i32); R(v_pack_b32_f16);
  RS(v_lshlrev_b64); RS(v_lshrrev_b64); RS(v_ashrrev_i64); RS(v_lshl_add_u64);
  R(v_mov_b64); R(v_mad_u64_u32); R(v_mad_i64_i32);
  R(v_add_f32); R(v_sub_f32); R(v_subrev_f32); R(v_mul_f32);
  R(v_mul_legacy_f32); R(v_min_f32); R(v_max_f32); R(v_fma_f32);
  R(v_fmac_f32); R(v_fmamk_f32); R(v_fmaak_f32); RA(v_mac_f32); RA(v_mad_f32); RA(v_madmk_f32);
  RA(v_madak_f32); R(v_min3_f32); R(v_max3_f32); R(v_med3_f32);
  R(v_trunc_f32); R(v_ceil_f32); R(v_floor_f32); R(v_rndne_f32);
  R(v_fract_f32); RA(v_exp_f32); RA(v_log_f32); RA(v_rcp_f32);
  RA(v_rcp_iflag_f32); RA(v_rsq_f32); RA(v_sqrt_f32); RA(v_sin_f32);
  RA(v_cos_f32); R(v_frexp_mant_f32); R(v_frexp_exp_i32_f32);
  R(v_ldexp_f32); R(v_cvt_f32_i32); R(v_cvt_f32_u32); R(v_cvt_i32_f32);
  R(v_cvt_u32_f32); R(v_cvt_rpi_i32_f32); R(v_cvt_flr_i32_f32);
  R(v_cvt_f32_ubyte0); R(v_cvt_f32_ubyte1); R(v_cvt_f32_ubyte2);
  R(v_cvt_f32_ubyte3); R(v_cvt_f16_f32); R(v_cvt_f32_f16);
  R(v_cvt_pkrtz_f16_f32); R(v_cvt_f32_f64); R(v_cvt_f64_f32);
  R(v_cvt_f64_i32); R(v_cvt_f64_u32); R(v_cvt_i32_f64); R(v_cvt_u32_f64);
  R(v_div_scale_f32); R(v_div_scale_f64); R(v_div_fmas_f32);
  R(v_div_fmas_f64); R(v_div_fixup_f32); R(v_div_fixup_f64);
  R(v_add_f64); R(v_mul_f64); R(v_min_f64); R(v_max_f64); R(v_fma_f64);
  R(v_fmac_f64); R(v_ldexp_f64); R(v_trunc_f64); R(v_ceil_f64);
  R(v_floor_f64); R(v_rndne_f64); R(v_fract_f64); RA(v_rcp_f64);
  RA(v_rsq_f64); RA(v_sqrt_f64); R(v_frexp_mant_f64); R(v_frexp_exp_i32_f64);
  // 16-bit scalar ops: whether the upper half of the destination is kept
  // or zeroed is not documented per opcode for gfx9: approximate.
  RA(v_add_f16); RA(v_sub_f16); RA(v_subrev_f16); RA(v_mul_f16);
  RA(v_fma_f16); RA(v_fmac_f16); RA(v_max_f16); RA(v_min_f16);
  RA(v_lshlrev_b16); RA(v_lshrrev_b16); RA(v_ashrrev_i16); RA(v_add_u16);
  RA(v_sub_u16); RA(v_subrev_u16); RA(v_mul_lo_u16); RA(v_max_u16);
  RA(v_min_u16); RA(v_max_i16); RA(v_min_i16); RA(v_mad_u16); RA(v_mad_i16);
  RA(v_sqrt_f16); RA(v_rcp_f16); RA(v_rsq_f16); RA(v_exp_f16); RA(v_log_f16);
  RA(v_floor_f16); RA(v_ceil_f16); RA(v_trunc_f16); RA(v_rndne_f16);
  RA(v_cvt_f16_u16); RA(v_cvt_f16_i16); RA(v_cvt_u16_f16); RA(v_cvt_i16_f16);
  RA(v_ldexp_f16); RA(v_max3_f16); RA(v_min3_f16);
  R(v_dot4_i32_i8); R(v_dot4c_i32_i8); R(v_dot4_u32_u8); R(v_dot2_i32_i16);
  R(v_dot2_u32_u16); R(v_dot8_i32_i4); R(v_dot8_u32_u4);
  RA(v_dot2c_f32_f16); RA(v_dot2_f32_f16);
  R(v_cvt_f32_fp8); R(v_cvt_f32_bf8); R(v_cvt_pk_f32_fp8); R(v_cvt_pk_f32_bf8);
  T.add("v_cvt_pk_fp8_f32", hCvtToF8<false, false>);
  T.add("v_cvt_pk_bf8_f32", hCvtToF8<true, false>);
  // Which random bits the hardware adds is not documented bit for bit.
  T.add("v_cvt_sr_fp8_f32", hCvtToF8<false, true>, Fidelity::Approximate);
  T.add("v_cvt_sr_bf8_f32", hCvtToF8<true, true>, Fidelity::Approximate);
#undef R
#undef RA
#undef RS
  T.add("v_pk_fma_f16", h_v_pk_fma_f16);
  T.add("v_pk_mul_f16", h_v_pk_mul_f16);
  T.add("v_pk_add_f16", h_v_pk_add_f16);
  T.add("v_pk_add_u16", h_v_pk_add_u16);
  T.add("v_pk_sub_u16", h_v_pk_sub_u16);
  T.add("v_pk_mul_lo_u16", h_v_pk_mul_lo_u16);
  T.add("v_pk_lshlrev_b16", h_v_pk_lshlrev_b16);
  T.add("v_pk_lshrrev_b16", h_v_pk_lshrrev_b16);
  T.add("v_pk_max_f16", h_v_pk_max_f16);
  T.add("v_pk_min_f16", h_v_pk_min_f16);
  T.add("v_fma_mix_f32", hFmaMix<0>);
  T.add("v_fma_mixlo_f16", hFmaMix<1>);
  T.add("v_fma_mixhi_f16", hFmaMix<2>);
  T.add("v_pk_add_f32", hPkF32<0>);
  T.add("v_pk_mul_f32", hPkF32<1>);
  T.add("v_pk_fma_f32", hPkF32<2>);
  T.add("v_pk_mov_b32", h_v_pk_mov_b32);
  T.add("v_readlane_b32", h_v_readlane_b32);
  T.add("v_readfirstlane_b32", h_v_readfirstlane_b32);
  T.add("v_writelane_b32", h_v_writelane_b32);
  T.add("v_nop", h_v_nop);
  T.add("v_swap_b32", h_v_swap_b32);
  T.add("v_movrels_b32", hMovrel<0>);
  T.add("v_movreld_b32", hMovrel<1>);
  T.add("v_movrelsd_b32", hMovrel<2>);
  // AGPR moves are plain 32-bit moves between the files.
  T.add("v_accvgpr_read_b32", hValu<Op_v_mov_b32>);
  T.add("v_accvgpr_write_b32", hValu<Op_v_mov_b32>);
  T.add("v_accvgpr_mov_b32", hValu<Op_v_mov_b32>);
  // Compares.
  static const char *Preds[16] = {"f",   "lt",  "eq",  "le",  "gt",  "lg",
                                  "ge",  "o",   "u",   "nge", "nlg", "ngt",
                                  "nle", "neq", "nlt", "tru"};
  static const char *IPreds[8] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "t"};
  static const std::pair<const char *, int> Types[] = {
      {"f32", TF32}, {"f64", TF64}, {"f16", TF16}, {"i32", TI32},
      {"u32", TU32}, {"i64", TI64}, {"u64", TU64}, {"i16", TI16},
      {"u16", TU16}};
  for (auto &[TN, TI] : Types) {
    bool Float = TI == TF32 || TI == TF64 || TI == TF16;
    for (int X = 0; X < 2; ++X) {
      std::string Pre = X ? "v_cmpx_" : "v_cmp_";
      if (Float) {
        for (int P = 0; P < 16; ++P)
          T.add(Pre + Preds[P] + "_" + TN, hCmp, Fidelity::Exact,
                TI | P << 8 | X << 16);
        T.add(Pre + "class_" + TN, hCmp, Fidelity::Exact,
              TI | X << 16 | 1 << 17);
      } else {
        for (int P = 0; P < 8; ++P)
          T.add(Pre + IPreds[P] + "_" + TN, hCmp, Fidelity::Exact,
                TI | (P == 7 ? 15 : P) << 8 | X << 16);
      }
    }
  }
}

} // namespace emu
} // namespace asmevo
