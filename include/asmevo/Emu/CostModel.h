//===- CostModel.h - Modelled timing of a dispatch (gfx942/gfx90a) -*- C++ -*-===//
//
// The emulator's timing mode: a cycle-approximate model of how a dispatch
// runs on an AMD Instinct GPU, driven by the emulator itself (every modelled
// wave-instruction is executed functionally when the model issues it, so
// addresses, EXEC masks, branch directions and loop trip counts are the real
// ones).
//
//  * One CU in detail: 4 SIMDs, waves placed as the hardware does, occupancy
//    limited by unified VGPR+AGPR, SGPR, LDS, workgroup and wave-slot limits;
//    per wave in-order issue; per SIMD one issue slot every 4 cycles with
//    oldest-first arbitration, one instruction per unit class per slot;
//    VALU issue cost by class and MFMA passes from LLVM's scheduling model of
//    the target (MCSchedModel); SALU, SMEM, VMEM (latency, per-CU L1
//    bandwidth, share of HBM bandwidth), LDS (latency, bank conflicts);
//    s_waitcnt, s_barrier, s_nop, s_sleep and branch costs; register
//    dependency stalls.
//  * The grid is spread over the device's CUs round-robin; a sample of CUs is
//    modelled in detail (every workgroup is still executed functionally), the
//    dispatch takes as long as the slowest modelled CU, and never less than
//    the bytes it moves from HBM at full HBM bandwidth.
//
// Every parameter, with its source, is in docs/cost-model.md. The model is
// deterministic: the same dispatch gives the same cycles on any host and
// with any number of host threads.
//
// Times are always labelled: "modelled" (this model) or "measured" (a real
// GPU through the HIP executor, MeasuredTiming below).
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_EMU_COSTMODEL_H
#define ASMEVO_EMU_COSTMODEL_H

#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace asmevo {
namespace emu {

/// The modelled device. Defaults are MI300X (gfx942); docs/cost-model.md
/// gives the source of every number.
struct DeviceModel {
  std::string Name = "MI300X";
  // Device.
  unsigned CUs = 304;
  double ClockMHz = 2100;
  double HbmGBps = 5300; // GB/s = 1e9 bytes per second
  // CU resources and occupancy rules.
  unsigned SimdsPerCU = 4;
  unsigned MaxWavesPerSimd = 8;     // gfx90a/gfx942
  unsigned VgprsPerSimdLane = 512;  // unified VGPR+AGPR file
  unsigned VgprGranule = 8;
  unsigned SgprsPerSimd = 800;      // occupancy table of LLVM (VI..GFX9)
  unsigned LdsBytesPerCU = 65536;
  unsigned LdsGranule = 512;        // 128 dwords
  unsigned WorkgroupWaveSlots = 40; // LLVM getMaxWorkGroupsPerCU: 40 / waves
  unsigned MaxWorkgroupsPerCU = 16;
  // Issue.
  unsigned IssuePeriod = 4; // a SIMD is offered an issue slot every 4 cycles
  unsigned PassCycles = 4;  // LLVM gfx9 latency unit = one wave64 pass
  // Latencies (cycles) and bandwidths.
  unsigned SaluLatency = 4;
  unsigned SmemLatency = 20;
  unsigned LdsLatency = 20;
  unsigned VmemLatency = 320;
  unsigned BranchTakenCycles = 32;
  unsigned BarrierLatency = 4;
  unsigned SleepUnitCycles = 64;
  double L1BytesPerCycle = 64;   // per CU, vector memory path
  unsigned XCDs = 8;             // L2 is per XCD
  double L2BytesPerCyclePerXCD = 2048; // 16 channels x 128 B
  unsigned LineBytes = 128;      // coalescing / L2 line size
  unsigned LdsBanks = 32;
  unsigned LdsBankBytes = 4;
  unsigned LdsBytesPerCycle = 128; // = banks x bank width

