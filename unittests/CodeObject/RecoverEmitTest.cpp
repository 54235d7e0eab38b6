//===- RecoverEmitTest.cpp - Recovery and emission of the test kernels ----===//
//
// For every in-tree kernel: the round trip is byte-exact in memory and
// through the textual IR, and rewrites that change instruction sizes keep
// the control-flow graph and every PC-relative reference (checked by
// recovering the emitted object and comparing with the rewritten IR).
//
//===----------------------------------------------------------------------===//

#include "TestKernels.h"

#include "asmevo/CodeObject/Compare.h"
#include "asmevo/CodeObject/Emit.h"
#include "asmevo/CodeObject/Recover.h"
#include "asmevo/Passes/Passes.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <map>

using namespace mlir;
using namespace asmevo;
using namespace asmevo::amdgcn;

namespace {

struct Loaded {
  std::unique_ptr<CodeObject> CO;
  OwningOpRef<CodeObjectOp> Op;
};

Loaded load(MLIRContext &Ctx, const std::string &Path) {
  Loaded L;
  auto CO = CodeObject::load(Path);
  EXPECT_TRUE(bool(CO)) << (CO ? "" : llvm::toString(CO.takeError()));
  if (!CO)
    return L;
  L.CO = std::move(*CO);
  auto Op = recoverCodeObject(Ctx, *L.CO);
  EXPECT_TRUE(bool(Op)) << (Op ? "" : llvm::toString(Op.takeError()));
  if (Op)
    L.Op = std::move(*Op);
  return L;
}

std::unique_ptr<CodeObject> parseBytes(const std::vector<uint8_t> &Bytes,
                                       llvm::StringRef Name) {
  auto CO = CodeObject::parse(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(Bytes.data()),
                          Bytes.size())),
      Name);
  EXPECT_TRUE(bool(CO)) << (CO ? "" : llvm::toString(CO.takeError()));
  return CO ? std::move(*CO) : nullptr;
}

class KernelTest : public ::testing::TestWithParam<std::string> {
protected:
  KernelTest() {
    static bool Registered = (registerAsmevoPasses(), true);
    (void)Registered;
    Ctx.getOrLoadDialect<AMDGCNDialect>();
    Ctx.disableMultithreading();
  }
  MLIRContext Ctx;
};

TEST_P(KernelTest, RoundTripIsByteExact) {
  Loaded L = load(Ctx, GetParam());
  ASSERT_TRUE(L.Op);
  ASSERT_TRUE(succeeded(verify(*L.Op)));
  EmitStats Stats;
  auto Bytes = emitCodeObject(*L.Op, &Stats);
  ASSERT_TRUE(bool(Bytes)) << llvm::toString(Bytes.takeError());
  EXPECT_TRUE(llvm::ArrayRef<uint8_t>(*Bytes) == L.CO->image());
  EXPECT_EQ(Stats.MovedFunctions, 0u);
}

TEST_P(KernelTest, TextualIRIsLossless) {
  Loaded L = load(Ctx, GetParam());
  ASSERT_TRUE(L.Op);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  L.Op->print(OS);
  OwningOpRef<Operation *> Parsed = parseSourceString(Text, ParserConfig(&Ctx));
  ASSERT_TRUE(Parsed);
  auto CO = dyn_cast<CodeObjectOp>(*Parsed);
  ASSERT_TRUE(CO);
  auto Bytes = emitCodeObject(CO);
  ASSERT_TRUE(bool(Bytes)) << llvm::toString(Bytes.takeError());
  EXPECT_TRUE(llvm::ArrayRef<uint8_t>(*Bytes) == L.CO->image());
}

/// The shape of one function: per block, instruction texts (PC-relative
/// literals as their target) and successor block indices.
struct Shape {
  std::vector<std::vector<std::string>> Blocks;
  std::vector<std::vector<int>> Succs;
  bool operator==(const Shape &O) const {
    return Blocks == O.Blocks && Succs == O.Succs;
  }
};

