//===- Recover.cpp - Code object -> amdgcn dialect ------------------------===//
//
// Recovery walks each executable section function by function: linear
// disassembly (cached by encoding), trailing padding split off, branch
// targets turned into blocks, and PC-relative address computations
// (s_getpc_b64 + s_add_u32/s_addc_u32 with literals) recorded so that
// emission can recompute them after a re-layout.
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/Recover.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <optional>
#include <set>

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;
using llvm::formatv;

//===----------------------------------------------------------------------===//
// Metadata and descriptor attributes
//===----------------------------------------------------------------------===//

Attribute asmevo::msgpackToAttr(MLIRContext &Ctx,
                                const llvm::msgpack::DocNode &Node) {
  Builder B(&Ctx);
  switch (Node.getKind()) {
  case llvm::msgpack::Type::Map: {
    SmallVector<NamedAttribute> Entries;
    for (auto &[K, V] : const_cast<llvm::msgpack::DocNode &>(Node).getMap()) {
      std::string Key;
      switch (K.getKind()) {
      case llvm::msgpack::Type::String:
        Key = K.getString().str();
        break;
      case llvm::msgpack::Type::Int:
      case llvm::msgpack::Type::UInt:
      case llvm::msgpack::Type::Boolean:
      case llvm::msgpack::Type::Float:
        Key = K.toString();
        break;
      default:
        Key = "<non-scalar key>"; // toString() only handles scalars
      }
      Entries.push_back(B.getNamedAttr(Key, msgpackToAttr(Ctx, V)));
    }
    return B.getDictionaryAttr(Entries);
  }
  case llvm::msgpack::Type::Array: {
    SmallVector<Attribute> Elts;
    for (auto &V : const_cast<llvm::msgpack::DocNode &>(Node).getArray())
      Elts.push_back(msgpackToAttr(Ctx, V));
    return B.getArrayAttr(Elts);
  }
  case llvm::msgpack::Type::String:
    return B.getStringAttr(Node.getString());
  case llvm::msgpack::Type::UInt:
    return B.getI64IntegerAttr(int64_t(Node.getUInt()));
  case llvm::msgpack::Type::Int:
    return B.getI64IntegerAttr(Node.getInt());
  case llvm::msgpack::Type::Boolean:
    return B.getBoolAttr(Node.getBool());
  case llvm::msgpack::Type::Float:
    return B.getF64FloatAttr(Node.getFloat());
  default:
    return B.getUnitAttr();
  }
}

llvm::Error asmevo::attrToMsgpack(Attribute Attr, llvm::msgpack::Document &Doc,
                                  llvm::msgpack::DocNode &Out) {
  if (auto D = dyn_cast<DictionaryAttr>(Attr)) {
    Out = Doc.getMapNode();
    for (NamedAttribute E : D) {
      llvm::msgpack::DocNode V;
      if (llvm::Error Err = attrToMsgpack(E.getValue(), Doc, V))
        return Err;
      Out.getMap()[Doc.getNode(E.getName().getValue(), /*Copy=*/true)] = V;
    }
    return llvm::Error::success();
  }
  if (auto A = dyn_cast<ArrayAttr>(Attr)) {
    Out = Doc.getArrayNode();
    for (Attribute E : A) {
      llvm::msgpack::DocNode V;
      if (llvm::Error Err = attrToMsgpack(E, Doc, V))
        return Err;
      Out.getArray().push_back(V);
    }
    return llvm::Error::success();
  }
  if (auto S = dyn_cast<StringAttr>(Attr)) {
    Out = Doc.getNode(S.getValue(), /*Copy=*/true);
    return llvm::Error::success();
  }
  // BoolAttr is an i1 IntegerAttr: test it first.
  if (auto Bo = dyn_cast<BoolAttr>(Attr)) {
    Out = Doc.getNode(Bo.getValue());
    return llvm::Error::success();
  }
  if (auto I = dyn_cast<IntegerAttr>(Attr)) {
    int64_t V = I.getValue().getSExtValue();
    Out = V >= 0 ? Doc.getNode(uint64_t(V)) : Doc.getNode(V);
    return llvm::Error::success();
  }
  if (auto F = dyn_cast<FloatAttr>(Attr)) {
    Out = Doc.getNode(F.getValueAsDouble());
    return llvm::Error::success();
  }
  if (isa<UnitAttr>(Attr)) {
    Out = Doc.getEmptyNode();
    return llvm::Error::success();
  }
  return llvm::createStringError("metadata attribute has no msgpack form");
}

DictionaryAttr asmevo::descriptorToAttr(MLIRContext &Ctx,
                                        const KernelDescriptor &KD) {
  Builder B(&Ctx);
  SmallVector<NamedAttribute> Entries;
  for (auto &[Name, Value] : KD.fields())
    if (Value)
      Entries.push_back(B.getNamedAttr(Name, B.getI64IntegerAttr(Value)));
  // Reserved bytes are kept only when they are not zero.
  static const std::pair<unsigned, unsigned> Reserved[] = {
      {12, 4}, {24, 20}, {60, 4}};
  std::string Hex;
  for (auto [Off, Len] : Reserved)
    for (unsigned I = 0; I < Len; ++I)
      if (KD.Raw[Off + I]) {
        Hex.clear();
        for (unsigned J = 0; J < KernelDescriptor::Size; ++J)
          Hex += llvm::toHex(ArrayRef<uint8_t>(KD.Raw[J]), /*LowerCase=*/true);
        break;
      }
  if (!Hex.empty())
    Entries.push_back(B.getNamedAttr("reserved_bytes", B.getStringAttr(Hex)));
  return B.getDictionaryAttr(Entries);
}

llvm::Expected<KernelDescriptor> asmevo::attrToDescriptor(DictionaryAttr Attr) {
  KernelDescriptor KD;
  if (auto Hex = Attr.getAs<StringAttr>("reserved_bytes")) {
    std::string Bytes;
    if (Hex.getValue().size() != 2 * KernelDescriptor::Size ||
        !llvm::tryGetFromHex(Hex.getValue(), Bytes))
      return llvm::createStringError("descriptor reserved_bytes must be 128 "
                                     "hex digits");
    std::copy(Bytes.begin(), Bytes.end(), KD.Raw.begin());
    KD = KernelDescriptor::decode(KD.Raw);
    // Fields come from the named entries; start them from zero.
    KD.GroupSegmentFixedSize = KD.PrivateSegmentFixedSize = KD.KernargSize = 0;
    KD.ComputePgmRsrc1 = KD.ComputePgmRsrc2 = KD.ComputePgmRsrc3 = 0;
    KD.KernelCodeProperties = KD.KernargPreload = 0;
  }
  for (NamedAttribute F : Attr) {
    if (F.getName() == "reserved_bytes")
      continue;
    auto I = dyn_cast<IntegerAttr>(F.getValue());
    if (!I)
      return llvm::createStringError("descriptor field " +
                                     F.getName().getValue() +
                                     " is not an integer");
    if (!KD.setField(F.getName().getValue(), I.getValue().getZExtValue()))
      return llvm::createStringError(
          "unknown descriptor field or value out of range: " +
          F.getName().getValue());
  }
  return KD;
}

