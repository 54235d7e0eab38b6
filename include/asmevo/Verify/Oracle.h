//===- Oracle.h - The differential oracle: is K1 equivalent to K0? -*- C++ -*-//
//
// The original code object K0 is the only specification. The oracle runs K0
// and a candidate K1 on identical inputs and compares every byte of every
// memory region after the dispatch:
//
//  * tier 1: inputs synthesized from K0's kernarg metadata (Tier1.cpp):
//    launch shapes, scalar values, buffer contents with edge values; each
//    buffer's footprint is discovered by running K0 with memory mapped on
//    demand, and guard regions surround every footprint;
//  * user dispatch specs (docs/run-spec.md);
//  * tier 2: captured dispatches replayed at their recorded addresses
//    (Capture.h, docs/capture-format.md).
//
// Verdicts: Equivalent, NotEquivalent (with evidence), CannotDecide (the
// oracle cannot tell: unsupported opcode, approximate-op divergence, K0
// itself fails, no usable input). See docs/verification.md.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_VERIFY_ORACLE_H
#define ASMEVO_VERIFY_ORACLE_H

#include "asmevo/Verify/Executor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace asmevo {
class CodeObject;
struct KernelInfo;

namespace verify {

enum class Verdict { Equivalent = 0, NotEquivalent = 1, CannotDecide = 2 };
const char *verdictName(Verdict V);

/// Float tolerance for one argument (or all: Arg = -1). Never by default.
struct Tolerance {
  int Arg = -1;        // explicit argument index; -1: every buffer
  unsigned Bits = 32;  // element width: 16 (f16), 32 (f32), 64 (f64)
  uint64_t Ulps = 0;   // allowed distance in units in the last place
  /// Parses "f32:ulp=4" or "arg3:f32:ulp=4" (also f16, f64).
  static llvm::Expected<Tolerance> parse(llvm::StringRef S);
  std::string str() const;
};

/// Buffer footprint of one pointer argument: byte intervals relative to the
/// pointer that K0 read and wrote.
struct Footprint {
  unsigned Arg = 0;     // explicit argument index
  uint64_t Pointer = 0; // the pointer value passed
  /// The memory the pointers stored in argument Arg's buffer point to (the
  /// buffer is an array of pointers, e.g. batched BLAS); Pointer is then
  /// the middle of that arena.
  bool Pointee = false;
  std::vector<std::pair<int64_t, int64_t>> Read, Written; // [lo, hi)
  uint64_t bytes() const;
  std::string str() const; // "read [0,4000) written [0,4000)"
};

/// One input of the oracle: a dispatch on a memory image.
struct TestInput {
  std::string Name;  // how it was made (shape, values, seed / file)
  enum Origin : uint8_t { Synthesized, Spec, Capture } From = Synthesized;
  DispatchImage Image; // Image.CodeObject is set per run
  /// Seed of the undefined initial state (registers, LDS, scratch): the same
  /// for K0 and K1 on this input.
  uint64_t PoisonSeed = 0;
  /// Emulator: interleaved wave scheduling (emu::RunOptions, docs/emulator.md)
  /// for K0 and K1 on this input: waves switch every InterleaveEvery
  /// instructions and after every atomic, so that compare-and-swap loops see
  /// other waves' atomics. 0: the default schedule.
  unsigned InterleaveEvery = 0;
  /// Wave-instructions K0 executed on this input (set by Reference::create;
  /// every check runs K1 about as long: the input's cost).
  uint64_t K0WaveInstructions = 0;
  std::vector<Footprint> Footprints;
  /// Tier 2: the after-state recorded by the capture (same order as the
  /// image's Buffer regions); empty when not recorded.
  std::vector<std::vector<uint8_t>> RecordedAfter;
};

struct Tier1Options {
  unsigned Seeds = 3;                    // data seeds per launch shape
  unsigned MaxShapes = 5; // launch shapes (the fifth: one work-item)
  uint64_t MaxFootprint = 64ull << 20;   // bytes per input, all buffers
  uint64_t GuardBytes = 256;             // guard region on each side
  uint64_t Budget = 1ull << 20;          // wave-instructions per wave (K0)
  unsigned MaxScalarProbes = 64;         // control/data classification runs
  /// Also inputs where a written pointer argument equals another pointer
  /// argument (not for .is_restrict arguments); off: --assume-noalias.
  bool Aliasing = true;
  unsigned MaxAliasing = 4; // aliasing inputs at most
  /// Type the arguments by the demangled kernel name (KernelSignature.h):
  /// arrays of device pointers, enum values. Off: --no-signature.
  bool Signature = true;
  /// Extra inputs after those (docs/verification.md): structured
  /// (index-like buffers chosen by K0's reach, small unequal counts) on two
  /// shapes, large integers, division extremes, thresholds, f32 denormals,
  /// zero data scalars, data scalars 1..4, counts 0, interleaved waves,
  /// 2-D blocks; each costs K0 at most twice the median seeded input.
  bool Extra = true;
};

struct OracleOptions {
  Tier1Options Tier1;
  bool Synthesize = true; // tier 1 inputs (besides specs and captures)
  std::vector<std::string> Specs;    // SPEC.json paths
  /// A spec that does not fit the kernel, or on which K0 fails (fault, race,
  /// budget), is dropped and listed in specFailures() instead of making the
  /// kernel undecidable: manifest runs (asmevo-mutate --spec-dir) keep the
  /// other inputs and report it.
  bool DropFailingSpecs = false;
  std::vector<std::string> Captures; // capture files
  std::vector<Tolerance> Tolerances;
  /// Approximate opcodes: strict (default) refuses to decide when K0 and K1
  /// evaluate them on different operands. Runs with a perturbed
  /// implementation (PerturbSalt) check that outputs do not depend on the
  /// approximate results differently.
  bool Strict = true;
  uint64_t PerturbSalt = 0x5eed5a17ull;
  /// D16 loads of a code object that may run with SRAM ECC on leave the
  /// unused half of their destination unspecified (docs/emulator.md): K1 is
  /// compared with K0 with it zeroed and with it kept. Set, the kernels are
  /// assumed to run only where SRAM ECC is on and the hardware zeroes that
  /// half (the CDNA5 ISA states so for chips with ECC; no CDNA3 source in
  /// reach does): the kept rule is not run, and verdicts say so.
  /// --assume-d16-zero-fill.
  bool AssumeD16ZeroFill = false;
  uint64_t Budget = 1ull << 22; // wave-instructions per wave, K0 and K1
  Executor *Exec = nullptr;     // default: the emulator
  bool Verbose = false;
};

/// The evidence of a verdict.
struct Evidence {
  std::string Input;   // TestInput::Name
  std::string Summary; // one line
  std::string Detail;  // several lines: buffer, offset, element, values
};

struct VerdictResult {
  Verdict V = Verdict::CannotDecide;
  Evidence Why;
  unsigned InputsRun = 0;
  std::vector<std::string> Notes; // dropped inputs, approximate ops, ...
  std::string str() const;
};

/// Static resource facts: K1's kernarg layout, hidden-argument use, LDS
/// size and launch limits must be compatible with K0's metadata. Returns the
/// problems (empty: compatible).
std::vector<std::string> checkCompatibility(const KernelInfo &K0,
                                            const KernelInfo &K1);

/// A code object's bytes, parsed once, with their SHA-256 (the emulator
/// executor's cache key). A library object holds hundreds of kernels, and
/// parsing and hashing all of it again for every kernel's Reference and
/// check cost a fifth of verifying it: callers that verify many kernels of
/// one object share one ParsedCodeObject.
class ParsedCodeObject {
public:
  /// Copies Bytes. Name is the buffer name in parse errors ("K0", "K1").
  static llvm::Expected<std::shared_ptr<const ParsedCodeObject>>
  create(llvm::ArrayRef<uint8_t> Bytes, llvm::StringRef Name);
  ~ParsedCodeObject();
  llvm::ArrayRef<uint8_t> bytes() const { return Bytes; }
  const std::string &sha256() const { return Sha256; }
  const CodeObject &object() const { return *Object; }

private:
  ParsedCodeObject() = default;
  std::vector<uint8_t> Bytes;
  std::string Sha256;
  std::unique_ptr<CodeObject> Object; // parsed from Bytes, which it refers to
};

/// K0 with its inputs and its results on them, reusable for many K1.
class Reference {
public:
  ~Reference();
  /// Builds the inputs (synthesized, specs, captures) for kernel Kernel of
  /// K0 and runs K0 on each. Errors: K0 is not a code object, the kernel is
  /// missing, a spec or capture is malformed or does not belong to K0 (exit
  /// 2 in the tool).
  static llvm::Expected<std::unique_ptr<Reference>>
  create(std::shared_ptr<const ParsedCodeObject> K0, llvm::StringRef Kernel,
         const OracleOptions &Opts);
  static llvm::Expected<std::unique_ptr<Reference>>
  create(llvm::ArrayRef<uint8_t> K0, llvm::StringRef Kernel,
         const OracleOptions &Opts);

