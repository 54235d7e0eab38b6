//===- CostModelTest.cpp - Properties of the emulator's timing mode -------===//
//
// The cost model (CostModel.h, lib/Emu/Timing.cpp) must be:
//  * deterministic (same cycles and per-PC costs on every run, any number of
//    host threads);
//  * monotone in the waits it is given: deleting an s_waitcnt that the
//    kernel does not need (the emulator's scoreboard accepts the run and
//    every output byte is unchanged) never adds modelled cycles;
//  * latency hiding: more resident waves doing the same per-wave work take
//    less time per wave;
//  * bandwidth: a copy that is bound by HBM bandwidth scales with the bytes
//    moved and is never faster than bytes / bandwidth;
//  * MFMA: a chain of N dependent MFMAs costs N x passes x 4 cycles, passes
//    from LLVM's scheduling model (8 for 32x32x8 f16 on gfx942, 4 for
//    16x16x16 f16; 16 for 32x32x8 f16 on gfx90a);
//  * occupancy as AMD's rules give it (hand-computed cases).
//
//===----------------------------------------------------------------------===//

#include "TestKernels.h"

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/CodeObject/Emit.h"
#include "asmevo/CodeObject/Recover.h"
#include "asmevo/Emu/CostModel.h"
#include "asmevo/Emu/Emulator.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <cstdio>
#include <random>

using namespace asmevo;
using namespace asmevo::emu;
using llvm::StringRef;

