//===- VerifyTest.cpp - The differential oracle ---------------------------===//

#include "TestKernels.h"

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/IR/AMDGCN.h"
#include "asmevo/Verify/Capture.h"
#include "asmevo/Verify/Mutate.h"
#include "asmevo/Verify/Oracle.h"
#include "asmevo/Verify/Spec.h"
#include "asmevo/Verify/SpecLibrary.h"
#include "asmevo/Verify/Timing.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <set>

using namespace asmevo;
using namespace asmevo::verify;

namespace {

std::vector<uint8_t> readKernel(llvm::StringRef Name) {
  auto B = llvm::MemoryBuffer::getFile(test::testKernel(Name), false, false);
  EXPECT_TRUE(bool(B)) << Name.str();
  if (!B)
    return {};
  return std::vector<uint8_t>((*B)->getBufferStart(), (*B)->getBufferEnd());
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256HexStd(reinterpret_cast<const uint8_t *>("abc"), 3),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256HexStd(nullptr, 0),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  std::string M = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  EXPECT_EQ(sha256HexStd(reinterpret_cast<const uint8_t *>(M.data()), M.size()),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Tolerance, Parse) {
  auto T = Tolerance::parse("f32:ulp=4");
  ASSERT_TRUE(bool(T));
  EXPECT_EQ(T->Arg, -1);
  EXPECT_EQ(T->Bits, 32u);
  EXPECT_EQ(T->Ulps, 4u);
  auto A = Tolerance::parse("arg3:f64:ulp=2");
  ASSERT_TRUE(bool(A));
  EXPECT_EQ(A->Arg, 3);
  EXPECT_EQ(A->Bits, 64u);
  EXPECT_EQ(A->str(), "arg3:f64:ulp=2");
  for (const char *Bad : {"f32", "f32:ulp=", "i32:ulp=1", "argx:f32:ulp=1",
                          "f32:ulps=3"}) {
    auto B = Tolerance::parse(Bad);
    EXPECT_FALSE(bool(B)) << Bad;
    if (!B)
      llvm::consumeError(B.takeError());
  }
}

MemRegion region(uint64_t Base, std::vector<uint8_t> Data, int Arg = 0) {
  MemRegion R;
  R.Base = Base;
  R.Size = Data.size();
  R.Data = std::move(Data);
  R.Arg = Arg;
  R.Name = "arg" + std::to_string(Arg);
  return R;
}

std::vector<uint8_t> floats(std::initializer_list<uint32_t> Bits) {
  std::vector<uint8_t> B(Bits.size() * 4);
  size_t I = 0;
  for (uint32_t V : Bits)
    std::memcpy(&B[4 * I++], &V, 4);
  return B;
}

TEST(Compare, ExactByDefault) {
  TestInput In;
  In.Name = "unit";
  Footprint F;
  F.Arg = 0;
  F.Pointer = 0x1000;
  In.Footprints.push_back(F);
  std::vector<MemRegion> A = {region(0x1000, floats({0x3f800000, 0x40000000}))};
  std::vector<MemRegion> B = A;
  EXPECT_FALSE(compareResults(In, A, B, {}));
  B[0].Data = floats({0x3f800000, 0x40000001}); // 1 ulp
  auto E = compareResults(In, A, B, {});
  ASSERT_TRUE(E);
  EXPECT_NE(E->Summary.find("pointer+0x4 (element 1 of 4 bytes)"), std::string::npos)
      << E->Summary;
  EXPECT_NE(E->Detail.find("K0: 0x40000000 (f32 2"), std::string::npos) << E->Detail;
  EXPECT_NE(E->Detail.find("K1: 0x40000001"), std::string::npos) << E->Detail;
  // Within a tolerance only when asked, and only for the named argument.
  auto T1 = Tolerance::parse("f32:ulp=1");
  EXPECT_FALSE(compareResults(In, A, B, {*T1}));
  auto T7 = Tolerance::parse("arg7:f32:ulp=1");
  EXPECT_TRUE(compareResults(In, A, B, {*T7}));
  // -0 and +0 are bit-different: exact mode tells them apart.
  B[0].Data = floats({0x3f800000, 0x40000000});
  A[0].Data = floats({0x80000000, 0x40000000});
  B[0].Data = floats({0x00000000, 0x40000000});
  EXPECT_TRUE(compareResults(In, A, B, {}));
  // NaN payloads differ: exact mode says so; a tolerance accepts two NaNs.
  A[0].Data = floats({0x7fc00001, 0});
  B[0].Data = floats({0x7fc00002, 0});
  EXPECT_TRUE(compareResults(In, A, B, {}));
  EXPECT_FALSE(compareResults(In, A, B, {*T1}));
  // Guard regions are never compared (they are not readable anyway).
  A[0].K = MemRegion::Guard;
  B[0].K = MemRegion::Guard;
  EXPECT_FALSE(compareResults(In, A, B, {}));
}

TEST(ApproxLog, SameQuestions) {
  ApproxLog A, B;
  A.Lanes[{0, 0, 1}] = {1, 2, 3};
  B.Lanes[{0, 0, 1}] = {3, 1, 2}; // order within a lane may differ
  std::string Why;
  EXPECT_TRUE(ApproxLog::sameQuestions(A, B, Why));
  B.Lanes[{0, 0, 1}] = {3, 1, 4};
  EXPECT_FALSE(ApproxLog::sameQuestions(A, B, Why));
  EXPECT_NE(Why.find("operands that differ"), std::string::npos);
  B.Lanes[{0, 0, 1}] = {1, 2, 3};
  B.Lanes[{0, 1, 0}] = {9};
  EXPECT_FALSE(ApproxLog::sameQuestions(A, B, Why));
  EXPECT_NE(Why.find("only K1"), std::string::npos);
}

CaptureData sampleCapture() {
  CaptureData C;
  C.Producer = "unit";
  C.Target = "amdgcn-amd-amdhsa--gfx942";
  C.Kernel = "k";
  C.CodeObject = {1, 2, 3};
  C.CodeObjectSha256 = sha256HexStd(C.CodeObject.data(), C.CodeObject.size());
  C.Workgroups = {2, 1, 1};
  C.WorkgroupSize = {64, 1, 1};
  C.Kernarg = {9, 8, 7, 6};
  CaptureRegion R;
  R.Address = 0x200000000000ull;
  R.Size = 4;
  R.Name = "buf \"quoted\"";
  R.Before = {1, 1, 1, 1};
  R.HasAfter = true;
  R.After = {2, 2, 2, 2};
  C.Regions.push_back(R);
  return C;
}

TEST(Capture, RoundTrip) {
  CaptureData C = sampleCapture();
  std::vector<uint8_t> B = serializeCapture(C);
  auto P = parseCapture(B, "mem");
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Kernel, "k");
  EXPECT_EQ(P->Target, C.Target);
  EXPECT_EQ(P->CodeObject, C.CodeObject);
  EXPECT_EQ(P->Kernarg, C.Kernarg);
  EXPECT_EQ(P->Workgroups, C.Workgroups);
  ASSERT_EQ(P->Regions.size(), 1u);
  EXPECT_EQ(P->Regions[0].Address, C.Regions[0].Address);
  EXPECT_EQ(P->Regions[0].Name, C.Regions[0].Name);
  EXPECT_EQ(P->Regions[0].Before, C.Regions[0].Before);
  EXPECT_TRUE(P->Regions[0].HasAfter);
  EXPECT_EQ(P->Regions[0].After, C.Regions[0].After);
}

TEST(Capture, Corruption) {
  std::vector<uint8_t> B = serializeCapture(sampleCapture());
  for (size_t I : {size_t(0), size_t(9), size_t(30), B.size() - 40, B.size() - 1}) {
    std::vector<uint8_t> D = B;
    D[I] ^= 0x10;
    auto P = parseCapture(D, "mem");
    EXPECT_FALSE(bool(P)) << "byte " << I;
    if (!P)
      llvm::consumeError(P.takeError());
  }
  for (size_t N : {size_t(0), size_t(10), B.size() / 2, B.size() - 1}) {
    std::vector<uint8_t> D(B.begin(), B.begin() + N);
    auto P = parseCapture(D, "mem");
    EXPECT_FALSE(bool(P)) << "truncated to " << N;
    if (!P)
      llvm::consumeError(P.takeError());
  }
  // A code object that does not match its hash is refused.
  CaptureData C = sampleCapture();
  C.CodeObjectSha256 = std::string(64, '0');
  auto P = parseCapture(serializeCapture(C), "mem");
  ASSERT_FALSE(bool(P));
  EXPECT_NE(llvm::toString(P.takeError()).find("does not match"), std::string::npos);
  // Overlapping regions are refused.
  C = sampleCapture();
  C.Regions.push_back(C.Regions[0]);
  P = parseCapture(serializeCapture(C), "mem");
  ASSERT_FALSE(bool(P));
  EXPECT_NE(llvm::toString(P.takeError()).find("overlap"), std::string::npos);
}

TEST(Spec, Errors) {
  auto CO = CodeObject::load(test::testKernel("elementwise-gfx942-v5.hsaco"));
  ASSERT_TRUE(bool(CO));
  const KernelInfo *K = (*CO)->kernel("axpy_f32");
  ASSERT_TRUE(K);
  auto Ok = parseSpec(R"({"workgroups":[2],"workgroup_size":[64],"args":[
      {"i32":100},{"f32":1.5},{"buffer_size":400,"fill":"random:1"},
      {"buffer_size":400}]})",
                      *K, "", "s.json");
  ASSERT_TRUE(bool(Ok)) << llvm::toString(Ok.takeError());
  EXPECT_EQ(Ok->Buffers.size(), 2u);
  EXPECT_EQ(Ok->Launch.Workgroups[0], 2u);
  for (const char *Bad :
       {"[]", R"({"args":[]})",
        R"({"workgroups":[0],"args":[{"i32":1},{"f32":1},{"buffer_size":4},{"buffer_size":4}]})",
        R"({"args":[{"i64":1},{"f32":1},{"buffer_size":4},{"buffer_size":4}]})",
        R"({"args":[{"i32":1},{"f32":1},{"i32":4},{"buffer_size":4}]})",
        R"({"args":[{"buffer_size":4},{"f32":1},{"buffer_size":4},{"buffer_size":4}]})"}) {
    auto S = parseSpec(Bad, *K, "", "bad.json");
    EXPECT_FALSE(bool(S)) << Bad;
    if (!S)
      llvm::consumeError(S.takeError());
  }
}

