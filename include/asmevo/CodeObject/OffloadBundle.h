//===- OffloadBundle.h - Find AMDGPU code objects in files ------*- C++ -*-===//
//
// Pulls AMDGPU code objects out of whatever container holds them:
//
//  - a plain AMDGPU ELF (e_machine EM_AMDGPU) is its own single object;
//  - a host ELF (e.g. an x86-64 .so built by HIP) keeps its device code in
//    the `.hip_fatbin` section: one offload bundle per source file, back to
//    back (ROCm >= 6.2: compressed bundles at 4 KiB-aligned offsets; ROCm 5:
//    uncompressed bundles);
//  - an uncompressed clang offload bundle: "__CLANG_OFFLOAD_BUNDLE__",
//    u64 entry count, then per entry u64 offset (from the bundle start),
//    u64 size, u64 id length, id bytes ("hipv4-amdgcn-amd-amdhsa--gfx942:
//    sramecc+:xnack-", old "hip-amdgcn-amd-amdhsa-gfx90a", "host-x86_64-...");
//  - AMDGPU ELF images embedded as data in a host ELF (ROCr keeps its blit
//    kernels and trap handlers as byte arrays in .data): every non-code
//    section but .hip_fatbin is scanned for ELF headers with EM_AMDGPU;
//  - a compressed bundle: "CCOB", u16 version, u16 method (0 zlib, 1 zstd,
//    llvm::compression::Format), v1: u32 uncompressed size; v2: u32 total
//    size (header included), u32 uncompressed size; v3: u64 total size, u64
//    uncompressed size; then the u64 truncated MD5 of the uncompressed data
//    (MD5Result::low()) and the compressed data, which is an uncompressed
//    bundle. All integers are little-endian.
//
// Every size read from the input is checked before it is used: a malformed,
// truncated or hostile input yields an llvm::Error naming the file and the
// byte offset, never a crash or a read past the end. Host entries and empty
// entries are skipped.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_CODEOBJECT_OFFLOADBUNDLE_H
#define ASMEVO_CODEOBJECT_OFFLOADBUNDLE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace asmevo {

/// How a code object was stored.
enum class CodeObjectContainer : uint8_t {
  PlainElf,         ///< The input file is the code object.
  Bundle,           ///< An entry of an uncompressed offload bundle.
  CompressedBundle, ///< An entry of a CCOB-compressed offload bundle.
  EmbeddedElf,      ///< An AMDGPU ELF image inside a host ELF's data.
};

llvm::StringRef containerName(CodeObjectContainer C);

/// One code object found in an input.
struct ExtractedCodeObject {
  /// The bundle entry id ("hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-");
  /// for a plain ELF, a target id built from its ELF header
  /// ("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-").
  std::string TargetId;
  /// The processor: "gfx942", "gfx90a", ... ("" if it cannot be told).
  std::string Arch;
  /// The object's bytes (owned: compressed bundles have no bytes in the file).
  std::string Bytes;
  /// Human-readable origin: "lib.so:.hip_fatbin+0x3000 (file 0x2f3000) CCOB
  /// v3 entry 1".
  std::string Origin;
  CodeObjectContainer Container = CodeObjectContainer::PlainElf;
  /// Version of the compressed bundle header (1..3), 0 when not compressed.
  unsigned CompressedVersion = 0;
  /// File offset of the containing bundle (or of the object itself, for a
  /// plain or embedded ELF).
  uint64_t FileOffset = 0;
  /// Index of the entry in its bundle (host entries count), 0 for plain ELF.
  unsigned EntryIndex = 0;
  /// True if Bytes is an ELF with e_machine EM_AMDGPU.
  bool IsAmdgpuElf = false;
};

/// Statistics about what a scan saw (all bundles, including those whose
/// entries were all skipped).
struct BundleScanStats {
  unsigned UncompressedBundles = 0;
  unsigned CompressedBundles[4] = {0, 0, 0, 0}; ///< by version 0..3
  unsigned SkippedHostEntries = 0;
  unsigned SkippedEmptyEntries = 0;
  unsigned EmbeddedElfs = 0;
  void add(const BundleScanStats &O);
};

/// One entry of an uncompressed offload bundle, as stored.
struct BundleEntry {
  std::string Id;
  uint64_t Offset = 0; ///< from the bundle start
  uint64_t Size = 0;
};

/// An uncompressed offload bundle parsed from the front of a buffer.
struct ParsedBundle {
  std::vector<BundleEntry> Entries;
  /// Bytes the bundle covers: header and entry table, and every entry's
  /// payload (max of Offset + Size).
  uint64_t Extent = 0;
};

