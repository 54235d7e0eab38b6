//===- CodeObjectBench.cpp - Recovery and emission throughput -------------===//
//
// Instructions per second for parse + recover, emit, and the whole round
// trip, on one code object: $ASMEVO_BENCH_OBJECT, else an in-tree kernel.
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/Emit.h"
#include "asmevo/CodeObject/Recover.h"

#include "mlir/IR/MLIRContext.h"
#include <benchmark/benchmark.h>

#include <cstdlib>

using namespace asmevo;

static std::string benchObject() {
  if (const char *P = std::getenv("ASMEVO_BENCH_OBJECT"))
    return P;
  return ASMEVO_TEST_KERNEL_DIR "/mfma-gfx942-v5.hsaco";
}

static std::unique_ptr<CodeObject> loadOrDie() {
  auto CO = CodeObject::load(benchObject());
  if (!CO) {
    fprintf(stderr, "%s\n", llvm::toString(CO.takeError()).c_str());
    std::exit(2);
  }
  return std::move(*CO);
}

static void BM_Recover(benchmark::State &State) {
  auto CO = loadOrDie();
  uint64_t Insts = 0;
  for (auto _ : State) {
    mlir::MLIRContext Ctx(mlir::MLIRContext::Threading::DISABLED);
    RecoverStats RS;
    auto Op = recoverCodeObject(Ctx, *CO, &RS);
    if (!Op)
      State.SkipWithError(llvm::toString(Op.takeError()).c_str());
    Insts += RS.Instructions;
  }
  State.counters["instructions/s"] =
      benchmark::Counter(double(Insts), benchmark::Counter::kIsRate);
}

static void BM_Emit(benchmark::State &State) {
  auto CO = loadOrDie();
  mlir::MLIRContext Ctx(mlir::MLIRContext::Threading::DISABLED);
  RecoverStats RS;
  auto Op = recoverCodeObject(Ctx, *CO, &RS);
  if (!Op) {
    State.SkipWithError(llvm::toString(Op.takeError()).c_str());
    return;
  }
  uint64_t Insts = 0;
  for (auto _ : State) {
    auto Bytes = emitCodeObject(**Op);
    if (!Bytes)
      State.SkipWithError(llvm::toString(Bytes.takeError()).c_str());
    benchmark::DoNotOptimize(Bytes);
    Insts += RS.Instructions;
  }
  State.counters["instructions/s"] =
      benchmark::Counter(double(Insts), benchmark::Counter::kIsRate);
}

static void BM_RoundTrip(benchmark::State &State) {
  uint64_t Insts = 0;
  for (auto _ : State) {
    auto CO = loadOrDie();
    mlir::MLIRContext Ctx(mlir::MLIRContext::Threading::DISABLED);
    RecoverStats RS;
    auto Op = recoverCodeObject(Ctx, *CO, &RS);
    if (!Op) {
      State.SkipWithError(llvm::toString(Op.takeError()).c_str());
      break;
    }
    auto Bytes = emitCodeObject(**Op);
    benchmark::DoNotOptimize(Bytes);
    if (!Bytes)
      State.SkipWithError(llvm::toString(Bytes.takeError()).c_str());
    Insts += RS.Instructions;
  }
  State.counters["instructions/s"] =
      benchmark::Counter(double(Insts), benchmark::Counter::kIsRate);
}

BENCHMARK(BM_Recover)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_Emit)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_RoundTrip)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK_MAIN();
