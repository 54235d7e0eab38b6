//===- RewriteUtils.cpp - Shared helpers of the rewrite passes ------------===//

#include "RewriteUtils.h"

#include "asmevo/Passes/Passes.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

/// The checks that need no analysis of Fn's code.
static bool isCandidate(Operation *Fn, std::string *Why) {
  auto Fail = [&](const std::string &W) {
    if (Why)
      *Why = W;
    return false;
  };
  if (!isa<KernelOp, FuncOp>(Fn))
    return Fail("not a kernel or function");
  if (Fn->hasAttr(FrozenAttrName))
    return Fail("frozen: not selected (asmevo-opt --only-kernels)");
  if (Fn->hasAttr("not_relocatable"))
    return Fail("not_relocatable: recovery could not model all of its code");
  if (Fn->getRegion(0).empty())
    return Fail("no body");
  return true;
}

bool rewrite::isEditable(Operation *Fn, InstInfoCache &Cache,
                         std::string *Why) {
  if (!isCandidate(Fn, Why))
    return false;
  // Calls into its own code: editable around the calls when the model's
  // assumptions hold (Legality keeps the calls and the subroutines as they
  // are).
  if (Fn->hasAttr("internal_calls")) {
    const InternalCallModel &M = Cache.internalCalls(Fn);
    if (!M.modelled()) {
      if (Why)
        *Why = "internal_calls: calls into its own code in a way the "
               "analyses do not model: " +
               M.reason();
      return false;
    }
  }
  return true;
}

bool rewrite::isEditable(Operation *Fn, std::string *Why) {
  if (!isCandidate(Fn, Why))
    return false;
  if (!Fn->hasAttr("internal_calls"))
    return true;
  auto TIOrErr = amdgcn::getTargetInfoFor(Fn);
  if (!TIOrErr) {
    if (Why)
      *Why = "internal_calls: " + llvm::toString(TIOrErr.takeError());
    else
      llvm::consumeError(TIOrErr.takeError());
    return false;
  }
  InstInfoCache C(**TIOrErr);
  return isEditable(Fn, C, Why);
}

void rewrite::candidateFunctions(CodeObjectOp CO,
                                 SmallVectorImpl<Operation *> &Out) {
  for (Operation &Fn : CO.getBodyBlock())
    if (isCandidate(&Fn, nullptr))
      Out.push_back(&Fn);
}

LogicalResult rewrite::forEachEditableFunction(
    CodeObjectOp CO, llvm::StringRef Pass,
    llvm::function_ref<void(Operation *Fn, InstInfoCache &Cache,
                            const PcrelReferences &Refs)>
        Body) {
  SmallVector<Operation *> Fns;
  candidateFunctions(CO, Fns);
  PcrelReferences Refs(CO);
  for (Operation *Fn : Fns) {
    TargetInfo *TI = targetInfoOrError(Fn, Pass);
    if (!TI)
      return failure();
    InstInfoCache Cache(*TI);
    if (isEditable(Fn, Cache))
      Body(Fn, Cache, Refs);
  }
  return success();
}

std::string rewrite::functionName(Operation *Fn) {
  if (auto S = dyn_cast<SymbolOpInterface>(Fn))
    return "@" + S.getName().str();
  return "<function>";
}

TargetInfo *rewrite::targetInfoOrError(Operation *Fn, llvm::StringRef Pass) {
  auto TIOrErr = amdgcn::getTargetInfoFor(Fn);
  if (TIOrErr)
    return *TIOrErr;
  Fn->emitError() << Pass << ": " << llvm::toString(TIOrErr.takeError());
  return nullptr;
}

Operation *rewrite::makeInstFromBytes(OpBuilder &B, llvm::ArrayRef<uint8_t> Bytes,
                                      int64_t Id) {
  SmallVector<int32_t, 4> Enc;
  for (size_t I = 0; I + 3 < Bytes.size(); I += 4)
    Enc.push_back(int32_t(uint32_t(Bytes[I]) | uint32_t(Bytes[I + 1]) << 8 |
                          uint32_t(Bytes[I + 2]) << 16 |
                          uint32_t(Bytes[I + 3]) << 24));
  return InstOp::create(B, B.getUnknownLoc(), Id, Enc, InstOp::NoPcRel, -1, -1);
}

Operation *rewrite::makeInst(OpBuilder &B, TargetInfo &TI, llvm::StringRef Text,
                             std::string &Err, int64_t Id) {
  llvm::MCInst Inst;
  SmallVector<uint8_t, 16> Bytes;
  if (llvm::Error E = TI.assemble(Text, Inst, Bytes)) {
    Err = "cannot assemble '" + Text.str() + "': " + llvm::toString(std::move(E));
    return nullptr;
  }
  return makeInstFromBytes(B, Bytes, Id);
}

Operation *rewrite::makeWaitcnt(OpBuilder &B, const unsigned C[NumCounters],
                                int64_t Id) {
  return WaitcntOp::create(
      B, B.getUnknownLoc(), Id,
      WaitcntOp::encodeCounts(C[unsigned(Counter::VM)],
                              C[unsigned(Counter::EXP)],
                              C[unsigned(Counter::LGKM)]));
}

Operation *rewrite::makeNop(OpBuilder &B, unsigned WaitStates, int64_t Id) {
  return NopOp::create(B, B.getUnknownLoc(), Id,
                       int64_t(std::min(16u, std::max(1u, WaitStates)) - 1));
}

void rewrite::Summary::add(llvm::StringRef What, long N) {
  for (auto &KV : Counts)
    if (KV.first == What) {
      KV.second += N;
      return;
    }
  Counts.push_back({What.str(), N});
}

void rewrite::Summary::print(llvm::raw_ostream &OS) const {
  OS << Pass << ": " << FunctionsChanged << " function(s) changed";
  for (auto &KV : Counts)
    OS << ", " << KV.first << " " << KV.second;
  if (Refused)
    OS << ", " << Refused << " refused";
  OS << "\n";
}
