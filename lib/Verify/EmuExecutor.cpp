//===- EmuExecutor.cpp - The CPU emulator as an executor ------------------===//

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/Verify/Capture.h"
#include "asmevo/Verify/Executor.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cassert>
#include <cstring>
#include <list>
#include <mutex>

using namespace llvm;

namespace asmevo {
namespace verify {

Executor::~Executor() = default;

std::string hexAddr(uint64_t A) { return formatv("{0:x}", A).str(); }

bool ApproxLog::sameQuestions(const ApproxLog &A, const ApproxLog &B,
                              std::string &Why) {
  auto It = A.Lanes.begin(), Jt = B.Lanes.begin();
  auto laneName = [](const std::array<uint64_t, 3> &L) {
    return formatv("workgroup #{0} wave {1} lane {2}", L[0], L[1], L[2]).str();
  };
  while (It != A.Lanes.end() || Jt != B.Lanes.end()) {
    if (Jt == B.Lanes.end() || (It != A.Lanes.end() && It->first < Jt->first)) {
      Why = formatv("only K0 evaluates approximate operations in {0} ({1})",
                    laneName(It->first), It->second.size())
                .str();
      return false;
    }
    if (It == A.Lanes.end() || Jt->first < It->first) {
      Why = formatv("only K1 evaluates approximate operations in {0} ({1})",
                    laneName(Jt->first), Jt->second.size())
                .str();
      return false;
    }
    std::vector<uint64_t> X = It->second, Y = Jt->second;
    std::sort(X.begin(), X.end());
    std::sort(Y.begin(), Y.end());
    if (X != Y) {
      Why = formatv("in {0} K0 evaluates {1} approximate operations, K1 {2}, "
                    "on operands that differ",
                    laneName(It->first), X.size(), Y.size())
                .str();
      return false;
    }
    ++It;
    ++Jt;
  }
  return true;
}

namespace {

uint64_t mix64(uint64_t X) {
  X += 0x9e3779b97f4a7c15ull;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return X ^ (X >> 31);
}

/// Logs approximate operations and perturbs their results; memory accesses
/// are plain lookups (no region is mapped during the run). A perturbed run
/// keeps the D16 rule it is given: the oracle tries each admissible rule in
/// a run of its own, so that a failure names the one K0 depends on (until
/// session 13 a perturbed run also kept the D16 halves, and the D16
/// dependence of hipSPARSELt's kernels was blamed on the perturbation).
class RunObserver : public emu::Memory::Observer {
public:
  RunObserver(ApproxLog *Log, uint64_t Salt, uint64_t Poison,
              SparsePager *Pager, bool KeepD16, uint64_t UnspecSeed)
      : Log(Log), Salt(Salt), Poison(Poison), Pager(Pager), KeepD16(KeepD16),
        UnspecSeed(UnspecSeed) {}
  uint64_t poisonSeed() override { return Poison; }
  bool keepD16Unused() override { return KeepD16; }
  uint64_t unspecifiedSeed() override { return UnspecSeed; }
  emu::Region *access(emu::Memory &M, uint64_t Addr, uint64_t Len,
                      bool) override {
    return Pager ? Pager->access(M, Addr, Len) : M.find(Addr, Len);
  }
  uint32_t approx(uint64_t WG, unsigned Wave, unsigned Lane,
                  uint64_t Key) override {
    if (Log) {
      std::lock_guard<std::mutex> L(Mu);
      Log->Lanes[{WG, Wave, Lane}].push_back(Key);
      ++Log->Total;
    }
    if (!Salt)
      return 0;
    return 1u + uint32_t(mix64(Salt ^ mix64(Key)) & 1);
  }

private:
  ApproxLog *Log;
  uint64_t Salt, Poison;
  SparsePager *Pager;
  bool KeepD16;
  uint64_t UnspecSeed;
  std::mutex Mu;
};

class EmulatorExecutor : public Executor {
  struct Loaded {
    std::string Bytes;
    std::string Key; // DispatchImage::CodeObjectKey, may be empty
    std::unique_ptr<CodeObject> CO;
    std::unique_ptr<emu::Emulator> Emu;
  };
  std::list<Loaded> Cache; // most recent first
  std::mutex Mu;

