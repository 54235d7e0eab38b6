//===- Timing.h - The emulator's timing mode (cost model) --------*- C++ -*-===//
//
// Private interface between the run loop (Exec.cpp) and the cost model
// (Timing.cpp). Exec.cpp runs the workgroups of the CUs that are not
// modelled in detail as usual (reporting their memory lines through
// functionalSink), then hands the modelled CUs' workgroups to run(), which
// issues their instructions one at a time through stepInstruction() in
// modelled-time order. See include/asmevo/Emu/CostModel.h.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_LIB_EMU_TIMING_H
#define ASMEVO_LIB_EMU_TIMING_H

#include "Internal.h"

#include "asmevo/Emu/CostModel.h"

#include <functional>
#include <memory>

namespace asmevo {
struct KernelInfo;
namespace emu {

/// Executes the wave's next instruction (Exec.cpp). Null when the wave failed
/// before executing it; W.St == Failed when it failed while executing it.
const Inst *stepInstruction(Wave &W);

class TimedDispatch {
public:
  /// Sets up a fresh workgroup L: id, LDS, and WavesPerWG initialised waves
  /// (reusing the Wave objects in Waves), WG.Waves filled.
  using SetupFn = std::function<void(uint64_t L, Workgroup &WG,
                                     std::vector<std::unique_ptr<Wave>> &Waves)>;

  TimedDispatch(TimingRequest &Req, Program &P, const KernelInfo &K,
                uint64_t NumWG, unsigned WavesPerWG, unsigned WGItems,
                uint32_t LdsBytes, unsigned UnifiedVgprs);
  ~TimedDispatch();

  /// True when workgroup L runs on a CU modelled in detail.
  bool modelled(uint64_t L) const;
  /// The access sink of functional worker thread T (of Threads).
  AccessSink *functionalSink(unsigned T, unsigned Threads);
  /// Runs the modelled CUs' workgroups (after the functional workers).
  void run(Ctx &C, const SetupFn &Setup);
  /// Fills the request's result from the run (after RR.Profile is merged).
  void finish(RunResult &RR);

private:
  struct Impl;
  std::unique_ptr<Impl> I;
};

} // namespace emu
} // namespace asmevo

#endif
