//===- Emit.cpp - amdgcn dialect -> code object ---------------------------===//
//
// Emission lays the functions of .text out again in order, encodes what
// depends on position (branch offsets, PC-relative literals), copies the
// original bytes of everything else, and patches the original image:
// .text, kernel descriptors, function symbols and relocations that point
// into moved code. Sections other than .text keep their place.
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/Emit.h"
#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/CodeObject/Recover.h"
#include "asmevo/CodeObject/Resources.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <optional>

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;
using llvm::formatv;
namespace endian = llvm::support::endian;

unsigned asmevo::encodedSize(Operation *Op) {
  if (auto I = dyn_cast<InstOp>(Op))
    return I.getEnc().size() * 4;
  if (auto I = dyn_cast<IndirectOp>(Op))
    return I.getEnc().size() * 4;
  if (isa<FallthroughOp>(Op))
    return 0;
  return 4; // every dedicated op is one SOPP word; raw is one word
}

namespace {

struct FunctionLayout {
  Operation *Fn = nullptr;
  int64_t OldStart = -1;
  int64_t OldEnd = -1; // next function's original start, or the end of .text
  uint64_t NewStart = 0;
  uint64_t NewEnd = 0; // after padding
  int64_t PadWords = 0; // padding words emitted after the code
  int64_t OldCodeSize = -1, NewCodeSize = 0; // without padding
  bool Relocatable = true;
  std::string Name;
};

class Emitter {
public:
  Emitter(CodeObjectOp Op, TargetInfo &TI, EmitStats &Stats)
      : Op(Op), TI(TI), Stats(Stats) {}
  llvm::Expected<std::vector<uint8_t>> run();

private:
  llvm::Error layout();
  /// Whether the kernel's emitted code, or that of a function it calls,
  /// differs from the original (moved, resized or other bytes).
  bool kernelCodeChanged(KernelOp K, const CodeObject &Orig);
  bool functionChanged(const FunctionLayout &L, const CodeObject &Orig);
  /// Register usage of the kernel's original code and its callees'.
  RegisterUsage originalKernelUsage(KernelOp K, const CodeObject &Orig);
  /// One call graph per emission: kernels share device functions, and
  /// walking the callees' code again for every kernel made emission grow
  /// with kernels x callee code.
  CallGraph &calls() {
    if (!Calls)
      Calls.emplace(Op);
    return *Calls;
  }
  void forEachReachable(Operation *Fn,
                        llvm::function_ref<bool(Operation *)> Visit) {
    calls().forEachReachable(Fn, Visit);
  }
  const FunctionLayout *layoutOf(Operation *Fn);
  /// Bytes an op takes in this layout (long branches are longer).
  unsigned opSize(Operation *O) const {
    if (LongBranches.count(O))
      return isa<CondBranchOp>(O) ? 28 : 24;
    return encodedSize(O);
  }
  /// Marks branches whose target is out of 16-bit range; true if any new.
  llvm::Expected<bool> findLongBranches();
  llvm::Error encodeLongBranch(Operation *O, uint64_t Addr, Block *Dest,
                               StringRef Mnemonic, std::vector<uint8_t> &Out);
  llvm::Error encodeText(std::vector<uint8_t> &Text);
  llvm::Error encodeOp(Operation *O, uint64_t Addr, std::vector<uint8_t> &Out);
  llvm::Error patchDescriptorsAndMetadata(std::vector<uint8_t> &Img,
                                          const CodeObject &Orig);
  llvm::Error patchSymbolsAndRelocations(std::vector<uint8_t> &Img,
                                         const CodeObject &Orig);
  llvm::Error
  patchMetadataNotes(std::vector<uint8_t> &Img, const CodeObject &Orig,
                     const std::map<std::string, DictionaryAttr> &Changed);
  /// New address of an original address in .text: the instruction with that
  /// id. Addresses outside .text do not move.
  llvm::Expected<uint64_t> mapAddress(int64_t OldAddr, StringRef What);
  bool inText(int64_t A) const {
    return A >= int64_t(TextAddr) && A < int64_t(TextAddr + TextSize);
  }
  /// Where an original file offset lands once .text has grown.
  uint64_t fileOff(uint64_t Old) const {
    return Delta && Old >= TextFileEnd ? Old + Delta : Old;
  }
  llvm::Error growImage(std::vector<uint8_t> &Img, const CodeObject &Orig,
                        const ElfSection &Text,
                        const std::vector<uint8_t> &NewText);

  CodeObjectOp Op;
  TargetInfo &TI;
  EmitStats &Stats;
  uint64_t TextAddr = 0, TextSize = 0;
  std::vector<FunctionLayout> Funcs;
  llvm::DenseMap<Block *, uint64_t> BlockAddr;
  llvm::DenseMap<Operation *, uint64_t> TermAddr; // block terminators
  /// Where each instruction id went, sorted by id. One compact entry per
  /// instruction instead of hash maps: the largest objects have tens of
  /// millions of instructions, and hashing them dominated the layout's time
  /// and memory.
  struct IdPlace {
    int64_t Id;
    uint32_t Exact;      // the instruction itself, from TextAddr
    uint32_t LandingGap; // Exact - landing address (new code put before it)
  };
  std::vector<IdPlace> IdPlaces;
  llvm::DenseMap<int64_t, uint64_t> FuncNewStart; // by original start
  const IdPlace *findId(int64_t Id) const {
    auto It = llvm::partition_point(
        IdPlaces, [&](const IdPlace &P) { return P.Id < Id; });
    return It != IdPlaces.end() && It->Id == Id ? &*It : nullptr;
  }
  /// Landing address of an id: a reference to an instruction lands on the
  /// new instructions a pass put right before it.
  uint64_t landingAddr(const IdPlace &P) const {
    return TextAddr + P.Exact - P.LandingGap;
  }
  uint64_t exactAddr(const IdPlace &P) const { return TextAddr + P.Exact; }
  uint64_t NewTextEnd = 0;
  // When .text grows: everything after it moves by Delta (a multiple of the
  // largest segment alignment), in the file and in the address space.
  uint64_t Growth = 0, Delta = 0, TextFileEnd = ~0ull;
  // Branches expanded to s_getpc/s_add/s_addc/s_setpc, and the SGPR pair
  // each function uses for them (above every SGPR the function uses).
  llvm::DenseSet<Operation *> LongBranches;
  std::vector<uint8_t> EmittedText; // the new .text, for change detection
  llvm::DenseMap<Operation *, unsigned> LongBranchPair;
  // Filled on first use, after the final layout.
  std::optional<CallGraph> Calls;
  llvm::DenseMap<Operation *, const FunctionLayout *> LayoutOf;
  llvm::DenseMap<Operation *, bool> FunctionChanged;
};

} // namespace

