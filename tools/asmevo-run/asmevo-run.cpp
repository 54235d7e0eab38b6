//===- asmevo-run.cpp - Run one kernel dispatch on the CPU emulator -------===//
//
//   asmevo-run CODEOBJ --kernel NAME --spec SPEC.json [--out DIR] [--inputs
//   DIR] [--trace]
//              [--profile] [--threads N] [--budget N] [--refuse-approx]
//              [--interleave N] [--interleave-atomics] [--co-resident K]
//              [--no-global-races] [--capture FILE]
//   asmevo-run CODEOBJ --kernel NAME --spec SPEC.json --executor hip
//              [--hip-runtime LIB] [--time [--warmup N] [--reps N]
//              [--timing-json FILE]] [--out DIR]
//   asmevo-run --coverage FILE...      static opcode coverage per file
//   asmevo-run --list-opcodes          implemented opcodes and fidelity
//
// SPEC.json is documented in docs/run-spec.md. Exit status: 0 clean run,
// 1 the kernel failed (fault, race, budget, unsupported opcode, ...),
// 2 bad usage, spec or code object, or (--executor hip) no HIP runtime or
// no device. --time reports *measured* times (docs/cost-model.md); the
// emulator's time is the cost model's, modelled, in asmevo-profile.
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/Emu/Emulator.h"
#include "asmevo/MC/TargetInfo.h"
#include "asmevo/Verify/Capture.h"
#include "asmevo/Verify/Executor.h"
#include "asmevo/Verify/Spec.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <random>

using namespace llvm;
using namespace asmevo;
using namespace asmevo::emu;

static cl::OptionCategory Cat("asmevo-run options");

static cl::list<std::string> Inputs(cl::Positional,
                                    cl::desc("<code object>..."), cl::cat(Cat));
static cl::opt<std::string> KernelName("kernel", cl::desc("kernel to run"),
                                       cl::cat(Cat));
static cl::opt<std::string> SpecPath("spec", cl::desc("dispatch spec (JSON)"),
                                     cl::cat(Cat));
static cl::opt<std::string>
    OutDir("out", cl::desc("write buffer arguments here"), cl::cat(Cat));
static cl::opt<std::string>
    InputsDir("inputs",
              cl::desc("write buffer argument i as the spec makes "
                       "it (before the run) to DIR/arg<i>.bin"),
              cl::cat(Cat));
static cl::opt<std::string>
    CapturePath("capture",
                cl::desc("write the dispatch (before and after) as "
                         "a capture file (docs/capture-format.md)"),
                cl::cat(Cat));
static cl::opt<bool> Trace("trace", cl::desc("print executed instructions"),
                           cl::cat(Cat));
static cl::opt<bool> Profile("profile", cl::desc("executed counts per PC"),
                             cl::cat(Cat));
static cl::opt<unsigned> Threads("emu-threads",
                                 cl::desc("host threads (0 = all)"),
                                 cl::init(0), cl::cat(Cat));
static cl::opt<uint64_t> Budget("budget",
                                cl::desc("wave-instruction budget per wave"),
                                cl::init(1ull << 28), cl::cat(Cat));
static cl::opt<bool> RefuseApprox("refuse-approx",
                                  cl::desc("fail on approximate opcodes"),
                                  cl::cat(Cat));
static cl::opt<unsigned> Interleave(
    "interleave", cl::init(0),
    cl::desc("interleaved scheduling: the waves of --co-resident workgroups "
             "take turns every N instructions (one thread, deterministic)"),
    cl::cat(Cat));
static cl::opt<bool> InterleaveAtomics(
    "interleave-atomics",
    cl::desc("interleaved scheduling: switch waves after every atomic"),
    cl::cat(Cat));
static cl::opt<unsigned>
    CoResident("co-resident", cl::init(4),
               cl::desc("workgroups run together when interleaving"),
               cl::cat(Cat));
static cl::opt<bool> NoGlobalRaces(
    "no-global-races",
    cl::desc("skip the dispatch-wide global-memory race checks (inter-"
             "workgroup, write-after-read, scalar cache)"),
    cl::cat(Cat));
