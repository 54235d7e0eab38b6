//===- asmevo-mutate.cpp - Mutation testing of the differential oracle ----===//
//
//   asmevo-mutate K0... [--list FILE] [--kernel NAME]... [--per-kernel N]
//                 [--equivalents N] [--seed S] [--jobs N] [--min-kill-rate P]
//                 [--report FILE] [--capture C]... [--no-tier1]
//                 [--spec-dir DIR]... [-v]
//
// For every kernel of every code object: builds the oracle's reference (K0
// on its tier-1 inputs), makes semantic mutants and known-equivalent
// rewrites of the recovered IR (lib/Verify/Mutate.cpp), emits each and asks
// the oracle. Mutants must be rejected (exit 1 or 2 of the oracle),
// equivalent rewrites accepted. Survivors are listed with the reason the
// tool can give: the mutated instruction is not executed by any input, or
// its result is dead; the rest are "unexplained" (oracle misses).
//
// Each check runs in a forked child (crash isolation, --jobs in parallel,
// a timeout per check). Exit 0 when the kill rate over reached mutants
// without a static equivalence reason is >= --min-kill-rate and every
// equivalent rewrite is accepted; 1 otherwise; 2 on bad input.
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/IR/AMDGCN.h"
#include "asmevo/Verify/Mutate.h"
#include "asmevo/Verify/Oracle.h"
#include "asmevo/Verify/SpecLibrary.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <poll.h>
#include <random>
#include <set>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;
using namespace asmevo;
using namespace asmevo::verify;

static cl::OptionCategory Cat("asmevo-mutate options");
static cl::list<std::string> Inputs(cl::Positional, cl::desc("<code object>..."),
                                    cl::cat(Cat));
static cl::opt<std::string> ListFile("list",
                                     cl::desc("file with one code object path "
                                              "per line (kernels.txt)"),
                                     cl::cat(Cat));
static cl::opt<std::string>
    Manifest("manifest",
             cl::desc("corpus manifest (utils/fetch-rocm-corpus.sh): path, "
                      "arch, ... per line, paths relative to its directory"),
             cl::cat(Cat));
static cl::opt<std::string> Arch("arch", cl::desc("with --manifest: only this "
                                                  "architecture"),
                                 cl::cat(Cat));
static cl::opt<unsigned> MaxObjects("max-objects", cl::init(0),
                                    cl::desc("at most this many code objects "
                                             "(evenly spaced; 0 = all)"),
                                    cl::cat(Cat));
static cl::opt<unsigned> MaxKernels("max-kernels", cl::init(0),
                                    cl::desc("at most this many kernels per "
                                             "object (evenly spaced; 0 = all)"),
                                    cl::cat(Cat));
static cl::list<std::string> Filter("filter",
                                    cl::desc("with --list: keep paths that "
                                             "contain one of these strings"),
                                    cl::cat(Cat));
static cl::list<std::string> Exclude("exclude",
                                     cl::desc("drop paths that contain this "
                                              "string"),
                                     cl::cat(Cat));
static cl::opt<std::string>
    Annotations("annotations",
                cl::desc("reviewed survivors: lines 'FILE-SUFFIX KERNEL KIND "
                         "ID equivalent|limit: reason' (docs/verification.md)"),
                cl::cat(Cat));
static cl::list<std::string> KernelNames("kernel",
                                         cl::desc("only these kernels"),
                                         cl::cat(Cat));
static cl::opt<unsigned> PerKernel("per-kernel", cl::init(40),
                                   cl::desc("semantic mutants per kernel "
                                            "(sampled across kinds; 0 = all)"),
                                   cl::cat(Cat));
static cl::opt<unsigned> Equivalents("equivalents", cl::init(6),
                                     cl::desc("known-equivalent rewrites per "
                                              "kernel besides the identity"),
                                     cl::cat(Cat));
static cl::opt<unsigned> Seed("seed", cl::init(1), cl::desc("sampling seed"),
                              cl::cat(Cat));
static cl::opt<unsigned> Jobs("jobs", cl::init(1),
                              cl::desc("checks run in parallel"), cl::cat(Cat));
static cl::opt<double> MinKillRate("min-kill-rate", cl::init(99.0),
                                   cl::desc("required kill rate (%) over "
                                            "reached mutants"),
                                   cl::cat(Cat));