/// A compressed bundle, decompressed.
struct DecompressedBundle {
  unsigned Version = 0;
  unsigned Method = 0; ///< 0 zlib, 1 zstd
  uint64_t StoredHash = 0;
  /// Bytes the compressed bundle covers, header included (the header's
  /// total size for v2/v3; the consumed frames for v1).
  uint64_t Extent = 0;
  std::string Data; ///< the inner, uncompressed bundle
};

/// Magic strings.
inline constexpr llvm::StringLiteral kBundleMagic = "__CLANG_OFFLOAD_BUNDLE__";
inline constexpr llvm::StringLiteral kCompressedBundleMagic = "CCOB";

/// Upper bound on a decompressed bundle (guards hostile headers).
inline constexpr uint64_t kMaxDecompressedBundleSize = 4ull << 30;

/// Parses the uncompressed bundle that starts at Data[0]. Name and
/// BaseOffset are only used in messages (offset of Data[0] in the file).
llvm::Expected<ParsedBundle> parseOffloadBundle(llvm::StringRef Data,
                                                llvm::StringRef Name,
                                                uint64_t BaseOffset = 0);

/// Decompresses the CCOB bundle that starts at Data[0] (Data may extend past
/// its end). Checks the header, the sizes and the MD5 hash.
llvm::Expected<DecompressedBundle>
decompressOffloadBundle(llvm::StringRef Data, llvm::StringRef Name,
                        uint64_t BaseOffset = 0);

/// Receives each object as it is found; an error it returns stops the scan
/// and is passed on. (Objects are handed over one by one so that a library
/// with gigabytes of decompressed code need not be held in memory at once.)
using CodeObjectSink = llvm::function_ref<llvm::Error(ExtractedCodeObject &&)>;

/// Extracts every code object from a region holding bundles back to back
/// (with any zero padding between them), e.g. a `.hip_fatbin` section.
/// Where names the region in origins ("lib.so:.hip_fatbin");
/// RegionFileOffset is its offset in the file.
llvm::Error extractFromBundles(llvm::StringRef Region, llvm::StringRef Name,
                               llvm::StringRef Where,
                               uint64_t RegionFileOffset, CodeObjectSink Sink,
                               BundleScanStats *Stats = nullptr);

/// Size of the AMDGPU ELF image starting at Data[0] (which may run on past
/// it): the furthest end of its header, section and program header tables,
/// sections and segments. Error if the tables do not fit in Data.
llvm::Expected<uint64_t> amdgpuElfImageSize(llvm::StringRef Data,
                                            llvm::StringRef Name,
                                            uint64_t BaseOffset = 0);

/// Passes every code object in the bytes of one file (plain AMDGPU ELF, host
/// ELF with .hip_fatbin or embedded AMDGPU ELF images, bare bundle) to Sink.
/// A host ELF without device code or a file in no known format gives
/// nothing, not an error.
llvm::Error forEachCodeObject(llvm::MemoryBufferRef Buffer, CodeObjectSink Sink,
                              BundleScanStats *Stats = nullptr);

/// Same, collecting the objects in a vector.
llvm::Expected<std::vector<ExtractedCodeObject>>
extractCodeObjects(llvm::MemoryBufferRef Buffer,
                   BundleScanStats *Stats = nullptr);

/// Same, reading the file at Path.
llvm::Expected<std::vector<ExtractedCodeObject>>
extractCodeObjectsFromFile(llvm::StringRef Path,
                           BundleScanStats *Stats = nullptr);
llvm::Error forEachCodeObjectInFile(llvm::StringRef Path, CodeObjectSink Sink,
                                    BundleScanStats *Stats = nullptr);

/// "gfx942" from "hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-" or
/// "hip-amdgcn-amd-amdhsa-gfx90a"; "" if the id names no gfx processor.
std::string archFromTargetId(llvm::StringRef Id);

/// True for host entries ("host-x86_64-unknown-linux-gnu").
bool isHostBundleEntry(llvm::StringRef Id);

/// True if Bytes starts with an ELF header whose e_machine is EM_AMDGPU.
bool isAmdgpuElf(llvm::StringRef Bytes);

/// The processor of an AMDGPU ELF from its e_flags, and its target id
/// ("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"). Error if Bytes is not a
/// parseable AMDGPU ELF.
llvm::Expected<std::pair<std::string, std::string>>
amdgpuElfTarget(llvm::StringRef Bytes, llvm::StringRef Name);

} // namespace asmevo

#endif // ASMEVO_CODEOBJECT_OFFLOADBUNDLE_H
