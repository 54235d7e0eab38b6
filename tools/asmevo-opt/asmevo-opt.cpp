//===- asmevo-opt.cpp - The asmevo driver ---------------------------------===//
//
// asmevo-opt IN [-o OUT] [--pipeline=...] [--emit=mlir|asm|obj]
// asmevo-opt IN --roundtrip-check
// asmevo-opt IN [--pipeline=...] --profile --spec S.json [--kernel K]
// asmevo-opt IN --pipeline=... --keep-if-faster --spec S.json [--kernel K]
//
// --profile (docs/cost-model.md): runs the (rewritten) code object's kernel
// on the emulator in timing mode and prints its modelled time and hot
// windows; --profile-json writes them as JSON. --keep-if-faster times the
// kernel before and after the pipeline and keeps the original when the
// rewrite is not faster in the cost model.
// IN is an AMDGPU code object or an .mlir file in the amdgcn dialect.
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/CodeObject/Compare.h"
#include "asmevo/CodeObject/Emit.h"
#include "asmevo/CodeObject/Recover.h"
#include "asmevo/Emu/CostModel.h"
#include "asmevo/Emu/Emulator.h"
#include "asmevo/IR/AMDGCN.h"
#include "asmevo/Passes/Passes.h"
#include "asmevo/Verify/Oracle.h"
#include "asmevo/Verify/Spec.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/Timing.h"
#include "llvm/MC/MCInst.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace llvm;
using namespace asmevo;

static cl::OptionCategory Cat("asmevo-opt options");

static cl::opt<std::string> InputFile(cl::Positional, cl::Required,
                                      cl::desc("<code object or .mlir>"),
                                      cl::cat(Cat));
static cl::opt<std::string>
    OutputFile("o", cl::desc("Output file ('-' for stdout). The extension "
                             "picks the format when --emit is absent: .mlir, "
                             ".s, anything else is a code object"),
               cl::value_desc("file"), cl::cat(Cat));

enum class EmitKind { Auto, Mlir, Asm, Obj };
static cl::opt<EmitKind> Emit(
    "emit", cl::desc("Output format"), cl::init(EmitKind::Auto),
    cl::values(clEnumValN(EmitKind::Mlir, "mlir", "the amdgcn dialect"),
               clEnumValN(EmitKind::Asm, "asm",
                          "an assembly listing (for reading, not assembling)"),
               clEnumValN(EmitKind::Obj, "obj", "a code object")),
    cl::cat(Cat));
static cl::opt<std::string>
    Pipeline("pipeline",
             cl::desc("Comma-separated passes to run on the code object, e.g. "
                      "'amdgcn-dce,amdgcn-peephole'. --list-passes shows them"),
             cl::value_desc("passes"), cl::cat(Cat));
static cl::opt<std::string> OnlyKernels(
    "only-kernels",
    cl::desc("Run --pipeline only on the kernels and functions whose symbol "
             "name matches this regular expression (LLVM Regex, searched); "
             "the others are emitted as recovered. An error when none "
             "matches"),
    cl::value_desc("regex"), cl::cat(Cat));
static cl::opt<bool> ListPasses("list-passes",
                                cl::desc("List the registered passes and exit"),
                                cl::cat(Cat));
static cl::opt<bool> RoundtripCheck(
    "roundtrip-check",
    cl::desc("Recover and emit IN with no rewrite and compare: exit 0 when "
             "every kernel's code bytes, descriptor and metadata are "
             "identical, 1 otherwise (first difference per kernel)"),
    cl::cat(Cat));
static cl::opt<bool> ElideImage(
    "elide-image",
    cl::desc("With --emit=mlir: omit the original ELF image (the output can "
             "then not be emitted as a code object)"),
    cl::cat(Cat));
static cl::opt<bool> PrintStats("print-stats",
                                cl::desc("Print recovery/emission statistics "
                                         "to stderr"),
                                cl::cat(Cat));
