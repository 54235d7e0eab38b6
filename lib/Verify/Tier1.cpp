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

#include "asmevo/MC/TargetInfo.h"

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
  if ((H & 7) >= 5) { // log-uniform magnitude 2^-24 .. 2^24, either sign
    float F = std::ldexp(1.0f + float((H >> 20) & 0xfffff) / float(1 << 20),
                         int((H >> 8) % 49) - 24);
    if (H >> 63)
      F = -F;
    uint32_t U;
    std::memcpy(&U, &F, 4);
    return U;
  }
  float F = float(int64_t(H >> 11) % (1 << 22)) / float(1 << 20); // [-4,4)
  uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}

uint64_t fillWord(Pattern P, uint64_t Seed, uint64_t Stream, int64_t W,
                  ArrayRef<uint32_t> Consts) {
  uint64_t H = mix64(Seed * 0x100000001b3ull ^ mix64(Stream) ^
                     mix64(uint64_t(W) + 0x51ed270b));
  switch (P) {
  case Pattern::Bits:
    return H;
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
  size_t Done = 0;
  while (Done < N) {
    int64_t O = Off + int64_t(Done);
    int64_t W = O >= 0 ? O / 8 : -((-O + 7) / 8);
    unsigned In = unsigned(O - W * 8);
    uint64_t V = fillWord(P, Seed, Stream, W, Consts);
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
  // Grids are 3-D in some shapes even when the kernel reads only the x
  // workgroup id, so hidden_block_count_x/y/z all differ and a candidate
  // that confuses them shows it.
  std::array<uint32_t, 3> B4 = M.ReqdWorkgroupSize ? B1
                               : TidDims == 0     ? fit({64, 1, 1})
                                                  : B1;
  S.push_back({{1, 1, 1}, B1});
  // More than 1024 work-items along x in one shape: kernels that bound the
  // global id by a constant (if (t < 1024)) take both sides.
  S.push_back({{5, 2, GZ}, B2});
  S.push_back({{2, 3, 1}, B3});
  S.push_back({{2, GY > 1 ? 2u : 1u, 5}, B4});
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
};

/// Pointee arena of pointer argument I (far from the argument arenas).
inline uint64_t pointeeBase(unsigned I) { return arenaBase(512 + I); }

void fillArena(const ArenaFill &A, int64_t Off, uint8_t *Out, size_t N) {
  if (!A.PointeeMid) {
    fillBytes(A.P, A.Seed, A.Stream, Off, Out, N, A.Consts);
    return;
  }
  for (size_t Done = 0; Done < N;) {
    int64_t O = Off + int64_t(Done);
    int64_t W = O >= 0 ? O / 8 : -((-O + 7) / 8);
    unsigned In = unsigned(O - W * 8);
    uint64_t V = A.PointeeMid + uint64_t(W) * 0x100000ull;
    size_t Take = std::min<size_t>(8 - In, N - Done);
    std::memcpy(Out + Done, reinterpret_cast<uint8_t *>(&V) + In, Take);
    Done += Take;
  }
}

constexpr uint64_t Chunk = 64 * 1024;

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
    Mapped += Hi - Lo;
    return *R;
  }

  emu::Region *access(emu::Memory &M, uint64_t Addr, uint64_t Len,
                      bool Write) override {
    std::lock_guard<std::mutex> L(Mu);
    const ArenaFill *A = arenaOf(Addr);
    if (!A || Addr + Len - A->Base > ArenaSpan)
      return M.find(Addr, Len);
    emu::Region *R = M.find(Addr, Len);
    if (!R) {
      uint64_t Lo = Addr / Chunk * Chunk, Hi = (Addr + Len + Chunk - 1) / Chunk * Chunk;
      Lo = std::max(Lo, A->Base);
      Hi = std::min(Hi, A->Base + ArenaSpan);
      // Clip against mapped neighbours; an access that straddles one is
      // mapped as one region on the next attempt.
      for (const auto &Reg : M.regions()) {
        uint64_t B = Reg->Base, E = Reg->Base + Reg->Size;
        if (E <= Lo || B >= Hi)
          continue;
        if (E <= Addr)
          Lo = std::max(Lo, E);
        else if (B >= Addr + Len)
          Hi = std::min(Hi, B);
        else {
          Want.push_back({Addr, Addr + Len});
          return nullptr;
        }
      }
      if (Mapped + (Hi - Lo) > Max) {
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
    for (uint64_t B = Addr; B < Addr + Len; ++B) {
      Bits &Bt = Chunks[B / Chunk * Chunk];
      uint64_t O = B % Chunk;
      (Write ? Bt.W : Bt.R)[O / 64] |= 1ull << (O % 64);
      if (TrackOwners)
        own(B, Write);
    }
    return R;
  }
  uint32_t approx(uint64_t, unsigned, unsigned, uint64_t) override { return 0; }

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
                         bool TrackOwners = false) {
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

/// Literal operands of the kernel's code (thresholds, magic numbers, masks)
/// and their neighbours (+-1, +-2, +4 in the bit pattern: the next floats,
/// off-by-one integers), as data values: inputs at a constant's boundary
/// tell a kernel from one whose constant moved.
static std::vector<uint32_t> harvestConstants(const CodeObject &CO,
                                              const KernelInfo &K) {
  std::vector<uint32_t> Out;
  auto TI = TargetInfo::get(CO.cpu() == "gfx9-4-generic" ? "gfx942" : CO.cpu(),
                            CO.features());
  if (!TI) {
    consumeError(TI.takeError());
    return Out;
  }
  const ElfSection *S = CO.sectionAt(K.CodeAddr);
  if (!S)
    return Out;
  uint64_t End = K.CodeSize ? K.CodeAddr + K.CodeSize : S->Addr + S->Size;
  End = std::min(End, S->Addr + S->Size);
  auto Bytes = CO.bytesAt(K.CodeAddr, End - K.CodeAddr);
  if (!Bytes) {
    consumeError(Bytes.takeError());
    return Out;
  }
  std::set<uint32_t> Seen;
  for (size_t Off = 0; Off + 4 <= Bytes->size() && Seen.size() < 48;) {
    const DecodedInst *D = (*TI)->decode(Bytes->drop_front(Off));
    if (!D) {
      Off += 4;
      continue;
    }
    Off += D->Size;
    const MCInstrDesc &Desc = (*TI)->desc(D->Inst.getOpcode());
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
  if (!Consts.empty())
    Notes.push_back(formatv("{0} values derived from the kernel's constants "
                            "are mixed into the data",
                            Consts.size())
                        .str());

  uint32_t Static = K.KD.GroupSegmentFixedSize;
  auto makeDispatch = [&](const Shape &S, ArrayRef<uint64_t> SlotValues) {
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
      put(P.Offset, arenaPointer(P.Arg), 8);
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
    return D;
  };
  // Pointer arguments whose buffers hold pointers (found below when K0
  // dereferences what it loads from them).
  std::set<unsigned> PtrArrays;
  auto arenas = [&](Pattern P, uint64_t Seed) {
    std::vector<ArenaFill> A;
    for (const PtrArg &Ptr : Model.Ptrs) {
      ArenaFill F{Ptr.Arg, arenaBase(Ptr.Arg), arenaPointer(Ptr.Arg), P, Seed,
                  Ptr.Arg, Consts};
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
  for (uint64_t V : {countOf(Probe, 0), uint64_t(1), uint64_t(0)}) {
    std::fill(Base.begin(), Base.end(), V);
    BaseRun = discover(Emu, K, makeDispatch(Probe, Base),
                       arenas(Pattern::Floats32, 1), O, false, poisonFor(1));
    if (BaseRun.RR.ok() && !BaseRun.Overflow) {
      BaseOk = true;
      break;
    }
  }
  // Arrays of pointers (T** arguments): when K0 faults at an address in no
  // arena, make every pointer argument an array of pointers into its own
  // pointee arena, then drop the ones K0 does not need that for.
  bool PtrArraysTried = false;
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
      PtrArrays.clear();
      return false;
    }
    for (const PtrArg &Ptr : Model.Ptrs) {
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
    return A < ArenaStart || A >= arenaBase(1024);
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
      PO.MaxFootprint = std::min(O.MaxFootprint, 2 * BaseBytes + (1 << 20));
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
            In.Footprints = R.FP;
            buildRegions(In, A, O.GuardBytes);
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
      In.Footprints = R.FP;
      buildRegions(In, A, O.GuardBytes);
      Inputs.push_back(std::move(In));
      InputData.push_back({P, SeedV});
    }
  }
  if (O.Aliasing && !Inputs.empty())
    addAliasingInputs(Inputs, InputData);
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
    if (Addr >= F.Pointer - ArenaPointerOffset &&
        Addr - (F.Pointer - ArenaPointerOffset) < ArenaSpan) {
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