TEST(Spec, SparseBuffer) {
  auto CO = CodeObject::load(test::testKernel("elementwise-gfx942-v5.hsaco"));
  ASSERT_TRUE(bool(CO));
  const KernelInfo *K = (*CO)->kernel("axpy_f32");
  ASSERT_TRUE(K);
  // 16 GiB, nothing allocated: each element a function of its offset, the
  // patch over it.
  auto S = parseSpec(R"({"workgroups":[1],"workgroup_size":[64],"args":[
      {"i32":100},{"f32":1.5},{"buffer_size":400,"fill":"random:1"},
      {"buffer_size":17179869184,"sparse":true,"fill":"int-f32:3:1:3",
       "patch":[{"offset":17179869180,"bytes":"0000c0ff"}]}]})",
                     *K, "", "s.json");
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  ASSERT_EQ(S->SparseBuffers, 1u);
  const SpecBuffer &B = S->Buffers[1];
  ASSERT_TRUE(B.Sparse);
  EXPECT_TRUE(B.Data.empty());
  EXPECT_EQ(B.size(), 17179869184ull);
  // A page made at once equals the same bytes made in odd pieces.
  std::vector<uint8_t> Whole(4096), Parts(4096);
  uint64_t At = (1ull << 33) + 4096;
  B.Sparse->fill(At, Whole.data(), 4096);
  for (size_t O = 0; O < 4096; O += 7)
    B.Sparse->fill(At + O, Parts.data() + O, std::min<size_t>(7, 4096 - O));
  EXPECT_EQ(Whole, Parts);
  for (size_t O = 0; O < 4096; O += 4) {
    float F;
    std::memcpy(&F, &Whole[O], 4);
    EXPECT_TRUE(F == 1 || F == 2 || F == 3) << F;
  }
  uint8_t End[4];
  B.Sparse->fill(17179869180ull, End, 4);
  EXPECT_EQ(End[3], 0xff);
  for (const char *Bad :
       {// Larger than the 64 GiB between buffers allows.
        R"({"args":[{"i32":1},{"f32":1},{"buffer_size":4},
               {"buffer_size":68719476736,"sparse":true}]})",
        // A file, an index fill, pointers: not functions of the offset.
        R"({"args":[{"i32":1},{"f32":1},{"buffer_size":4},
               {"buffer":"x.bin","sparse":true}]})",
        R"({"args":[{"i32":1},{"f32":1},{"buffer_size":4},
               {"buffer_size":4096,"sparse":true,"fill":"arith-i32:0:1"}]})",
        R"({"args":[{"i32":1},{"f32":1},{"buffer_size":4},
               {"buffer_size":4096,"sparse":true,
                "pointers":[{"offset":0,"to":2}]}]})",
        R"({"args":[{"i32":1},{"f32":1},{"buffer_size":4},
               {"buffer_size":4096,"sparse":1}]})"}) {
    auto E = parseSpec(Bad, *K, "", "bad.json");
    EXPECT_FALSE(bool(E)) << Bad;
    if (!E)
      llvm::consumeError(E.takeError());
  }
  // Tools that map buffers whole refuse it.
  emu::Memory Mem;
  llvm::Error E = mapSpecBuffers(*S, Mem);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("is sparse"), std::string::npos);
}

