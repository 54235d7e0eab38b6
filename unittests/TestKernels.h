//===- TestKernels.h - The in-tree test kernels for unit tests --*- C++ -*-===//

#ifndef ASMEVO_UNITTESTS_TESTKERNELS_H
#define ASMEVO_UNITTESTS_TESTKERNELS_H

#include "llvm/Support/MemoryBuffer.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace asmevo::test {

/// Every code object the build compiled from test/Kernels (kernels.txt),
/// plus those listed (one path per line) in the file named by
/// $ASMEVO_EXTRA_TEST_OBJECTS, for corpus-scale runs of the same tests.
inline std::vector<std::string> allTestKernels() {
  std::vector<std::string> Paths;
  auto addFrom = [&](llvm::StringRef File) {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      return;
    llvm::SmallVector<llvm::StringRef> Lines;
    (*Buf)->getBuffer().split(Lines, '\n', -1, false);
    for (llvm::StringRef L : Lines)
      if (!L.trim().empty())
        Paths.push_back(L.trim().str());
  };
  addFrom(ASMEVO_TEST_KERNEL_DIR "/kernels.txt");
  if (const char *Extra = std::getenv("ASMEVO_EXTRA_TEST_OBJECTS"))
    addFrom(Extra);
  return Paths;
}

inline std::string testKernel(llvm::StringRef Name) {
  return (llvm::Twine(ASMEVO_TEST_KERNEL_DIR) + "/" + Name).str();
}

} // namespace asmevo::test

#endif