static uint32_t fillWordOf(Operation *Fn) {
  if (auto Pad = Fn->getAttrOfType<DenseI64ArrayAttr>("padding"))
    if (Pad.size() >= 2)
      return uint32_t(Pad[0]);
  return 0xBF800000u; // s_nop 0
}

static int64_t paddingWords(Operation *Fn) {
  int64_t N = 0;
  if (auto Pad = Fn->getAttrOfType<DenseI64ArrayAttr>("padding"))
    for (int64_t I = 0; I + 1 < Pad.size(); I += 2)
      N += Pad[I + 1];
  return N;
}

// Padding after a function is kept word for word while the function keeps
// its place and size, so that an unchanged object is emitted byte for byte.
// Otherwise it is elastic: between functions it only aligns the next one;
// after the last function it shrinks to make room, but never below
// MinFinalPaddingWords (the tail guards instruction prefetch past the code).
static constexpr int64_t MinFinalPaddingWords = 64;

llvm::Error Emitter::layout() {
  Funcs.clear();
  BlockAddr.clear();
  TermAddr.clear();
  IdPlaces.clear();
  Stats.MovedFunctions = 0;
  SmallVector<Operation *> FnOps;
  for (Operation &FnOp : Op.getBodyBlock())
    FnOps.push_back(&FnOp);
  uint64_t Cursor = TextAddr;
  for (size_t Index = 0; Index < FnOps.size(); ++Index) {
    Operation &FnOp = *FnOps[Index];
    FunctionLayout L;
    L.Fn = &FnOp;
    L.Name = cast<SymbolOpInterface>(FnOp).getName().str();
    L.OldStart = FnOp.getAttrOfType<IntegerAttr>("addr").getInt();
    L.OldEnd = Index + 1 < FnOps.size()
                   ? FnOps[Index + 1]->getAttrOfType<IntegerAttr>("addr").getInt()
                   : int64_t(TextAddr + TextSize);
    L.Relocatable = !FnOp.hasAttr("not_relocatable");
    int64_t Align = FnOp.getAttrOfType<IntegerAttr>("align").getInt();
    if (Align <= 0 || (Align & (Align - 1)))
      return llvm::createStringError(
          formatv("function {0}: align {1} is not a power of two", L.Name,
                  Align));
    L.NewStart = llvm::alignTo(Cursor, Align);
    // A function that must stay in place after code that shrank: the
    // function before it gets the difference as padding. Only after a
    // relocatable function, which never runs off its end into the padding.
    if (!L.Relocatable && L.OldStart > int64_t(L.NewStart) && !Funcs.empty() &&
        Funcs.back().Relocatable && (L.OldStart - L.NewStart) % 4 == 0) {
      FunctionLayout &Prev = Funcs.back();
      Prev.PadWords += (L.OldStart - int64_t(L.NewStart)) / 4;
      Prev.NewEnd = L.OldStart;
      L.NewStart = L.OldStart;
    }
    if (!L.Relocatable && L.OldStart != int64_t(L.NewStart))
      return llvm::createStringError(formatv(
          "function {0} is not relocatable ({1}) but would move from {2:x} "
          "to {3:x}",
          L.Name, FnOp.getAttrOfType<StringAttr>("not_relocatable").getValue(),
          L.OldStart, L.NewStart));
    if (L.OldStart >= 0 && L.OldStart != int64_t(L.NewStart))
      ++Stats.MovedFunctions;
    uint64_t PC = L.NewStart;
    for (Block &B : FnOp.getRegion(0)) {
      BlockAddr[&B] = PC;
      // A reference to an instruction lands on the new instructions a pass
      // put right before it, as a branch to its block would.
      uint64_t Landing = PC;
      for (Operation &I : B) {
        if (&I == &B.back())
          TermAddr[&I] = PC;
        int64_t Id = getInstId(&I);
        if (Id >= 0) {
          if (PC - TextAddr > UINT32_MAX)
            return llvm::createStringError(
                formatv("function {0}: code past 4 GiB of .text", L.Name));
          IdPlaces.push_back(
              {Id, uint32_t(PC - TextAddr), uint32_t(PC - Landing)});
        }
        PC += opSize(&I);
        if (Id >= 0)
          Landing = PC;
      }
    }
    int64_t Recorded = paddingWords(&FnOp);
    int64_t OldCode =
        L.OldStart >= 0 ? L.OldEnd - L.OldStart - 4 * Recorded : -1;
    L.OldCodeSize = OldCode;
    L.NewCodeSize = int64_t(PC - L.NewStart);
    bool Unchanged = L.OldStart == int64_t(L.NewStart) &&
                     OldCode == int64_t(PC - L.NewStart);
    bool Last = Index + 1 == FnOps.size();
    if (Unchanged) {
      L.PadWords = Recorded;
    } else if (!Last) {
      int64_t NextAlign =
          FnOps[Index + 1]->getAttrOfType<IntegerAttr>("align").getInt();
      L.PadWords = int64_t(llvm::alignTo(PC, std::max<int64_t>(NextAlign, 4)) -
                           PC) / 4;
    } else {
      int64_t Room = (int64_t(TextAddr + TextSize) - int64_t(PC)) / 4;
      L.PadWords = std::max(std::min(Recorded, Room),
                            std::min(Recorded, MinFinalPaddingWords));
    }
    PC += 4 * uint64_t(L.PadWords);
    L.NewEnd = PC;
    Cursor = PC;
    Funcs.push_back(L);
  }
  NewTextEnd = Cursor;
  FuncNewStart.clear();
  for (const FunctionLayout &L : Funcs)
    FuncNewStart[L.OldStart] = L.NewStart;
  // Ids are original addresses, so an unedited layout is sorted already.
  auto ById = [](const IdPlace &A, const IdPlace &B) { return A.Id < B.Id; };
  if (!std::is_sorted(IdPlaces.begin(), IdPlaces.end(), ById))
    std::stable_sort(IdPlaces.begin(), IdPlaces.end(), ById);
  auto Dup = std::adjacent_find(
      IdPlaces.begin(), IdPlaces.end(),
      [](const IdPlace &A, const IdPlace &B) { return A.Id == B.Id; });
  if (Dup != IdPlaces.end()) {
    std::string Where;
    for (const FunctionLayout &L : Funcs)
      if (Dup->Exact + TextAddr >= L.NewStart &&
          Dup->Exact + TextAddr < L.NewEnd)
        Where = L.Name;
    return llvm::createStringError(formatv(
        "function {0}: instruction id {1:x} is used twice", Where, Dup->Id));
  }
  return llvm::Error::success();
}

