//===- HipExecutor.cpp - Real GPU executor through the HIP runtime --------===//

#include "asmevo/Verify/Executor.h"

using namespace llvm;

namespace asmevo {
namespace verify {

namespace {
class HipExecutor : public Executor {
  HipExecutorOptions O;

public:
  HipExecutor(const HipExecutorOptions &O) : O(O) {}
  StringRef name() const override { return "hip"; }
  Expected<ExecResult> run(const DispatchImage &, const ExecOptions &) override {
    return createStringError("HIP executor: not implemented yet");
  }
};
} // namespace

std::unique_ptr<Executor> createHipExecutor(const HipExecutorOptions &O) {
  return std::make_unique<HipExecutor>(O);
}

Expected<std::string> probeHip(const HipExecutorOptions &) {
  return createStringError("not implemented yet");
}

} // namespace verify
} // namespace asmevo
