//===- TargetInfoTest.cpp - LLVM MC facts through TargetInfo --------------===//
//
// Expected values come from the CDNA3 ISA document's encodings and from
// LLVM's instruction definitions, written out by hand.
//
//===----------------------------------------------------------------------===//

#include "asmevo/MC/TargetInfo.h"

#include "llvm/MC/MCInstrDesc.h"
#include "gtest/gtest.h"

using namespace asmevo;
using namespace llvm;

namespace {

TargetInfo &gfx942() {
  static TargetInfo *TI = cantFail(TargetInfo::get("gfx942", "+sramecc,-xnack"));
  return *TI;
}

std::vector<uint8_t> bytesOf(std::initializer_list<uint32_t> Words) {
  std::vector<uint8_t> B;
  for (uint32_t W : Words)
    for (int I = 0; I < 4; ++I)
      B.push_back(uint8_t(W >> (8 * I)));
  return B;
}

TEST(TargetInfo, DecodesAndPrints) {
  auto B = bytesOf({0x68000002}); // v_add_u32_e32 v0, s2, v0
  const DecodedInst *D = gfx942().decode(B);
  ASSERT_NE(D, nullptr);
  EXPECT_EQ(D->Size, 4);
  EXPECT_EQ(D->Mnemonic, "v_add_u32_e32");
  EXPECT_TRUE(D->ReencodesExactly);
  EXPECT_EQ(gfx942().print(D->Inst), "v_add_u32_e32 v0, s2, v0");
  auto [M, Ops] = gfx942().printSplit(D->Inst);
  EXPECT_EQ(M, "v_add_u32_e32");
  EXPECT_EQ(Ops, "v0, s2, v0");
}

TEST(TargetInfo, DecodeCacheSharesEntries) {
  auto A = bytesOf({0x68000002, 0x11111111});
  auto B = bytesOf({0x68000002, 0x22222222});
  // A 4-byte instruction does not depend on the word after it.
  EXPECT_EQ(gfx942().decode(A), gfx942().decode(B));
  // 8-byte instructions are keyed on both words.
  auto L1 = bytesOf({0xC00200C0, 0x00000024}); // s_load_dword s3, s[0:1], 0x24
  auto L2 = bytesOf({0xC00200C0, 0x00000028});
  const DecodedInst *D1 = gfx942().decode(L1), *D2 = gfx942().decode(L2);
  ASSERT_TRUE(D1 && D2);
  EXPECT_NE(D1, D2);
  EXPECT_EQ(gfx942().print(D1->Inst), "s_load_dword s3, s[0:1], 0x24");
  EXPECT_EQ(gfx942().print(D2->Inst), "s_load_dword s3, s[0:1], 0x28");
}

TEST(TargetInfo, RejectsShortAndInvalidBytes) {
  std::vector<uint8_t> Short = {0x02, 0x00};
  EXPECT_EQ(gfx942().decode(Short), nullptr);
  // An 8-byte encoding with only its first word present.
  auto Half = bytesOf({0xC00200C0});
  EXPECT_EQ(gfx942().decode(Half), nullptr);
}

TEST(TargetInfo, AllOnesWordsAreCachedSafely) {
  // 0xffffffff and 0xfffffffe are DenseMap's reserved keys; a fuzzer found
  // that using them as cache keys returned garbage entries.
  for (int Round = 0; Round < 3; ++Round)
    for (uint32_t W : {0xffffffffu, 0xfffffffeu}) {
      auto B = bytesOf({W, 0xffffffffu, 0xbf800000u});
      const DecodedInst *D = gfx942().decode(B);
      if (D) {
        EXPECT_TRUE(D->Size == 4 || D->Size == 8);
        EXPECT_FALSE(D->Mnemonic.empty());
      }
      auto C = bytesOf({0xbf8010ffu}); // s_nop 0x10ff
      const DecodedInst *N = gfx942().decode(C);
      ASSERT_NE(N, nullptr);
      EXPECT_EQ(N->Mnemonic, "s_nop");
    }
}

TEST(TargetInfo, AssemblesToTheDocumentedEncoding) {
  MCInst Inst;
  SmallVector<uint8_t, 8> Bytes;
  ASSERT_FALSE(errorToBool(gfx942().assemble("s_endpgm", Inst, Bytes)));
  EXPECT_EQ(Bytes, (SmallVector<uint8_t, 8>{0x00, 0x00, 0x81, 0xBF}));
  Bytes.clear();
  ASSERT_FALSE(
      errorToBool(gfx942().assemble("s_waitcnt vmcnt(0)", Inst, Bytes)));
  // SOPP s_waitcnt (op 12); SIMM16 with vmcnt=0, expcnt=7, lgkmcnt=15.
  EXPECT_EQ(Bytes, (SmallVector<uint8_t, 8>{0x70, 0x0F, 0x8C, 0xBF}));
  Bytes.clear();
  Error E = gfx942().assemble("v_add_u32_e32 v0, s2, s3", Inst, Bytes);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("invalid operand"), std::string::npos);
}

TEST(TargetInfo, SoppTemplates) {
  EXPECT_EQ(cantFail(gfx942().soppTemplate("s_waitcnt")), 0xBF8C0000u);
  EXPECT_EQ(cantFail(gfx942().soppTemplate("s_branch")), 0xBF820000u);
  EXPECT_EQ(cantFail(gfx942().soppTemplate("s_cbranch_execz")), 0xBF880000u);
  EXPECT_EQ(cantFail(gfx942().soppTemplate("s_endpgm", false)), 0xBF810000u);
  Expected<uint32_t> Bad = gfx942().soppTemplate("s_not_an_instruction");
  EXPECT_FALSE(bool(Bad));
  consumeError(Bad.takeError());
}