/// Where an address points: "function+ordinal" for code, "section+offset"
/// for data (which moves when .text grows).
std::string describeTarget(CodeObjectOp CO, const CodeObject &Obj,
                           int64_t Addr) {
  // A reference lands on new (id-less) instructions put right before its
  // target, as emission defines it.
  for (Operation &Fn : CO.getBodyBlock()) {
    unsigned Ordinal = 0;
    for (Block &B : Fn.getRegion(0)) {
      unsigned Landing = Ordinal;
      for (Operation &I : B) {
        if (getInstId(&I) == Addr)
          return llvm::formatv("{0}+{1}",
                               cast<SymbolOpInterface>(Fn).getName(), Landing)
              .str();
        ++Ordinal;
        if (getInstId(&I) >= 0)
          Landing = Ordinal;
      }
    }
  }
  if (const ElfSection *S = Obj.sectionAt(Addr))
    return llvm::formatv("{0}+{1:x}", S->Name, Addr - S->Addr).str();
  return llvm::formatv("data:{0:x}", Addr).str();
}

std::map<std::string, Shape> shapesOf(CodeObjectOp CO, const CodeObject &Obj) {
  TargetInfo &TI = *llvm::cantFail(CO.getTargetInfo());
  std::map<std::string, Shape> Result;
  for (Operation &Fn : CO.getBodyBlock()) {
    Shape S;
    llvm::DenseMap<Block *, int> Index;
    for (Block &B : Fn.getRegion(0))
      Index[&B] = Index.size();
    for (Block &B : Fn.getRegion(0)) {
      std::vector<std::string> Insts;
      std::vector<int> Succs;
      for (Operation &I : B) {
        if (auto Inst = dyn_cast<InstOp>(I)) {
          const DecodedInst *D = TI.decode(Inst.getBytes());
          std::string Text = D->Mnemonic;
          if (Inst.getPcrelPart() != InstOp::NoPcRel)
            Text += " -> " + describeTarget(CO, Obj, Inst.getPcrelTarget());
          else
            Text = TI.print(D->Inst);
          Insts.push_back(Text);
        } else {
          Insts.push_back(I.getName().getStringRef().str());
        }
      }
      for (Block *Succ : B.getSuccessors())
        Succs.push_back(Index[Succ]);
      S.Blocks.push_back(Insts);
      S.Succs.push_back(Succs);
    }
    Result[cast<SymbolOpInterface>(Fn).getName().str()] = S;
  }
  return Result;
}

std::string firstDifference(const Shape &A, const Shape &B) {
  if (A.Blocks.size() != B.Blocks.size())
    return llvm::formatv("{0} blocks vs {1}", A.Blocks.size(), B.Blocks.size());
  for (size_t I = 0; I < A.Blocks.size(); ++I) {
    if (A.Succs[I] != B.Succs[I])
      return llvm::formatv("block {0}: successors differ", I);
    for (size_t J = 0; J < std::max(A.Blocks[I].size(), B.Blocks[I].size()); ++J) {
      std::string X = J < A.Blocks[I].size() ? A.Blocks[I][J] : "<none>";
      std::string Y = J < B.Blocks[I].size() ? B.Blocks[I][J] : "<none>";
      if (X != Y)
        return llvm::formatv("block {0} inst {1}: '{2}' vs '{3}'", I, J, X, Y);
    }
  }
  return "";
}

/// Runs a pipeline, emits, recovers the result, and checks that the
/// recovered IR has the rewritten IR's shape.
void checkRelayout(MLIRContext &Ctx, const std::string &Path,
                   llvm::StringRef Pipeline, bool ExpectMoves) {
  Loaded L = load(Ctx, Path);
  ASSERT_TRUE(L.Op);
  PassManager PM(&Ctx, CodeObjectOp::getOperationName());
  ASSERT_TRUE(succeeded(parsePassPipeline(Pipeline, PM)));
  ASSERT_TRUE(succeeded(PM.run(*L.Op)));
  auto Before = shapesOf(*L.Op, *L.CO);
  EmitStats Stats;
  auto Bytes = emitCodeObject(*L.Op, &Stats);
  if (!Bytes) {
    // Acceptable refusals: the grown code does not fit, or a symbol (a
    // label in hand-written assembly) names a deleted instruction.
    std::string Msg = llvm::toString(Bytes.takeError());
    EXPECT_TRUE(Msg.find("longer than .text") != std::string::npos ||
                Msg.find("symbol refers to code") != std::string::npos)
        << Msg;
    return;
  }
  auto Out = parseBytes(*Bytes, Path + " (relaid out)");
  ASSERT_TRUE(Out);
  auto Recovered = recoverCodeObject(Ctx, *Out);
  ASSERT_TRUE(bool(Recovered)) << llvm::toString(Recovered.takeError());
  auto After = shapesOf(**Recovered, *Out);
  ASSERT_EQ(Before.size(), After.size());
  for (auto &[Name, S] : Before) {
    ASSERT_TRUE(After.count(Name)) << Name;
    EXPECT_TRUE(S == After[Name])
        << "function " << Name << " of " << Path << ": "
        << firstDifference(S, After[Name]);
  }
  // Every kernel's entry is its function's new start.
  for (const KernelInfo &K : Out->kernels()) {
    bool Found = false;
    for (Operation &Fn : (*Recovered)->getBodyBlock())
      if (auto KO = dyn_cast<KernelOp>(Fn))
        Found |= KO.getSymName() == K.Name &&
                 uint64_t(KO.getAddr()) == K.CodeAddr;
    EXPECT_TRUE(Found) << K.Name;
  }
  if (ExpectMoves) {
    // Inserted instructions must show in the emitted object.
    bool Inserted = false;
    L.Op->walk([&](NopOp N) { Inserted |= N.getId() < 0; });
    if (Inserted) {
      EXPECT_FALSE(llvm::ArrayRef<uint8_t>(*Bytes) == L.CO->image());
    }
  }
}

