//===- KernelSignatureTest.cpp - Kernel arguments typed by the symbol -----===//
//
// Real kernel names of Debian's ROCm 7.2.4 rocBLAS and rocSPARSE gfx942 code
// objects (corpus/manifest.txt), with metadata written as the objects have
// it (value kind and size of each explicit argument).

#include "asmevo/Verify/KernelSignature.h"
#include "asmevo/CodeObject/Metadata.h"

#include "gtest/gtest.h"

using namespace asmevo;
using namespace asmevo::verify;

namespace {

struct Arg {
  const char *Kind;
  uint64_t Size;
};

KernelMetadata meta(const char *Name, std::initializer_list<Arg> Args,
                    bool Hidden = true) {
  KernelMetadata M;
  M.Name = Name;
  uint64_t Off = 0;
  for (const Arg &A : Args) {
    KernelArgMetadata K;
    K.ValueKind = A.Kind;
    K.Size = A.Size;
    Off = (Off + std::min<uint64_t>(A.Size, 8) - 1) /
          std::min<uint64_t>(A.Size, 8) * std::min<uint64_t>(A.Size, 8);
    K.Offset = Off;
    Off += A.Size;
    M.Args.push_back(K);
  }
  if (Hidden)
    for (const char *H : {"hidden_block_count_x", "hidden_group_size_x"}) {
      KernelArgMetadata K;
      K.ValueKind = H;
      K.Size = 4;
      K.Offset = Off;
      Off += 4;
      M.Args.push_back(K);
    }
  M.KernargSegmentSize = Off;
  return M;
}

const Arg V4{"by_value", 4}, V8{"by_value", 8}, V16{"by_value", 16},
    B8{"global_buffer", 8};

// rocblas_geam_device<16, 16, rocblas_complex_num<double>,
//   rocblas_complex_num<double> const* const*,
//   rocblas_complex_num<double>* const*>: enums, a complex by value,
// arrays of device pointers (template parameters T1_, T2_, T3_).
const char *Geam = "_ZL19rocblas_geam_deviceILi16ELi16E19rocblas_complex_numIdE"
                   "PKPKS1_PKPS1_Ev18rocblas_operation_S9_iiT1_T2_lllSA_SB_"
                   "lllT3_llli";

TEST(KernelSignature, RocblasGeamBatched) {
  auto S =
      KernelSignature::get(meta(Geam, {V4, V4, V4, V4, V16, B8, V8, V8, V8, V16,
                                       B8, V8, V8, V8, B8, V8, V8, V8, V4}));
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  ASSERT_EQ(S->Params.size(), 19u);
  const ParamType &Op = S->Params[0];
  EXPECT_EQ(Op.PointerDepth, 0u);
  EXPECT_EQ(Op.ElementKind, ParamType::Enum);
  ASSERT_NE(Op.EnumType, nullptr);
  EXPECT_EQ(Op.EnumType->Name, "rocblas_operation_");
  EXPECT_EQ(std::vector<int32_t>(Op.EnumType->Values.begin(),
                                 Op.EnumType->Values.end()),
            (std::vector<int32_t>{111, 112, 113}));
  EXPECT_EQ(S->Params[1].EnumType, Op.EnumType); // S9_: the same type
  EXPECT_EQ(S->Params[2].Element, "int");
  EXPECT_EQ(S->Params[2].ElementKind, ParamType::Int);
  const ParamType &Alpha = S->Params[4];
  EXPECT_EQ(Alpha.PointerDepth, 0u);
  EXPECT_EQ(Alpha.ElementSize, 16u);
  EXPECT_EQ(Alpha.ElementKind, ParamType::Complex);
  const ParamType &A = S->Params[5];
  EXPECT_EQ(A.Spelling, "rocblas_complex_num<double> const* const*");
  EXPECT_EQ(A.PointerDepth, 2u);
  EXPECT_TRUE(A.ElementConst);
  EXPECT_EQ(A.LevelConst, (std::vector<bool>{false, true}));
  EXPECT_EQ(A.Element, "rocblas_complex_num<double>");
  EXPECT_EQ(A.ElementSize, 16u);
  const ParamType &C = S->Params[14];
  EXPECT_EQ(C.Spelling, "rocblas_complex_num<double>* const*");
  EXPECT_EQ(C.PointerDepth, 2u);
  EXPECT_FALSE(C.ElementConst);
  EXPECT_EQ(C.LevelConst, (std::vector<bool>{false, true}));
  EXPECT_EQ(S->Params[18].Element, "int");
}

TEST(KernelSignature, RocblasGemmBatched) {
  // rocblas_gemm_batched_kernel<rocblas_complex_num<double>, 16, 16, ...>
  // (long, long, long, T, T const* const*, long, long, T const* const*, long,
  // long, T, T* const*, long, long, T* const*, long, long, int) in an
  // anonymous namespace.
  auto S = KernelSignature::get(
      meta("_ZN12_GLOBAL__N_127rocblas_gemm_batched_kernelI19rocblas_complex_"
           "numIdELi16ELi16ELi32ELi32ELi8ELi32ELi8ELi8ELi32ELc67ELc67EKPKS2_S5_"
           "KPS2_EEvlllT_PT11_llSA_llS8_PT12_llPT13_lli",
           {V8, V8, V8, V16, B8, V8, V8, B8, V8, V8, V16, B8, V8, V8, B8, V8,
            V8, V4}));
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  ASSERT_EQ(S->Params.size(), 18u);
  for (unsigned I : {4u, 7u, 11u, 14u})
    EXPECT_EQ(S->Params[I].PointerDepth, 2u) << I;
  EXPECT_TRUE(S->Params[4].ElementConst);
  EXPECT_FALSE(S->Params[14].ElementConst);
  EXPECT_EQ(S->Params[0].Element, "long");
  EXPECT_EQ(S->Params[0].ElementSize, 8u);
}

TEST(KernelSignature, RocblasTrsvTemplateParams) {
  // rocblas_trsv_device<32, 16, false, false, false, false,
  //   rocblas_complex_num<double>, rocblas_complex_num<double> const*,
  //   rocblas_complex_num<double> const* const*,
  //   rocblas_complex_num<double>* const*>(int, T7 A, long, long, long,
  //   T6 alpha, T8 x, long, long, long, int*, int)
  auto S = KernelSignature::get(meta(
      "_ZL19rocblas_trsv_deviceILi32ELi16ELb0ELb0ELb0ELb0E19rocblas_complex_"
      "numIdEPKS1_PKS3_PKPS1_EviT7_lllT6_T8_lllPii",
      {V4, B8, V8, V8, V8, B8, B8, V8, V8, V8, B8, V4}));
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Params[1].PointerDepth, 2u);
  EXPECT_EQ(S->Params[5].PointerDepth, 1u); // alpha: a device pointer
  EXPECT_TRUE(S->Params[5].ElementConst);
  EXPECT_EQ(S->Params[6].PointerDepth, 2u);
  EXPECT_EQ(S->Params[10].Spelling, "int*");
  EXPECT_EQ(S->Params[10].ElementSize, 4u);
}