//===----------------------------------------------------------------------===//
// Code recovery
//===----------------------------------------------------------------------===//

namespace {

bool isPaddingWord(uint32_t W) {
  return W == 0xBF800000u /* s_nop 0 */ || W == 0xBF9F0000u /* s_code_end */ ||
         W == 0;
}

/// The instructions recovery treats specially, by mnemonic.
enum class Kind : uint8_t {
  Other,
  Branch,      // s_branch
  CondBranch,  // s_cbranch_*
  Endpgm,      // s_endpgm
  EndpgmOther, // s_endpgm_saved, s_endpgm_ordered_ps_done
  SetPc,       // s_setpc_b64
  GetPc,       // s_getpc_b64
  Waitcnt,
  Nop,
  Barrier,
};

Kind kindOf(StringRef M) {
  if (!M.starts_with("s_"))
    return Kind::Other;
  if (M.starts_with("s_cbranch_"))
    return Kind::CondBranch;
  if (M.starts_with("s_endpgm"))
    return M == "s_endpgm" ? Kind::Endpgm : Kind::EndpgmOther;
  return llvm::StringSwitch<Kind>(M)
      .Case("s_branch", Kind::Branch)
      .Case("s_setpc_b64", Kind::SetPc)
      .Case("s_getpc_b64", Kind::GetPc)
      .Case("s_waitcnt", Kind::Waitcnt)
      .Case("s_nop", Kind::Nop)
      .Case("s_barrier", Kind::Barrier)
      .Default(Kind::Other);
}

struct RawInst {
  uint64_t Addr = 0;
  ArrayRef<uint8_t> Bytes;
  const DecodedInst *D = nullptr; // null: undecodable word
  // Read from D while it is in cache: later passes over a big function
  // would miss on every decoded instruction again.
  Kind K = Kind::Other;
  bool HasPcRel = false; // an OPERAND_PCREL operand
  // Filled by analysis.
  int64_t BranchTarget = -1;
  int PcRelPart = 0;
  int64_t PcRelTarget = -1, PcRelAnchor = -1, PcRelBias = 0;
  // s_setpc_b64 whose address was computed by a recognised PC-relative pair
  // (the compiler's long branch): its target.
  int64_t JumpTarget = -1;
};

struct FunctionRange {
  uint64_t Start = 0, End = 0;
  std::string Name;
  const KernelInfo *Kernel = nullptr;
};

class Recoverer {
public:
  Recoverer(MLIRContext &Ctx, const CodeObject &CO, TargetInfo &TI,
            RecoverStats &Stats)
      : Ctx(Ctx), CO(CO), TI(TI), Stats(Stats), B(&Ctx),
        InstName(InstOp::getOperationName(), &Ctx),
        NoAttrs(DictionaryAttr::get(&Ctx)) {}

  llvm::Expected<OwningOpRef<CodeObjectOp>> run();

private:
  llvm::Error recoverSection(const ElfSection &Sec, Block &Body);
  llvm::Error recoverFunction(const FunctionRange &F, const ElfSection &Sec,
                              Block &Body);
  void findPcRel(std::vector<RawInst> &Insts, size_t GetPc,
                 std::string &NotRelocatable);
  bool findTensileBranch(std::vector<RawInst> &Insts, size_t GetPc, unsigned Lo,
                         std::string &Why);
  uint32_t word(ArrayRef<uint8_t> Bytes) {
    return llvm::support::endian::read32le(Bytes.data());
  }

  MLIRContext &Ctx;
  const CodeObject &CO;
  TargetInfo &TI;
  RecoverStats &Stats;
  OpBuilder B;
  std::set<std::string> UsedNames;
  // Most ops are amdgcn.inst; InstOp::create would look its name up in the
  // context and copy its properties through the heap, for every one.
  OperationName InstName;
  DictionaryAttr NoAttrs;
  // Per function: code addresses Tensile's address computations put in an
  // SGPR pair without jumping there (s_getpc_b64 address, target).
  std::vector<std::pair<uint64_t, int64_t>> CodeAddresses;
  // Per function: modelled sequences that must be entered only at their
  // s_getpc_b64 (instruction indices after it up to their last one; Allowed:
  // the one address the sequence's own branch may enter, or -1).
  struct Sequence {
    size_t GetPc, Last;
    int64_t Allowed = -1;
  };
  std::vector<Sequence> Sequences;
};

} // namespace

llvm::Expected<OwningOpRef<CodeObjectOp>> Recoverer::run() {
  Location Loc = UnknownLoc::get(&Ctx);
  OwningOpRef<CodeObjectOp> Op = CodeObjectOp::create(B, Loc, CO.targetId());
  ArrayRef<uint8_t> Img = CO.image();
  auto Blob = HeapAsmResourceBlob::allocateAndCopyInferAlign(ArrayRef<char>(
      reinterpret_cast<const char *>(Img.data()), Img.size()));
  auto Type = RankedTensorType::get({int64_t(Img.size())},
                                    IntegerType::get(&Ctx, 8));
  Op->setImageAttr(
      DenseResourceElementsAttr::get(Type, "elf_image", std::move(Blob)));
  Op->setSourceNameAttr(B.getStringAttr(CO.name()));
  unsigned ExecSections = 0;
  for (const ElfSection &Sec : CO.sections()) {
    if (!Sec.isExec() || !Sec.isAlloc() || !Sec.Size)
      continue;
    if (++ExecSections > 1)
      return llvm::createStringError(
          "more than one executable section (" + Sec.Name +
          "): not supported yet");
    Op->setTextAddr(Sec.Addr);
    Op->setTextSize(Sec.Size);
    if (llvm::Error E = recoverSection(Sec, Op->getBodyBlock()))
      return std::move(E);
  }
  if (!ExecSections && !CO.kernels().empty())
    return llvm::createStringError("kernels but no executable section");
  return std::move(Op);
}

