//===- KernelSignature.cpp - Kernel parameter types from the symbol -------===//
//
// Walks the AST of LLVM's Itanium demangler (not the printed string): the
// parameters of the function encoding, each stripped of qualifiers and
// pointers level by level. Template parameter references (`T7_`) are already
// resolved to the template arguments' nodes by the parser.
//
//===----------------------------------------------------------------------===//

#include "asmevo/Verify/KernelSignature.h"

#include "asmevo/CodeObject/Metadata.h"

#include "llvm/Demangle/ItaniumDemangle.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>

using namespace llvm;
namespace id = llvm::itanium_demangle;

namespace asmevo {
namespace verify {

// Values from the libraries' public headers: rocBLAS
// library/include/internal/rocblas-types.h, rocSPARSE
// library/include/rocsparse-types.h (the C API's numbering, stable across
// releases).
static const int32_t RocblasOperation[] = {111, 112, 113};
static const int32_t RocblasFill[] = {121, 122, 123};
static const int32_t RocblasDiagonal[] = {131, 132};
static const int32_t RocblasSide[] = {141, 142, 143};
static const int32_t ZeroOne[] = {0, 1};
static const int32_t ZeroToTwo[] = {0, 1, 2};
static const int32_t ZeroToThree[] = {0, 1, 2, 3};
static const KnownEnum KnownEnums[] = {
    {"rocblas_operation_", RocblasOperation},
    {"rocblas_fill_", RocblasFill},
    {"rocblas_diagonal_", RocblasDiagonal},
    {"rocblas_side_", RocblasSide},
    {"rocblas_geam_ex_operation_", ZeroOne},
    {"rocsparse_operation_", RocblasOperation},
    {"rocsparse_index_base_", ZeroOne},
    {"rocsparse_matrix_type_", ZeroToThree},
    {"rocsparse_diag_type_", ZeroOne},
    {"rocsparse_fill_mode_", ZeroOne},
    {"rocsparse_storage_mode_", ZeroOne},
    {"rocsparse_action_", ZeroOne},
    {"rocsparse_direction_", ZeroOne},
    {"rocsparse_hyb_partition_", ZeroToTwo},
    {"rocsparse_order_", ZeroOne},
};

const KnownEnum *findKnownEnum(StringRef Name) {
  for (const KnownEnum &E : KnownEnums)
    if (E.Name == Name)
      return &E;
  return nullptr;
}

namespace {

struct KnownType {
  StringRef Name;
  unsigned Size;
  ParamType::Kind K;
};
// Spellings as the demangler prints them.
const KnownType KnownTypes[] = {
    {"bool", 1, ParamType::Bool},
    {"char", 1, ParamType::Int},
    {"signed char", 1, ParamType::Int},
    {"unsigned char", 1, ParamType::Int},
    {"short", 2, ParamType::Int},
    {"unsigned short", 2, ParamType::Int},
    {"int", 4, ParamType::Int},
    {"unsigned int", 4, ParamType::Int},
    {"long", 8, ParamType::Int},
    {"unsigned long", 8, ParamType::Int},
    {"long long", 8, ParamType::Int},
    {"unsigned long long", 8, ParamType::Int},
    {"float", 4, ParamType::Float},
    {"double", 8, ParamType::Float},
    {"_Float16", 2, ParamType::Float},
    {"half", 2, ParamType::Float},
    {"std::bfloat16_t", 2, ParamType::Float},
    {"rocblas_half", 2, ParamType::Float},
    {"rocblas_bfloat16", 2, ParamType::Float},
    {"rocblas_complex_num<float>", 8, ParamType::Complex},
    {"rocblas_complex_num<double>", 16, ParamType::Complex},
    {"rocsparse_complex_num<float>", 8, ParamType::Complex},
    {"rocsparse_complex_num<double>", 16, ParamType::Complex},
};

class BumpAlloc {
  BumpPtrAllocator A;

public:
  void reset() { A.Reset(); }
  template <typename T, typename... Args> T *makeNode(Args &&...As) {
    return new (A.Allocate(sizeof(T), alignof(T))) T(std::forward<Args>(As)...);
  }
  void *allocateNodeArray(size_t N) {
    return A.Allocate(sizeof(id::Node *) * N, alignof(id::Node *));
  }
};
using Parser = id::ManglingParser<BumpAlloc>;

std::string print(const id::Node *N) {
  id::OutputBuffer OB;
  N->print(OB);
  std::string S(OB.getBuffer() ? OB.getBuffer() : "", OB.getCurrentPosition());
  std::free(OB.getBuffer());
  return S;
}

Expected<ParamType> paramType(const id::Node *N) {
  ParamType P;
  P.Spelling = print(N);
  bool Const = false;
  for (;;) {
    switch (N->getKind()) {
    case id::Node::KQualType: {
      const auto *Q = static_cast<const id::QualType *>(N);
      Const |= (Q->getQuals() & id::QualConst) != 0;
      N = Q->getChild();
      continue;
    }
    case id::Node::KVendorExtQualType: // address spaces (U3AS1)
      N = static_cast<const id::VendorExtQualType *>(N)->getTy();
      continue;
    case id::Node::KPointerType:
      P.LevelConst.push_back(Const);
      Const = false;
      ++P.PointerDepth;
      N = static_cast<const id::PointerType *>(N)->getPointee();
      continue;
    case id::Node::KReferenceType:
    case id::Node::KParameterPack:
    case id::Node::KParameterPackExpansion:
    case id::Node::KTemplateArgumentPack:
    case id::Node::KForwardTemplateReference:
    case id::Node::KFunctionType:
    case id::Node::KPointerToMemberType:
      // A reference has no kernarg slot of its own kind, and a pack may stand
      // for several parameters: the mapping would be a guess.
      return createStringError("parameter '" + P.Spelling +
                               "' is a reference, pack or function type");
    default:
      break;
    }
    break;
  }
  P.ElementConst = Const;
  P.Element = print(N);
  for (const KnownType &T : KnownTypes)
    if (T.Name == P.Element) {
      P.ElementSize = T.Size;
      P.ElementKind = T.K;
    }
  if (const KnownEnum *E = findKnownEnum(P.Element)) {
    P.EnumType = E;
    P.ElementSize = 4;
    P.ElementKind = ParamType::Enum;
  }
  return P;
}

} // namespace

Expected<KernelSignature> KernelSignature::demangle(StringRef Mangled) {
  if (!Mangled.starts_with("_Z"))
    return createStringError("'" + Mangled.str() +
                             "' is not a mangled C++ name");
  Parser P(Mangled.begin(), Mangled.end());
  const id::Node *Root = P.parse();
  if (!Root)
    return createStringError("'" + Mangled.str() + "' does not demangle");
  if (Root->getKind() != id::Node::KFunctionEncoding)
    return createStringError("'" + Mangled.str() + "' is not a function");
  const auto *F = static_cast<const id::FunctionEncoding *>(Root);
  KernelSignature S;
  S.Demangled = print(Root);
  // A lambda among the template arguments (rocPRIM's trampoline kernels)
  // opens template parameter levels of its own ('lambda'(auto)), and the
  // parser then resolves the function's T1_ to another level's argument:
  // rocPRIM's lambda taken by value (32 bytes) demangles as `int*`.
  if (print(F->getName()).find("'lambda") != std::string::npos)
    return createStringError("a lambda among the template arguments: the "
                             "parameters' template references are ambiguous");
  id::NodeArray Ps = F->getParams();
  // f(void) is mangled with the single parameter type `v`.
  if (Ps.size() == 1 && print(Ps[0]) == "void")
    return S;
  for (const id::Node *N : Ps) {
    auto PT = paramType(N);
    if (!PT)
      return PT.takeError();
    S.Params.push_back(std::move(*PT));
  }
  return S;
}

Expected<KernelSignature> KernelSignature::get(const KernelMetadata &M) {
  auto S = demangle(M.Name);
  if (!S)
    return S.takeError();
  std::vector<const KernelArgMetadata *> Explicit;
  for (const KernelArgMetadata &A : M.Args)
    if (!A.isHidden())
      Explicit.push_back(&A);
  if (Explicit.size() != S->Params.size())
    return createStringError(formatv("the signature has {0} parameters, the "
                                     "metadata {1} explicit arguments",
                                     S->Params.size(), Explicit.size())
                                 .str());
  for (size_t I = 0; I < Explicit.size(); ++I) {
    const KernelArgMetadata &A = *Explicit[I];
    const ParamType &P = S->Params[I];
    auto mismatch = [&](StringRef Why) {
      return createStringError(
          formatv("argument {0} ({1}, {2} bytes) and parameter '{3}': {4}", I,
                  A.ValueKind, A.Size, P.Spelling, Why)
              .str());
    };
    if (P.PointerDepth) {
      if (!A.isPointer())
        return mismatch("a pointer that is not a buffer");
      if (A.Size != (A.ValueKind == "global_buffer" ? 8u : 4u))
        return mismatch("pointer size");
      continue;
    }
    if (A.ValueKind != "by_value")
      return mismatch("a value that is not by_value");
    if (P.ElementSize && A.Size != P.ElementSize)
      return mismatch(formatv("the type has {0} bytes", P.ElementSize).str());
  }
  return S;
}

} // namespace verify
} // namespace asmevo