TEST(Spec, IntegerFloatFill) {
  auto CO = CodeObject::load(test::testKernel("elementwise-gfx942-v5.hsaco"));
  ASSERT_TRUE(bool(CO));
  const KernelInfo *K = (*CO)->kernel("axpy_f32");
  ASSERT_TRUE(K);
  auto S = parseSpec(R"({"workgroups":[1],"workgroup_size":[64],"args":[
      {"i32":100},{"f32":1.5},{"buffer_size":4000,"fill":"int-f32:7"},
      {"buffer_size":2000,"fill":"int-f16:7"}]})",
                     *K, "", "s.json");
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  std::set<float> Seen;
  for (size_t I = 0; I < 1000; ++I) {
    float F;
    std::memcpy(&F, S->Buffers[0].Data.data() + 4 * I, 4);
    EXPECT_EQ(F, float(int(F))) << I;
    EXPECT_LE(std::abs(F), 3.0f);
    Seen.insert(F);
  }
  EXPECT_EQ(Seen.size(), 7u); // every value of -3..3 occurs
  std::set<uint16_t> Half;
  for (size_t I = 0; I < 1000; ++I) {
    uint16_t H;
    std::memcpy(&H, S->Buffers[1].Data.data() + 2 * I, 2);
    Half.insert(H);
  }
  Half.erase(0x8000); // -0 may occur or not
  EXPECT_EQ(Half, (std::set<uint16_t>{0x0000, 0x3c00, 0xbc00, 0x4000, 0xc000,
                                      0x4200, 0xc200}));
  auto Bad = parseSpec(R"({"workgroups":[1],"workgroup_size":[64],"args":[
      {"i32":100},{"f32":1.5},{"buffer_size":4,"fill":"int-f32:x"},
      {"buffer_size":4}]})",
                       *K, "", "bad.json");
  EXPECT_FALSE(bool(Bad));
  if (!Bad)
    llvm::consumeError(Bad.takeError());
}

TEST(Spec, IndexFills) {
  auto CO = CodeObject::load(test::testKernel("elementwise-gfx942-v5.hsaco"));
  ASSERT_TRUE(bool(CO));
  const KernelInfo *K = (*CO)->kernel("axpy_f32");
  ASSERT_TRUE(K);
  auto S = parseSpec(R"({"workgroups":[1],"workgroup_size":[64],"args":[
      {"i32":100},{"f32":1.5},{"buffer_size":4000,"fill":"index-i32:3:10"},
      {"buffer_size":40,"fill":"arith-i32:16:-4"}]})",
                     *K, "", "s.json");
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  std::set<int32_t> Seen;
  for (size_t I = 0; I < 1000; ++I) {
    int32_t V;
    std::memcpy(&V, S->Buffers[0].Data.data() + 4 * I, 4);
    EXPECT_TRUE(V >= 0 && V < 10) << V;
    Seen.insert(V);
  }
  EXPECT_EQ(Seen.size(), 10u);
  for (size_t I = 0; I < 10; ++I) {
    int32_t V;
    std::memcpy(&V, S->Buffers[1].Data.data() + 4 * I, 4);
    EXPECT_EQ(V, 16 - 4 * int32_t(I));
  }
  for (const char *Fill :
       {"index-i32:3:0", "index-i32:3", "arith-i32:1", "arith-i32:0:x",
        "arith-i32:2147483647:1"}) {
    std::string J = std::string(R"({"workgroups":[1],"workgroup_size":[64],)"
                                R"("args":[{"i32":1},{"f32":1},)"
                                R"({"buffer_size":8,"fill":")") +
                    Fill + R"("},{"buffer_size":4}]})";
    auto Bad = parseSpec(J, *K, "", "bad.json");
    EXPECT_FALSE(bool(Bad)) << Fill;
    if (!Bad)
      llvm::consumeError(Bad.takeError());
  }
}

TEST(Spec, SparseStructureFills) {
  auto CO = CodeObject::load(test::testKernel("elementwise-gfx942-v5.hsaco"));
  ASSERT_TRUE(bool(CO));
  const KernelInfo *K = (*CO)->kernel("axpy_f32");
  ASSERT_TRUE(K);
  // i64 offsets, COO row indices (each repeated 3 times), sorted distinct
  // columns in runs of 5, and a patch over an i32 fill.
  auto S = parseSpec(R"({"workgroups":[1],"workgroup_size":[64],"args":[
      {"i32":100},{"f32":1.5},
      {"buffer_size":800,"fill":"cols-i64:7:9:5","patch":[]},
      {"buffer_size":48,"fill":"arith-i32:4:2:3",
       "patch":[{"offset":4,"bytes":"ffffff7f"}]}]})",
                     *K, "", "s.json");
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  const std::vector<uint8_t> &C = S->Buffers[0].Data;
  std::set<int64_t> All;
  for (size_t Row = 0; Row < 20; ++Row) {
    int64_t Prev = -1;
    for (size_t J = 0; J < 5; ++J) {
      int64_t V;
      std::memcpy(&V, C.data() + 8 * (Row * 5 + J), 8);
      EXPECT_TRUE(V > Prev && V < 9) << "row " << Row << ": " << V;
      Prev = V;
      All.insert(V);
    }
  }
  EXPECT_EQ(All.size(), 9u); // every column appears somewhere
  const std::vector<uint8_t> &R = S->Buffers[1].Data;
  for (size_t I = 0; I < 12; ++I) {
    int32_t V;
    std::memcpy(&V, R.data() + 4 * I, 4);
    EXPECT_EQ(V, I == 1 ? INT32_MAX : 4 + 2 * int32_t(I / 3)) << I;
  }
  auto S64 = parseSpec(R"({"workgroups":[1],"workgroup_size":[64],"args":[
      {"i32":1},{"f32":1},{"buffer_size":24,"fill":"arith-i64:4294967296:-1"},
      {"buffer_size":8,"fill":"index-i64:1:3"}]})",
                       *K, "", "s.json");
  ASSERT_TRUE(bool(S64)) << llvm::toString(S64.takeError());
  for (size_t I = 0; I < 3; ++I) {
    int64_t V;
    std::memcpy(&V, S64->Buffers[0].Data.data() + 8 * I, 8);
    EXPECT_EQ(V, 4294967296ll - int64_t(I));
  }
  int64_t Ix;
  std::memcpy(&Ix, S64->Buffers[1].Data.data(), 8);
  EXPECT_TRUE(Ix >= 0 && Ix < 3);
  for (const char *Buf :
       {R"("fill":"cols-i32:1:4:5")", R"("fill":"cols-i32:1:4")",
        R"("fill":"arith-i16:0:1")", R"("fill":"arith-i32:0:1:0")",
        R"("fill":"arith-i64:9223372036854775807:1")",
        R"("fill":"foo-i32:1:2")", R"("patch":[{"offset":15,"bytes":"0000"}])",
        R"("patch":[{"offset":0,"bytes":"0"}])", R"("patch":{"offset":0})"}) {
    std::string J = std::string(R"({"workgroups":[1],"workgroup_size":[64],)"
                                R"("args":[{"i32":1},{"f32":1},)"
                                R"({"buffer_size":16,)") +
                    Buf + R"(},{"buffer_size":4}]})";
    auto Bad = parseSpec(J, *K, "", "bad.json");
    EXPECT_FALSE(bool(Bad)) << Buf;
    if (!Bad)
      llvm::consumeError(Bad.takeError());
  }
}