llvm::Expected<uint64_t> Emitter::mapAddress(int64_t OldAddr, StringRef What) {
  if (!inText(OldAddr))
    return Delta && OldAddr >= int64_t(TextAddr + TextSize)
               ? uint64_t(OldAddr) + Delta
               : uint64_t(OldAddr);
  // A reference to a function's first address (a call target, a function
  // pointer) means the function's entry, wherever a pass moved the
  // instruction that was first or put new ones before it.
  auto Entry = FuncNewStart.find(OldAddr);
  if (Entry != FuncNewStart.end())
    return Entry->second;
  const IdPlace *P = findId(OldAddr);
  if (!P)
    return llvm::createStringError(
        formatv("{0} refers to code at {1:x}, which no instruction holds any "
                "more (deleted or rewritten without its id)",
                What, OldAddr));
  return landingAddr(*P);
}

static void put32(std::vector<uint8_t> &Out, uint32_t W) {
  uint8_t B[4];
  endian::write32le(B, W);
  Out.insert(Out.end(), B, B + 4);
}

llvm::Error Emitter::encodeOp(Operation *O, uint64_t Addr,
                              std::vector<uint8_t> &Out) {
  auto branchWord = [&](StringRef Mnemonic, Block *Dest) -> llvm::Error {
    if (LongBranches.count(O))
      return encodeLongBranch(O, Addr, Dest, Mnemonic, Out);
    auto TemplOrErr = TI.soppTemplate(Mnemonic);
    if (!TemplOrErr)
      return TemplOrErr.takeError();
    int64_t Delta = int64_t(BlockAddr.lookup(Dest)) - int64_t(Addr + 4);
    if (Delta % 4 || Delta / 4 < INT16_MIN || Delta / 4 > INT16_MAX)
      return llvm::createStringError(formatv(
          "{0} at {1:x}: target {2:x} is out of range of a 16-bit branch "
          "offset",
          Mnemonic, Addr, BlockAddr.lookup(Dest)));
    put32(Out, *TemplOrErr | uint16_t(int16_t(Delta / 4)));
    ++Stats.EncodedInstructions;
    return llvm::Error::success();
  };
  auto soppWord = [&](StringRef Mnemonic, bool WithImm,
                      int64_t Imm) -> llvm::Error {
    auto TemplOrErr = TI.soppTemplate(Mnemonic, WithImm);
    if (!TemplOrErr)
      return TemplOrErr.takeError();
    put32(Out, *TemplOrErr | uint32_t(Imm & 0xffff));
    ++Stats.CopiedInstructions;
    return llvm::Error::success();
  };
  if (auto I = dyn_cast<InstOp>(O)) {
    ArrayRef<uint8_t> Bytes = I.getBytes();
    size_t Start = Out.size();
    Out.insert(Out.end(), Bytes.begin(), Bytes.end());
    if (I.getPcrelPart() == InstOp::NoPcRel) {
      ++Stats.CopiedInstructions;
      return llvm::Error::success();
    }
    std::string What = formatv("PC-relative literal at {0:x}", Addr).str();
    auto TargetOrErr = mapAddress(I.getPcrelTarget(), What);
    if (!TargetOrErr)
      return TargetOrErr.takeError();
    // The offset is relative to the s_getpc_b64 itself, not to code a pass
    // put before it.
    const IdPlace *Anchor = findId(I.getPcrelAnchor());
    if (!Anchor)
      return llvm::createStringError(
          formatv("{0}: its s_getpc_b64 (id {1:x}) no longer exists", What,
                  I.getPcrelAnchor()));
    llvm::Expected<uint64_t> AnchorOrErr = exactAddr(*Anchor);
    if (Bytes.size() != 8)
      return llvm::createStringError(What + ": instruction has no literal");
    uint64_t Offset = *TargetOrErr - (*AnchorOrErr + 4);
    uint32_t Literal;
    switch (I.getPcrelPart()) {
    case InstOp::PcRelLo:
      Literal = uint32_t(Offset);
      break;
    case InstOp::PcRelHi:
      Literal = uint32_t(Offset >> 32);
      break;
    case InstOp::PcRelSigned: {
      // A signed 32-bit offset: the two-way sequence tests its sign, the
      // backward one subtracts its absolute value and so needs it to stay
      // behind. Neither may change direction from the original literal.
      int64_t Dist = int64_t(Offset);
      int64_t Old = int32_t(uint32_t(
          int64_t(int32_t(endian::read32le(&Bytes[4]))) + I.getPcrelBias()));
      if (Dist < INT32_MIN || Dist > INT32_MAX || (Old < 0 && Dist > 0) ||
          (Old > 0 && Dist < 0))
        return llvm::createStringError(
            formatv("{0}: the target is now {1} bytes away, which the branch "
                    "sequence (originally {2}) does not reach",
                    What, Dist, Old));
      Literal = uint32_t(Dist - I.getPcrelBias());
      break;
    }
    default: {
      // The distance is zero-extended into the PC by add/addc 0 (forward)
      // or sub/subb 0 (backward): it must keep its direction and fit.
      int64_t Dist = I.getPcrelPart() == InstOp::PcRelAdd ? int64_t(Offset)
                                                            : -int64_t(Offset);
      if (Dist < 0 || Dist > int64_t(UINT32_MAX))
        return llvm::createStringError(formatv(
            "{0}: the target is now {1} bytes {2}; the branch sequence only "
            "goes {3}",
            What, std::abs(int64_t(Offset)),
            int64_t(Offset) < 0 ? "behind" : "ahead",
            I.getPcrelPart() == InstOp::PcRelAdd ? "forward" : "backward"));
      Literal = uint32_t(Dist - I.getPcrelBias());
      break;
    }
    }
    endian::write32le(&Out[Start + 4], Literal);
    ++Stats.EncodedInstructions;
    return llvm::Error::success();
  }
  if (auto I = dyn_cast<IndirectOp>(O)) {
    for (int32_t W : I.getEnc())
      put32(Out, uint32_t(W));
    ++Stats.CopiedInstructions;
    return llvm::Error::success();
  }
  if (auto R = dyn_cast<RawOp>(O)) {
    put32(Out, uint32_t(R.getWord()));
    return llvm::Error::success();
  }
  if (auto W = dyn_cast<WaitcntOp>(O))
    return soppWord("s_waitcnt", true, W.getImm());
  if (auto N = dyn_cast<NopOp>(O))
    return soppWord("s_nop", true, N.getImm());
  if (isa<BarrierOp>(O))
    return soppWord("s_barrier", false, 0);
  if (isa<EndpgmOp>(O))
    return soppWord("s_endpgm", false, 0);
  if (auto Br = dyn_cast<BranchOp>(O))
    return branchWord("s_branch", Br.getDest());
  if (auto Br = dyn_cast<CondBranchOp>(O))
    return branchWord(Br.getMnemonic(), Br.getTaken());
  if (isa<FallthroughOp>(O))
    return llvm::Error::success();
  return llvm::createStringError(formatv("cannot emit '{0}' at {1:x}",
                                         O->getName().getStringRef(), Addr));
}