static cl::opt<bool> StrictLdsAlign(
    "strict-lds-alignment",
    cl::desc("fault on LDS accesses that are not naturally (b32 and wider: "
             "dword) aligned, instead of ROCm's unaligned mode"),
    cl::cat(Cat));
static cl::opt<bool> Coverage("coverage",
                              cl::desc("print static opcode coverage of the "
                                       "given code objects"),
                              cl::cat(Cat));
static cl::opt<unsigned>
    CoverageTop("coverage-missing", cl::init(10),
                cl::desc("missing mnemonics listed per file"), cl::cat(Cat));
static cl::opt<bool> ListOpcodes("list-opcodes",
                                 cl::desc("print implemented opcodes"),
                                 cl::cat(Cat));
static cl::opt<bool> Quiet("quiet", cl::desc("no summary on success"),
                           cl::cat(Cat));
static cl::opt<uint64_t> SparseLimit(
    "sparse-limit",
    cl::desc("bytes of sparse buffers a dispatch may touch (default 256 MiB)"),
    cl::init(256ull << 20), cl::cat(Cat));
static cl::opt<bool> PreloadPrologue(
    "kernarg-preload-prologue",
    cl::desc("kernarg-preload kernels: run the 256-byte compatibility "
             "prologue instead of starting at entry + 256"),
    cl::cat(Cat));

static cl::opt<std::string>
    ExecutorName("executor", cl::init("emu"),
                 cl::desc("emu (the CPU emulator, default) or hip (a GPU "
                          "through the dlopen'ed HIP runtime)"),
                 cl::cat(Cat));
static cl::opt<std::string> HipRuntime("hip-runtime",
                                       cl::desc("HIP runtime library to "
                                                "dlopen (--executor hip)"),
                                       cl::cat(Cat));
static cl::opt<bool> TimeIt("time",
                            cl::desc("--executor hip: measure the dispatch "
                                     "(warm-up, repetitions, median, spread)"),
                            cl::cat(Cat));
static cl::opt<unsigned> Warmup("warmup", cl::init(3),
                                cl::desc("--time: uncounted launches first"),
                                cl::cat(Cat));
static cl::opt<unsigned> Reps("reps", cl::init(20),
                              cl::desc("--time: timed repetitions"),
                              cl::cat(Cat));
static cl::opt<std::string> TimingJson("timing-json",
                                       cl::desc("--time: write the measured "
                                                "timing as JSON"),
                                       cl::cat(Cat));
static cl::opt<double> HipTimeout("hip-timeout", cl::init(600),
                                  cl::desc("--executor hip: seconds before "
                                           "the child process is killed"),
                                  cl::cat(Cat));

static int usageError(const Twine &Msg) {
  errs() << "asmevo-run: error: " << Msg << "\n";
  return 2;
}

//===----------------------------------------------------------------------===//
// Coverage
//===----------------------------------------------------------------------===//