TEST(Spec, PointerOffset) {
  auto CO = CodeObject::load(test::testKernel("elementwise-gfx942-v5.hsaco"));
  ASSERT_TRUE(bool(CO));
  const KernelInfo *K = (*CO)->kernel("axpy_f32");
  ASSERT_TRUE(K);
  // A pointer into the middle of an allocation: the kernarg gets the
  // region's address plus the offset; the region itself is unchanged.
  auto S = parseSpec(R"({"workgroups":[1],"workgroup_size":[64],"args":[
      {"i32":4},{"f32":1},{"buffer_size":64,"fill":"zero","pointer_offset":48},
      {"buffer_size":16,"pointer_offset":16}]})",
                     *K, "", "s.json");
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Buffers[0].PointerOffset, 48u);
  EXPECT_EQ(S->Buffers[0].Data.size(), 64u);
  EXPECT_EQ(specBufferPointer(S->Buffers[1]),
            specBufferAddress(S->Buffers[1].ArgIndex) + 16);
  emu::Memory Mem;
  ASSERT_FALSE(bool(mapSpecBuffers(*S, Mem)));
  uint64_t P;
  std::memcpy(&P, S->Launch.Kernarg.data() + S->Buffers[0].KernargOffset, 8);
  EXPECT_EQ(P, specBufferAddress(S->Buffers[0].ArgIndex) + 48);
  for (const char *Off : {"-1", "17", "\"8\""}) {
    std::string J = std::string(R"({"workgroups":[1],"workgroup_size":[64],)"
                                R"("args":[{"i32":1},{"f32":1},)"
                                R"({"buffer_size":16,"pointer_offset":)") +
                    Off + R"(},{"buffer_size":4}]})";
    auto Bad = parseSpec(J, *K, "", "bad.json");
    EXPECT_FALSE(bool(Bad)) << Off;
    if (!Bad)
      llvm::consumeError(Bad.takeError());
  }
}

