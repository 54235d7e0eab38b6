//===- asmevo-run.cpp - Run one kernel dispatch on the CPU emulator -------===//
//
//   asmevo-run CODEOBJ --kernel NAME --spec SPEC.json [--out DIR] [--trace]
//              [--profile] [--threads N] [--budget N] [--refuse-approx]
//   asmevo-run --coverage FILE...      static opcode coverage per file
//   asmevo-run --list-opcodes          implemented opcodes and fidelity
//
// SPEC.json is documented in docs/run-spec.md. Exit status: 0 clean run,
// 1 the kernel failed (fault, race, budget, unsupported opcode, ...),
// 2 bad usage, spec or code object.
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/Emu/Emulator.h"
#include "asmevo/MC/TargetInfo.h"

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

static cl::list<std::string> Inputs(cl::Positional, cl::desc("<code object>..."));
static cl::opt<std::string> KernelName("kernel", cl::desc("kernel to run"));
static cl::opt<std::string> SpecPath("spec", cl::desc("dispatch spec (JSON)"));
static cl::opt<std::string> OutDir("out", cl::desc("write buffer arguments here"));
static cl::opt<bool> Trace("trace", cl::desc("print executed instructions"));
static cl::opt<bool> Profile("profile", cl::desc("executed counts per PC"));
static cl::opt<unsigned> Threads("emu-threads", cl::desc("host threads (0 = all)"),
                                 cl::init(0));
static cl::opt<uint64_t> Budget("budget",
                                cl::desc("wave-instruction budget per wave"),
                                cl::init(1ull << 28));
static cl::opt<bool> RefuseApprox("refuse-approx",
                                  cl::desc("fail on approximate opcodes"));
static cl::opt<bool> Coverage("coverage",
                              cl::desc("print static opcode coverage of the "
                                       "given code objects"));
static cl::opt<unsigned> CoverageTop("coverage-missing", cl::init(10),
                                     cl::desc("missing mnemonics listed per file"));
static cl::opt<bool> ListOpcodes("list-opcodes",
                                 cl::desc("print implemented opcodes"));
static cl::opt<bool> Quiet("quiet", cl::desc("no summary on success"));
static cl::opt<bool> PreloadPrologue(
    "kernarg-preload-prologue",
    cl::desc("kernarg-preload kernels: run the 256-byte compatibility "
             "prologue instead of starting at entry + 256"));

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

//===----------------------------------------------------------------------===//
// Spec
//===----------------------------------------------------------------------===//

struct BufferArg {
  unsigned ArgIndex;
  uint64_t Addr;
  uint64_t Size;
};

static Error readTriple(const json::Object &O, StringRef Key,
                        std::array<uint32_t, 3> &Out) {
  const json::Value *V = O.get(Key);
  if (!V)
    return Error::success();
  const json::Array *A = V->getAsArray();
  if (!A || A->empty() || A->size() > 3)
    return createStringError(("\"" + Key + "\" must be an array of 1-3 "
                              "positive integers").str());
  Out = {1, 1, 1};
  for (size_t K = 0; K < A->size(); ++K) {
    auto I = (*A)[K].getAsInteger();
    if (!I || *I <= 0 || *I > 0xffffffffll)
      return createStringError(("\"" + Key + "\" must hold positive integers")
                                   .str());
    Out[K] = uint32_t(*I);
  }
  return Error::success();
}

