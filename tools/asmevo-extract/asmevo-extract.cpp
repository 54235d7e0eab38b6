//===- asmevo-extract.cpp - Pull AMDGPU code objects out of files ---------===//
//
//   asmevo-extract FILE... -o DIR [--arch gfx942,gfx90a] [--list LIST]
//                  [--strip-prefix PREFIX] [--keep-non-elf] [--files-from F]
//
// Writes each code object found in FILE (plain AMDGPU ELF, host ELF with a
// .hip_fatbin section, bare offload bundle, compressed or not) to
// DIR/<basename>-<index>-<arch>.co, where index counts the objects found in
// that file. Identical objects (same bytes) are written once. With --list,
// appends one tab-separated line per written object:
//   name, arch, size, target id, origin
// Errors are reported per file; the others are still processed; the exit
// code is 1 if any file failed.
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/OffloadBundle.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <map>
#include <string>

using namespace llvm;
using namespace asmevo;

static cl::OptionCategory Cat("asmevo-extract options");
static cl::list<std::string> Inputs(cl::Positional, cl::desc("<file>..."),
                                    cl::ZeroOrMore, cl::cat(Cat));
static cl::opt<std::string>
    FilesFrom("files-from",
              cl::desc("Also read input paths from this file, one per line"),
              cl::value_desc("file"), cl::cat(Cat));
static cl::opt<std::string> OutDir("o", cl::desc("Output directory"),
                                   cl::value_desc("dir"), cl::Required,
                                   cl::cat(Cat));
static cl::list<std::string>
    Archs("arch", cl::desc("Keep only these processors (e.g. gfx942,gfx90a)"),
          cl::CommaSeparated, cl::cat(Cat));
static cl::opt<std::string>
    ListFile("list",
             cl::desc("Append name/arch/size/target-id/origin lines here"),
             cl::value_desc("file"), cl::cat(Cat));
static cl::opt<std::string>
    StripPrefix("strip-prefix",
                cl::desc("Drop this prefix from file names in origins"),
                cl::cat(Cat));
static cl::opt<bool> KeepNonElf(
    "keep-non-elf",
    cl::desc("Also write bundle entries that are not AMDGPU ELF (bitcode)"),
    cl::cat(Cat));
static cl::opt<bool> Verbose("v", cl::desc("Print every object"), cl::cat(Cat));

namespace {

struct Key {
  uint64_t Lo, Hi, Size;
  bool operator<(const Key &O) const {
    return std::tie(Lo, Hi, Size) < std::tie(O.Lo, O.Hi, O.Size);
  }
};

Key keyOf(StringRef Bytes) {
  XXH128_hash_t H = xxh3_128bits(arrayRefFromStringRef(Bytes));
  return {H.low64, H.high64, Bytes.size()};
}

std::string stripped(StringRef S) {
  if (!StripPrefix.empty() && S.consume_front(StripPrefix))
    return S.str();
  std::string R = S.str();
  if (!StripPrefix.empty()) {
    size_t P = R.find(StripPrefix);
    if (P != std::string::npos)
      R.erase(P, StripPrefix.size());
  }
  return R;
}

std::string baseNameOf(StringRef Path) {
  StringRef B = sys::path::filename(Path);
  if (B.ends_with(".co"))
    B = B.drop_back(3);
  else if (B.ends_with(".hsaco"))
    B = B.drop_back(6);
  return B.str();
}

bool sameFileContents(StringRef Path, StringRef Bytes) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> B =
      MemoryBuffer::getFile(Path, false, false);
  return B && (*B)->getBuffer() == Bytes;
}