TEST(KernelSignature, RocsparseIndexBase) {
  auto S = KernelSignature::get(
      meta("_ZN9rocsparseL11copy_kernelILj256EilEEvlPKT0_PT1_21rocsparse_"
           "index_base_S6_",
           {V8, B8, B8, V4, V4}));
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Params[1].Spelling, "int const*");
  EXPECT_EQ(S->Params[2].Spelling, "long*");
  EXPECT_EQ(S->Params[2].ElementSize, 8u);
  for (unsigned I : {3u, 4u}) {
    ASSERT_NE(S->Params[I].EnumType, nullptr);
    EXPECT_EQ(S->Params[I].EnumType->Name, "rocsparse_index_base_");
    EXPECT_EQ(S->Params[I].EnumType->Values.size(), 2u);
  }
}

TEST(KernelSignature, HalfAndGeamExOperation) {
  // geam_min_plus_kernel<_Float16, ...>(int, int, int, _Float16,
  //   _Float16 const*, int, long, ..., _Float16*, int, long, int,
  //   rocblas_geam_ex_operation_): _Float16 is DF16_.
  auto S = KernelSignature::demangle(
      "_ZN12_GLOBAL__N_120geam_min_plus_kernelIDF16_Dv2_DF16_S1_Li32ELi8ELi128"
      "ELi128ELi4ELi4ELi64ELi4ELi64ELc84ELc78ELb0ELb0ELb1EDF16_KDF16_DF16_"
      "EEviiiT16_PT17_ilS5_ilS3_S5_ilPT18_ili26rocblas_geam_ex_operation_");
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  ASSERT_EQ(S->Params.size(), 19u);
  EXPECT_EQ(S->Params[3].Element, "_Float16");
  EXPECT_EQ(S->Params[3].ElementSize, 2u);
  EXPECT_EQ(S->Params[4].Spelling, "_Float16 const*");
  EXPECT_EQ(S->Params[14].Spelling, "_Float16*");
  ASSERT_NE(S->Params[18].EnumType, nullptr);
  EXPECT_EQ(S->Params[18].EnumType->Name, "rocblas_geam_ex_operation_");
}