llvm::Error Recoverer::recoverSection(const ElfSection &Sec, Block &Body) {
  // Function starts: FUNC symbols, kernel entries, and the section start.
  std::map<uint64_t, FunctionRange> Starts;
  auto inSec = [&](uint64_t A) { return A >= Sec.Addr && A < Sec.Addr + Sec.Size; };
  for (const ElfSymbol &S : CO.symbols()) {
    if (S.Type != llvm::ELF::STT_FUNC || !inSec(S.Value))
      continue;
    FunctionRange &F = Starts[S.Value];
    F.Start = S.Value;
    // Prefer .symtab names (local functions are only there).
    if (F.Name.empty() || !S.Dynamic)
      F.Name = S.Name;
  }
  for (const KernelInfo &K : CO.kernels()) {
    if (!inSec(K.CodeAddr))
      continue;
    FunctionRange &F = Starts[K.CodeAddr];
    if (F.Kernel)
      return llvm::createStringError(formatv(
          "kernels {0} and {1} share code at {2:x}: not supported", F.Kernel->Name,
          K.Name, K.CodeAddr));
    F.Start = K.CodeAddr;
    F.Kernel = &K;
    F.Name = K.Name;
  }
  if (!Starts.count(Sec.Addr)) {
    FunctionRange &F = Starts[Sec.Addr];
    F.Start = Sec.Addr;
  }
  std::vector<FunctionRange> Funcs;
  for (auto &[Addr, F] : Starts)
    Funcs.push_back(F);
  for (size_t I = 0; I < Funcs.size(); ++I)
    Funcs[I].End = I + 1 < Funcs.size() ? Funcs[I + 1].Start : Sec.Addr + Sec.Size;
  for (FunctionRange &F : Funcs) {
    if (F.Name.empty())
      F.Name = formatv("__text_{0:x}", F.Start).str();
    std::string Name = F.Name;
    for (unsigned N = 1; UsedNames.count(Name); ++N)
      Name = formatv("{0}.{1}", F.Name, N).str();
    UsedNames.insert(Name);
    F.Name = Name;
    if (llvm::Error E = recoverFunction(F, Sec, Body))
      return E;
  }
  return llvm::Error::success();
}

void Recoverer::findPcRel(std::vector<RawInst> &Insts, size_t GetPc,
                          std::string &NotRelocatable) {
  RawInst &G = Insts[GetPc];
  const llvm::MCInst &MI = G.D->Inst;
  RegRange Dst = MI.getNumOperands() ? TI.classify(MI.getOperand(0).getReg())
                                     : RegRange();
  if (Dst.Kind != RegKind::SGPR || Dst.Count != 2) {
    NotRelocatable = formatv("s_getpc_b64 at {0:x} with an unexpected "
                             "destination",
                             G.Addr);
    return;
  }
  llvm::MCRegister Lo = MI.getOperand(0).getReg();
  int LoIdx = -1, HiIdx = -1;
  SmallVector<RegAccess, 8> Acc;
  for (size_t J = GetPc + 1; J < Insts.size() && J < GetPc + 24; ++J) {
    RawInst &I = Insts[J];
    if (!I.D)
      break;
    const llvm::MCInst &M = I.D->Inst;
    auto sameSgpr = [&](const llvm::MCOperand &Op, unsigned Index) {
      if (!Op.isReg())
        return false;
      RegRange R = TI.classify(Op.getReg());
      return R.Kind == RegKind::SGPR && R.Count == 1 && R.First == Index;
    };
    bool HasLiteral = I.Bytes.size() == 8 && M.getNumOperands() == 3;
    if (LoIdx < 0 && I.D->Mnemonic == "s_add_u32" && HasLiteral &&
        sameSgpr(M.getOperand(0), Dst.First) &&
        sameSgpr(M.getOperand(1), Dst.First)) {
      LoIdx = J;
      continue;
    }
    if (LoIdx >= 0 && HiIdx < 0 && I.D->Mnemonic == "s_addc_u32" &&
        HasLiteral && sameSgpr(M.getOperand(0), Dst.First + 1) &&
        sameSgpr(M.getOperand(1), Dst.First + 1)) {
      HiIdx = J;
      break;
    }
    // Any other access to the pair before both halves are found is a use
    // of the raw PC that asmevo does not model.
    Acc.clear();
    TI.accesses(M, Acc);
    bool Touches = false;
    for (const RegAccess &A : Acc)
      Touches |= TI.regsOverlap(A.Reg, Lo) ||
                 [&] {
                   RegRange R = TI.classify(A.Reg);
                   return R.Kind == RegKind::SGPR &&
                          R.First <= Dst.First + 1 &&
                          Dst.First < R.First + R.Count;
                 }();
    if (Touches || TI.desc(M.getOpcode()).isTerminator())
      break;
  }
  if (LoIdx < 0 || HiIdx < 0) {
    std::string Why;
    if (findTensileBranch(Insts, GetPc, Dst.First, Why))
      return;
    if (!Why.empty()) {
      NotRelocatable = std::move(Why);
      return;
    }
    // Name what follows, so that unmodelled forms can be told apart.
    std::string Next;
    for (size_t J = GetPc + 1; J < Insts.size() && J < GetPc + 5; ++J)
      Next += (Next.empty() ? "" : ", ") +
              (Insts[J].D ? Insts[J].D->Mnemonic : std::string("<raw>"));
    NotRelocatable = formatv("s_getpc_b64 at {0:x} is not followed by "
                             "s_add_u32/s_addc_u32 with literals nor by a "
                             "Tensile offset sequence (next: {1}); its use of "
                             "the PC is not modelled",
                             G.Addr, Next);
    return;
  }
  uint64_t LoV = word(Insts[LoIdx].Bytes.drop_front(4));
  uint64_t HiV = word(Insts[HiIdx].Bytes.drop_front(4));
  int64_t Offset = int64_t(LoV | HiV << 32);
  int64_t Target = int64_t(G.Addr + 4) + Offset;
  for (int Idx : {LoIdx, HiIdx}) {
    Insts[Idx].PcRelPart = Idx == LoIdx ? InstOp::PcRelLo : InstOp::PcRelHi;
    Insts[Idx].PcRelTarget = Target;
    Insts[Idx].PcRelAnchor = G.Addr;
  }
  ++Stats.PcRelPairs;
  // A long branch: s_setpc_b64 of the same pair, nothing else touching it
  // in between, jumps to Target.
  for (size_t J = HiIdx + 1; J < Insts.size() && J < size_t(HiIdx) + 16; ++J) {
    RawInst &I = Insts[J];
    if (!I.D)
      break;
    const llvm::MCInst &M = I.D->Inst;
    if (I.D->Mnemonic == "s_setpc_b64" && M.getNumOperands() == 1 &&
        M.getOperand(0).isReg() &&
        TI.classify(M.getOperand(0).getReg()).Kind == RegKind::SGPR &&
        TI.classify(M.getOperand(0).getReg()).First == Dst.First &&
        TI.classify(M.getOperand(0).getReg()).Count == 2) {
      I.JumpTarget = Target;
      Sequences.push_back({GetPc, J});
      break;
    }
    Acc.clear();
    TI.accesses(M, Acc);
    bool Touches = false;
    for (const RegAccess &A : Acc) {
      RegRange R = TI.classify(A.Reg);
      Touches |= R.Kind == RegKind::SGPR && R.First <= Dst.First + 1 &&
                 Dst.First < R.First + R.Count;
    }
    if (Touches || TI.desc(M.getOpcode()).isTerminator())
      break;
  }
}