static bool inBranchRange(int64_t From, int64_t To) {
  int64_t Delta = To - (From + 4);
  return Delta % 4 == 0 && Delta / 4 >= INT16_MIN && Delta / 4 <= INT16_MAX;
}

/// Whether SCC may be read, on some path from the start of Blk, before being
/// written: the long-branch sequence clobbers it (s_add_u32 sets SCC). Paths
/// are followed through successors; s_endpgm ends them.
static bool sccMaybeLiveAt(Block *Start, TargetInfo &TI) {
  SmallVector<RegAccess, 8> Acc;
  llvm::DenseSet<Block *> Seen;
  SmallVector<Block *> Work = {Start};
  while (!Work.empty()) {
    Block *Blk = Work.pop_back_val();
    if (!Seen.insert(Blk).second)
      continue;
    bool Decided = false;
    for (Operation &O : *Blk) {
      if (auto C = dyn_cast<CondBranchOp>(O))
        if (StringRef(C.getMnemonic()).contains("scc"))
          return true;
      if (isa<EndpgmOp>(O)) {
        Decided = true;
        break;
      }
      ArrayRef<uint8_t> Bytes = getOriginalBytes(&O);
      if (Bytes.empty())
        continue;
      const DecodedInst *D = TI.decode(Bytes);
      if (!D)
        return true;
      Acc.clear();
      TI.accesses(D->Inst, Acc);
      bool Reads = false, Writes = false;
      for (const RegAccess &A : Acc)
        if (TI.regName(A.Reg) == "scc")
          (A.IsDef ? Writes : Reads) = true;
      if (Reads)
        return true;
      if (Writes) {
        Decided = true;
        break;
      }
    }
    if (Decided)
      continue;
    Operation *T = Blk->getTerminator();
    if (T->getNumSuccessors() == 0 && !isa<EndpgmOp>(T))
      return true; // leaves the function with SCC undecided
    for (Block *Succ : T->getSuccessors())
      Work.push_back(Succ);
  }
  return false;
}

llvm::Expected<bool> Emitter::findLongBranches() {
  bool Any = false;
  for (FunctionLayout &L : Funcs)
    for (Block &B : L.Fn->getRegion(0)) {
      Operation *T = B.getTerminator();
      Block *Dest = nullptr;
      if (auto Br = dyn_cast<BranchOp>(T))
        Dest = Br.getDest();
      else if (auto Br = dyn_cast<CondBranchOp>(T))
        Dest = Br.getTaken();
      if (!Dest || LongBranches.count(T) ||
          inBranchRange(TermAddr.lookup(T), BlockAddr.lookup(Dest)))
        continue;
      std::string Where =
          formatv("function {0}: branch at {1:x} to {2:x}", L.Name,
                  TermAddr.lookup(T), BlockAddr.lookup(Dest))
              .str();
      if (!isa<KernelOp>(L.Fn))
        return llvm::createStringError(
            Where + " needs a long branch, which needs two free SGPRs; in a "
                    "device function every high SGPR may be a caller's "
                    "callee-saved register");
      if (sccMaybeLiveAt(Dest, TI))
        return llvm::createStringError(
            Where + " needs a long branch, which clobbers SCC, and SCC may be "
                    "read at the target");
      if (!LongBranchPair.count(L.Fn)) {
        unsigned Pair =
            computeKernelRegisterUsage(cast<KernelOp>(L.Fn), TI, calls())
                .NumSGPR;
        Pair = (Pair + 1) & ~1u;
        if (Pair + 2 > 100)
          return llvm::createStringError(
              Where + " needs a long branch, and no SGPR pair is free");
        LongBranchPair[L.Fn] = Pair;
      }
      LongBranches.insert(T);
      Any = true;
    }
  return Any;
}

static const char *invertedBranch(StringRef M) {
  static const std::pair<const char *, const char *> Pairs[] = {
      {"s_cbranch_scc0", "s_cbranch_scc1"},
      {"s_cbranch_vccz", "s_cbranch_vccnz"},
      {"s_cbranch_execz", "s_cbranch_execnz"}};
  for (auto [A, B] : Pairs) {
    if (M == A)
      return B;
    if (M == B)
      return A;
  }
  return nullptr;
}

// s_getpc_b64 s[X:X+1]; s_add_u32 sX, sX, lo; s_addc_u32 sX+1, sX+1, hi;
// s_setpc_b64 s[X:X+1] -- preceded, for a conditional branch, by the
// inverted condition jumping over it.
llvm::Error Emitter::encodeLongBranch(Operation *O, uint64_t Addr, Block *Dest,
                                      StringRef Mnemonic,
                                      std::vector<uint8_t> &Out) {
  Operation *Fn = O->getParentOp();
  unsigned X = LongBranchPair.lookup(Fn);
  if (isa<CondBranchOp>(O)) {
    const char *Inv = invertedBranch(Mnemonic);
    if (!Inv)
      return llvm::createStringError(formatv(
          "{0} at {1:x} needs a long branch, and has no inverse", Mnemonic,
          Addr));
    auto Templ = TI.soppTemplate(Inv);
    if (!Templ)
      return Templ.takeError();
    put32(Out, *Templ | 6); // over the 24-byte sequence
    Addr += 4;
  }
  auto assembleInto = [&](const std::string &Text) -> llvm::Error {
    llvm::MCInst Inst;
    SmallVector<uint8_t, 8> Bytes;
    if (llvm::Error E = TI.assemble(Text, Inst, Bytes))
      return E;
    Out.insert(Out.end(), Bytes.begin(), Bytes.end());
    return llvm::Error::success();
  };
  uint64_t Offset = BlockAddr.lookup(Dest) - (Addr + 4);
  std::string Pair = formatv("s[{0}:{1}]", X, X + 1).str();
  if (llvm::Error E = assembleInto("s_getpc_b64 " + Pair))
    return E;
  // A literal that cannot be an inline constant, then patched.
  size_t LoAt = Out.size();
  if (llvm::Error E =
          assembleInto(formatv("s_add_u32 s{0}, s{0}, 0x12345678", X).str()))
    return E;
  size_t HiAt = Out.size();
  if (llvm::Error E = assembleInto(
          formatv("s_addc_u32 s{0}, s{0}, 0x12345678", X + 1).str()))
    return E;
  if (Out.size() - LoAt != 16)
    return llvm::createStringError("unexpected long-branch encoding size");
  endian::write32le(&Out[LoAt + 4], uint32_t(Offset));
  endian::write32le(&Out[HiAt + 4], uint32_t(Offset >> 32));
  if (llvm::Error E = assembleInto("s_setpc_b64 " + Pair))
    return E;
  ++Stats.EncodedInstructions;
  return llvm::Error::success();
}

