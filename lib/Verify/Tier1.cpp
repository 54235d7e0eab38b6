//===- Tier1.cpp - Inputs synthesized from the kernarg metadata -----------===//
//
// Argument model: explicit arguments from K0's metadata — global buffers
// (pointers), by-value scalars (split into 1/2/4/8-byte slots), dynamic LDS
// pointers; hidden arguments are filled by the executor as the runtime
// would. Launch shapes come from the descriptor (which work-item and
// workgroup ids the kernel reads) and the metadata (.reqd_workgroup_size,
// .max_flat_workgroup_size).
//
// Footprints: every pointer gets its own 64 GiB arena; K0 runs with memory
// mapped on demand (64 KiB chunks filled from the input's deterministic
// stream) through the emulator's Memory::Observer hook, which also logs
// every byte read and written. The final image maps exactly what K0 touched
// (clusters rounded out to dwords) with guard regions around each cluster:
// any access by K1 outside K0's footprint faults.
//
// Scalars: each slot is probed once with a "wild" value (1.5 in float
// bits); a slot whose wild value makes K0 fail, grow its footprint or run
// much longer is a control value (count, size) and gets counts derived from
// the launch; the others get data values (floats, edge values, integers).
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/Emu/Emulator.h"
#include "asmevo/Verify/KernelSignature.h"

#include "asmevo/MC/TargetInfo.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/Support/FormatVariadic.h"
#include <set>

#include <cmath>
#include <limits>
#include <map>
#include <mutex>

using namespace llvm;