// Tensile's PC-relative sequences (hand-written assembly; TensileLite's
// SLongBranchPositive/Negative, SLongBranch and SGetPositivePCOffset in
// rocisa's ExtInstructions): the label's PC-relative fixup makes LIT + C the
// offset from the end of the s_getpc_b64 to the target.
//   s_getpc_b64 s[a:a+1]
//   s_add_i32 sT, LIT, C          (or s_sub_i32 sT, LIT, C / s_mov_b32 sT, LIT)
// followed by one of
//   s_add_u32 sa, sa, sT ; s_addc_u32 sa+1, sa+1, 0 ; s_setpc_b64 s[a:a+1]
//   s_sub_u32 sa, sa, sT ; s_subb_u32 sa+1, sa+1, 0 ; s_setpc_b64 s[a:a+1]
//   s_abs_i32 sT, sT ; s_sub_u32 ; s_subb_u32 ; s_setpc_b64   (LIT + C <= 0)
//   s_cmp_ge_i32 sT, 0 ; s_cbranch_scc1 P ; s_abs_i32 sT, sT ;
//     s_sub_u32 ; s_subb_u32 ; s_setpc_b64 ;
//     P: s_add_u32 ; s_addc_u32 ; s_setpc_b64     (either direction)
//   s_add_u32 sa, sa, sT ; s_addc_u32 sa+1, sa+1, 0 and no s_setpc_b64: the
//     pair holds the target's address (Tensile's activation functions,
//     called later with s_swappc_b64)
// Every instruction must match exactly. Returns false with Why empty when
// the s_getpc_b64 is not followed by Tensile's offset instruction, with Why
// set when it is but the rest is not one of these forms.
bool Recoverer::findTensileBranch(std::vector<RawInst> &Insts, size_t GetPc,
                                  unsigned Lo, std::string &Why) {
  auto sgpr = [&](const llvm::MCOperand &Op, unsigned &Index) {
    if (!Op.isReg())
      return false;
    RegRange R = TI.classify(Op.getReg());
    Index = R.First;
    return R.Kind == RegKind::SGPR && R.Count == 1;
  };
  auto isImm = [](const llvm::MCOperand &Op, int64_t V) {
    return Op.isImm() && Op.getImm() == V;
  };
  size_t I = GetPc + 1;
  if (I >= Insts.size() || !Insts[I].D)
    return false;
  RawInst &Def = Insts[I];
  // sT = LIT (+|-) C, LIT a 32-bit literal (8-byte encoding).
  const llvm::MCInst &DM = Def.D->Inst;
  unsigned T, X;
  int64_t Bias = 0;
  StringRef DN = Def.D->Mnemonic;
  if (Def.Bytes.size() != 8 || !DM.getNumOperands() ||
      !sgpr(DM.getOperand(0), T))
    return false;
  uint32_t Lit = word(Def.Bytes.drop_front(4));
  // A literal whose value is also an inline constant (a short branch: the
  // assembler encodes the label difference as a literal anyway) decodes as
  // a constant expression, printed lit(...), not as an immediate.
  auto isLiteral = [&](const llvm::MCOperand &Op) {
    int64_t V;
    if (Op.isImm())
      V = Op.getImm();
    else if (!Op.isExpr() || !Op.getExpr()->evaluateAsAbsolute(V))
      return false;
    return uint32_t(V) == Lit;
  };
  if ((DN == "s_add_i32" || DN == "s_sub_i32") && DM.getNumOperands() == 3 &&
      DM.getOperand(2).isImm() && isLiteral(DM.getOperand(1))) {
    int64_t C = DM.getOperand(2).getImm();
    if (C < -16 || C > 64) // an inline constant
      return false;
    Bias = DN == "s_add_i32" ? C : -C;
  } else if (DN == "s_mov_b32" && DM.getNumOperands() == 2 &&
             isLiteral(DM.getOperand(1))) {
    Bias = 0;
  } else {
    return false;
  }
  if (T == Lo || T == Lo + 1)
    return false;
  auto at = [&](size_t J) -> const DecodedInst * {
    return J < Insts.size() ? Insts[J].D : nullptr;
  };
  // J: AddM sa, sa, sT ; J + 1: CarryM sa+1, sa+1, 0.
  auto pairAt = [&](size_t J, StringRef AddM, StringRef CarryM) {
    const DecodedInst *A = at(J), *C = at(J + 1);
    if (!A || !C || A->Mnemonic != AddM || C->Mnemonic != CarryM)
      return false;
    const llvm::MCInst &AM = A->Inst, &CM = C->Inst;
    return AM.getNumOperands() == 3 && CM.getNumOperands() == 3 &&
           sgpr(AM.getOperand(0), X) && X == Lo && sgpr(AM.getOperand(1), X) &&
           X == Lo && sgpr(AM.getOperand(2), X) && X == T &&
           sgpr(CM.getOperand(0), X) && X == Lo + 1 &&
           sgpr(CM.getOperand(1), X) && X == Lo + 1 &&
           isImm(CM.getOperand(2), 0);
  };
  auto setPcAt = [&](size_t J) {
    const DecodedInst *S = at(J);
    if (!S || S->Mnemonic != "s_setpc_b64" || S->Inst.getNumOperands() != 1 ||
        !S->Inst.getOperand(0).isReg())
      return false;
    RegRange P = TI.classify(S->Inst.getOperand(0).getReg());
    return P.Kind == RegKind::SGPR && P.First == Lo && P.Count == 2;
  };
  // sT's 32 bits as the hardware computes them.
  uint32_t Sum = uint32_t(int64_t(int32_t(Lit)) + Bias);
  uint64_t Anchor = Insts[GetPc].Addr;
  auto mark = [&](int Part, int64_t Target) {
    Def.PcRelPart = Part;
    Def.PcRelTarget = Target;
    Def.PcRelAnchor = Anchor;
    Def.PcRelBias = Bias;
    ++Stats.PcRelPairs;
  };
  if (pairAt(I + 1, "s_add_u32", "s_addc_u32")) {
    int64_t Target = int64_t(Anchor + 4 + Sum);
    mark(InstOp::PcRelAdd, Target);
    if (setPcAt(I + 3)) {
      Insts[I + 3].JumpTarget = Target;
      Sequences.push_back({GetPc, I + 3});
    } else { // the pair now holds the target's address
      CodeAddresses.push_back({Anchor, Target});
      Sequences.push_back({GetPc, I + 2});
    }
    return true;
  }
  if (pairAt(I + 1, "s_sub_u32", "s_subb_u32") && setPcAt(I + 3)) {
    int64_t Target = int64_t(Anchor + 4) - int64_t(Sum);
    mark(InstOp::PcRelSub, Target);
    Insts[I + 3].JumpTarget = Target;
    Sequences.push_back({GetPc, I + 3});
    return true;
  }
  auto absAt = [&](size_t J) {
    const DecodedInst *A = at(J);
    return A && A->Mnemonic == "s_abs_i32" && A->Inst.getNumOperands() == 2 &&
           sgpr(A->Inst.getOperand(0), X) && X == T &&
           sgpr(A->Inst.getOperand(1), X) && X == T;
  };
  // Backward only: |sT| is subtracted, which is sT's offset when sT <= 0.
  if (absAt(I + 1) && pairAt(I + 2, "s_sub_u32", "s_subb_u32") &&
      setPcAt(I + 4)) {
    if (int32_t(Sum) > 0) {
      Why = formatv("s_getpc_b64 at {0:x}: Tensile's backward long branch "
                    "with a positive offset {1}",
                    Anchor, int32_t(Sum));
      return false;
    }
    int64_t Target = int64_t(Anchor + 4) + int64_t(int32_t(Sum));
    mark(InstOp::PcRelSigned, Target);
    Insts[I + 4].JumpTarget = Target;
    Sequences.push_back({GetPc, I + 4});
    return true;
  }
  // The two-way form: the sign of sT picks the direction.
  const DecodedInst *Cmp = at(I + 1), *Br = at(I + 2);
  bool TwoWay =
      Cmp && Cmp->Mnemonic == "s_cmp_ge_i32" &&
      Cmp->Inst.getNumOperands() == 2 && sgpr(Cmp->Inst.getOperand(0), X) &&
      X == T && isImm(Cmp->Inst.getOperand(1), 0) && Br &&
      Br->Mnemonic == "s_cbranch_scc1" && I + 7 < Insts.size() &&
      Insts[I + 2].BranchTarget == int64_t(Insts[I + 7].Addr) && absAt(I + 3) &&
      pairAt(I + 4, "s_sub_u32", "s_subb_u32") && setPcAt(I + 6) &&
      pairAt(I + 7, "s_add_u32", "s_addc_u32") && setPcAt(I + 9);
  if (TwoWay) {
    int64_t Target = int64_t(Anchor + 4) + int64_t(int32_t(Sum));
    mark(InstOp::PcRelSigned, Target);
    Insts[I + 6].JumpTarget = Target;
    Insts[I + 9].JumpTarget = Target;
    Sequences.push_back({GetPc, I + 9, int64_t(Insts[I + 7].Addr)});
    return true;
  }
  std::string Next;
  for (size_t J = I + 1; J < Insts.size() && J < I + 5; ++J)
    Next += (Next.empty() ? "" : ", ") +
            (Insts[J].D ? Insts[J].D->Mnemonic : std::string("<raw>"));
  Why = formatv("s_getpc_b64 at {0:x}: Tensile's offset '{1}' is followed by "
                "{2}, not a modelled sequence; its use of the PC is not "
                "modelled",
                Anchor, DN, Next);
  return false;
}