bool hasAccess(ArrayRef<RegAccess> Acc, StringRef Name, bool IsDef,
               bool IsImplicit) {
  for (const RegAccess &A : Acc)
    if (gfx942().regName(A.Reg) == Name && A.IsDef == IsDef &&
        A.IsImplicit == IsImplicit)
      return true;
  return false;
}

TEST(TargetInfo, ExplicitAndImplicitAccesses) {
  // s_and_saveexec_b64 s[2:3], vcc: defines s[2:3], EXEC and SCC; reads vcc
  // and EXEC.
  auto B = bytesOf({0xBE82206A});
  const DecodedInst *D = gfx942().decode(B);
  ASSERT_NE(D, nullptr);
  SmallVector<RegAccess, 8> Acc;
  gfx942().accesses(D->Inst, Acc);
  EXPECT_TRUE(hasAccess(Acc, "s[2:3]", true, false));
  EXPECT_TRUE(hasAccess(Acc, "vcc", false, false));
  EXPECT_TRUE(hasAccess(Acc, "exec", true, true));
  EXPECT_TRUE(hasAccess(Acc, "exec", false, true));
  EXPECT_TRUE(hasAccess(Acc, "scc", true, true));

  // v_fmac_f32_e32 v5, s4, v4: reads its own destination (tied) and EXEC.
  auto F = bytesOf({0x760A0804});
  const DecodedInst *FD = gfx942().decode(F);
  ASSERT_NE(FD, nullptr);
  Acc.clear();
  gfx942().accesses(FD->Inst, Acc);
  EXPECT_TRUE(hasAccess(Acc, "v5", true, false));
  EXPECT_TRUE(hasAccess(Acc, "v5", false, false));
  EXPECT_TRUE(hasAccess(Acc, "s4", false, false));
  EXPECT_TRUE(hasAccess(Acc, "exec", false, true));
}

TEST(TargetInfo, RegisterRangesAndOverlap) {
  auto B = bytesOf({0xD2080002, 0x04010000}); // v_lshl_add_u64 v[2:3], s[0:1], 0, v[0:1]
  const DecodedInst *D = gfx942().decode(B);
  ASSERT_NE(D, nullptr);
  RegRange Dst = gfx942().classify(D->Inst.getOperand(0).getReg());
  EXPECT_EQ(Dst.Kind, RegKind::VGPR);
  EXPECT_EQ(Dst.First, 2);
  EXPECT_EQ(Dst.Count, 2);
  RegRange Src = gfx942().classify(D->Inst.getOperand(1).getReg());
  EXPECT_EQ(Src.Kind, RegKind::SGPR);
  EXPECT_EQ(Src.First, 0);
  EXPECT_EQ(Src.Count, 2);
  EXPECT_FALSE(gfx942().regsOverlap(D->Inst.getOperand(0).getReg(),
                                    D->Inst.getOperand(1).getReg()));
  // v[0:1] overlaps v[0:1] (operand 3) but not v[2:3].
  MCRegister V01 = D->Inst.getOperand(D->Inst.getNumOperands() - 1).getReg();
  if (gfx942().classify(V01).Kind == RegKind::VGPR) {
    EXPECT_TRUE(gfx942().regsOverlap(V01, V01));
    EXPECT_FALSE(gfx942().regsOverlap(V01, D->Inst.getOperand(0).getReg()));
  }
}

TEST(TargetInfo, FlagsComeFromLLVMTables) {
  auto L = bytesOf({0xDC508000, 0x047F0002}); // global_load_dword v4, v[2:3], off
  const DecodedInst *D = gfx942().decode(L);
  ASSERT_NE(D, nullptr);
  uint64_t F = gfx942().tsFlags(D->Inst.getOpcode());
  EXPECT_TRUE(F & InstFlag::FLAT);
  EXPECT_TRUE(F & InstFlag::FlatGlobal);
  EXPECT_TRUE(F & InstFlag::VM_CNT);
  EXPECT_FALSE(F & InstFlag::SMRD);
  EXPECT_TRUE(gfx942().desc(D->Inst.getOpcode()).mayLoad());
}

TEST(TargetInfo, TargetIds) {
  auto TI = TargetInfo::getForTargetId("amdgcn-amd-amdhsa--gfx90a:xnack+");
  ASSERT_TRUE(bool(TI));
  EXPECT_EQ((*TI)->cpu(), "gfx90a");
  EXPECT_EQ((*TI)->features(), "+xnack");
  auto Bad = TargetInfo::getForTargetId("x86_64-linux--gfx942");
  EXPECT_FALSE(bool(Bad));
  consumeError(Bad.takeError());
  auto BadCpu = TargetInfo::get("gfx9999", "");
  ASSERT_FALSE(bool(BadCpu));
  EXPECT_NE(toString(BadCpu.takeError()).find("unsupported AMDGPU processor"),
            std::string::npos);
}

TEST(TargetInfo, TextRoundTrip) {
  auto B = bytesOf({0x68000002});
  const DecodedInst *D = gfx942().decode(B);
  ASSERT_NE(D, nullptr);
  EXPECT_TRUE(gfx942().textRoundTrips(*D, B));
}

} // namespace