// Device pointers stored in memory: "pointers" on buffers, regions and
// by-value bytes (docs/run-spec.md, "Pointers in memory").
TEST(Spec, PointersAndRegions) {
  auto CO = CodeObject::load(test::testKernel("spec_pointers-gfx942-v6.hsaco"));
  ASSERT_TRUE(bool(CO));
  const KernelInfo *Diff = (*CO)->kernel("diff_ptrs");
  const KernelInfo *Struct = (*CO)->kernel("struct_scale");
  ASSERT_TRUE(Diff && Struct);
  auto load64 = [](const std::vector<uint8_t> &B, size_t Off) {
    uint64_t V;
    std::memcpy(&V, B.data() + Off, 8);
    return V;
  };
  // diff_ptrs(int n, const float *const *x, float *y): x holds two
  // pointers, to region "b" and 4 bytes into region "a"; "b" points back to
  // argument 2.
  auto S = parseSpec(R"({"workgroups":[1],"workgroup_size":[64],"args":[
      {"i32":4},
      {"buffer_size":16,"fill":"random:3",
       "pointers":[{"offset":0,"to":"b"},{"offset":8,"to":"a","plus":4}]},
      {"buffer_size":16}],
      "regions":{"b":{"buffer_size":16,"pointers":[{"offset":8,"to":2}]},
                 "a":{"buffer_size":32,"fill":"int-f32:1","readonly":true}}})",
                     *Diff, "", "s.json");
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  ASSERT_EQ(S->Regions.size(), 2u);
  EXPECT_EQ(S->Regions[0].Name, "a"); // sorted by name
  EXPECT_EQ(S->Regions[0].Address, specRegionAddress(0));
  EXPECT_TRUE(S->Regions[0].ReadOnly);
  EXPECT_EQ(S->Regions[1].Address, specRegionAddress(1));
  EXPECT_EQ(S->MemoryPointers, 3u);
  EXPECT_EQ(load64(S->Buffers[0].Data, 0), specRegionAddress(1));
  EXPECT_EQ(load64(S->Buffers[0].Data, 8), specRegionAddress(0) + 4);
  EXPECT_EQ(load64(S->Regions[1].Data, 8), specBufferAddress(2));
  EXPECT_EQ(load64(S->Regions[1].Data, 0), 0u);
  // Far from every argument buffer, and mapped.
  EXPECT_GE(specRegionAddress(0),
            specBufferAddress(MaxSpecArgsWithRegions - 1) + 0x1000000000ull);
  emu::Memory Mem;
  ASSERT_FALSE(bool(mapSpecBuffers(*S, Mem)));
  emu::Region *RA = Mem.at(specRegionAddress(0));
  ASSERT_TRUE(RA);
  EXPECT_EQ(RA->Data, S->Regions[0].Data);

  // struct_scale({const float *in; float *out; int n; float scale;}): the
  // struct's pointers go into the kernarg; nothing is stored in memory.
  auto T = parseSpec(R"({"workgroups":[1],"workgroup_size":[64],"args":[
      {"bytes":"000000000000000000000000000000002000000000000040",
       "pointers":[{"offset":0,"to":"in"},{"offset":8,"to":"out"}]}],
      "regions":{"in":{"buffer_size":128},"out":{"buffer_size":128}}})",
                     *Struct, "", "t.json");
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->MemoryPointers, 0u);
  EXPECT_EQ(load64(T->Launch.Kernarg, 0), specRegionAddress(0));
  EXPECT_EQ(load64(T->Launch.Kernarg, 8), specRegionAddress(1));
  EXPECT_EQ(T->Launch.Kernarg[16], 0x20);

  // Bad input: each a clear error naming the spec and the entry.
  const char *Head = R"({"workgroups":[1],"workgroup_size":[64],"args":[)";
  struct Case {
    const char *Args, *Regions, *Message;
  } Cases[] = {
      {R"({"i32":4},{"buffer_size":16,"pointers":[{"offset":0,"to":"zz"}]},{"buffer_size":4})",
       R"({"a":{"buffer_size":4}})",
       "bad.json: args[1]: pointers[0]: \"to\": unknown region 'zz' (regions: "
       "a)"},
      {R"({"i32":4},{"buffer_size":16,"pointers":[{"offset":0,"to":"zz"}]},{"buffer_size":4})",
       nullptr, "unknown region 'zz' (the spec has no \"regions\")"},
      {R"({"i32":4},{"buffer_size":16,"pointers":[{"offset":0,"to":0}]},{"buffer_size":4})",
       nullptr, "args[1]: pointers[0]: \"to\": 0 is not a buffer argument"},
      {R"({"i32":4},{"buffer_size":16,"pointers":[{"offset":9,"to":2}]},{"buffer_size":4})",
       nullptr,
       "args[1]: pointers[0]: the 8-byte pointer at offset 9 ends past the 16 "
       "bytes"},
      {R"({"i32":4},{"buffer_size":16,"patch":[{"offset":6,"bytes":"0000"}],"pointers":[{"offset":0,"to":2}]},{"buffer_size":4})",
       nullptr,
       "pointers[0]: the pointer at offset 0 overlaps the patch of bytes [6, "
       "8)"},
      {R"({"i32":4},{"buffer_size":16,"pointers":[{"offset":0,"to":2},{"offset":4,"to":2}]},{"buffer_size":4})",
       nullptr,
       "pointers[1]: the pointer at offset 4 overlaps pointers[0] at offset 0"},
      {R"({"i32":4},{"buffer_size":16,"pointers":[{"offset":0,"to":2,"plus":5}]},{"buffer_size":4})",
       nullptr, "pointers[0]: \"plus\" must be a byte offset in 0..4"},
      {R"({"i32":4},{"buffer_size":16,"pointers":[{"offset":0}]},{"buffer_size":4})",
       nullptr, "pointers[0]: needs \"offset\" (>= 0) and \"to\""},
      {R"({"i32":4,"pointers":[]},{"buffer_size":16},{"buffer_size":4})",
       nullptr, "args[0]: \"pointers\" needs a buffer or \"bytes\""},
      {R"({"i32":4},{"buffer_size":16},{"buffer_size":4})",
       R"({"a/b":{"buffer_size":4}})", "regions.a/b: a region name is"},
      {R"({"i32":4},{"buffer_size":16},{"buffer_size":4})",
       R"({"a":{"fill":"zero"}})",
       "regions.a: needs \"buffer\" or \"buffer_size\""},
      {R"({"i32":4},{"buffer_size":16},{"buffer_size":4})",
       R"({"a":{"buffer_size":8,"pointers":[{"offset":4,"to":"a"}]}})",
       "regions.a: pointers[0]: the 8-byte pointer at offset 4 ends past"},
      {R"({"i32":4},{"buffer_size":16},{"buffer_size":4})", R"([])",
       "\"regions\" must be an object"},
  };
  for (const Case &C : Cases) {
    std::string J =
        std::string(Head) + C.Args + "]" +
        (C.Regions ? std::string(",\"regions\":") + C.Regions : std::string()) +
        "}";
    auto Bad = parseSpec(J, *Diff, "", "bad.json");
    ASSERT_FALSE(bool(Bad)) << J;
    std::string Msg = llvm::toString(Bad.takeError());
    EXPECT_NE(Msg.find(C.Message), std::string::npos) << Msg;
    EXPECT_EQ(Msg.rfind("bad.json: ", 0), 0u) << Msg;
  }
  // A pointer in by-value bytes must fit the argument.
  auto Short = parseSpec(R"({"workgroups":[1],"workgroup_size":[64],"args":[
      {"bytes":"000000000000000000000000000000002000000000000040",
       "pointers":[{"offset":20,"to":"in"}]}],
      "regions":{"in":{"buffer_size":128}}})",
                         *Struct, "", "bad.json");
  ASSERT_FALSE(bool(Short));
  EXPECT_NE(llvm::toString(Short.takeError())
                .find("args[0]: pointers[0]: the 8-byte pointer at offset 20 "
                      "ends past the 24 bytes"),
            std::string::npos);
}