namespace asmevo {
namespace verify {

//===----------------------------------------------------------------------===//
// Deterministic data
//===----------------------------------------------------------------------===//

const char *patternName(Pattern P) {
  switch (P) {
  case Pattern::Floats32: return "f32 values";
  case Pattern::SmallInts: return "small integers";
  case Pattern::Bits: return "random bits";
  case Pattern::Floats64: return "f64 values";
  case Pattern::Halves: return "f16 values";
  case Pattern::Harvest: return "code constants";
  case Pattern::WideInts:
    return "large integers";
  case Pattern::Denormals:
    return "f32 denormals";
  case Pattern::DivEdge:
    return "dividends near 2^32";
  case Pattern::Thresholds:
    return "code constants at and below 0";
  case Pattern::DivPairs:
    return "dividend/divisor pairs";
  }
  return "?";
}

static const uint32_t EdgeF32[] = {
    0x00000000, 0x80000000, 0x00000001, 0x007fffff, 0x80000001, 0x80400000,
    0x7f800000, 0xff800000, 0x7fc12345, 0x7f812345, 0xffc00001, 0x7f7fffff,
    0xff7fffff, 0x00800000, 0x3f800000, 0xbf800000,
    // NaNs with the smallest payloads: a test of the lowest mantissa bit
    // (|x| > inf, a mask 0x7fffffff) tells them from infinities.
    0x7f800001, 0xff800001, 0x7fc00000};
static const uint64_t EdgeF64[] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull,
    0x000fffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
    0x7ff8000000012345ull, 0x7ff0000000012345ull, 0x7fefffffffffffffull,
    0x0010000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull};
static const uint16_t EdgeF16[] = {0x0000, 0x8000, 0x0001, 0x03ff, 0x7c00,
                                   0xfc00, 0x7e12, 0x7d12, 0x7bff, 0x0400,
                                   0x3c00, 0xbc00};
static const int32_t EdgeI32[] = {0,   -1,     1,     0x7fffffff, INT32_MIN,
                                  255, 65535, 128,   -128,       3};

static uint32_t f32Value(uint64_t H) {
  if ((H & 7) == 0)
    return EdgeF32[(H >> 3) % std::size(EdgeF32)];
  if ((H & 7) >= 5) {
    // Log-uniform magnitude 2^-24 .. 2^24, either sign: 1 + m / 2^20 scaled
    // by 2^e, built from its fields (exact: normal for every e, no
    // rounding), which input synthesis calls for every word it fills.
    uint32_t Mantissa = uint32_t((H >> 20) & 0xfffff) << 3;
    uint32_t Exponent = uint32_t(int((H >> 8) % 49) - 24 + 127) << 23;
    return uint32_t(H >> 63) << 31 | Exponent | Mantissa;
  }
  float F = float(int64_t(H >> 11) % (1 << 22)) / float(1 << 20); // [0,4)
  uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}

/// The hash of word W of a stream: the part of it that does not depend on
/// W is Salt (fillSalt), computed once per buffer.
static uint64_t fillSalt(uint64_t Seed, uint64_t Stream) {
  return Seed * 0x100000001b3ull ^ mix64(Stream);
}
static uint64_t fillHash(uint64_t Salt, int64_t W) {
  return mix64(Salt ^ mix64(uint64_t(W) + 0x51ed270b));
}

/// Word W of pattern P whose hash is H.
static uint64_t patternWord(Pattern P, uint64_t H, uint64_t Seed,
                            uint64_t Stream, int64_t W,
                            ArrayRef<uint32_t> Consts);

uint64_t fillWord(Pattern P, uint64_t Seed, uint64_t Stream, int64_t W,
                  ArrayRef<uint32_t> Consts) {
  return patternWord(P, fillHash(fillSalt(Seed, Stream), W), Seed, Stream, W,
                     Consts);
}

static uint64_t patternWord(Pattern P, uint64_t H, uint64_t Seed,
                            uint64_t Stream, int64_t W,
                            ArrayRef<uint32_t> Consts) {
  switch (P) {
  case Pattern::Bits:
    return H;
  case Pattern::DivPairs:
    return divPairWord(Seed, Stream, W);
  case Pattern::Harvest: {
    auto one = [&](uint64_t X) -> uint32_t {
      if (Consts.empty() || (X & 3) == 0)
        return f32Value(X >> 2);
      return Consts[(X >> 2) % Consts.size()];
    };
    return uint64_t(one(H)) | uint64_t(one(mix64(H))) << 32;
  }
  case Pattern::Floats32:
    return uint64_t(f32Value(H)) | uint64_t(f32Value(mix64(H))) << 32;
  case Pattern::SmallInts: {
    auto one = [](uint64_t X) -> uint32_t {
      if ((X & 7) == 0)
        return uint32_t(EdgeI32[(X >> 3) % std::size(EdgeI32)]);
      return uint32_t((X >> 8) % 64);
    };
    return uint64_t(one(H)) | uint64_t(one(mix64(H))) << 32;
  }
  case Pattern::Floats64: {
    if ((H & 7) == 0)
      return EdgeF64[(H >> 3) % std::size(EdgeF64)];
    double D = double(int64_t(H >> 11) % (int64_t(1) << 40)) /
               double(int64_t(1) << 38);
    uint64_t U;
    std::memcpy(&U, &D, 8);
    return U;
  }
  case Pattern::WideInts: {
    // Large dividends: the reciprocal estimate of an integer-division
    // expansion is off by one only for large ones, and its correction step
    // (r >= d) is decided exactly only when d divides the dividend: every
    // divisor up to 16 divides 720720.
    // A quarter are small divisors; half of the 8-byte words are 32-bit
    // values (the fast path of a 64-bit division).
    auto one = [](uint64_t X) -> uint32_t {
      static const uint32_t Divisors[] = {2, 3, 4, 5, 6, 10, 12, 7};
      uint32_t K = uint32_t(5959 - (X >> 8) % 2048); // 720720 * 5959 < 2^32
      int32_t Delta = (X & 3) == 1 ? -1 : (X & 3) == 2 ? 1 : 0;
      switch (X >> 4 & 7) {
      case 0:
        return uint32_t(0x80000000u | uint32_t(X >> 32)); // top bit set
      case 1:
      case 2:
        return Divisors[(X >> 24) % std::size(Divisors)];
      default:
        return 720720u * K + uint32_t(Delta);
      }
    };
    return uint64_t(one(H)) |
           ((H >> 40 & 1) ? 0 : uint64_t(one(mix64(H))) << 32);
  }
  case Pattern::Thresholds: {
    // Kernels compare transformed values with their constants: x - max(x)
    // (softmax's exp argument) is at most 0 and reaches a threshold c < 0
    // only when the row holds 0 and c itself. So: zeros, and each constant
    // (and its neighbours) with the sign bit set; half of the 8-byte words
    // are doubles whose high half is such a constant (f64 thresholds are
    // materialized as their high dword, s_mov_b32 s5, 0x...) and whose low
    // half is 0 or another constant.
    if (Consts.empty())
      return patternWord(Pattern::Floats32, H, Seed, Stream, W, Consts);
    auto one = [&](uint64_t X) -> uint32_t {
      if ((X & 3) == 0)
        return 0;
      return Consts[(X >> 2) % Consts.size()] | 0x80000000u;
    };
    if (H >> 62 & 1) {
      uint32_t Hi = Consts[(H >> 8) % Consts.size()];
      if (H >> 61 & 1)
        Hi |= 0x80000000u;
      uint32_t Lo = (H >> 60 & 1) ? 0 : Consts[(H >> 24) % Consts.size()];
      return uint64_t(Hi) << 32 | Lo;
    }
    return uint64_t(one(H)) | uint64_t(one(mix64(H))) << 32;
  }
  case Pattern::DivEdge: {
    // A quarter are large divisors themselves (b[i] of a / b), the others
    // k * d + {-1, 0, 1, d - 1} with the largest k that stays below 2^32
    // (d one of the large divisors, as the data scalars are), or 2^32 - 1,
    // 2^32 - 2. Half of the 8-byte words are 32-bit values (the 32-bit fast
    // path of a 64-bit division).
    auto one = [](uint64_t X) -> uint32_t {
      // Half around 2^31 - 1, the divisor the data scalars and the counts
      // after the first get.
      uint32_t D = (X >> 7 & 1)
                       ? LargeDivisors[0]
                       : LargeDivisors[(X >> 8) % std::size(LargeDivisors)];
      switch (X & 7) {
      case 0:
      case 1:
        return D;
      case 2:
        return 0xffffffffu - uint32_t(X >> 16 & 1);
      default: {
        uint64_t K = 0xffffffffull / D;
        static const int64_t Delta[] = {-1, 0, 1};
        uint64_t V =
            (X >> 16 & 3) == 3 ? K * D + D - 1 : K * D + Delta[(X >> 16 & 3)];
        return uint32_t(std::min<uint64_t>(V, 0xffffffffull));
      }
      }
    };
    return uint64_t(one(H)) |
           ((H >> 40 & 1) ? 0 : uint64_t(one(mix64(H))) << 32);
  }
  case Pattern::Denormals: {
    // Half denormals (the effect of one denormal ulp, flush/no-flush
    // paths), normals just above FLT_MIN, values whose low half is a
    // bf16 rounding tie or next to one, and NaNs with payload 1; either
    // sign.
    auto one = [](uint64_t X) -> uint32_t {
      static const uint32_t Low[] = {0x8000, 0x7fff, 0x8001, 0x0000};
      uint32_t Sign = uint32_t(X >> 63) << 31;
      switch (X & 7) {
      case 0:
        return Sign | (1u << 23) | uint32_t(X >> 8 & 0x7fffff);
      case 1:
      case 2:
        return Sign | (uint32_t(0x3e00 + (X >> 8) % 0x200) << 16) |
               Low[(X >> 20) % 4];
      case 3:
        return Sign | 0x7f800001;
      default:
        return Sign | uint32_t(X >> 8 & 0x7fffff);
      }
    };
    return uint64_t(one(H)) | uint64_t(one(mix64(H))) << 32;
  }
  case Pattern::Halves: {
    uint64_t R = 0;
    for (unsigned K = 0; K < 4; ++K) {
      uint64_t X = mix64(H + K);
      uint16_t V;
      if ((X & 7) == 0)
        V = EdgeF16[(X >> 3) % std::size(EdgeF16)];
      else // sign, exponent 13..16 (0.0625..4), random mantissa
        V = uint16_t((X >> 8 & 0x8000) | ((11 + (X >> 20) % 6) << 10) |
                     (X >> 30 & 0x3ff));
      R |= uint64_t(V) << (16 * K);
    }
    return R;
  }
  }
  return H;
}

void fillBytes(Pattern P, uint64_t Seed, uint64_t Stream, int64_t Off,
               uint8_t *Out, size_t N, ArrayRef<uint32_t> Consts) {
  uint64_t Salt = fillSalt(Seed, Stream);
  size_t Done = 0;
  while (Done < N) {
    int64_t O = Off + int64_t(Done);
    int64_t W = O >= 0 ? O / 8 : -((-O + 7) / 8);
    unsigned In = unsigned(O - W * 8);
    uint64_t V = patternWord(P, fillHash(Salt, W), Seed, Stream, W, Consts);
    size_t Take = std::min<size_t>(8 - In, N - Done);
    std::memcpy(Out + Done, reinterpret_cast<uint8_t *>(&V) + In, Take);
    Done += Take;
  }
}

//===----------------------------------------------------------------------===//
// Argument model and launch shapes
//===----------------------------------------------------------------------===//

namespace {

struct PtrArg {
  unsigned Arg;    // explicit index
  uint64_t Offset; // kernarg offset
};
struct ScalarSlot {
  unsigned Arg;
  uint64_t Offset;
  unsigned Size;
  bool Control = true;
};
struct LdsArg {
  unsigned Arg;
  uint64_t Offset;
  uint64_t Align;
};
struct ArgModel {
  std::vector<PtrArg> Ptrs;
  std::vector<ScalarSlot> Slots;
  std::vector<LdsArg> Lds;
  bool DynLds = false;
};

Expected<ArgModel> argModel(const KernelInfo &K) {
  ArgModel M;
  unsigned Explicit = 0;
  for (const KernelArgMetadata &A : K.Meta->Args) {
    if (A.ValueKind == "hidden_dynamic_lds_size")
      M.DynLds = true;
    if (A.isHidden())
      continue;
    unsigned I = Explicit++;
    if (A.ValueKind == "global_buffer") {
      if (A.Size != 8)
        return createStringError(
            formatv("argument {0} is a {1}-byte global_buffer", I, A.Size).str());
      M.Ptrs.push_back({I, A.Offset});
    } else if (A.ValueKind == "dynamic_shared_pointer") {
      if (A.Size != 4)
        return createStringError(
            formatv("argument {0} is a {1}-byte LDS pointer", I, A.Size).str());
      M.Lds.push_back({I, A.Offset, std::max<uint64_t>(A.PointeeAlign, 4)});
      M.DynLds = true;
    } else if (A.ValueKind == "by_value") {
      uint64_t Off = A.Offset, End = A.Offset + A.Size;
      if (A.Size == 1 || A.Size == 2 || A.Size == 4 || A.Size == 8) {
        M.Slots.push_back({I, Off, unsigned(A.Size)});
        continue;
      }
      for (; Off + 4 <= End; Off += 4)
        M.Slots.push_back({I, Off, 4});
      for (; Off < End; ++Off)
        M.Slots.push_back({I, Off, 1});
    } else {
      return createStringError(formatv("argument {0} has value kind '{1}', "
                                       "which tier 1 cannot synthesize",
                                       I, A.ValueKind)
                                   .str());
    }
  }
  return M;
}

struct Shape {
  std::array<uint32_t, 3> Grid{1, 1, 1}, Block{64, 1, 1};
  unsigned Seeds = 0; // data seeds on this shape (0: Tier1Options::Seeds)
  std::string str() const {
    return formatv("grid {0}x{1}x{2}, block {3}x{4}x{5}", Grid[0], Grid[1],
                   Grid[2], Block[0], Block[1], Block[2])
        .str();
  }
};

std::vector<Shape> launchShapes(const KernelInfo &K, unsigned Max) {
  const KernelMetadata &M = *K.Meta;
  uint32_t MaxFlat = M.MaxFlatWorkgroupSize ? M.MaxFlatWorkgroupSize : 1024;
  MaxFlat = std::min<uint32_t>(MaxFlat, 1024);
  uint32_t GY = K.KD.enableSgprWorkgroupId(1) ? 2 : 1;
  uint32_t GZ = K.KD.enableSgprWorkgroupId(2) ? 2 : 1;
  unsigned TidDims = K.KD.enableVgprWorkitemId();
  std::vector<Shape> S;
  auto fit = [&](std::array<uint32_t, 3> B) {
    while (uint64_t(B[0]) * B[1] * B[2] > MaxFlat) {
      if (B[2] > 1)
        B[2] = (B[2] + 1) / 2;
      else if (B[1] > 1)
        B[1] = (B[1] + 1) / 2;
      else
        B[0] = std::max<uint32_t>(1, MaxFlat);
    }
    return B;
  };
  std::array<uint32_t, 3> B1, B2, B3;
  if (M.ReqdWorkgroupSize) {
    B1 = B2 = B3 = *M.ReqdWorkgroupSize;
  } else if (TidDims == 0) {
    B1 = fit({61, 1, 1}); // one partial wave: odd, less than a wave
    B2 = fit({256, 1, 1});
    B3 = fit({MaxFlat >= 97 ? 97u : std::max(1u, MaxFlat - 1), 1, 1});
  } else {
    uint32_t Z = TidDims >= 2 ? 2 : 1;
    B1 = fit({8, 8, 1});
    B2 = fit({16, 8, Z});
    B3 = fit({13, 5, TidDims >= 2 ? 3u : 1u});
  }
  // A grid dimension whose workgroup id the kernel does not read is 1:
  // the workgroups along it would repeat the same work on the same bytes,
  // a race between workgroups (which the emulator reports, so K0 would be
  // dropped on such an input).
  std::array<uint32_t, 3> B4 = M.ReqdWorkgroupSize ? B1
                               : TidDims == 0     ? fit({64, 1, 1})
                                                  : B1;
  S.push_back({{1, 1, 1}, B1});
  // More than 1024 work-items along x in one shape: kernels that bound the
  // global id by a constant (if (t < 1024)) take both sides.
  S.push_back({{GY > 1 ? 5u : 10u, GY, GZ}, B2});
  S.push_back({{2, GY > 1 ? 3u : 1u, 1}, B3});
  S.push_back({{GY > 1 || GZ > 1 ? 2u : 10u, GY, GZ > 1 ? 5u : 1u}, B4});
  // One work-item (one seed): a kernel whose work is done by one chosen
  // work-item (if (t == 0)) differs from one that picks another only when
  // that other one does not exist.
  if (!M.ReqdWorkgroupSize)
    S.push_back({{1, 1, 1}, {1, 1, 1}, 1});
  if (S.size() > Max)
    S.resize(std::max(1u, Max));
  return S;
}

//===----------------------------------------------------------------------===//
// Discovery: K0 with memory mapped on demand
//===----------------------------------------------------------------------===//

/// Index-like contents of a buffer (the structured extra inputs): library
/// kernels take CSR row pointers, column indices, permutations and flags,
/// which random data never makes valid, so they exit early or take one
/// path. Element I is relative to the pointer (negative below it).
enum class Layout : uint8_t {
  Data,   // the input's pattern
  Iota32, // a[i] = i: identity permutation, one entry per CSR row
  Ramp32, // CSR row pointers with rows of 2, 0, 3, 1, 70 entries (a[0] = 0)
  Iota64, // the same with 64-bit elements
  Ramp64,
  Small32, // non-negative integers below the smallest count
  Ones32,  // every element 1 (flags set)
};
constexpr unsigned NumLayouts = 7;
const char *layoutName(Layout L) {
  switch (L) {
  case Layout::Data:
    return "data";
  case Layout::Iota32:
    return "iota32";
  case Layout::Ramp32:
    return "rowptr32";
  case Layout::Iota64:
    return "iota64";
  case Layout::Ramp64:
    return "rowptr64";
  case Layout::Small32:
    return "index32";
  case Layout::Ones32:
    return "ones32";
  }
  return "?";
}

int64_t layoutElement(Layout L, int64_t I, uint64_t Seed, uint64_t Stream,
                      uint32_t Bound) {
  switch (L) {
  case Layout::Iota32:
  case Layout::Iota64:
    return I;
  case Layout::Ramp32:
  case Layout::Ramp64: {
    // Rows 2, 0, 3, 1 and one longer than a wave (70): kernels that give
    // a row to a (sub)wave loop over it in steps of 32 or 64 lanes, and a
    // candidate that breaks the second step differs only on such a row.
    static const int64_t Partial[5] = {0, 2, 2, 5, 6};
    int64_t Q = I >= 0 ? I / 5 : -((-I + 4) / 5);
    return 76 * Q + Partial[I - 5 * Q];
  }
  case Layout::Small32:
    return int64_t(mix64(Seed ^ mix64(Stream) ^ mix64(uint64_t(I))) %
                   std::max<uint32_t>(Bound, 1));
  case Layout::Ones32:
    return 1;
  case Layout::Data:
    break;
  }
  return 0;
}

struct ArenaFill {
  unsigned Arg;
  uint64_t Base, Pointer;
  Pattern P;
  uint64_t Seed, Stream;
  ArrayRef<uint32_t> Consts;
  /// Non-zero: the buffer is an array of pointers; 8-byte word W holds
  /// PointeeMid + W * 1 MiB (into the pointee arena).
  uint64_t PointeeMid = 0;
  bool IsPointee = false; // this arena is what such pointers point to
  Layout L = Layout::Data;
  uint32_t Bound = 1; // Small32: values below this
};

/// Pointee arena of pointer argument I (far from the argument arenas).
inline uint64_t pointeeBase(unsigned I) { return arenaBase(512 + I); }
/// The inner buffers of an array of pointers are this far apart (words
/// -127..127 of the array stay in the pointee arena): each gets its own
/// clusters and guards, and no footprint (64 MiB at most) reaches another.
constexpr uint64_t PointeeSpacing = 256ull << 20;

void fillArena(const ArenaFill &A, int64_t Off, uint8_t *Out, size_t N) {
  if (!A.PointeeMid && A.L != Layout::Data) {
    unsigned ES = A.L == Layout::Iota64 || A.L == Layout::Ramp64 ? 8 : 4;
    for (size_t Done = 0; Done < N;) {
      int64_t O = Off + int64_t(Done);
      int64_t E = O >= 0 ? O / ES : -((-O + ES - 1) / ES);
      unsigned In = unsigned(O - E * ES);
      int64_t V = layoutElement(A.L, E, A.Seed, A.Stream, A.Bound);
      size_t Take = std::min<size_t>(ES - In, N - Done);
      std::memcpy(Out + Done, reinterpret_cast<uint8_t *>(&V) + In, Take);
      Done += Take;
    }
    return;
  }
  if (!A.PointeeMid) {
    fillBytes(A.P, A.Seed, A.Stream, Off, Out, N, A.Consts);
    return;
  }
  for (size_t Done = 0; Done < N;) {
    int64_t O = Off + int64_t(Done);
    int64_t W = O >= 0 ? O / 8 : -((-O + 7) / 8);
    unsigned In = unsigned(O - W * 8);
    uint64_t V = A.PointeeMid + uint64_t(W) * PointeeSpacing;
    size_t Take = std::min<size_t>(8 - In, N - Done);
    std::memcpy(Out + Done, reinterpret_cast<uint8_t *>(&V) + In, Take);
    Done += Take;
  }
}

constexpr uint64_t Chunk = 64 * 1024;
/// Arena memory is mapped (and filled) on demand in pieces this large:
/// footprints are mostly far smaller than a chunk, and filling 64 KiB per
/// piece was most of asmevo-verify's time on rocSPARSE objects. An access
/// that straddles a mapped piece and an unmapped one makes discovery run
/// again with what it mapped pre-mapped; the runs after the first map whole
/// chunks, so misaligned wide accesses rerun no more often than with 64 KiB
/// pieces alone (one more run at most).
constexpr uint64_t MapChunk = 4 * 1024;

class Discovery : public emu::Memory::Observer {
public:
  Discovery(ArrayRef<ArenaFill> Arenas, uint64_t Max, uint64_t Poison)
      : Arenas(Arenas), Max(Max), Poison(Poison) {}
  uint64_t poisonSeed() override { return Poison; }

  struct Bits {
    std::vector<uint64_t> R = std::vector<uint64_t>(Chunk / 64),
                          W = std::vector<uint64_t>(Chunk / 64);
  };
  std::map<uint64_t, Bits> Chunks; // by chunk address
  uint64_t Mapped = 0;
  bool Overflow = false;
  /// Aliasing inputs: which work-item touched each byte (Owners), so that
  /// an input on which two work-items access the same byte, one of them
  /// writing, is recognized: K0's result would depend on their order.
  bool TrackOwners = false;
  std::string Conflict; // the first such byte, empty: none
  uint64_t Thread = 0;  // accessor(): the current work-item, +1
  std::map<uint64_t, std::vector<uint64_t>> Owners; // by chunk address
  static constexpr uint64_t OwnerWrote = 1ull << 63, OwnerShared = 1ull << 62;
  void accessor(uint64_t Wg, unsigned Wave, unsigned Lane) override {
    Thread = (Wg << 24 | uint64_t(Wave & 0xffff) << 8 | (Lane & 0xff)) + 1;
  }
  void own(uint64_t B, bool Write) {
    std::vector<uint64_t> &O = Owners[B / Chunk * Chunk];
    if (O.empty())
      O.assign(Chunk, 0);
    uint64_t &S = O[B % Chunk];
    uint64_t Who = S & ~(OwnerWrote | OwnerShared);
    if (!S) {
      S = Thread | (Write ? OwnerWrote : 0);
      return;
    }
    if (!(S & OwnerShared) && Who == Thread) {
      S |= Write ? OwnerWrote : 0;
      return;
    }
    if (!Write && !(S & OwnerWrote)) {
      S |= OwnerShared; // read by several work-items: fine until a write
      return;
    }
    if (Conflict.empty())
      Conflict = formatv("address {0:x} is {1} by one work-item and {2} "
                         "by another",
                         B, (S & OwnerWrote) ? "written" : "read",
                         Write ? "written" : "read")
                     .str();
  }
  std::vector<std::pair<uint64_t, uint64_t>> Want; // ranges to pre-map
  std::mutex Mu;

