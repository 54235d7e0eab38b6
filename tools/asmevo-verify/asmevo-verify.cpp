//===- asmevo-verify.cpp - Is candidate K1 equivalent to the original K0? -===//
//
//   asmevo-verify K0 K1 [--kernel NAME]... [--kernels-file F]
//                 [--spec S.json]... [--spec-dir DIR]... [--capture C]...
//                 [--tolerance [argN:]f32:ulp=N]... [--tier1] [--seeds N]
//                 [--assume-d16-zero-fill] [--executor emu|hip] [-v]
//   asmevo-verify --replay C [K0]          replay a capture with K0
//   asmevo-verify --execute IN -o OUT      run a capture's dispatch, record
//                                           its after-state (test runtime)
//   asmevo-verify --probe-hip              is a HIP runtime and device here?
//
// Exit status: 0 equivalent, 1 not equivalent, 2 cannot decide (including
// bad input). See docs/verification.md.
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/Verify/Capture.h"
#include "asmevo/Verify/Oracle.h"
#include "asmevo/Verify/SpecLibrary.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace asmevo;
using namespace asmevo::verify;

static cl::OptionCategory Cat("asmevo-verify options");
static cl::list<std::string> Positional(cl::Positional,
                                        cl::desc("K0 K1 (code objects)"),
                                        cl::cat(Cat));
static cl::list<std::string>
    KernelNames("kernel",
                cl::desc("kernel to verify, repeatable (default: every "
                         "kernel of K0)"),
                cl::cat(Cat));
static cl::opt<std::string>
    KernelsFile("kernels-file",
                cl::desc("verify the kernels named in this file, one a line "
                         "(K0 and K1 are read once for all of them)"),
                cl::cat(Cat));
static cl::list<std::string> Specs("spec", cl::desc("dispatch spec (JSON), "
                                                    "repeatable"),
                                   cl::cat(Cat));
static cl::list<std::string>
    SpecDirs("spec-dir",
             cl::desc("directory of dispatch specs picked per kernel by their "
                      "\"match\" regular expression (docs/run-spec.md); "
                      "tier 1 still runs"),
             cl::cat(Cat));
static cl::list<std::string> Captures("capture",
                                      cl::desc("captured dispatch, repeatable"),
                                      cl::cat(Cat));
static cl::list<std::string>
    Tolerances("tolerance",
               cl::desc("[argN:]f32|f64|f16:ulp=N float tolerance (never by "
                        "default)"),
               cl::cat(Cat));
static cl::opt<bool> Tier1("tier1",
                           cl::desc("also synthesize inputs when --spec or "
                                    "--capture is given"),
                           cl::cat(Cat));
static cl::opt<unsigned> Seeds("seeds", cl::init(3),
                               cl::desc("tier-1 data seeds per launch shape"),
                               cl::cat(Cat));
static cl::opt<unsigned> Shapes("shapes", cl::init(5),
                                cl::desc("tier-1 launch shapes"), cl::cat(Cat));
static cl::opt<uint64_t> Budget("budget", cl::init(1ull << 22),
                                cl::desc("wave-instructions per wave for K0 "
                                         "(K1: min(2x, 4x K0's total + 64Ki))"),
                                cl::cat(Cat));
static cl::opt<bool> NoStrict("no-strict",
                              cl::desc("decide even when approximate opcodes "
                                       "see different operands"),
                              cl::cat(Cat));
static cl::opt<std::string> ExecutorName("executor", cl::init("emu"),
                                         cl::desc("emu (default) or hip"),
                                         cl::cat(Cat));
static cl::opt<std::string> HipRuntime("hip-runtime",
                                       cl::desc("HIP runtime library to "
                                                "dlopen"),
                                       cl::cat(Cat));
static cl::opt<bool> AssumeNoalias(
    "assume-noalias",
    cl::desc("synthesize no inputs where two pointer arguments alias (only "
             "when every caller passes distinct buffers)"),
    cl::cat(Cat));
