//===- asmevo-profile.cpp - Modelled timing and hot windows of a dispatch -===//
//
//   asmevo-profile CODEOBJ --kernel K --spec SPEC.json [--device mi300x]
//                  [--modelled-cus N] [--hot N] [--json FILE] [--per-pc]
//
// Runs one dispatch on the CPU emulator in timing mode (CostModel.h) and
// prints the modelled time, occupancy, cycles by stall reason and the hot
// windows (contiguous instruction ranges with their share of modelled cycles
// and main stall reason); --json writes the same as JSON (what a search agent
// is pointed at). Times printed here are always "modelled".
//
// Exit status: 0 success, 1 the kernel failed in the emulator, 2 bad usage.
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/Emu/CostModel.h"
#include "asmevo/Emu/Emulator.h"
#include "asmevo/MC/TargetInfo.h"
#include "asmevo/Verify/Spec.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;
using namespace asmevo;
using namespace asmevo::emu;

static cl::OptionCategory Cat("asmevo-profile options");

static cl::opt<std::string> Input(cl::Positional, cl::desc("<code object>"),
                                  cl::cat(Cat));
static cl::opt<std::string> KernelName("kernel", cl::desc("kernel to run"),
                                       cl::cat(Cat));
static cl::opt<std::string> SpecPath("spec", cl::desc("dispatch spec (JSON)"),
                                     cl::cat(Cat));
static cl::opt<std::string>
    DeviceName("device",
               cl::desc("mi300x (default for gfx942), mi308x, "
                        "mi250x (default for gfx90a)"),
               cl::cat(Cat));
static cl::opt<unsigned> ModelledCUs("modelled-cus", cl::init(8),
                                     cl::desc("CUs modelled in detail"),
                                     cl::cat(Cat));
static cl::opt<unsigned> HotN("hot", cl::init(5),
                              cl::desc("hot windows to report"), cl::cat(Cat));
static cl::opt<std::string> JsonOut("json",
                                    cl::desc("write the report as JSON ('-': "
                                             "stdout, no text)"),
                                    cl::cat(Cat));
static cl::opt<unsigned> EmuThreads("emu-threads", cl::init(0),
                                    cl::desc("host threads (0 = all)"),
                                    cl::cat(Cat));
static cl::opt<uint64_t> Budget("budget", cl::init(1ull << 28),
                                cl::desc("wave-instructions per wave"),
                                cl::cat(Cat));
static cl::opt<bool> Quiet("quiet", cl::desc("print only the time line"),
                           cl::cat(Cat));
static cl::opt<bool> PerPC("per-pc",
                           cl::desc("also print (and put in the JSON) every "
                                    "executed instruction with its cycles by "
                                    "reason"),
                           cl::cat(Cat));

/// Static instructions of a kernel's code (zero padding words skipped);
/// 0 when the code size is unknown. Tensile's assembly kernels have symbols
/// of size 0: their code then ends at the next kernel's entry or at the end
/// of the executable section.
static uint64_t kernelInstructions(const CodeObject &CO, const KernelInfo &K) {
  uint64_t Size = K.CodeSize;
  if (!Size) {
    uint64_t End = 0;
    for (const ElfSection &S : CO.sections())
      if (S.isExec() && S.Addr <= K.CodeAddr && K.CodeAddr < S.Addr + S.Size)
        End = S.Addr + S.Size;
    for (const KernelInfo &O : CO.kernels())
      if (O.CodeAddr > K.CodeAddr && O.CodeAddr < End)
        End = O.CodeAddr;
    if (End <= K.CodeAddr)
      return 0;
    Size = End - K.CodeAddr;
  }
  auto TI = TargetInfo::get(CO.cpu(), CO.features());
  auto Bytes = CO.bytesAt(K.CodeAddr, Size);
  if (!TI || !Bytes) {
    if (!TI)
      consumeError(TI.takeError());
    if (!Bytes)
      consumeError(Bytes.takeError());
    return 0;
  }
  ArrayRef<uint8_t> B = *Bytes;
  uint64_t N = 0;
  for (size_t Off = 0; Off + 4 <= B.size();) {
    uint32_t W;
    std::memcpy(&W, B.data() + Off, 4);
    if (W == 0) {
      Off += 4;
      continue;
    }
    const DecodedInst *D = (*TI)->decode(B.drop_front(Off));
    if (!D)
      break;
    ++N;
    Off += D->Size;
  }
  return N;
}