  const ArenaFill *arenaOf(uint64_t Addr) const {
    for (const ArenaFill &A : Arenas)
      if (Addr >= A.Base && Addr - A.Base < ArenaSpan)
        return &A;
    return nullptr;
  }

  Expected<emu::Region *> mapFilled(emu::Memory &M, const ArenaFill &A,
                                    uint64_t Lo, uint64_t Hi) {
    auto R = M.map(Lo, Hi - Lo, emu::PermRW,
                   formatv("arg{0} chunk", A.Arg).str());
    if (!R)
      return R.takeError();
    fillArena(A, int64_t(Lo - A.Pointer), (*R)->Data.data(), Hi - Lo);
    Mapped += charge(Lo, Hi, /*Commit=*/true);
    return *R;
  }

  /// The footprint limit counts whole chunks (every chunk [Lo, Hi) touches
  /// that is not counted yet), as when memory was mapped a chunk at a
  /// time: the inputs that fit are the same with the smaller pieces.
  uint64_t charge(uint64_t Lo, uint64_t Hi, bool Commit) {
    uint64_t N = 0;
    for (uint64_t C = Lo / Chunk; C <= (Hi - 1) / Chunk; ++C)
      if (!Charged.count(C)) {
        N += Chunk;
        if (Commit)
          Charged.insert(C);
      }
    return N;
  }
  llvm::DenseSet<uint64_t> Charged; // chunk numbers
  uint64_t Piece = MapChunk;        // on-demand mapping granularity

