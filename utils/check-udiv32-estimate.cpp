//===- check-udiv32-estimate.cpp - LLVM's 32-bit udiv estimate, every d ---===//
//
// Exhaustive check behind two reviewed-equivalent mutants in
// test/Verify/mutation-survivors.txt (bias_relu_f32x4 16160,
// divisor_scan_i32 11820). LLVM's expandDivRem32 (AMDGPUCodeGenPrepare.cpp)
// computes, for a divisor d:
//   z = cvt_u32(0x4f7ffffe * v_rcp_iflag_f32(cvt_f32_u32(d)))
//   z += umulhi(z, 0 - d * z)        (one unsigned Newton-Raphson step)
//   q = umulhi(x, z); r = x - q * d; then two "if (r >= d)" corrections.
// For every d in [1, 2^32) and each reciprocal candidate (k = 0: RN of
// 1/float(d); k = 1: the neighbour on the other side of the exact value;
// k = 2, 3: RN - 1 ulp, RN - 2 ulp) it counts
//   z * d > 2^32         (z above 2^32/d: q can be too high, the expansion
//                         itself is then wrong), and
//   2^32 - z * d > 2 d   (z more than 2 below 2^32/d).
// When neither holds, x * z / 2^32 >= x/d - 1 for x <= 2^31, so q is at
// most one low and the second correction never fires for such dividends.
//
// Build and run (about 2 CPU-minutes):
//   clang++ -O2 -o check-udiv32 utils/check-udiv32-estimate.cpp
//   ./check-udiv32 1 4294967296
// Result at 2026-11-30: k = 0, 2, 3: none of either for any d; k = 1: the
// deficit never exceeds 2 d, and z exceeds 2^32/d for 34 divisors (the
// first 24683721), all with the reciprocal rounded up.
//
// With --tight N it lists instead the N divisors whose first estimate is
// closest to overshooting: the float product K * RN(1/d), before the
// truncation, relatively closest below floor(2^32/d) + 1, the smallest z with
// z * d > 2^32 (about 15 CPU-seconds). A slightly larger estimate (a changed
// constant K, a reciprocal rounded up, a dropped truncation) makes z * d
// exceed 2^32 first for these, and then the Newton step's 0 - d * z wraps
// and z about doubles. Tier 1's division-pair input takes its divisors from
// this list (TightDivisors in lib/Verify/Internal.h):
//   ./check-udiv32 --tight 40
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

static uint32_t cvtU32(float F) { // v_cvt_u32_f32: truncate, saturate
  if (!(F > 0))
    return 0;
  if (F >= 4294967296.0f)
    return 0xffffffffu;
  return uint32_t(F);
}

static int listTight(size_t N) {
  const float K = 4294967296.0f - 512.0f;
  std::vector<std::pair<double, uint32_t>> Best; // (relative distance, d)
  for (uint64_t D = 1; D < (1ull << 32); ++D) {
    float P = K * (1.0f / float(uint32_t(D)));
    double Over = double((1ull << 32) / D + 1);
    double Rel = (Over - double(P)) / Over;
    if (Best.size() < N || Rel < Best.back().first) {
      Best.insert(std::upper_bound(Best.begin(), Best.end(),
                                   std::make_pair(Rel, uint32_t(D))),
                  {Rel, uint32_t(D)});
      if (Best.size() > N)
        Best.pop_back();
    }
  }
  for (const auto &[Rel, D] : Best)
    std::printf("%u %.4g\n", D, Rel);
  return 0;
}

int main(int Argc, char **Argv) {
  if (Argc == 3 && !std::strcmp(Argv[1], "--tight"))
    return listTight(std::strtoull(Argv[2], nullptr, 0));
  if (Argc != 3) {
    std::fprintf(stderr, "usage: %s FIRST-DIVISOR END-DIVISOR | --tight N\n",
                 Argv[0]);
    return 2;
  }
  uint64_t Lo = std::strtoull(Argv[1], nullptr, 0);
  uint64_t Hi = std::strtoull(Argv[2], nullptr, 0);
  if (Lo < 1 || Hi > (1ull << 32) || Lo >= Hi) {
    std::fprintf(stderr, "divisors must satisfy 1 <= FIRST < END <= 2^32\n");
    return 2;
  }
  const float K = 4294967296.0f - 512.0f;
  uint64_t Over[4] = {}, Two[4] = {}, N[4] = {}, FirstOver[4] = {},
           FirstTwo[4] = {};
  for (uint64_t D = Lo; D < Hi; ++D) {
    float FD = float(uint32_t(D)), RN = 1.0f / FD;
    double P = double(RN) * double(FD); // exact: 24 x 24 bits
    float C[4];
    bool Has[4] = {true, P != 1.0, true, true};
    C[0] = RN;
    C[1] = std::nextafter(RN, P > 1.0 ? 0.0f : INFINITY);
    C[2] = std::nextafter(RN, 0.0f);
    C[3] = std::nextafter(C[2], 0.0f);
    for (int I = 0; I < 4; ++I) {
      if (!Has[I])
        continue;
      ++N[I];
      uint32_t Z = cvtU32(K * C[I]);
      uint32_t E = uint32_t(0u - uint32_t(D) * Z);
      Z += uint32_t((uint64_t(Z) * E) >> 32);
      unsigned __int128 ZD = (unsigned __int128)Z * D;
      unsigned __int128 T = (unsigned __int128)1 << 32;
      if (ZD > T) {
        if (!Over[I]++)
          FirstOver[I] = D;
      } else if (T - ZD > 2 * (unsigned __int128)D) {
        if (!Two[I]++)
          FirstTwo[I] = D;
      }
    }
  }
  bool Bad = false;
  for (int I = 0; I < 4; ++I) {
    std::printf("k=%d: %llu divisors, z above 2^32/d: %llu (first %llu), "
                "deficit above 2d: %llu (first %llu)\n",
                I, (unsigned long long)N[I], (unsigned long long)Over[I],
                (unsigned long long)FirstOver[I], (unsigned long long)Two[I],
                (unsigned long long)FirstTwo[I]);
    Bad |= Two[I] != 0 || (I != 1 && Over[I] != 0);
  }
  return Bad ? 1 : 0;
}
