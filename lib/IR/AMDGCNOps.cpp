//===- AMDGCNOps.cpp - amdgcn dialect operations --------------------------===//

#include "asmevo/IR/AMDGCN.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

#include "asmevo/IR/AMDGCNDialect.cpp.inc"

void AMDGCNDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "asmevo/IR/AMDGCNOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

llvm::Expected<TargetInfo *> asmevo::amdgcn::getTargetInfoFor(Operation *Op) {
  auto CO = dyn_cast<CodeObjectOp>(Op);
  if (!CO)
    CO = Op->getParentOfType<CodeObjectOp>();
  if (!CO)
    return llvm::createStringError("not inside an amdgcn.code_object");
  return CO.getTargetInfo();
}

llvm::ArrayRef<uint8_t> asmevo::amdgcn::getOriginalBytes(Operation *Op) {
  if (auto I = dyn_cast<InstOp>(Op))
    return I.getBytes();
  if (auto I = dyn_cast<IndirectOp>(Op))
    return {reinterpret_cast<const uint8_t *>(I.getEnc().data()),
            I.getEnc().size() * 4};
  return {};
}

int64_t asmevo::amdgcn::getInstId(Operation *Op) {
  return TypeSwitch<Operation *, int64_t>(Op)
      .Case<InstOp, RawOp, WaitcntOp, NopOp, BarrierOp, EndpgmOp, BranchOp,
            CondBranchOp, IndirectOp>([](auto I) { return I.getId(); })
      .Default([](Operation *) { return -1; });
}

void asmevo::amdgcn::setInstId(Operation *Op, int64_t Id) {
  TypeSwitch<Operation *>(Op)
      .Case<InstOp, RawOp, WaitcntOp, NopOp, BarrierOp, EndpgmOp, BranchOp,
            CondBranchOp, IndirectOp>([&](auto I) { I.setId(Id); });
}

static std::vector<TargetInfo *> &parseTargets(OpAsmParser &Parser) {
  return Parser.getContext()
      ->getLoadedDialect<AMDGCNDialect>()
      ->parseTargetStack;
}

static void printId(OpAsmPrinter &P, int64_t Id) {
  if (Id >= 0)
    P << " [0x" << llvm::format_hex_no_prefix(Id, 1) << "]";
}

static ParseResult parseOptionalId(OpAsmParser &Parser, int64_t &Id) {
  Id = -1;
  if (succeeded(Parser.parseOptionalLSquare())) {
    if (Parser.parseInteger(Id) || Parser.parseRSquare())
      return failure();
  }
  return success();
}

static std::string normalizeSpaces(StringRef S) {
  std::string Out;
  bool Space = false;
  for (char C : S.trim()) {
    if (C == ' ' || C == '\t') {
      Space = true;
      continue;
    }
    if (Space && !Out.empty())
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

/// Prints `mnemonic "operands"` and, when the text does not assemble back to
/// the same bytes, ` enc [...]`.
static void printInstText(OpAsmPrinter &P, Operation *Op,
                          ArrayRef<int32_t> Enc) {
  ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Enc.data()),
                          Enc.size() * 4);
  auto TIOrErr = getTargetInfoFor(Op);
  const DecodedInst *D = nullptr;
  if (TIOrErr)
    D = (*TIOrErr)->decode(Bytes);
  else
    llvm::consumeError(TIOrErr.takeError());
  bool NeedEnc = true;
  if (D && D->Size == Bytes.size()) {
    auto [Mnemonic, Operands] = (*TIOrErr)->printSplit(D->Inst);
    P << ' ' << Mnemonic << ' ';
    P.printString(Operands);
    NeedEnc = !(*TIOrErr)->textRoundTrips(*D, Bytes);
  } else {
    P << " <undecodable> \"\"";
  }
  if (NeedEnc) {
    P << " enc [";
    llvm::interleaveComma(Enc, P, [&](int32_t W) {
      P << "0x" << llvm::format_hex_no_prefix(uint32_t(W), 8);
    });
    P << "]";
  }
}