  double hbmBytesPerCycle() const { return HbmGBps * 1e3 / ClockMHz; }
  double cyclesToSeconds(double Cycles) const {
    return Cycles / (ClockMHz * 1e6);
  }

  static DeviceModel mi300x();
  static DeviceModel mi308x();
  /// One GCD of an MI250X (gfx90a).
  static DeviceModel mi250xGcd();
  /// "mi300x", "mi308x", "mi250x" (case-insensitive); none when unknown.
  static std::optional<DeviceModel> preset(llvm::StringRef Name);
  /// The default device for a target processor ("gfx942" -> MI300X,
  /// "gfx90a" -> MI250X GCD).
  static DeviceModel forTarget(llvm::StringRef CPU);
  static std::vector<std::string> presetNames();
};

/// What a wave-instruction's modelled cycles were spent on. Every cycle of a
/// wave's life is charged to exactly one instruction and one reason:
///   Busy       its own issue time (4 cycles per slot, more for s_nop,
///              s_sleep, taken branches);
///   Dependency waiting for a register written by an earlier ALU/MFMA
///              instruction;
///   Vmcnt      s_waitcnt waiting for vector memory;
///   Lgkmcnt    s_waitcnt waiting for LDS / scalar memory;
///   Barrier    s_barrier waiting for the other waves of the workgroup;
///   Issue      ready, but the unit was busy, another wave won the
///              arbitration or the SIMD's next slot had not come.
enum class Stall : uint8_t { Busy, Dependency, Vmcnt, Lgkmcnt, Barrier, Issue };
constexpr unsigned NumStallKinds = 6;
const char *stallName(Stall S);

struct PcCost {
  uint64_t Executed = 0;        // wave-instructions, whole dispatch
  uint64_t SampledExecuted = 0; // wave-instructions on the modelled CUs
  std::array<uint64_t, NumStallKinds> Cycles{}; // modelled CUs, by reason
  uint64_t total() const {
    uint64_t T = 0;
    for (uint64_t C : Cycles)
      T += C;
    return T;
  }
  /// The reason with the most cycles.
  Stall main() const;
};

/// Occupancy of one CU for a kernel, by AMD's rules (see docs/cost-model.md).
struct Occupancy {
  unsigned WavesPerWorkgroup = 0;
  unsigned VgprsAllocated = 0; // unified VGPR+AGPR per lane, granule-rounded
  unsigned SgprsAllocated = 0;
  unsigned LdsAllocated = 0;   // bytes per workgroup, granule-rounded
  unsigned WavesPerSimdByVgpr = 0, WavesPerSimdBySgpr = 0;
  unsigned WorkgroupsByLds = 0, WorkgroupsByLimit = 0, WorkgroupsBySlots = 0;
  unsigned WorkgroupsPerCU = 0; // resident at once
  unsigned WavesPerCU = 0;      // WorkgroupsPerCU * WavesPerWorkgroup
  std::string Limiter;          // "vgpr", "sgpr", "lds", "workgroups", "waves"
  double wavesPerSimd(const DeviceModel &D) const {
    return double(WavesPerCU) / D.SimdsPerCU;
  }
};

/// AMD's occupancy rules: waves per SIMD limited by the unified register
/// file (granule VgprGranule) and the SGPR table; workgroups per CU limited
/// by LDS, by the workgroup limit, and by placing each workgroup's waves on
/// SIMDs with free wave slots.
Occupancy computeOccupancy(const DeviceModel &D, unsigned WorkgroupSize,
                           unsigned UnifiedVgprs, unsigned Sgprs,
                           unsigned LdsBytes);

/// The result of a run in timing mode.
struct TimingResult {
  bool Valid = false;
  std::string Kind = "modelled"; // always "modelled" here; see MeasuredTiming
  DeviceModel Device;
  uint64_t Cycles = 0;           // the dispatch
  double Seconds = 0;
  std::string Bound;             // "cu" (slowest modelled CU) or "hbm"
  uint64_t CuBoundCycles = 0;    // slowest modelled CU
  uint64_t HbmBoundCycles = 0;   // unique bytes / HBM bandwidth
  uint64_t UniqueBytes = 0;      // distinct lines touched x line size
  Occupancy Occ;
  unsigned ActiveCUs = 0;        // CUs that receive at least one workgroup
  unsigned ModelledCUs = 0;      // of which modelled in detail
  uint64_t Workgroups = 0, ModelledWorkgroups = 0;
  std::vector<uint64_t> CuCycles; // per modelled CU
  /// Per code-object offset (as asmevo-run --profile).
  std::map<uint64_t, PcCost> PerPC;
  std::map<uint64_t, std::string> Text;
  std::map<uint64_t, unsigned> Size; // instruction bytes
  uint64_t modelledWaveCycles() const;
};

/// Asks Emulator::run for timing mode (RunOptions::Timing). The result is
/// written into Result; the functional result of the run is as without it.
struct TimingRequest {
  DeviceModel Device;
  unsigned MaxModelledCUs = 8; // CUs modelled in detail (evenly spread)
  TimingResult Result;
};

/// A measured time from a real GPU (HIP executor): warm-up and repetitions,
/// median and spread. Filled by lib/Verify's HIP executor; here so that
/// reports can carry either kind of time.
struct MeasuredTiming {
  unsigned Warmup = 0, Repetitions = 0;
  double MedianSeconds = 0, MinSeconds = 0, MaxSeconds = 0;
  double SpreadPercent = 0; // (max - min) / median * 100
  std::string Device;
};

/// Either kind of time, as reports print it.
struct ReportedTime {
  enum Kind : uint8_t { None, Modelled, Measured } K = None;
  double Seconds = 0;
  uint64_t Cycles = 0; // modelled only
  std::string Detail;  // device, repetitions/spread...
  static ReportedTime modelled(const TimingResult &R);
  static ReportedTime measured(const MeasuredTiming &M);
  const char *kindName() const;
};

//===----------------------------------------------------------------------===//
// Hot windows: where the modelled cycles go.
//===----------------------------------------------------------------------===//

struct HotWindow {
  uint64_t Begin = 0, End = 0; // code-object offsets [Begin, End)
  unsigned Instructions = 0;
  uint64_t Cycles = 0;         // modelled cycles charged to the window
  double Share = 0;            // of all modelled wave-cycles
  Stall Main = Stall::Busy;    // the window's main reason
  std::array<uint64_t, NumStallKinds> ByReason{};
  uint64_t Executed = 0;       // wave-instructions (whole dispatch)
};

struct HotWindowOptions {
  unsigned MaxWindows = 5;
  unsigned MaxInstructions = 96;  // per window (a typical loop body fits)
  double MinShare = 0.01;         // stop below this share
  double ExtendFraction = 0.02;   // extend while a neighbour has at least
                                  // this fraction of the seed's cycles
};

std::vector<HotWindow> findHotWindows(const TimingResult &R,
                                      const HotWindowOptions &O = {});

/// Human-readable report: summary, occupancy, stall breakdown, hottest PCs.
void printTimingSummary(llvm::raw_ostream &OS, const TimingResult &R);
void printHotWindows(llvm::raw_ostream &OS, const TimingResult &R,
                     const std::vector<HotWindow> &W);
/// JSON: {"time": {...}, "occupancy": {...}, "hot_windows": [...]}; each
/// window lists its instructions with offset, text, executed count, cycles
/// and cycles by reason.
/// With AllPCs, also "per_pc": every executed instruction with its costs.
std::string timingJson(const TimingResult &R, const std::vector<HotWindow> &W,
                       llvm::StringRef Kernel = "", bool AllPCs = false);
/// Every executed instruction: offset, executed, modelled cycles, share and
/// cycles by reason.
void printPerPC(llvm::raw_ostream &OS, const TimingResult &R);

} // namespace emu
} // namespace asmevo

#endif // ASMEVO_EMU_COSTMODEL_H
