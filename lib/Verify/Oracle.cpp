//===- Oracle.cpp - Reference runs of K0 and the verdict for K1 -----------===//

#include "Internal.h"

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/Verify/Capture.h"
#include "asmevo/Verify/Spec.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/StringExtras.h"

#include <set>

using namespace llvm;

namespace asmevo {
namespace verify {

//===----------------------------------------------------------------------===//
// Resource facts
//===----------------------------------------------------------------------===//

std::vector<std::string> checkCompatibility(const KernelInfo &K0,
                                            const KernelInfo &K1) {
  std::vector<std::string> P;
  if (!K0.Meta || !K1.Meta) {
    if (!K1.Meta && K0.Meta)
      P.push_back("K1's kernel has no metadata");
    return P;
  }
  const KernelMetadata &M0 = *K0.Meta, &M1 = *K1.Meta;
  std::vector<const KernelArgMetadata *> E0, E1;
  std::map<uint64_t, const KernelArgMetadata *> H0;
  for (const KernelArgMetadata &A : M0.Args)
    if (A.isHidden())
      H0[A.Offset] = &A;
    else
      E0.push_back(&A);
  for (const KernelArgMetadata &A : M1.Args)
    if (!A.isHidden())
      E1.push_back(&A);
  if (E0.size() != E1.size())
    P.push_back(formatv("K1 has {0} explicit arguments, K0 {1}", E1.size(),
                        E0.size()));
  for (size_t I = 0; I < E0.size() && I < E1.size(); ++I) {
    const KernelArgMetadata &A = *E0[I], &B = *E1[I];
    if (A.Offset != B.Offset || A.Size != B.Size || A.ValueKind != B.ValueKind ||
        A.AddressSpace != B.AddressSpace)
      P.push_back(formatv("explicit argument {0}: K0 {1} {2}@{3} ({4}), K1 "
                          "{5} {6}@{7} ({8})",
                          I, A.ValueKind, A.Size, A.Offset, A.AddressSpace,
                          B.ValueKind, B.Size, B.Offset, B.AddressSpace));
  }
  for (const KernelArgMetadata &B : M1.Args) {
    if (!B.isHidden())
      continue;
    auto It = H0.find(B.Offset);
    if (It == H0.end() || It->second->ValueKind != B.ValueKind ||
        It->second->Size != B.Size)
      P.push_back(formatv("K1 uses hidden argument {0} ({1} bytes at offset "
                          "{2}), which K0's kernarg layout does not provide "
                          "there",
                          B.ValueKind, B.Size, B.Offset));
  }
  if (M1.KernargSegmentSize > M0.KernargSegmentSize)
    P.push_back(formatv("K1's kernarg segment is {0} bytes, K0's {1}",
                        M1.KernargSegmentSize, M0.KernargSegmentSize));
  if (K1.KD.GroupSegmentFixedSize > K0.KD.GroupSegmentFixedSize ||
      M1.GroupSegmentFixedSize > M0.GroupSegmentFixedSize)
    P.push_back(formatv("K1 needs {0} bytes of static LDS, K0 {1}: launches "
                        "valid for K0 could fail",
                        std::max<uint64_t>(K1.KD.GroupSegmentFixedSize,
                                           M1.GroupSegmentFixedSize),
                        K0.KD.GroupSegmentFixedSize));
  uint32_t F0 = M0.MaxFlatWorkgroupSize ? M0.MaxFlatWorkgroupSize : 1024;
  uint32_t F1 = M1.MaxFlatWorkgroupSize ? M1.MaxFlatWorkgroupSize : 1024;
  if (F1 < F0)
    P.push_back(formatv("K1's max_flat_workgroup_size {0} < K0's {1}", F1, F0));
  if (M1.ReqdWorkgroupSize && M1.ReqdWorkgroupSize != M0.ReqdWorkgroupSize)
    P.push_back("K1 requires a workgroup size K0 does not");
  if (M1.WavefrontSize != M0.WavefrontSize)
    P.push_back(formatv("wavefront size {0} vs {1}", M1.WavefrontSize,
                        M0.WavefrontSize));
  if (M1.UniformWorkGroupSize && !M0.UniformWorkGroupSize)
    P.push_back("K1 requires uniform workgroup sizes, K0 does not");
  if (K1.KD.enableWavefrontSize32() != K0.KD.enableWavefrontSize32())
    P.push_back("descriptor wave32 bit differs");
  return P;
}

//===----------------------------------------------------------------------===//
// Reference
//===----------------------------------------------------------------------===//

struct Reference::Impl {
  OracleOptions Opts;
  std::shared_ptr<const ParsedCodeObject> K0Obj;
  const CodeObject &k0() const { return K0Obj->object(); }
  const KernelInfo *Kernel = nullptr;
  std::unique_ptr<Executor> OwnExec;
  Executor *Exec = nullptr;
  std::vector<TestInput> Inputs;
  std::vector<ExecResult> R0, R0Salted; // per input
  // Per input: K0 with the unused half of its D16 loads kept, when it runs
  // D16 loads whose unused half is not specified (SRAM ECC on or any).
  std::vector<std::optional<ExecResult>> R0KeptD16;
  // Per input: K0 under the second choice of the results the hardware does
  // not specify, when it computes any (ExecOptions::UnspecifiedSeed).
  std::vector<std::optional<ExecResult>> R0Unspec2;
  std::vector<std::string> Notes;
  std::vector<std::string> SpecFailures;
  std::optional<Evidence> Undecidable;
  std::map<uint64_t, uint64_t> Coverage;