TEST(Spec, LibraryMatchesMangledAndDemangledNames) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("speclib", Dir));
  auto put = [&](const char *Name, const char *Json) {
    std::error_code EC;
    llvm::raw_fd_ostream OS((Dir + "/" + Name).str(), EC);
    ASSERT_FALSE(EC);
    OS << Json;
  };
  // void foo::bar<4>(float*) and foo::bar<8>; the demangled form is what a
  // spec author reads, the mangled one is the symbol.
  put("a.json", R"({"match": "^void foo::bar<4>\\(", "args": []})");
  put("b.json", R"({"match": ["^_ZN3foo3barILi8EEEvPf$"], "args": []})");
  put("c.json", R"({"match": "foo::bar<(4|8)>", "args": []})");
  put("notes.txt", "not a spec");
  auto Lib = SpecLibrary::load({std::string(Dir)});
  ASSERT_TRUE(bool(Lib)) << llvm::toString(Lib.takeError());
  EXPECT_EQ(Lib->size(), 3u);
  auto names = [](std::vector<std::string> V) {
    std::string S;
    for (const std::string &P : V)
      S += llvm::sys::path::filename(P).str() + " ";
    return S;
  };
  EXPECT_EQ(names(Lib->specsFor("_ZN3foo3barILi4EEEvPf")), "a.json c.json ");
  EXPECT_EQ(names(Lib->specsFor("_ZN3foo3barILi8EEEvPf")), "b.json c.json ");
  EXPECT_EQ(names(Lib->specsFor("_ZN3foo3barILi5EEEvPf")), "");
  EXPECT_EQ(names(Lib->specsFor("axpy_f32")), "");
  put("d.json", R"({"match": "bar[", "args": []})");
  auto Bad = SpecLibrary::load({std::string(Dir)});
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(llvm::toString(Bad.takeError()).find("d.json: bad \"match\""),
            std::string::npos);
  llvm::sys::fs::remove_directories(Dir);
}

TEST(Timing, Statistics) {
  TimingStats T = summarizeTimes({4, 1, 3, 10, 2});
  EXPECT_EQ(T.Median, 3);
  EXPECT_EQ(T.Min, 1);
  EXPECT_EQ(T.Max, 10);
  EXPECT_EQ(T.Q1, 2);
  EXPECT_EQ(T.Q3, 4);
  EXPECT_EQ(T.Mean, 4);
  EXPECT_EQ(T.Ms, (std::vector<double>{4, 1, 3, 10, 2})); // launch order
  TimingStats E = summarizeTimes({10, 1, 4, 3});
  EXPECT_EQ(E.Median, 3.5);
  EXPECT_EQ(E.Q1, 2.5);
  EXPECT_EQ(E.Q3, 5.5);
  TimingStats One = summarizeTimes({0.25});
  EXPECT_EQ(One.Median, 0.25);
  EXPECT_EQ(One.Q1, 0.25);
  EXPECT_EQ(One.Q3, 0.25);
  EXPECT_NE(T.str().find("measured"), std::string::npos);
  EXPECT_NE(T.json().find("\"time_kind\": \"measured\""), std::string::npos);
}

TEST(Compatibility, Layouts) {
  auto CO = CodeObject::load(test::testKernel("elementwise-gfx942-v5.hsaco"));
  ASSERT_TRUE(bool(CO));
  const KernelInfo *A = (*CO)->kernel("axpy_f32");
  const KernelInfo *G = (*CO)->kernel("gelu_tanh_f32");
  ASSERT_TRUE(A && G);
  EXPECT_TRUE(checkCompatibility(*A, *A).empty());
  EXPECT_FALSE(checkCompatibility(*A, *G).empty());
  KernelInfo Big = *A;
  Big.KD.GroupSegmentFixedSize = 4096;
  auto P = checkCompatibility(*A, Big);
  ASSERT_EQ(P.size(), 1u);
  EXPECT_NE(P[0].find("static LDS"), std::string::npos);
  EXPECT_TRUE(checkCompatibility(Big, *A).empty()); // less LDS is fine
}

TEST(Tier1, FootprintsAndGuards) {
  auto CO = CodeObject::load(test::testKernel("elementwise-gfx942-v5.hsaco"));
  ASSERT_TRUE(bool(CO));
  const KernelInfo *K = (*CO)->kernel("axpy_f32");
  std::vector<std::string> Notes;
  auto In = synthesizeInputs(**CO, *K, Tier1Options(), Notes);
  ASSERT_TRUE(bool(In)) << llvm::toString(In.takeError());
  ASSERT_GE(In->size(), 6u);
  bool OddBlock = false, Partial = false, ManyGroups = false;
  bool Aliased = false, OneItem = false;
  for (const TestInput &T : *In) {
    const auto &L = T.Image.Launch;
    OneItem |= L.WorkgroupSize[0] * L.WorkgroupSize[1] * L.WorkgroupSize[2] *
                   L.Workgroups[0] * L.Workgroups[1] * L.Workgroups[2] ==
               1;
    if (llvm::StringRef(T.Name).ends_with("arg3 = arg2 (aliased)")) {
      // y == x: every access lands in x's arena (read and written there).
      Aliased = true;
      ASSERT_EQ(T.Footprints.size(), 2u);
      EXPECT_FALSE(T.Footprints[0].Read.empty());
      EXPECT_EQ(T.Footprints[0].Read, T.Footprints[0].Written);
      EXPECT_EQ(T.Footprints[1].bytes(), 0u);
      uint64_t X, Y;
      std::memcpy(&X, L.Kernarg.data() + 8, 8);
      std::memcpy(&Y, L.Kernarg.data() + 16, 8);
      EXPECT_EQ(X, Y);
      continue;
    }
    OddBlock |= L.WorkgroupSize[0] % 2 == 1;
    ManyGroups |= uint64_t(L.Workgroups[0]) * L.Workgroups[1] * L.Workgroups[2] >= 6;
    uint32_t N;
    std::memcpy(&N, L.Kernarg.data(), 4);
    Partial |= N % L.WorkgroupSize[0] != 0 && N < L.WorkgroupSize[0] * L.Workgroups[0];
    ASSERT_EQ(T.Footprints.size(), 2u);
    // x (arg2) is only read, y (arg3) read and written, the same bytes.
    EXPECT_TRUE(T.Footprints[0].Written.empty());
    EXPECT_EQ(T.Footprints[1].Read, T.Footprints[1].Written);
    EXPECT_EQ(T.Footprints[0].bytes(), uint64_t(std::min<uint64_t>(
                                           N, uint64_t(L.WorkgroupSize[0]) *
                                                  L.Workgroups[0])) *
                                           4);
    // Every buffer region has a guard region on both sides.
    for (size_t I = 0; I < T.Image.Regions.size(); ++I) {
      const MemRegion &R = T.Image.Regions[I];
      if (R.K != MemRegion::Buffer)
        continue;
      ASSERT_GT(I, 0u);
      ASSERT_LT(I + 1, T.Image.Regions.size());
      EXPECT_EQ(T.Image.Regions[I - 1].K, MemRegion::Guard);
      EXPECT_EQ(T.Image.Regions[I - 1].Base + T.Image.Regions[I - 1].Size, R.Base);
      EXPECT_EQ(T.Image.Regions[I + 1].K, MemRegion::Guard);
      EXPECT_EQ(T.Image.Regions[I + 1].Base, R.Base + R.Size);
    }
  }
  EXPECT_TRUE(OddBlock);
  EXPECT_TRUE(Partial);
  EXPECT_TRUE(ManyGroups);
  EXPECT_TRUE(Aliased);
  EXPECT_TRUE(OneItem);

  // Without aliasing: no input passes one buffer twice.
  Tier1Options NoAlias;
  NoAlias.Aliasing = false;
  auto In2 = synthesizeInputs(**CO, *K, NoAlias, Notes);
  ASSERT_TRUE(bool(In2)) << llvm::toString(In2.takeError());
  for (const TestInput &T : *In2)
    EXPECT_FALSE(llvm::StringRef(T.Name).contains("aliased")) << T.Name;
}

// The extra inputs are bounded by the seeded ones: a tiled GEMM whose loops
// scale with its counts (M, N, K all counts) pays at most twice the median
// seeded input (at least 2^16 wave-instructions) for each extra input; the
// interleaved one (costly per instruction) runs with small counts and is
// kept. Before the bound it ran M = N = K = 1280 (260,680
// wave-instructions, most of asmevo-verify's 80 s on this kernel).
TEST(Tier1, ExtraInputsBudget) {
  auto CO = CodeObject::load(
      test::testKernel("bench_l1_matmul_tiled-gfx942-v5.hsaco"));
  ASSERT_TRUE(bool(CO));
  const KernelInfo *K = (*CO)->kernel("matmul_tiled");
  ASSERT_TRUE(K);
  Tier1Options O;
  O.Seeds = 2;
  O.MaxShapes = 2;
  std::vector<std::string> Notes;
  auto In = synthesizeInputs(**CO, *K, O, Notes);
  ASSERT_TRUE(bool(In)) << llvm::toString(In.takeError());
  std::vector<uint64_t> Seeded;
  for (const TestInput &T : *In)
    if (!llvm::StringRef(T.Name).contains("(seed 90"))
      Seeded.push_back(T.K0WaveInstructions);
  ASSERT_FALSE(Seeded.empty());
  std::sort(Seeded.begin(), Seeded.end());
  uint64_t Cap = std::max<uint64_t>(2 * Seeded[Seeded.size() / 2], 1 << 16);
  bool Interleaved = false;
  for (const TestInput &T : *In) {
    if (!llvm::StringRef(T.Name).contains("(seed 90"))
      continue;
    EXPECT_GT(T.K0WaveInstructions, 0u) << T.Name;
    EXPECT_LE(T.K0WaveInstructions, Cap) << T.Name;
    Interleaved |= T.InterleaveEvery > 0;
  }
  EXPECT_TRUE(Interleaved);
}

// The extra inputs come after the seeded and aliasing ones (the evidence of
// candidates those reject does not change) and do what their names say.
TEST(Tier1, ExtraInputs) {
  auto CO = CodeObject::load(test::testKernel("manyargs-gfx942-v5.hsaco"));
  ASSERT_TRUE(bool(CO));
  const KernelInfo *K = (*CO)->kernel("mixed_scalars");
  ASSERT_TRUE(K);
  std::vector<std::string> Notes;
  auto In = synthesizeInputs(**CO, *K, Tier1Options(), Notes);
  ASSERT_TRUE(bool(In)) << llvm::toString(In.takeError());
  size_t FirstExtra = In->size(), LastSeeded = 0;
  bool Padding = false, Shifted = false, ZeroCounts = false, Zeros = false;
  bool Structured = false;
  for (size_t I = 0; I < In->size(); ++I) {
    const TestInput &T = (*In)[I];
    llvm::StringRef Name(T.Name);
    const std::vector<uint8_t> &KA = T.Image.Launch.Kernarg;
    bool Extra =
        Name.contains("structured") || Name.contains("every count") ||
        Name.contains("denormals") || Name.contains("large integers") ||
        Name.contains("data scalars") || Name.contains("interleaved") ||
        Name.contains("dividends") || Name.contains("at and below 0");
    if (Name.contains("interleaved"))
      EXPECT_GT(T.InterleaveEvery, 0u);
    else
      EXPECT_EQ(T.InterleaveEvery, 0u);
    if (Extra)
      FirstExtra = std::min(FirstExtra, I);
    else
      LastSeeded = I;
    uint64_t X;
    std::memcpy(&X, KA.data() + 8, 8); // const float *x
    int32_t N;
    std::memcpy(&N, KA.data() + 68, 4); // int n, the only count
    if (Name.contains("kernarg padding set")) {
      // c is at 0, x at 8: bytes 1..7 belong to no argument.
      Padding = true;
      for (unsigned B = 1; B < 8; ++B)
        EXPECT_NE(KA[B], 0) << T.Name;
    } else {
      for (unsigned B = 1; B < 8; ++B)
        EXPECT_EQ(KA[B], 0) << T.Name;
    }
    if (Name.contains("pointers with bits 12 and 32..34 set")) {
      Shifted = true;
      EXPECT_EQ(X & 0x700001000ull, 0x700001000ull);
      ASSERT_FALSE(T.Footprints.empty());
      EXPECT_GT(T.Footprints[0].bytes(), 0u);
      EXPECT_EQ(T.Footprints[0].Pointer, X);
    } else {
      EXPECT_EQ(X & 0x700001000ull, 0u) << T.Name;
    }
    if (Name.contains("every count 0")) {
      ZeroCounts = true;
      EXPECT_EQ(N, 0);
    }
    if (Name.contains("zero data scalars")) {
      Zeros = true;
      EXPECT_EQ(KA[0], 0);  // signed char c
      EXPECT_EQ(KA[64], 0); // unsigned char flag
      EXPECT_GT(N, 0);
    }
    Structured |= Name.contains("structured");
  }
  EXPECT_LT(LastSeeded, FirstExtra);
  EXPECT_TRUE(Padding);
  EXPECT_TRUE(Shifted);
  EXPECT_TRUE(ZeroCounts);
  EXPECT_TRUE(Zeros);
  EXPECT_TRUE(Structured);

  Tier1Options NoExtra;
  NoExtra.Extra = false;
  auto In2 = synthesizeInputs(**CO, *K, NoExtra, Notes);
  ASSERT_TRUE(bool(In2)) << llvm::toString(In2.takeError());
  EXPECT_EQ(In2->size(), FirstExtra);
}

TEST(Oracle, IdentityAndMutant) {
  std::vector<uint8_t> K0 = readKernel("reduce-gfx942-v5.hsaco");
  OracleOptions O;
  auto Ref = Reference::create(K0, "reduce_sum_f32", O);
  ASSERT_TRUE(bool(Ref)) << llvm::toString(Ref.takeError());
  ASSERT_FALSE((*Ref)->undecidable());
  EXPECT_FALSE((*Ref)->coverage().empty());
  VerdictResult V = (*Ref)->check(K0);
  EXPECT_EQ(V.V, Verdict::Equivalent) << V.str() << "\n" << V.Why.Detail;

  // Drop an s_barrier: the ones that separate LDS accesses of different
  // waves are races (not equivalent); the ones between steps done by wave 0
  // alone (s <= 64 of the 256-wide tree) are equivalent mutants.
  mlir::DialectRegistry Reg;
  Reg.insert<amdgcn::AMDGCNDialect>();
  mlir::MLIRContext Ctx(Reg);
  Ctx.loadAllAvailableDialects();
  auto M = Mutator::create(Ctx, K0);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  auto Sites = (*M)->sites("reduce_sum_f32", {EditKind::Drop, EditKind::Identity});
  unsigned Races = 0, Barriers = 0;
  for (const EditSite &S : Sites) {
    auto E = (*M)->apply(S);
    ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
    if (S.Kind == EditKind::Identity) {
      EXPECT_EQ(E->CodeObject, K0) << "identity must emit the original bytes";
      continue;
    }
    if (E->Description.find("s_barrier") == std::string::npos)
      continue;
    ++Barriers;
    VerdictResult VB = (*Ref)->check(E->CodeObject);
    EXPECT_NE(VB.V, Verdict::CannotDecide) << E->Description;
    Races += VB.V == Verdict::NotEquivalent &&
             VB.Why.Summary.find("race") != std::string::npos;
  }
  EXPECT_GE(Barriers, 3u);
  EXPECT_GE(Races, 2u);
}

TEST(Oracle, SharedParsedCodeObject) {
  std::vector<uint8_t> K0 = readKernel("reduce-gfx942-v5.hsaco");
  auto Shared = ParsedCodeObject::create(K0, "K0");
  ASSERT_TRUE(bool(Shared)) << llvm::toString(Shared.takeError());
  EXPECT_EQ((*Shared)->sha256(), sha256Hex(K0));
  EXPECT_EQ((*Shared)->bytes(), llvm::ArrayRef<uint8_t>(K0));

  // A Reference built on the shared object runs the same inputs as one
  // built on bytes.
  OracleOptions O;
  auto FromBytes = Reference::create(K0, "reduce_sum_f32", O);
  ASSERT_TRUE(bool(FromBytes)) << llvm::toString(FromBytes.takeError());
  auto FromShared = Reference::create(*Shared, "reduce_sum_f32", O);
  ASSERT_TRUE(bool(FromShared)) << llvm::toString(FromShared.takeError());
  ASSERT_EQ((*FromShared)->inputs().size(), (*FromBytes)->inputs().size());
  for (size_t I = 0; I < (*FromShared)->inputs().size(); ++I)
    EXPECT_EQ((*FromShared)->inputs()[I].K0WaveInstructions,
              (*FromBytes)->inputs()[I].K0WaveInstructions);
  Shared->reset(); // the Reference holds its own share
  auto K1 = ParsedCodeObject::create(K0, "K1");
  ASSERT_TRUE(bool(K1));
  VerdictResult V = (*FromShared)->check(**K1);
  EXPECT_EQ(V.V, Verdict::Equivalent) << V.str();

  // Bytes that are not a code object: not equivalent, and no parse error
  // escapes as an exception or a crash.
  std::vector<uint8_t> Junk(K0.begin(), K0.begin() + 16);
  EXPECT_FALSE(bool(ParsedCodeObject::create(Junk, "K1")));
  VerdictResult VJ = (*FromShared)->check(Junk);
  EXPECT_EQ(VJ.V, Verdict::NotEquivalent);
  EXPECT_NE(VJ.Why.Summary.find("not a valid code object"), std::string::npos)
      << VJ.Why.Summary;
  // A kernel K0 does not have.
  auto Missing = Reference::create(*K1, "no_such_kernel", O);
  ASSERT_FALSE(bool(Missing));
  EXPECT_NE(llvm::toString(Missing.takeError()).find("no kernel"),
            std::string::npos);
}

/// The emulator, except that every second run flips a bit of the first
/// buffer it returns: an executor that does not give one result.
class FlakyExecutor : public Executor {
public:
  FlakyExecutor() : Emu(createEmulatorExecutor()) {}
  llvm::StringRef name() const override { return "flaky"; }
  llvm::Expected<ExecResult> run(const DispatchImage &Image,
                                 const ExecOptions &Opts) override {
    auto R = Emu->run(Image, Opts);
    if (R && R->ok() && (++Runs % 2) == 0)
      for (MemRegion &M : R->Regions)
        if (M.K == MemRegion::Buffer && !M.Data.empty()) {
          M.Data[0] ^= 1;
          break;
        }
    return R;
  }

private:
  std::unique_ptr<Executor> Emu;
  unsigned Runs = 0;
};

TEST(Oracle, NondeterministicReferenceIsUndecidable) {
  // Comparing K1 with one of two different results of K0 would give a
  // verdict about the executor, not about K1: cannot decide, with the
  // reason, and never "not equivalent" for K0 itself.
  std::vector<uint8_t> K0 = readKernel("elementwise-gfx942-v5.hsaco");
  FlakyExecutor Flaky;
  OracleOptions O;
  O.Exec = &Flaky;
  auto Ref = Reference::create(K0, "axpy_f32", O);
  ASSERT_TRUE(bool(Ref)) << llvm::toString(Ref.takeError());
  ASSERT_TRUE((*Ref)->undecidable());
  VerdictResult V = (*Ref)->check(K0);
  EXPECT_EQ(V.V, Verdict::CannotDecide) << V.str();
  EXPECT_NE(V.Why.Summary.find("K0 is not deterministic on the flaky "
                               "executor"),
            std::string::npos)
      << V.Why.Summary;

  // The same kernel on the emulator itself is reproducible.
  OracleOptions Plain;
  auto Ref2 = Reference::create(K0, "axpy_f32", Plain);
  ASSERT_TRUE(bool(Ref2)) << llvm::toString(Ref2.takeError());
  EXPECT_FALSE((*Ref2)->undecidable());
  EXPECT_EQ((*Ref2)->check(K0).V, Verdict::Equivalent);
}

TEST(Mutate, EquivalentRewritesAccepted) {
  std::vector<uint8_t> K0 = readKernel("intdiv-gfx942-v5.hsaco");
  mlir::DialectRegistry Reg;
  Reg.insert<amdgcn::AMDGCNDialect>();
  mlir::MLIRContext Ctx(Reg);
  Ctx.loadAllAvailableDialects();
  auto M = Mutator::create(Ctx, K0);
  ASSERT_TRUE(bool(M));
  OracleOptions O;
  O.Tier1.Seeds = 1;
  auto Ref = Reference::create(K0, "div_i32", O);
  ASSERT_TRUE(bool(Ref));
  unsigned Applied[NumEditKinds] = {};
  for (const EditSite &S : (*M)->sites(
           "div_i32", {EditKind::Reorder, EditKind::Rename, EditKind::NopInsert})) {
    if (Applied[unsigned(S.Kind)] >= 3)
      continue;
    auto E = (*M)->apply(S);
    if (!E) {
      llvm::consumeError(E.takeError());
      continue;
    }
    ++Applied[unsigned(S.Kind)];
    EXPECT_NE(E->CodeObject, K0) << E->Description;
    VerdictResult V = (*Ref)->check(E->CodeObject);
    EXPECT_EQ(V.V, Verdict::Equivalent) << E->Description << ": " << V.str();
  }
  EXPECT_GT(Applied[unsigned(EditKind::Reorder)], 0u);
  EXPECT_GT(Applied[unsigned(EditKind::Rename)], 0u);
  EXPECT_GT(Applied[unsigned(EditKind::NopInsert)], 0u);
}

} // namespace