static int usage(const Twine &Msg) {
  errs() << "asmevo-profile: " << Msg << "\n";
  return 2;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  std::vector<std::string> Storage(argv, argv + argc);
  std::vector<char *> Argv;
  for (std::string &A : Storage) {
    if (A == "--threads" || A == "-threads")
      A = "--emu-threads";
    else if (StringRef(A).starts_with("--threads="))
      A = "--emu-threads=" + A.substr(10);
    Argv.push_back(A.data());
  }
  cl::HideUnrelatedOptions(Cat);
  cl::ParseCommandLineOptions(int(Argv.size()), Argv.data(),
                              "asmevo-profile: modelled timing and hot "
                              "windows of one dispatch\n");
  if (Input.empty() || KernelName.empty() || SpecPath.empty())
    return usage("usage: asmevo-profile CODEOBJ --kernel K --spec SPEC.json");
  auto CO = CodeObject::load(Input);
  if (!CO)
    return usage(toString(CO.takeError()));
  const KernelInfo *K = (*CO)->kernel(KernelName);
  if (!K)
    return usage("no kernel '" + KernelName + "' in " + Input);
  auto Spec = verify::loadSpec(SpecPath, *K);
  if (!Spec)
    return usage(toString(Spec.takeError()));
  auto EmuOr = Emulator::create(**CO);
  if (!EmuOr)
    return usage(toString(EmuOr.takeError()));
  Memory Mem;
  if (Error E = (*EmuOr)->mapCodeObject(Mem))
    return usage(toString(std::move(E)));
  if (Error E = verify::mapSpecBuffers(*Spec, Mem))
    return usage(toString(std::move(E)));

  TimingRequest Req;
  Req.Device = DeviceModel::forTarget((*CO)->cpu());
  if (!DeviceName.empty()) {
    auto D = DeviceModel::preset(DeviceName);
    if (!D)
      return usage("unknown device '" + DeviceName + "'");
    Req.Device = *D;
  }
  Req.MaxModelledCUs = std::max(1u, unsigned(ModelledCUs));
  RunOptions O;
  O.Threads = EmuThreads;
  O.Budget = Budget;
  O.Timing = &Req;
  RunResult RR = (*EmuOr)->run(*K, Spec->Launch, Mem, O);
  if (!RR.ok()) {
    errs() << "asmevo-profile: " << RR.Message << "\n";
    return 1;
  }
  const TimingResult &R = Req.Result;
  HotWindowOptions HO;
  HO.MaxWindows = HotN;
  std::vector<HotWindow> W = findHotWindows(R, HO);
  bool JsonOnly = JsonOut == "-";
  if (!JsonOnly) {
    outs() << formatv("{0} {1}: {2} wave-instructions, {3:f2} s on the host\n",
                      Input, KernelName, RR.WaveInstructions, RR.Seconds);
    printTimingSummary(outs(), R);
    if (!Quiet)
      printHotWindows(outs(), R, W);
    if (PerPC) {
      outs() << "per instruction (cycles on the modelled CUs):\n";
      printPerPC(outs(), R);
    }
  }
  if (!JsonOut.empty()) {
    std::string J = timingJson(R, W, KernelName, PerPC);
    // Static size and host cost of this run, for bench/run-suite.
    if (J.size() > 2 && J.front() == '{')
      J = formatv("{{\n  \"kernel_instructions\": {0},\n  "
                  "\"wave_instructions\": {1},\n  \"host_seconds\": {2},{3}",
                  kernelInstructions(**CO, *K), RR.WaveInstructions,
                  RR.Seconds, J.substr(1))
              .str();
    if (JsonOnly) {
      outs() << J << "\n";
    } else {
      std::error_code EC;
      raw_fd_ostream OS(JsonOut, EC);
      if (EC)
        return usage("cannot write " + JsonOut + ": " + EC.message());
      OS << J << "\n";
    }
  }
  return R.Valid ? 0 : 1;
}