static int runCoverage() {
  uint64_t AllTotal = 0, AllImpl = 0;
  StringMap<uint64_t> AllMissing;
  for (const std::string &Path : Inputs) {
    auto CO = CodeObject::load(Path);
    if (!CO) {
      errs() << Path << ": " << toString(CO.takeError()) << "\n";
      continue;
    }
    auto Emu = Emulator::create(**CO);
    if (!Emu) {
      errs() << Path << ": " << toString(Emu.takeError()) << "\n";
      continue;
    }
    auto TI = TargetInfo::get((*CO)->cpu() == "gfx9-4-generic" ? "gfx942"
                                                               : (*CO)->cpu(),
                              (*CO)->features());
    if (!TI) {
      errs() << Path << ": " << toString(TI.takeError()) << "\n";
      continue;
    }
    uint64_t Total = 0, Impl = 0, Bad = 0;
    StringMap<uint64_t> Missing;
    for (const ElfSection &S : (*CO)->sections()) {
      if (!S.isAlloc() || !S.isExec() || !S.hasFileBytes())
        continue;
      auto Bytes = (*CO)->bytesAt(S.Addr, S.Size);
      if (!Bytes) {
        consumeError(Bytes.takeError());
        continue;
      }
      ArrayRef<uint8_t> B = *Bytes;
      size_t Off = 0;
      while (Off + 4 <= B.size()) {
        uint32_t W;
        std::memcpy(&W, B.data() + Off, 4);
        if (W == 0) { // padding
          Off += 4;
          continue;
        }
        const DecodedInst *D = (*TI)->decode(B.drop_front(Off));
        if (!D) {
          ++Bad;
          Off += 4;
          continue;
        }
        ++Total;
        OpcodeSupport Sup = (*Emu)->support(D->Mnemonic);
        if (Sup.Known && Sup.Fid != Fidelity::Unsupported)
          ++Impl;
        else
          ++Missing[D->Mnemonic];
        Off += D->Size;
      }
    }
    AllTotal += Total;
    AllImpl += Impl;
    for (auto &E : Missing)
      AllMissing[E.first()] += E.second;
    outs() << formatv("{0,7:f2}% {1,9} / {2,-9} {3}", Total ? 100.0 * Impl / Total : 100.0,
                      Impl, Total, Path);
    if (Bad)
      outs() << formatv(" ({0} undecodable words)", Bad);
    outs() << "\n";
    std::vector<std::pair<uint64_t, std::string>> M;
    for (auto &E : Missing)
      M.push_back({E.second, E.first().str()});
    std::sort(M.rbegin(), M.rend());
    for (size_t K = 0; K < M.size() && K < CoverageTop; ++K)
      outs() << formatv("           missing {0,8} {1}\n", M[K].first, M[K].second);
  }
  outs() << formatv("{0,7:f2}% {1,9} / {2,-9} total over {3} file(s)\n",
                    AllTotal ? 100.0 * AllImpl / AllTotal : 100.0, AllImpl,
                    AllTotal, Inputs.size());
  return 0;
}

/// --executor hip: the spec's dispatch on a GPU through the HIP executor
/// (lib/Verify), optionally timed. Buffers get the spec's addresses in the
/// image; the executor relocates them to its own allocations.
/// Dir/arg<I>.bin for argument I (ArgIndex >= 0), else
/// Dir/region-<RegionName>.bin: the files of --inputs and --out.
static std::string bufferFileName(StringRef Dir, int ArgIndex,
                                  StringRef RegionName) {
  return ArgIndex >= 0 ? formatv("{0}/arg{1}.bin", Dir, ArgIndex).str()
                       : formatv("{0}/region-{1}.bin", Dir, RegionName).str();
}

/// Writes one buffer file through a temporary file, so that a failure
/// leaves no partial file behind.
static Error writeBufferFile(StringRef Dir, int ArgIndex, StringRef RegionName,
                             ArrayRef<uint8_t> Bytes) {
  std::string P = bufferFileName(Dir, ArgIndex, RegionName);
  if (Error E = writeToOutput(P, [&](raw_ostream &OS) {
        OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
        return Error::success();
      }))
    return createStringError("cannot write " + P + ": " +
                             toString(std::move(E)));
  return Error::success();
}

/// Creates Dir and writes a file for every buffer and extra region of Spec,
/// with the bytes Contents gives for its address and its bytes before the
/// run.
static Error writeSpecBufferFiles(
    StringRef Dir, const verify::DispatchSpec &Spec,
    function_ref<ArrayRef<uint8_t>(uint64_t Address, ArrayRef<uint8_t> Before)>
        Contents) {
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return createStringError("cannot create " + Dir + ": " + EC.message());
  for (const verify::SpecBuffer &B : Spec.Buffers)
    if (Error E = writeBufferFile(
            Dir, int(B.ArgIndex), "",
            Contents(verify::specBufferAddress(B.ArgIndex), B.Data)))
      return E;
  for (const verify::SpecRegion &SR : Spec.Regions)
    if (Error E =
            writeBufferFile(Dir, -1, SR.Name, Contents(SR.Address, SR.Data)))
      return E;
  return Error::success();
}