  Expected<Loaded *> load(ArrayRef<uint8_t> Bytes, StringRef Key) {
    StringRef B(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
    for (auto It = Cache.begin(); It != Cache.end(); ++It)
      if (It->Bytes.size() == B.size() &&
          (!Key.empty() && !It->Key.empty() ? It->Key == Key
                                            : It->Bytes == B)) {
        if (It->Key.empty())
          It->Key = Key.str();
        Cache.splice(Cache.begin(), Cache, It);
        return &Cache.front();
      }
    assert((Key.empty() || Key == sha256Hex(Bytes)) &&
           "CodeObjectKey is not the code object's SHA-256");
    Cache.emplace_front();
    Loaded &L = Cache.front();
    L.Bytes = B.str();
    L.Key = Key.str();
    auto CO = CodeObject::parse(
        MemoryBuffer::getMemBuffer(L.Bytes, "code object", false),
        "code object");
    if (!CO) {
      Cache.pop_front();
      return CO.takeError();
    }
    L.CO = std::move(*CO);
    auto E = emu::Emulator::create(*L.CO);
    if (!E) {
      Cache.pop_front();
      return E.takeError();
    }
    L.Emu = std::move(*E);
    if (Cache.size() > 4)
      Cache.pop_back();
    return &Cache.front();
  }

public:
  StringRef name() const override { return "emulator"; }

  Expected<ExecResult> run(const DispatchImage &Img,
                           const ExecOptions &Opts) override {
    if (Opts.TimeReps)
      return createStringError(
          "the emulator executor does not measure time: use the HIP executor "
          "on a GPU, or the cost model (asmevo-profile) for modelled time");
    std::lock_guard<std::mutex> Lock(Mu);
    auto LOr = load(Img.CodeObject, Img.CodeObjectKey);
    if (!LOr)
      return LOr.takeError();
    Loaded &L = **LOr;
    const KernelInfo *K = L.CO->kernel(Img.Kernel);
    if (!K)
      return createStringError("no kernel '" + Img.Kernel +
                               "' in the code object");
    SparsePager Pager;
    for (const MemRegion &R : Img.Regions)
      if (R.Sparse && R.K == MemRegion::Buffer)
        Pager.add(R.Base, R.Perms, R.Name, R.Sparse);
    ExecResult Res;
    emu::RunResult RR;
    auto mapRegions = [&](emu::Memory &Mem) -> Error {
      if (Error E = L.Emu->mapCodeObject(Mem))
        return E;
      for (const MemRegion &R : Img.Regions) {
        if (R.Sparse && R.K == MemRegion::Buffer)
          continue;
        auto M = Mem.map(R.Base, R.Size ? R.Size : 1,
                         R.K == MemRegion::Guard ? 0 : R.Perms, R.Name);
        if (!M)
          return createStringError("cannot map " + R.Name + ": " +
                                   toString(M.takeError()));
        if (!R.Size)
          (*M)->Size = 0;
        if (R.K != MemRegion::Guard && !R.Data.empty())
          std::memcpy((*M)->Data.data(), R.Data.data(),
                      std::min<size_t>(R.Data.size(), R.Size));
      }
      return Error::success();
    };
    auto runOnce = [&](emu::Memory &Mem) {
      Res = ExecResult();
      RunObserver Obs(Opts.LogApprox ? &Res.Approx : nullptr, Opts.ApproxSalt,
                      Opts.PoisonSeed, Pager.empty() ? nullptr : &Pager,
                      Opts.KeepD16Unused, Opts.UnspecifiedSeed);
      if (Opts.LogApprox || Opts.ApproxSalt || Opts.PoisonSeed ||
          Opts.KeepD16Unused || Opts.UnspecifiedSeed || !Pager.empty())
        Mem.Obs = &Obs;
      emu::RunOptions RO;
      // The pager maps regions during the run: one host thread.
      RO.Threads = Pager.empty() ? Opts.Threads : 1;
      RO.Budget = Opts.Budget;
      RO.Profile = Opts.Profile;
      if (Opts.InterleaveEvery) {
        RO.InterleaveEvery = Opts.InterleaveEvery;
        RO.InterleaveAtomics = true;
      }
      emu::RunResult Run = L.Emu->run(*K, Img.Launch, Mem, RO);
      Mem.Obs = nullptr;
      return Run;
    };
    auto MemOr = runWithSparsePages(Pager, mapRegions, runOnce, RR);
    if (!MemOr)
      return MemOr.takeError();
    emu::Memory &Mem = **MemOr;
    Res.Kind = RR.Kind;
    Res.Message = RR.Message;
    Res.ApproximateOps = RR.ApproximateOps;
    Res.D16UnspecifiedLoads = RR.D16UnspecifiedLoads;
    Res.UnspecifiedResults = RR.UnspecifiedResults;
    Res.WaveInstructions = RR.WaveInstructions;
    Res.Seconds = RR.Seconds;
    Res.Profile = std::move(RR.Profile);
    for (const MemRegion &R : Img.Regions) {
      MemRegion Out;
      Out.Base = R.Base;
      Out.Size = R.Size;
      Out.Perms = R.Perms;
      Out.K = R.K;
      Out.Arg = R.Arg;
      Out.Name = R.Name;
      Out.Sparse = R.Sparse;
      if (R.Sparse && R.K == MemRegion::Buffer)
        Out.Pages = Pager.pages(Mem, R.Base);
      else if (R.K != MemRegion::Guard)
        if (emu::Region *M = Mem.at(R.Base))
          Out.Data.assign(M->Data.begin(),
                          M->Data.begin() + std::min<size_t>(R.Size, M->Data.size()));
      Res.Regions.push_back(std::move(Out));
    }
    for (const ElfSegment &S : L.CO->segments()) {
      if (S.Type != 1 /*PT_LOAD*/ || !S.MemSize || !(S.Flags & 2 /*PF_W*/))
        continue;
      emu::Region *M = Mem.at(L.Emu->loadBase() + S.VAddr);
      if (!M)
        continue;
      MemRegion Out;
      Out.Base = M->Base;
      Out.Size = M->Size;
      Out.Perms = M->Perms;
      Out.K = MemRegion::Segment;
      Out.Name = formatv("writable segment at {0:x}", S.VAddr).str();
      Out.Data = M->Data;
      Res.Regions.push_back(std::move(Out));
    }
    return Res;
  }
};

} // namespace

std::unique_ptr<Executor> createEmulatorExecutor() {
  return std::make_unique<EmulatorExecutor>();
}

} // namespace verify
} // namespace asmevo