static cl::opt<bool>
    Timing("timing",
           cl::desc("Print the wall time of each phase to stderr: recovery, "
                    "every pass of --pipeline, --verify, emission (MLIR's "
                    "timing report, as a tree)"),
           cl::cat(Cat));

static int fail(const Twine &Msg) {
  WithColor::error(errs(), "asmevo-opt") << Msg << "\n";
  return 2;
}

//===----------------------------------------------------------------------===//
// --verify (lib/Verify, docs/verification.md): the differential oracle on the
// pipeline's result; OUT is written only when every kernel is proven
// equivalent to the input code object.
//===----------------------------------------------------------------------===//

static cl::opt<bool> VerifyResult(
    "verify",
    cl::desc("Run the differential oracle (asmevo-verify) on the result "
             "against IN and refuse to write -o unless every kernel is "
             "equivalent: exit 1 not equivalent, 2 cannot decide"),
    cl::cat(Cat));

/// 0 when every kernel of Result is equivalent to the input code object,
/// else the worst verdict (1 not equivalent, 2 cannot decide).
static int verifyAgainstInput(ArrayRef<uint8_t> Result) {
  if (StringRef(InputFile).ends_with(".mlir")) {
    errs() << "asmevo-opt: --verify needs a code object as input (the "
              "original K0)\n";
    return 2;
  }
  auto In = MemoryBuffer::getFile(InputFile, false, false);
  if (!In) {
    errs() << "asmevo-opt: --verify: cannot read " << InputFile << "\n";
    return 2;
  }
  ArrayRef<uint8_t> K0(reinterpret_cast<const uint8_t *>((*In)->getBufferStart()),
                       (*In)->getBufferSize());
  if (K0 == Result) {
    errs() << "asmevo-opt: --verify: the result is byte-identical to the "
              "input\n";
    return 0;
  }
  // Both parsed and hashed once for all kernels.
  auto CO = verify::ParsedCodeObject::create(K0, InputFile);
  if (!CO) {
    errs() << "asmevo-opt: --verify: " << toString(CO.takeError()) << "\n";
    return 2;
  }
  auto K1 = verify::ParsedCodeObject::create(Result, "K1");
  if (!K1) {
    errs() << "asmevo-opt: --verify: the result is not a valid code object: "
           << toString(K1.takeError()) << "\n";
    return 1;
  }
  int Worst = 0;
  for (const KernelInfo &K : (*CO)->object().kernels()) {
    verify::OracleOptions O;
    auto Ref = verify::Reference::create(*CO, K.Name, O);
    if (!Ref) {
      errs() << "asmevo-opt: --verify: " << K.Name << ": "
             << toString(Ref.takeError()) << "\n";
      return 2;
    }
    verify::VerdictResult V = (*Ref)->check(**K1);
    errs() << "asmevo-opt: --verify: " << K.Name << ": " << V.str() << "\n";
    if (V.V != verify::Verdict::Equivalent && !V.Why.Detail.empty())
      errs() << V.Why.Detail << "\n";
    int Code = int(V.V);
    if (Code == 1 || (Code == 2 && Worst == 0))
      Worst = Code;
  }
  return Worst;
}
// --- end of --verify ---


static bool isMlirFile(StringRef Path) { return Path.ends_with(".mlir"); }

static Expected<mlir::OwningOpRef<amdgcn::CodeObjectOp>>
loadInput(mlir::MLIRContext &Ctx, RecoverStats &RS) {
  if (isMlirFile(InputFile)) {
    llvm::SourceMgr SrcMgr;
    auto BufOrErr = MemoryBuffer::getFileOrSTDIN(InputFile);
    if (!BufOrErr)
      return createStringError(InputFile + ": " +
                               BufOrErr.getError().message());
    SrcMgr.AddNewSourceBuffer(std::move(*BufOrErr), SMLoc());
    mlir::SourceMgrDiagnosticHandler Handler(SrcMgr, &Ctx);
    mlir::Block Body;
    mlir::ParserConfig Config(&Ctx);
    if (failed(mlir::parseSourceFile(SrcMgr, &Body, Config)))
      return createStringError(InputFile + ": cannot parse");
    if (Body.getOperations().size() != 1 ||
        !isa<amdgcn::CodeObjectOp>(Body.front()))
      return createStringError(InputFile +
                               ": expected exactly one amdgcn.code_object");
    auto Op = cast<amdgcn::CodeObjectOp>(Body.front());
    Op->remove();
    if (failed(mlir::verify(Op)))
      return createStringError(InputFile + ": verification failed");
    return mlir::OwningOpRef<amdgcn::CodeObjectOp>(Op);
  }
  auto COOrErr = CodeObject::load(InputFile);
  if (!COOrErr)
    return COOrErr.takeError();
  return recoverCodeObject(Ctx, **COOrErr, &RS);
}

