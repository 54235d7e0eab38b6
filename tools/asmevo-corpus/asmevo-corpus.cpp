//===- asmevo-corpus.cpp - The round-trip gate over many code objects -----===//
//
// asmevo-corpus [--manifest corpus/manifest.txt] [FILE...] [--arch LIST]
//               [--jobs N] [--timeout SEC] [--show N]
//
// Each object is checked in a child process (fork), so a crash or a hang in
// one object is counted as that object's failure and the run goes on.
// Prints objects, kernels, instructions, identical kernels and failures by
// reason (numbers and names folded so that alike failures group).
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/CodeObject/Compare.h"
#include "asmevo/CodeObject/Emit.h"
#include "asmevo/CodeObject/Recover.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;
using namespace asmevo;

static cl::OptionCategory Cat("asmevo-corpus options");
static cl::list<std::string> Files(cl::Positional, cl::desc("<code objects>"),
                                   cl::cat(Cat));
static cl::opt<std::string>
    Manifest("manifest",
             cl::desc("A corpus manifest (utils/fetch-rocm-corpus.sh): "
                      "path<TAB>arch<TAB>..., paths relative to its folder"),
             cl::cat(Cat));
static cl::opt<std::string> Archs("arch",
                                  cl::desc("Comma-separated processors to "
                                           "check (default: gfx942,gfx90a)"),
                                  cl::init("gfx942,gfx90a"), cl::cat(Cat));
static cl::opt<unsigned> Jobs("jobs", cl::desc("Objects checked at once"),
                              cl::init(2), cl::cat(Cat));
static cl::opt<unsigned> Timeout("timeout",
                                 cl::desc("Seconds per object before it "
                                          "counts as a hang"),
                                 cl::init(300), cl::cat(Cat));
static cl::opt<unsigned> Show("show",
                              cl::desc("Example objects listed per failure "
                                       "reason"),
                              cl::init(3), cl::cat(Cat));
static cl::opt<unsigned> Limit("limit",
                               cl::desc("Check at most N objects (0: all)"),
                               cl::init(0), cl::cat(Cat));

