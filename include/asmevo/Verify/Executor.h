//===- Executor.h - Run one dispatch, get the memory after it ----*- C++ -*-===//
//
// An executor runs one dispatch — code object bytes, kernel name, launch,
// kernarg bytes and a memory image of regions at virtual addresses — and
// returns every region after it. The CPU emulator is the default; the HIP
// executor runs the same on a real AMD GPU in a child process.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_VERIFY_EXECUTOR_H
#define ASMEVO_VERIFY_EXECUTOR_H

#include "asmevo/Emu/Emulator.h"
#include "asmevo/Verify/Spec.h"
#include "asmevo/Verify/Timing.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace asmevo {
namespace verify {

/// A region of the dispatch's global memory image.
struct MemRegion {
  enum Kind : uint8_t {
    Buffer,  // data the kernel may read or write (compared after the run)
    Guard,   // no access allowed (Perms 0): a touch faults
    Segment, // a code object segment, mapped by the executor (returned only)
  };
  uint64_t Base = 0;
  uint64_t Size = 0;
  uint8_t Perms = emu::PermRW;
  Kind K = Buffer;
  int Arg = -1; // explicit argument index of the buffer, -1 if none
  std::string Name;
  std::vector<uint8_t> Data; // Size bytes (Guard: empty)
  /// Non-null: a sparse buffer of Size bytes (Data empty) whose pages the
  /// emulator maps when first touched (docs/run-spec.md). After the run
  /// Pages holds the touched pages by offset; a page not in Pages holds
  /// the fill.
  std::shared_ptr<const SparseFill> Sparse;
  std::map<uint64_t, std::vector<uint8_t>> Pages;
};

/// One dispatch.
struct DispatchImage {
  llvm::ArrayRef<uint8_t> CodeObject; // the code object's bytes
  /// Empty, or sha256Hex(CodeObject) computed once by a caller that runs one
  /// code object many times: the emulator executor then finds the code
  /// object it already loaded by this key instead of comparing every byte
  /// (a few MiB per dispatch for large libraries).
  std::string CodeObjectKey;
  std::string Kernel;
  emu::Dispatch Launch; // grid, workgroup, dynamic LDS, kernarg bytes
  std::vector<MemRegion> Regions;
};

/// What approximate opcodes did in a run: per work-item lane, the keys
/// (operation + operand bits) in execution order.
struct ApproxLog {
  std::map<std::array<uint64_t, 3>, std::vector<uint64_t>> Lanes;
  uint64_t Total = 0;
  /// True when both runs evaluated the same approximate operations on the
  /// same operand bits per lane (as multisets: order within a lane may
  /// differ). On false, Why says where they first differ.
  static bool sameQuestions(const ApproxLog &A, const ApproxLog &B,
                            std::string &Why);
};

/// Two choices of the results the hardware does not specify for their
/// operands (ExecOptions::UnspecifiedSeed): the oracle's runs, and tier 1's
/// footprint discovery, use the first; K0 and K1 run once more with the
/// second when either computes such a result.
inline constexpr uint64_t UnspecifiedSeeds[2] = {0x6e5be11e5eedull,
                                                 0x0dd5eed0f5eedull};

struct ExecOptions {
  unsigned Threads = 1;          // emulator threads (1: deterministic order)
  uint64_t Budget = 1ull << 24;  // wave-instructions per wave
  bool LogApprox = true;         // record ApproxLog (emulator)
  /// Non-zero: perturb every approximate result (lowest bit of the lane's
  /// result flips by a hash of Salt and the operation's key), i.e. run under
  /// another admissible implementation of the approximate functions.
  uint64_t ApproxSalt = 0;
  /// Emulator: D16 loads whose unused half the hardware does not specify
  /// (SRAM ECC on or any) keep it instead of zeroing it, the rule without
  /// SRAM ECC. A perturbed run (ApproxSalt) keeps the rule it is given.
  bool KeepD16Unused = false;
  /// Non-zero (emulator): results the hardware does not specify for their
  /// operands are hashes of this seed and the operands instead of a
  /// failure (emu::Memory::Observer::unspecifiedSeed).
  uint64_t UnspecifiedSeed = 0;
  /// Non-zero (emulator): registers, LDS and scratch that the dispatch ABI
  /// leaves undefined start with pseudo-random values from this seed.
  uint64_t PoisonSeed = 0;
  double TimeoutSeconds = 120; // child-process executors
  bool Profile = false;         // ExecResult::Profile (emulator)
  /// Non-zero (emulator): interleaved wave scheduling, a switch every this
  /// many instructions and after every atomic (emu::RunOptions).
  unsigned InterleaveEvery = 0;
  /// Non-zero (HIP executor): after the run whose memory is returned, time
  /// the dispatch: TimeWarmup uncounted launches, then TimeReps timed ones,
  /// each on the same before-state (ExecResult::Timing). The emulator
  /// executor refuses: its time is the cost model's (modelled).
  unsigned TimeReps = 0;
  unsigned TimeWarmup = 3;
};

struct ExecResult {
  emu::ErrorKind Kind = emu::ErrorKind::None;
  std::string Message;
  /// The image's regions after the run, in the image's order, followed by
  /// the executor's writable code object segments (K = Segment).
  std::vector<MemRegion> Regions;
  std::map<std::string, uint64_t> ApproximateOps;
  /// Emulator: executed D16 loads whose unused half is not specified
  /// (emu::RunResult::D16UnspecifiedLoads).
  uint64_t D16UnspecifiedLoads = 0;
  /// Emulator: instructions that wrote unspecified results under
  /// ExecOptions::UnspecifiedSeed (emu::RunResult::UnspecifiedResults).
  uint64_t UnspecifiedResults = 0;
  ApproxLog Approx;
  uint64_t WaveInstructions = 0;
  double Seconds = 0;
  /// Executed wave-instructions per code offset (ExecOptions::Profile).
  std::map<uint64_t, uint64_t> Profile;
  /// Measured times (ExecOptions::TimeReps, HIP executor, clean runs only).
  std::optional<TimingStats> Timing;
  bool ok() const { return Kind == emu::ErrorKind::None; }
};

class Executor {
public:
  virtual ~Executor();
  virtual llvm::StringRef name() const = 0;
  /// Runs the dispatch. An llvm::Error means the executor could not run it
  /// at all (bad code object, no device, conflicting addresses); a kernel
  /// failure is an ExecResult with Kind != None.
  virtual llvm::Expected<ExecResult> run(const DispatchImage &Image,
                                         const ExecOptions &Opts) = 0;
};

/// The CPU emulator (lib/Emu). Keeps the last few code objects parsed.
std::unique_ptr<Executor> createEmulatorExecutor();

/// A real GPU through the HIP runtime (dlopen'ed libamdhip64), one child
/// process per dispatch with a timeout. Runtime is the library to load
/// (default: "libamdhip64.so", then "libamdhip64.so.6", ".so.5").
struct HipExecutorOptions {
  std::string Runtime;
  int Device = 0;
};
std::unique_ptr<Executor> createHipExecutor(const HipExecutorOptions &Opts);

/// Probes the HIP runtime in a child process: Ok with a description of the
/// device, or an error that says what is missing (no library, no device).
llvm::Expected<std::string> probeHip(const HipExecutorOptions &Opts);

/// "0x7f0000001000".
std::string hexAddr(uint64_t A);

} // namespace verify
} // namespace asmevo

#endif // ASMEVO_VERIFY_EXECUTOR_H