static Error writeOutput(StringRef Path,
                         function_ref<Error(raw_ostream &)> Write) {
  // writeToOutput writes a temporary file and renames it, so a failed run
  // leaves no partial output behind.
  return llvm::writeToOutput(Path, Write);
}

static void printAsm(amdgcn::CodeObjectOp Op, raw_ostream &OS) {
  auto TIOrErr = Op.getTargetInfo();
  if (!TIOrErr) {
    consumeError(TIOrErr.takeError());
    return;
  }
  TargetInfo &TI = **TIOrErr;
  OS << "; asmevo listing of " << Op.getSourceName().value_or("<input>")
     << "\n; target " << Op.getTarget() << "\n";
  for (mlir::Operation &Fn : Op.getBodyBlock()) {
    OS << "\n" << cast<mlir::SymbolOpInterface>(Fn).getName() << ":\n";
    unsigned BlockIndex = 0;
    llvm::DenseMap<mlir::Block *, unsigned> Index;
    for (mlir::Block &B : Fn.getRegion(0))
      Index[&B] = BlockIndex++;
    for (mlir::Block &B : Fn.getRegion(0)) {
      OS << ".L" << Index[&B] << ":\n";
      for (mlir::Operation &I : B) {
        std::string Text;
        if (auto W = dyn_cast<amdgcn::WaitcntOp>(I))
          Text = formatv("s_waitcnt vmcnt({0}) expcnt({1}) lgkmcnt({2})",
                         W.getVmcnt(), W.getExpcnt(), W.getLgkmcnt());
        else if (auto N = dyn_cast<amdgcn::NopOp>(I))
          Text = formatv("s_nop {0}", N.getImm());
        else if (isa<amdgcn::BarrierOp>(I))
          Text = "s_barrier";
        else if (isa<amdgcn::EndpgmOp>(I))
          Text = "s_endpgm";
        else if (auto Br = dyn_cast<amdgcn::BranchOp>(I))
          Text = formatv("s_branch .L{0}", Index[Br.getDest()]);
        else if (auto Br = dyn_cast<amdgcn::CondBranchOp>(I))
          Text = formatv("{0} .L{1}", Br.getMnemonic(), Index[Br.getTaken()]);
        else if (auto R = dyn_cast<amdgcn::RawOp>(I))
          Text = formatv(".long {0:x8}", uint32_t(R.getWord()));
        else if (isa<amdgcn::FallthroughOp>(I))
          continue;
        else {
          ArrayRef<uint8_t> Bytes = amdgcn::getOriginalBytes(&I);
          const DecodedInst *D = TI.decode(Bytes);
          Text = D ? TI.print(D->Inst) : "<undecodable>";
        }
        OS << "  " << Text << "\n";
      }
    }
  }
}