TEST_P(KernelTest, InsertedNopsKeepTheCFG) {
  checkRelayout(Ctx, GetParam(), "amdgcn-test-insert-nop{count=1}", true);
}

TEST_P(KernelTest, GrowingTextKeepsTheCFG) {
  // Enough new code that .text must grow and every later section move.
  checkRelayout(Ctx, GetParam(), "amdgcn-test-insert-nop{count=40 all-blocks=true}",
                true);
}

TEST_P(KernelTest, DeletionsKeepTheCFG) {
  checkRelayout(Ctx, GetParam(), "amdgcn-test-delete-before-branch", false);
}

std::string kernelName(const ::testing::TestParamInfo<std::string> &Info) {
  std::string Name = llvm::sys::path::stem(Info.param).str();
  std::string Out;
  for (char C : Name)
    Out += isalnum(C) ? std::string(1, C)
           : C == '+'  ? std::string("_plus_")
           : C == '-'  ? std::string("_")
                       : std::string("_");
  return Out;
}

INSTANTIATE_TEST_SUITE_P(InTree, KernelTest,
                         ::testing::ValuesIn(test::allTestKernels()),
                         kernelName);

TEST(KernelList, IsNotEmpty) {
  // The kernel list comes from the build; an empty list would make every
  // parameterized test above vanish silently.
  EXPECT_GE(test::allTestKernels().size(), 20u);
}

TEST(Relayout, CallsFollowTheCallee) {
  // Growing the code before a device function moves it; the call sites'
  // s_add_u32/s_addc_u32 literals must now reach its new address.
  static bool Registered = (registerAsmevoPasses(), true);
  (void)Registered;
  MLIRContext Ctx;
  Ctx.getOrLoadDialect<AMDGCNDialect>();
  Loaded L = load(Ctx, test::testKernel("calls-gfx942-v5.hsaco"));
  ASSERT_TRUE(L.Op);
  PassManager PM(&Ctx, CodeObjectOp::getOperationName());
  ASSERT_TRUE(succeeded(
      parsePassPipeline("amdgcn-test-insert-nop{count=4 all-blocks=true}", PM)));
  ASSERT_TRUE(succeeded(PM.run(*L.Op)));
  EmitStats Stats;
  auto Bytes = emitCodeObject(*L.Op, &Stats);
  ASSERT_TRUE(bool(Bytes)) << llvm::toString(Bytes.takeError());
  EXPECT_GT(Stats.MovedFunctions, 0u);
  auto Out = parseBytes(*Bytes, "calls (moved)");
  ASSERT_TRUE(Out);
  auto Rec = recoverCodeObject(Ctx, *Out);
  ASSERT_TRUE(bool(Rec));
  std::map<int64_t, std::string> FnAt;
  for (Operation &Fn : (*Rec)->getBodyBlock())
    FnAt[Fn.getAttrOfType<IntegerAttr>("addr").getInt()] =
        cast<SymbolOpInterface>(Fn).getName().str();
  unsigned Calls = 0;
  (*Rec)->walk([&](InstOp I) {
    if (I.getPcrelPart() == InstOp::PcRelLo && FnAt.count(I.getPcrelTarget()))
      ++Calls;
  });
  EXPECT_GT(Calls, 0u) << "no PC-relative reference reaches a function start";
}

} // namespace
