//===- KernelSignature.h - Kernel parameter types from the symbol -*- C++ -*-=//
//
// The kernarg metadata types no pointee: a `global_buffer` may hold data or
// device pointers (rocBLAS batched kernels take `T const* const*`), and a
// 4-byte `by_value` may be a count or an enum with a few valid values. A
// C++ kernel's symbol is a mangled name whose parameter types are complete.
// This maps the explicit metadata arguments to the demangled parameter types
// (LLVM's Itanium demangler AST) where that is unambiguous: the same number
// of parameters, pointers exactly where the metadata has global buffers,
// sizes of known types equal to the metadata's. Otherwise there is no
// signature and tier 1 behaves as without one.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_VERIFY_KERNELSIGNATURE_H
#define ASMEVO_VERIFY_KERNELSIGNATURE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace asmevo {
struct KernelMetadata;

namespace verify {

/// An enum of a library's public API whose values tier 1 knows (from the
/// library's public header; docs/verification.md names the headers).
struct KnownEnum {
  llvm::StringRef Name; // the enum's tag name, as mangled: "rocblas_fill_"
  llvm::ArrayRef<int32_t> Values;
};
/// The known enum named \p Name (tag name, no namespace), or null.
const KnownEnum *findKnownEnum(llvm::StringRef Name);

/// One demangled parameter type.
struct ParamType {
  enum Kind : uint8_t { Unknown, Int, Float, Complex, Bool, Enum };
  std::string Spelling; // as demangled: "float const* const*"
  /// 0: not a pointer; 1: T*; 2: T** (an array of device pointers); ...
  unsigned PointerDepth = 0;
  /// Const of each pointer level, outermost first: LevelConst[1] is true
  /// for `T* const*` (the stored pointers are const). LevelConst[0] is the
  /// parameter's own top-level const, which mangling drops (always false).
  std::vector<bool> LevelConst;
  bool ElementConst = false; // `T const*`
  std::string Element;       // the innermost type: "float", "rocblas_fill_"
  unsigned ElementSize = 0;  // bytes; 0: unknown (a class or enum not known)
  Kind ElementKind = Unknown;
  const KnownEnum *EnumType = nullptr; // ElementKind == Enum
};

/// The explicit arguments of a kernel typed by its demangled signature.
struct KernelSignature {
  std::string Demangled;
  std::vector<ParamType> Params; // one per explicit metadata argument

  /// The signature of the kernel \p M when its name demangles to a function
  /// whose parameters match the explicit arguments; otherwise an error
  /// saying why not (no signature: the caller falls back).
  static llvm::Expected<KernelSignature> get(const KernelMetadata &M);
  /// The demangled parameters of \p Mangled alone (no metadata check).
  static llvm::Expected<KernelSignature> demangle(llvm::StringRef Mangled);
};

} // namespace verify
} // namespace asmevo

#endif // ASMEVO_VERIFY_KERNELSIGNATURE_H