TEST(KernelSignature, HandlePointerAndFill) {
  // rocblas_trtri_fill<128, rocblas_complex_num<double>,
  //   rocblas_complex_num<double>* const*>(_rocblas_handle*, rocblas_fill_,
  //   int, long, int, long, T1, long, long, int, int)
  auto S = KernelSignature::get(
      meta("_ZL18rocblas_trtri_fillILi128E19rocblas_complex_numIdEPKPS1_EvP15_"
           "rocblas_handle13rocblas_fill_ililT1_llii",
           {B8, V4, V4, V8, V4, V8, B8, V8, V8, V4, V4}));
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Params[0].PointerDepth, 1u);
  EXPECT_EQ(S->Params[0].ElementSize, 0u); // a class tier 1 does not know
  ASSERT_NE(S->Params[1].EnumType, nullptr);
  EXPECT_EQ(S->Params[1].EnumType->Values[0], 121);
  EXPECT_EQ(S->Params[6].PointerDepth, 2u);
}

TEST(KernelSignature, MismatchesGiveNoSignature) {
  const char *Copy =
      "_ZN9rocsparseL11copy_kernelILj256EilEEvlPKT0_PT1_21rocsparse_"
      "index_base_S6_";
  // One explicit argument too few (the count must agree).
  auto A = KernelSignature::get(meta(Copy, {V8, B8, B8, V4}));
  ASSERT_FALSE(bool(A));
  EXPECT_NE(llvm::toString(A.takeError()).find("5 parameters"),
            std::string::npos);
  // A pointer parameter where the metadata has a value.
  auto B = KernelSignature::get(meta(Copy, {V8, V8, B8, V4, V4}));
  ASSERT_FALSE(bool(B));
  EXPECT_NE(llvm::toString(B.takeError()).find("not a buffer"),
            std::string::npos);
  // A buffer where the signature has a value.
  auto C = KernelSignature::get(meta(Copy, {B8, B8, B8, V4, V4}));
  ASSERT_FALSE(bool(C));
  EXPECT_NE(llvm::toString(C.takeError()).find("not by_value"),
            std::string::npos);
  // An enum (4 bytes) where the metadata has 8.
  auto D = KernelSignature::get(meta(Copy, {V8, B8, B8, V8, V4}));
  ASSERT_FALSE(bool(D));
  EXPECT_NE(llvm::toString(D.takeError()).find("4 bytes"), std::string::npos);
  // long where the metadata has 4 bytes.
  auto E = KernelSignature::get(meta(Copy, {V4, B8, B8, V4, V4}));
  ASSERT_FALSE(bool(E));
  EXPECT_NE(llvm::toString(E.takeError()).find("8 bytes"), std::string::npos);
  // Not a mangled name (an extern "C" kernel), not a function, garbage.
  auto X = KernelSignature::get(meta("axpy_f32", {V4, B8}));
  EXPECT_FALSE(bool(X));
  llvm::consumeError(X.takeError());
  auto F = KernelSignature::demangle("_ZN9rocsparse5countE");
  EXPECT_FALSE(bool(F));
  llvm::consumeError(F.takeError());
  auto G = KernelSignature::demangle("_Z3fooIiEvP");
  EXPECT_FALSE(bool(G));
  llvm::consumeError(G.takeError());
  // A parameter pack could stand for any number of arguments.
  auto H = KernelSignature::demangle("_Z1fIJifEEvDpT_");
  EXPECT_FALSE(bool(H));
  llvm::consumeError(H.takeError());
}

TEST(KernelSignature, LambdaTemplateArgument) {
  // rocPRIM's trampoline_kernel<config, arch, reduce_impl<...>(...)::
  // 'lambda'(auto), selector>(lambda): the lambda parameter (by value, 32
  // bytes in the metadata) demangles as `int*`. No signature.
  auto S = KernelSignature::demangle(
      "_ZN7rocprim17ROCPRIM_400200_NS6detail17trampoline_kernelINS1_21wra"
      "pped_reduce_configINS0_14default_configEiEELNS1_11target_archE1201"
      "EZNS1_11reduce_implILb0ES4_PiS8_iNS0_4plusIiEEEE10hipError_tPvRmT1"
      "_T2_T3_mT4_P12ihipStream_tbEUlT_E0_NS1_23default_config_selectorEE"
      "EvSE_");
  ASSERT_FALSE(bool(S));
  EXPECT_NE(llvm::toString(S.takeError()).find("lambda"), std::string::npos);
}

TEST(KernelSignature, NoParameters) {
  auto S = KernelSignature::get(meta("_Z7no_argsv", {}));
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_TRUE(S->Params.empty());
}

} // namespace