namespace {

/// The name after each "Word " (up to a space or a colon) replaced by With,
/// left to right, never looking at what was put in (re-matching the result
/// with a regex looped forever: "function F" matches "function [^ :]+").
/// A plain lowercase word is English ("the function at ..."), not a name.
std::string foldWordAfter(StringRef S, StringRef Word, StringRef With) {
  std::string Out;
  for (size_t P; (P = S.find(Word)) != StringRef::npos;) {
    Out += S.take_front(P + Word.size());
    S = S.drop_front(P + Word.size());
    size_t End = std::min(S.find_first_of(" :"), S.size());
    StringRef Name = S.take_front(End);
    bool English = llvm::all_of(Name.ltrim('('),
                                [](char C) { return C >= 'a' && C <= 'z'; });
    if (End && !English) {
      Out += With;
      S = S.drop_front(End);
    }
  }
  return Out + S.str();
}

/// Numbers, addresses and quoted names folded, so alike failures group.
std::string foldReason(StringRef Msg) {
  std::string S = Msg.str();
  // Drop the file name prefix.
  size_t Colon = S.find(": ");
  if (Colon != std::string::npos && S.substr(0, Colon).find('/') != std::string::npos)
    S = S.substr(Colon + 2);
  static Regex Hex("0x[0-9a-fA-F]+|\\b[0-9a-f]*[0-9][0-9a-f]*\\b");
  S = foldWordAfter(S, "kernel ", "K");
  S = foldWordAfter(S, "function ", "F");
  std::string Out;
  for (size_t I = 0; I < S.size();) {
    SmallVector<StringRef, 1> M;
    if (Hex.match(StringRef(S).drop_front(I), &M) &&
        M[0].data() == S.data() + I) {
      Out += "N";
      I += M[0].size();
    } else {
      Out += S[I++];
    }
  }
  return Out;
}

/// The child's work: one line per outcome, written to Fd.
void checkOne(const std::string &Path, int Fd) {
  std::string Out;
  raw_string_ostream OS(Out);
  auto COOrErr = CodeObject::load(Path);
  if (!COOrErr) {
    OS << "O 0 0 0\nR 1 " << toString(COOrErr.takeError()) << "\n";
  } else {
    const CodeObject &CO = **COOrErr;
    unsigned Kernels = CO.kernels().size();
    mlir::MLIRContext Ctx;
    Ctx.disableMultithreading();
    RecoverStats RS;
    auto OpOrErr = recoverCodeObject(Ctx, CO, &RS);
    if (!OpOrErr) {
      OS << "O " << Kernels << " 0 0\nR " << std::max(1u, Kernels) << " "
         << toString(OpOrErr.takeError()) << "\n";
    } else {
      auto BytesOrErr = emitCodeObject(**OpOrErr);
      if (!BytesOrErr) {
        OS << "O " << Kernels << " " << RS.Instructions << " 0\nR "
           << std::max(1u, Kernels) << " emission: "
           << toString(BytesOrErr.takeError()) << "\n";
      } else {
        auto Emitted = CodeObject::parse(
            MemoryBuffer::getMemBuffer(
                StringRef(reinterpret_cast<const char *>(BytesOrErr->data()),
                          BytesOrErr->size()),
                "emitted", false),
            "emitted");
        if (!Emitted) {
          OS << "O " << Kernels << " " << RS.Instructions << " 0\nR "
             << std::max(1u, Kernels) << " emitted object does not parse: "
             << toString(Emitted.takeError()) << "\n";
        } else {
          auto Diffs = compareCodeObjects(CO, **Emitted);
          std::set<std::string> Bad;
          for (const ObjectDifference &D : Diffs)
            Bad.insert(D.Kernel);
          unsigned Identical = Kernels - std::min<unsigned>(Kernels, Bad.size());
          OS << "O " << Kernels << " " << RS.Instructions << " " << Identical
             << "\n";
          std::set<std::string> Seen;
          for (const ObjectDifference &D : Diffs)
            if (Seen.insert(D.Kernel).second)
              OS << "R 1 " << D.What << " differs: " << D.Detail << "\n";
          if (RS.RawWords)
            OS << "W raw words kept (undecodable bytes)\n";
          // Functions that can only be copied in place, by folded reason.
          for (mlir::Operation &Fn : (*OpOrErr)->getBodyBlock())
            if (auto Why = Fn.getAttrOfType<mlir::StringAttr>("not_relocatable"))
              OS << "N " << foldReason(Why.getValue()) << "\n";
        }
      }
    }
  }
  OS.flush();
  size_t Done = 0;
  while (Done < Out.size()) {
    ssize_t N = write(Fd, Out.data() + Done, Out.size() - Done);
    if (N <= 0)
      break;
    Done += N;
  }
}

struct Running {
  pid_t Pid;
  int Fd;
  std::string Path;
  std::string Output;
  std::chrono::steady_clock::time_point Start;
};

struct Totals {
  unsigned Objects = 0, Kernels = 0, Identical = 0, FailedObjects = 0;
  uint64_t Instructions = 0;
  std::map<std::string, std::pair<unsigned, std::vector<std::string>>> Reasons;
  std::map<std::string, unsigned> Warnings;
  std::map<std::string, unsigned> NotRelocatable;
  unsigned NotRelocatableTotal = 0;
};

void account(Totals &T, const Running &R, int Status, bool TimedOut) {
  ++T.Objects;
  bool Reported = false, Failed = false;
  SmallVector<StringRef> Lines;
  StringRef(R.Output).split(Lines, '\n', -1, false);
  for (StringRef L : Lines) {
    if (L.consume_front("O ")) {
      SmallVector<StringRef, 3> F;
      L.split(F, ' ');
      if (F.size() == 3) {
        unsigned K = 0, Id = 0;
        uint64_t I = 0;
        F[0].getAsInteger(10, K);
        F[1].getAsInteger(10, I);
        F[2].getAsInteger(10, Id);
        T.Kernels += K;
        T.Instructions += I;
        T.Identical += Id;
        Reported = true;
      }
    } else if (L.consume_front("R ")) {
      auto [Count, Msg] = L.split(' ');
      unsigned N = 1;
      Count.getAsInteger(10, N);
      auto &Entry = T.Reasons[foldReason(Msg)];
      Entry.first += N;
      if (Entry.second.size() < Show)
        Entry.second.push_back(R.Path + ": " + Msg.str());
      Failed = true;
    } else if (L.consume_front("W ")) {
      ++T.Warnings[L.str()];
    } else if (L.consume_front("N ")) {
      ++T.NotRelocatable[L.str()];
      ++T.NotRelocatableTotal;
    }
  }
  if (!Reported || TimedOut ||
      !(WIFEXITED(Status) && WEXITSTATUS(Status) == 0)) {
    std::string Why =
        TimedOut ? formatv("timeout after {0} s", unsigned(Timeout)).str()
        : WIFSIGNALED(Status)
            ? formatv("crash (signal {0})", WTERMSIG(Status)).str()
            : "the checker exited without a result";
    auto &Entry = T.Reasons[Why];
    Entry.first += 1;
    if (Entry.second.size() < Show)
      Entry.second.push_back(R.Path);
    Failed = true;
  }
  if (Failed)
    ++T.FailedObjects;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Cat);
  cl::ParseCommandLineOptions(
      argc, argv,
      "asmevo-corpus: the round-trip gate (recover + emit + compare) over "
      "many code objects, each in its own process\n");
  std::vector<std::string> Paths(Files.begin(), Files.end());
  SmallVector<StringRef> Wanted;
  StringRef(Archs).split(Wanted, ',', -1, false);
  if (!Manifest.empty()) {
    auto Buf = MemoryBuffer::getFile(Manifest);
    if (!Buf) {
      errs() << "asmevo-corpus: error: " << Manifest << ": "
             << Buf.getError().message() << "\n";
      return 2;
    }
    StringRef Dir = sys::path::parent_path(Manifest);
    SmallVector<StringRef> Lines;
    (*Buf)->getBuffer().split(Lines, '\n', -1, false);
    for (StringRef L : Lines) {
      if (L.starts_with("#"))
        continue;
      SmallVector<StringRef, 6> F;
      L.split(F, '\t');
      if (F.size() < 2 || !is_contained(Wanted, F[1]))
        continue;
      SmallString<256> P(Dir);
      sys::path::append(P, F[0]);
      Paths.push_back(P.str().str());
    }
  }
  if (Limit && Paths.size() > Limit)
    Paths.resize(Limit);
  if (Paths.empty()) {
    errs() << "asmevo-corpus: error: no code objects to check\n";
    return 2;
  }