llvm::Error Recoverer::recoverFunction(const FunctionRange &F,
                                       const ElfSection &Sec, Block &Body) {
  auto BytesOrErr = CO.bytesAt(F.Start, F.End - F.Start);
  if (!BytesOrErr)
    return BytesOrErr.takeError();
  ArrayRef<uint8_t> Code = *BytesOrErr;
  std::string NotRelocatable;
  if ((F.End - F.Start) % 4)
    NotRelocatable = formatv("function size {0} is not a multiple of 4",
                             F.End - F.Start);

  // 1. Linear disassembly.
  std::vector<RawInst> Insts;
  Insts.reserve(Code.size() / 6);
  for (uint64_t Off = 0; Off + 4 <= Code.size();) {
    RawInst I;
    I.Addr = F.Start + Off;
    I.D = TI.decode(Code.drop_front(Off));
    unsigned Size = I.D ? I.D->Size : 4;
    if (I.D) {
      I.K = kindOf(I.D->Mnemonic);
      for (const llvm::MCOperandInfo &OI :
           TI.desc(I.D->Inst.getOpcode()).operands())
        I.HasPcRel |= OI.OperandType == llvm::MCOI::OPERAND_PCREL;
    }
    I.Bytes = Code.slice(Off, Size);
    if (!I.D && NotRelocatable.empty())
      NotRelocatable = formatv("bytes at {0:x} do not decode as a {1} "
                               "instruction",
                               I.Addr, TI.cpu());
    Insts.push_back(I);
    Off += Size;
  }
  uint64_t Tail = Code.size() % 4;

  // 2. Branch targets (a sorted vector: a set's nodes cost more than the
  //    search on functions with a million instructions).
  std::vector<uint64_t> Targets;
  auto isTarget = [&](uint64_t A) {
    return std::binary_search(Targets.begin(), Targets.end(), A);
  };
  for (RawInst &I : Insts) {
    if (!I.D)
      continue;
    bool IsBranch = I.K == Kind::Branch || I.K == Kind::CondBranch;
    bool HasPcRel = I.HasPcRel;
    if (IsBranch && HasPcRel && I.Bytes.size() == 4) {
      int16_t Simm = int16_t(word(I.Bytes) & 0xffff);
      int64_t T = int64_t(I.Addr) + 4 + int64_t(Simm) * 4;
      I.BranchTarget = T;
      if (T < int64_t(F.Start) || T >= int64_t(F.End)) {
        if (NotRelocatable.empty())
          NotRelocatable = formatv("branch at {0:x} leaves the function (to "
                                   "{1:x})",
                                   I.Addr, T);
        I.BranchTarget = -1;
      } else {
        Targets.push_back(T);
      }
    } else if (HasPcRel && NotRelocatable.empty()) {
      NotRelocatable = formatv("PC-relative '{0}' at {1:x} is not modelled",
                               I.D->Mnemonic, I.Addr);
    }
  }
  llvm::sort(Targets);
  // Every reference, for the sequences' single-entry check below.
  std::vector<uint64_t> Refs = Targets;
  Targets.erase(std::unique(Targets.begin(), Targets.end()), Targets.end());
  // Instructions are in address order: find one by binary search.
  auto indexOf = [&](uint64_t Addr) -> std::optional<size_t> {
    auto It = std::lower_bound(
        Insts.begin(), Insts.end(), Addr,
        [](const RawInst &I, uint64_t A) { return I.Addr < A; });
    if (It == Insts.end() || It->Addr != Addr)
      return std::nullopt;
    return size_t(It - Insts.begin());
  };
  // Targets must be instruction starts.
  for (uint64_t T : Targets)
    if (!indexOf(T) && NotRelocatable.empty())
      NotRelocatable =
          formatv("branch target {0:x} is inside an instruction", T);

  // 3. Trailing padding: words after the last instruction that can be
  //    reached, made only of s_nop 0 / s_code_end / zero.
  size_t CodeEnd = Insts.size();
  while (CodeEnd > 0) {
    RawInst &I = Insts[CodeEnd - 1];
    if (I.Bytes.size() != 4 || !isPaddingWord(word(I.Bytes)) ||
        isTarget(I.Addr))
      break;
    --CodeEnd;
  }
  // Keep padding only after an instruction that does not fall through.
  auto endsFlow = [&](const RawInst &I) {
    if (!I.D)
      return false;
    return I.K == Kind::Branch || I.K == Kind::Endpgm ||
           I.K == Kind::EndpgmOther || I.K == Kind::SetPc;
  };
  if (CodeEnd == 0 || !endsFlow(Insts[CodeEnd - 1]))
    CodeEnd = Insts.size();
  bool FallsOut = CodeEnd == 0 || !endsFlow(Insts[CodeEnd - 1]);
  if (FallsOut && NotRelocatable.empty() && CodeEnd > 0)
    NotRelocatable = formatv("control can run off the end of the function "
                             "at {0:x}",
                             Insts[CodeEnd - 1].Addr);

  // 4. PC-relative address computations.
  CodeAddresses.clear();
  Sequences.clear();
  for (size_t I = 0; I < CodeEnd; ++I)
    if (Insts[I].D && Insts[I].K == Kind::GetPc) {
      std::string Reason;
      findPcRel(Insts, I, Reason);
      if (!Reason.empty() && NotRelocatable.empty())
        NotRelocatable = Reason;
    }
  // A code address held in a register is an entry point: it must be an
  // instruction of the function, and starts a block.
  std::string InternalCalls;
  for (auto [Anchor, Target] : CodeAddresses) {
    auto Idx = Target >= int64_t(F.Start) && Target < int64_t(F.End)
                   ? indexOf(Target)
                   : std::nullopt;
    if (!Idx || *Idx >= CodeEnd) {
      if (NotRelocatable.empty())
        NotRelocatable = formatv("s_getpc_b64 at {0:x} computes the address "
                                 "{1:x}, which is not an instruction start of "
                                 "the function",
                                 Anchor, Target);
      continue;
    }
    Targets.push_back(Target);
    if (InternalCalls.empty())
      InternalCalls = formatv("s_getpc_b64 at {0:x} computes the address of "
                              "{1:x} in this function",
                              Anchor, Target);
  }
  // In a kernel, an s_setpc_b64 of the pair P that the kernel's
  // s_swappc_b64 write their return address to returns from a subroutine of
  // the kernel (Tensile's activation functions) when: it lies in code
  // reached only from the computed code addresses (the subroutines), which
  // touch P only to return; the code reached from the entry never reads P
  // while it may hold a return address (no arithmetic on it). The hardware
  // computes that address, so it stays right wherever the call moves. By
  // P's first SGPR: empty when P is such a return pair, else why not.
  std::map<unsigned, std::string> ReturnPairs;
  std::vector<uint8_t> Reached; // bit 0: from the entry, bit 1: subroutine
  SmallVector<RegAccess, 8> Acc;
  auto pairOf = [&](const llvm::MCOperand &Op) -> int {
    if (!Op.isReg())
      return -1;
    RegRange R = TI.classify(Op.getReg());
    return R.Kind == RegKind::SGPR && R.Count == 2 ? int(R.First) : -1;
  };
  // Successors by instruction index; a call returns to the next one.
  auto successors = [&](size_t J, SmallVectorImpl<size_t> &Out) {
    Out.clear();
    const RawInst &X = Insts[J];
    if (!X.D)
      return;
    if (X.BranchTarget >= 0)
      if (auto T = indexOf(X.BranchTarget); T && *T < CodeEnd)
        Out.push_back(*T);
    if (X.K == Kind::SetPc && X.JumpTarget >= 0)
      if (auto T = indexOf(X.JumpTarget); T && *T < CodeEnd)
        Out.push_back(*T);
    if (!endsFlow(X) && J + 1 < CodeEnd)
      Out.push_back(J + 1);
  };
  auto walkReach = [&] {
    Reached.assign(CodeEnd, 0);
    SmallVector<size_t> Work, Succ;
    auto from = [&](size_t Start, uint8_t Bit) {
      Work.push_back(Start);
      while (!Work.empty()) {
        size_t J = Work.pop_back_val();
        if (Reached[J] & Bit)
          continue;
        Reached[J] |= Bit;
        successors(J, Succ);
        Work.append(Succ.begin(), Succ.end());
      }
    };
    if (CodeEnd)
      from(0, 1);
    for (auto [Anchor, Target] : CodeAddresses)
      if (auto T = indexOf(Target); T && *T < CodeEnd)
        from(*T, 2);
  };
  auto touches = [&](const RawInst &X, int P, bool &Reads, bool &Writes) {
    Reads = Writes = false;
    Acc.clear();
    TI.accesses(X.D->Inst, Acc);
    for (const RegAccess &A : Acc) {
      RegRange R = TI.classify(A.Reg);
      if (R.Kind == RegKind::SGPR && int(R.First) <= P + 1 &&
          P < int(R.First + R.Count))
        (A.IsDef ? Writes : Reads) = true;
    }
  };
  auto isCallWith = [&](const RawInst &X, int P) {
    const llvm::MCInst &M = X.D->Inst;
    return X.D->Mnemonic == "s_swappc_b64" && M.getNumOperands() == 2 &&
           pairOf(M.getOperand(0)) == P && pairOf(M.getOperand(1)) != P;
  };
  auto isReturnWith = [&](const RawInst &X, int P) {
    const llvm::MCInst &M = X.D->Inst;
    return X.K == Kind::SetPc && X.JumpTarget < 0 && M.getNumOperands() == 1 &&
           pairOf(M.getOperand(0)) == P;
  };
  auto checkReturnPair = [&](int P) -> std::string {
    if (Reached.empty())
      walkReach();
    bool Called = false;
    bool Reads, Writes;
    for (size_t J = 0; J < CodeEnd; ++J) {
      const RawInst &X = Insts[J];
      if (!X.D || Reached[J] != 2)
        continue;
      // A subroutine: P only to return.
      touches(X, P, Reads, Writes);
      if ((Reads || Writes) && !isReturnWith(X, P))
        return formatv("'{0}' at {1:x} in a subroutine of the kernel uses "
                       "s[{2}:{3}], its return address",
                       X.D->Mnemonic, X.Addr, P, P + 1);
    }
    // From the entry: P may hold a return address after a call, until
    // something else writes it; nothing may read it then.
    std::vector<uint8_t> MayHold(CodeEnd, 0);
    SmallVector<size_t> Work, Succ;
    for (size_t J = 0; J < CodeEnd; ++J) {
      if (Reached[J] == 3)
        return formatv("code at {0:x} is reached from the kernel's entry and "
                       "from a computed code address",
                       Insts[J].Addr);
      if (Reached[J] == 1 && Insts[J].D && isCallWith(Insts[J], P)) {
        Called = true;
        Work.push_back(J);
      }
    }
    if (!Called)
      return "no s_swappc_b64 of the kernel writes its return address there";
    while (!Work.empty()) {
      size_t J = Work.pop_back_val();
      const RawInst &X = Insts[J];
      bool Holds = MayHold[J] != 0;
      if (!X.D)
        continue;
      touches(X, P, Reads, Writes);
      if (Holds && Reads)
        return formatv("'{0}' at {1:x} reads s[{2}:{3}] while it may hold a "
                       "return address",
                       X.D->Mnemonic, X.Addr, P, P + 1);
      bool Out = isCallWith(X, P) || (Holds && !Writes);
      if (!Out)
        continue;
      successors(J, Succ);
      for (size_t S : Succ)
        if (!MayHold[S]) {
          MayHold[S] = 1;
          Work.push_back(S);
        }
    }
    return "";
  };
  auto returnPair = [&](const RawInst &SetPc, size_t Index,
                        int P) -> std::string {
    std::string Jump =
        formatv("indirect jump (s_setpc_b64) at {0:x} in a kernel", SetPc.Addr);
    if (P < 0)
      return Jump;
    auto [It, New] = ReturnPairs.try_emplace(unsigned(P));
    if (New)
      It->second = checkReturnPair(P);
    if (!It->second.empty())
      return Jump + ": " + It->second;
    if (Reached[Index] != 2)
      return Jump + ": not in a subroutine of the kernel";
    return "";
  };
  // s_setpc_b64: a long branch to a recognised target becomes a CFG edge;
  // in a device function any other one is a return; in a kernel it is a
  // return from one of its subroutines (above) or an indirect jump asmevo
  // cannot follow.
  for (size_t I = 0; I < CodeEnd; ++I) {
    RawInst &R = Insts[I];
    if (!R.D || R.K != Kind::SetPc)
      continue;
    if (R.JumpTarget >= 0) {
      if (R.JumpTarget >= int64_t(F.Start) && R.JumpTarget < int64_t(F.End) &&
          indexOf(R.JumpTarget)) {
        Targets.push_back(R.JumpTarget);
        continue;
      }
      R.JumpTarget = -1;
      if (NotRelocatable.empty())
        NotRelocatable = formatv("long branch at {0:x} leaves the function",
                                 R.Addr);
      continue;
    }
    if (!F.Kernel)
      continue;
    std::string Why = returnPair(
        R, I,
        R.D->Inst.getNumOperands() == 1 ? pairOf(R.D->Inst.getOperand(0)) : -1);
    if (!Why.empty()) {
      if (NotRelocatable.empty())
        NotRelocatable = std::move(Why);
    } else if (InternalCalls.empty()) {
      InternalCalls = formatv("s_setpc_b64 at {0:x} returns from a "
                              "subroutine of the kernel",
                              R.Addr);
    }
  }

  // A modelled sequence computes its offset from its own s_getpc_b64: code
  // that enters it after that (a branch, a long branch, a computed address)
  // would bring another PC, so it is not modelled.
  if (!Sequences.empty()) {
    for (const RawInst &R : Insts)
      if (R.JumpTarget >= 0)
        Refs.push_back(R.JumpTarget);
    for (auto [Anchor, Target] : CodeAddresses)
      Refs.push_back(Target);
    llvm::sort(Refs);
    for (const Sequence &S : Sequences) {
      auto Lo = std::upper_bound(Refs.begin(), Refs.end(), Insts[S.GetPc].Addr);
      auto Hi = std::upper_bound(Lo, Refs.end(), Insts[S.Last].Addr);
      size_t Allowed = 0;
      for (auto It = Lo; It != Hi; ++It)
        if (int64_t(*It) == S.Allowed && !Allowed)
          Allowed = 1;
      if (size_t(Hi - Lo) <= Allowed)
        continue;
      uint64_t Entry = *Lo;
      for (auto It = Lo; It != Hi; ++It)
        if (int64_t(*It) != S.Allowed) {
          Entry = *It;
          break;
        }
      for (size_t J = S.GetPc; J <= S.Last; ++J)
        Insts[J].JumpTarget = -1;
      if (NotRelocatable.empty())
        NotRelocatable = formatv("s_getpc_b64 at {0:x}: code enters its "
                                 "offset sequence at {1:x}",
                                 Insts[S.GetPc].Addr, Entry);
    }
  }

  // 5. Blocks: leaders are the entry, branch targets and instructions after
  //    a branch or an instruction that ends the flow.
  std::vector<bool> Leaders(std::max<size_t>(CodeEnd, 1), false);
  Leaders[0] = true;
  for (uint64_t T : Targets)
    if (auto Idx = indexOf(T); Idx && *Idx < CodeEnd)
      Leaders[*Idx] = true;
  for (size_t I = 0; I + 1 < CodeEnd; ++I)
    if (Insts[I].BranchTarget >= 0 || endsFlow(Insts[I]))
      Leaders[I + 1] = true;

  // 6. Build the op.
  Location Loc = UnknownLoc::get(&Ctx);
  B.setInsertionPointToEnd(&Body);
  Operation *FnOp;
  Region *Region;
  int64_t Align = 256;
  while (Align > 4 && F.Start % Align)
    Align /= 2;
  if (F.Kernel) {
    auto K = KernelOp::create(
        B, Loc, B.getStringAttr(F.Name), B.getI64IntegerAttr(F.Start),
        B.getI64IntegerAttr(Align),
        B.getI64IntegerAttr(F.Kernel->DescriptorAddr),
        descriptorToAttr(Ctx, F.Kernel->KD), DictionaryAttr(),
        DenseI64ArrayAttr(), StringAttr(), StringAttr());
    // The kernel's metadata entry, as attributes.
    if (const llvm::msgpack::DocNode *KN =
            CO.kernelMetadataNode(F.Kernel->DescriptorSym))
      K.setMetadataAttr(cast<DictionaryAttr>(msgpackToAttr(Ctx, *KN)));
    FnOp = K;
    Region = &K.getBody();
    ++Stats.Kernels;
  } else {
    auto Fn =
        FuncOp::create(B, Loc, B.getStringAttr(F.Name),
                       B.getI64IntegerAttr(F.Start), B.getI64IntegerAttr(Align),
                       DenseI64ArrayAttr(), StringAttr(), StringAttr());
    FnOp = Fn;
    Region = &Fn.getBody();
  }
  ++Stats.Functions;

  // Padding runs.
  SmallVector<int64_t> Pad;
  for (size_t I = CodeEnd; I < Insts.size(); ++I) {
    uint32_t W = word(Insts[I].Bytes);
    if (!Pad.empty() && Pad[Pad.size() - 2] == int64_t(W))
      ++Pad.back();
    else
      Pad.append({int64_t(W), 1});
    ++Stats.PaddingWords;
  }
  if (Tail && NotRelocatable.empty())
    NotRelocatable = "trailing bytes that are not a whole word";
  if (!Pad.empty())
    FnOp->setAttr("padding", B.getDenseI64ArrayAttr(Pad));
  if (!NotRelocatable.empty())
    FnOp->setAttr("not_relocatable", B.getStringAttr(NotRelocatable));
  else if (!InternalCalls.empty())
    FnOp->setAttr("internal_calls",
                  B.getStringAttr(InternalCalls +
                                  " (calls into its own code: relocatable; "
                                  "edited between the calls when its "
                                  "subroutines are plain ALU code)"));

  std::vector<Block *> BlockAt(std::max<size_t>(CodeEnd, 1) + 1, nullptr);
  for (size_t L = 0; L < Leaders.size(); ++L)
    if (Leaders[L]) {
      Block *Blk = new Block();
      Region->push_back(Blk);
      BlockAt[L] = Blk;
      ++Stats.Blocks;
    }
  Block *Cur = nullptr;
  // Null when Addr is not an instruction start with a block (a target inside
  // an instruction or in trailing padding: the function is then not
  // relocatable and the branch is kept as it is).
  auto blockFor = [&](uint64_t Addr) -> Block * {
    auto Idx = indexOf(Addr);
    return Idx && *Idx < BlockAt.size() ? BlockAt[*Idx] : nullptr;
  };
  for (size_t I = 0; I < CodeEnd; ++I) {
    if (BlockAt[I]) {
      Block *Next = BlockAt[I];
      if (Cur && (Cur->empty() ||
                  !Cur->back().hasTrait<OpTrait::IsTerminator>())) {
        B.setInsertionPointToEnd(Cur);
        FallthroughOp::create(B, Loc, BlockRange{Next});
      }
      Cur = Next;
    }
    B.setInsertionPointToEnd(Cur);
    RawInst &R = Insts[I];
    int64_t Id = R.Addr;
    if (!R.D) {
      RawOp::create(B, Loc, Id, word(R.Bytes));
      ++Stats.RawWords;
      continue;
    }
    ++Stats.Instructions;
    Kind K = R.K;
    uint32_t W = word(R.Bytes);
    auto encOf = [&](ArrayRef<uint8_t> Bytes) {
      SmallVector<int32_t, 2> Enc;
      for (size_t Off = 0; Off < Bytes.size(); Off += 4)
        Enc.push_back(int32_t(word(Bytes.drop_front(Off))));
      return Enc;
    };
    Block *TargetBlock = R.BranchTarget >= 0 ? blockFor(R.BranchTarget) : nullptr;
    if (TargetBlock && K == Kind::Branch) {
      BranchOp::create(B, Loc, Id, TargetBlock);
      continue;
    }
    if (TargetBlock) {
      Block *Fall = BlockAt[I + 1];
      if (Fall) {
        CondBranchOp::create(B, Loc, Id, R.D->Mnemonic, TargetBlock, Fall);
        continue;
      }
      // A conditional branch that is the last instruction: it falls out of
      // the function, which was marked not relocatable above.
    }
    if (K == Kind::Endpgm && R.Bytes.size() == 4 && (W & 0xffff) == 0) {
      EndpgmOp::create(B, Loc, Id);
      continue;
    }
    if (K == Kind::Endpgm || K == Kind::EndpgmOther || K == Kind::SetPc ||
        K == Kind::Branch || K == Kind::CondBranch) {
      SmallVector<Block *, 1> Dests;
      if (R.JumpTarget >= 0)
        if (Block *J = blockFor(R.JumpTarget))
          Dests.push_back(J);
      IndirectOp::create(B, Loc, Id, encOf(R.Bytes), Dests);
      if ((K == Kind::Branch || K == Kind::CondBranch) &&
          NotRelocatable.empty()) {
        NotRelocatable = formatv("branch at {0:x} kept as raw", R.Addr);
        FnOp->setAttr("not_relocatable", B.getStringAttr(NotRelocatable));
      }
      if (I + 1 < CodeEnd && !BlockAt[I + 1]) {
        Block *Next = new Block();
        Region->getBlocks().insert(std::next(Cur->getIterator()), Next);
        BlockAt[I + 1] = Next;
      }
      continue;
    }
    if (K == Kind::Waitcnt && R.Bytes.size() == 4) {
      WaitcntOp::create(B, Loc, Id, int64_t(W & 0xffff));
      continue;
    }
    if (K == Kind::Nop && R.Bytes.size() == 4) {
      NopOp::create(B, Loc, Id, int64_t(W & 0xffff));
      continue;
    }
    if (K == Kind::Barrier && R.Bytes.size() == 4 && (W & 0xffff) == 0) {
      BarrierOp::create(B, Loc, Id);
      continue;
    }
    InstOp::Properties P;
    P.id = Id;
    P.enc = encOf(R.Bytes);
    P.pcrel_part = R.PcRelPart;
    P.pcrel_target = R.PcRelTarget;
    P.pcrel_anchor = R.PcRelAnchor;
    P.pcrel_bias = R.PcRelBias;
    Cur->push_back(Operation::create(Loc, InstName, /*resultTypes=*/{},
                                     /*operands=*/{}, NoAttrs,
                                     OpaqueProperties(&P), /*successors=*/{},
                                     /*numRegions=*/0));
  }
  // The last block must end with a terminator: control runs out of the
  // function (only possible for not-relocatable functions).
  if (Cur && (Cur->empty() || !Cur->back().hasTrait<OpTrait::IsTerminator>())) {
    B.setInsertionPointToEnd(Cur);
    FallthroughOp::create(B, Loc, BlockRange{});
  }
  if (Region->empty()) {
    Region->push_back(new Block());
    B.setInsertionPointToEnd(&Region->back());
    FallthroughOp::create(B, Loc, BlockRange{});
  }
  return llvm::Error::success();
}

llvm::Expected<OwningOpRef<CodeObjectOp>>
asmevo::recoverCodeObject(MLIRContext &Ctx, const CodeObject &CO,
                          RecoverStats *Stats) {
  Ctx.getOrLoadDialect<AMDGCNDialect>();
  // The dialect's wait-counter layout and the emulator are GFX9 (GCN5/CDNA).
  if (!CO.cpu().starts_with("gfx9"))
    return llvm::createStringError(
        CO.name() + ": unsupported target " + CO.cpu() +
        ": asmevo supports the GFX9 family (gfx90a, gfx942, ...)");
  auto TIOrErr = TargetInfo::get(CO.cpu(), CO.features());
  if (!TIOrErr)
    return llvm::createStringError(CO.name() + ": " +
                                   llvm::toString(TIOrErr.takeError()));
  RecoverStats Local;
  Recoverer R(Ctx, CO, **TIOrErr, Stats ? *Stats : Local);
  auto Result = R.run();
  if (!Result)
    return llvm::createStringError(CO.name() + ": " +
                                   llvm::toString(Result.takeError()));
  return Result;
}
