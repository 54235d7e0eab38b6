//===- ApplyEdits.cpp - A JSON edit script through the legality checks ----===//
//
// {
//   "version": 1,
//   "atomic": false,                 // true: all edits or none
//   "edits": [
//     {"action": "delete",  "id": "0x1a20"},
//     {"action": "move",    "id": "0x1a20", "before": "0x1a00"},
//     {"action": "move",    "id": "0x1a20", "after": "0x1a40"},
//     {"action": "insert",  "before": "0x1a00",
//                           "text": ["v_add_u32_e32 v0, v1, v2", "s_nop 0"]},
//     {"action": "replace", "ids": ["0x10", "0x14"],
//                           "text": "amdgcn.s_waitcnt vmcnt(1)"}
//   ]
// }
//
// Ids are original addresses (hex strings or numbers). Text is AMDGPU
// assembly ("mnemonic operands", one instruction per string) or the
// dialect's syntax when it starts with "amdgcn." (several ops may be
// separated by newlines). docs/WritingPasses.md documents the format.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"

#include "asmevo/Passes/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>

namespace asmevo {
#define GEN_PASS_DEF_APPLYEDITS
#include "asmevo/Passes/Passes.h.inc"
} // namespace asmevo

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;
namespace json = llvm::json;

namespace {

struct EditResult {
  unsigned Index = 0;
  std::string Action;
  std::string Status; // applied, refused, error
  std::string Reason;
};

struct ApplyEditsPass : public asmevo::impl::ApplyEditsBase<ApplyEditsPass> {
  using Base::Base;

  llvm::DenseMap<int64_t, Operation *> ById;
  std::vector<EditResult> Results;

  bool parseId(const json::Value *V, int64_t &Id, std::string &Err) {
    if (!V) {
      Err = "missing id";
      return false;
    }
    if (auto N = V->getAsInteger()) {
      Id = *N;
      return true;
    }
    if (auto S = V->getAsString()) {
      llvm::StringRef T = *S;
      if (!T.getAsInteger(0, Id))
        return true;
    }
    Err = "an id must be a number or a string like \"0x1a20\"";
    return false;
  }

  Operation *lookup(const json::Value *V, std::string &Err) {
    int64_t Id;
    if (!parseId(V, Id, Err))
      return nullptr;
    Operation *Op = ById.lookup(Id);
    if (!Op)
      Err = llvm::formatv("no instruction has id {0:x}", Id).str();
    return Op;
  }

  /// New detached ops from one text entry.
  bool makeOps(llvm::StringRef Text, TargetInfo &TI, StringRef Target,
               SmallVectorImpl<Operation *> &Out, std::string &Err) {
    OpBuilder B(&getContext());
    Text = Text.trim();
    if (Text.starts_with("amdgcn.")) {
      std::string Src = "amdgcn.code_object \"" + Target.str() +
                        "\" {\namdgcn.func @__edit {\n" + Text.str() +
                        "\namdgcn.s_endpgm\n}\n}\n";
      std::string Diag;
      ScopedDiagnosticHandler H(&getContext(), [&](Diagnostic &D) {
        Diag += D.str();
        return success();
      });
      OwningOpRef<ModuleOp> M = parseSourceString<ModuleOp>(Src, &getContext());
      if (!M) {
        Err = "cannot parse '" + Text.str() + "': " + Diag;
        return false;
      }
      auto CO = cast<CodeObjectOp>(M->getBody()->front());
      Block &Body = CO.getBodyBlock().front().getRegion(0).front();
      SmallVector<Operation *> Ops;
      for (Operation &Op : Body)
        Ops.push_back(&Op);
      Ops.pop_back(); // the s_endpgm we added
      for (Operation *Op : Ops) {
        if (Op->hasTrait<OpTrait::IsTerminator>()) {
          Err = "branches and terminators cannot be inserted";
          return false;
        }
        Op->remove();
        setInstId(Op, -1);
        Out.push_back(Op);
      }
      return true;
    }
    llvm::MCInst Inst;
    SmallVector<uint8_t, 16> Bytes;
    if (llvm::Error E = TI.assemble(Text, Inst, Bytes)) {
      Err = "cannot assemble '" + Text.str() + "': " +
            llvm::toString(std::move(E));
      return false;
    }
    const DecodedInst *D = TI.decode(Bytes);
    llvm::StringRef M = D ? llvm::StringRef(D->Mnemonic) : "";
    int64_t Imm = Inst.getNumOperands() && Inst.getOperand(0).isImm()
                      ? Inst.getOperand(0).getImm()
                      : 0;
    if (M == "s_waitcnt")
      Out.push_back(WaitcntOp::create(B, B.getUnknownLoc(), -1, Imm & 0xffff));
    else if (M == "s_nop")
      Out.push_back(NopOp::create(B, B.getUnknownLoc(), -1, Imm & 0xffff));
    else if (M == "s_barrier")
      Out.push_back(BarrierOp::create(B, B.getUnknownLoc(), -1));
    else if (M == "s_branch" || M.starts_with("s_cbranch") ||
             M.starts_with("s_setpc") || M.starts_with("s_endpgm")) {
      Err = "branches and terminators cannot be inserted ('" + Text.str() +
            "')";
      return false;
    } else
      Out.push_back(rewrite::makeInstFromBytes(B, Bytes));
    return true;
  }