static cl::opt<double> Timeout("timeout", cl::init(120),
                               cl::desc("seconds per check"), cl::cat(Cat));
static cl::opt<unsigned> Seeds("seeds", cl::init(3),
                               cl::desc("tier-1 data seeds per launch shape"),
                               cl::cat(Cat));
static cl::opt<unsigned> Shapes("shapes", cl::init(5),
                                cl::desc("tier-1 launch shapes"), cl::cat(Cat));
static cl::opt<std::string> ReportFile("report",
                                       cl::desc("write every mutant's line "
                                                "here"),
                                       cl::cat(Cat));
static cl::opt<bool> Verbose("v", cl::desc("print every mutant"), cl::cat(Cat));
static cl::opt<bool> NoSignature(
    "no-signature",
    cl::desc("tier 1 without the argument types of the demangled kernel name"),
    cl::cat(Cat));
static cl::list<std::string>
    CaptureFiles("capture",
                 cl::desc("tier-2 capture of the kernel (with --kernel): "
                          "also an input of the oracle"),
                 cl::cat(Cat));
static cl::list<std::string>
    SpecDirs("spec-dir",
             cl::desc("directory of dispatch specs whose \"match\" regular "
                      "expression picks the kernels they are for "
                      "(docs/run-spec.md): extra inputs, run first"),
             cl::cat(Cat));
static cl::opt<bool> NoTier1("no-tier1",
                             cl::desc("no synthesized inputs: only "
                                      "--capture (tier 2 alone)"),
                             cl::cat(Cat));
static cl::opt<std::string> KeepDir("keep",
                                    cl::desc("write surviving mutants and "
                                             "rejected equivalent rewrites "
                                             "here (code objects)"),
                                    cl::cat(Cat));

namespace {

struct Outcome {
  int Code = -1; // oracle verdict 0/1/2; 3 = crashed; 4 = timeout
  std::string Summary;
};

struct Work {
  Edit E;
  bool Equivalent = false;
};

/// Runs checks in forked children, Jobs at a time.
class Pool {
public:
  Pool(Reference &Ref) : Ref(Ref) {}

  void run(std::vector<Work> &W, std::vector<Outcome> &Out) {
    Out.assign(W.size(), Outcome());
    size_t Next = 0;
    struct Child {
      pid_t Pid;
      int Fd;
      size_t Index;
      std::string Buf;
      std::chrono::steady_clock::time_point Start;
    };
    std::vector<Child> Running;
    while (Next < W.size() || !Running.empty()) {
      while (Next < W.size() && Running.size() < std::max(1u, unsigned(Jobs))) {
        int P[2];
        if (pipe(P) != 0) {
          Out[Next++] = {3, "pipe failed"};
          continue;
        }
        fflush(stdout);
        fflush(stderr);
        outs().flush();
        pid_t Pid = fork();
        if (Pid == 0) {
          close(P[0]);
          VerdictResult V = Ref.check(W[Next].E.CodeObject);
          std::string S = std::to_string(int(V.V)) + "\n" + V.Why.Summary;
          if (!V.Why.Detail.empty())
            S += "\n" + V.Why.Detail;
          size_t Done = 0;
          while (Done < S.size()) {
            ssize_t N = write(P[1], S.data() + Done, S.size() - Done);
            if (N <= 0)
              break;
            Done += size_t(N);
          }
          _exit(0);
        }
        close(P[1]);
        if (Pid < 0) {
          close(P[0]);
          Out[Next++] = {3, "fork failed"};
          continue;
        }
        Running.push_back({Pid, P[0], Next++, "", std::chrono::steady_clock::now()});
      }
      std::vector<pollfd> Fds;
      for (Child &C : Running)
        Fds.push_back({C.Fd, POLLIN, 0});
      poll(Fds.data(), Fds.size(), 100);
      for (size_t K = 0; K < Running.size();) {
        Child &C = Running[K];
        bool Done = false;
        if (Fds.size() > K && (Fds[K].revents & (POLLIN | POLLHUP | POLLERR))) {
          char B[4096];
          ssize_t N = read(C.Fd, B, sizeof B);
          if (N > 0)
            C.Buf.append(B, size_t(N));
          else
            Done = true;
        }
        double Secs = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - C.Start)
                          .count();
        if (!Done && Secs > Timeout) {
          kill(C.Pid, SIGKILL);
          Out[C.Index] = {4, formatv("timeout after {0:f0} s", Secs).str()};
          C.Buf = "\x01";
          Done = true;
        }
        if (!Done) {
          ++K;
          continue;
        }
        close(C.Fd);
        int St = 0;
        waitpid(C.Pid, &St, 0);
        if (C.Buf != "\x01") {
          StringRef S(C.Buf);
          auto [Code, Rest] = S.split('\n');
          int V;
          if (!Code.getAsInteger(10, V))
            Out[C.Index] = {V, Rest.str()};
          else
            Out[C.Index] = {3, formatv("checker crashed (status {0})", St).str()};
        }
        // Fds indices shift with the erase: re-poll next round.
        Running.erase(Running.begin() + K);
        Fds.erase(Fds.begin() + std::min(Fds.size(), K));
      }
    }
  }

private:
  Reference &Ref;
};