static int roundtripCheck(mlir::MLIRContext &Ctx) {
  auto COOrErr = CodeObject::load(InputFile);
  if (!COOrErr)
    return fail(toString(COOrErr.takeError()));
  RecoverStats RS;
  auto OpOrErr = recoverCodeObject(Ctx, **COOrErr, &RS);
  if (!OpOrErr)
    return fail(toString(OpOrErr.takeError()));
  EmitStats ES;
  auto BytesOrErr = emitCodeObject(**OpOrErr, &ES);
  if (!BytesOrErr)
    return fail(InputFile + ": emission failed: " +
                toString(BytesOrErr.takeError()));
  // The emitted bytes outlive Out: no copy (it can be hundreds of MB).
  auto Out = CodeObject::parse(
      MemoryBuffer::getMemBuffer(
          StringRef(reinterpret_cast<const char *>(BytesOrErr->data()),
                    BytesOrErr->size()),
          "emitted", /*RequiresNullTerminator=*/false),
      InputFile + " (emitted)");
  if (!Out)
    return fail(toString(Out.takeError()));
  auto Diffs = compareCodeObjects(**COOrErr, **Out);
  unsigned Kernels = (*COOrErr)->kernels().size();
  for (const ObjectDifference &D : Diffs)
    outs() << InputFile << ": " << (D.Kernel.empty() ? "" : "kernel ")
           << D.Kernel << (D.Kernel.empty() ? "" : ": ") << D.What << ": "
           << D.Detail << "\n";
  std::set<std::string> Bad;
  for (const ObjectDifference &D : Diffs)
    Bad.insert(D.Kernel);
  outs() << InputFile << ": " << (Kernels - Bad.size() + Bad.count(""))
         << "/" << Kernels << " kernels identical, " << RS.Instructions
         << " instructions" << (Diffs.empty() ? "" : ": ROUNDTRIP FAILED")
         << "\n";
  // The process ends here: tearing down tens of millions of ops one by one
  // would cost seconds on the largest objects (as clang's -disable-free).
  llvm::BuryPointer((*OpOrErr).release().getOperation());
  return Diffs.empty() ? 0 : 1;
}

//===----------------------------------------------------------------------===//
// --profile: modelled timing and hot windows (lib/Emu cost model)
//===----------------------------------------------------------------------===//

static cl::opt<bool> Profile(
    "profile",
    cl::desc("Run the kernel (after the pipeline) on the emulator in timing "
             "mode and print its modelled time and hot windows (needs "
             "--spec); no code object is written unless -o is given"),
    cl::cat(Cat));
static cl::opt<std::string> ProfileSpec("spec",
                                        cl::desc("--profile: dispatch spec"),
                                        cl::value_desc("file"), cl::cat(Cat));
static cl::opt<std::string>
    ProfileKernel("kernel",
                  cl::desc("--profile: kernel (default: the only kernel)"),
                  cl::cat(Cat));
static cl::opt<std::string>
    ProfileJson("profile-json",
                cl::desc("--profile: also write the report as JSON"),
                cl::value_desc("file"), cl::cat(Cat));
static cl::opt<std::string>
    ProfileDevice("device",
                  cl::desc("--profile: mi300x, mi308x or mi250x (default: "
                           "from the target)"),
                  cl::cat(Cat));
static cl::opt<unsigned> ProfileHot("hot", cl::init(5),
                                    cl::desc("--profile: hot windows"),
                                    cl::cat(Cat));

static cl::opt<bool> KeepIfFaster(
    "keep-if-faster",
    cl::desc("With --spec: time the kernel before and after the pipeline "
             "with the cost model and keep the rewrite only when it is "
             "faster; otherwise the original kernel is kept (the whole "
             "original code object when it has device functions)"),
    cl::cat(Cat));

namespace {
/// The modelled timing of one kernel of Op with the spec.
struct Timed {
  std::string Kernel;
  asmevo::emu::TimingResult Result;
};
} // namespace

