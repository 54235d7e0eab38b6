//===- SpecLibrary.h - Dispatch specs picked per kernel -----*- C++ -*-===//
//
// A directory of SPEC.json files (docs/run-spec.md) whose "match" key names
// the kernels each spec is for, so that manifest-scale runs (asmevo-mutate
// --spec-dir, asmevo-verify --spec-dir) give every kernel the specs written
// for its family. Specs are extra inputs of the oracle; tier 1 still runs.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_VERIFY_SPECLIBRARY_H
#define ASMEVO_VERIFY_SPECLIBRARY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Regex.h"

#include <memory>
#include <string>
#include <vector>

namespace asmevo {
namespace verify {

class SpecLibrary {
public:
  /// Reads every *.json under Dirs (recursively, sorted by path). Each must
  /// be a JSON object with "match": a regular expression (POSIX extended,
  /// llvm::Regex) or an array of them. Errors: unreadable or malformed
  /// JSON, a missing or empty "match", a regular expression that does not
  /// compile; the message names the file.
  static llvm::Expected<SpecLibrary> load(llvm::ArrayRef<std::string> Dirs);

  /// The specs that apply to kernel Name (its symbol): those with a pattern
  /// found in the mangled name or in its demangled form. Unanchored; use ^
  /// and $ to anchor.
  std::vector<std::string> specsFor(llvm::StringRef Name) const;

  size_t size() const { return Entries.size(); }

private:
  struct Entry {
    std::string Path;
    std::vector<std::unique_ptr<llvm::Regex>> Patterns;
  };
  std::vector<Entry> Entries;
};

} // namespace verify
} // namespace asmevo

#endif // ASMEVO_VERIFY_SPECLIBRARY_H