llvm::Error Emitter::encodeText(std::vector<uint8_t> &Text) {
  uint64_t Cursor = TextAddr;
  uint32_t PrevFill = 0xBF800000u;
  for (FunctionLayout &L : Funcs) {
    while (Cursor < L.NewStart) {
      put32(Text, PrevFill);
      Cursor += 4;
    }
    // Addresses follow from the sizes, as in layout().
    uint64_t Addr = L.NewStart;
    for (Block &B : L.Fn->getRegion(0))
      for (Operation &I : B) {
        if (llvm::Error E = encodeOp(&I, Addr, Text))
          return llvm::createStringError("function " + L.Name + ": " +
                                         llvm::toString(std::move(E)));
        Addr += opSize(&I);
      }
    // The recorded runs, cut or extended (with the first run's word) to the
    // laid-out length.
    int64_t Left = L.PadWords;
    if (auto Pad = L.Fn->getAttrOfType<DenseI64ArrayAttr>("padding"))
      for (int64_t I = 0; I + 1 < Pad.size() && Left; I += 2)
        for (int64_t N = 0; N < Pad[I + 1] && Left; ++N, --Left)
          put32(Text, uint32_t(Pad[I]));
    for (; Left; --Left)
      put32(Text, fillWordOf(L.Fn));
    Cursor = TextAddr + Text.size();
    if (Cursor != L.NewEnd)
      return llvm::createStringError(formatv(
          "function {0}: encoded size differs from layout ({1:x} vs {2:x})",
          L.Name, Cursor, L.NewEnd));
    PrevFill = fillWordOf(L.Fn);
  }
  return llvm::Error::success();
}

static llvm::Expected<uint64_t> fileOffsetOf(const CodeObject &CO,
                                             uint64_t VAddr, uint64_t Size) {
  const ElfSection *S = CO.sectionAt(VAddr);
  if (!S || !S->hasFileBytes() || Size > S->Size - (VAddr - S->Addr))
    return llvm::createStringError(
        formatv("address {0:x} (+{1}) is not in a section with file bytes",
                VAddr, Size));
  return S->Offset + (VAddr - S->Addr);
}


bool Emitter::functionChanged(const FunctionLayout &L, const CodeObject &Orig) {
  if (L.OldStart < 0 || L.OldStart != int64_t(L.NewStart) ||
      L.OldCodeSize != L.NewCodeSize)
    return true;
  auto OldBytes = Orig.bytesAt(L.OldStart, L.OldCodeSize);
  if (!OldBytes) {
    llvm::consumeError(OldBytes.takeError());
    return true;
  }
  uint64_t Off = L.NewStart - TextAddr;
  if (Off + L.NewCodeSize > EmittedText.size())
    return true;
  return !std::equal(OldBytes->begin(), OldBytes->end(),
                     EmittedText.begin() + Off);
}

const FunctionLayout *Emitter::layoutOf(Operation *Fn) {
  if (LayoutOf.empty())
    for (const FunctionLayout &L : Funcs)
      LayoutOf[L.Fn] = &L;
  return LayoutOf.lookup(Fn);
}

RegisterUsage Emitter::originalKernelUsage(KernelOp K, const CodeObject &Orig) {
  RegisterUsage U;
  forEachReachable(K, [&](Operation *Fn) {
    const FunctionLayout *L = layoutOf(Fn);
    if (L && L->OldStart >= 0 && L->OldCodeSize > 0) {
      auto Bytes = Orig.bytesAt(L->OldStart, L->OldCodeSize);
      if (Bytes)
        U.merge(computeRegisterUsage(*Bytes, TI));
      else
        llvm::consumeError(Bytes.takeError());
    }
    return true;
  });
  return U;
}

bool Emitter::kernelCodeChanged(KernelOp K, const CodeObject &Orig) {
  bool Changed = false;
  forEachReachable(K, [&](Operation *Fn) {
    auto [It, New] = FunctionChanged.try_emplace(Fn, true);
    if (New)
      if (const FunctionLayout *L = layoutOf(Fn))
        It->second = functionChanged(*L, Orig);
    Changed = It->second;
    return !Changed;
  });
  return Changed;
}