/// Parses `mnemonic "operands" [enc [...]]` into encoding words.
static ParseResult parseInstText(OpAsmParser &Parser,
                                 SmallVectorImpl<int32_t> &Enc) {
  llvm::SMLoc Loc = Parser.getCurrentLocation();
  StringRef Mnemonic;
  std::string Operands;
  if (Parser.parseKeyword(&Mnemonic) || Parser.parseString(&Operands))
    return failure();
  std::string Text = (Mnemonic + " " + Operands).str();
  if (succeeded(Parser.parseOptionalKeyword("enc"))) {
    if (Parser.parseCommaSeparatedList(
            OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
              int64_t W;
              if (Parser.parseInteger(W))
                return failure();
              if (W < INT32_MIN || W > UINT32_MAX)
                return Parser.emitError(Loc, "encoding word out of range");
              Enc.push_back(int32_t(uint32_t(W)));
              return success();
            }))
      return failure();
  }
  auto &Targets = parseTargets(Parser);
  if (Targets.empty()) {
    if (!Enc.empty())
      return success(); // Verified once the op is inside a code object.
    return Parser.emitError(Loc, "amdgcn instruction text outside an "
                                 "amdgcn.code_object: no target to assemble "
                                 "for (write it inside one, or give 'enc')");
  }
  TargetInfo *TI = Targets.back();
  if (!Enc.empty()) {
    ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Enc.data()),
                            Enc.size() * 4);
    const DecodedInst *D = TI->decode(Bytes);
    if (!D || D->Size != Bytes.size())
      return Parser.emitError(Loc, "encoding does not decode as one " +
                                       TI->cpu() + " instruction");
    if (normalizeSpaces(TI->print(D->Inst)) != normalizeSpaces(Text))
      return Parser.emitError(Loc, "text '" + Text +
                                       "' does not match the encoding, which "
                                       "decodes as '" +
                                       TI->print(D->Inst) + "'");
    return success();
  }
  llvm::MCInst Inst;
  SmallVector<uint8_t, 16> Bytes;
  if (llvm::Error E = TI->assemble(Text, Inst, Bytes))
    return Parser.emitError(Loc, "cannot assemble '" + Text + "' for " +
                                     TI->cpu() + ": " +
                                     llvm::toString(std::move(E)));
  for (size_t I = 0; I < Bytes.size(); I += 4)
    Enc.push_back(int32_t(uint32_t(Bytes[I]) | uint32_t(Bytes[I + 1]) << 8 |
                          uint32_t(Bytes[I + 2]) << 16 |
                          uint32_t(Bytes[I + 3]) << 24));
  return success();
}

//===----------------------------------------------------------------------===//
// CodeObjectOp
//===----------------------------------------------------------------------===//

void CodeObjectOp::build(OpBuilder &B, OperationState &State,
                         StringRef Target) {
  State.getOrAddProperties<Properties>().target = B.getStringAttr(Target);
  Region *R = State.addRegion();
  R->push_back(new Block());
}

llvm::Expected<TargetInfo *> CodeObjectOp::getTargetInfo() {
  return TargetInfo::getForTargetId(getTarget());
}