namespace {

/// One explicit kernel argument: an integer/float value or a buffer.
struct Arg {
  enum Kind { I32, F32, Buffer } K = I32;
  int64_t I = 0;
  float F = 0;
  uint64_t Size = 0; // buffer bytes
  uint64_t Seed = 0; // 0: zeros, else random bytes
  static Arg i32(int64_t V) { Arg A; A.I = V; return A; }
  static Arg f32(float V) { Arg A; A.K = F32; A.F = V; return A; }
  static Arg buf(uint64_t Size, uint64_t Seed = 0) {
    Arg A;
    A.K = Buffer;
    A.Size = Size;
    A.Seed = Seed;
    return A;
  }
};

struct Launch {
  std::array<uint32_t, 3> Grid{1, 1, 1}, Block{64, 1, 1};
  std::vector<Arg> Args;
};

struct Outcome {
  RunResult Run;
  TimingResult Timing;
  std::vector<std::vector<uint8_t>> Buffers; // after the run
};

/// Runs one dispatch of Kernel in CO in timing mode.
Outcome runTimed(const CodeObject &CO, StringRef Kernel, const Launch &L,
                 DeviceModel Dev, unsigned Threads = 1,
                 unsigned ModelledCUs = 8) {
  Outcome Out;
  const KernelInfo *K = CO.kernel(Kernel);
  EXPECT_TRUE(K) << "no kernel " << Kernel.str();
  if (!K || !K->Meta)
    return Out;
  auto Emu = Emulator::create(CO);
  EXPECT_TRUE(bool(Emu));
  if (!Emu) {
    llvm::consumeError(Emu.takeError());
    return Out;
  }
  Memory Mem;
  EXPECT_FALSE(bool((*Emu)->mapCodeObject(Mem)));
  Dispatch D;
  D.Workgroups = L.Grid;
  D.WorkgroupSize = L.Block;
  D.Kernarg.assign(K->Meta->KernargSegmentSize, 0);
  unsigned N = 0;
  std::vector<uint64_t> Bases;
  for (const KernelArgMetadata &M : K->Meta->Args) {
    if (M.isHidden())
      continue;
    EXPECT_LT(N, L.Args.size());
    if (N >= L.Args.size())
      return Out;
    const Arg &A = L.Args[N];
    uint8_t *P = D.Kernarg.data() + M.Offset;
    if (A.K == Arg::I32) {
      int32_t V = int32_t(A.I);
      std::memcpy(P, &V, 4);
    } else if (A.K == Arg::F32) {
      std::memcpy(P, &A.F, 4);
    } else {
      uint64_t Base = 0x100000000000ull + uint64_t(N) * 0x1000000000ull;
      auto R = Mem.map(Base, A.Size, PermRW, llvm::formatv("arg{0}", N).str());
      EXPECT_TRUE(bool(R));
      if (!R)
        return Out;
      if (A.Seed) {
        std::mt19937_64 G(A.Seed);
        for (uint8_t &B : (*R)->Data)
          B = uint8_t(G());
      }
      std::memcpy(P, &Base, 8);
      Bases.push_back(Base);
    }
    ++N;
  }
  TimingRequest Req;
  Req.Device = Dev;
  Req.MaxModelledCUs = ModelledCUs;
  RunOptions O;
  O.Threads = Threads;
  O.Budget = 1u << 24;
  O.Timing = &Req;
  Out.Run = (*Emu)->run(*K, D, Mem, O);
  Out.Timing = Req.Result;
  for (uint64_t B : Bases)
    Out.Buffers.push_back(Mem.at(B)->Data);
  return Out;
}

std::unique_ptr<CodeObject> loadKernel(StringRef File) {
  auto CO = CodeObject::load(test::testKernel(File));
  EXPECT_TRUE(bool(CO)) << (CO ? "" : llvm::toString(CO.takeError()));
  return CO ? std::move(*CO) : nullptr;
}

uint64_t cycles(const CodeObject &CO, StringRef K, const Launch &L,
                DeviceModel Dev = DeviceModel::mi300x()) {
  Outcome O = runTimed(CO, K, L, Dev);
  EXPECT_TRUE(O.Run.ok()) << O.Run.Message;
  EXPECT_TRUE(O.Timing.Valid);
  return O.Timing.Cycles;
}

//===----------------------------------------------------------------------===//
// Occupancy: AMD's rules, computed by hand.
//===----------------------------------------------------------------------===//

TEST(CostModelOccupancy, HandComputedCases) {
  DeviceModel D = DeviceModel::mi300x();
  struct Case {
    unsigned WG, Vgprs, Sgprs, Lds;
    unsigned WGsPerCU;  // expected
    unsigned WavesPerCU;
    const char *Limiter;
  } Cases[] = {
      // 4 waves/WG; 32 VGPRs -> 512/32 = 16, capped at 8 waves/SIMD;
      // 32 wave slots / 4 = 8 workgroups (limit min(40/4, 16) = 10).
      {256, 32, 16, 0, 8, 32, "waves"},
      // 128 VGPRs -> 4 waves/SIMD -> 16 waves -> 4 workgroups.
      {256, 128, 16, 0, 4, 16, "vgpr"},
      // 96 VGPRs -> floor(512/96) = 5 waves/SIMD -> 20 waves -> 5 WGs.
      {256, 96, 16, 0, 5, 20, "vgpr"},
      // 257 VGPRs round to 264 -> 1 wave/SIMD -> 4 waves -> 1 WG.
      {256, 257, 16, 0, 1, 4, "vgpr"},
      // 512 VGPRs (256 arch + 256 acc) -> 1 wave/SIMD.
      {64, 512, 16, 0, 4, 4, "vgpr"},
      // 104 SGPRs -> 7 waves/SIMD (LLVM table: > 100) -> 28 waves -> 7 WGs.
      {256, 32, 104, 0, 7, 28, "sgpr"},
      // 20000 B LDS rounds to 20480 (512-byte granule) -> 3 WGs per 64 KiB.
      {256, 32, 16, 20000, 3, 12, "lds"},
      // 16 waves/WG: 32 slots -> 2 WGs; WG limit 40/16 = 2.
      {1024, 32, 16, 0, 2, 32, "waves"},
      // 1 wave/WG: 32 wave slots (the WG limit is 40 for 1-wave WGs).
      {64, 24, 16, 0, 32, 32, "waves"},
      // 3 waves/WG: 10 WGs fill 30 of 32 slots; an 11th finds only 2 SIMDs
      // with a free slot (needs 3).
      {192, 32, 16, 0, 10, 30, "waves"},
      // 2 waves/WG with 64 KiB LDS each: 1 WG.
      {128, 32, 16, 65536, 1, 2, "lds"},
  };
  for (const Case &C : Cases) {
    Occupancy O = computeOccupancy(D, C.WG, C.Vgprs, C.Sgprs, C.Lds);
    EXPECT_EQ(O.WorkgroupsPerCU, C.WGsPerCU)
        << "WG " << C.WG << " vgprs " << C.Vgprs << " sgprs " << C.Sgprs
        << " lds " << C.Lds;
    EXPECT_EQ(O.WavesPerCU, C.WavesPerCU) << "WG " << C.WG << " vgprs "
                                          << C.Vgprs << " lds " << C.Lds;
    EXPECT_EQ(O.Limiter, C.Limiter)
        << "WG " << C.WG << " vgprs " << C.Vgprs << " lds " << C.Lds;
  }
}

TEST(CostModelOccupancy, RunUsesTheDescriptor) {
  auto CO = loadKernel("bench_probes-gfx942-v5.hsaco");
  ASSERT_TRUE(CO);
  Launch L;
  L.Grid = {1, 1, 1};
  L.Block = {256, 1, 1};
  L.Args = {Arg::i32(1 << 20), Arg::buf(1 << 12, 1), Arg::buf(1 << 12)};
  Outcome O = runTimed(*CO, "probe_copy_f32x4", L, DeviceModel::mi300x());
  ASSERT_TRUE(O.Run.ok()) << O.Run.Message;
  const KernelInfo *K = CO->kernel("probe_copy_f32x4");
  unsigned V = (K->KD.granulatedWorkitemVgprCount() + 1) * 8;
  Occupancy Want = computeOccupancy(DeviceModel::mi300x(), 256, V,
                                    (K->KD.granulatedWavefrontSgprCount() + 1) * 8,
                                    0);
  EXPECT_EQ(O.Timing.Occ.WorkgroupsPerCU, Want.WorkgroupsPerCU);
  EXPECT_EQ(O.Timing.Occ.WavesPerWorkgroup, 4u);
}

//===----------------------------------------------------------------------===//
// Determinism
//===----------------------------------------------------------------------===//

TEST(CostModel, Deterministic) {
  auto CO = loadKernel("transpose-gfx942-v5.hsaco");
  ASSERT_TRUE(CO);
  Launch L;
  L.Grid = {6, 5, 1};
  L.Block = {32, 8, 1};
  L.Args = {Arg::i32(180), Arg::i32(150), Arg::buf(180 * 150 * 4, 3),
            Arg::buf(180 * 150 * 4)};
  Outcome A = runTimed(*CO, "transpose_lds_f32", L, DeviceModel::mi300x(), 1);
  Outcome B = runTimed(*CO, "transpose_lds_f32", L, DeviceModel::mi300x(), 3);
  Outcome C = runTimed(*CO, "transpose_lds_f32", L, DeviceModel::mi300x(), 2);
  ASSERT_TRUE(A.Run.ok()) << A.Run.Message;
  ASSERT_TRUE(A.Timing.Valid);
  EXPECT_GT(A.Timing.Cycles, 0u);
  for (const Outcome *O : {&B, &C}) {
    ASSERT_TRUE(O->Run.ok());
    EXPECT_EQ(O->Timing.Cycles, A.Timing.Cycles);
    EXPECT_EQ(O->Timing.CuCycles, A.Timing.CuCycles);
    ASSERT_EQ(O->Timing.PerPC.size(), A.Timing.PerPC.size());
    for (auto &[Off, Cost] : A.Timing.PerPC) {
      auto It = O->Timing.PerPC.find(Off);
      ASSERT_NE(It, O->Timing.PerPC.end());
      EXPECT_EQ(It->second.Cycles, Cost.Cycles) << "offset " << Off;
      EXPECT_EQ(It->second.Executed, Cost.Executed) << "offset " << Off;
    }
    EXPECT_EQ(O->Buffers, A.Buffers);
  }
  // Every cycle of every modelled wave is charged once: the per-PC cycles
  // add up to the modelled waves' lifetimes, which are at least the issue
  // time of their instructions.
  uint64_t Busy = 0, Total = 0, Sampled = 0;
  for (auto &[Off, Cost] : A.Timing.PerPC) {
    Busy += Cost.Cycles[unsigned(Stall::Busy)];
    Total += Cost.total();
    Sampled += Cost.SampledExecuted;
  }
  EXPECT_GE(Busy, Sampled * 4);
  EXPECT_GE(Total, Busy);
}

//===----------------------------------------------------------------------===//
// MFMA chains match LLVM's pass counts
//===----------------------------------------------------------------------===//

uint64_t chainCycles(const CodeObject &CO, StringRef K, DeviceModel D) {
  Launch L;
  L.Grid = {1, 1, 1};
  L.Block = {64, 1, 1};
  L.Args = {Arg::buf(4096, 7), Arg::buf(64 * 16 * 4)};
  return cycles(CO, K, L, D);
}

TEST(CostModel, MfmaChainsMatchPassCounts) {
  auto CO = loadKernel("bench_probes-gfx942-v5.hsaco");
  ASSERT_TRUE(CO);
  DeviceModel D = DeviceModel::mi300x();
  // 8 more dependent MFMAs; gfx942 (LLVM SIDPGFX940FullSpeedModel):
  // 32x32x8 f16 = Write8PassMAI, 16x16x16 f16 = Write4PassMAI; 4 cycles
  // per pass.
  uint64_t A8 = chainCycles(*CO, "probe_mfma32_x8", D);
  uint64_t A16 = chainCycles(*CO, "probe_mfma32_x16", D);
  EXPECT_EQ(A16 - A8, 8u * 8 * 4);
  uint64_t B8 = chainCycles(*CO, "probe_mfma16_x8", D);
  uint64_t B16 = chainCycles(*CO, "probe_mfma16_x16", D);
  EXPECT_EQ(B16 - B8, 8u * 4 * 4);
}

TEST(CostModel, MfmaChainsMatchPassCountsGfx90a) {
  auto CO = loadKernel("bench_probes-gfx90a-v5.hsaco");
  ASSERT_TRUE(CO);
  DeviceModel D = DeviceModel::mi250xGcd();
  // gfx90a (SIDPFullSpeedModel): 32x32x8 f16 = 16 passes, 16x16x16 = 8.
  uint64_t A8 = chainCycles(*CO, "probe_mfma32_x8", D);
  uint64_t A16 = chainCycles(*CO, "probe_mfma32_x16", D);
  EXPECT_EQ(A16 - A8, 8u * 16 * 4);
  uint64_t B8 = chainCycles(*CO, "probe_mfma16_x8", D);
  uint64_t B16 = chainCycles(*CO, "probe_mfma16_x16", D);
  EXPECT_EQ(B16 - B8, 8u * 8 * 4);
}

//===----------------------------------------------------------------------===//
// More waves hide more memory latency
//===----------------------------------------------------------------------===//

TEST(CostModel, MoreWavesHideMoreLatency) {
  auto CO = loadKernel("bench_probes-gfx942-v5.hsaco");
  ASSERT_TRUE(CO);
  // One workgroup (one CU), 64 dependent loads per work-item; 1, 4 and 16
  // waves do the same work per wave.
  auto run = [&](unsigned Items) {
    Launch L;
    L.Grid = {1, 1, 1};
    L.Block = {Items, 1, 1};
    L.Args = {Arg::i32(64), Arg::buf(4096), Arg::buf(Items * 4)};
    return cycles(*CO, "probe_chase", L);
  };
  uint64_t W1 = run(64), W4 = run(256), W16 = run(1024);
  DeviceModel D = DeviceModel::mi300x();
  // One wave: every load waits for the full latency.
  EXPECT_GE(W1, 64u * D.VmemLatency);
  // More waves overlap their latencies: per-wave time falls.
  EXPECT_LT(double(W4) / 4, double(W1) / 1);
  EXPECT_LT(double(W16) / 16, double(W4) / 4);
  // 16 waves take far less than 16 times one wave.
  EXPECT_LT(W16, 2 * W1);
}

//===----------------------------------------------------------------------===//
// Bandwidth
//===----------------------------------------------------------------------===//

TEST(CostModel, BandwidthBoundScalesWithBytes) {
  auto CO = loadKernel("bench_probes-gfx942-v5.hsaco");
  ASSERT_TRUE(CO);
  DeviceModel D = DeviceModel::mi300x();
  auto run = [&](unsigned N4) {
    Launch L;
    L.Grid = {N4 / 256, 1, 1};
    L.Block = {256, 1, 1};
    L.Args = {Arg::i32(N4), Arg::buf(uint64_t(N4) * 16, 1),
              Arg::buf(uint64_t(N4) * 16)};
    Outcome O = runTimed(*CO, "probe_copy_f32x4", L, D, 0);
    EXPECT_TRUE(O.Run.ok()) << O.Run.Message;
    // Never faster than the bytes at HBM bandwidth.
    double Bytes = 2.0 * N4 * 16;
    EXPECT_GE(double(O.Timing.Cycles), Bytes / D.hbmBytesPerCycle());
    return O.Timing.Cycles;
  };
  uint64_t C1 = run(1 << 19), C2 = run(1 << 20), C4 = run(1 << 21);
  // 8, 16, 32 MiB each way: the time doubles with the bytes (within 15%).
  EXPECT_NEAR(double(C2) / C1, 2.0, 0.3);
  EXPECT_NEAR(double(C4) / C2, 2.0, 0.3);
  // And stays within 25% of the HBM roofline at this size.
  EXPECT_LT(double(C4), 1.25 * 2.0 * (1 << 21) * 16 / D.hbmBytesPerCycle());
}

TEST(CostModel, MI308XHasFewerCUs) {
  auto CO = loadKernel("bench_probes-gfx942-v5.hsaco");
  ASSERT_TRUE(CO);
  // A latency-bound grid that fills MI300X's 304 CUs exactly once (8
  // workgroups of 4 waves each per CU) needs ceil(2432 / 80 / 8) = 4 rounds
  // on MI308X's 80 CUs (rounds overlap a little: more than 2.5 times).
  Launch L;
  L.Grid = {304 * 8, 1, 1};
  L.Block = {256, 1, 1};
  L.Args = {Arg::i32(8), Arg::buf(4096), Arg::buf(304 * 8 * 256 * 4)};
  uint64_t X = cycles(*CO, "probe_chase", L, DeviceModel::mi300x());
  uint64_t Y = cycles(*CO, "probe_chase", L, DeviceModel::mi308x());
  EXPECT_GT(Y, 5 * X / 2);
  EXPECT_LT(Y, 5 * X);
}

//===----------------------------------------------------------------------===//
// Removing a needless s_waitcnt never adds cycles
//===----------------------------------------------------------------------===//

struct WaitcntCase {
  const char *File, *Kernel;
  Launch L;
};

void checkNeedlessWaitcnts(const WaitcntCase &C, unsigned &Needless) {
  mlir::MLIRContext Ctx;
  Ctx.getOrLoadDialect<amdgcn::AMDGCNDialect>();
  Ctx.disableMultithreading();
  auto CO = loadKernel(C.File);
  ASSERT_TRUE(CO);
  DeviceModel D = DeviceModel::mi300x();
  Outcome Base = runTimed(*CO, C.Kernel, C.L, D);
  ASSERT_TRUE(Base.Run.ok()) << Base.Run.Message;
  auto Op = recoverCodeObject(Ctx, *CO);
  ASSERT_TRUE(bool(Op)) << llvm::toString(Op.takeError());
  unsigned N = 0;
  (*Op)->walk([&](amdgcn::WaitcntOp) { ++N; });
  for (unsigned J = 0; J < N; ++J) {
    mlir::OwningOpRef<amdgcn::CodeObjectOp> Copy((*Op)->clone());
    unsigned K = 0;
    Copy->walk([&](amdgcn::WaitcntOp W) {
      if (K++ == J)
        W->erase();
    });
    auto Bytes = emitCodeObject(*Copy);
    ASSERT_TRUE(bool(Bytes)) << llvm::toString(Bytes.takeError());
    auto CO2 = CodeObject::parse(
        llvm::MemoryBuffer::getMemBufferCopy(StringRef(
            reinterpret_cast<const char *>(Bytes->data()), Bytes->size())),
        "variant");
    ASSERT_TRUE(bool(CO2)) << llvm::toString(CO2.takeError());
    Outcome V = runTimed(**CO2, C.Kernel, C.L, D);
    // Needless: the scoreboard accepts the run and the outputs are equal.
    if (!V.Run.ok() || V.Buffers != Base.Buffers)
      continue;
    ++Needless;
    EXPECT_LE(V.Timing.Cycles, Base.Timing.Cycles)
        << C.File << " " << C.Kernel << ": deleting s_waitcnt #" << J;
  }
}

TEST(CostModel, RemovingANeedlessWaitcntNeverAddsCycles) {
  std::vector<WaitcntCase> Cases;
  {
    WaitcntCase C{"transpose-gfx942-v5.hsaco", "transpose_lds_f32", {}};
    C.L.Grid = {3, 3, 1};
    C.L.Block = {32, 8, 1};
    C.L.Args = {Arg::i32(90), Arg::i32(70), Arg::buf(25200, 3),
                Arg::buf(25200)};
    Cases.push_back(C);
  }
  {
    WaitcntCase C{"elementwise-gfx942-v5.hsaco", "axpy_f32", {}};
    C.L.Grid = {8, 1, 1};
    C.L.Block = {256, 1, 1};
    C.L.Args = {Arg::i32(2000), Arg::f32(2), Arg::buf(8000, 1),
                Arg::buf(8000, 2)};
    Cases.push_back(C);
  }
  {
    WaitcntCase C{"bench_probes-gfx942-v5.hsaco", "probe_mfma32_x8", {}};
    C.L.Args = {Arg::buf(4096, 7), Arg::buf(4096)};
    Cases.push_back(C);
  }
  {
    // Suite kernels with reductions through LDS and barriers.
    WaitcntCase C{"bench_l1_softmax-gfx942-v5.hsaco", "softmax", {}};
    C.L.Grid = {6, 1, 1};
    C.L.Block = {256, 1, 1};
    C.L.Args = {Arg::i32(512), Arg::buf(6 * 512 * 4, 4), Arg::buf(6 * 512 * 4)};
    Cases.push_back(C);
  }
  {
    WaitcntCase C{"bench_l1_matmul_tiled-gfx942-v5.hsaco", "matmul_tiled", {}};
    C.L.Grid = {2, 2, 1};
    C.L.Block = {256, 1, 1};
    C.L.Args = {Arg::i32(32), Arg::i32(32), Arg::i32(48),
                Arg::buf(32 * 48 * 4, 5), Arg::buf(48 * 32 * 4, 6),
                Arg::buf(32 * 32 * 4)};
    Cases.push_back(C);
  }
  {
    WaitcntCase C{"bench_l2_attention-gfx942-v5.hsaco", "attention", {}};
    C.L.Grid = {4, 1, 1};
    C.L.Block = {256, 1, 1};
    C.L.Args = {Arg::buf(4 * 64 * 4, 7), Arg::buf(64 * 256 * 4, 8),
                Arg::buf(256 * 64 * 4, 9), Arg::buf(4 * 64 * 4)};
    Cases.push_back(C);
  }
  unsigned Needless = 0;
  for (const WaitcntCase &C : Cases)
    checkNeedlessWaitcnts(C, Needless);
  // The cases do have needless waits (e.g. waits before the first use of a
  // load that the kernel issues early), so the property is exercised.
  ::testing::Test::RecordProperty("needless_waitcnts", int(Needless));
  std::printf("needless s_waitcnts checked: %u\n", Needless);
  EXPECT_GT(Needless, 3u);
}

//===----------------------------------------------------------------------===//
// Hot windows
//===----------------------------------------------------------------------===//

TEST(CostModelHotWindows, CoverTheHottestInstructionAndAreDisjoint) {
  auto CO = loadKernel("transpose-gfx942-v5.hsaco");
  ASSERT_TRUE(CO);
  Launch L;
  L.Grid = {3, 3, 1};
  L.Block = {32, 8, 1};
  L.Args = {Arg::i32(90), Arg::i32(70), Arg::buf(25200, 3), Arg::buf(25200)};
  Outcome O = runTimed(*CO, "transpose_lds_f32", L, DeviceModel::mi300x());
  ASSERT_TRUE(O.Run.ok());
  std::vector<HotWindow> W = findHotWindows(O.Timing);
  ASSERT_FALSE(W.empty());
  uint64_t HotOff = 0, HotCycles = 0;
  for (auto &[Off, C] : O.Timing.PerPC)
    if (C.total() > HotCycles) {
      HotCycles = C.total();
      HotOff = Off;
    }
  EXPECT_LE(W[0].Begin, HotOff);
  EXPECT_GT(W[0].End, HotOff);
  double Share = 0;
  for (size_t I = 0; I < W.size(); ++I) {
    Share += W[I].Share;
    EXPECT_LT(W[I].Begin, W[I].End);
    for (size_t J = I + 1; J < W.size(); ++J)
      EXPECT_TRUE(W[I].End <= W[J].Begin || W[J].End <= W[I].Begin);
  }
  EXPECT_LE(Share, 1.0 + 1e-9);
  // JSON: parses, says "modelled", lists the windows with their code.
  std::string J = timingJson(O.Timing, W, "transpose_lds_f32");
  auto V = llvm::json::parse(J);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Root = V->getAsObject();
  ASSERT_TRUE(Root);
  EXPECT_EQ(Root->getObject("time")->getString("kind").value_or(""),
            "modelled");
  const llvm::json::Array *Arr = Root->getArray("hot_windows");
  ASSERT_TRUE(Arr);
  EXPECT_EQ(Arr->size(), W.size());
  EXPECT_FALSE((*Arr)[0].getAsObject()->getArray("code")->empty());
}

} // namespace