  bool textOps(const json::Object &E, TargetInfo &TI, StringRef Target,
               SmallVectorImpl<Operation *> &Out, std::string &Err) {
    const json::Value *T = E.get("text");
    if (!T) {
      Err = "missing \"text\"";
      return false;
    }
    SmallVector<std::string> Texts;
    if (auto S = T->getAsString())
      Texts.push_back(S->str());
    else if (auto A = T->getAsArray()) {
      for (const json::Value &V : *A)
        if (auto S = V.getAsString())
          Texts.push_back(S->str());
        else {
          Err = "\"text\" entries must be strings";
          return false;
        }
    } else {
      Err = "\"text\" must be a string or an array of strings";
      return false;
    }
    for (const std::string &X : Texts) {
      // Assembly entries may hold several lines too.
      if (!llvm::StringRef(X).trim().starts_with("amdgcn.")) {
        SmallVector<llvm::StringRef> Lines;
        llvm::StringRef(X).split(Lines, '\n', -1, false);
        for (llvm::StringRef L : Lines)
          if (!L.trim().empty() && !makeOps(L, TI, Target, Out, Err))
            return false;
        continue;
      }
      if (!makeOps(X, TI, Target, Out, Err))
        return false;
    }
    if (Out.empty()) {
      Err = "\"text\" holds no instruction";
      return false;
    }
    return true;
  }

  /// Applies edit E inside transaction T of Fn's legality.
  bool stage(const json::Object &E, Legality::Transaction &T, TargetInfo &TI,
             StringRef Target, Operation *&Fn, std::string &Action,
             std::string &Err) {
    auto A = E.getString("action");
    if (!A) {
      Err = "missing \"action\"";
      return false;
    }
    Action = A->str();
    auto fnOf = [&](Operation *Op) {
      return Op->getParentOfType<KernelOp>()
                 ? Op->getParentOfType<KernelOp>().getOperation()
                 : Op->getParentOfType<FuncOp>().getOperation();
    };
    auto sameFn = [&](Operation *Op) {
      Operation *F = fnOf(Op);
      if (Fn && F != Fn) {
        Err = "the edit spans two functions";
        return false;
      }
      Fn = F;
      return true;
    };
    if (Action == "delete") {
      Operation *X = lookup(E.get("id"), Err);
      if (!X || !sameFn(X))
        return false;
      T.erase(X);
      return true;
    }
    if (Action == "move") {
      Operation *X = lookup(E.get("id"), Err);
      if (!X || !sameFn(X))
        return false;
      if (E.get("before")) {
        Operation *Y = lookup(E.get("before"), Err);
        if (!Y || !sameFn(Y))
          return false;
        T.moveBefore(X, Y);
      } else if (E.get("after")) {
        Operation *Y = lookup(E.get("after"), Err);
        if (!Y || !sameFn(Y))
          return false;
        T.moveAfter(X, Y);
      } else {
        Err = "move needs \"before\" or \"after\"";
        return false;
      }
      return true;
    }
    if (Action == "insert") {
      Operation *Y = nullptr;
      if (E.get("before"))
        Y = lookup(E.get("before"), Err);
      else if (E.get("after")) {
        Operation *X = lookup(E.get("after"), Err);
        Y = X ? X->getNextNode() : nullptr;
        if (X && !Y)
          Err = "cannot insert after a terminator";
      } else
        Err = "insert needs \"before\" or \"after\"";
      if (!Y || !sameFn(Y))
        return false;
      SmallVector<Operation *> New;
      if (!textOps(E, TI, Target, New, Err))
        return false;
      for (Operation *N : New)
        T.insertBefore(N, Y);
      return true;
    }
    if (Action == "replace") {
      SmallVector<Operation *> Old;
      if (const json::Array *Ids = E.getArray("ids")) {
        for (const json::Value &V : *Ids) {
          Operation *X = lookup(&V, Err);
          if (!X || !sameFn(X))
            return false;
          Old.push_back(X);
        }
      } else if (E.get("id")) {
        Operation *X = lookup(E.get("id"), Err);
        if (!X || !sameFn(X))
          return false;
        Old.push_back(X);
      } else {
        Err = "replace needs \"ids\" (a contiguous range) or \"id\"";
        return false;
      }
      SmallVector<Operation *> New;
      if (!textOps(E, TI, Target, New, Err))
        return false;
      T.replace(Old, New);
      return true;
    }
    Err = "unknown action '" + Action + "' (delete, move, insert, replace)";
    return false;
  }