static cl::opt<bool> AssumeD16ZeroFill(
    "assume-d16-zero-fill",
    cl::desc("assume the kernels run only with SRAM ECC on and that D16 loads "
             "then zero the unused half of their destination (the CDNA5 ISA "
             "says so; no CDNA3 source does): K1 is compared with K0 under "
             "that rule only, not also with the half kept; verdicts say so"),
    cl::cat(Cat));
static cl::opt<bool> Verbose("v", cl::desc("print inputs and notes"),
                             cl::cat(Cat));
static cl::opt<bool> NoSignature(
    "no-signature",
    cl::desc("tier 1 without the argument types of the demangled kernel name "
             "(arrays of device pointers, enum values)"),
    cl::cat(Cat));
static cl::opt<std::string> Replay("replay",
                                   cl::desc("replay capture C with K0 (the "
                                            "embedded code object or the "
                                            "positional one)"),
                                   cl::cat(Cat));
static cl::opt<std::string> Execute("execute",
                                    cl::desc("run a capture's dispatch on the "
                                             "executor and write it with its "
                                             "after-state to -o"),
                                    cl::cat(Cat));
static cl::opt<std::string> Output("o", cl::desc("output capture (--execute)"),
                                   cl::cat(Cat));
static cl::opt<std::string>
    AfterDir("after-dir",
             cl::desc("--execute: also write region I's after-state to "
                      "DIR/region<I>.bin"),
             cl::cat(Cat));
static cl::opt<bool> ProbeHip("probe-hip",
                              cl::desc("report whether a HIP runtime and a "
                                       "device are usable"),
                              cl::cat(Cat));

static int bad(const Twine &Msg) {
  errs() << "asmevo-verify: error: " << Msg << "\n";
  outs() << "CANNOT DECIDE: " << Msg << "\n";
  return 2;
}

static Expected<std::vector<uint8_t>> readFile(StringRef Path) {
  auto B = MemoryBuffer::getFile(Path, false, false);
  if (!B)
    return createStringError(("cannot read " + Path + ": " +
                              B.getError().message())
                                 .str());
  return std::vector<uint8_t>((*B)->getBufferStart(), (*B)->getBufferEnd());
}

static std::unique_ptr<Executor> makeExecutor() {
  if (ExecutorName == "hip") {
    HipExecutorOptions HO;
    HO.Runtime = HipRuntime;
    return createHipExecutor(HO);
  }
  return createEmulatorExecutor();
}