static int runOnHip(const CodeObject &CO, const KernelInfo &K,
                    verify::DispatchSpec &Spec) {
  if (TimeIt && Reps == 0)
    return usageError("--reps must be at least 1");
  if (Spec.MemoryPointers)
    return usageError(Spec.Name +
                      ": the spec stores pointers in memory (\"pointers\" on "
                      "a buffer or region); the HIP executor places buffers "
                      "at its own addresses and does not relocate pointers "
                      "inside them");
  verify::DispatchImage Img;
  Img.CodeObject = CO.image();
  Img.Kernel = K.Name;
  Img.Launch = Spec.Launch;
  if (K.Meta && Img.Launch.Kernarg.size() < K.Meta->KernargSegmentSize)
    Img.Launch.Kernarg.resize(K.Meta->KernargSegmentSize, 0);
  for (const verify::SpecBuffer &B : Spec.Buffers) {
    uint64_t Addr = verify::specBufferAddress(B.ArgIndex);
    if (B.KernargOffset + 8 > Img.Launch.Kernarg.size())
      return usageError(formatv("argument {0}: pointer outside the kernarg "
                                "segment",
                                B.ArgIndex));
    // The executor relocates pointers into a region (offset included).
    uint64_t Ptr = verify::specBufferPointer(B);
    std::memcpy(Img.Launch.Kernarg.data() + B.KernargOffset, &Ptr, 8);
    verify::MemRegion R;
    R.Base = Addr;
    R.Size = B.Data.size();
    R.Perms = B.ReadOnly ? PermRead : PermRW;
    R.Arg = int(B.ArgIndex);
    R.Name = formatv("arg{0}", B.ArgIndex).str();
    R.Data = B.Data;
    Img.Regions.push_back(std::move(R));
  }
  for (const verify::SpecRegion &SR : Spec.Regions) {
    verify::MemRegion R;
    R.Base = SR.Address;
    R.Size = SR.Data.size();
    R.Perms = SR.ReadOnly ? PermRead : PermRW;
    R.Name = "region " + SR.Name;
    R.Data = SR.Data;
    Img.Regions.push_back(std::move(R));
  }
  verify::HipExecutorOptions HO;
  HO.Runtime = HipRuntime;
  auto Exec = verify::createHipExecutor(HO);
  verify::ExecOptions EO;
  EO.TimeoutSeconds = HipTimeout;
  EO.LogApprox = false;
  if (TimeIt) {
    EO.TimeReps = Reps;
    EO.TimeWarmup = Warmup;
  }
  auto R = Exec->run(Img, EO);
  if (!R) {
    errs() << "asmevo-run: error: " << toString(R.takeError()) << "\n";
    return 2;
  }
  if (!OutDir.empty()) {
    if (std::error_code EC = sys::fs::create_directories(OutDir))
      return usageError("cannot create " + OutDir + ": " + EC.message());
    for (const verify::MemRegion &M : R->Regions) {
      StringRef RName = M.Name;
      if (M.K != verify::MemRegion::Buffer ||
          (M.Arg < 0 && !RName.consume_front("region ")))
        continue;
      if (Error E = writeBufferFile(OutDir, M.Arg, RName, M.Data))
        return usageError(toString(std::move(E)));
    }
  }
  if (!R->ok()) {
    errs() << "asmevo-run: " << R->Message << "\n";
    return 1;
  }
  if (R->Timing) {
    outs() << "time: " << R->Timing->str() << "\n";
    if (!TimingJson.empty()) {
      std::error_code EC;
      raw_fd_ostream OS(TimingJson, EC);
      if (EC)
        return usageError("cannot write " + TimingJson + ": " + EC.message());
      OS << R->Timing->json() << "\n";
    }
  } else if (!Quiet) {
    errs() << "asmevo-run: ok on the GPU (not timed: --time)\n";
  }
  return 0;
}