Error writeFile(StringRef Path, StringRef Bytes) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    return createStringError(EC, "%s: cannot write: %s", Path.str().c_str(),
                             EC.message().c_str());
  OS << Bytes;
  OS.close();
  if (OS.has_error())
    return createStringError(OS.error(), "%s: write failed: %s",
                             Path.str().c_str(), OS.error().message().c_str());
  return Error::success();
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Cat);
  cl::ParseCommandLineOptions(
      argc, argv,
      "asmevo-extract: write every AMDGPU code object found in the inputs "
      "(AMDGPU ELF, host ELF .hip_fatbin, offload bundles, CCOB) to a "
      "directory\n");

  std::vector<std::string> Paths(Inputs.begin(), Inputs.end());
  if (!FilesFrom.empty()) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> L = MemoryBuffer::getFile(FilesFrom);
    if (!L) {
      WithColor::error() << FilesFrom << ": " << L.getError().message() << "\n";
      return 1;
    }
    SmallVector<StringRef, 0> Lines;
    (*L)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
    for (StringRef Line : Lines)
      Paths.push_back(Line.str());
  }
  if (Paths.empty()) {
    WithColor::error() << "no input files\n";
    return 1;
  }
  if (std::error_code EC = sys::fs::create_directories(OutDir)) {
    WithColor::error() << OutDir << ": " << EC.message() << "\n";
    return 1;
  }
  std::unique_ptr<raw_fd_ostream> List;
  if (!ListFile.empty()) {
    std::error_code EC;
    List = std::make_unique<raw_fd_ostream>(ListFile, EC, sys::fs::OF_Append);
    if (EC) {
      WithColor::error() << ListFile << ": " << EC.message() << "\n";
      return 1;
    }
  }
  StringSet<> ArchFilter;
  for (const std::string &A : Archs)
    ArchFilter.insert(A);

  std::map<Key, std::string> Written; // content -> name
  StringSet<> UsedNames;
  unsigned Files = 0, FilesWithObjects = 0, Failed = 0, Found = 0,
           Duplicates = 0, Filtered = 0, NonElf = 0, NewFiles = 0;
  uint64_t BytesWritten = 0;
  std::map<std::string, unsigned> PerArch;
  BundleScanStats Stats;

  for (const std::string &In : Paths) {
    ++Files;
    BundleScanStats FileStats;
    std::string Base = baseNameOf(In);
    unsigned I = 0; // objects found in this file so far
    auto Sink = [&](ExtractedCodeObject &&O) -> Error {
      unsigned Index = I++;
      ++Found;
      if (!O.IsAmdgpuElf && !KeepNonElf) {
        ++NonElf;
        if (Verbose)
          outs() << "skip (not AMDGPU ELF): " << stripped(O.Origin) << "\n";
        return Error::success();
      }
      if (!ArchFilter.empty() && !ArchFilter.contains(O.Arch)) {
        ++Filtered;
        return Error::success();
      }
      Key K = keyOf(O.Bytes);
      auto It = Written.find(K);
      if (It != Written.end()) {
        ++Duplicates;
        if (Verbose)
          outs() << "dup of " << It->second << ": " << stripped(O.Origin)
                 << "\n";
        return Error::success();
      }
      std::string Arch = O.Arch.empty() ? "unknown" : O.Arch;
      std::string Name = Base + "-" + std::to_string(Index) + "-" + Arch + ".co";
      SmallString<256> Path(OutDir);
      sys::path::append(Path, Name);
      bool Exists = sys::fs::exists(Path);
      if (UsedNames.contains(Name) ||
          (Exists && !sameFileContents(Path, O.Bytes))) {
        // Same basename and index from another input: keep both.
        Name = Base + "-" + std::to_string(Index) + "-" + Arch + "-" +
               utohexstr(K.Lo, true).substr(0, 8) + ".co";
        Path = OutDir;
        sys::path::append(Path, Name);
        Exists = sys::fs::exists(Path) && sameFileContents(Path, O.Bytes);
      }
      if (!Exists) {
        if (Error E = writeFile(Path, O.Bytes))
          return E;
        ++NewFiles;
      }
      UsedNames.insert(Name);
      Written.emplace(K, Name);
      BytesWritten += O.Bytes.size();
      ++PerArch[Arch];
      if (Verbose)
        outs() << Name << "\t" << O.Bytes.size() << "\t" << stripped(O.Origin)
               << "\n";
      if (List)
        *List << Name << "\t" << Arch << "\t" << O.Bytes.size() << "\t"
              << O.TargetId << "\t" << stripped(O.Origin) << "\n";
      return Error::success();
    };
    if (Error E = forEachCodeObjectInFile(In, Sink, &FileStats)) {
      ++Failed;
      WithColor::error() << stripped(toString(std::move(E))) << "\n";
    }
    Stats.add(FileStats);
    if (I)
      ++FilesWithObjects;
  }

  outs() << "per arch:";
  for (const auto &[A, N] : PerArch)
    outs() << " " << A << "=" << N;
  outs() << "\nbundles: " << Stats.UncompressedBundles << " uncompressed, CCOB v1/v2/v3 "
         << Stats.CompressedBundles[1] << "/" << Stats.CompressedBundles[2]
         << "/" << Stats.CompressedBundles[3] << "; skipped entries: "
         << Stats.SkippedHostEntries << " host, " << Stats.SkippedEmptyEntries
         << " empty; embedded ELF images: " << Stats.EmbeddedElfs << "\n";
  outs() << "asmevo-extract: " << Files << " files (" << FilesWithObjects
         << " with code), " << Found << " objects found, " << Written.size()
         << " unique kept (" << BytesWritten << " bytes, " << NewFiles
         << " newly written), " << Duplicates << " duplicates, " << Filtered
         << " filtered by arch, " << NonElf << " not AMDGPU ELF, " << Failed
         << " errors\n";
  if (List) {
    List->close();
    if (List->has_error()) {
      WithColor::error() << ListFile << ": " << List->error().message() << "\n";
      return 1;
    }
  }
  return Failed ? 1 : 0;
}