/// Emits Op and runs the kernel (--kernel, or the only one) with --spec on
/// the emulator in timing mode.
static Expected<Timed> timeCodeObject(amdgcn::CodeObjectOp Op) {
  using namespace asmevo::emu;
  auto err = [](const Twine &M) {
    return createStringError(inconvertibleErrorCode(), M);
  };
  auto Bytes = emitCodeObject(Op);
  if (!Bytes)
    return err("emission failed: " + toString(Bytes.takeError()));
  auto CO = CodeObject::parse(
      MemoryBuffer::getMemBufferCopy(
          StringRef(reinterpret_cast<const char *>(Bytes->data()),
                    Bytes->size())),
      InputFile);
  if (!CO)
    return CO.takeError();
  const KernelInfo *K = nullptr;
  if (!ProfileKernel.empty()) {
    K = (*CO)->kernel(ProfileKernel);
    if (!K)
      return err("no kernel '" + ProfileKernel + "'");
  } else if ((*CO)->kernels().size() == 1) {
    K = &(*CO)->kernels()[0];
  } else {
    return err("the code object has several kernels: use --kernel");
  }
  auto Spec = verify::loadSpec(ProfileSpec, *K);
  if (!Spec)
    return Spec.takeError();
  auto Emu = Emulator::create(**CO);
  if (!Emu)
    return Emu.takeError();
  Memory Mem;
  if (Error E = (*Emu)->mapCodeObject(Mem))
    return std::move(E);
  if (Error E = verify::mapSpecBuffers(*Spec, Mem))
    return std::move(E);
  TimingRequest Req;
  Req.Device = DeviceModel::forTarget((*CO)->cpu());
  if (!ProfileDevice.empty()) {
    auto D = DeviceModel::preset(ProfileDevice);
    if (!D)
      return err("unknown device '" + ProfileDevice + "'");
    Req.Device = *D;
  }
  RunOptions RO;
  RO.Timing = &Req;
  RunResult RR = (*Emu)->run(*K, Spec->Launch, Mem, RO);
  if (!RR.ok())
    return err(K->Name + ": " + RR.Message);
  if (!Req.Result.Valid)
    return err(K->Name + ": no valid timing");
  return Timed{K->Name, std::move(Req.Result)};
}

/// Emits Op, runs the kernel with the spec in timing mode and reports.
static int profileCodeObject(amdgcn::CodeObjectOp Op) {
  using namespace asmevo::emu;
  if (ProfileSpec.empty())
    return fail("--profile needs --spec S.json");
  auto T = timeCodeObject(Op);
  if (!T)
    return fail(toString(T.takeError()));
  HotWindowOptions HO;
  HO.MaxWindows = ProfileHot;
  std::vector<HotWindow> W = findHotWindows(T->Result, HO);
  raw_ostream &OS = OutputFile == "-" ? errs() : outs();
  OS << InputFile << " " << T->Kernel
     << (Pipeline.empty() ? "" : " after --pipeline=" + Pipeline) << "\n";
  printTimingSummary(OS, T->Result);
  printHotWindows(OS, T->Result, W);
  if (!ProfileJson.empty()) {
    std::error_code EC;
    raw_fd_ostream J(ProfileJson, EC);
    if (EC)
      return fail("cannot write " + ProfileJson + ": " + EC.message());
    J << timingJson(T->Result, W, T->Kernel) << "\n";
  }
  return 0;
}