int main(int argc, char **argv) {
  // libLLVM already owns an option named "threads": accept ours under that
  // spelling by renaming it before parsing.
  std::vector<std::string> Storage(argv, argv + argc);
  std::vector<char *> Argv;
  for (std::string &A : Storage) {
    if (A == "--threads" || A == "-threads")
      A = "--emu-threads";
    else if (StringRef(A).starts_with("--threads="))
      A = "--emu-threads=" + A.substr(10);
    Argv.push_back(A.data());
  }
  argc = int(Argv.size());
  argv = Argv.data();
  cl::HideUnrelatedOptions(Cat);
  cl::ParseCommandLineOptions(argc, argv,
                              "asmevo-run: run one AMDGPU kernel dispatch on "
                              "the CPU emulator\n");
  if (ListOpcodes) {
    for (auto &[N, F] : Emulator::implementedOpcodes())
      outs() << N << " " << fidelityName(F) << "\n";
    outs() << Emulator::implementedOpcodeCount() << " opcodes\n";
    return 0;
  }
  if (Coverage)
    return runCoverage();
  if (Inputs.size() != 1)
    return usageError("expected one code object (or --coverage FILE...)");
  if (KernelName.empty() || SpecPath.empty())
    return usageError("--kernel and --spec are required");
  auto CO = CodeObject::load(Inputs[0]);
  if (!CO)
    return usageError(toString(CO.takeError()));
  const KernelInfo *K = (*CO)->kernel(KernelName);
  if (!K)
    return usageError("no kernel '" + KernelName + "' in " + Inputs[0]);
  if (!K->Meta)
    return usageError("kernel '" + KernelName + "' has no metadata (kernarg "
                      "layout unknown)");
  // Spec parsing lives in lib/Verify (shared with asmevo-verify).
  auto SpecOr = verify::loadSpec(SpecPath, *K);
  if (!SpecOr)
    return usageError(toString(SpecOr.takeError()));
  verify::DispatchSpec &Spec = *SpecOr;
  // Sparse buffers exist only as the pages a run touches: no file holds
  // them, and a GPU allocates buffers whole.
  if (Spec.SparseBuffers) {
    auto refuse = [&](StringRef What) {
      return usageError(Spec.Name +
                        ": the spec has sparse buffers "
                        "(\"sparse\": true), which " +
                        What + " does not support");
    };
    if (!InputsDir.empty())
      return refuse("--inputs");
    if (!OutDir.empty())
      return refuse("--out");
    if (!CapturePath.empty())
      return refuse("--capture");
    if (ExecutorName == "hip")
      return refuse("--executor hip");
  }
  if (!InputsDir.empty())
    if (Error E = writeSpecBufferFiles(
            InputsDir, Spec,
            [](uint64_t, ArrayRef<uint8_t> Before) { return Before; }))
      return usageError(toString(std::move(E)));

  if (ExecutorName == "hip" && StrictLdsAlign)
    return usageError("--strict-lds-alignment is an emulator setting; the "
                      "GPU runs in its driver's alignment mode");
  if (ExecutorName == "hip")
    return runOnHip(**CO, *K, Spec);
  if (ExecutorName != "emu")
    return usageError("--executor must be emu or hip");
  if (TimeIt)
    return usageError("--time measures a dispatch on a GPU (--executor hip); "
                      "the emulator's time is modelled: asmevo-profile");

  auto EmuOr = Emulator::create(**CO);
  if (!EmuOr)
    return usageError(toString(EmuOr.takeError()));
  Emulator &Emu = **EmuOr;
  verify::SparsePager Pager;
  Pager.MaxTouched = SparseLimit;
  // Every run maps the code object and the spec's buffers into a fresh
  // memory; the pager learns the sparse ranges from the first (a spec
  // without sparse buffers leaves it empty on every run).
  auto mapAll = [&](Memory &M) -> Error {
    if (Error E = Emu.mapCodeObject(M))
      return E;
    verify::SparsePager Known;
    return verify::mapSpecBuffers(Spec, M, Pager.empty() ? &Pager : &Known);
  };
  RunOptions RO;
  RO.Threads = Threads;
  RO.Budget = Budget;
  RO.Trace = Trace;
  RO.Profile = Profile;
  RO.RefuseApproximate = RefuseApprox;
  RO.TraceOut = &outs();
  RO.KernargPreloadPrologue = PreloadPrologue;
  RO.InterleaveEvery = Interleave;
  RO.InterleaveAtomics = InterleaveAtomics;
  RO.CoResident = CoResident;
  RO.GlobalRaceCheck = !NoGlobalRaces;
  RO.StrictLdsAlignment = StrictLdsAlign;
  // Sparse pages are mapped when touched, during the run: one host thread.
  struct PagerObserver : Memory::Observer {
    verify::SparsePager &P;
    PagerObserver(verify::SparsePager &P) : P(P) {}
    Region *access(Memory &M, uint64_t Addr, uint64_t Len, bool) override {
      return P.access(M, Addr, Len);
    }
    uint32_t approx(uint64_t, unsigned, unsigned, uint64_t) override {
      return 0;
    }
  } Obs(Pager);
  auto runOnce = [&](Memory &M) {
    if (!Pager.empty()) {
      RO.Threads = 1;
      M.Obs = &Obs;
    }
    RunResult Run = Emu.run(*K, Spec.Launch, M, RO);
    M.Obs = nullptr;
    return Run;
  };
  RunResult R;
  auto MemOr = verify::runWithSparsePages(Pager, mapAll, runOnce, R);
  if (!MemOr)
    return usageError(toString(MemOr.takeError()));
  Memory &Mem = **MemOr;
  if (!Pager.empty() && !Quiet)
    errs() << formatv("sparse buffers: {0} bytes touched\n", Pager.touched());
  Dispatch &D = Spec.Launch;
  // --capture: the dispatch as a tier-2 capture (docs/capture-format.md).
  verify::CaptureData Cap;
  if (!CapturePath.empty()) {
    ArrayRef<uint8_t> Img = (*CO)->image();
    Cap.Producer = "asmevo-run";
    Cap.Target = (*CO)->targetId().str();
    Cap.Kernel = K->Name;
    Cap.CodeObjectSha256 = verify::sha256Hex(Img);
    Cap.CodeObject.assign(Img.begin(), Img.end());
    Cap.Workgroups = D.Workgroups;
    Cap.WorkgroupSize = D.WorkgroupSize;
    Cap.DynamicLds = D.DynamicLds;
    Cap.Kernarg = D.Kernarg;
    Cap.KernargHasHidden = false; // the emulator fills them at dispatch
    for (const verify::SpecBuffer &B : Spec.Buffers) {
      verify::CaptureRegion R;
      R.Address = verify::specBufferAddress(B.ArgIndex);
      R.Size = B.Data.size();
      R.Writable = !B.ReadOnly;
      R.Name = formatv("arg{0}", B.ArgIndex).str();
      R.Before = B.Data;
      Cap.Regions.push_back(std::move(R));
    }
    for (const verify::SpecRegion &SR : Spec.Regions) {
      verify::CaptureRegion R;
      R.Address = SR.Address;
      R.Size = SR.Data.size();
      R.Writable = !SR.ReadOnly;
      R.Name = "region " + SR.Name;
      R.Before = SR.Data;
      Cap.Regions.push_back(std::move(R));
    }
  }

  if (!OutDir.empty())
    if (Error E = writeSpecBufferFiles(
            OutDir, Spec, [&](uint64_t Address, ArrayRef<uint8_t> Before) {
              Region *Reg = Mem.at(Address);
              return Reg && !Before.empty()
                         ? ArrayRef<uint8_t>(Reg->Data.data(), Before.size())
                         : ArrayRef<uint8_t>();
            }))
      return usageError(toString(std::move(E)));
  if (!CapturePath.empty()) {
    for (verify::CaptureRegion &R : Cap.Regions) {
      Region *Reg = Mem.at(R.Address);
      R.HasAfter = true;
      R.After = R.Before;
      if (Reg && R.Size)
        std::memcpy(R.After.data(), Reg->Data.data(), R.Size);
    }
    if (!R.ok())
      Cap.Note = "the dispatch failed: " + R.Message;
    if (Error E = verify::writeCaptureFile(Cap, CapturePath))
      return usageError(toString(std::move(E)));
  }
  if (Profile) {
    outs() << "profile: pc-offset count instruction\n";
    for (auto &[PC, N] : R.Profile)
      outs() << formatv("  {0:x8} {1,10} {2}\n", PC, N, R.ProfileText[PC]);
  }
  if (!R.ApproximateOps.empty()) {
    errs() << "approximate opcodes executed:";
    for (auto &[N, C] : R.ApproximateOps)
      errs() << " " << N << "(" << C << ")";
    errs() << "\n";
  }
  if (!R.ok()) {
    errs() << "asmevo-run: " << R.Message << "\n";
    return 1;
  }
  if (!Quiet)
    errs() << formatv("asmevo-run: ok: {0} workgroups, {1} waves, {2} "
                      "wave-instructions in {3:f3} s\n",
                      R.Workgroups, R.Waves, R.WaveInstructions, R.Seconds);
  return 0;
}
