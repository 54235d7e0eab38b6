//===- SpecLibrary.cpp - Dispatch specs picked per kernel -----------------===//

#include "asmevo/Verify/SpecLibrary.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace llvm;

namespace asmevo {
namespace verify {

Expected<SpecLibrary> SpecLibrary::load(ArrayRef<std::string> Dirs) {
  std::vector<std::string> Paths;
  for (const std::string &Dir : Dirs) {
    if (!sys::fs::is_directory(Dir))
      return createStringError("spec directory " + Dir +
                               " does not exist or is not a directory");
    std::error_code EC;
    for (sys::fs::recursive_directory_iterator It(Dir, EC), End;
         It != End && !EC; It.increment(EC))
      if (sys::path::extension(It->path()) == ".json")
        Paths.push_back(It->path());
    if (EC)
      return createStringError("cannot list " + Dir + ": " + EC.message());
  }
  // Sorted: the inputs (and their order) must not depend on the file
  // system's listing order.
  std::sort(Paths.begin(), Paths.end());
  SpecLibrary Lib;
  for (const std::string &P : Paths) {
    auto err = [&](const Twine &Msg) {
      return createStringError((P + ": " + Msg).str());
    };
    auto Buf = MemoryBuffer::getFile(P);
    if (!Buf)
      return err("cannot read: " + Buf.getError().message());
    auto V = json::parse((*Buf)->getBuffer());
    if (!V)
      return err(toString(V.takeError()));
    const json::Object *O = V->getAsObject();
    if (!O)
      return err("the spec must be a JSON object");
    std::vector<StringRef> Pats;
    if (const json::Value *M = O->get("match")) {
      if (auto S = M->getAsString())
        Pats.push_back(*S);
      else if (const json::Array *A = M->getAsArray())
        for (const json::Value &E : *A) {
          auto S = E.getAsString();
          if (!S)
            return err("\"match\" must be a string or an array of strings");
          Pats.push_back(*S);
        }
      else
        return err("\"match\" must be a string or an array of strings");
    }
    if (Pats.empty())
      return err("no \"match\": a spec of a spec directory names the kernels "
                 "it is for (a regular expression on the kernel name)");
    Entry E;
    E.Path = P;
    for (StringRef S : Pats) {
      if (S.empty())
        return err("empty \"match\" pattern (it would match every kernel)");
      auto R = std::make_unique<Regex>(S, Regex::NoFlags);
      std::string Why;
      if (!R->isValid(Why))
        return err("bad \"match\" regular expression '" + S + "': " + Why);
      E.Patterns.push_back(std::move(R));
    }
    Lib.Entries.push_back(std::move(E));
  }
  return Lib;
}

std::vector<std::string> SpecLibrary::specsFor(StringRef Name) const {
  std::vector<std::string> Out;
  if (Entries.empty())
    return Out;
  std::string Demangled = demangle(Name);
  for (const Entry &E : Entries)
    for (const auto &R : E.Patterns)
      if (R->match(Name) || R->match(Demangled)) {
        Out.push_back(E.Path);
        break;
      }
  return Out;
}

} // namespace verify
} // namespace asmevo
