//===- DivPairs.cpp - Dividend/divisor pairs across buffers ---------------===//
//
// Tier 1's division-pair data (Pattern::DivPairs). The correction steps of
// an integer-division expansion decide only for particular pairs: a
// dividend near 2^32 (2^64) with a divisor whose reciprocal estimate is
// nearly too large or is too small (the quotient estimate is then one or two
// off). Independent buffers almost never hold such a pair at the same
// element, so here the pair of an element is drawn from the element index
// alone and every buffer holds one of its two halves (which one: see
// divPairWord), so that a[i] / b[i] of two buffers gets the pair in 3/8 of
// the elements when a and b are neighbouring arguments, 1/8 or more
// otherwise. Dividends and divisors: see pair32 and pair64.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/MC/TargetInfo.h"

#include "llvm/MC/MCInst.h"

#include <iterator>

using namespace llvm;

namespace asmevo {
namespace verify {

namespace {

struct Pair {
  uint64_t X, D;
};

/// The largest k * D + Delta (Delta in {-1, 0, 1, D - 1}) at most Max.
uint64_t nearBelow(uint64_t Max, uint64_t D, uint64_t Sel) {
  uint64_t K = Max / D;
  if (!K)
    return Max;
  switch (Sel & 3) {
  case 0:
    return K * D - 1;
  case 1:
    return K * D;
  case 2:
    return K * D < Max ? K * D + 1 : K * D;
  default:
    return Max - K * D >= D - 1 ? K * D + D - 1 : Max;
  }
}

/// Divisors whose 32-bit estimate is nearly too large (TightDivisors), 5/8;
/// whose estimate is furthest below 2^32 / d (LargeDivisors), 1/8; small
/// ones, 1/4 (with dividends near 2^32 even a small error of the refined
/// reciprocal, such as a Newton step of the wrong sign, moves the quotient
/// estimate by more than the two correction steps can repair).
uint32_t divisor32(uint64_t X) {
  switch (X & 7) {
  default:
    return TightDivisors[(X >> 8) % std::size(TightDivisors)];
  case 5:
    return LargeDivisors[(X >> 8) % std::size(LargeDivisors)];
  case 6:
  case 7:
    return uint32_t(2 + (X >> 8) % 15);
  }
}

/// A 32-bit pair: dividends near 2^32, or a quarter near 2^31 in magnitude
/// with either sign, as are their divisors (a signed division's expansion
/// divides magnitudes).
Pair pair32(uint64_t X) {
  uint32_t D = divisor32(X);
  uint64_t Sel = X >> 16;
  if ((X >> 4 & 3) != 3)
    return {(X >> 6 & 7) == 0 ? 0xffffffffu - (Sel & 1)
                              : nearBelow(0xffffffffu, D, Sel),
            D};
  uint32_t S = D >> 31 ? D >> 1 : D;
  uint32_t V = uint32_t(nearBelow(0x7fffffffu, S, Sel));
  if (Sel >> 4 & 1)
    V = 0u - V;
  if (Sel >> 5 & 1)
    S = 0u - S;
  return {V, S};
}

/// A 64-bit pair with dividends near 2^63 or 2^64, a quarter of the
/// divisors above 2^32 (the full 64-bit expansion).
Pair pair64(uint64_t X) {
  uint64_t D = divisor32(X);
  if ((X >> 4 & 3) == 3)
    D = D << 32 | (X >> 32 & 0xffff);
  uint64_t Max = (X >> 6 & 1) ? ~0ull : ~0ull >> 1;
  return {nearBelow(Max, D, X >> 16), D};
}

} // namespace

uint64_t divPairWord(uint64_t Seed, uint64_t Stream, int64_t W) {
  uint64_t H =
      mix64(Seed * 0x9e3779b97f4a7c15ull ^ mix64(uint64_t(W) + 0x2d1f00d5ull));
  // Which half of the pair each buffer holds: for half of the words by the
  // parity of the stream (the argument index) and of the element, so that
  // buffers of neighbouring arguments (a, b of a / b) hold it in opposite
  // halves, one way round in every other element; for the other half at
  // random per buffer and element.
  uint64_t Random = mix64(H ^ mix64(Stream + 0x7ab1e5ull));
  bool ByParity = H >> 32 & 1;
  auto role = [&](uint64_t Element, unsigned Bit) -> bool {
    return ByParity ? ((Stream + Element) & 1) == 0 : (Random >> Bit & 1);
  };
  auto pick = [](const Pair &P, bool Dividend) { return Dividend ? P.X : P.D; };
  uint64_t E = uint64_t(W);
  switch (H & 7) {
  default: { // two 32-bit elements
    uint64_t Lo = pick(pair32(mix64(H + 1)), role(2 * E, 0)) & 0xffffffffu;
    uint64_t Hi = pick(pair32(mix64(H + 2)), role(2 * E + 1, 1)) & 0xffffffffu;
    return Lo | Hi << 32;
  }
  case 5:
  case 6: { // a 64-bit element below 2^32: the 32-bit path of a 64-bit
            // division (taken when both operands' high dwords are 0)
    Pair P = pair32(mix64(H + 3));
    return pick(P, role(E, 0)) & 0xffffffffu;
  }
  case 7:
    return pick(pair64(mix64(H + 4)), role(E, 0));
  }
}

bool usesIntegerDivision(const CodeObject &CO, const KernelInfo &K) {
  std::optional<KernelCode> Code = kernelCode(CO, K);
  if (!Code)
    return true; // cannot tell: give the input
  TargetInfo &TI = *Code->TI;
  ArrayRef<uint8_t> Bytes = Code->Bytes;
  // LLVM expands 32-bit integer division (and the 32-bit path of 64-bit
  // division) with v_rcp_iflag_f32, floating-point division never with it.
  for (size_t Off = 0; Off + 4 <= Bytes.size();) {
    const DecodedInst *D = TI.decode(Bytes.drop_front(Off));
    if (!D) {
      Off += 4;
      continue;
    }
    Off += D->Size;
    if (TI.opcodeName(D->Inst.getOpcode()).starts_with("V_RCP_IFLAG_F32"))
      return true;
  }
  return false;
}

} // namespace verify
} // namespace asmevo