  /// Runs K1 on every input and decides. K1 bytes that are not a valid code
  /// object are a NotEquivalent verdict.
  VerdictResult check(const ParsedCodeObject &K1);
  VerdictResult check(llvm::ArrayRef<uint8_t> K1);

  /// Inputs kept and the notes gathered while building them.
  llvm::ArrayRef<TestInput> inputs() const;
  llvm::ArrayRef<std::string> notes() const;
  /// Specs dropped under OracleOptions::DropFailingSpecs, with K0's failure.
  llvm::ArrayRef<std::string> specFailures() const;
  /// K0 cannot be decided at all (unsupported opcode, no usable input,
  /// tier-2 infidelity): every check() is CannotDecide with this reason.
  const std::optional<Evidence> &undecidable() const;
  /// Profile: per code offset, wave-instructions K0 executed over all inputs
  /// (for mutation testing: which instructions the inputs reach).
  const std::map<uint64_t, uint64_t> &coverage() const;

private:
  Reference();
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// Tier 1 alone: synthesizes inputs for Kernel of CO and discovers the
/// footprints by running it (K0) on the emulator. Notes explain dropped
/// inputs. Fails when no input can be made for this kernel.
llvm::Expected<std::vector<TestInput>>
synthesizeInputs(const CodeObject &CO, const KernelInfo &Kernel,
                 const Tier1Options &Opts, std::vector<std::string> &Notes);

/// Compares two after-states of the same input. Returns a difference as
/// evidence, or nothing when every byte matches (within tolerances).
std::optional<Evidence> compareResults(const TestInput &In,
                                       llvm::ArrayRef<MemRegion> A,
                                       llvm::ArrayRef<MemRegion> B,
                                       llvm::ArrayRef<Tolerance> Tols,
                                       llvm::StringRef NameA = "K0",
                                       llvm::StringRef NameB = "K1");

/// "arg2 at pointer+0x10 (guard after the footprint)" for an address of an
/// input's image, or "" when it is none of the buffers.
std::string describeAddress(const TestInput &In, uint64_t Addr);

} // namespace verify
} // namespace asmevo

#endif // ASMEVO_VERIFY_ORACLE_H