  Totals T;
  std::vector<Running> Active;
  size_t Next = 0;
  auto Start = std::chrono::steady_clock::now();
  while (Next < Paths.size() || !Active.empty()) {
    while (Next < Paths.size() && Active.size() < std::max(1u, unsigned(Jobs))) {
      int P[2];
      if (pipe(P) != 0) {
        perror("pipe");
        return 2;
      }
      pid_t Pid = fork();
      if (Pid == 0) {
        close(P[0]);
        checkOne(Paths[Next], P[1]);
        close(P[1]);
        _exit(0);
      }
      close(P[1]);
      Active.push_back({Pid, P[0], Paths[Next], "", std::chrono::steady_clock::now()});
      ++Next;
    }
    std::vector<pollfd> Fds;
    for (Running &R : Active)
      Fds.push_back({R.Fd, POLLIN, 0});
    poll(Fds.data(), Fds.size(), 1000);
    for (size_t I = 0; I < Active.size();) {
      Running &R = Active[I];
      bool Closed = false;
      if (Fds[I].revents & (POLLIN | POLLHUP)) {
        char Buf[4096];
        ssize_t N = read(R.Fd, Buf, sizeof(Buf));
        if (N > 0)
          R.Output.append(Buf, N);
        else
          Closed = true;
      }
      bool TimedOut = std::chrono::steady_clock::now() - R.Start >
                      std::chrono::seconds(Timeout);
      if (TimedOut && !Closed)
        kill(R.Pid, SIGKILL);
      if (Closed || TimedOut) {
        int Status = 0;
        waitpid(R.Pid, &Status, 0);
        close(R.Fd);
        account(T, R, Status, TimedOut && !Closed);
        Fds.erase(Fds.begin() + I);
        Active.erase(Active.begin() + I);
        if (T.Objects % 100 == 0)
          errs() << formatv("asmevo-corpus: {0}/{1} objects\n", T.Objects,
                            Paths.size());
        continue;
      }
      ++I;
    }
  }
  double Secs = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                              Start)
                    .count();
  unsigned FailedKernels = T.Kernels - T.Identical;
  outs() << formatv("objects:      {0} ({1} with failures)\n", T.Objects,
                    T.FailedObjects);
  outs() << formatv("kernels:      {0}\n", T.Kernels);
  outs() << formatv("instructions: {0}\n", T.Instructions);
  outs() << formatv("identical:    {0} kernels ({1:P3})\n", T.Identical,
                    T.Kernels ? double(T.Identical) / T.Kernels : 1.0);
  outs() << formatv("failed:       {0} kernels\n", FailedKernels);
  outs() << formatv("time:         {0:F1} s ({1:F0} instructions/s)\n", Secs,
                    T.Instructions / std::max(Secs, 1e-9));
  if (!T.Reasons.empty()) {
    outs() << "failures by reason (kernels or objects: reason):\n";
    std::vector<std::pair<unsigned, std::string>> Sorted;
    for (auto &[Reason, Entry] : T.Reasons)
      Sorted.push_back({Entry.first, Reason});
    llvm::sort(Sorted, std::greater<>());
    for (auto &[N, Reason] : Sorted) {
      outs() << formatv("  {0,6}: {1}\n", N, Reason);
      for (const std::string &Ex : T.Reasons[Reason].second)
        outs() << "          e.g. " << Ex << "\n";
    }
  }
  for (auto &[W, N] : T.Warnings)
    outs() << formatv("note: {0} objects: {1}\n", N, W);
  if (T.NotRelocatableTotal) {
    outs() << formatv("functions only copied in place (not relocatable): "
                      "{0}, by reason:\n",
                      T.NotRelocatableTotal);
    std::vector<std::pair<unsigned, std::string>> Sorted;
    for (auto &[Reason, N] : T.NotRelocatable)
      Sorted.push_back({N, Reason});
    llvm::sort(Sorted, std::greater<>());
    for (auto &[N, Reason] : llvm::make_range(
             Sorted.begin(), Sorted.begin() + std::min<size_t>(Sorted.size(), 12)))
      outs() << formatv("  {0,6}: {1}\n", N, Reason);
  }
  return T.Reasons.empty() ? 0 : 1;
}
