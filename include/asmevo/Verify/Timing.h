//===- Timing.h - Measured dispatch times and their statistics --*- C++ -*-===//
//
// A measured timing of one dispatch on a device: warm-up launches that are
// not counted, then N timed repetitions, each one launch bracketed by
// events (hipEventElapsedTime) or, when the runtime has no events, by the
// host clock around launch + synchronize. The summary gives the median and
// the spread (min, max, first and third quartile). Always labelled
// "measured", as opposed to the cost model's "modelled" times.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_VERIFY_TIMING_H
#define ASMEVO_VERIFY_TIMING_H

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace asmevo {
namespace verify {

struct TimingStats {
  /// "hipEvent" or "host clock".
  std::string Clock;
  /// The device the times were taken on (the executor's description).
  std::string Device;
  unsigned Warmup = 0;
  /// Milliseconds per timed repetition, in launch order.
  std::vector<double> Ms;
  double Median = 0, Min = 0, Max = 0, Q1 = 0, Q3 = 0, Mean = 0;

  /// One line: "measured (hipEvent, device ...): median 1.234 ms, ...".
  std::string str() const;
  /// A JSON object (time_kind "measured", every field and the samples).
  std::string json() const;
};

/// Order statistics of Ms (which must not be empty): median (mean of the
/// two middle values for an even count), quartiles by linear interpolation
/// between order statistics (position p * (n - 1), as numpy's default),
/// min, max, mean. Samples are kept in launch order.
TimingStats summarizeTimes(llvm::ArrayRef<double> Ms);

/// The p-quantile (0 <= p <= 1) of sorted samples, linear interpolation.
double quantileSorted(llvm::ArrayRef<double> Sorted, double P);

} // namespace verify
} // namespace asmevo

#endif // ASMEVO_VERIFY_TIMING_H
