//===- EmuTestUtil.h - Assembled snippets for emulator unit tests ---------===//

#ifndef ASMEVO_UNITTESTS_EMU_EMUTESTUTIL_H
#define ASMEVO_UNITTESTS_EMU_EMUTESTUTIL_H

#include "asmevo/MC/TargetInfo.h"

#include "llvm/MC/MCInst.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace asmevo::test {

/// The code of Lines followed by s_endpgm for CPU, assembled by LLVM's
/// AMDGPU parser. A line that does not assemble is a test failure, and the
/// result is then empty.
inline std::vector<uint8_t> assembleSnippet(llvm::StringRef CPU,
                                            std::vector<std::string> Lines) {
  auto TI = TargetInfo::get(CPU, "");
  if (!TI) {
    ADD_FAILURE() << "no target " << CPU.str() << ": "
                  << llvm::toString(TI.takeError());
    return {};
  }
  std::vector<uint8_t> Code;
  Lines.push_back("s_endpgm");
  for (const std::string &L : Lines) {
    llvm::MCInst MI;
    llvm::SmallVector<uint8_t, 16> B;
    if (llvm::Error E = (*TI)->assemble(L, MI, B)) {
      ADD_FAILURE() << "cannot assemble '" << L
                    << "': " << llvm::toString(std::move(E));
      return {};
    }
    Code.insert(Code.end(), B.begin(), B.end());
  }
  return Code;
}

} // namespace asmevo::test

#endif // ASMEVO_UNITTESTS_EMU_EMUTESTUTIL_H