static Expected<std::vector<uint8_t>> hexBytes(StringRef Hex) {
  std::vector<uint8_t> B;
  if (Hex.size() % 2)
    return createStringError("\"bytes\" needs an even number of hex digits");
  for (size_t K = 0; K < Hex.size(); K += 2) {
    unsigned V;
    if (Hex.substr(K, 2).getAsInteger(16, V))
      return createStringError("\"bytes\" is not hex");
    B.push_back(uint8_t(V));
  }
  return B;
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
  auto SpecBuf = MemoryBuffer::getFile(SpecPath);
  if (!SpecBuf)
    return usageError("cannot read " + SpecPath);
  auto SpecV = json::parse((*SpecBuf)->getBuffer());
  if (!SpecV)
    return usageError(SpecPath + ": " + toString(SpecV.takeError()));
  const json::Object *Spec = SpecV->getAsObject();
  if (!Spec)
    return usageError(SpecPath + ": the spec must be a JSON object");

  Dispatch D;
  if (Error E = readTriple(*Spec, "workgroups", D.Workgroups))
    return usageError(SpecPath + ": " + toString(std::move(E)));
  if (Error E = readTriple(*Spec, "workgroup_size", D.WorkgroupSize))
    return usageError(SpecPath + ": " + toString(std::move(E)));
  if (auto L = Spec->getInteger("dynamic_lds")) {
    if (*L < 0 || *L > 65536)
      return usageError(SpecPath + ": bad dynamic_lds");
    D.DynamicLds = uint32_t(*L);
  }
  std::string SpecDir = sys::path::parent_path(SpecPath).str();
  const json::Array *Args = Spec->getArray("args");
  std::vector<const KernelArgMetadata *> Explicit;
  for (const KernelArgMetadata &A : K->Meta->Args)
    if (!A.isHidden())
      Explicit.push_back(&A);
  size_t NArgs = Args ? Args->size() : 0;
  if (NArgs != Explicit.size())
    return usageError(formatv("{0}: {1} args given, kernel '{2}' has {3} "
                              "explicit arguments",
                              SpecPath, NArgs, KernelName, Explicit.size())
                          .str());

  auto EmuOr = Emulator::create(**CO);
  if (!EmuOr)
    return usageError(toString(EmuOr.takeError()));
  Emulator &Emu = **EmuOr;
  Memory Mem;
  if (Error E = Emu.mapCodeObject(Mem))
    return usageError(toString(std::move(E)));

  D.Kernarg.assign(K->Meta->KernargSegmentSize, 0);
  std::vector<BufferArg> Buffers;
  uint32_t DynLdsOffset = K->KD.GroupSegmentFixedSize;
  for (size_t I = 0; I < NArgs; ++I) {
    const KernelArgMetadata &A = *Explicit[I];
    const json::Object *O = (*Args)[I].getAsObject();
    std::string Where = formatv("{0}: args[{1}]", SpecPath, I).str();
    if (!O)
      return usageError(Where + " must be an object");
    auto putBytes = [&](const void *P, size_t N) -> bool {
      if (N != A.Size)
        return false;
      if (A.Offset + N > D.Kernarg.size())
        D.Kernarg.resize(A.Offset + N);
      std::memcpy(D.Kernarg.data() + A.Offset, P, N);
      return true;
    };
    auto sizeError = [&](StringRef Kind) {
      return usageError(formatv("{0}: {1} does not fit argument '{2}' of {3} "
                                "bytes ({4})",
                                Where, Kind, A.Name, A.Size, A.ValueKind)
                            .str());
    };
    if (O->get("buffer") || O->get("buffer_size")) {
      if (A.ValueKind != "global_buffer" || A.Size != 8)
        return usageError(Where + ": a buffer for argument '" + A.Name +
                          "' which is " + A.ValueKind);
      std::vector<uint8_t> Data;
      if (auto F = O->getString("buffer")) {
        SmallString<256> P(*F);
        if (!sys::path::is_absolute(P) && !SpecDir.empty())
          P = (SpecDir + "/" + *F).str();
        auto B = MemoryBuffer::getFile(P);
        if (!B)
          return usageError(Where + ": cannot read " + P);
        Data.assign((*B)->getBufferStart(), (*B)->getBufferEnd());
      } else {
        auto N = O->getInteger("buffer_size");
        if (!N || *N < 0)
          return usageError(Where + ": bad buffer_size");
        Data.assign(*N, 0);
        StringRef Fill = O->getString("fill").value_or("zero");
        if (Fill.consume_front("random:")) {
          uint64_t Seed;
          if (Fill.getAsInteger(10, Seed))
            return usageError(Where + ": bad random seed");
          std::mt19937_64 G(Seed);
          for (auto &X : Data)
            X = uint8_t(G());
        } else if (Fill != "zero") {
          return usageError(Where + ": fill must be zero or random:SEED");
        }
      }
      uint64_t Addr = 0x100000000000ull + uint64_t(I) * 0x1000000000ull;
      bool RO = O->getBoolean("readonly").value_or(false);
      auto R = Mem.map(Addr, Data.size(), RO ? PermRead : PermRW,
                       formatv("arg{0}", I).str());
      if (!R)
        return usageError(toString(R.takeError()));
      if (!Data.empty())
        std::memcpy((*R)->Data.data(), Data.data(), Data.size());
      if (Data.empty())
        (*R)->Size = 0; // zero-sized: every access faults
      Buffers.push_back({unsigned(I), Addr, Data.size()});
      putBytes(&Addr, 8);
      continue;
    }
    if (auto L = O->getInteger("lds")) {
      if (A.ValueKind != "dynamic_shared_pointer")
        return usageError(Where + ": \"lds\" for a non-LDS argument");
      uint64_t Align = std::max<uint64_t>(A.PointeeAlign, 4);
      uint32_t Off = (DynLdsOffset + Align - 1) / Align * Align;
      D.DynamicLds += (Off - DynLdsOffset) + uint32_t(*L);
      DynLdsOffset = Off + uint32_t(*L);
      uint32_t V = Off;
      if (!putBytes(&V, 4))
        return sizeError("lds");
      continue;
    }
    if (auto V = O->get("bytes")) {
      auto S = V->getAsString();
      if (!S)
        return usageError(Where + ": \"bytes\" must be a hex string");
      auto B = hexBytes(*S);
      if (!B)
        return usageError(Where + ": " + toString(B.takeError()));
      if (!putBytes(B->data(), B->size()))
        return sizeError("bytes");
      continue;
    }
    bool Done = false;
    for (StringRef T : {"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"}) {
      const json::Value *V = O->get(T);
      if (!V)
        continue;
      std::optional<int64_t> IV = V->getAsInteger();
      std::optional<uint64_t> UV = V->getAsUINT64();
      if (!IV && !UV)
        return usageError(Where + ": " + T + " needs an integer");
      uint64_t X = UV ? *UV : uint64_t(*IV);
      unsigned Bytes = T.drop_front(1) == "8" ? 1 : T.drop_front(1) == "16" ? 2
                       : T.drop_front(1) == "32"                           ? 4
                                                                            : 8;
      if (!putBytes(&X, Bytes))
        return sizeError(T);
      Done = true;
      break;
    }
    if (Done)
      continue;
    if (auto F = O->getNumber("f32")) {
      float X = float(*F);
      if (!putBytes(&X, 4))
        return sizeError("f32");
      continue;
    }
    if (auto F = O->getNumber("f64")) {
      double X = *F;
      if (!putBytes(&X, 8))
        return sizeError("f64");
      continue;
    }
    if (auto F = O->getString("f32_bits")) {
      uint32_t X;
      if (F->getAsInteger(0, X) || !putBytes(&X, 4))
        return sizeError("f32_bits");
      continue;
    }
    return usageError(Where + ": unknown argument kind");
  }

  RunOptions RO;
  RO.Threads = Threads;
  RO.Budget = Budget;
  RO.Trace = Trace;
  RO.Profile = Profile;
  RO.RefuseApproximate = RefuseApprox;
  RO.TraceOut = &outs();
  RO.KernargPreloadPrologue = PreloadPrologue;
  RunResult R = Emu.run(*K, D, Mem, RO);

  if (!OutDir.empty()) {
    if (std::error_code EC = sys::fs::create_directories(OutDir))
      return usageError("cannot create " + OutDir + ": " + EC.message());
    for (const BufferArg &B : Buffers) {
      std::string P = formatv("{0}/arg{1}.bin", OutDir, B.ArgIndex).str();
      std::error_code EC;
      raw_fd_ostream OS(P, EC);
      if (EC)
        return usageError("cannot write " + P);
      Region *Reg = Mem.at(B.Addr);
      if (Reg && B.Size)
        OS.write(reinterpret_cast<const char *>(Reg->Data.data()), B.Size);
    }
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