llvm::Error Emitter::patchDescriptorsAndMetadata(std::vector<uint8_t> &Img,
                                                 const CodeObject &Orig) {
  MLIRContext &Ctx = *Op.getContext();
  std::map<std::string, DictionaryAttr> ChangedMetadata;
  for (FunctionLayout &L : Funcs) {
    auto K = dyn_cast<KernelOp>(L.Fn);
    if (!K)
      continue;
    auto KDOrErr = attrToDescriptor(K.getDescriptor());
    if (!KDOrErr)
      return llvm::createStringError("kernel " + L.Name + ": " +
                                     llvm::toString(KDOrErr.takeError()));
    KernelDescriptor KD = *KDOrErr;
    // Counts cover what the code now uses (they only grow here).
    DictionaryAttr Meta = K.getMetadata() ? *K.getMetadata() : DictionaryAttr();
    StringRef Cpu = TI.cpu();
    bool UnifiedFile = Cpu == "gfx90a" || Cpu.starts_with("gfx94") ||
                       Cpu == "gfx950" || Cpu == "gfx9-4-generic";
    // Only code that changed can need more registers; unchanged kernels keep
    // their counts exactly.
    // The counts are raised only past what the original code used: the
    // original counts covered that, whatever convention wrote them (Tensile's
    // .vgpr_count, for one, counts differently from LLVM's).
    if (kernelCodeChanged(K, Orig)) {
      RegisterUsage Usage = computeKernelRegisterUsage(K, TI, calls());
      if (LongBranchPair.count(K))
        Usage.NumSGPR = std::max(Usage.NumSGPR, LongBranchPair.lookup(K) + 2);
      RegisterUsage Before = originalKernelUsage(K, Orig);
      if (Usage.NumVGPR > Before.NumVGPR || Usage.NumAGPR > Before.NumAGPR ||
          Usage.NumSGPR > Before.NumSGPR)
        raiseResourceCounts(
            Usage,
            numExtraSGPRs(TI, Usage.UsesVCC, kernelUsesFlatScratch(Usage, KD)),
            UnifiedFile, KD, Meta);
    }
    if (K.getDescriptorAddr() < 0)
      return llvm::createStringError(
          "kernel " + L.Name +
          " has no descriptor address; new kernels are not supported");
    auto NewKDAddr = mapAddress(K.getDescriptorAddr(), "descriptor");
    if (!NewKDAddr)
      return NewKDAddr.takeError();
    KD.KernelCodeEntryByteOffset = int64_t(L.NewStart) - int64_t(*NewKDAddr);
    auto OffOrErr =
        fileOffsetOf(Orig, K.getDescriptorAddr(), KernelDescriptor::Size);
    if (OffOrErr)
      *OffOrErr = fileOff(*OffOrErr);
    if (!OffOrErr)
      return llvm::createStringError("kernel " + L.Name + ": descriptor: " +
                                     llvm::toString(OffOrErr.takeError()));
    auto Bytes = KD.encode();
    std::copy(Bytes.begin(), Bytes.end(), Img.begin() + *OffOrErr);

    // Metadata: the original note is kept as long as the kernel's entry is
    // unchanged.
    if (!Meta)
      continue;
    const KernelInfo *OK = Orig.kernel(L.Name);
    DictionaryAttr Original;
    if (OK)
      if (const llvm::msgpack::DocNode *KN =
              Orig.kernelMetadataNode(OK->DescriptorSym))
        Original = dyn_cast<DictionaryAttr>(msgpackToAttr(Ctx, *KN));
    if (!Original)
      return llvm::createStringError("kernel " + L.Name +
                                     ": has metadata but the original object "
                                     "has none for it");
    if (Original != Meta)
      ChangedMetadata[OK->DescriptorSym] = Meta;
  }
  return patchMetadataNotes(Img, Orig, ChangedMetadata);
}

// Rewrites the notes that hold kernels whose metadata changed, in place.
llvm::Error Emitter::patchMetadataNotes(
    std::vector<uint8_t> &Img, const CodeObject &Orig,
    const std::map<std::string, DictionaryAttr> &Changed) {
  if (Changed.empty())
    return llvm::Error::success();
  size_t Done = 0;
  for (const CodeObject::MetadataNote &Note : Orig.metadataNotes()) {
    uint64_t Off = fileOff(Note.Offset);
    llvm::MutableArrayRef<uint8_t> Bytes(Img.data() + Off, Note.Size);
    llvm::msgpack::Document Doc;
    if (!Doc.readFromBlob(
            llvm::StringRef(reinterpret_cast<const char *>(Bytes.data()),
                            Bytes.size()),
            false))
      return llvm::createStringError("cannot re-read a metadata note");
    auto &Root = Doc.getRoot();
    auto It = Root.getMap().find("amdhsa.kernels");
    if (It == Root.getMap().end() || !It->second.isArray())
      continue;
    bool Any = false;
    for (auto &KN : It->second.getArray()) {
      if (!KN.isMap())
        continue;
      auto S = KN.getMap().find(".symbol");
      if (S == KN.getMap().end() ||
          S->second.getKind() != llvm::msgpack::Type::String)
        continue;
      auto C = Changed.find(S->second.getString().str());
      if (C == Changed.end())
        continue;
      if (llvm::Error E = attrToMsgpack(C->second, Doc, KN))
        return E;
      Any = true;
      ++Done;
    }
    if (Any)
      if (llvm::Error E = patchMetadataInPlace(Bytes, Root))
        return llvm::createStringError(
            formatv("metadata note at file offset {0:x}: {1}", Note.Offset,
                    llvm::toString(std::move(E))));
  }
  if (Done != Changed.size())
    return llvm::createStringError("changed metadata of a kernel that no "
                                   "metadata note holds");
  return llvm::Error::success();
}

llvm::Error Emitter::patchSymbolsAndRelocations(std::vector<uint8_t> &Img,
                                                const CodeObject &Orig) {
  llvm::DenseMap<uint64_t, const FunctionLayout *> ByOldStart;
  for (const FunctionLayout &L : Funcs)
    if (L.OldStart >= 0)
      ByOldStart[L.OldStart] = &L;
  constexpr size_t SymValue = offsetof(llvm::ELF::Elf64_Sym, st_value);
  constexpr size_t SymSize = offsetof(llvm::ELF::Elf64_Sym, st_size);
  const ElfSection *Text = Orig.sectionAt(TextAddr);
  for (const ElfSymbol &ES : Orig.symbols()) {
    // Values are read from Img: growImage may have moved them already.
    uint8_t *Sym = &Img[fileOff(ES.RecordOffset)];
    uint8_t Type = ES.Type;
    uint16_t Shndx = ES.SectionIndex;
    uint64_t Value = endian::read64le(Sym + SymValue);
    // Only symbols defined in .text name code; absolute symbols (the
    // assembler's constants) merely have values that look like it.
    if (!Text || Shndx != Text->Index || !inText(Value) ||
        Type == llvm::ELF::STT_SECTION)
      continue;
    auto It = ByOldStart.find(Value);
    if (It != ByOldStart.end()) {
      endian::write64le(Sym + SymValue, It->second->NewStart);
      uint64_t OldSize = endian::read64le(Sym + SymSize);
      if (Type == llvm::ELF::STT_FUNC && OldSize) {
        // The symbol covers the code without the padding; padding is
        // kept, so the code grew or shrank by the function's growth.
        int64_t Growth = It->second->NewCodeSize - It->second->OldCodeSize;
        endian::write64le(Sym + SymSize, uint64_t(int64_t(OldSize) + Growth));
      }
      continue;
    }
    if (Value == TextAddr + TextSize)
      continue; // end of .text, which does not move
    // Labels past a function's last instruction (in its padding) keep
    // their distance from the end of the code.
    if (!findId(Value)) {
      bool Placed = false;
      for (const FunctionLayout &L : Funcs)
        if (int64_t(Value) >= L.OldStart + L.OldCodeSize &&
            int64_t(Value) < L.OldEnd) {
          uint64_t New = L.NewStart + L.NewCodeSize +
                         (Value - (L.OldStart + L.OldCodeSize));
          endian::write64le(Sym + SymValue, std::min(New, L.NewEnd));
          Placed = true;
          break;
        }
      if (Placed)
        continue;
    }
    // A local untyped symbol is an assembler label (Tensile keeps its
    // loop and skip labels): nothing at run time reads it, and no
    // relocation may patch code. When a pass deleted the instruction it
    // named, it names the next surviving instruction of its function
    // (or the end of the function's code) instead of failing emission.
    if (!findId(Value) && Type == llvm::ELF::STT_NOTYPE &&
        ES.Binding == llvm::ELF::STB_LOCAL) {
      bool Placed = false;
      for (const FunctionLayout &L : Funcs) {
        if (int64_t(Value) < L.OldStart ||
            int64_t(Value) >= L.OldStart + L.OldCodeSize)
          continue;
        auto Next = llvm::partition_point(
            IdPlaces, [&](const IdPlace &P) { return P.Id < int64_t(Value); });
        uint64_t New = L.NewStart + L.NewCodeSize;
        if (Next != IdPlaces.end() && Next->Id < L.OldStart + L.OldCodeSize)
          New = landingAddr(*Next);
        endian::write64le(Sym + SymValue, New);
        Placed = true;
        break;
      }
      if (Placed)
        continue;
    }
    auto NewOrErr = mapAddress(Value, "symbol");
    if (!NewOrErr)
      return NewOrErr.takeError();
    endian::write64le(Sym + SymValue, *NewOrErr);
  }
  constexpr size_t RelaAddend = offsetof(llvm::ELF::Elf64_Rela, r_addend);
  for (const ElfSection &S : Orig.sections()) {
    if (S.Type != llvm::ELF::SHT_RELA)
      continue;
    auto RecordsOrErr = Orig.relocations(S);
    if (!RecordsOrErr)
      return RecordsOrErr.takeError();
    // growImage moved only offsets and addends past .text, so the original
    // values decide what lies in .text.
    for (const ElfRelocation &R : *RecordsOrErr) {
      if (inText(R.Offset))
        return llvm::createStringError(formatv(
            "relocation at {0:x} patches code; not supported", R.Offset));
      if (inText(R.Addend)) {
        auto NewOrErr = mapAddress(R.Addend, "relocation addend");
        if (!NewOrErr)
          return NewOrErr.takeError();
        endian::write64le(&Img[fileOff(R.RecordOffset) + RelaAddend],
                          *NewOrErr);
      }
    }
  }
  return llvm::Error::success();
}