  ExecOptions execOptions(const TestInput &In, uint64_t Salt, uint64_t Budget,
                          bool Profile) const {
    ExecOptions E;
    E.PoisonSeed = In.PoisonSeed;
    E.Threads = 1;
    E.Budget = Budget;
    E.ApproxSalt = Salt;
    E.UnspecifiedSeed = UnspecifiedSeeds[0];
    E.LogApprox = true;
    E.Profile = Profile;
    E.InterleaveEvery = In.InterleaveEvery;
    return E;
  }
};

Reference::Reference() : P(std::make_unique<Impl>()) {}
Reference::~Reference() = default;
ArrayRef<TestInput> Reference::inputs() const { return P->Inputs; }
ArrayRef<std::string> Reference::notes() const { return P->Notes; }
ArrayRef<std::string> Reference::specFailures() const {
  return P->SpecFailures;
}
const std::optional<Evidence> &Reference::undecidable() const {
  return P->Undecidable;
}
const std::map<uint64_t, uint64_t> &Reference::coverage() const {
  return P->Coverage;
}

static bool collidesWithEmulator(uint64_t Lo, uint64_t Hi) {
  // Code object, kernarg segment, dispatch packet and queue (run-spec.md),
  // and the LDS/private apertures.
  auto overlaps = [&](uint64_t A, uint64_t B) { return Lo < B && A < Hi; };
  return overlaps(emu::Emulator::CodeLoadBase,
                  emu::Emulator::CodeLoadBase + (1ull << 32)) ||
         overlaps(emu::Emulator::KernargBase,
                  emu::Emulator::KernargBase + (1ull << 24)) ||
         overlaps(emu::Emulator::SharedApertureBase,
                  emu::Emulator::PrivateApertureBase + (1ull << 32));
}

/// A spec's buffer (an argument's or an extra region) at Base, between two
/// guard regions of Guard bytes that no access may touch.
static void addGuardedBuffer(std::vector<MemRegion> &Out, uint64_t Base,
                             uint64_t Size, bool ReadOnly, int Arg,
                             const std::string &Name, std::vector<uint8_t> Data,
                             std::shared_ptr<const SparseFill> Sparse,
                             uint64_t Guard) {
  MemRegion G1, R, G2;
  G1.Base = Base - Guard;
  G1.Size = Guard;
  G1.K = MemRegion::Guard;
  G1.Perms = 0;
  G1.Arg = Arg;
  G1.Name = Name + " guard before";
  R.Base = Base;
  R.Size = Size;
  R.Perms = ReadOnly ? emu::PermRead : emu::PermRW;
  R.Arg = Arg;
  R.Name = Name;
  R.Data = std::move(Data);
  R.Sparse = std::move(Sparse);
  G2 = G1;
  G2.Base = Base + std::max<uint64_t>(Size, 1);
  G2.Name = Name + " guard after";
  Out.push_back(std::move(G1));
  Out.push_back(std::move(R));
  Out.push_back(std::move(G2));
}

static Expected<TestInput> specInput(const KernelInfo &K, StringRef Path,
                                     uint64_t Guard, StringRef ExecName) {
  auto S = loadSpec(Path, K);
  if (!S)
    return S.takeError();
  if (S->MemoryPointers && ExecName != "emulator")
    return createStringError(
        (Path +
         ": the spec stores pointers in memory (\"pointers\" on a "
         "buffer or region); the " +
         ExecName +
         " executor places buffers at its own addresses and does not "
         "relocate pointers inside them")
            .str());
  if (S->SparseBuffers && ExecName != "emulator")
    return createStringError(
        (Path + ": the spec has sparse buffers (\"sparse\": true); the " +
         ExecName +
         " executor allocates buffers whole and cannot map them when "
         "touched")
            .str());
  TestInput In;
  In.From = TestInput::Spec;
  In.PoisonSeed = 0x5bec0000ull ^ std::hash<std::string>()(Path.str());
  In.Name = "spec " + Path.str();
  In.Image.Kernel = K.Name;
  In.Image.Launch = S->Launch;
  padKernarg(In.Image.Launch.Kernarg, K.Meta ? K.Meta->KernargSegmentSize : 0);
  for (SpecBuffer &B : S->Buffers) {
    uint64_t Addr = specBufferAddress(B.ArgIndex);
    uint64_t Ptr = specBufferPointer(B);
    std::memcpy(In.Image.Launch.Kernarg.data() + B.KernargOffset, &Ptr, 8);
    uint64_t Size = B.size(); // before B.Data is moved out
    addGuardedBuffer(In.Image.Regions, Addr, Size, B.ReadOnly, int(B.ArgIndex),
                     formatv("arg{0}", B.ArgIndex).str(), std::move(B.Data),
                     B.Sparse, Guard);
    Footprint F;
    F.Arg = B.ArgIndex;
    F.Pointer = Addr;
    In.Footprints.push_back(F);
  }
  // Extra regions, reached through pointers the spec stored: guarded and
  // compared whole like argument buffers (no argument: offsets are from the
  // region's start).
  for (SpecRegion &SR : S->Regions) {
    uint64_t Size = SR.size(); // before SR.Data is moved out
    addGuardedBuffer(In.Image.Regions, SR.Address, Size, SR.ReadOnly,
                     /*Arg=*/-1, "region " + SR.Name, std::move(SR.Data),
                     SR.Sparse, Guard);
  }
  return In;
}

static Expected<TestInput> captureInput(const ParsedCodeObject &K0,
                                        StringRef Kernel, StringRef Path) {
  const CodeObject &K0Obj = K0.object();
  auto C = readCapture(Path);
  if (!C)
    return C.takeError();
  const std::string &Hash = K0.sha256();
  if (C->CodeObjectSha256 != Hash)
    return createStringError(
        (Path + ": wrong code object: the capture was recorded with code "
                "object sha256 " +
         C->CodeObjectSha256 + ", K0 has " + Hash)
            .str());
  if (C->Kernel != Kernel)
    return createStringError((Path + ": the capture is a dispatch of kernel '" +
                              C->Kernel + "', not '" + Kernel + "'")
                                 .str());
  const KernelInfo *K = K0Obj.kernel(Kernel);
  if (!K)
    return createStringError(
        (Path + ": K0 has no kernel '" + C->Kernel + "'").str());
  TestInput In;
  In.From = TestInput::Capture;
  In.PoisonSeed = 0xca970000ull ^ std::hash<std::string>()(Path.str());
  In.Name = "capture " + Path.str();
  In.Image.Kernel = C->Kernel;
  In.Image.Launch.Workgroups = C->Workgroups;
  In.Image.Launch.WorkgroupSize = C->WorkgroupSize;
  In.Image.Launch.DynamicLds = C->DynamicLds;
  In.Image.Launch.Kernarg = C->Kernarg;
  In.Image.Launch.FillHidden = true;
  padKernarg(In.Image.Launch.Kernarg, K->Meta ? K->Meta->KernargSegmentSize : 0);
  // Which explicit pointer argument points into which region.
  std::vector<std::pair<unsigned, uint64_t>> Ptrs;
  if (K->Meta) {
    unsigned E = 0;
    for (const KernelArgMetadata &A : K->Meta->Args) {
      if (A.isHidden())
        continue;
      unsigned I = E++;
      if (A.ValueKind == "global_buffer" && A.Offset + 8 <= C->Kernarg.size()) {
        uint64_t V;
        std::memcpy(&V, C->Kernarg.data() + A.Offset, 8);
        Ptrs.push_back({I, V});
      }
    }
  }
  for (const CaptureRegion &CR : C->Regions) {
    if (collidesWithEmulator(CR.Address, CR.Address + CR.Size))
      return createStringError(
          formatv("{0}: region {1} at {2:x} collides with the emulator's fixed "
                  "addresses (code object, kernarg, apertures): cannot replay",
                  Path, CR.Name, CR.Address)
              .str());
    MemRegion R;
    R.Base = CR.Address;
    R.Size = CR.Size;
    R.Perms = (CR.Readable ? emu::PermRead : 0) | (CR.Writable ? emu::PermWrite : 0);
    R.Name = CR.Name.empty() ? formatv("region {0:x}", CR.Address).str() : CR.Name;
    R.Data = CR.Before;
    for (auto [I, V] : Ptrs)
      if (V >= CR.Address && V - CR.Address < std::max<uint64_t>(CR.Size, 1)) {
        R.Arg = int(I);
        R.Name += formatv(" (arg{0})", I).str();
        Footprint F;
        F.Arg = I;
        F.Pointer = V;
        In.Footprints.push_back(F);
        break;
      }
    In.Image.Regions.push_back(std::move(R));
    In.RecordedAfter.push_back(CR.HasAfter ? CR.After : std::vector<uint8_t>());
  }
  return In;
}

/// "" when two runs left the same bytes in every region, else where they
/// first differ.
static std::string firstDifference(ArrayRef<MemRegion> A,
                                   ArrayRef<MemRegion> B) {
  if (A.size() != B.size())
    return formatv("{0} regions after the first run, {1} after the second",
                   A.size(), B.size())
        .str();
  for (size_t K = 0; K < A.size(); ++K) {
    if (A[K].Pages != B[K].Pages)
      return formatv("{0}: the runs touched different pages or left "
                     "different bytes in them",
                     A[K].Name)
          .str();
    const std::vector<uint8_t> &X = A[K].Data, &Y = B[K].Data;
    if (X == Y)
      continue;
    size_t Off = 0;
    while (Off < X.size() && Off < Y.size() && X[Off] == Y[Off])
      ++Off;
    return formatv("{0} differs at byte {1} (address {2:x}): 0x{3:x-2} then "
                   "0x{4:x-2}",
                   A[K].Name, Off, A[K].Base + Off, Off < X.size() ? X[Off] : 0,
                   Off < Y.size() ? Y[Off] : 0)
        .str();
  }
  return "";
}

Expected<std::shared_ptr<const ParsedCodeObject>>
ParsedCodeObject::create(ArrayRef<uint8_t> Bytes, StringRef Name) {
  std::shared_ptr<ParsedCodeObject> P(new ParsedCodeObject());
  P->Bytes.assign(Bytes.begin(), Bytes.end());
  auto CO = CodeObject::parse(
      MemoryBuffer::getMemBuffer(
          StringRef(reinterpret_cast<const char *>(P->Bytes.data()),
                    P->Bytes.size()),
          Name, false),
      Name);
  if (!CO)
    return CO.takeError();
  P->Object = std::move(*CO);
  P->Sha256 = sha256Hex(P->Bytes);
  return std::shared_ptr<const ParsedCodeObject>(std::move(P));
}

ParsedCodeObject::~ParsedCodeObject() = default;

Expected<std::unique_ptr<Reference>>
Reference::create(ArrayRef<uint8_t> K0Bytes, StringRef Kernel,
                  const OracleOptions &Opts) {
  auto K0 = ParsedCodeObject::create(K0Bytes, "K0");
  if (!K0)
    return K0.takeError();
  return create(std::move(*K0), Kernel, Opts);
}

Expected<std::unique_ptr<Reference>>
Reference::create(std::shared_ptr<const ParsedCodeObject> K0, StringRef Kernel,
                  const OracleOptions &Opts) {
  std::unique_ptr<Reference> Ref(new Reference());
  Impl &I = *Ref->P;
  I.Opts = Opts;
  I.K0Obj = std::move(K0);
  I.Kernel = I.k0().kernel(Kernel);
  if (!I.Kernel)
    return createStringError(("K0 has no kernel '" + Kernel + "'").str());
  if (Opts.Exec) {
    I.Exec = Opts.Exec;
  } else {
    I.OwnExec = createEmulatorExecutor();
    I.Exec = I.OwnExec.get();
  }

  for (const std::string &S : Opts.Specs) {
    auto In = specInput(*I.Kernel, S, Opts.Tier1.GuardBytes, I.Exec->name());
    if (!In && Opts.DropFailingSpecs) {
      // A spec matched by name that does not fit the kernel (argument
      // count or sizes): reported, the kernel keeps its other inputs.
      I.SpecFailures.push_back("spec " + S + ": " + toString(In.takeError()));
      continue;
    }
    if (!In)
      return In.takeError();
    I.Inputs.push_back(std::move(*In));
  }
  for (const std::string &C : Opts.Captures) {
    auto In = captureInput(*I.K0Obj, Kernel, C);
    if (!In)
      return In.takeError();
    I.Inputs.push_back(std::move(*In));
  }
  if (Opts.Synthesize) {
    auto Syn = synthesizeInputs(I.k0(), *I.Kernel, Opts.Tier1, I.Notes);
    if (!Syn) {
      std::string Msg = toString(Syn.takeError());
      if (I.Inputs.empty()) {
        I.Undecidable = Evidence{"", "tier 1: " + Msg, ""};
        return Ref;
      }
      I.Notes.push_back("tier 1: " + Msg);
    } else {
      for (TestInput &T : *Syn)
        I.Inputs.push_back(std::move(T));
    }
  }
  if (I.Inputs.empty()) {
    I.Undecidable = Evidence{"", "no input to run", ""};
    return Ref;
  }

  // K0 on every input.
  std::vector<TestInput> Kept;
  for (TestInput &In : I.Inputs) {
    In.Image.CodeObject = I.K0Obj->bytes();
    In.Image.CodeObjectKey = I.K0Obj->sha256();
    auto R = I.Exec->run(In.Image, I.execOptions(In, 0, Opts.Budget, true));
    if (!R) {
      // The executor could not run the dispatch at all (no device, address
      // conflict, ...): nothing can be decided with it.
      I.Undecidable = Evidence{In.Name,
                               "the " + I.Exec->name().str() +
                                   " executor cannot run K0: " +
                                   toString(R.takeError()),
                               ""};
      return Ref;
    }
    if (!R->ok()) {
      bool Hard = R->Kind == emu::ErrorKind::Unsupported ||
                  R->Kind == emu::ErrorKind::Approximate;
      if (In.From == TestInput::Synthesized && !Hard) {
        I.Notes.push_back("dropped " + In.Name + ": K0 " + R->Message);
        continue;
      }
      if (In.From == TestInput::Spec && !Hard && Opts.DropFailingSpecs) {
        I.SpecFailures.push_back(In.Name + ": K0 " + R->Message);
        continue;
      }
      I.Undecidable =
          Evidence{In.Name,
                   std::string(Hard ? "the executor cannot run K0: "
                                    : "K0 itself fails on this input: ") +
                       R->Message,
                   ""};
      return Ref;
    }
    In.K0WaveInstructions = R->WaveInstructions;
    for (auto &[PC, N] : R->Profile)
      I.Coverage[PC] += N;
    R->Profile.clear();
    if (Kept.empty()) {
      // A verdict compares K1 with one run of K0, so that run must be
      // reproducible: run K0 again on the first input. A difference is the
      // executor's (or the kernel's) nondeterminism, e.g. state left from an
      // earlier run, and says nothing about K1.
      auto Again =
          I.Exec->run(In.Image, I.execOptions(In, 0, Opts.Budget, false));
      std::string Why;
      if (!Again)
        Why = toString(Again.takeError());
      else if (!Again->ok())
        Why = "the second run fails: " + Again->Message;
      else
        Why = firstDifference(R->Regions, Again->Regions);
      if (!Why.empty()) {
        I.Undecidable = Evidence{
            In.Name,
            "K0 is not deterministic on the " + I.Exec->name().str() +
                " executor: " + Why,
            "two runs of K0 on the same input differ; this is not a failure "
            "of the candidate: the executor (or K0, e.g. an unordered race) "
            "does not give one result to compare with"};
        return Ref;
      }
    }
    if (In.From == TestInput::Capture) {
      // Replaying K0 must reproduce the recorded after-state.
      size_t J = 0;
      for (const MemRegion &Reg : R->Regions) {
        if (J >= In.RecordedAfter.size())
          break;
        const std::vector<uint8_t> &Rec = In.RecordedAfter[J++];
        if (Rec.empty() && Reg.Size)
          continue; // not recorded
        if (Rec != Reg.Data) {
          size_t Off = 0;
          while (Off < Rec.size() && Off < Reg.Data.size() && Rec[Off] == Reg.Data[Off])
            ++Off;
          I.Undecidable = Evidence{
              In.Name,
              formatv("emulator infidelity: replaying K0 does not reproduce "
                      "the recorded after-state of {0} (first difference at "
                      "byte {1}, address {2:x}: recorded 0x{3:x-2}, replayed "
                      "0x{4:x-2})",
                      Reg.Name, Off, Reg.Base + Off,
                      Off < Rec.size() ? Rec[Off] : 0,
                      Off < Reg.Data.size() ? Reg.Data[Off] : 0)
                  .str(),
              "this is not a failure of the candidate: the executor does not "
              "model the dispatch faithfully (or the capture is not "
              "deterministic)"};
          return Ref;
        }
      }
    }
    // K0 once more under each other admissible rule it needs: a failure
    // drops a synthesized input and leaves any other one undecidable.
    bool Dropped = false;
    auto runK0Under = [&](bool Needed, const ExecOptions &EO,
                          StringRef Rule) -> std::optional<ExecResult> {
      if (!Needed || Dropped)
        return std::nullopt;
      auto S = I.Exec->run(In.Image, EO);
      if (S && S->ok())
        return std::move(*S);
      std::string Why = ("K0 fails " + Rule + ": ").str() +
                        (S ? S->Message : toString(S.takeError()));
      I.Notes.push_back("dropped " + In.Name + ": " + Why);
      if (In.From != TestInput::Synthesized)
        I.Undecidable = Evidence{In.Name, Why, ""};
      Dropped = true;
      return std::nullopt;
    };
    std::optional<ExecResult> Salted =
        runK0Under(R->Approx.Total,
                   I.execOptions(In, Opts.PerturbSalt, Opts.Budget, false),
                   "under perturbed approximate ops");
    // K0 runs D16 loads whose unused half the hardware does not specify
    // (SRAM ECC on or any): zeroed above. It runs again with the half
    // kept, as without SRAM ECC; K1 must match K0 under both rules.
    ExecOptions KO = I.execOptions(In, 0, Opts.Budget, false);
    KO.KeepD16Unused = true;
    std::optional<ExecResult> KeptD16 =
        runK0Under(R->D16UnspecifiedLoads && !Opts.AssumeD16ZeroFill, KO,
                   "with the unused half of its D16 loads kept (the rule "
                   "without SRAM ECC)");
    ExecOptions UO = I.execOptions(In, 0, Opts.Budget, false);
    UO.UnspecifiedSeed = UnspecifiedSeeds[1];
    std::optional<ExecResult> Unspec2 =
        runK0Under(R->UnspecifiedResults, UO,
                   "with other values for the results the hardware does not "
                   "specify");
    if (Dropped) {
      if (I.Undecidable)
        return Ref;
      continue;
    }
    if (Unspec2) {
      std::string Diff = firstDifference(R->Regions, Unspec2->Regions);
      if (!Diff.empty())
        I.Notes.push_back("K0's output on " + In.Name +
                          " depends on results the hardware does not "
                          "specify (" +
                          Diff +
                          "): K1 must compute them from the same operands");
    }
    I.R0.push_back(std::move(*R));
    I.R0Salted.push_back(Salted ? std::move(*Salted) : ExecResult());
    I.R0KeptD16.push_back(std::move(KeptD16));
    I.R0Unspec2.push_back(std::move(Unspec2));
    Kept.push_back(std::move(In));
  }
  I.Inputs = std::move(Kept);
  if (I.Inputs.empty())
    I.Undecidable = Evidence{"", "K0 fails on every input", ""};
  std::set<std::string> Approx;
  for (const ExecResult &R : I.R0)
    for (auto &[N, C] : R.ApproximateOps)
      Approx.insert(N);
  if (!Approx.empty()) {
    std::string S = "K0 executes approximate opcodes:";
    for (const std::string &N : Approx)
      S += " " + N;
    I.Notes.push_back(S);
  }
  uint64_t D16Loads = 0, Unspecified = 0;
  for (const ExecResult &R : I.R0) {
    D16Loads += R.D16UnspecifiedLoads;
    Unspecified += R.UnspecifiedResults;
  }
  if (Unspecified)
    I.Notes.push_back(formatv(
        "K0 executes {0} instruction(s) with results the hardware does not "
        "specify for their operands (SMFMAC rows with a non-increasing "
        "index pair): K1 is compared under two choices of them, each a "
        "function of the operands",
        Unspecified));
  if (D16Loads)
    I.Notes.push_back(formatv(
        "K0 executes {0} D16 load(s) whose unused half the hardware does "
        "not specify with SRAM ECC (the code object does not say "
        "sramecc-): {1}",
        D16Loads,
        Opts.AssumeD16ZeroFill
            ? "K1 is compared with it zeroed only (--assume-d16-zero-fill)"
            : "K1 is compared with it zeroed and with it kept"));
  return Ref;
}

/// Slots the loader relocated hold load addresses, which differ between K0
/// and K1 where emission moved code or data (RCCL's tables of function
/// addresses, a pointer in .data after .text grew). A slot at the same place
/// in both objects (symbol or data section, and offset) that still holds
/// what the loader wrote in both runs, pointing to the same symbol and
/// offset in both, gets K0's bytes in K1's copy; every other slot is
/// compared byte by byte.
static std::vector<MemRegion> alikeRelocatedSlots(const CodeObject &C0,
                                                  const CodeObject &C1,
                                                  ArrayRef<MemRegion> S0,
                                                  ArrayRef<MemRegion> S1) {
  auto R0 = emu::dynamicRelocations(C0);
  auto R1 = emu::dynamicRelocations(C1);
  if (!R0 || !R1) {
    consumeError(R0.takeError());
    consumeError(R1.takeError());
    return {};
  }
  const uint64_t B = emu::Emulator::CodeLoadBase;
  auto slot = [&](ArrayRef<MemRegion> S, uint64_t Off) -> const uint8_t * {
    for (const MemRegion &R : S)
      if (B + Off >= R.Base && B + Off - R.Base + 8 <= R.Data.size())
        return R.Data.data() + (B + Off - R.Base);
    return nullptr;
  };
  std::map<std::string, const emu::DynamicRelocation *> BySlot1;
  for (const emu::DynamicRelocation &D : *R1)
    if (std::string Name = emu::describeAddress(C1, D.Offset); !Name.empty())
      BySlot1[Name] = &D;
  std::vector<MemRegion> Out;
  for (const emu::DynamicRelocation &D0 : *R0) {
    auto It = BySlot1.find(emu::describeAddress(C0, D0.Offset));
    if (It == BySlot1.end())
      continue;
    const emu::DynamicRelocation &D1 = *It->second;
    const uint8_t *P0 = slot(S0, D0.Offset), *P1 = slot(S1, D1.Offset);
    if (!P0 || !P1 || support::endian::read64le(P0) != B + D0.Target ||
        support::endian::read64le(P1) != B + D1.Target)
      continue;
    std::string T0 = emu::describeAddress(C0, D0.Target);
    if (T0.empty() || T0 != emu::describeAddress(C1, D1.Target))
      continue;
    if (Out.empty())
      Out.assign(S1.begin(), S1.end());
    for (MemRegion &R : Out)
      if (B + D1.Offset >= R.Base &&
          B + D1.Offset - R.Base + 8 <= R.Data.size())
        std::memcpy(R.Data.data() + (B + D1.Offset - R.Base), P0, 8);
  }
  return Out;
}

/// Writable code-object segments: compare whole segments when both objects
/// lay them out alike, else the objects (STT_OBJECT symbols) in them by name.
static std::optional<Evidence>
compareSegments(const TestInput &In, const CodeObject &C0, const CodeObject &C1,
                ArrayRef<MemRegion> S0, ArrayRef<MemRegion> S1) {
  std::vector<MemRegion> S1Alike = alikeRelocatedSlots(C0, C1, S0, S1);
  if (!S1Alike.empty())
    S1 = S1Alike;
  bool Same = S0.size() == S1.size();
  for (size_t I = 0; Same && I < S0.size(); ++I)
    Same = S0[I].Base == S1[I].Base && S0[I].Size == S1[I].Size;
  TestInput Dummy;
  Dummy.Name = In.Name;
  if (Same)
    return compareResults(Dummy, S0, S1, {});
  auto objects = [](const CodeObject &C, ArrayRef<MemRegion> Segs) {
    std::map<std::string, std::vector<uint8_t>> M;
    for (const ElfSymbol &S : C.symbols()) {
      if (S.Type != ELF::STT_OBJECT || !S.Size)
        continue;
      uint64_t A = emu::Emulator::CodeLoadBase + S.Value;
      for (const MemRegion &R : Segs)
        if (A >= R.Base && A + S.Size <= R.Base + R.Data.size())
          M[S.Name].assign(R.Data.begin() + (A - R.Base),
                           R.Data.begin() + (A - R.Base) + S.Size);
    }
    return M;
  };
  auto O0 = objects(C0, S0), O1 = objects(C1, S1);
  for (auto &[Name, D0] : O0) {
    auto It = O1.find(Name);
    Evidence E;
    E.Input = In.Name;
    if (It == O1.end()) {
      E.Summary = "global '" + Name + "' is writable in K0 but missing in K1";
      return E;
    }
    if (It->second != D0) {
      size_t Off = 0;
      while (Off < D0.size() && Off < It->second.size() && D0[Off] == It->second[Off])
        ++Off;
      E.Summary = formatv("global '{0}' differs after the dispatch at byte {1}",
                          Name, Off);
      return E;
    }
  }
  return std::nullopt;
}

VerdictResult Reference::check(ArrayRef<uint8_t> K1Bytes) {
  if (P->Undecidable) { // CannotDecide before K1 is looked at
    VerdictResult VR;
    VR.Why = *P->Undecidable;
    return VR;
  }
  auto K1 = ParsedCodeObject::create(K1Bytes, "K1");
  if (!K1) {
    VerdictResult VR;
    VR.V = Verdict::NotEquivalent;
    VR.Why.Summary =
        "K1 is not a valid code object: " + toString(K1.takeError());
    return VR;
  }
  return check(**K1);
}

VerdictResult Reference::check(const ParsedCodeObject &K1Obj) {
  Impl &I = *P;
  VerdictResult VR;
  if (I.Undecidable) {
    VR.V = Verdict::CannotDecide;
    VR.Why = *I.Undecidable;
    return VR;
  }
  const CodeObject &CO = K1Obj.object();
  const KernelInfo *K1 = CO.kernel(I.Kernel->Name);
  if (!K1) {
    VR.V = Verdict::NotEquivalent;
    VR.Why.Summary = "K1 has no kernel '" + I.Kernel->Name + "'";
    return VR;
  }
  if (CO.cpu() != I.k0().cpu()) {
    VR.V = Verdict::NotEquivalent;
    VR.Why.Summary = ("K1 targets " + CO.cpu() + ", K0 " + I.k0().cpu()).str();
    return VR;
  }
  auto Problems = checkCompatibility(*I.Kernel, *K1);
  if (!Problems.empty()) {
    VR.V = Verdict::NotEquivalent;
    VR.Why.Summary = "resource facts incompatible with K0: " + Problems[0];
    for (const std::string &S : Problems)
      VR.Why.Detail += "  " + S + "\n";
    return VR;
  }

  std::optional<Evidence> Undecided;
  bool Tolerant = !I.Opts.Tolerances.empty();
  bool AssumedD16ZeroFill = false; // a D16 load ran under that assumption
  // Cheapest inputs first (by K0's wave-instructions): the verdict does not
  // depend on the order, and most wrong candidates differ on a cheap input,
  // so they are rejected before the costly ones run.
  std::vector<size_t> Order(I.Inputs.size());
  for (size_t J = 0; J < Order.size(); ++J)
    Order[J] = J;
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return I.R0[A].WaveInstructions < I.R0[B].WaveInstructions;
  });
  for (size_t J : Order) {
    TestInput &In = I.Inputs[J];
    ++VR.InputsRun;
    In.Image.CodeObject = K1Obj.bytes();
    In.Image.CodeObjectKey = K1Obj.sha256();
    // K1 may run longer than K0, but not without bound: a runaway candidate
    // fails fast.
    uint64_t K1Budget = std::min<uint64_t>(
        2 * I.Opts.Budget, 4 * I.R0[J].WaveInstructions + 65536);
    auto runK1 = [&](uint64_t Salt, bool KeepD16 = false,
                     uint64_t Unspec =
                         UnspecifiedSeeds[0]) -> std::optional<ExecResult> {
      ExecOptions EO = I.execOptions(In, Salt, K1Budget, false);
      EO.KeepD16Unused = KeepD16;
      EO.UnspecifiedSeed = Unspec;
      auto R = I.Exec->run(In.Image, EO);
      if (!R) {
        VR.V = Verdict::NotEquivalent;
        VR.Why = Evidence{In.Name, "K1 cannot be run: " + toString(R.takeError()), ""};
        return std::nullopt;
      }
      return std::move(*R);
    };
    auto failure = [&](const ExecResult &R, StringRef Under) -> bool {
      if (R.ok())
        return false;
      std::string Where;
      StringRef M = R.Message;
      // Name the buffer behind a faulting address.
      for (size_t P = M.find("address "); P != StringRef::npos;
           P = M.find("address ", P + 1)) {
        uint64_t A;
        StringRef H = M.substr(P + 8);
        H.consume_front("0x");
        H = H.take_while(llvm::isHexDigit);
        if (!H.getAsInteger(16, A)) {
          std::string D = describeAddress(In, A);
          if (!D.empty())
            Where = "\n  address: " + D;
          break;
        }
      }
      bool Undec = R.Kind == emu::ErrorKind::Unsupported ||
                   R.Kind == emu::ErrorKind::Approximate;
      Evidence E{In.Name,
                 (Undec ? "the executor cannot run K1: " : "K1 fails: ") +
                     std::string(emu::errorKindName(R.Kind)) + Under.str(),
                 "  input:   " + In.Name + "\n  " + R.Message + Where};
      if (Undec) {
        if (!Undecided)
          Undecided = E;
        return true;
      }
      VR.V = Verdict::NotEquivalent;
      VR.Why = E;
      return true;
    };
    auto differs = [&](const ExecResult &R0, const ExecResult &R1,
                       StringRef Under) -> bool {
      // Approximate operations: the same questions, or no decision.
      if ((R0.Approx.Total || R1.Approx.Total) && !Tolerant && I.Opts.Strict) {
        std::string Why;
        if (!ApproxLog::sameQuestions(R0.Approx, R1.Approx, Why)) {
          if (!Undecided)
            Undecided = Evidence{
                In.Name,
                "approximate opcodes evaluated on different operands" +
                    Under.str() + " (strict mode)",
                "  input:   " + In.Name + "\n  " + Why +
                    "\n  the hardware's results of these opcodes are not "
                    "specified bit for bit, so the emulator cannot tell "
                    "whether K1's differ; give --tolerance to compare within "
                    "a bound"};
          return true;
        }
      }
      size_t N0 = 0, N1 = 0;
      while (N0 < R0.Regions.size() && R0.Regions[N0].K != MemRegion::Segment)
        ++N0;
      while (N1 < R1.Regions.size() && R1.Regions[N1].K != MemRegion::Segment)
        ++N1;
      auto E = compareResults(In, ArrayRef(R0.Regions).take_front(N0),
                              ArrayRef(R1.Regions).take_front(N1),
                              I.Opts.Tolerances);
      if (!E)
        E = compareSegments(In, I.k0(), CO, ArrayRef(R0.Regions).drop_front(N0),
                            ArrayRef(R1.Regions).drop_front(N1));
      if (!E)
        return false;
      VR.V = Verdict::NotEquivalent;
      VR.Why = *E;
      VR.Why.Summary += Under.str();
      return true;
    };

    // K1 under one rule against K0 under the same rule: Stop when the
    // verdict is known (K1 cannot run, or differs), NextInput when this
    // input decides nothing more.
    enum class Step { Agree, NextInput, Stop };
    auto against = [&](const ExecResult &R0x,
                       const std::optional<ExecResult> &R1x,
                       StringRef Under) -> Step {
      if (!R1x)
        return Step::Stop;
      if (!failure(*R1x, Under) && !differs(R0x, *R1x, Under))
        return Step::Agree;
      return VR.V == Verdict::NotEquivalent ? Step::Stop : Step::NextInput;
    };

    auto R1 = runK1(0);
    if (Step S = against(I.R0[J], R1, ""); S != Step::Agree) {
      if (S == Step::Stop)
        return VR;
      continue;
    }
    bool D16 = I.R0[J].D16UnspecifiedLoads || R1->D16UnspecifiedLoads;
    if (D16 && I.Opts.AssumeD16ZeroFill) {
      AssumedD16ZeroFill = true;
    } else if (D16) {
      // The other rule for the unused half of D16 loads (see create()).
      Step S = against(I.R0KeptD16[J] ? *I.R0KeptD16[J] : I.R0[J],
                       runK1(0, /*KeepD16=*/true),
                       " with the unused half of D16 loads kept (the rule "
                       "without SRAM ECC)");
      if (S == Step::Stop)
        return VR;
      if (S == Step::NextInput)
        continue;
    }
    if (I.R0[J].UnspecifiedResults || R1->UnspecifiedResults) {
      // The second choice of the unspecified results (see create()).
      Step S = against(I.R0Unspec2[J] ? *I.R0Unspec2[J] : I.R0[J],
                       runK1(0, false, UnspecifiedSeeds[1]),
                       " with other values for the results the hardware "
                       "does not specify");
      if (S == Step::Stop)
        return VR;
      if (S == Step::NextInput)
        continue;
    }
    // K1 evaluating approximate ops K0 never does failed sameQuestions
    // above unless tolerant; then there is nothing more to compare.
    if (I.R0[J].Approx.Total) {
      Step S = against(I.R0Salted[J], runK1(I.Opts.PerturbSalt),
                       " under perturbed approximate opcodes");
      if (S == Step::Stop)
        return VR;
      if (S == Step::NextInput)
        continue;
    }
  }
  if (Undecided) {
    VR.V = Verdict::CannotDecide;
    VR.Why = *Undecided;
    return VR;
  }
  VR.V = Verdict::Equivalent;
  VR.Why.Summary =
      formatv("{0} inputs, every byte of every region identical{1}{2}",
              VR.InputsRun, Tolerant ? " (within the given tolerances)" : "",
              AssumedD16ZeroFill
                  ? " (assuming D16 loads zero the unused half: SRAM ECC on)"
                  : "");
  return VR;
}

} // namespace verify
} // namespace asmevo