void CodeObjectOp::print(OpAsmPrinter &P) {
  P << ' ';
  P.printAttributeWithoutType(getTargetAttr());
  P.printOptionalAttrDictWithKeyword((*this)->getAttrs(), {"target"});
  P << ' ';
  P.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

ParseResult CodeObjectOp::parse(OpAsmParser &Parser, OperationState &Result) {
  StringAttr Target;
  llvm::SMLoc Loc = Parser.getCurrentLocation();
  if (Parser.parseAttribute(Target, "target", Result.attributes) ||
      Parser.parseOptionalAttrDictWithKeyword(Result.attributes))
    return failure();
  auto TIOrErr = TargetInfo::getForTargetId(Target.getValue());
  if (!TIOrErr)
    return Parser.emitError(Loc, llvm::toString(TIOrErr.takeError()));
  auto &Targets = parseTargets(Parser);
  Targets.push_back(*TIOrErr);
  Region *Body = Result.addRegion();
  ParseResult R = Parser.parseRegion(*Body);
  Targets.pop_back();
  if (failed(R))
    return failure();
  if (Body->empty())
    Body->push_back(new Block());
  return success();
}

LogicalResult CodeObjectOp::verify() {
  auto TIOrErr = getTargetInfo();
  if (!TIOrErr)
    return emitOpError(llvm::toString(TIOrErr.takeError()));
  for (Operation &Op : getBodyBlock())
    if (!isa<KernelOp, FuncOp>(Op))
      return Op.emitOpError("is not allowed directly in amdgcn.code_object; "
                            "expected amdgcn.kernel or amdgcn.func");
  return success();
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

template <typename FnOp> static LogicalResult verifyFunction(FnOp Fn) {
  Region &Body = Fn.getBody();
  if (Body.empty())
    return success();
  for (Block &B : Body) {
    if (B.getNumArguments())
      return Fn.emitOpError("blocks of machine code take no arguments");
    if (B.empty() || !B.back().template hasTrait<OpTrait::IsTerminator>())
      return Fn.emitOpError("block does not end with a terminator "
                            "(amdgcn.s_endpgm, a branch, amdgcn.indirect or "
                            "amdgcn.fallthrough)");
  }
  if (std::optional<ArrayRef<int64_t>> Pad = Fn.getPadding())
    if (Pad->size() % 2)
      return Fn.emitOpError("padding must be (word, count) pairs");
  return success();
}

LogicalResult KernelOp::verify() {
  if (failed(verifyFunction(*this)))
    return failure();
  for (NamedAttribute F : getDescriptor())
    if (!isa<IntegerAttr>(F.getValue()) && F.getName() != "reserved_bytes")
      return emitOpError("descriptor field '")
             << F.getName().getValue() << "' must be an integer";
  return success();
}

LogicalResult FuncOp::verify() { return verifyFunction(*this); }

//===----------------------------------------------------------------------===//
// InstOp
//===----------------------------------------------------------------------===//

void InstOp::print(OpAsmPrinter &P) {
  printId(P, getId());
  printInstText(P, *this, getEnc());
  if (getPcrelPart() != NoPcRel) {
    static const char *Names[] = {"", "lo", "hi", "add", "sub", "signed"};
    P << " pcrel(" << Names[getPcrelPart()] << ", 0x"
      << llvm::format_hex_no_prefix(getPcrelTarget(), 1) << " from 0x"
      << llvm::format_hex_no_prefix(getPcrelAnchor(), 1);
    if (getPcrelBias())
      P << ", bias " << getPcrelBias();
    P << ")";
  }
  P.printOptionalAttrDict((*this)->getAttrs());
}

ParseResult InstOp::parse(OpAsmParser &Parser, OperationState &Result) {
  Properties &Props = Result.getOrAddProperties<Properties>();
  SmallVector<int32_t, 4> Enc;
  if (parseOptionalId(Parser, Props.id) || parseInstText(Parser, Enc))
    return failure();
  Props.enc.assign(Enc.begin(), Enc.end());
  if (succeeded(Parser.parseOptionalKeyword("pcrel"))) {
    StringRef Part;
    if (Parser.parseLParen() || Parser.parseKeyword(&Part) ||
        Parser.parseComma() || Parser.parseInteger(Props.pcrel_target) ||
        Parser.parseKeyword("from") || Parser.parseInteger(Props.pcrel_anchor))
      return failure();
    if (succeeded(Parser.parseOptionalComma()))
      if (Parser.parseKeyword("bias") || Parser.parseInteger(Props.pcrel_bias))
        return failure();
    if (Parser.parseRParen())
      return failure();
    Props.pcrel_part = llvm::StringSwitch<int64_t>(Part)
                           .Case("lo", PcRelLo)
                           .Case("hi", PcRelHi)
                           .Case("add", PcRelAdd)
                           .Case("sub", PcRelSub)
                           .Case("signed", PcRelSigned)
                           .Default(NoPcRel);
    if (Props.pcrel_part == NoPcRel)
      return Parser.emitError(Parser.getCurrentLocation(),
                              "pcrel part must be lo, hi, add, sub or signed");
  }
  return Parser.parseOptionalAttrDict(Result.attributes);
}

/// Mnemonics that must be written with their dedicated op, because passes
/// and the CFG depend on seeing them.
static StringRef dedicatedOpFor(StringRef Mnemonic) {
  if (Mnemonic == "s_branch" || Mnemonic.starts_with("s_cbranch_"))
    return "amdgcn.s_branch / amdgcn.cbranch";
  if (Mnemonic == "s_setpc_b64")
    return "amdgcn.indirect";
  if (Mnemonic.starts_with("s_endpgm"))
    return "amdgcn.s_endpgm / amdgcn.indirect";
  return "";
}

LogicalResult InstOp::verify() {
  if (getEnc().empty())
    return emitOpError("has no encoding");
  auto TIOrErr = getTargetInfoFor(*this);
  if (!TIOrErr) {
    llvm::consumeError(TIOrErr.takeError());
    return success(); // Detached or outside a code object: nothing to check.
  }
  const DecodedInst *D = (*TIOrErr)->decode(getBytes());
  if (!D || D->Size != getBytes().size())
    return emitOpError("encoding does not decode as one ")
           << (*TIOrErr)->cpu() << " instruction";
  StringRef Dedicated = dedicatedOpFor(D->Mnemonic);
  if (!Dedicated.empty())
    return emitOpError("'") << D->Mnemonic << "' must be written as "
                            << Dedicated;
  if (getPcrelPart() < NoPcRel || getPcrelPart() > PcRelSigned)
    return emitOpError("invalid pcrel part");
  return success();
}

//===----------------------------------------------------------------------===//
// IndirectOp
//===----------------------------------------------------------------------===//

void IndirectOp::print(OpAsmPrinter &P) {
  printId(P, getId());
  printInstText(P, *this, getEnc());
  if (!getDests().empty()) {
    P << " -> [";
    llvm::interleaveComma(getDests(), P,
                          [&](Block *B) { P.printSuccessor(B); });
    P << "]";
  }
  P.printOptionalAttrDict((*this)->getAttrs());
}

ParseResult IndirectOp::parse(OpAsmParser &Parser, OperationState &Result) {
  Properties &Props = Result.getOrAddProperties<Properties>();
  SmallVector<int32_t, 4> Enc;
  if (parseOptionalId(Parser, Props.id) || parseInstText(Parser, Enc))
    return failure();
  Props.enc.assign(Enc.begin(), Enc.end());
  if (succeeded(Parser.parseOptionalArrow())) {
    SmallVector<Block *, 2> Dests;
    if (Parser.parseCommaSeparatedList(
            OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
              Block *B;
              if (Parser.parseSuccessor(B))
                return failure();
              Dests.push_back(B);
              return success();
            }))
      return failure();
    Result.addSuccessors(Dests);
  }
  return Parser.parseOptionalAttrDict(Result.attributes);
}

//===----------------------------------------------------------------------===//
// WaitcntOp
//===----------------------------------------------------------------------===//

void WaitcntOp::print(OpAsmPrinter &P) {
  printId(P, getId());
  int64_t Imm = getImm();
  if (encodeCounts(getVmcnt(), getExpcnt(), getLgkmcnt()) != Imm) {
    // Bits outside the three counters are set: keep the raw value.
    P << " raw(0x" << llvm::format_hex_no_prefix(Imm, 4) << ")";
  } else {
    bool Any = false;
    if (getVmcnt() != MaxVmcnt) {
      P << " vmcnt(" << getVmcnt() << ")";
      Any = true;
    }
    if (getExpcnt() != MaxExpcnt) {
      P << " expcnt(" << getExpcnt() << ")";
      Any = true;
    }
    if (getLgkmcnt() != MaxLgkmcnt) {
      P << " lgkmcnt(" << getLgkmcnt() << ")";
      Any = true;
    }
    if (!Any)
      P << " none";
  }
  P.printOptionalAttrDict((*this)->getAttrs());
}

ParseResult WaitcntOp::parse(OpAsmParser &Parser, OperationState &Result) {
  Properties &Props = Result.getOrAddProperties<Properties>();
  if (parseOptionalId(Parser, Props.id))
    return failure();
  if (succeeded(Parser.parseOptionalKeyword("raw"))) {
    if (Parser.parseLParen() || Parser.parseInteger(Props.imm) ||
        Parser.parseRParen())
      return failure();
    if (Props.imm < 0 || Props.imm > 0xffff)
      return Parser.emitError(Parser.getCurrentLocation(),
                              "s_waitcnt immediate must fit in 16 bits");
    return Parser.parseOptionalAttrDict(Result.attributes);
  }
  unsigned Vm = MaxVmcnt, Exp = MaxExpcnt, Lgkm = MaxLgkmcnt;
  if (failed(Parser.parseOptionalKeyword("none"))) {
    StringRef Name;
    bool Any = false;
    while (succeeded(Parser.parseOptionalKeyword(
        &Name, {"vmcnt", "expcnt", "lgkmcnt"}))) {
      Any = true;
      int64_t V;
      llvm::SMLoc Loc = Parser.getCurrentLocation();
      if (Parser.parseLParen() || Parser.parseInteger(V) ||
          Parser.parseRParen())
        return failure();
      unsigned Max = Name == "vmcnt"    ? MaxVmcnt
                     : Name == "expcnt" ? MaxExpcnt
                                        : MaxLgkmcnt;
      if (V < 0 || V > Max)
        return Parser.emitError(Loc, Name + " must be in [0, " +
                                         std::to_string(Max) + "]");
      (Name == "vmcnt" ? Vm : Name == "expcnt" ? Exp : Lgkm) = V;
    }
    if (!Any)
      return Parser.emitError(Parser.getCurrentLocation(),
                              "expected vmcnt(N), expcnt(N), lgkmcnt(N) or "
                              "none");
  }
  Props.imm = encodeCounts(Vm, Exp, Lgkm);
  return Parser.parseOptionalAttrDict(Result.attributes);
}

//===----------------------------------------------------------------------===//
// Simple SOPP ops: [id] plus an optional immediate or successor
//===----------------------------------------------------------------------===//

template <typename OpT> static void printIdOnly(OpT Op, OpAsmPrinter &P) {
  printId(P, Op.getId());
  P.printOptionalAttrDict(Op->getAttrs());
}

template <typename OpT>
static ParseResult parseIdOnly(OpAsmParser &Parser, OperationState &Result) {
  auto &Props = Result.getOrAddProperties<typename OpT::Properties>();
  if (parseOptionalId(Parser, Props.id))
    return failure();
  return Parser.parseOptionalAttrDict(Result.attributes);
}

void BarrierOp::print(OpAsmPrinter &P) { printIdOnly(*this, P); }
ParseResult BarrierOp::parse(OpAsmParser &Parser, OperationState &Result) {
  return parseIdOnly<BarrierOp>(Parser, Result);
}
void EndpgmOp::print(OpAsmPrinter &P) { printIdOnly(*this, P); }
ParseResult EndpgmOp::parse(OpAsmParser &Parser, OperationState &Result) {
  return parseIdOnly<EndpgmOp>(Parser, Result);
}

void NopOp::print(OpAsmPrinter &P) {
  printId(P, getId());
  P << ' ' << getImm();
  P.printOptionalAttrDict((*this)->getAttrs());
}
ParseResult NopOp::parse(OpAsmParser &Parser, OperationState &Result) {
  Properties &Props = Result.getOrAddProperties<Properties>();
  llvm::SMLoc Loc;
  if (parseOptionalId(Parser, Props.id) ||
      (Loc = Parser.getCurrentLocation(), Parser.parseInteger(Props.imm)))
    return failure();
  if (Props.imm < 0 || Props.imm > 0xffff)
    return Parser.emitError(Loc, "s_nop immediate must fit in 16 bits");
  return Parser.parseOptionalAttrDict(Result.attributes);
}

void RawOp::print(OpAsmPrinter &P) {
  printId(P, getId());
  P << " 0x" << llvm::format_hex_no_prefix(uint32_t(getWord()), 8);
  P.printOptionalAttrDict((*this)->getAttrs());
}
ParseResult RawOp::parse(OpAsmParser &Parser, OperationState &Result) {
  Properties &Props = Result.getOrAddProperties<Properties>();
  llvm::SMLoc Loc;
  if (parseOptionalId(Parser, Props.id) ||
      (Loc = Parser.getCurrentLocation(), Parser.parseInteger(Props.word)))
    return failure();
  if (Props.word < 0 || Props.word > UINT32_MAX)
    return Parser.emitError(Loc, "raw word must fit in 32 bits");
  return Parser.parseOptionalAttrDict(Result.attributes);
}

void BranchOp::print(OpAsmPrinter &P) {
  printId(P, getId());
  P << ' ';
  P.printSuccessor(getDest());
  P.printOptionalAttrDict((*this)->getAttrs());
}
ParseResult BranchOp::parse(OpAsmParser &Parser, OperationState &Result) {
  Properties &Props = Result.getOrAddProperties<Properties>();
  Block *Dest;
  if (parseOptionalId(Parser, Props.id) || Parser.parseSuccessor(Dest) ||
      Parser.parseOptionalAttrDict(Result.attributes))
    return failure();
  Result.addSuccessors(Dest);
  return success();
}

//===----------------------------------------------------------------------===//
// Branches
//===----------------------------------------------------------------------===//

void CondBranchOp::print(OpAsmPrinter &P) {
  printId(P, getId());
  P << ' ' << getMnemonic() << ' ';
  P.printSuccessor(getTaken());
  P << ", ";
  P.printSuccessor(getFallthrough());
  P.printOptionalAttrDict((*this)->getAttrs());
}

ParseResult CondBranchOp::parse(OpAsmParser &Parser, OperationState &Result) {
  Properties &Props = Result.getOrAddProperties<Properties>();
  StringRef Mnemonic;
  Block *Taken, *Fallthrough;
  if (parseOptionalId(Parser, Props.id) || Parser.parseKeyword(&Mnemonic) ||
      Parser.parseSuccessor(Taken) || Parser.parseComma() ||
      Parser.parseSuccessor(Fallthrough) ||
      Parser.parseOptionalAttrDict(Result.attributes))
    return failure();
  Props.mnemonic = Mnemonic.str();
  Result.addSuccessors({Taken, Fallthrough});
  return success();
}

static LogicalResult verifyNextBlock(Operation *Op, Block *Expected) {
  Block *B = Op->getBlock();
  if (B->getNextNode() != Expected)
    return Op->emitOpError("fallthrough successor must be the next block in "
                           "layout order");
  return success();
}

LogicalResult CondBranchOp::verify() {
  if (!StringRef(getMnemonic()).starts_with("s_cbranch_"))
    return emitOpError("mnemonic must be an s_cbranch_* instruction, got '")
           << getMnemonic() << "'";
  return verifyNextBlock(*this, getFallthrough());
}

LogicalResult FallthroughOp::verify() {
  if (getDest().size() > 1)
    return emitOpError("has at most one successor");
  if (getDest().size() == 1)
    return verifyNextBlock(*this, getDest().front());
  Operation *Fn = (*this)->getParentOp();
  if (!Fn->hasAttr("not_relocatable"))
    return emitOpError("without a successor runs off the end of the "
                       "function; only allowed in not_relocatable functions");
  if ((*this)->getBlock()->getNextNode())
    return emitOpError("without a successor must end the last block");
  return success();
}

#define GET_OP_CLASSES
#include "asmevo/IR/AMDGCNOps.cpp.inc"
