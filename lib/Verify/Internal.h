//===- Internal.h - Shared pieces of lib/Verify ------------------*- C++ -*-===//

#ifndef ASMEVO_LIB_VERIFY_INTERNAL_H
#define ASMEVO_LIB_VERIFY_INTERNAL_H

#include "asmevo/Verify/Oracle.h"

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

namespace asmevo {
class TargetInfo;
namespace verify {

/// The code of kernel K (its bytes, clipped to its section) and the target
/// that decodes them. std::nullopt when either is unavailable (the errors
/// are consumed: the callers then skip or keep an input, they do not fail).
struct KernelCode {
  TargetInfo *TI;
  llvm::ArrayRef<uint8_t> Bytes;
};
std::optional<KernelCode> kernelCode(const CodeObject &CO, const KernelInfo &K);

inline uint64_t mix64(uint64_t X) {
  X += 0x9e3779b97f4a7c15ull;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return X ^ (X >> 31);
}

/// Data patterns of synthesized buffers and scalars.
enum class Pattern : uint8_t {
  Floats32,  // f32 values in [-4, 4) with 1/8 edge values
  SmallInts, // i32 in [0, 64) with 1/8 edge integers
  Bits,      // uniform random bits (NaNs with payloads, denormals, ...)
  Floats64,  // f64 values in [-4, 4) with 1/8 edge values
  Halves,    // f16 values in [-4, 4) with 1/8 edge values
  Harvest,   // constants of the kernel's code and their neighbours, f32 mix
  // Only in the extra inputs (not in the rotation of the seeded inputs):
  WideInts,   // large u32: multiples of 720720 (= lcm(1..16)) and +-1
  Denormals,  // f32 mostly denormal, with normals near FLT_MIN
  DivEdge,    // u32 near 2^32 as multiples of LargeDivisors +-1, and those
  Thresholds, // zeros and the code constants made non-positive; f64 words
              // whose high half is a code constant
  DivPairs,   // dividend/divisor pairs shared by the buffers (DivPairs.cpp)
};
/// Divisors of 2^18 and more (and 2^31 +- 1): with dividends near 2^32 the
/// quotient estimate of a 32-bit division expansion (a refined
/// v_rcp_iflag_f32) is furthest from the quotient, so its correction steps
/// decide (Pattern::DivEdge, the division-extremes extra input).
/// The first, 2^31 - 1, makes the estimate two low for 2^32 - 2 and
/// 2^32 - 1 even with a correctly rounded reciprocal.
inline constexpr uint32_t LargeDivisors[] = {
    0x7fffffffu, 0x40001u,  0x5a5a5u,   0x7ffffu,   0xfffffu,
    0x12345fu,   0xffffffu, 0x3fffffdu, 0x80000001u};
/// Divisors whose first 32-bit estimate, the float product
/// (2^32 - 512) * v_rcp_iflag_f32(d) before its truncation, is relatively
/// closest to floor(2^32 / d) + 1, the smallest z with z * d > 2^32: the
/// 40 first of `utils/check-udiv32-estimate.cpp --tight 40` (every d below
/// 2^32, correctly rounded reciprocals). A slightly larger estimate (another
/// constant, a reciprocal rounded up) overshoots first for these, and the
/// Newton step then nearly doubles it.
inline constexpr uint32_t TightDivisors[] = {
    11,       22,       3,        6,  7,   13,  26,       52,
    17248865, 44,       88,       12, 24,  14,  17459217, 34918434,
    17602325, 35204650, 70409300, 15, 30,  45,  90,       91,
    18122225, 28,       56,       95, 48,  96,  18920561, 23,
    60,       19701685, 39403370, 51, 102, 104, 63,       105};
/// The 8-byte word W of stream Stream under Pattern::DivPairs.
uint64_t divPairWord(uint64_t Seed, uint64_t Stream, int64_t W);
/// Whether K's code has an integer-division expansion (v_rcp_iflag_f32);
/// true when that cannot be told.
bool usesIntegerDivision(const CodeObject &CO, const KernelInfo &K);
/// Patterns in the rotation of the seeded inputs (the first ones).
constexpr unsigned NumPatterns = 6;
const char *patternName(Pattern P);

/// Deterministic contents: the 8-byte word at signed word index W of stream
/// (Seed, Stream) under pattern P.
/// Harvest draws from Consts (32-bit values).
uint64_t fillWord(Pattern P, uint64_t Seed, uint64_t Stream, int64_t W,
                  llvm::ArrayRef<uint32_t> Consts = {});
/// Bytes [Off, Off+N) (relative, signed) of that stream.
void fillBytes(Pattern P, uint64_t Seed, uint64_t Stream, int64_t Off,
               uint8_t *Out, size_t N, llvm::ArrayRef<uint32_t> Consts = {});

/// Tier-1 address layout: pointer argument I's arena and pointer.
constexpr uint64_t ArenaStart = 0x100000000000ull;
constexpr uint64_t ArenaSpan = 0x1000000000ull; // 64 GiB
constexpr uint64_t ArenaPointerOffset = 0x800000000ull; // 32 GiB in
inline uint64_t arenaBase(unsigned I) { return ArenaStart + I * ArenaSpan; }
inline uint64_t arenaPointer(unsigned I) {
  return arenaBase(I) + ArenaPointerOffset;
}

/// The kernarg segment as the ROCm runtime allocates it: the metadata's
/// size rounded up to 64 bytes (compiled code may load a whole dwordx4/x8
/// that ends past the last argument; the runtime's buffer is padded).
inline void padKernarg(std::vector<uint8_t> &K, uint64_t SegmentSize) {
  uint64_t N = std::max<uint64_t>(K.size(), SegmentSize);
  K.resize((N + 63) / 64 * 64, 0);
}

} // namespace verify
} // namespace asmevo

#endif