/// --execute: the dispatch of a capture (embedded code object), after-state
/// recorded. Exit 0 ran cleanly, 1 the kernel failed, 2 bad input.
static int execute() {
  auto C = readCapture(Execute);
  if (!C)
    return bad(toString(C.takeError()));
  if (C->CodeObject.empty())
    return bad(Execute + ": the capture does not embed its code object");
  if (Output.empty() && AfterDir.empty())
    return bad("--execute needs -o OUT or --after-dir DIR");
  auto Exec = makeExecutor();
  DispatchImage Img;
  Img.CodeObject = C->CodeObject;
  Img.Kernel = C->Kernel;
  Img.Launch.Workgroups = C->Workgroups;
  Img.Launch.WorkgroupSize = C->WorkgroupSize;
  Img.Launch.DynamicLds = C->DynamicLds;
  Img.Launch.Kernarg = C->Kernarg;
  for (const CaptureRegion &R : C->Regions) {
    MemRegion M;
    M.Base = R.Address;
    M.Size = R.Size;
    M.Perms = (R.Readable ? emu::PermRead : 0) | (R.Writable ? emu::PermWrite : 0);
    M.Name = R.Name;
    M.Data = R.Before;
    Img.Regions.push_back(std::move(M));
  }
  ExecOptions EO;
  EO.Threads = 0;
  EO.LogApprox = false;
  EO.Budget = Budget;
  auto R = Exec->run(Img, EO);
  if (!R)
    return bad(toString(R.takeError()));
  for (size_t I = 0; I < C->Regions.size(); ++I) {
    C->Regions[I].HasAfter = true;
    C->Regions[I].After = R->Regions[I].Data;
  }
  C->Note = R->ok() ? "executed by asmevo-verify --execute (" + Exec->name().str() + ")"
                    : "FAILED: " + R->Message;
  if (!Output.empty())
    if (Error E = writeCaptureFile(*C, Output))
      return bad(toString(std::move(E)));
  if (!AfterDir.empty())
    for (size_t I = 0; I < C->Regions.size(); ++I) {
      std::string P = (AfterDir + "/region" + Twine(I) + ".bin").str();
      std::error_code EC;
      raw_fd_ostream OS(P, EC);
      if (EC)
        return bad("cannot write " + P);
      OS.write(reinterpret_cast<const char *>(C->Regions[I].After.data()),
               C->Regions[I].After.size());
    }
  if (!R->ok()) {
    errs() << "asmevo-verify: " << R->Message << "\n";
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Cat);
  cl::ParseCommandLineOptions(
      argc, argv,
      "asmevo-verify: differential oracle for AMDGPU code objects\n\n"
      "Runs the original K0 and the candidate K1 on identical inputs\n"
      "(synthesized from K0's metadata, --spec files, --capture files) and\n"
      "compares every byte of every memory region after the dispatch.\n\n"
      "Exit status: 0 equivalent, 1 not equivalent, 2 cannot decide.\n");

  if (ProbeHip) {
    HipExecutorOptions HO;
    HO.Runtime = HipRuntime;
    auto P = probeHip(HO);
    if (!P) {
      outs() << "no HIP executor: " << toString(P.takeError()) << "\n";
      return 2;
    }
    outs() << "HIP executor available: " << *P << "\n";
    return 0;
  }
  if (!Execute.empty())
    return execute();

  std::vector<std::string> Caps(Captures.begin(), Captures.end());
  std::string K0Path, K1Path;
  if (!Replay.empty()) {
    // --replay C [K0]: K1 = K0, and the check that matters is K0's own
    // replay against the recorded after-state (Reference::create).
    Caps = {Replay};
    if (Positional.size() > 1)
      return bad("--replay takes at most one code object");
    if (Positional.size() == 1) {
      K0Path = Positional[0];
    } else {
      auto C = readCapture(Replay);
      if (!C)
        return bad(toString(C.takeError()));
      if (C->CodeObject.empty())
        return bad(Replay + " does not embed its code object: give K0");
      K0Path = Replay; // marker: bytes from the capture
    }
  } else {
    if (Positional.size() != 2)
      return bad("expected two code objects: K0 (original) and K1 (candidate)");
    K0Path = Positional[0];
    K1Path = Positional[1];
  }

  std::vector<uint8_t> K0Bytes, K1Bytes;
  if (!Replay.empty() && K0Path == Replay) {
    auto C = readCapture(Replay);
    if (!C)
      return bad(toString(C.takeError()));
    K0Bytes = C->CodeObject;
  } else {
    auto B = readFile(K0Path);
    if (!B)
      return bad(toString(B.takeError()));
    K0Bytes = std::move(*B);
  }
  if (!K1Path.empty()) {
    auto B = readFile(K1Path);
    if (!B)
      return bad(toString(B.takeError()));
    K1Bytes = std::move(*B);
  } else {
    K1Bytes = K0Bytes;
  }
  // Both objects are parsed and hashed once for all their kernels.
  auto K0 = ParsedCodeObject::create(K0Bytes, K0Path);
  if (!K0)
    return bad("K0: " + toString(K0.takeError()));
  std::shared_ptr<const ParsedCodeObject> K1;
  if (auto P = ParsedCodeObject::create(K1Bytes, "K1"))
    K1 = std::move(*P);
  else // every kernel's verdict: NOT EQUIVALENT, with the parse error
    consumeError(P.takeError());

  OracleOptions Opts;
  Opts.Specs.assign(Specs.begin(), Specs.end());
  Opts.Captures = Caps;
  Opts.Synthesize = Tier1 || (Specs.empty() && Caps.empty());
  Opts.Tier1.Seeds = Seeds;
  Opts.Tier1.MaxShapes = Shapes;
  Opts.Tier1.Aliasing = !AssumeNoalias;
  Opts.Tier1.Signature = !NoSignature;
  Opts.Tier1.Budget = std::min<uint64_t>(Budget, 1ull << 20);
  Opts.Budget = Budget;
  Opts.Strict = !NoStrict;
  Opts.AssumeD16ZeroFill = AssumeD16ZeroFill;
  Opts.Verbose = Verbose;
  for (const std::string &T : Tolerances) {
    auto Tol = Tolerance::parse(T);
    if (!Tol)
      return bad(toString(Tol.takeError()));
    Opts.Tolerances.push_back(*Tol);
  }
  std::unique_ptr<Executor> Exec = makeExecutor();
  Opts.Exec = Exec.get();

  std::vector<std::string> Kernels(KernelNames.begin(), KernelNames.end());
  if (!KernelsFile.empty()) {
    auto B = MemoryBuffer::getFile(KernelsFile);
    if (!B)
      return bad("cannot read " + KernelsFile + ": " + B.getError().message());
    SmallVector<StringRef> Lines;
    (*B)->getBuffer().split(Lines, '\n', -1, false);
    for (StringRef L : Lines)
      if (!L.trim().empty())
        Kernels.push_back(L.trim().str());
    if (Kernels.empty())
      return bad(KernelsFile + " names no kernel");
  }
  if (!Kernels.empty()) {
    // Named by --kernel or --kernels-file.
  } else if (!Caps.empty()) {
    auto C = readCapture(Caps[0]);
    if (!C)
      return bad(toString(C.takeError()));
    Kernels.push_back(C->Kernel);
  } else {
    for (const KernelInfo &K : (*K0)->object().kernels())
      Kernels.push_back(K.Name);
  }
  if (Kernels.empty())
    return bad("K0 has no kernels");

  auto Lib = SpecLibrary::load(
      std::vector<std::string>(SpecDirs.begin(), SpecDirs.end()));
  if (!Lib)
    return bad(toString(Lib.takeError()));

  int Worst = 0;
  for (const std::string &KN : Kernels) {
    OracleOptions KOpts = Opts;
    for (std::string &S : Lib->specsFor(KN))
      KOpts.Specs.push_back(std::move(S));
    auto Ref = Reference::create(*K0, KN, KOpts);
    if (!Ref) {
      if (Kernels.size() == 1)
        return bad(toString(Ref.takeError()));
      // One kernel's bad input (a missing name) does not stop the others.
      std::string Msg = toString(Ref.takeError());
      errs() << "asmevo-verify: error: " << KN << ": " << Msg << "\n";
      outs() << KN << ": CANNOT DECIDE: " << Msg << "\n";
      if (Worst == 0)
        Worst = 2;
      continue;
    }
    if (Verbose) {
      for (const TestInput &In : (*Ref)->inputs()) {
        outs() << "input: " << In.Name << "\n";
        outs() << "  K0: " << In.K0WaveInstructions << " wave-instructions\n";
        for (const Footprint &F : In.Footprints)
          outs() << "  footprint " << F.str() << "\n";
      }
      for (const std::string &N : (*Ref)->notes())
        outs() << "note: " << N << "\n";
    }
    VerdictResult V = K1 ? (*Ref)->check(*K1) : (*Ref)->check(K1Bytes);
    if (!Replay.empty() && V.V == Verdict::Equivalent)
      V.Why.Summary = "replaying K0 reproduces the recorded after-state";
    outs() << KN << ": " << V.str() << "\n";
    if (!V.Why.Detail.empty())
      outs() << V.Why.Detail << (StringRef(V.Why.Detail).ends_with("\n") ? "" : "\n");
    else if (!V.Why.Input.empty() && V.V != Verdict::Equivalent)
      outs() << "  input:   " << V.Why.Input << "\n";
    int Code = int(V.V);
    // Worst verdict: not equivalent (1) beats cannot decide (2) beats 0.
    if (Code == 1 || (Code == 2 && Worst == 0))
      Worst = Code;
  }
  return Worst;
}