struct Totals {
  unsigned Mutants = 0, KilledNE = 0, KilledCD = 0, KilledOther = 0;
  unsigned Survived = 0, SurvUnreached = 0, SurvDead = 0, SurvUnexplained = 0;
  unsigned SurvReviewedEq = 0;
  unsigned NotApplicable = 0;
  unsigned Equiv = 0, EquivAccepted = 0;
  unsigned KernelsRun = 0, KernelsSkipped = 0;
  std::map<std::string, std::array<unsigned, 3>> ByKind; // total, killed, surv
  void add(const Totals &O) {
    Mutants += O.Mutants;
    KilledNE += O.KilledNE;
    KilledCD += O.KilledCD;
    KilledOther += O.KilledOther;
    Survived += O.Survived;
    SurvUnreached += O.SurvUnreached;
    SurvDead += O.SurvDead;
    SurvUnexplained += O.SurvUnexplained;
    SurvReviewedEq += O.SurvReviewedEq;
    NotApplicable += O.NotApplicable;
    Equiv += O.Equiv;
    EquivAccepted += O.EquivAccepted;
    KernelsRun += O.KernelsRun;
    KernelsSkipped += O.KernelsSkipped;
    for (auto &[K, V] : O.ByKind)
      for (int I = 0; I < 3; ++I)
        ByKind[K][I] += V[I];
  }
};

