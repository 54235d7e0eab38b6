//===- Timing.cpp - Statistics of measured dispatch times -----------------===//

#include "asmevo/Verify/Timing.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <numeric>

using namespace llvm;

namespace asmevo {
namespace verify {

double quantileSorted(ArrayRef<double> S, double P) {
  assert(!S.empty() && P >= 0 && P <= 1);
  double Pos = P * double(S.size() - 1);
  size_t Lo = size_t(Pos);
  if (Lo + 1 >= S.size())
    return S.back();
  double Frac = Pos - double(Lo);
  return S[Lo] + (S[Lo + 1] - S[Lo]) * Frac;
}

TimingStats summarizeTimes(ArrayRef<double> Ms) {
  assert(!Ms.empty() && "no timed repetition");
  TimingStats T;
  T.Ms.assign(Ms.begin(), Ms.end());
  std::vector<double> S(Ms.begin(), Ms.end());
  std::sort(S.begin(), S.end());
  T.Min = S.front();
  T.Max = S.back();
  T.Median = quantileSorted(S, 0.5);
  T.Q1 = quantileSorted(S, 0.25);
  T.Q3 = quantileSorted(S, 0.75);
  T.Mean = std::accumulate(S.begin(), S.end(), 0.0) / double(S.size());
  return T;
}

std::string TimingStats::str() const {
  return formatv("measured ({0}; {1}): median {2:f4} ms over {3} "
                 "repetitions after {4} warm-up, min {5:f4}, q1 {6:f4}, "
                 "q3 {7:f4}, max {8:f4} ms",
                 Clock, Device.empty() ? "device ?" : Device, Median, Ms.size(),
                 Warmup, Min, Q1, Q3, Max)
      .str();
}

std::string TimingStats::json() const {
  json::Array Samples;
  for (double V : Ms)
    Samples.push_back(V);
  json::Object O{{"time_kind", "measured"},
                 {"clock", Clock},
                 {"device", Device},
                 {"warmup", Warmup},
                 {"repetitions", int64_t(Ms.size())},
                 {"median_ms", Median},
                 {"min_ms", Min},
                 {"q1_ms", Q1},
                 {"q3_ms", Q3},
                 {"max_ms", Max},
                 {"mean_ms", Mean},
                 {"samples_ms", std::move(Samples)}};
  std::string S;
  raw_string_ostream OS(S);
  OS << formatv("{0:2}", json::Value(std::move(O)));
  return S;
}

} // namespace verify
} // namespace asmevo
