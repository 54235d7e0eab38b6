//===- Compare.h - What differs between two code objects ---------*- C++ -*-===//
//
// The round-trip gate: per kernel, its code bytes, its descriptor and its
// metadata must be identical. Each difference names the kernel and the first
// differing byte.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_CODEOBJECT_COMPARE_H
#define ASMEVO_CODEOBJECT_COMPARE_H

#include "asmevo/CodeObject/CodeObject.h"

#include <string>
#include <vector>

namespace asmevo {

struct ObjectDifference {
  std::string Kernel; // empty for object-level differences
  std::string What;   // "code", "descriptor", "metadata", "image"
  std::string Detail; // human-readable, with addresses and bytes
};

/// Compares Actual against Expected kernel by kernel. An empty result means
/// every kernel's code, descriptor and metadata are identical. When
/// CompareWholeImage is set, any other differing byte of the file is
/// reported too (What = "image").
std::vector<ObjectDifference> compareCodeObjects(const CodeObject &Expected,
                                                 const CodeObject &Actual,
                                                 bool CompareWholeImage = true);

/// Deep equality of two msgpack nodes (possibly from different documents).
bool msgpackEqual(const llvm::msgpack::DocNode &A,
                  const llvm::msgpack::DocNode &B);

/// [start, end) of the code of every function in the executable section:
/// each FUNC symbol or kernel entry up to the next one (padding included).
std::vector<std::pair<uint64_t, uint64_t>> functionRanges(const CodeObject &CO);

} // namespace asmevo

#endif // ASMEVO_CODEOBJECT_COMPARE_H