  emu::Region *access(emu::Memory &M, uint64_t Addr, uint64_t Len,
                      bool Write) override {
    std::lock_guard<std::mutex> L(Mu);
    const ArenaFill *A = arenaOf(Addr);
    if (!A || Addr + Len - A->Base > ArenaSpan)
      return M.find(Addr, Len);
    emu::Region *R = M.find(Addr, Len);
    if (!R) {
      uint64_t Lo = Addr / Piece * Piece,
               Hi = (Addr + Len + Piece - 1) / Piece * Piece;
      Lo = std::max(Lo, A->Base);
      Hi = std::min(Hi, A->Base + ArenaSpan);
      // Clip against mapped neighbours (regions are sorted and disjoint:
      // the first that ends after Lo, on); an access that straddles one is
      // mapped as one region on the next attempt.
      ArrayRef<std::unique_ptr<emu::Region>> Regs = M.regions();
      auto First = std::partition_point(
          Regs.begin(), Regs.end(), [&](const std::unique_ptr<emu::Region> &R) {
            return R->Base + R->Size <= Lo;
          });
      for (auto It = First; It != Regs.end() && (*It)->Base < Hi; ++It) {
        uint64_t B = (*It)->Base, E = (*It)->Base + (*It)->Size;
        if (E <= Addr)
          Lo = std::max(Lo, E);
        else if (B >= Addr + Len)
          Hi = std::min(Hi, B);
        else {
          Want.push_back({Addr, Addr + Len});
          return nullptr;
        }
      }
      if (Mapped + charge(Lo, Hi, /*Commit=*/false) > Max) {
        Overflow = true;
        return nullptr;
      }
      auto NR = mapFilled(M, *A, Lo, Hi);
      if (!NR) {
        consumeError(NR.takeError());
        return nullptr;
      }
      R = *NR;
    }
    // One map lookup per chunk and one mask per 64-byte word: this runs
    // for every access K0 makes.
    for (uint64_t B = Addr, End = Addr + Len; B < End;) {
      uint64_t ChunkEnd = std::min(End, B / Chunk * Chunk + Chunk);
      std::vector<uint64_t> &Set =
          Write ? Chunks[B / Chunk * Chunk].W : Chunks[B / Chunk * Chunk].R;
      for (uint64_t O = B % Chunk, OE = O + (ChunkEnd - B); O < OE;) {
        uint64_t N = std::min<uint64_t>(OE - O, 64 - O % 64);
        Set[O / 64] |= (N == 64 ? ~0ull : ((1ull << N) - 1)) << (O % 64);
        O += N;
      }
      if (TrackOwners)
        for (; B < ChunkEnd; ++B)
          own(B, Write);
      B = ChunkEnd;
    }
    return R;
  }
  uint32_t approx(uint64_t, unsigned, unsigned, uint64_t) override { return 0; }
  // The oracle's plain runs' choice, so that the footprint found is theirs.
  uint64_t unspecifiedSeed() override { return UnspecifiedSeeds[0]; }

private:
  ArrayRef<ArenaFill> Arenas;
  uint64_t Max, Poison;
};

struct DiscoveryResult {
  emu::RunResult RR;
  bool Overflow = false;
  std::string Conflict; // with TrackOwners: two work-items, one byte
  uint64_t Bytes = 0; // mapped on demand
  std::vector<Footprint> FP;
  std::map<uint64_t, uint64_t> Profile;
};

std::vector<std::pair<int64_t, int64_t>>
intervals(const std::map<uint64_t, Discovery::Bits> &Chunks, uint64_t Base,
          uint64_t Pointer, bool Write, bool Both) {
  std::vector<std::pair<int64_t, int64_t>> Out;
  for (const auto &[CA, Bt] : Chunks) {
    if (CA < Base || CA - Base >= ArenaSpan)
      continue;
    for (size_t Wd = 0; Wd < Bt.R.size(); ++Wd) {
      uint64_t M = Both ? (Bt.R[Wd] | Bt.W[Wd]) : Write ? Bt.W[Wd] : Bt.R[Wd];
      if (!M)
        continue;
      for (unsigned B = 0; B < 64; ++B) {
        if (!(M >> B & 1))
          continue;
        int64_t Rel = int64_t(CA + Wd * 64 + B - Pointer);
        if (!Out.empty() && Out.back().second == Rel)
          ++Out.back().second;
        else
          Out.push_back({Rel, Rel + 1});
      }
    }
  }
  return Out;
}

DiscoveryResult discover(emu::Emulator &Emu, const KernelInfo &K,
                         const emu::Dispatch &D, ArrayRef<ArenaFill> Arenas,
                         const Tier1Options &O, bool Profile, uint64_t Poison,
                         bool TrackOwners = false, unsigned Interleave = 0) {
  DiscoveryResult Res;
  std::vector<std::pair<uint64_t, uint64_t>> PreMap;
  for (unsigned Attempt = 0; Attempt < 6; ++Attempt) {
    emu::Memory Mem;
    if (Error E = Emu.mapCodeObject(Mem)) {
      Res.RR.Kind = emu::ErrorKind::Invalid;
      Res.RR.Message = toString(std::move(E));
      return Res;
    }
    Discovery Obs(Arenas, O.MaxFootprint, Poison);
    Obs.TrackOwners = TrackOwners;
    Obs.Piece = Attempt ? Chunk : MapChunk;
    for (auto [Lo, Hi] : PreMap) {
      const ArenaFill *A = Obs.arenaOf(Lo);
      if (!A)
        continue;
      if (auto R = Obs.mapFilled(Mem, *A, Lo, Hi); !R)
        consumeError(R.takeError());
    }
    Mem.Obs = &Obs;
    emu::RunOptions RO;
    RO.Threads = 1;
    RO.Budget = O.Budget;
    RO.Profile = Profile;
    if (Interleave) {
      RO.InterleaveEvery = Interleave;
      RO.InterleaveAtomics = true;
    }
    Res.RR = Emu.run(K, D, Mem, RO);
    Mem.Obs = nullptr;
    Res.Overflow = Obs.Overflow;
    Res.Bytes = Obs.Mapped;
    Res.Conflict = Obs.Conflict;
    if (!Res.RR.ok() && !Obs.Want.empty() && !Obs.Overflow) {
      // Remap: every mapped arena range plus the straddling accesses,
      // coalesced, then run again.
      std::vector<std::pair<uint64_t, uint64_t>> All = Obs.Want;
      for (const auto &R : Mem.regions())
        if (Obs.arenaOf(R->Base))
          All.push_back({R->Base, R->Base + R->Size});
      for (auto &[Lo, Hi] : All) {
        Lo = Lo / Chunk * Chunk;
        Hi = (Hi + Chunk - 1) / Chunk * Chunk;
      }
      std::sort(All.begin(), All.end());
      PreMap.clear();
      for (auto &R : All) {
        if (!PreMap.empty() && R.first <= PreMap.back().second)
          PreMap.back().second = std::max(PreMap.back().second, R.second);
        else
          PreMap.push_back(R);
      }
      continue;
    }
    for (const ArenaFill &A : Arenas) {
      Footprint F;
      F.Arg = A.Arg;
      F.Pointer = A.Pointer;
      F.Pointee = A.IsPointee;
      F.Read = intervals(Obs.Chunks, A.Base, A.Pointer, false, false);
      F.Written = intervals(Obs.Chunks, A.Base, A.Pointer, true, false);
      Res.FP.push_back(std::move(F));
    }
    Res.Profile = std::move(Res.RR.Profile);
    return Res;
  }
  return Res;
}

uint64_t footprintBytes(ArrayRef<Footprint> FP) {
  uint64_t N = 0;
  for (const Footprint &F : FP)
    N += F.bytes();
  return N;
}

/// The final image of an input: clusters of K0's footprint, dword-aligned,
/// with guard regions; contents from the input's streams.
void buildRegions(TestInput &In, ArrayRef<ArenaFill> Arenas, uint64_t Guard) {
  for (size_t I = 0; I < Arenas.size(); ++I) {
    const ArenaFill &A = Arenas[I];
    const Footprint &F = In.Footprints[I];
    std::vector<std::pair<int64_t, int64_t>> T;
    for (auto V : {&F.Read, &F.Written})
      T.insert(T.end(), V->begin(), V->end());
    std::sort(T.begin(), T.end());
    std::vector<std::pair<int64_t, int64_t>> C;
    int64_t Gap = int64_t(4 * Guard);
    for (auto [Lo, Hi] : T) {
      Lo = Lo >= 0 ? Lo / 4 * 4 : -((-Lo + 3) / 4 * 4);
      Hi = Hi >= 0 ? (Hi + 3) / 4 * 4 : -((-Hi) / 4 * 4);
      if (!C.empty() && Lo <= C.back().second + Gap)
        C.back().second = std::max(C.back().second, Hi);
      else
        C.push_back({Lo, Hi});
    }
    std::string ArgName = formatv("arg{0}{1}", A.Arg, A.IsPointee ? "*" : "").str();
    int RegionArg = A.IsPointee ? -1 : int(A.Arg);
    auto guard = [&](int64_t Lo, int64_t Hi, StringRef What) {
      MemRegion G;
      G.Base = A.Pointer + Lo;
      G.Size = uint64_t(Hi - Lo);
      G.Perms = 0;
      G.K = MemRegion::Guard;
      G.Arg = RegionArg;
      G.Name = (ArgName + " guard " + What).str();
      In.Image.Regions.push_back(std::move(G));
    };
    if (C.empty()) {
      if (!A.IsPointee)
        guard(-int64_t(Guard), int64_t(Guard), "(no footprint)");
      continue;
    }
    for (size_t J = 0; J < C.size(); ++J) {
      auto [Lo, Hi] = C[J];
      guard(Lo - int64_t(Guard), Lo, "before");
      MemRegion R;
      R.Base = A.Pointer + Lo;
      R.Size = uint64_t(Hi - Lo);
      R.Perms = emu::PermRW;
      R.K = MemRegion::Buffer;
      R.Arg = RegionArg;
      R.Name = C.size() == 1 ? ArgName : formatv("{0}[{1}]", ArgName, J).str();
      R.Data.resize(R.Size);
      fillArena(A, Lo, R.Data.data(), R.Size);
      In.Image.Regions.push_back(std::move(R));
      guard(Hi, Hi + int64_t(Guard), "after");
    }
  }
  std::sort(In.Image.Regions.begin(), In.Image.Regions.end(),
            [](const MemRegion &A, const MemRegion &B) { return A.Base < B.Base; });
}

/// Two regions of an input's image overlap: K0 reached so far past one
/// pointer (a count near 2^31 times a row pitch) that it landed in another
/// argument's arena. Such an image cannot be mapped; the input is dropped.
std::string overlap(const TestInput &In) {
  const auto &R = In.Image.Regions; // sorted by base
  for (size_t I = 0; I + 1 < R.size(); ++I)
    if (R[I].Base + R[I].Size > R[I + 1].Base)
      return formatv("reaches past its arena: {0} overlaps {1}", R[I].Name,
                     R[I + 1].Name)
          .str();
  return "";
}

/// Finishes an input K0 ran cleanly on (\p R): its footprints, K0's cost and
/// the regions of its image. Returns why it cannot be used (two of its
/// regions overlap), or "".
std::string finishInput(TestInput &In, const DiscoveryResult &R,
                        ArrayRef<ArenaFill> Arenas, uint64_t Guard) {
  In.Footprints = R.FP;
  In.K0WaveInstructions = R.RR.WaveInstructions;
  buildRegions(In, Arenas, Guard);
  return overlap(In);
}

/// finishInput, then \p In is appended to \p Inputs or dropped with a note.
bool acceptInput(TestInput &In, const DiscoveryResult &R,
                 ArrayRef<ArenaFill> Arenas, uint64_t Guard,
                 std::vector<TestInput> &Inputs, unsigned &Dropped,
                 std::vector<std::string> &Notes) {
  if (std::string Why = finishInput(In, R, Arenas, Guard); !Why.empty()) {
    ++Dropped;
    Notes.push_back("dropped " + In.Name + ": K0 " + Why);
    return false;
  }
  Inputs.push_back(std::move(In));
  return true;
}

} // namespace

uint64_t Footprint::bytes() const {
  std::vector<std::pair<int64_t, int64_t>> T(Read);
  T.insert(T.end(), Written.begin(), Written.end());
  std::sort(T.begin(), T.end());
  uint64_t N = 0;
  int64_t End = std::numeric_limits<int64_t>::min();
  for (auto [Lo, Hi] : T) {
    Lo = std::max(Lo, End);
    if (Hi > Lo)
      N += uint64_t(Hi - Lo);
    End = std::max(End, Hi);
  }
  return N;
}

std::string Footprint::str() const {
  auto list = [](const std::vector<std::pair<int64_t, int64_t>> &V) {
    std::string S;
    for (size_t I = 0; I < V.size() && I < 4; ++I)
      S += formatv("{0}[{1},{2})", I ? " " : "", V[I].first, V[I].second).str();
    if (V.size() > 4)
      S += formatv(" ... ({0} ranges)", V.size()).str();
    return S.empty() ? std::string("-") : S;
  };
  return formatv("arg{0}{1}: read {2}; written {3}", Arg, Pointee ? "*" : "",
                 list(Read), list(Written))
      .str();
}

//===----------------------------------------------------------------------===//
// Synthesis
//===----------------------------------------------------------------------===//

std::optional<KernelCode> kernelCode(const CodeObject &CO,
                                     const KernelInfo &K) {
  auto TI = TargetInfo::get(CO.cpu() == "gfx9-4-generic" ? "gfx942" : CO.cpu(),
                            CO.features());
  if (!TI) {
    consumeError(TI.takeError());
    return std::nullopt;
  }
  const ElfSection *S = CO.sectionAt(K.CodeAddr);
  if (!S)
    return std::nullopt;
  uint64_t End = K.CodeSize ? K.CodeAddr + K.CodeSize : S->Addr + S->Size;
  End = std::min(End, S->Addr + S->Size);
  auto Bytes = CO.bytesAt(K.CodeAddr, End - K.CodeAddr);
  if (!Bytes) {
    consumeError(Bytes.takeError());
    return std::nullopt;
  }
  return KernelCode{*TI, *Bytes};
}

/// Literal operands of the kernel's code (thresholds, magic numbers, masks)
/// and their neighbours (+-1, +-2, +4 in the bit pattern: the next floats,
/// off-by-one integers), as data values: inputs at a constant's boundary
/// tell a kernel from one whose constant moved.
static std::vector<uint32_t> harvestConstants(const CodeObject &CO,
                                              const KernelInfo &K) {
  std::vector<uint32_t> Out;
  std::optional<KernelCode> Code = kernelCode(CO, K);
  if (!Code)
    return Out;
  TargetInfo &TI = *Code->TI;
  ArrayRef<uint8_t> Bytes = Code->Bytes;
  std::set<uint32_t> Seen;
  for (size_t Off = 0; Off + 4 <= Bytes.size() && Seen.size() < 48;) {
    const DecodedInst *D = TI.decode(Bytes.drop_front(Off));
    if (!D) {
      Off += 4;
      continue;
    }
    Off += D->Size;
    const MCInstrDesc &Desc = TI.desc(D->Inst.getOpcode());
    for (unsigned I = Desc.getNumDefs(); I < D->Inst.getNumOperands(); ++I) {
      const MCOperand &O = D->Inst.getOperand(I);
      if (!O.isImm() || I >= Desc.getNumOperands() ||
          Desc.operands()[I].RegClass == -1)
        continue;
      uint32_t V = uint32_t(O.getImm());
      if (int64_t(int32_t(V)) >= -16 && int32_t(V) <= 64)
        continue; // small integers: the count and small-int patterns

      if (Seen.insert(V).second)
        for (int64_t Dl : {0, -1, 1, -2, 2, 4})
          Out.push_back(uint32_t(int64_t(V) + Dl));
    }
  }
  return Out;
}

static uint64_t wildValue(unsigned Size) {
  switch (Size) {
  case 1: return 0xa5;
  case 2: return 0x3e00;               // 1.5 (f16)
  case 4: return 0x3fc00000;           // 1.5f
  default: return 0x3ff8000000000000ull; // 1.5
  }
}

Expected<std::vector<TestInput>>
synthesizeInputs(const CodeObject &CO, const KernelInfo &K,
                 const Tier1Options &O, std::vector<std::string> &Notes) {
  if (!K.Meta)
    return createStringError("kernel '" + K.Name +
                             "' has no metadata: tier 1 needs the kernarg "
                             "layout (give --spec or --capture)");
  auto ModelOr = argModel(K);
  if (!ModelOr)
    return createStringError("kernel '" + K.Name + "': " +
                             toString(ModelOr.takeError()) +
                             " (give --spec or --capture)");
  ArgModel &Model = *ModelOr;
  auto EmuOr = emu::Emulator::create(CO);
  if (!EmuOr)
    return EmuOr.takeError();
  emu::Emulator &Emu = **EmuOr;
  std::vector<Shape> Shapes = launchShapes(K, O.MaxShapes);
  std::vector<uint32_t> Consts = harvestConstants(CO, K);
  bool HasIntDiv = usesIntegerDivision(CO, K);
  if (!Consts.empty())
    Notes.push_back(formatv("{0} values derived from the kernel's constants "
                            "are mixed into the data",
                            Consts.size())
                        .str());

  uint32_t Static = K.KD.GroupSegmentFixedSize;
  // Pointer arguments whose buffers hold pointers (found below when K0
  // dereferences what it loads from them).
  std::set<unsigned> PtrArrays;
  // The demangled kernel name types the arguments (KernelSignature.h):
  // `T* const*` buffers are arrays of pointers from the start (SigArrays);
  // when every pointer's pointee is a known type, K0's faults are never
  // taken for arrays of pointers.
  std::optional<KernelSignature> Sig;
  std::set<unsigned> SigArrays;
  bool PtrArraysTried = false;
  if (O.Signature && StringRef(K.Name).starts_with("_Z")) {
    auto S = KernelSignature::get(*K.Meta);
    if (!S) {
      Notes.push_back("no signature: " + toString(S.takeError()));
    } else {
      Sig = std::move(*S);
      bool AllKnown = true;
      std::string Names;
      for (const PtrArg &P : Model.Ptrs) {
        const ParamType &T = Sig->Params[P.Arg];
        if (T.PointerDepth >= 2) {
          SigArrays.insert(P.Arg);
          Names += formatv(" arg{0} ({1})", P.Arg, T.Spelling).str();
        } else if (!T.ElementSize) {
          AllKnown = false;
        }
      }
      PtrArrays = SigArrays;
      PtrArraysTried = AllKnown;
      if (!Names.empty())
        Notes.push_back("arrays of device pointers by the signature:" + Names);
    }
  }
  // Added to every buffer pointer (one extra input): bits 32..34 and 12
  // set, as any allocation may have them (the arenas' pointers have them
  // clear, and their low dword is 0: a candidate that drops the low half of
  // a 64-bit pointer add is caught only with a non-zero one).
  uint64_t PointerShift = 0;
  // Argument I gets I * 8 KiB more, so no two pointers have the same
  // low dword (a candidate that takes one pointer's low dword with another's
  // high dword is caught).
  auto shiftOf = [&](unsigned Arg) -> uint64_t {
    return PointerShift ? PointerShift + (uint64_t(Arg) << 13) : 0;
  };
  auto makeDispatch = [&](const Shape &S, ArrayRef<uint64_t> SlotValues,
                          bool Padding = false) {
    emu::Dispatch D;
    D.Workgroups = S.Grid;
    D.WorkgroupSize = S.Block;
    D.Kernarg.assign(K.Meta->KernargSegmentSize, 0);
    uint64_t Items = uint64_t(S.Block[0]) * S.Block[1] * S.Block[2];
    if (Model.DynLds && Static < 65536) {
      uint64_t Dyn = std::min<uint64_t>(65536 - Static,
                                        std::max<uint64_t>(1024, 16 * Items));
      D.DynamicLds = uint32_t(Dyn / 16 * 16);
    }
    auto put = [&](uint64_t Off, uint64_t V, unsigned N) {
      if (Off + N > D.Kernarg.size())
        D.Kernarg.resize(Off + N);
      std::memcpy(D.Kernarg.data() + Off, &V, N);
    };
    for (const PtrArg &P : Model.Ptrs)
      put(P.Offset,
          arenaPointer(P.Arg) + (PtrArrays.count(P.Arg) ? 0 : shiftOf(P.Arg)),
          8);
    if (!Model.Lds.empty()) {
      uint64_t Per = D.DynamicLds / Model.Lds.size() / 16 * 16;
      for (size_t I = 0; I < Model.Lds.size(); ++I) {
        uint64_t Off = (Static + Model.Lds[I].Align - 1) / Model.Lds[I].Align *
                           Model.Lds[I].Align + I * Per;
        put(Model.Lds[I].Offset, Off, 4);
      }
    }
    for (size_t I = 0; I < Model.Slots.size(); ++I)
      put(Model.Slots[I].Offset, SlotValues[I], Model.Slots[I].Size);
    padKernarg(D.Kernarg, K.Meta->KernargSegmentSize);
    if (Padding) {
      // Bytes of no argument (alignment padding, the high bytes of a
      // dword that holds a char or short) are whatever the runtime's buffer
      // held: not zero here, so a candidate that reads them is caught.
      std::vector<bool> Used(D.Kernarg.size());
      for (const KernelArgMetadata &A : K.Meta->Args)
        for (uint64_t B = A.Offset; B < A.Offset + A.Size && B < Used.size();
             ++B)
          Used[B] = true;
      for (size_t B = 0; B < Used.size(); ++B)
        if (!Used[B])
          D.Kernarg[B] = uint8_t(0xa5 ^ (B * 0x3b));
    }
    return D;
  };
  auto arenas = [&](Pattern P, uint64_t Seed) {
    std::vector<ArenaFill> A;
    for (const PtrArg &Ptr : Model.Ptrs) {
      ArenaFill F{Ptr.Arg, arenaBase(Ptr.Arg), arenaPointer(Ptr.Arg), P, Seed,
                  Ptr.Arg, Consts};
      if (!PtrArrays.count(Ptr.Arg))
        F.Pointer += shiftOf(Ptr.Arg);
      if (PtrArrays.count(Ptr.Arg)) {
        uint64_t PB = pointeeBase(Ptr.Arg);
        F.PointeeMid = PB + ArenaPointerOffset;
        A.push_back(F);
        ArenaFill T{Ptr.Arg, PB, PB + ArenaPointerOffset, P, Seed,
                    1000 + Ptr.Arg, Consts};
        T.IsPointee = true;
        A.push_back(T);
      } else {
        A.push_back(F);
      }
    }
    return A;
  };
  // Count values: the work-items along x, a partial last workgroup, more
  // elements than work-items (grid-stride loops), and small counts (for
  // depths, degrees, the second dimension...): in variant 3 only the first
  // count slot gets N, the others 3; in variant 4 every count is 3; in
  // variant 5 the first gets N, the others 1; in variant 6 every count is 1;
  // variant 8 gives the first count N and the others 0;
  // variant 7 is 4N with a partial last workgroup, for kernels that handle
  // four elements per work-item (x4 vector loads): with counts near N only
  // the first workgroup of those has work, and nothing that depends on the
  // workgroup size is exercised.
  auto countOf = [](const Shape &S, unsigned Variant,
                    bool FirstSlot = true) -> uint64_t {
    uint64_t N = uint64_t(S.Grid[0]) * S.Block[0];
    switch (Variant % 9) {
    case 0: return N;
    case 1: return N > S.Block[0] / 2 + 1 ? N - (S.Block[0] / 2 + 1) : 1;
    case 2: return 2 * N + 3;
    case 3: return FirstSlot ? N : 3;
    case 4: return 3;
    case 5: return FirstSlot ? N : 1;
    case 6:
      return 1;
    case 7:
      return 4 * N > 2 * S.Block[0] + 1 ? 4 * N - (2 * S.Block[0] + 1) : 1;
    default:
      return FirstSlot ? N : 0; // empty loops (k = 0), n > 0 tests
    }
  };
  // Count variant of (shape, seed): every shape gets three different ones;
  // the odd multi-workgroup shapes get 4N (partial).
  auto countVariant = [](size_t SI, unsigned Seed) -> unsigned {
    static const unsigned Table[5][3] = {
        {0, 1, 2}, {2, 3, 7}, {7, 5, 1}, {6, 4, 8}, {0, 4, 6}};
    return Table[SI % 5][Seed % 3] + (SI / 5 + Seed / 3);
  };

  auto poisonFor = [](uint64_t Seed) { return mix64(Seed ^ 0xdeadbeefcafeull) | 1; };

  // Scalar classification on the second shape.
  const Shape &Probe = Shapes[std::min<size_t>(1, Shapes.size() - 1)];
  std::vector<uint64_t> Base(Model.Slots.size(), countOf(Probe, 0));
  DiscoveryResult BaseRun;
  bool BaseOk = false;
  auto probeBase = [&]() {
    for (uint64_t V : {countOf(Probe, 0), uint64_t(1), uint64_t(0)}) {
      std::fill(Base.begin(), Base.end(), V);
      BaseRun = discover(Emu, K, makeDispatch(Probe, Base),
                         arenas(Pattern::Floats32, 1), O, false, poisonFor(1));
      if (BaseRun.RR.ok() && !BaseRun.Overflow) {
        BaseOk = true;
        return;
      }
    }
  };
  probeBase();
  // By-value 8-byte arguments that K0 dereferences (rocBLAS's
  // rocblas_internal_val_ptr: a scalar or a device pointer to it, chosen
  // by a flag argument): with the counts of the probe (N, then 1: an odd
  // flag), each 8-byte scalar gets its own marker value below the arenas;
  // a fault at a marker makes that argument a pointer into its own arena.
  auto faultAddress = [](const emu::RunResult &RR, uint64_t &A) {
    if (RR.Kind != emu::ErrorKind::Fault)
      return false;
    size_t P = RR.Message.find("address 0x");
    if (P != std::string::npos)
      P += 8;
    else if ((P = RR.Message.find(" at 0x")) != std::string::npos)
      P += 4;
    else
      return false;
    return !StringRef(RR.Message)
                .substr(P + 2)
                .take_while(llvm::isHexDigit)
                .getAsInteger(16, A);
  };
  constexpr uint64_t Marker = 0x7e0000000000ull, MarkerStep = 1ull << 24;
  bool Converted = false;
  for (uint64_t C : {countOf(Probe, 0), uint64_t(1)}) {
    for (unsigned Round = 0; Round < 4; ++Round) {
      std::vector<uint64_t> M(Model.Slots.size(), C);
      bool Any = false;
      for (size_t I = 0; I < Model.Slots.size(); ++I)
        if (Model.Slots[I].Size == 8) {
          M[I] = Marker + I * MarkerStep;
          Any = true;
        }
      if (!Any)
        break;
      DiscoveryResult R =
          discover(Emu, K, makeDispatch(Probe, M), arenas(Pattern::Floats32, 1),
                   O, false, poisonFor(1));
      uint64_t A;
      if (!faultAddress(R.RR, A) || A < Marker ||
          (A - Marker) / MarkerStep >= Model.Slots.size())
        break;
      size_t I = (A - Marker) / MarkerStep;
      if (Model.Slots[I].Size != 8 || A - M[I] >= 4096)
        break;
      ScalarSlot Sl = Model.Slots[I];
      Model.Slots.erase(Model.Slots.begin() + I);
      Model.Ptrs.push_back({Sl.Arg, Sl.Offset});
      Notes.push_back(formatv("arg{0}: a by-value argument that K0 "
                              "dereferences, given a buffer",
                              Sl.Arg)
                          .str());
      Converted = true;
    }
  }
  if (Converted) {
    std::sort(Model.Ptrs.begin(), Model.Ptrs.end(),
              [](const PtrArg &X, const PtrArg &Y) { return X.Arg < Y.Arg; });
    Base.assign(Model.Slots.size(), countOf(Probe, 0));
    BaseOk = false;
    probeBase();
  }
  // LLVM enables the workgroup id x SGPR in every kernel descriptor, so
  // whether a kernel reads it shows only in a run: one whose workgroups
  // all do the same work (rocSPARSE's second reduction passes over a
  // workspace, one block by design) races between them on every shape
  // with more than one workgroup along x. When the probe shape races and
  // one workgroup along x does not, every shape gets one.
  if (!BaseOk && BaseRun.RR.Kind == emu::ErrorKind::Race && Probe.Grid[0] > 1) {
    std::vector<Shape> Saved = Shapes;
    for (Shape &Sh : Shapes)
      Sh.Grid[0] = 1;
    probeBase();
    if (BaseOk)
      Notes.push_back("one workgroup along x: K0's workgroups race with each "
                      "other (it does not read the workgroup id x)");
    else
      Shapes = Saved;
  }
  // Arrays of pointers (T** arguments): when K0 faults at an address in no
  // arena, make every pointer argument an array of pointers into its own
  // pointee arena, then drop the ones K0 does not need that for.
  auto detectPtrArrays = [&](const emu::Dispatch &D, Pattern P, uint64_t Seed,
                             uint64_t Poison) -> bool {
    if (PtrArraysTried || Model.Ptrs.empty())
      return false;
    PtrArraysTried = true;
    auto run = [&]() {
      return discover(Emu, K, D, arenas(P, Seed), O, false, Poison);
    };
    for (const PtrArg &Ptr : Model.Ptrs)
      PtrArrays.insert(Ptr.Arg);
    DiscoveryResult R = run();
    if (!R.RR.ok() || R.Overflow) {
      Notes.push_back("no arrays of pointers: with every buffer holding "
                      "pointers K0 still fails: " +
                      (R.Overflow ? std::string("footprint too large")
                                  : R.RR.Message));
      PtrArrays = SigArrays;
      return false;
    }
    for (const PtrArg &Ptr : Model.Ptrs) {
      if (SigArrays.count(Ptr.Arg))
        continue;
      PtrArrays.erase(Ptr.Arg);
      DiscoveryResult R2 = run();
      if (!R2.RR.ok() || R2.Overflow)
        PtrArrays.insert(Ptr.Arg);
    }
    std::string Names;
    for (unsigned A : PtrArrays)
      Names += formatv(" arg{0}", A).str();
    Notes.push_back("arrays of pointers (K0 dereferences what it loads "
                    "from them):" + Names);
    return true;
  };
  auto wildFault = [&](const emu::RunResult &RR) {
    if (RR.Kind != emu::ErrorKind::Fault)
      return false;
    size_t P = RR.Message.find("address 0x");
    uint64_t A;
    if (P == std::string::npos ||
        StringRef(RR.Message).substr(P + 10).take_while(llvm::isHexDigit)
            .getAsInteger(16, A))
      return false;
    // Wild: outside every arena of a pointer argument (or its pointees).
    // An address in the arena span of no argument is wild too: a random
    // row pitch times a row index lands there (rocBLAS's lda).
    if (A < ArenaStart)
      return true;
    uint64_t Arena = (A - ArenaStart) / ArenaSpan;
    for (const PtrArg &Ptr : Model.Ptrs)
      if (Arena == Ptr.Arg ||
          (PtrArrays.count(Ptr.Arg) && A - pointeeBase(Ptr.Arg) < ArenaSpan))
        return false;
    return true;
  };
  if (!BaseOk && wildFault(BaseRun.RR)) {
    std::fill(Base.begin(), Base.end(), countOf(Probe, 0));
    if (detectPtrArrays(makeDispatch(Probe, Base), Pattern::Floats32, 1,
                        poisonFor(1))) {
      BaseRun = discover(Emu, K, makeDispatch(Probe, Base),
                         arenas(Pattern::Floats32, 1), O, false, poisonFor(1));
      BaseOk = BaseRun.RR.ok() && !BaseRun.Overflow;
    }
  }
  if (!BaseOk) {
    if (BaseRun.RR.Kind == emu::ErrorKind::Invalid)
      return createStringError("K0 cannot run on the emulator: " +
                               BaseRun.RR.Message);
    Notes.push_back("scalar probe: K0 fails with every scalar set to a count, "
                    "1 or 0 (" +
                    (BaseRun.Overflow ? std::string("footprint too large")
                                      : BaseRun.RR.Message) +
                    ")");
  } else {
    uint64_t BaseBytes = footprintBytes(BaseRun.FP);
    unsigned Probes = 0;
    for (size_t I = 0; I < Model.Slots.size(); ++I) {
      if (Probes++ >= O.MaxScalarProbes)
        break; // unprobed slots stay control values
      // A data slot neither bounds the footprint (value 1 touches the same
      // bytes as the base count) nor blows it up (a float-like value).
      Tier1Options PO = O;
      // The cap is on mapped bytes (64 KiB chunks). With arrays of
      // pointers each inner buffer maps a chunk of its own, so the cap grows
      // from the base run's mapping, not from the bytes it touched (rocBLAS
      // batched hpmv: 58,928 bytes touched, 1.19 MiB mapped: every probe
      // overflowed and every slot became a count). Other kernels keep the
      // cap on touched bytes (the in-tree mutation sample is unchanged).
      uint64_t CapBase =
          PtrArrays.empty() ? BaseBytes : std::max(BaseBytes, BaseRun.Bytes);
      PO.MaxFootprint = std::min(O.MaxFootprint, 2 * CapBase + (1 << 20));
      PO.Budget = std::min<uint64_t>(O.Budget, 1 << 20);
      std::vector<uint64_t> V = Base;
      V[I] = Base[I] == 1 ? 2 : 1;
      DiscoveryResult Small = discover(Emu, K, makeDispatch(Probe, V),
                                       arenas(Pattern::Floats32, 1), PO, false,
                                       poisonFor(1));
      bool Data = Small.RR.ok() && !Small.Overflow;
      for (size_t F = 0; Data && F < Small.FP.size(); ++F)
        Data = Small.FP[F].Read == BaseRun.FP[F].Read &&
               Small.FP[F].Written == BaseRun.FP[F].Written;
      if (Data) {
        V[I] = wildValue(Model.Slots[I].Size);
        DiscoveryResult R = discover(Emu, K, makeDispatch(Probe, V),
                                     arenas(Pattern::Floats32, 1), PO, false,
                                     poisonFor(1));
        Data = R.RR.ok() && !R.Overflow &&
               footprintBytes(R.FP) <= 2 * BaseBytes + 65536 &&
               R.RR.WaveInstructions <= 4 * BaseRun.RR.WaveInstructions + 10000;
      }
      Model.Slots[I].Control = !Data;
    }
  }
  // A floating-point or complex value (alpha, beta) is data whatever the
  // probe saw: alpha == 0 returns early, which changes the footprint, and
  // counts as its bits are denormals.
  if (Sig)
    for (ScalarSlot &Sl : Model.Slots)
      if (const ParamType &T = Sig->Params[Sl.Arg];
          !T.PointerDepth && (T.ElementKind == ParamType::Float ||
                              T.ElementKind == ParamType::Complex))
        Sl.Control = false;
  {
    std::string S;
    for (const ScalarSlot &Sl : Model.Slots)
      S += formatv(" arg{0}@{1}:{2}", Sl.Arg, Sl.Offset,
                   Sl.Control ? "count" : "data")
               .str();
    if (!S.empty())
      Notes.push_back("scalar slots:" + S);
  }

  // Aliasing pointer arguments. The metadata says nothing against two
  // pointer arguments naming the same buffer unless one is .is_restrict, so
  // a caller may pass the same pointer twice (in-place operation), and a
  // candidate that reorders one work-item's loads and stores across two
  // arguments differs from K0 there. Pairs: an argument K0 writes made
  // equal to another one it reads or writes. Such an input is kept only
  // when no two work-items of K0 touch the same byte with one of them
  // writing (else K0's own result depends on their order on hardware).
  auto addAliasingInputs =
      [&](std::vector<TestInput> &Ins,
          const std::vector<std::pair<Pattern, uint64_t>> &Data) {
        std::vector<bool> Restrict;
        for (const KernelArgMetadata &MA : K.Meta->Args)
          if (!MA.isHidden())
            Restrict.push_back(MA.IsRestrict);
        size_t NP = Model.Ptrs.size();
        std::vector<bool> Reads(NP), Writes(NP);
        for (const TestInput &In : Ins)
          for (const Footprint &F : In.Footprints)
            for (size_t P = 0; P < NP; ++P)
              if (!F.Pointee && F.Arg == Model.Ptrs[P].Arg) {
                Reads[P] = Reads[P] || !F.Read.empty();
                Writes[P] = Writes[P] || !F.Written.empty();
              }
        std::vector<std::pair<size_t, size_t>> Pairs; // (written, aliased)
        for (size_t J = 0; J < NP; ++J)
          for (size_t I = 0; I < NP; ++I) {
            unsigned AJ = Model.Ptrs[J].Arg, AI = Model.Ptrs[I].Arg;
            if (I == J || !Writes[J] || !(Reads[I] || Writes[I]) ||
                Restrict[AJ] || Restrict[AI] || PtrArrays.count(AJ) ||
                PtrArrays.count(AI) || (Writes[I] && I < J))
              continue;
            Pairs.push_back({J, I});
          }
        size_t NIn = Ins.size();
        unsigned Made = 0;
        for (size_t PI = 0; PI < Pairs.size() && Made < O.MaxAliasing; ++PI) {
          auto [J, I] = Pairs[PI];
          // A different base input per pair, spread over the shapes.
          for (size_t Try = 0; Try < 2; ++Try) {
            size_t B = (PI * 5 + Try * 7) % NIn;
            TestInput In;
            In.From = TestInput::Synthesized;
            In.Image.Kernel = K.Name;
            In.Image.Launch = Ins[B].Image.Launch;
            In.PoisonSeed = Ins[B].PoisonSeed;
            uint64_t Ptr = arenaPointer(Model.Ptrs[I].Arg);
            std::memcpy(In.Image.Launch.Kernarg.data() + Model.Ptrs[J].Offset,
                        &Ptr, 8);
            In.Name = formatv("{0}; arg{1} = arg{2} (aliased)", Ins[B].Name,
                              Model.Ptrs[J].Arg, Model.Ptrs[I].Arg)
                          .str();
            auto A = arenas(Data[B].first, Data[B].second);
            Tier1Options AO = O;
            AO.MaxFootprint = std::min<uint64_t>(O.MaxFootprint, 4 << 20);
            DiscoveryResult R = discover(Emu, K, In.Image.Launch, A, AO, false,
                                         In.PoisonSeed, true);
            if (!R.RR.ok() || R.Overflow || !R.Conflict.empty()) {
              Notes.push_back(
                  formatv("no aliasing input {0}: K0 {1}", In.Name,
                          !R.Conflict.empty()
                              ? "is order-dependent there: " + R.Conflict
                          : R.Overflow ? std::string("touches too much")
                                       : R.RR.Message)
                      .str());
              continue;
            }
            if (std::string Why = finishInput(In, R, A, O.GuardBytes);
                !Why.empty()) {
              Notes.push_back("no aliasing input " + In.Name + ": K0 " + Why);
              continue;
            }
            Ins.push_back(std::move(In));
            ++Made;
            break;
          }
        }
      };

  std::vector<TestInput> Inputs;
  std::vector<std::pair<Pattern, uint64_t>> InputData; // per input
  unsigned Dropped = 0;
  for (size_t SI = 0; SI < Shapes.size(); ++SI) {
    unsigned NSeeds =
        Shapes[SI].Seeds ? std::min(Shapes[SI].Seeds, O.Seeds) : O.Seeds;
    for (unsigned Seed = 0; Seed < NSeeds; ++Seed) {
      const Shape &S = Shapes[SI];
      Pattern P = Pattern((SI + Seed) % NumPatterns);
      uint64_t SeedV = 1000 * SI + Seed + 1;
      std::vector<uint64_t> V(Model.Slots.size());
      std::string Scalars;
      bool FirstCount = true;
      for (size_t I = 0; I < Model.Slots.size(); ++I) {
        const ScalarSlot &Sl = Model.Slots[I];
        if (Sl.Control) {
          V[I] = countOf(S, countVariant(SI, Seed), FirstCount);
          FirstCount = false;
        } else
          V[I] = fillWord(Pattern((SI + Seed + I) % NumPatterns), SeedV,
                          0x5ca1a7 + I, 0, Consts);
        uint64_t Mask = Sl.Size == 8 ? ~0ull : (1ull << (8 * Sl.Size)) - 1;
        V[I] &= Mask;
        if (I < 8)
          Scalars += formatv(" {0:x}", V[I]).str();
      }
      if (Model.Slots.size() > 8)
        Scalars += " ...";
      TestInput In;
      In.From = TestInput::Synthesized;
      In.Name = formatv("tier1 #{0}: {1}; {2} (seed {3}){4}{5}",
                        Inputs.size() + Dropped, S.str(), patternName(P),
                        SeedV, Scalars.empty() ? "" : "; scalars", Scalars)
                    .str();
      In.Image.Kernel = K.Name;
      In.Image.Launch = makeDispatch(S, V);
      auto A = arenas(P, SeedV);
      In.PoisonSeed = poisonFor(SeedV);
      DiscoveryResult R = discover(Emu, K, In.Image.Launch, A, O, false,
                                   In.PoisonSeed);
      if (!R.RR.ok() && wildFault(R.RR)) {
        // A wild address: data scalars used as offsets/strides, or buffers
        // that hold pointers. Retry with small data scalars (0..63), then
        // with arrays of pointers.
        std::vector<uint64_t> W = V;
        for (size_t I = 0; I < Model.Slots.size(); ++I)
          if (!Model.Slots[I].Control)
            W[I] = fillWord(Pattern::SmallInts, SeedV, 0x5ca1a7 + I, 0) & 31;
        emu::Dispatch D2 = makeDispatch(S, W);
        DiscoveryResult R2 = discover(Emu, K, D2, A, O, false, In.PoisonSeed);
        if (!R2.RR.ok() && wildFault(R2.RR) &&
            detectPtrArrays(D2, P, SeedV, In.PoisonSeed)) {
          A = arenas(P, SeedV);
          R2 = discover(Emu, K, D2, A, O, false, In.PoisonSeed);
        }
        if (R2.RR.ok() && !R2.Overflow) {
          R = std::move(R2);
          In.Image.Launch = D2;
          In.Name += " (data scalars made small: the random ones made K0 "
                     "fault)";
        }
      }
      if (!R.RR.ok() || R.Overflow) {
        ++Dropped;
        Notes.push_back(formatv("dropped {0}: K0 {1}", In.Name,
                                R.Overflow ? std::string("touches more than the "
                                                         "footprint limit")
                                           : R.RR.Message)
                            .str());
        continue;
      }
      if (acceptInput(In, R, A, O.GuardBytes, Inputs, Dropped, Notes))
        InputData.push_back({P, SeedV});
    }
  }
  if (O.Aliasing && !Inputs.empty())
    addAliasingInputs(Inputs, InputData);

  // Extra inputs, after the seeded and the aliasing ones (a candidate those
  // reject keeps its evidence):
  //  - structured: count scalars small and unequal to each other (a swapped
  //    subtraction of two counts differs), and every pointer argument gets
  //    the buffer layout (index-like data: row pointers, identity
  //    permutations, indices below the counts, ones; or the usual floats)
  //    under which K0 executes the most instructions, chosen greedily one
  //    argument at a time on the smallest shape, then also run on an odd
  //    multi-workgroup shape;
  //  - large integers (dividends of integer-division expansions) with small
  //    data scalars (divisors that divide them), and f32 denormals; both
  //    with garbage in the kernarg bytes of no argument.
  auto addExtraInputs = [&]() {
    auto smallCounts = [&](const Shape &S, bool FirstN) {
      static const uint64_t Small[] = {5, 3, 7, 2, 6, 4, 9, 11, 13, 8};
      std::vector<uint64_t> V(Model.Slots.size());
      uint64_t N = uint64_t(S.Grid[0]) * S.Block[0];
      unsigned C = 0;
      for (size_t I = 0; I < Model.Slots.size(); ++I) {
        if (!Model.Slots[I].Control)
          continue;
        V[I] = FirstN && C == 0
                   ? (N > 3 ? N - 3 : N)
                   : Small[(C - (FirstN ? 1 : 0)) % std::size(Small)] +
                         10 * (C / std::size(Small));
        ++C;
      }
      return V;
    };
    auto bound = [&](ArrayRef<uint64_t> V) {
      uint64_t B = 64;
      for (size_t I = 0; I < Model.Slots.size(); ++I)
        if (Model.Slots[I].Control && V[I])
          B = std::min(B, V[I]);
      return uint32_t(B);
    };
    // Data scalars: from the pattern, divisors of the large integers, or
    // 1..4 (distinct neighbours; index-like data scalars: a base, a
    // leading dimension, a mode).
    enum DataMode { FromPattern, Divisors, OneToFour, LargeDiv };
    auto dataSlots = [&](std::vector<uint64_t> &V, Pattern P, uint64_t SeedV,
                         DataMode Mode) {
      unsigned D = 0;
      for (size_t I = 0; I < Model.Slots.size(); ++I) {
        if (Model.Slots[I].Control)
          continue;
        static const uint64_t Div[] = {2, 3, 4, 6, 12, 5, 10};
        V[I] = Mode == Divisors
                   ? Div[fillWord(Pattern::SmallInts, SeedV, 0x5ca1a7 + I, 0) %
                         std::size(Div)]
               : Mode == LargeDiv
                   ? LargeDivisors[D++ == 0 ? 0
                                            : fillWord(Pattern::Bits, SeedV,
                                                       0x5ca1a7 + I, 0) %
                                                  std::size(LargeDivisors)]
               : Mode == OneToFour
                   ? 1 + (D++ + 1) % 4
                   : fillWord(P, SeedV, 0x5ca1a7 + I, 0, Consts);
        unsigned Sz = Model.Slots[I].Size;
        V[I] &= Sz == 8 ? ~0ull : (1ull << (8 * Sz)) - 1;
      }
    };
    auto withLayouts = [&](Pattern P, uint64_t SeedV, ArrayRef<Layout> Ls,
                           uint32_t Bound) {
      std::vector<ArenaFill> A = arenas(P, SeedV);
      for (ArenaFill &F : A)
        for (size_t J = 0; J < Model.Ptrs.size(); ++J)
          if (!F.PointeeMid && !F.IsPointee && F.Arg == Model.Ptrs[J].Arg) {
            F.L = Ls[J];
            F.Bound = Bound;
          }
      return A;
    };
    // Extra inputs test values, layouts and schedules, not sizes: each may
    // cost K0 at most ExtraCap wave-instructions (twice the median seeded
    // input, at least 2^16), so that kernels whose loops scale with a count
    // (a GEMM's K, a per-item loop over n) do not pay for large counts again
    // in every check. Over the cap the input is made again with small counts
    // (the first N - 3, the others 5, 3, 7, ...), then dropped.
    auto items = [](const Shape &S) {
      return uint64_t(S.Grid[0]) * S.Grid[1] * S.Grid[2] * S.Block[0] *
             S.Block[1] * S.Block[2];
    };
    auto groups = [](const Shape &S) {
      return uint64_t(S.Grid[0]) * S.Grid[1] * S.Grid[2];
    };
    uint64_t ExtraCap = 0;
    {
      std::vector<uint64_t> Costs;
      for (const TestInput &In : Inputs)
        Costs.push_back(In.K0WaveInstructions);
      if (!Costs.empty()) {
        std::nth_element(Costs.begin(), Costs.begin() + Costs.size() / 2,
                         Costs.end());
        ExtraCap = 2 * Costs[Costs.size() / 2];
      }
      ExtraCap = std::max<uint64_t>(ExtraCap, 1 << 16);
    }
    auto add = [&](const Shape &S, Pattern P, uint64_t SeedV,
                   ArrayRef<uint64_t> V0, ArrayRef<Layout> Ls, bool Padding,
                   const std::string &What, uint32_t Bound = 0,
                   unsigned Interleave = 0, bool Shrink = true,
                   uint64_t MaxBytes = 0) {
      uint64_t Waves =
          groups(S) *
          ((uint64_t(S.Block[0]) * S.Block[1] * S.Block[2] + 63) / 64);
      Tier1Options EO = O;
      // Per wave: the cap shared by the waves, with slack for uneven work.
      EO.Budget = std::min<uint64_t>(
          O.Budget, std::max<uint64_t>(4 * ExtraCap / Waves, 4096));
      if (MaxBytes)
        EO.MaxFootprint = std::min(EO.MaxFootprint, MaxBytes);
      std::vector<uint64_t> V(V0.begin(), V0.end());
      std::vector<uint64_t> SmallV = smallCounts(S, true);
      for (size_t I = 0; I < V.size(); ++I)
        if (!Model.Slots[I].Control)
          SmallV[I] = V[I];
      bool Shrunk = false, MadeSmall = false;
      for (;;) {
        TestInput In;
        In.From = TestInput::Synthesized;
        std::string Scalars;
        for (size_t I = 0; I < V.size() && I < 8; ++I)
          Scalars += formatv(" {0:x}", V[I]).str();
        if (V.size() > 8)
          Scalars += " ...";
        In.Name = formatv("tier1 #{0}: {1}; {2} (seed {3}){4}{5}",
                          Inputs.size() + Dropped, S.str(), What, SeedV,
                          Scalars.empty() ? "" : "; scalars", Scalars)
                      .str();
        if (MadeSmall)
          In.Name += " (data scalars made small: the others made K0 fault)";
        In.Image.Kernel = K.Name;
        In.Image.Launch = makeDispatch(S, V, Padding);
        In.PoisonSeed = poisonFor(SeedV);
        In.InterleaveEvery = Interleave;
        auto A = withLayouts(P, SeedV, Ls, Bound ? Bound : bound(V));
        DiscoveryResult R = discover(Emu, K, In.Image.Launch, A, EO, false,
                                     In.PoisonSeed, false, Interleave);
        bool OverCap = R.RR.Kind == emu::ErrorKind::Budget ||
                       (R.RR.ok() && R.RR.WaveInstructions > ExtraCap);
        if (OverCap && Shrink && !Shrunk && SmallV != V) {
          V = SmallV;
          Shrunk = true;
          continue;
        }
        // A wild address from data scalars used as a row pitch or an
        // offset (rocBLAS's lda): as for the seeded inputs, once more with
        // small data scalars; the counts, layouts and schedule are kept.
        if (!R.RR.ok() && wildFault(R.RR) && !MadeSmall) {
          MadeSmall = true;
          bool Changed = false;
          for (size_t I = 0; I < V.size(); ++I) {
            if (Model.Slots[I].Control)
              continue;
            uint64_t W =
                fillWord(Pattern::SmallInts, SeedV, 0x5ca1a7 + I, 0) & 31;
            Changed |= W != V[I];
            V[I] = SmallV[I] = W;
          }
          if (Changed)
            continue;
        }
        if (!R.RR.ok() || R.Overflow || OverCap) {
          ++Dropped;
          Notes.push_back(
              formatv("dropped {0}: K0 {1}", In.Name,
                      OverCap ? formatv("runs more than the extra inputs' "
                                        "{0} wave-instructions",
                                        ExtraCap)
                                    .str()
                      : R.Overflow
                          ? std::string("touches more than the footprint "
                                        "limit")
                          : R.RR.Message)
                  .str());
          return;
        }
        acceptInput(In, R, A, O.GuardBytes, Inputs, Dropped, Notes);
        return;
      }
    };

    // The smallest and the odd multi-workgroup shape, unless K0 ran on
    // none of the seeded inputs of that shape (whole-wave kernels such as
    // MFMA ones refuse partial waves): then the kept shape with the fewest
    // work-items, and the one with the most workgroups.
    auto kept = [&](const Shape &S) {
      for (const TestInput &In : Inputs)
        if (In.Image.Launch.Workgroups == S.Grid &&
            In.Image.Launch.WorkgroupSize == S.Block)
          return true;
      return Inputs.empty();
    };
    Shape Small = Shapes[0];
    Shape Odd = Shapes[std::min<size_t>(2, Shapes.size() - 1)];
    if (!kept(Small) || !kept(Odd)) {
      std::vector<Shape> Kept;
      for (const Shape &S : Shapes)
        if (kept(S))
          Kept.push_back(S);
      if (!Kept.empty()) {
        if (!kept(Small))
          Small = *std::min_element(Kept.begin(), Kept.end(),
                                    [&](const Shape &A, const Shape &B) {
                                      return items(A) < items(B);
                                    });
        if (!kept(Odd))
          Odd = *std::max_element(Kept.begin(), Kept.end(),
                                  [&](const Shape &A, const Shape &B) {
                                    return groups(A) < groups(B);
                                  });
      }
    }
    // Greedy layout choice on the smallest shape: the number of distinct
    // instructions K0 executes (inputs on which K0 fails count 0).
    const uint64_t GSeed = 9001;
    Tier1Options GO = O;
    GO.MaxFootprint = std::min<uint64_t>(O.MaxFootprint, 16 << 20);
    GO.Budget = std::min<uint64_t>(O.Budget, 1 << 18);
    auto reach = [&](ArrayRef<uint64_t> V, ArrayRef<Layout> L) -> size_t {
      DiscoveryResult R =
          discover(Emu, K, makeDispatch(Small, V),
                   withLayouts(Pattern::Floats32, GSeed, L, bound(V)), GO, true,
                   poisonFor(GSeed));
      return R.RR.ok() && !R.Overflow ? R.Profile.size() : 0;
    };
    // One structured input per data-scalar mode: data scalars from the
    // f32 pattern on the smallest shape, data scalars 1..4 (index-like:
    // bases, leading dimensions, modes) on the odd multi-workgroup shape;
    // counts and layouts chosen for each mode on the smallest shape.
    for (DataMode DM : {FromPattern, OneToFour}) {
      std::vector<Layout> Ls(Model.Ptrs.size(), Layout::Data);
      bool FirstN = true;
      std::vector<uint64_t> V;
      size_t Best = 0;
      for (bool F : {true, false}) {
        std::vector<uint64_t> V2 = smallCounts(Small, F);
        dataSlots(V2, Pattern::Floats32, GSeed, DM);
        size_t R2 = reach(V2, Ls);
        if (V.empty() || R2 > Best) {
          Best = R2;
          V = V2;
          FirstN = F;
        }
      }
      for (size_t J = 0; J < Model.Ptrs.size() && J < 8; ++J) {
        if (PtrArrays.count(Model.Ptrs[J].Arg))
          continue;
        for (unsigned L = 1; L < NumLayouts; ++L) {
          std::vector<Layout> Try = Ls;
          Try[J] = Layout(L);
          if (size_t R = reach(V, Try); R > Best) {
            Best = R;
            Ls = Try;
          }
        }
      }
      std::string What = "structured:";
      bool AnyLayout = false;
      for (size_t J = 0; J < Ls.size(); ++J)
        if (Ls[J] != Layout::Data) {
          What += formatv(" arg{0} {1}", Model.Ptrs[J].Arg, layoutName(Ls[J]))
                      .str();
          AnyLayout = true;
        }
      What += AnyLayout ? ", others f32 values" : " f32 values, small counts";
      if (DM == FromPattern) {
        add(Small, Pattern::Floats32, GSeed, V, Ls, false, What);
      } else {
        std::vector<uint64_t> V2 = smallCounts(Odd, FirstN);
        dataSlots(V2, Pattern::Floats32, GSeed + 1, DM);
        add(Odd, Pattern::Floats32, GSeed + 1, V2, Ls, false,
            What + ", data scalars 1..4");
      }
    }
    std::vector<Layout> Plain(Model.Ptrs.size(), Layout::Data);
    // Enum arguments typed by the signature (rocblas_fill_, ...): random
    // and count values are no valid enum value, so a kernel that switches
    // on one takes one path on every other input. Input R gives each enum
    // argument its R-th public-API value (cycling), so every value of every
    // enum argument is taken once.
    if (Sig) {
      std::vector<std::pair<size_t, const KnownEnum *>> Enums;
      size_t Rounds = 0;
      for (size_t I = 0; I < Model.Slots.size(); ++I)
        if (const KnownEnum *E = Sig->Params[Model.Slots[I].Arg].EnumType;
            E && Model.Slots[I].Size == 4) {
          Enums.push_back({I, E});
          Rounds = std::max(Rounds, E->Values.size());
        }
      for (size_t R = 0; R < Rounds; ++R) {
        std::vector<uint64_t> VE = smallCounts(Small, true);
        dataSlots(VE, Pattern::Floats32, GSeed + 20 + R, FromPattern);
        std::string What = "enum values:";
        for (auto [I, E] : Enums) {
          VE[I] = uint32_t(E->Values[R % E->Values.size()]);
          What += formatv(" arg{0} = {1}", Model.Slots[I].Arg, VE[I]).str();
        }
        add(Small, Pattern::Floats32, GSeed + 20 + R, VE, Plain, false,
            What + ", f32 values, small counts");
      }
    }
    {
      // The first count a multiple of 60, which every data scalar below
      // divides (a count divided by a data scalar: the estimate of n / d is
      // one low exactly when d divides n), or of 12 on shapes of fewer
      // work-items.
      std::vector<uint64_t> V3 = smallCounts(Small, true);
      uint64_t NSmall = uint64_t(Small.Grid[0]) * Small.Block[0];
      for (size_t I = 0; I < Model.Slots.size(); ++I)
        if (Model.Slots[I].Control) {
          if (V3[I] >= 60)
            V3[I] -= V3[I] % 60;
          else if (NSmall >= 60)
            V3[I] = 60;
          else if (V3[I] >= 12)
            V3[I] -= V3[I] % 12;
          break;
        }
      dataSlots(V3, Pattern::WideInts, GSeed + 2, Divisors);
      // Pointers with a non-zero low dword, as allocations have: a
      // candidate that reads a pointer register where it should read a
      // remainder (a dropped correction step of n / d) sees a value >= d.
      PointerShift = 0x700001000ull;
      add(Small, Pattern::WideInts, GSeed + 2, V3, Plain, true,
          "large integers, small data scalars, kernarg padding set, "
          "pointers with bits 12 and 32..34 set");
      PointerShift = 0;
    }
    {
      // Division extremes: dividends near 2^32 that are multiples (+-1) of
      // divisors of 2^18 and more, which the data scalars and the counts
      // after the first are too (a remainder by a count: a histogram's
      // bins); then the first count near 2^31 (a count divided by a data
      // scalar), where a kernel whose work does not grow with it (i < n)
      // still runs. Both are dropped when K0 exceeds the extra inputs'
      // budget or touches more than 4 MiB (loops over such counts).
      std::vector<uint64_t> V12 = smallCounts(Small, true);
      bool First = true;
      for (size_t I = 0; I < Model.Slots.size(); ++I)
        if (Model.Slots[I].Control) {
          if (!First)
            V12[I] = LargeDivisors[0];
          First = false;
        }
      dataSlots(V12, Pattern::DivEdge, GSeed + 12, LargeDiv);
      add(Small, Pattern::DivEdge, GSeed + 12, V12, Plain, false,
          "dividends near 2^32, divisors of 2^18 and more", 0, 0, false,
          4 << 20);
      // The count k * d + 1 below 2^31 for the data scalars' d (all
      // 0x5a5a5): an estimate one low with a remainder above d.
      std::vector<uint64_t> V13 = smallCounts(Small, true);
      const uint32_t D13 = LargeDivisors[2];
      for (size_t I = 0; I < Model.Slots.size(); ++I)
        if (!Model.Slots[I].Control)
          V13[I] = Model.Slots[I].Size == 8
                       ? D13
                       : D13 & ((1ull << (8 * Model.Slots[I].Size)) - 1);
      for (size_t I = 0; I < Model.Slots.size(); ++I)
        if (Model.Slots[I].Control) {
          V13[I] = 0x7ffffffeu / D13 * D13 + 1;
          break;
        }
      add(Small, Pattern::DivEdge, GSeed + 13, V13, Plain, false,
          "dividends near 2^32, the first count near 2^31", 0, 0, false,
          4 << 20);
    }
    if (HasIntDiv) {
      // Division pairs (DivPairs.cpp): a[i] / b[i] of two buffers gets a
      // dividend near 2^32 or 2^64 with a divisor whose estimate is nearly
      // too large, or far too small, or a small divisor; the data scalars
      // are such divisors too. On the odd multi-workgroup shape: more
      // elements, so that every buffer pair meets such pairs.
      std::vector<uint64_t> V16 = smallCounts(Odd, true);
      unsigned D = 0;
      for (size_t I = 0; I < Model.Slots.size(); ++I)
        if (!Model.Slots[I].Control)
          V16[I] = TightDivisors[(8 + 6 * D++) % std::size(TightDivisors)] &
                   (Model.Slots[I].Size == 8
                        ? ~0ull
                        : (1ull << (8 * Model.Slots[I].Size)) - 1);
      add(Odd, Pattern::DivPairs, GSeed + 16, V16, Plain, false,
          "dividend/divisor pairs across buffers", 0, 0, false, 4 << 20);
    }
    {
      // Thresholds: zeros and the kernel's constants at and below 0, and
      // doubles made of them (see Pattern::Thresholds), with small counts,
      // so that a row's maximum is 0 and x - max lands on each constant.
      std::vector<uint64_t> V14 = smallCounts(Small, true);
      dataSlots(V14, Pattern::Thresholds, GSeed + 14, FromPattern);
      if (!Consts.empty())
        add(Small, Pattern::Thresholds, GSeed + 14, V14, Plain, false,
            "code constants at and below 0, zeros");
    }
    {
      // Data scalars 1.0 (in their width): a scale keeps the buffers'
      // ties and denormals. Pointers with high bits set.
      std::vector<uint64_t> V4(Model.Slots.size());
      for (size_t I = 0; I < Model.Slots.size(); ++I) {
        unsigned Sz = Model.Slots[I].Size;
        V4[I] = Model.Slots[I].Control ? countOf(Odd, 1) // partial: fills
                : Sz == 8              ? 0x3ff0000000000000ull
                : Sz == 4              ? 0x3f800000u
                : Sz == 2              ? 0x3c00u
                                       : 1u;
      }
      PointerShift = 0x700001000ull;
      add(Odd, Pattern::Denormals, GSeed + 3, V4, Plain, true,
          "f32 denormals and rounding ties, data scalars 1.0, kernarg "
          "padding set, pointers with bits 12 and 32..34 set");
      PointerShift = 0;
    }
    {
      // Data scalars 0 (flags off, zero divisors and scales) and buffers
      // of 0/1 integers: random data almost never holds a zero.
      std::vector<uint64_t> V5 = smallCounts(Small, true);
      for (size_t I = 0; I < Model.Slots.size(); ++I)
        if (!Model.Slots[I].Control)
          V5[I] = 0;
      std::vector<Layout> Bits01(Model.Ptrs.size(), Layout::Small32);
      for (size_t J = 0; J < Model.Ptrs.size(); ++J)
        if (PtrArrays.count(Model.Ptrs[J].Arg))
          Bits01[J] = Layout::Data;
      add(Small, Pattern::SmallInts, GSeed + 4, V5, Bits01, false,
          "zero data scalars, 0/1 integers", 2);
      // Data scalars 1..4 and buffers of 0..3: the smallest values that
      // are not 0 (loop caps, strides, the last steps of iterations).
      // The first count 4N + 5: kernels that handle four elements per
      // work-item have work in every work-item.
      std::vector<uint64_t> V6 = smallCounts(Odd, true);
      for (size_t I = 0; I < Model.Slots.size(); ++I)
        if (Model.Slots[I].Control) {
          V6[I] = 4 * uint64_t(Odd.Grid[0]) * Odd.Block[0] + 5;
          break;
        }
      dataSlots(V6, Pattern::SmallInts, GSeed + 5, OneToFour);
      add(Odd, Pattern::SmallInts, GSeed + 5, V6, Bits01, false,
          "data scalars 1..4, integers 0..3", 4);
      // Every count 0: empty loops and `k > 0` tests of kernels with one
      // count (the seeded inputs give the first count N).
      std::vector<uint64_t> V9(Model.Slots.size(), 0);
      dataSlots(V9, Pattern::Floats32, GSeed + 8, FromPattern);
      bool AnyCount = false;
      for (const ScalarSlot &Sl : Model.Slots)
        AnyCount |= Sl.Control;
      if (AnyCount)
        add(Small, Pattern::Floats32, GSeed + 8, V9, Plain, false,
            "f32 values, every count 0");
      // Only the last count 0 (kernels with several): an empty inner loop
      // (a GEMM's K) while the other counts are N as in the seeded inputs,
      // which keeps the work-items' outputs apart; with every count 0 (or
      // small) they often collide and K0 races.
      unsigned NumCounts = 0, LastCount = 0;
      for (size_t I = 0; I < Model.Slots.size(); ++I)
        if (Model.Slots[I].Control) {
          ++NumCounts;
          LastCount = I;
        }
      if (NumCounts >= 2) {
        std::vector<uint64_t> V11(Model.Slots.size());
        for (size_t I = 0; I < Model.Slots.size(); ++I)
          V11[I] =
              Model.Slots[I].Control && I != LastCount ? countOf(Odd, 0) : 0;
        dataSlots(V11, Pattern::Floats32, GSeed + 10, FromPattern);
        add(Odd, Pattern::Floats32, GSeed + 10, V11, Plain, false,
            "f32 values, the last count 0");
      }
      // Interleaved wave scheduling (emulator): the waves of up to four
      // workgroups take turns every 3 instructions and after every atomic,
      // so compare-and-swap loops also retry because of other waves. Small
      // counts after the first: a switch every 3 instructions makes each
      // instruction dearer (other waves' LDS ops stay in flight).
      std::vector<uint64_t> V10 = smallCounts(Odd, true);
      dataSlots(V10, Pattern::Floats32, GSeed + 9, FromPattern);
      add(Odd, Pattern::Floats32, GSeed + 9, V10, Plain, false,
          "f32 values, interleaved waves", 0, 3);
    }
    // Large strides: a 64-bit batch stride or offset times a workgroup id
    // takes s_mul_hi_u32 of its low dword (rocBLAS: stride_a * batch); a
    // candidate with a signed high product, or without it, differs only
    // when that low dword is >= 2^31. The counts after the first get
    // 2^31 + 4 one at a time, kept where K0 still runs cheaply (so not
    // loop bounds), on the kept shape with the most workgroups along y and
    // z (batches), then in all. Data scalars one more than the first count
    // (a leading dimension must not make rows overlap), buffers of 0..3.
    const Shape *WideP = nullptr;
    for (const Shape &Sh : Shapes) {
      auto key = [&](const Shape &X) {
        return std::make_pair(uint64_t(X.Grid[1]) * X.Grid[2], groups(X));
      };
      if (kept(Sh) && groups(Sh) > 1 && (!WideP || key(Sh) > key(*WideP)))
        WideP = &Sh;
    }
    if (WideP) {
      // At most two workgroups along y and z: 2^31 elements of 16 bytes
      // are the 32 GiB from an arena's pointer to its end.
      Shape Wide = *WideP;
      Wide.Grid[1] = std::min<uint32_t>(Wide.Grid[1], 2);
      Wide.Grid[2] = std::min<uint32_t>(Wide.Grid[2], 2);
      std::vector<uint64_t> V15 = smallCounts(Wide, true);
      uint64_t Pitch = 0;
      for (size_t I = 0; I < Model.Slots.size(); ++I)
        if (Model.Slots[I].Control) {
          Pitch = V15[I] + 1;
          break;
        }
      for (size_t I = 0; I < Model.Slots.size(); ++I)
        if (!Model.Slots[I].Control)
          V15[I] = Pitch & (Model.Slots[I].Size == 8
                                ? ~0ull
                                : (1ull << (8 * Model.Slots[I].Size)) - 1);
      std::vector<Layout> Ints(Model.Ptrs.size(), Layout::Small32);
      for (size_t J = 0; J < Model.Ptrs.size(); ++J)
        if (PtrArrays.count(Model.Ptrs[J].Arg))
          Ints[J] = Layout::Data;
      Tier1Options SO = GO;
      SO.Budget =
          std::min<uint64_t>(SO.Budget, std::max<uint64_t>(4 * ExtraCap, 4096));
      std::string Why;
      // The instructions K0 executes (0: it fails or runs too long): a
      // change is kept only if K0 still runs them all (a huge count that
      // empties the work, n < 0, is not a stride).
      auto runs = [&](ArrayRef<uint64_t> V) -> size_t {
        DiscoveryResult R = discover(
            Emu, K, makeDispatch(Wide, V),
            withLayouts(Pattern::SmallInts, GSeed + 15, Ints, bound(V)), SO,
            true, poisonFor(GSeed + 15));
        if (R.RR.ok() && !R.Overflow && R.RR.WaveInstructions <= ExtraCap)
          return std::max<size_t>(R.Profile.size(), 1);
        Why = !R.RR.ok()   ? R.RR.Message
              : R.Overflow ? std::string("touches too much")
                           : std::string("runs too long");
        return 0;
      };
      size_t Reach = runs(V15);
      bool First = true, Any = false;
      std::vector<size_t> Large;
      for (size_t I = 0; I < Model.Slots.size(); ++I) {
        if (!Model.Slots[I].Control)
          continue;
        if (First) {
          First = false;
          continue;
        }
        uint64_t Old = V15[I];
        V15[I] = 0x80000004ull;
        if (size_t R = runs(V15); R && R >= Reach) {
          Any = true;
          Reach = R;
          Large.push_back(I);
        } else {
          V15[I] = Old;
        }
      }
      // Then -(2^31 - 4) in the 8-byte ones where K0 still runs as much:
      // the same low dword, and a high dword that is not 0 (a dropped
      // high-dword product shows).
      for (size_t I : Large) {
        if (Model.Slots[I].Size != 8)
          continue;
        V15[I] = 0xffffffff80000004ull;
        if (size_t R = runs(V15); !R || R < Reach)
          V15[I] = 0x80000004ull;
      }
      if (!Any)
        Notes.push_back("no large-strides input: K0 " +
                        (Why.empty() ? std::string("has one count") : Why));
      else
        add(Wide, Pattern::SmallInts, GSeed + 15, V15, Ints, false,
            "large strides (counts 2^31 + 4 or -(2^31 - 4) where K0 runs "
            "cheaply), data "
            "scalars the first count + 1",
            4, 0, false);
    }
    // A tall block (x = 1, y >= 513) for kernels that read the y
    // work-item id: the sign bit of the 10-bit y field (a signed extract
    // of it) and y-dependent bounds are exercised only there.
    uint32_t MaxFlat =
        K.Meta->MaxFlatWorkgroupSize
            ? std::min<uint32_t>(K.Meta->MaxFlatWorkgroupSize, 1024)
            : 1024;
    if (!K.Meta->ReqdWorkgroupSize && K.KD.enableVgprWorkitemId() >= 1 &&
        MaxFlat >= 256) {
      // The usual 2-D block, 32 x 8: x ids up to 31 (a tile's rows past
      // the other shapes' widths).
      Shape Wide{{2, 2, 1}, {32, 8, 1}, 1};
      std::vector<uint64_t> V8(Model.Slots.size());
      for (size_t I = 0; I < Model.Slots.size(); ++I)
        V8[I] = Model.Slots[I].Control ? countOf(Wide, 0) : 0;
      dataSlots(V8, Pattern::Floats32, GSeed + 7, FromPattern);
      add(Wide, Pattern::Floats32, GSeed + 7, V8, Plain, false,
          "f32 values, 32x8 blocks");
    }
    if (!K.Meta->ReqdWorkgroupSize && K.KD.enableVgprWorkitemId() >= 1 &&
        MaxFlat >= 520) {
      Shape Tall{{1, 1, 1}, {1, MaxFlat, 1}, 1};
      std::vector<uint64_t> V7(Model.Slots.size());
      for (size_t I = 0; I < Model.Slots.size(); ++I)
        V7[I] = Model.Slots[I].Control ? uint64_t(MaxFlat) : 0;
      dataSlots(V7, Pattern::Floats32, GSeed + 6, FromPattern);
      add(Tall, Pattern::Floats32, GSeed + 6, V7, Plain, false,
          "f32 values, a tall block");
    }
  };
  if (O.Extra)
    addExtraInputs();
  if (Inputs.empty())
    return createStringError(
        formatv("no synthesized input runs K0 cleanly ({0} tried); give "
                "--spec or --capture",
                Dropped)
            .str());
  return Inputs;
}

std::string describeAddress(const TestInput &In, uint64_t Addr) {
  const MemRegion *Best = nullptr;
  for (const MemRegion &R : In.Image.Regions)
    if (Addr >= R.Base && Addr - R.Base < std::max<uint64_t>(R.Size, 1))
      Best = &R;
  for (const Footprint &F : In.Footprints) {
    // The arena that holds the pointer (pointers may be shifted in it).
    uint64_t Base =
        F.Pointer < ArenaStart
            ? F.Pointer - ArenaPointerOffset
            : (F.Pointer - ArenaStart) / ArenaSpan * ArenaSpan + ArenaStart;
    if (Addr >= Base && Addr - Base < ArenaSpan) {
      int64_t Rel = int64_t(Addr - F.Pointer);
      return formatv("arg{0} pointer{1}{2:x-} ({3})", F.Arg, Rel < 0 ? "-0x" : "+0x",
                     uint64_t(Rel < 0 ? -Rel : Rel),
                     Best ? (Best->K == MemRegion::Guard
                                 ? "in a guard region: K0 never touches it"
                                 : "inside K0's footprint")
                          : "outside K0's footprint")
          .str();
    }
  }
  if (Best)
    return Best->Name + formatv(" +0x{0:x-}", Addr - Best->Base).str();
  return "";
}

} // namespace verify
} // namespace asmevo