  void runOnOperation() override {
    CodeObjectOp CO = getOperation();
    auto TIOrErr = CO.getTargetInfo();
    if (!TIOrErr) {
      CO.emitError(llvm::toString(TIOrErr.takeError()));
      return signalPassFailure();
    }
    TargetInfo &TI = **TIOrErr;
    if (edits.empty()) {
      CO.emitError("amdgcn-apply-edits needs edits=<path of a JSON script>");
      return signalPassFailure();
    }
    auto Buf = llvm::MemoryBuffer::getFile(edits);
    if (!Buf) {
      CO.emitError("cannot read " + edits + ": " + Buf.getError().message());
      return signalPassFailure();
    }
    auto Doc = json::parse((*Buf)->getBuffer());
    if (!Doc) {
      CO.emitError(edits + ": " + llvm::toString(Doc.takeError()));
      return signalPassFailure();
    }
    const json::Object *Root = Doc->getAsObject();
    const json::Array *Edits = Root ? Root->getArray("edits") : nullptr;
    if (!Edits) {
      CO.emitError(edits + ": expected an object with an \"edits\" array");
      return signalPassFailure();
    }
    bool Atomic = Root->getBoolean("atomic").value_or(false);

    for (Operation &Fn : CO.getBodyBlock())
      Fn.walk([&](Operation *Op) {
        int64_t Id = getInstId(Op);
        if (Id >= 0)
          ById[Id] = Op;
      });

    PcrelReferences Refs(getOperation());
    std::map<Operation *, std::unique_ptr<Legality>> Legal;
    auto legalityFor = [&](Operation *Fn) -> Legality & {
      auto &L = Legal[Fn];
      if (!L) {
        L = std::make_unique<Legality>(Fn);
        L->setPcrelReferences(Refs);
      }
      return *L;
    };

    unsigned Applied = 0, Refused = 0, Errors = 0;
    if (!Atomic) {
      for (size_t I = 0; I < Edits->size(); ++I) {
        EditResult R;
        R.Index = unsigned(I);
        const json::Object *E = (*Edits)[I].getAsObject();
        std::string Err;
        if (!E) {
          R.Status = "error";
          R.Reason = "an edit must be an object";
          ++Errors;
          Results.push_back(R);
          continue;
        }
        // Which function? Stage in a scratch transaction of the right one.
        Operation *Fn = nullptr;
        std::string Why;
        Operation *Probe = nullptr;
        for (llvm::StringRef K : {"id", "before", "after"})
          if (!Probe && E->get(K))
            Probe = ById.lookup([&] {
              int64_t Id = -1;
              std::string Ignored;
              parseId(E->get(K), Id, Ignored);
              return Id;
            }());
        if (!Probe)
          if (const json::Array *Ids = E->getArray("ids"))
            if (!Ids->empty()) {
              int64_t Id = -1;
              std::string Ignored;
              parseId(&(*Ids)[0], Id, Ignored);
              Probe = ById.lookup(Id);
            }
        if (Probe) {
          Operation *F = Probe->getParentOfType<KernelOp>()
                             ? Probe->getParentOfType<KernelOp>().getOperation()
                             : Probe->getParentOfType<FuncOp>().getOperation();
          if (!rewrite::isEditable(F, &Why)) {
            R.Action = E->getString("action").value_or("").str();
            R.Status = "refused";
            R.Reason = rewrite::functionName(F) + " is not editable: " + Why;
            ++Refused;
            Results.push_back(R);
            continue;
          }
          Legality &L = legalityFor(F);
          Legality::Transaction T(L);
          if (!stage(*E, T, TI, CO.getTarget(), Fn, R.Action, Err)) {
            T.rollback();
            R.Status = "error";
            R.Reason = Err;
            ++Errors;
          } else if (Verdict V = T.commit()) {
            R.Status = "applied";
            ++Applied;
          } else {
            R.Status = "refused";
            R.Reason = std::string(verdictKindName(V.K)) + ": " + V.Reason;
            ++Refused;
          }
        } else {
          R.Action = E->getString("action").value_or("").str();
          R.Status = "error";
          std::string E2;
          lookup(E->get("id") ? E->get("id")
                 : E->get("before") ? E->get("before")
                                    : E->get("after"),
                 E2);
          R.Reason = E2.empty() ? "the edit names no instruction" : E2;
          ++Errors;
        }
        Results.push_back(R);
        // Ids of erased ops must not be looked up again.
        refreshIds(CO);
      }
    } else {
      // One transaction per function; all verified before any is kept.
      std::map<Operation *, std::unique_ptr<Legality::Transaction>> Txs;
      bool Ok = true;
      for (size_t I = 0; I < Edits->size() && Ok; ++I) {
        EditResult R;
        R.Index = unsigned(I);
        const json::Object *E = (*Edits)[I].getAsObject();
        std::string Err;
        Operation *Fn = nullptr;
        // Stage into the function's transaction (found from the first id).
        int64_t Id = -1;
        std::string Ignored;
        for (llvm::StringRef K : {"id", "before", "after"})
          if (Id < 0 && E && E->get(K))
            parseId(E->get(K), Id, Ignored);
        if (Id < 0 && E)
          if (const json::Array *Ids = E->getArray("ids"))
            if (!Ids->empty())
              parseId(&(*Ids)[0], Id, Ignored);
        Operation *Probe = ById.lookup(Id);
        if (!E || !Probe) {
          R.Status = "error";
          R.Reason = !E ? "an edit must be an object"
                        : "the edit names no known instruction";
          ++Errors;
          Ok = false;
          Results.push_back(R);
          break;
        }
        Operation *F = Probe->getParentOfType<KernelOp>()
                           ? Probe->getParentOfType<KernelOp>().getOperation()
                           : Probe->getParentOfType<FuncOp>().getOperation();
        auto &T = Txs[F];
        if (!T)
          T = std::make_unique<Legality::Transaction>(legalityFor(F));
        if (!stage(*E, *T, TI, CO.getTarget(), Fn, R.Action, Err)) {
          R.Status = "error";
          R.Reason = Err;
          ++Errors;
          Ok = false;
        } else {
          R.Status = "staged";
        }
        Results.push_back(R);
      }
      std::string Why;
      if (Ok)
        for (auto &KV : Txs)
          if (Verdict V = KV.second->verify(); !V) {
            Ok = false;
            Why = rewrite::functionName(KV.first) + ": " +
                  verdictKindName(V.K) + ": " + V.Reason;
            ++Refused;
            break;
          }
      for (auto &KV : Txs) {
        if (Ok)
          (void)KV.second->commit();
        else
          KV.second->rollback();
      }
      for (EditResult &R : Results)
        if (R.Status == "staged") {
          R.Status = Ok ? "applied" : "refused";
          if (Ok)
            ++Applied;
          else
            R.Reason = "the atomic script was refused: " + Why;
        }
    }

    if (!report.empty())
      writeReport(Applied, Refused, Errors);
    if (summary)
      llvm::errs() << "amdgcn-apply-edits: " << Applied << " applied, "
                   << Refused << " refused, " << Errors << " error(s)\n";
    for (const EditResult &R : Results)
      if (R.Status != "applied")
        llvm::errs() << "amdgcn-apply-edits: edit " << R.Index << " ("
                     << R.Action << ") " << R.Status << ": " << R.Reason
                     << "\n";
    if (Errors || (Refused && !allowRefusals))
      signalPassFailure();
  }

  void refreshIds(CodeObjectOp CO) {
    ById.clear();
    for (Operation &Fn : CO.getBodyBlock())
      Fn.walk([&](Operation *Op) {
        int64_t Id = getInstId(Op);
        if (Id >= 0)
          ById[Id] = Op;
      });
  }

  void writeReport(unsigned Applied, unsigned Refused, unsigned Errors) {
    json::Array Arr;
    for (const EditResult &R : Results) {
      json::Object O{{"index", int64_t(R.Index)},
                     {"action", R.Action},
                     {"status", R.Status}};
      if (!R.Reason.empty())
        O["reason"] = R.Reason;
      Arr.push_back(std::move(O));
    }
    json::Object Root{{"applied", int64_t(Applied)},
                      {"refused", int64_t(Refused)},
                      {"errors", int64_t(Errors)},
                      {"edits", std::move(Arr)}};
    std::error_code EC;
    llvm::raw_fd_ostream OS(report, EC, llvm::sys::fs::OF_Text);
    if (EC) {
      llvm::errs() << "amdgcn-apply-edits: cannot write " << report << ": "
                   << EC.message() << "\n";
      return;
    }
    OS << llvm::formatv("{0:2}", json::Value(std::move(Root))) << "\n";
  }
};

} // namespace