std::string firstLine(StringRef S) { return S.split('\n').first.str(); }

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Cat);
  cl::ParseCommandLineOptions(argc, argv,
                              "asmevo-mutate: mutation testing of the "
                              "differential oracle\n");
  std::vector<std::string> Files(Inputs.begin(), Inputs.end());
  if (!ListFile.empty()) {
    auto B = MemoryBuffer::getFile(ListFile);
    if (!B) {
      errs() << "asmevo-mutate: cannot read " << ListFile << "\n";
      return 2;
    }
    SmallVector<StringRef, 64> Lines;
    (*B)->getBuffer().split(Lines, '\n', -1, false);
    for (StringRef L : Lines)
      if (!L.trim().empty() && !L.trim().starts_with("#"))
        Files.push_back(L.trim().str());
  }
  if (!Manifest.empty()) {
    auto B = MemoryBuffer::getFile(Manifest);
    if (!B) {
      errs() << "asmevo-mutate: cannot read " << Manifest << "\n";
      return 2;
    }
    StringRef Dir = sys::path::parent_path(Manifest);
    SmallVector<StringRef, 64> Lines;
    (*B)->getBuffer().split(Lines, '\n', -1, false);
    for (StringRef L : Lines) {
      if (L.starts_with("#"))
        continue;
      SmallVector<StringRef, 8> F;
      L.split(F, '\t');
      if (F.size() < 2 || (!Arch.empty() && F[1] != Arch))
        continue;
      Files.push_back((Dir + "/" + F[0]).str());
    }
  }
  if (!Filter.empty() || !Exclude.empty()) {
    std::vector<std::string> Kept;
    for (const std::string &F : Files) {
      bool In = Filter.empty();
      for (const std::string &S : Filter)
        In |= F.find(S) != std::string::npos;
      for (const std::string &S : Exclude)
        In &= F.find(S) == std::string::npos;
      if (In)
        Kept.push_back(F);
    }
    Files = std::move(Kept);
  }
  if (MaxObjects && Files.size() > MaxObjects) {
    std::vector<std::string> Kept;
    for (unsigned I = 0; I < MaxObjects; ++I)
      Kept.push_back(Files[size_t(I) * Files.size() / MaxObjects]);
    Files = std::move(Kept);
  }
  if (Files.empty()) {
    errs() << "asmevo-mutate: no code objects\n";
    return 2;
  }
  auto Lib = SpecLibrary::load(
      std::vector<std::string>(SpecDirs.begin(), SpecDirs.end()));
  if (!Lib) {
    errs() << "asmevo-mutate: " << toString(Lib.takeError()) << "\n";
    return 2;
  }
  unsigned SpecKernels = 0, SpecInputs = 0;
  std::vector<std::string> SpecFailures;
  // Reviewed survivors: (file suffix, kernel, kind, id) -> category, reason.
  struct Review {
    std::string File, Kernel, Kind;
    int64_t Id;
    bool Equivalent;
    std::string Reason;
  };
  std::vector<Review> Reviews;
  if (!Annotations.empty()) {
    auto B = MemoryBuffer::getFile(Annotations);
    if (!B) {
      errs() << "asmevo-mutate: cannot read " << Annotations << "\n";
      return 2;
    }
    SmallVector<StringRef, 64> Lines;
    (*B)->getBuffer().split(Lines, '\n', -1, false);
    for (StringRef L : Lines) {
      L = L.trim();
      if (L.empty() || L.starts_with("#"))
        continue;
      SmallVector<StringRef, 6> F;
      L.split(F, ' ', 4, false);
      Review R;
      if (F.size() < 5 || F[3].getAsInteger(0, R.Id)) {
        errs() << "asmevo-mutate: bad annotation: " << L << "\n";
        return 2;
      }
      R.File = F[0].str();
      R.Kernel = F[1].str();
      R.Kind = F[2].str();
      StringRef Rest = F[4];
      R.Equivalent = Rest.starts_with("equivalent");
      R.Reason = Rest.str();
      Reviews.push_back(R);
    }
  }
  auto reviewed = [&](StringRef File, StringRef Kernel, const EditSite &S)
      -> const Review * {
    for (const Review &R : Reviews)
      if (File.ends_with(R.File) && R.Kernel == Kernel &&
          R.Kind == editKindName(S.Kind) && R.Id == S.Id)
        return &R;
    return nullptr;
  };
  std::unique_ptr<raw_fd_ostream> Report;
  if (!ReportFile.empty()) {
    std::error_code EC;
    Report = std::make_unique<raw_fd_ostream>(ReportFile, EC);
    if (EC) {
      errs() << "asmevo-mutate: cannot write " << ReportFile << "\n";
      return 2;
    }
  }
  unsigned Kept = 0;
  auto keep = [&](const Edit &E, StringRef Kernel) -> std::string {
    if (KeepDir.empty())
      return "";
    sys::fs::create_directories(KeepDir);
    std::string P = formatv("{0}/{1:d4}-{2}-{3}.hsaco", KeepDir, Kept++, Kernel,
                            editKindName(E.Site.Kind))
                        .str();
    std::error_code EC;
    raw_fd_ostream OS(P, EC);
    if (EC)
      return "";
    OS.write(reinterpret_cast<const char *>(E.CodeObject.data()),
             E.CodeObject.size());
    return "\n    kept as " + P;
  };
  auto line = [&](const Twine &T) {
    if (Report)
      *Report << T << "\n";
    if (Verbose)
      outs() << T << "\n";
  };

  mlir::DialectRegistry Registry;
  Registry.insert<amdgcn::AMDGCNDialect>();
  mlir::MLIRContext Ctx(Registry);
  Ctx.loadAllAvailableDialects();
  Ctx.disableMultithreading();

  const EditKind MutantKinds[] = {EditKind::Immediate, EditKind::SwapSources,
                                  EditKind::Drop,      EditKind::Sibling,
                                  EditKind::Waitcnt,   EditKind::MemOffset,
                                  EditKind::BranchFlip, EditKind::ExecOp};
  const EditKind EquivKinds[] = {EditKind::Reorder, EditKind::Rename,
                                 EditKind::NopInsert};
  Totals All;
  std::vector<std::string> Survivors, Rejected;
  auto T0 = std::chrono::steady_clock::now();

  for (const std::string &F : Files) {
    auto Buf = MemoryBuffer::getFile(F, false, false);
    if (!Buf) {
      errs() << "asmevo-mutate: cannot read " << F << "\n";
      return 2;
    }
    std::vector<uint8_t> Bytes((*Buf)->getBufferStart(), (*Buf)->getBufferEnd());
    auto CO = CodeObject::load(F);
    if (!CO) {
      errs() << "asmevo-mutate: " << toString(CO.takeError()) << "\n";
      return 2;
    }
    auto Mut = Mutator::create(Ctx, Bytes);
    if (!Mut) {
      outs() << F << ": skipped: cannot recover: " << toString(Mut.takeError())
             << "\n";
      continue;
    }
    // Parsed and hashed once for the References of all its kernels.
    auto K0 = ParsedCodeObject::create(Bytes, F);
    if (!K0) {
      errs() << "asmevo-mutate: " << toString(K0.takeError()) << "\n";
      return 2;
    }
    size_t NK = (*CO)->kernels().size(), KI = 0;
    std::set<size_t> Picked;
    if (MaxKernels && NK > MaxKernels)
      for (unsigned I = 0; I < MaxKernels; ++I)
        Picked.insert(size_t(I) * NK / MaxKernels);
    for (const KernelInfo &K : (*CO)->kernels()) {
      size_t ThisK = KI++;
      if (!Picked.empty() && !Picked.count(ThisK))
        continue;
      if (!KernelNames.empty() &&
          std::find(KernelNames.begin(), KernelNames.end(), K.Name) ==
              KernelNames.end())
        continue;
      Totals T;
      OracleOptions Opts;
      Opts.Tier1.Seeds = Seeds;
      Opts.Tier1.MaxShapes = Shapes;
      Opts.Tier1.Signature = !NoSignature;
      Opts.Captures = CaptureFiles;
      Opts.Synthesize = !NoTier1;
      Opts.Specs = Lib->specsFor(K.Name);
      // A spec that does not fit, or on which K0 fails, is reported below,
      // not made the kernel's verdict: the kernel keeps its other inputs
      // and its mutants count.
      Opts.DropFailingSpecs = true;
      auto Ref = Reference::create(*K0, K.Name, Opts);
      if (!Ref || (*Ref)->undecidable()) {
        std::string Why = Ref ? (*Ref)->undecidable()->Summary
                              : toString(Ref.takeError());
        outs() << F << " " << K.Name << ": skipped: the oracle cannot decide "
               << "for K0 itself: " << firstLine(Why) << "\n";
        ++All.KernelsSkipped;
        continue;
      }
      ++T.KernelsRun;
      unsigned NSpecs = 0;
      for (const TestInput &In : (*Ref)->inputs())
        NSpecs += In.From == TestInput::Spec;
      if (!Opts.Specs.empty()) {
        ++SpecKernels;
        SpecInputs += NSpecs;
      }
      for (const std::string &SF : (*Ref)->specFailures()) {
        std::string L = F + " " + K.Name + ": SPEC-FAILED " + SF;
        outs() << L << "\n";
        SpecFailures.push_back(L);
      }
      const auto &Cov = (*Ref)->coverage();
      // Sample mutants round-robin over kinds.
      std::vector<EditSite> Sites = (*Mut)->sites(K.Name, MutantKinds);
      // The sample depends on the file's name, not on where it is (build
      // directories differ), and not on std::hash (unspecified).
      uint64_t H = 1469598103934665603ull;
      for (char Ch : (sys::path::filename(F) + " " + K.Name).str())
        H = (H ^ uint8_t(Ch)) * 1099511628211ull;
      std::mt19937 G(unsigned(Seed + H % 100000));
      std::map<EditKind, std::vector<EditSite>> ByKind;
      for (const EditSite &S : Sites)
        ByKind[S.Kind].push_back(S);
      for (auto &[Kd, V] : ByKind)
        std::shuffle(V.begin(), V.end(), G);
      std::vector<Work> W;
      unsigned Want = PerKernel ? unsigned(PerKernel) : unsigned(Sites.size());
      std::map<EditKind, size_t> Pos;
      // Build up to Want applicable mutants, round-robin.
      for (bool Progress = true; Progress && W.size() < Want;) {
        Progress = false;
        for (auto &[Kd, V] : ByKind) {
          if (W.size() >= Want)
            break;
          while (Pos[Kd] < V.size()) {
            auto E = (*Mut)->apply(V[Pos[Kd]++]);
            if (!E) {
              consumeError(E.takeError());
              ++T.NotApplicable;
              continue;
            }
            if (E->CodeObject == Bytes) {
              ++T.NotApplicable; // the edit vanished at emission
              continue;
            }
            W.push_back({std::move(*E), false});
            Progress = true;
            break;
          }
        }
      }
      // Known-equivalent rewrites: the identity plus a sample of the others.
      {
        auto Id = (*Mut)->sites(K.Name, {EditKind::Identity});
        for (const EditSite &S : Id)
          if (auto E = (*Mut)->apply(S))
            W.push_back({std::move(*E), true});
          else
            consumeError(E.takeError());
        std::vector<EditSite> ES = (*Mut)->sites(K.Name, EquivKinds);
        std::shuffle(ES.begin(), ES.end(), G);
        std::map<EditKind, unsigned> Per;
        unsigned Added = 0;
        for (const EditSite &S : ES) {
          if (Added >= Equivalents)
            break;
          if (Per[S.Kind] >= (Equivalents + 2) / 3 + 1)
            continue;
          auto E = (*Mut)->apply(S);
          if (!E) {
            consumeError(E.takeError());
            continue;
          }
          ++Per[S.Kind];
          ++Added;
          W.push_back({std::move(*E), true});
        }
      }
      std::vector<Outcome> Out;
      Pool(**Ref).run(W, Out);
      for (size_t I = 0; I < W.size(); ++I) {
        const Edit &E = W[I].E;
        const Outcome &O = Out[I];
        std::string Head = formatv("{0} {1} [{2} id={3}] {4}", F, K.Name,
                                   editKindName(E.Site.Kind), E.Site.Id,
                                   E.Description)
                               .str();
        if (W[I].Equivalent) {
          ++T.Equiv;
          if (O.Code == 0) {
            ++T.EquivAccepted;
            line("EQUIVALENT-ACCEPTED " + Head);
          } else {
            std::string L = "EQUIVALENT-REJECTED " + Head + "\n    oracle: " +
                            (O.Code == 1   ? "not equivalent: "
                             : O.Code == 2 ? "cannot decide: "
                                           : "error: ") +
                            firstLine(O.Summary) + keep(E, K.Name);
            Rejected.push_back(L);
            line(L);
          }
          continue;
        }
        ++T.Mutants;
        auto &BK = T.ByKind[editKindName(E.Site.Kind)];
        ++BK[0];
        if (O.Code != 0) {
          ++BK[1];
          if (O.Code == 1)
            ++T.KilledNE;
          else if (O.Code == 2)
            ++T.KilledCD;
          else
            ++T.KilledOther;
          line(formatv("KILLED({0}) {1}\n    {2}",
                       O.Code == 1   ? "not-equivalent"
                       : O.Code == 2 ? "cannot-decide"
                       : O.Code == 4 ? "timeout"
                                     : "crash",
                       Head, firstLine(O.Summary)));
          continue;
        }
        ++BK[2];
        ++T.Survived;
        bool Reached = E.Site.Id >= 0 && Cov.count(uint64_t(E.Site.Id));
        std::string Why;
        if (E.Site.Id >= 0 && !Reached) {
          ++T.SurvUnreached;
          Why = "unreached: the mutated instruction is not executed by any "
                "input (dead code, or reachable only under launches/values "
                "the inputs do not cover)";
        } else if (std::string D = (*Mut)->explainSurvivor(E.Site); !D.empty()) {
          ++T.SurvDead;
          Why = D;
        } else if (const Review *Rv = reviewed(F, K.Name, E.Site)) {
          if (Rv->Equivalent) {
            ++T.SurvReviewedEq;
            Why = "reviewed " + Rv->Reason;
          } else {
            ++T.SurvUnexplained;
            Why = "reviewed oracle miss, " + Rv->Reason;
          }
        } else {
          ++T.SurvUnexplained;
          Why = "UNEXPLAINED: reached by the inputs, yet no output differs";
        }
        std::string L = "SURVIVED " + Head + "\n    " + Why + keep(E, K.Name);
        Survivors.push_back(L);
        line(L);
      }
      outs() << formatv(
          "{0} {1}: {2} inputs{12}, {3} mutants: {4} killed, {5} "
          "survived ({6} unreached, {7} dead result, {11} "
          "reviewed equivalent, {8} unexplained); equivalent "
          "rewrites {9}/{10} accepted\n",
          F, K.Name, (*Ref)->inputs().size(), T.Mutants, T.Mutants - T.Survived,
          T.Survived, T.SurvUnreached, T.SurvDead, T.SurvUnexplained,
          T.EquivAccepted, T.Equiv, T.SurvReviewedEq,
          Opts.Specs.empty() ? std::string()
                             : formatv(" ({0} of {1} matching specs)", NSpecs,
                                       Opts.Specs.size())
                                   .str());
      outs().flush();
      All.add(T);
    }
  }

  double Secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - T0).count();
  unsigned Killed = All.Mutants - All.Survived;
  unsigned Considered =
      All.Mutants - All.SurvUnreached - All.SurvDead - All.SurvReviewedEq;
  double RateAll = All.Mutants ? 100.0 * Killed / All.Mutants : 100.0;
  double RateReached = Considered ? 100.0 * Killed / Considered : 100.0;
  double EqRate = All.Equiv ? 100.0 * All.EquivAccepted / All.Equiv : 100.0;
  outs() << "\n== survivors\n";
  for (const std::string &S : Survivors)
    outs() << S << "\n";
  if (!Rejected.empty()) {
    outs() << "\n== known-equivalent rewrites the oracle did not accept\n";
    for (const std::string &S : Rejected)
      outs() << S << "\n";
  }
  if (Lib->size()) {
    outs() << formatv("\n== specs ({0} in --spec-dir): {1} kernels matched, "
                      "{2} spec inputs run, {3} failed (misfit or K0 fails)\n",
                      Lib->size(), SpecKernels, SpecInputs,
                      SpecFailures.size());
    for (const std::string &S : SpecFailures)
      outs() << S << "\n";
  }
  outs() << "\n== per kind (mutants, killed, survived)\n";
  for (auto &[K, V] : All.ByKind)
    outs() << formatv("  {0,-15} {1,6} {2,6} {3,6}\n", K, V[0], V[1], V[2]);
  outs() << formatv(
      "\n== summary ({0} kernels, {1} skipped because the oracle cannot run "
      "K0; {2:f1} s)\n"
      "mutants: {3} (not applicable sites skipped: {4})\n"
      "  killed: {5} (not equivalent {6}, cannot decide {7}, crash/timeout "
      "{8})\n"
      "  survived: {9} (unreached {10}, dead result {11}, reviewed "
      "equivalent {18}, not equivalent or unexplained {12})\n"
      "kill rate: {13:f2}% of all mutants; {14:f2}% of mutants that are "
      "reached and not shown equivalent (statically or by review)\n"
      "known-equivalent rewrites: {15}, accepted {16} ({17:f1}%)\n",
      All.KernelsRun, All.KernelsSkipped, Secs, All.Mutants, All.NotApplicable,
      Killed, All.KilledNE, All.KilledCD, All.KilledOther, All.Survived,
      All.SurvUnreached, All.SurvDead, All.SurvUnexplained, RateAll,
      RateReached, All.Equiv, All.EquivAccepted, EqRate, All.SurvReviewedEq);
  bool Pass = RateReached >= MinKillRate && All.EquivAccepted == All.Equiv;
  outs() << (Pass ? "PASS" : "FAIL") << formatv(" (required: kill rate >= "
                                                "{0}%, every equivalent "
                                                "rewrite accepted)\n",
                                                MinKillRate);
  return Pass ? 0 : 1;
}