/// DT_* tags whose value is an address.
static bool isAddressTag(uint64_t Tag) {
  switch (Tag) {
  case llvm::ELF::DT_PLTGOT:
  case llvm::ELF::DT_HASH:
  case llvm::ELF::DT_STRTAB:
  case llvm::ELF::DT_SYMTAB:
  case llvm::ELF::DT_RELA:
  case llvm::ELF::DT_INIT:
  case llvm::ELF::DT_FINI:
  case llvm::ELF::DT_REL:
  case llvm::ELF::DT_JMPREL:
  case llvm::ELF::DT_INIT_ARRAY:
  case llvm::ELF::DT_FINI_ARRAY:
  case llvm::ELF::DT_PREINIT_ARRAY:
  case llvm::ELF::DT_GNU_HASH:
  case llvm::ELF::DT_VERSYM:
  case llvm::ELF::DT_VERDEF:
  case llvm::ELF::DT_VERNEED:
  case llvm::ELF::DT_RELR:
    return true;
  default:
    return false;
  }
}

// .text grows by Growth bytes: every byte after it in the file, and every
// address after it, moves by Delta (a multiple of every alignment, so that
// sections stay aligned and segments keep offset == address mod page size).
// Headers, dynamic entries, symbols and relocations that point past .text
// follow. Code inside .text was laid out by layout() already.
llvm::Error Emitter::growImage(std::vector<uint8_t> &Img, const CodeObject &Orig,
                               const ElfSection &Text,
                               const std::vector<uint8_t> &NewText) {
  uint64_t V = TextAddr + TextSize, F = Text.Offset + TextSize;
  for (const ElfSection &S : Orig.sections())
    if (S.isAlloc() && S.Index != Text.Index && S.Size && S.Addr < V &&
        S.Addr + S.Size > TextAddr)
      return llvm::createStringError("section " + S.Name +
                                     " overlaps .text; cannot grow it");
  std::vector<uint8_t> Out;
  Out.reserve(Img.size() + Delta);
  Out.insert(Out.end(), Img.begin(), Img.begin() + Text.Offset);
  Out.insert(Out.end(), NewText.begin(), NewText.end());
  Out.resize(Out.size() + (Delta - Growth), 0);
  Out.insert(Out.end(), Img.begin() + F, Img.end());

  auto shiftAddr = [&](uint8_t *P) {
    uint64_t A = endian::read64le(P);
    if (A >= V)
      endian::write64le(P, A + Delta);
  };
  // ELF header: the section header table offset.
  uint64_t ShOff = endian::read64le(&Out[0x28]);
  if (ShOff >= F)
    endian::write64le(&Out[0x28], ShOff + Delta);
  uint16_t ShNum = endian::read16le(&Out[0x3c]);
  uint64_t PhOff = endian::read64le(&Out[0x20]);
  uint16_t PhNum = endian::read16le(&Out[0x38]);
  // Section headers (64 bytes each).
  for (unsigned I = 0; I < ShNum; ++I) {
    uint8_t *Sh = &Out[fileOff(ShOff) + 64 * I];
    uint64_t Off = endian::read64le(Sh + 0x18);
    uint64_t Flags = endian::read64le(Sh + 0x08);
    if (I == Text.Index) {
      endian::write64le(Sh + 0x20, TextSize + Growth);
      continue;
    }
    if (Off >= F)
      endian::write64le(Sh + 0x18, Off + Delta);
    if (Flags & llvm::ELF::SHF_ALLOC)
      shiftAddr(Sh + 0x10);
  }
  // Program headers (56 bytes each).
  for (unsigned I = 0; I < PhNum; ++I) {
    uint8_t *Ph = &Out[PhOff + 56 * I];
    uint64_t Off = endian::read64le(Ph + 0x08);
    uint64_t VAddr = endian::read64le(Ph + 0x10);
    uint64_t MemSz = endian::read64le(Ph + 0x28);
    if (VAddr <= TextAddr && TextAddr < VAddr + MemSz) {
      if (VAddr + MemSz != V)
        return llvm::createStringError(
            "the segment holding .text continues after it; cannot grow it");
      endian::write64le(Ph + 0x20, endian::read64le(Ph + 0x20) + Growth);
      endian::write64le(Ph + 0x28, MemSz + Growth);
      continue;
    }
    if (Off >= F)
      endian::write64le(Ph + 0x08, Off + Delta);
    if (VAddr >= V && (VAddr || MemSz)) {
      endian::write64le(Ph + 0x10, VAddr + Delta);
      shiftAddr(Ph + 0x18);
    }
  }
  for (const ElfSection &S : Orig.sections()) {
    uint64_t Base = fileOff(S.Offset);
    if (S.Type == llvm::ELF::SHT_DYNAMIC) {
      for (uint64_t Off = Base; Off + 16 <= Base + S.Size; Off += 16)
        if (isAddressTag(endian::read64le(&Out[Off])))
          shiftAddr(&Out[Off + 8]);
    } else if (S.Type == llvm::ELF::SHT_RELA) {
      auto RecordsOrErr = Orig.relocations(S);
      if (!RecordsOrErr)
        return RecordsOrErr.takeError();
      for (const ElfRelocation &R : *RecordsOrErr) {
        uint8_t *Rec = &Out[fileOff(R.RecordOffset)];
        shiftAddr(Rec + offsetof(llvm::ELF::Elf64_Rela, r_offset));
        if (R.Type == llvm::ELF::R_AMDGPU_RELATIVE64)
          shiftAddr(Rec + offsetof(llvm::ELF::Elf64_Rela, r_addend));
      }
    } else if (S.Type == llvm::ELF::SHT_REL) {
      return llvm::createStringError("SHT_REL section " + S.Name +
                                     " is not supported when .text grows");
    }
  }
  for (const ElfSymbol &ES : Orig.symbols()) {
    if (ES.SectionIndex == llvm::ELF::SHN_UNDEF ||
        ES.SectionIndex >= llvm::ELF::SHN_LORESERVE)
      continue;
    uint8_t *Value = &Out[fileOff(ES.RecordOffset) +
                          offsetof(llvm::ELF::Elf64_Sym, st_value)];
    if (ES.SectionIndex == Text.Index) {
      if (ES.Value == V) // the end of .text
        endian::write64le(Value, V + Growth);
      continue; // code: placed by patchSymbolsAndRelocations
    }
    shiftAddr(Value);
  }
  Img = std::move(Out);
  return llvm::Error::success();
}

