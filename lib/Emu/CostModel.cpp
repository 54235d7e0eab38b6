//===- CostModel.cpp - Device presets, hot windows and timing reports -----===//
//
// The device presets (numbers and sources: docs/cost-model.md), the hot
// window finder the search agent is pointed at, and the text/JSON reports.
// The model itself is in Timing.cpp.
//
//===----------------------------------------------------------------------===//

#include "asmevo/Emu/CostModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>

using namespace llvm;

namespace asmevo {
namespace emu {

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

DeviceModel DeviceModel::mi300x() { return DeviceModel(); }

DeviceModel DeviceModel::mi308x() {
  DeviceModel D;
  D.Name = "MI308X";
  D.CUs = 80;
  return D;
}

DeviceModel DeviceModel::mi250xGcd() {
  DeviceModel D;
  D.Name = "MI250X-GCD";
  D.CUs = 110;
  D.ClockMHz = 1700;
  D.HbmGBps = 1638.4; // 3.2768 TB/s for the two GCDs
  D.XCDs = 1;
  D.L2BytesPerCyclePerXCD = 4096; // 32 channels x 128 B
  return D;
}

std::optional<DeviceModel> DeviceModel::preset(StringRef Name) {
  std::string N = Name.lower();
  if (N == "mi300x")
    return mi300x();
  if (N == "mi308x")
    return mi308x();
  if (N == "mi250x" || N == "mi250x-gcd")
    return mi250xGcd();
  return std::nullopt;
}

DeviceModel DeviceModel::forTarget(StringRef CPU) {
  if (CPU == "gfx90a")
    return mi250xGcd();
  return mi300x();
}

std::vector<std::string> DeviceModel::presetNames() {
  return {"mi300x", "mi308x", "mi250x"};
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

const char *stallName(Stall S) {
  switch (S) {
  case Stall::Busy:
    return "busy";
  case Stall::Dependency:
    return "dependency";
  case Stall::Vmcnt:
    return "vmcnt";
  case Stall::Lgkmcnt:
    return "lgkmcnt";
  case Stall::Barrier:
    return "barrier";
  case Stall::Issue:
    return "issue";
  }
  return "?";
}

Stall PcCost::main() const {
  unsigned Best = 0;
  for (unsigned K = 1; K < NumStallKinds; ++K)
    if (Cycles[K] > Cycles[Best])
      Best = K;
  return Stall(Best);
}

uint64_t TimingResult::modelledWaveCycles() const {
  uint64_t T = 0;
  for (auto &[Off, C] : PerPC)
    T += C.total();
  return T;
}

ReportedTime ReportedTime::modelled(const TimingResult &R) {
  ReportedTime T;
  T.K = R.Valid ? Modelled : None;
  T.Seconds = R.Seconds;
  T.Cycles = R.Cycles;
  T.Detail = formatv("{0} ({1} CUs @ {2} MHz)", R.Device.Name, R.Device.CUs,
                     R.Device.ClockMHz)
                 .str();
  return T;
}

ReportedTime ReportedTime::measured(const MeasuredTiming &M) {
  ReportedTime T;
  T.K = M.Repetitions ? Measured : None;
  T.Seconds = M.MedianSeconds;
  T.Detail = formatv("{0}: median of {1} after {2} warm-up, spread {3:f1}%",
                     M.Device, M.Repetitions, M.Warmup, M.SpreadPercent)
                 .str();
  return T;
}

const char *ReportedTime::kindName() const {
  return K == Modelled ? "modelled" : K == Measured ? "measured" : "none";
}

//===----------------------------------------------------------------------===//
// Hot windows
//===----------------------------------------------------------------------===//

std::vector<HotWindow> findHotWindows(const TimingResult &R,
                                      const HotWindowOptions &O) {
  struct E {
    uint64_t Off;
    unsigned Size;
    const PcCost *C;
    uint64_t Total;
  };
  std::vector<E> V;
  for (auto &[Off, C] : R.PerPC) {
    auto S = R.Size.find(Off);
    V.push_back({Off, S == R.Size.end() ? 4u : S->second, &C, C.total()});
  }
  uint64_t All = 0;
  for (const E &X : V)
    All += X.Total;
  std::vector<HotWindow> Out;
  if (!All)
    return Out;
  std::vector<char> Covered(V.size(), 0);
  auto adjacent = [&](size_t A, size_t B) { // A directly before B
    return V[A].Off + V[A].Size == V[B].Off;
  };
  for (unsigned N = 0; N < O.MaxWindows; ++N) {
    size_t Seed = V.size();
    for (size_t J = 0; J < V.size(); ++J)
      if (!Covered[J] && (Seed == V.size() || V[J].Total > V[Seed].Total))
        Seed = J;
    if (Seed == V.size() || double(V[Seed].Total) / All < O.MinShare)
      break;
    // Grow over neighbours that run about as often as the seed (the same
    // loop body) or carry a noticeable part of its cycles.
    auto belongs = [&](size_t J) {
      if (Covered[J])
        return false;
      uint64_t SE = V[Seed].C->Executed, JE = V[J].C->Executed;
      bool SameFreq = SE && JE && JE * 2 >= SE && JE <= SE * 2;
      return SameFreq ||
             double(V[J].Total) >= O.ExtendFraction * double(V[Seed].Total);
    };
    size_t Lo = Seed, Hi = Seed;
    while (Hi - Lo + 1 < O.MaxInstructions) {
      bool L = Lo > 0 && adjacent(Lo - 1, Lo) && belongs(Lo - 1);
      bool Rt = Hi + 1 < V.size() && adjacent(Hi, Hi + 1) && belongs(Hi + 1);
      if (!L && !Rt)
        break;
      if (L && (!Rt || V[Lo - 1].Total >= V[Hi + 1].Total))
        --Lo;
      else
        ++Hi;
    }
    HotWindow W;
    W.Begin = V[Lo].Off;
    W.End = V[Hi].Off + V[Hi].Size;
    for (size_t J = Lo; J <= Hi; ++J) {
      Covered[J] = 1;
      ++W.Instructions;
      W.Cycles += V[J].Total;
      W.Executed += V[J].C->Executed;
      for (unsigned K = 0; K < NumStallKinds; ++K)
        W.ByReason[K] += V[J].C->Cycles[K];
    }
    W.Share = double(W.Cycles) / double(All);
    unsigned Best = 0;
    for (unsigned K = 1; K < NumStallKinds; ++K)
      if (W.ByReason[K] > W.ByReason[Best])
        Best = K;
    W.Main = Stall(Best);
    Out.push_back(W);
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

static std::string humanBytes(uint64_t B) {
  if (B >= (1ull << 30))
    return formatv("{0:f2} GiB", double(B) / (1ull << 30)).str();
  if (B >= (1ull << 20))
    return formatv("{0:f2} MiB", double(B) / (1ull << 20)).str();
  if (B >= 1024)
    return formatv("{0:f1} KiB", double(B) / 1024).str();
  return formatv("{0} B", B).str();
}

static std::string humanTime(double S) {
  if (S >= 1e-3)
    return formatv("{0:f3} ms", S * 1e3).str();
  return formatv("{0:f3} us", S * 1e6).str();
}

void printTimingSummary(raw_ostream &OS, const TimingResult &R) {
  if (!R.Valid) {
    OS << "time: not modelled (the run failed)\n";
    return;
  }
  const DeviceModel &D = R.Device;
  OS << formatv("time: modelled {0} cycles = {1} on {2} ({3} CUs @ {4:f0} MHz, "
                "{5:f0} GB/s HBM); bound: {6}\n",
                R.Cycles, humanTime(R.Seconds), D.Name, D.CUs, D.ClockMHz,
                D.HbmGBps,
                R.Bound == "hbm" ? "HBM bandwidth" : "slowest modelled CU");
  const Occupancy &O = R.Occ;
  OS << formatv("occupancy: {0:f2} waves/SIMD ({1} workgroups x {2} waves "
                "per CU; limited by {3}; {4} VGPRs+AGPRs, {5} SGPRs, {6} B "
                "LDS per workgroup)\n",
                O.wavesPerSimd(D), O.WorkgroupsPerCU, O.WavesPerWorkgroup,
                O.Limiter, O.VgprsAllocated, O.SgprsAllocated, O.LdsAllocated);
  OS << formatv("modelled in detail: {0} of {1} active CUs, {2} of {3} "
                "workgroups; {4} distinct memory touched (HBM bound {5} "
                "cycles)\n",
                R.ModelledCUs, R.ActiveCUs, R.ModelledWorkgroups, R.Workgroups,
                humanBytes(R.UniqueBytes), R.HbmBoundCycles);
  std::array<uint64_t, NumStallKinds> By{};
  uint64_t All = 0;
  for (auto &[Off, C] : R.PerPC)
    for (unsigned K = 0; K < NumStallKinds; ++K) {
      By[K] += C.Cycles[K];
      All += C.Cycles[K];
    }
  OS << "wave-cycles by reason:";
  for (unsigned K = 0; K < NumStallKinds; ++K)
    OS << formatv(" {0} {1:f1}%", stallName(Stall(K)),
                  All ? 100.0 * By[K] / All : 0.0);
  OS << "\n";
}

void printHotWindows(raw_ostream &OS, const TimingResult &R,
                     const std::vector<HotWindow> &W) {
  uint64_t All = R.modelledWaveCycles();
  unsigned N = 0;
  if (!W.empty())
    OS << formatv("(executed: wave-instructions of the whole dispatch; "
                  "cycles: modelled wave-cycles on the {0} modelled CUs, "
                  "{1} of {2} workgroups)\n",
                  R.ModelledCUs, R.ModelledWorkgroups, R.Workgroups);
  for (const HotWindow &H : W) {
    OS << formatv("hot window {0}: offsets {1:x}-{2:x} ({3} "
                  "instructions), {4:f1}% of modelled cycles, main: {5}\n",
                  ++N, H.Begin, H.End, H.Instructions, 100 * H.Share,
                  stallName(H.Main));
    OS << "    offset   executed     cycles   share  main        "
          "instruction\n";
    for (auto It = R.PerPC.lower_bound(H.Begin);
         It != R.PerPC.end() && It->first < H.End; ++It) {
      const PcCost &C = It->second;
      auto T = R.Text.find(It->first);
      OS << formatv("    {0,-8} {1,8} {2,10} {3,6:f1}%  {4,-10}  {5}\n",
                    formatv("{0:x}", It->first).str(), C.Executed,
                    C.total(), All ? 100.0 * C.total() / All : 0.0,
                    C.total() ? stallName(C.main()) : "-",
                    T == R.Text.end() ? std::string("?") : T->second);
    }
  }
}

void printPerPC(raw_ostream &OS, const TimingResult &R) {
  uint64_t All = R.modelledWaveCycles();
  OS << "    offset   executed    sampled     cycles   share      busy   "
        "depend    vmcnt  lgkmcnt  barrier    issue  instruction\n";
  for (auto &[Off, C] : R.PerPC) {
    auto T = R.Text.find(Off);
    OS << formatv("    {0,-8} {1,8} {2,10} {3,10} {4,6:f2}%", 
                  formatv("{0:x}", Off).str(), C.Executed, C.SampledExecuted,
                  C.total(), All ? 100.0 * C.total() / All : 0.0);
    for (unsigned K = 0; K < NumStallKinds; ++K)
      OS << formatv(" {0,8}", C.Cycles[K]);
    OS << "  " << (T == R.Text.end() ? std::string("?") : T->second) << "\n";
  }
}

std::string timingJson(const TimingResult &R, const std::vector<HotWindow> &W,
                       StringRef Kernel, bool AllPCs) {
  std::string S;
  raw_string_ostream OS(S);
  json::OStream J(OS, 2);
  uint64_t All = R.modelledWaveCycles();
  auto reasons = [&](const std::array<uint64_t, NumStallKinds> &C) {
    J.attributeObject("cycles_by_reason", [&] {
      for (unsigned K = 0; K < NumStallKinds; ++K)
        J.attribute(stallName(Stall(K)), int64_t(C[K]));
    });
  };
  J.object([&] {
    if (!Kernel.empty())
      J.attribute("kernel", Kernel);
    J.attributeObject("time", [&] {
      J.attribute("kind", "modelled");
      J.attribute("valid", R.Valid);
      J.attribute("cycles", int64_t(R.Cycles));
      J.attribute("seconds", R.Seconds);
      J.attribute("bound", R.Bound);
      J.attribute("cu_bound_cycles", int64_t(R.CuBoundCycles));
      J.attribute("hbm_bound_cycles", int64_t(R.HbmBoundCycles));
      J.attribute("unique_bytes", int64_t(R.UniqueBytes));
      J.attribute("device", R.Device.Name);
      J.attribute("cus", int64_t(R.Device.CUs));
      J.attribute("clock_mhz", R.Device.ClockMHz);
      J.attribute("hbm_gbps", R.Device.HbmGBps);
      J.attribute("active_cus", int64_t(R.ActiveCUs));
      J.attribute("modelled_cus", int64_t(R.ModelledCUs));
      J.attribute("workgroups", int64_t(R.Workgroups));
      J.attribute("modelled_workgroups", int64_t(R.ModelledWorkgroups));
      J.attributeArray("modelled_cu_cycles", [&] {
        for (uint64_t C : R.CuCycles)
          J.value(int64_t(C));
      });
    });
    J.attributeObject("occupancy", [&] {
      const Occupancy &O = R.Occ;
      J.attribute("waves_per_simd", O.wavesPerSimd(R.Device));
      J.attribute("workgroups_per_cu", int64_t(O.WorkgroupsPerCU));
      J.attribute("waves_per_workgroup", int64_t(O.WavesPerWorkgroup));
      J.attribute("limiter", O.Limiter);
      J.attribute("vgprs", int64_t(O.VgprsAllocated));
      J.attribute("sgprs", int64_t(O.SgprsAllocated));
      J.attribute("lds_bytes", int64_t(O.LdsAllocated));
    });
    J.attribute("modelled_wave_cycles", int64_t(All));
    if (AllPCs)
      J.attributeArray("per_pc", [&] {
        for (auto &[Off, C] : R.PerPC) {
          auto T = R.Text.find(Off);
          J.object([&] {
            J.attribute("offset", int64_t(Off));
            J.attribute("text", T == R.Text.end() ? std::string() : T->second);
            J.attribute("executed", int64_t(C.Executed));
            J.attribute("sampled_executed", int64_t(C.SampledExecuted));
            J.attribute("cycles", int64_t(C.total()));
            reasons(C.Cycles);
          });
        }
      });
    J.attributeArray("hot_windows", [&] {
      for (const HotWindow &H : W)
        J.object([&] {
          J.attribute("begin", int64_t(H.Begin));
          J.attribute("end", int64_t(H.End));
          J.attribute("range", formatv("{0:x}-{1:x}", H.Begin, H.End).str());
          J.attribute("instructions", int64_t(H.Instructions));
          J.attribute("cycles", int64_t(H.Cycles));
          J.attribute("share", H.Share);
          J.attribute("main_reason", stallName(H.Main));
          reasons(H.ByReason);
          J.attributeArray("code", [&] {
            for (auto It = R.PerPC.lower_bound(H.Begin);
                 It != R.PerPC.end() && It->first < H.End; ++It) {
              const PcCost &C = It->second;
              auto T = R.Text.find(It->first);
              J.object([&] {
                J.attribute("offset", int64_t(It->first));
                J.attribute("text",
                            T == R.Text.end() ? std::string() : T->second);
                J.attribute("executed", int64_t(C.Executed));
                J.attribute("cycles", int64_t(C.total()));
                J.attribute("share", All ? double(C.total()) / All : 0.0);
                J.attribute("main_reason",
                            C.total() ? stallName(C.main()) : "-");
                reasons(C.Cycles);
              });
            }
          });
        });
    });
  });
  OS.flush();
  return S;
}

} // namespace emu
} // namespace asmevo