/// --keep-if-faster: Op is the rewrite, Orig the code object before the
/// pipeline. A rewrite the cost model does not rate faster on the spec's
/// dispatch gives way to the original: the kernel's function op, or the
/// whole object when device functions (which the kernel may call) exist.
static int keepIfFaster(mlir::OwningOpRef<amdgcn::CodeObjectOp> &Op,
                        mlir::OwningOpRef<amdgcn::CodeObjectOp> &Orig) {
  auto Before = timeCodeObject(*Orig);
  if (!Before)
    return fail("--keep-if-faster: the original: " +
                toString(Before.takeError()));
  auto After = timeCodeObject(*Op);
  if (!After)
    return fail("--keep-if-faster: the rewrite: " +
                toString(After.takeError()));
  uint64_t C0 = Before->Result.Cycles, C1 = After->Result.Cycles;
  if (C1 < C0) {
    errs() << formatv("asmevo-opt: --keep-if-faster: {0}: {1} -> {2} "
                      "modelled cycles: the rewrite is kept\n",
                      After->Kernel, C0, C1);
    return 0;
  }
  bool HasFuncs = false;
  amdgcn::KernelOp New, Old;
  for (mlir::Operation &F : Op->getBodyBlock()) {
    HasFuncs |= isa<amdgcn::FuncOp>(F);
    if (auto K = dyn_cast<amdgcn::KernelOp>(F);
        K && K.getSymName() == After->Kernel)
      New = K;
  }
  for (mlir::Operation &F : Orig->getBodyBlock())
    if (auto K = dyn_cast<amdgcn::KernelOp>(F);
        K && K.getSymName() == After->Kernel)
      Old = K;
  if (HasFuncs || !New || !Old) {
    std::swap(Op, Orig);
  } else {
    mlir::Operation *Copy = Old->clone();
    New->getBlock()->getOperations().insert(New->getIterator(), Copy);
    New->erase();
  }
  errs() << formatv("asmevo-opt: --keep-if-faster: {0}: {1} -> {2} modelled "
                    "cycles: not faster, the original {3} is kept\n",
                    After->Kernel, C0, C1, HasFuncs ? "code object" : "kernel");
  return 0;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  registerAsmevoPasses();
  cl::HideUnrelatedOptions(Cat);
  cl::ParseCommandLineOptions(
      argc, argv,
      "asmevo-opt: recover an AMDGPU code object into the amdgcn MLIR "
      "dialect, run rewrite passes, and emit it again\n\n"
      "  asmevo-opt k.hsaco -o k.mlir               recover to the dialect\n"
      "  asmevo-opt k.hsaco --pipeline=P -o k2.hsaco rewrite and emit\n"
      "  asmevo-opt k.mlir -o k.hsaco               emit edited IR\n"
      "  asmevo-opt k.hsaco --roundtrip-check       the lossless gate\n\n"
      "Exit status: 0 success, 1 round-trip difference, 2 error.\n");

  mlir::DialectRegistry Registry;
  Registry.insert<amdgcn::AMDGCNDialect>();
  mlir::MLIRContext Ctx(Registry);
  Ctx.loadAllAvailableDialects();
  Ctx.disableMultithreading();

  if (ListPasses) {
    outs() << "Registered passes:\n";
    mlir::printRegisteredPasses();
    return 0;
  }
  if (RoundtripCheck)
    return roundtripCheck(Ctx);

  // Printed when it goes out of scope, after the last phase (or the error).
  mlir::DefaultTimingManager TM;
  TM.setEnabled(Timing);
  TM.setDisplayMode(mlir::DefaultTimingManager::DisplayMode::Tree);
  mlir::TimingScope RootTimer = TM.getRootScope();

  RecoverStats RS;
  mlir::TimingScope RecoverTimer = RootTimer.nest("recover");
  auto OpOrErr = loadInput(Ctx, RS);
  RecoverTimer.stop();
  if (!OpOrErr)
    return fail(toString(OpOrErr.takeError()));
  mlir::OwningOpRef<amdgcn::CodeObjectOp> Op = std::move(*OpOrErr);

  mlir::OwningOpRef<amdgcn::CodeObjectOp> Orig;
  if (KeepIfFaster) {
    if (ProfileSpec.empty())
      return fail("--keep-if-faster needs --spec S.json");
    Orig = cast<amdgcn::CodeObjectOp>((*Op)->clone());
  }

  if (!Pipeline.empty()) {
    mlir::PassManager PM(&Ctx, amdgcn::CodeObjectOp::getOperationName());
    std::string Err;
    llvm::raw_string_ostream ErrOS(Err);
    if (failed(mlir::parsePassPipeline(Pipeline, PM, ErrOS)))
      return fail("invalid --pipeline '" + Pipeline + "': " + Err);
    // --only-kernels: the passes skip frozen functions (isEditable).
    SmallVector<mlir::Operation *> Frozen;
    if (OnlyKernels.getNumOccurrences()) {
      Regex RE(OnlyKernels);
      std::string REErr;
      if (!RE.isValid(REErr))
        return fail("invalid --only-kernels '" + OnlyKernels + "': " + REErr);
      unsigned Selected = 0;
      for (mlir::Operation &Fn : Op->getBodyBlock()) {
        if (!isa<amdgcn::KernelOp, amdgcn::FuncOp>(Fn))
          continue;
        auto Name = Fn.getAttrOfType<mlir::StringAttr>(
            mlir::SymbolTable::getSymbolAttrName());
        if (Name && RE.match(Name.getValue())) {
          ++Selected;
          continue;
        }
        Fn.setAttr(FrozenAttrName, mlir::UnitAttr::get(&Ctx));
        Frozen.push_back(&Fn);
      }
      if (!Selected)
        return fail("--only-kernels '" + OnlyKernels +
                    "' matches no kernel or function of " + InputFile);
    }
    mlir::TimingScope PipelineTimer = RootTimer.nest("pipeline");
    if (Timing)
      PM.enableTiming(PipelineTimer);
    if (failed(PM.run(*Op)))
      return fail("pass pipeline failed on " + InputFile);
    for (mlir::Operation *Fn : Frozen)
      Fn->removeAttr(FrozenAttrName);
  }

  if (KeepIfFaster)
    if (int RC = keepIfFaster(Op, Orig))
      return RC;

  if (Profile) { // modelled timing and hot windows (see above)
    int RC = profileCodeObject(*Op);
    if (RC || OutputFile.empty())
      return RC;
  }

  if (VerifyResult) { // --verify: no output unless proven equivalent
    mlir::TimingScope VerifyTimer = RootTimer.nest("verify");
    auto Bytes = emitCodeObject(*Op);
    if (!Bytes)
      return fail(InputFile + ": emission failed: " + toString(Bytes.takeError()));
    if (int V = verifyAgainstInput(*Bytes)) {
      WithColor::error(errs(), "asmevo-opt")
          << "--verify: the result is not proven equivalent to " << InputFile
          << "; nothing written\n";
      return V;
    }
  }

  EmitKind Kind = Emit;
  std::string Out = OutputFile.empty() ? "-" : OutputFile.getValue();
  if (Kind == EmitKind::Auto) {
    StringRef O(Out);
    Kind = O == "-" || O.ends_with(".mlir") ? EmitKind::Mlir
           : O.ends_with(".s")              ? EmitKind::Asm
                                            : EmitKind::Obj;
  }
  if (Kind == EmitKind::Mlir && ElideImage)
    Op->removeImageAttr();

  Error E = Error::success();
  EmitStats ES;
  mlir::TimingScope EmitTimer = RootTimer.nest("emit");
  switch (Kind) {
  case EmitKind::Mlir:
    E = writeOutput(Out, [&](raw_ostream &OS) {
      Op->print(OS);
      OS << "\n";
      return Error::success();
    });
    break;
  case EmitKind::Asm:
    E = writeOutput(Out, [&](raw_ostream &OS) {
      printAsm(*Op, OS);
      return Error::success();
    });
    break;
  case EmitKind::Obj: {
    if (Out == "-" && sys::Process::StandardOutIsDisplayed())
      return fail("refusing to write a binary code object to a terminal; "
                  "use -o FILE");
    auto BytesOrErr = emitCodeObject(*Op, &ES);
    if (!BytesOrErr)
      return fail(InputFile + ": emission failed: " +
                  toString(BytesOrErr.takeError()));
    E = writeOutput(Out, [&](raw_ostream &OS) {
      OS.write(reinterpret_cast<const char *>(BytesOrErr->data()),
               BytesOrErr->size());
      return Error::success();
    });
    break;
  }
  case EmitKind::Auto:
    break;
  }
  if (E)
    return fail(toString(std::move(E)));
  if (PrintStats)
    errs() << formatv("recovered: {0} functions ({1} kernels), {2} "
                      "instructions, {3} blocks, {4} raw words, {5} padding "
                      "words, {6} pc-relative pairs\n"
                      "emitted: {7} copied, {8} encoded, {9} functions moved\n",
                      RS.Functions, RS.Kernels, RS.Instructions, RS.Blocks,
                      RS.RawWords, RS.PaddingWords, RS.PcRelPairs,
                      ES.CopiedInstructions, ES.EncodedInstructions,
                      ES.MovedFunctions);
  return 0;
}