llvm::Expected<std::vector<uint8_t>> Emitter::run() {
  auto Image = dyn_cast_or_null<DenseResourceElementsAttr>(Op.getImageAttr());
  if (!Image)
    return llvm::createStringError(
        "the code object has no original image (attribute 'image'); emission "
        "patches the original ELF and needs it");
  ArrayRef<char> Data = Image.getData();
  std::vector<uint8_t> Img(Data.begin(), Data.end());
  auto OrigOrErr = CodeObject::parse(
      llvm::MemoryBuffer::getMemBuffer(
          llvm::StringRef(Data.data(), Data.size()), "image", false),
      Op.getSourceName().value_or("image"));
  if (!OrigOrErr)
    return OrigOrErr.takeError();
  const CodeObject &Orig = **OrigOrErr;
  TextAddr = Op.getTextAddr();
  TextSize = Op.getTextSize();
  if (Op.getBodyBlock().empty())
    return Img;
  const ElfSection *Text = Orig.sectionAt(TextAddr);
  if (!Text || Text->Addr != TextAddr || Text->Size != TextSize)
    return llvm::createStringError(
        formatv("text_addr {0:x}/text_size {1:x} do not match a section of "
                "the image",
                TextAddr, TextSize));
  // Lay out until no branch is out of range (long branches only grow).
  for (unsigned Round = 0;; ++Round) {
    if (llvm::Error E = layout())
      return std::move(E);
    auto NewOrErr = findLongBranches();
    if (!NewOrErr)
      return NewOrErr.takeError();
    if (!*NewOrErr)
      break;
    if (Round > 64)
      return llvm::createStringError("long-branch expansion does not settle");
  }
  if (NewTextEnd > TextAddr + TextSize) {
    Growth = NewTextEnd - (TextAddr + TextSize);
    uint64_t MaxAlign = 4096;
    for (const ElfSegment &Seg : Orig.segments())
      if (Seg.Type == llvm::ELF::PT_LOAD)
        MaxAlign = std::max<uint64_t>(MaxAlign, Seg.Align);
    for (const ElfSection &S : Orig.sections())
      if (S.isAlloc())
        MaxAlign = std::max<uint64_t>(MaxAlign, S.Align);
    if (MaxAlign > (1u << 16) || !llvm::isPowerOf2_64(MaxAlign))
      return llvm::createStringError(formatv(
          "cannot grow .text: a section or segment alignment of {0} bytes is "
          "not a power of two up to 64 KiB",
          MaxAlign));
    Delta = llvm::alignTo(Growth, MaxAlign);
    TextFileEnd = Text->Offset + TextSize;
  }
  std::vector<uint8_t> NewText;
  NewText.reserve(TextSize);
  if (llvm::Error E = encodeText(NewText))
    return std::move(E);
  Stats.TextGrowth = int64_t(NewText.size()) - int64_t(TextSize);
  if (Growth) {
    if (llvm::Error E = growImage(Img, Orig, *Text, NewText))
      return std::move(E);
  } else {
    uint32_t Fill = Funcs.empty() ? 0 : fillWordOf(Funcs.back().Fn);
    while (NewText.size() < TextSize)
      put32(NewText, Fill);
    std::copy(NewText.begin(), NewText.end(), Img.begin() + Text->Offset);
  }
  // Kept for change detection; the fill after the last function changes no
  // function's bytes. Moved, not copied: .text can be over 100 MB.
  EmittedText = std::move(NewText);
  if (llvm::Error E = patchDescriptorsAndMetadata(Img, Orig))
    return std::move(E);
  bool Changed = Growth != 0;
  for (const FunctionLayout &L : Funcs)
    Changed |= L.OldStart != int64_t(L.NewStart) ||
               L.OldCodeSize != L.NewCodeSize;
  if (Changed)
    if (llvm::Error E = patchSymbolsAndRelocations(Img, Orig))
      return std::move(E);
  return Img;
}

llvm::Expected<std::vector<uint8_t>> asmevo::emitCodeObject(CodeObjectOp Op,
                                                            EmitStats *Stats) {
  auto TIOrErr = Op.getTargetInfo();
  if (!TIOrErr)
    return TIOrErr.takeError();
  EmitStats Local;
  Emitter E(Op, **TIOrErr, Stats ? *Stats : Local);
  return E.run();
}
