//===- EmuBench.cpp - Emulator throughput (wave-instructions per second)
//---===//
//
// Two in-tree gfx942 kernels: `collatz` (compute bound: a data-dependent
// integer loop per lane) and `vadd_i32_gridstride` (memory bound: two loads
// and a store per element; also without the dispatch-wide race shadow). Each
// runs single-threaded and on all cores.
// Counters: `wave_instr/s` per wall-clock second, `wave_instr/cpu_s` per
// second of process CPU time (all threads; the per-core rate, meaningful on
// a shared machine where wall time includes waiting for a CPU).
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/Emu/Emulator.h"

#include "benchmark/benchmark.h"

#include <cstring>
#include <ctime>
#include <random>

using namespace asmevo;
using namespace asmevo::emu;

namespace {

struct Setup {
  std::unique_ptr<CodeObject> CO;
  std::unique_ptr<Emulator> Emu;
  Memory Mem;
  Dispatch D;
  const KernelInfo *K = nullptr;
  bool Ok = false;

  Setup(const char *File, const char *Kernel) {
    auto C = CodeObject::load(std::string(ASMEVO_TEST_KERNEL_DIR) + "/" + File);
    if (!C) {
      llvm::consumeError(C.takeError());
      return;
    }
    CO = std::move(*C);
    auto E = Emulator::create(*CO);
    if (!E) {
      llvm::consumeError(E.takeError());
      return;
    }
    Emu = std::move(*E);
    if (llvm::Error Err = Emu->mapCodeObject(Mem)) {
      llvm::consumeError(std::move(Err));
      return;
    }
    K = CO->kernel(Kernel);
    Ok = K && K->Meta;
  }
  uint64_t buffer(unsigned I, size_t Bytes, uint64_t Seed) {
    uint64_t A = 0x100000000000ull + uint64_t(I) * 0x1000000000ull;
    Region *R = *Mem.map(A, Bytes, PermRW, "buf");
    std::mt19937 G(Seed);
    for (size_t J = 0; J + 4 <= Bytes; J += 4) {
      uint32_t V = G() % 100000 + 1;
      std::memcpy(R->Data.data() + J, &V, 4);
    }
    return A;
  }
  void arg(unsigned Offset, const void *P, size_t N) {
    if (D.Kernarg.size() < Offset + N)
      D.Kernarg.resize(Offset + N);
    std::memcpy(D.Kernarg.data() + Offset, P, N);
  }
};

double processCpuSeconds() {
  timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return double(T.tv_sec) + double(T.tv_nsec) * 1e-9;
}

void run(benchmark::State &St, Setup &S, unsigned Threads,
         bool GlobalRaces = true) {
  if (!S.Ok) {
    St.SkipWithError("test kernel not found (build asmevo-test-kernels)");
    return;
  }
  RunOptions O;
  O.Threads = Threads;
  O.GlobalRaceCheck = GlobalRaces;
  uint64_t Instr = 0;
  double Cpu = 0;
  for (auto _ : St) {
    double C0 = processCpuSeconds();
    RunResult R = S.Emu->run(*S.K, S.D, S.Mem, O);
    if (!R.ok()) {
      St.SkipWithError(R.Message.c_str());
      return;
    }
    Cpu += processCpuSeconds() - C0;
    Instr += R.WaveInstructions;
  }
  St.counters["wave_instr/s"] =
      benchmark::Counter(double(Instr), benchmark::Counter::kIsRate);
  St.counters["wave_instr/cpu_s"] = Cpu > 0 ? double(Instr) / Cpu : 0;
}

Setup &collatz() {
  static Setup S("control_flow-gfx942-v5.hsaco", "collatz");
  static bool Init = false;
  if (!Init && S.Ok) {
    Init = true;
    int N = 64 * 256, Cap = 400;
    uint64_t In = S.buffer(0, N * 4, 1), Out = S.buffer(1, N * 4, 2);
    S.arg(0, &N, 4);
    S.arg(4, &Cap, 4);
    S.arg(8, &In, 8);
    S.arg(16, &Out, 8);
    S.D.Workgroups = {64, 1, 1};
    S.D.WorkgroupSize = {256, 1, 1};
  }
  return S;
}

Setup &vadd() {
  static Setup S("elementwise-gfx942-v5.hsaco", "vadd_i32_gridstride");
  static bool Init = false;
  if (!Init && S.Ok) {
    Init = true;
    int N = 1 << 20;
    uint64_t A = S.buffer(0, N * 4, 3), B = S.buffer(1, N * 4, 4),
             C = S.buffer(2, N * 4, 5);
    S.arg(0, &N, 4);
    S.arg(8, &A, 8);
    S.arg(16, &B, 8);
    S.arg(24, &C, 8);
    S.D.Workgroups = {256, 1, 1};
    S.D.WorkgroupSize = {256, 1, 1};
  }
  return S;
}

void BM_ComputeBound_1Thread(benchmark::State &St) { run(St, collatz(), 1); }
void BM_ComputeBound_AllCores(benchmark::State &St) { run(St, collatz(), 0); }
void BM_MemoryBound_1Thread(benchmark::State &St) { run(St, vadd(), 1); }
void BM_MemoryBound_AllCores(benchmark::State &St) { run(St, vadd(), 0); }
// The same run without the dispatch-wide race shadow (RunOptions::
// GlobalRaceCheck, on by default): its tags are four times the bytes the
// kernel streams, so this pair shows what the check costs.
void BM_MemoryBound_NoGlobalRaces_1Thread(benchmark::State &St) {
  run(St, vadd(), 1, false);
}
void BM_MemoryBound_NoGlobalRaces_AllCores(benchmark::State &St) {
  run(St, vadd(), 0, false);
}

} // namespace

BENCHMARK(BM_ComputeBound_1Thread)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ComputeBound_AllCores)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MemoryBound_1Thread)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MemoryBound_AllCores)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MemoryBound_NoGlobalRaces_1Thread)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_MemoryBound_NoGlobalRaces_AllCores)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_MAIN();
