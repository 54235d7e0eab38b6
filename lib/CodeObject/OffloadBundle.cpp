//===- OffloadBundle.cpp - Find AMDGPU code objects in files --------------===//
//
// See OffloadBundle.h for the formats. Rules kept throughout this file:
//  - every integer read goes through Cursor, which checks the bounds first;
//  - every (offset, size) pair from the input is checked without overflow
//    (Size <= Avail - Offset, never Offset + Size <= Avail);
//  - allocations are bounded by what the input really contains, not by the
//    sizes a header claims.
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/OffloadBundle.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"

#include <zstd.h>

#include <algorithm>
#include <memory>

using namespace llvm;

namespace asmevo {

namespace {

std::string hex(uint64_t V) { return "0x" + utohexstr(V, /*LowerCase=*/true); }

Error makeError(StringRef Name, uint64_t Offset, const Twine &Msg) {
  return createStringError(std::errc::invalid_argument, "%s: offset %s: %s",
                           Name.str().c_str(), hex(Offset).c_str(),
                           Msg.str().c_str());
}

/// Bounds-checked little-endian reader. Offsets in messages are
/// Base + position.
class Cursor {
public:
  Cursor(StringRef Data, StringRef Name, uint64_t Base)
      : Data(Data), Name(Name), Base(Base) {}

  uint64_t pos() const { return Pos; }
  uint64_t fileOffset() const { return Base + Pos; }
  uint64_t remaining() const { return Data.size() - Pos; }

  Error error(const Twine &Msg) const { return makeError(Name, Base + Pos, Msg); }

  template <typename T> Error read(T &V, StringRef What) {
    if (remaining() < sizeof(T))
      return error("truncated: " + What + " needs " + Twine(sizeof(T)) +
                   " bytes, " + Twine(remaining()) + " left");
    V = support::endian::read<T, endianness::little>(Data.data() + Pos);
    Pos += sizeof(T);
    return Error::success();
  }

  Error readBytes(StringRef &V, uint64_t N, StringRef What) {
    if (remaining() < N)
      return error("truncated: " + What + " needs " + Twine(N) + " bytes, " +
                   Twine(remaining()) + " left");
    V = Data.substr(Pos, N);
    Pos += N;
    return Error::success();
  }

private:
  StringRef Data;
  StringRef Name;
  uint64_t Base;
  uint64_t Pos = 0;
};

bool startsWithMagic(StringRef S) {
  return S.starts_with(kBundleMagic) || S.starts_with(kCompressedBundleMagic);
}

/// Target ids of compressed bundles may not name a processor; those of
/// plain ELF files are built from e_flags with this table, keyed by LLVM's
/// own EF_AMDGPU_MACH constants. (LLVM's ELFObjectFileBase::tryGetCPUName
/// hits llvm_unreachable on unknown values, so it cannot see hostile input.)
StringRef machName(unsigned Mach) {
  using namespace ELF;
  switch (Mach) {
  case EF_AMDGPU_MACH_AMDGCN_GFX600: return "gfx600";
  case EF_AMDGPU_MACH_AMDGCN_GFX601: return "gfx601";
  case EF_AMDGPU_MACH_AMDGCN_GFX602: return "gfx602";
  case EF_AMDGPU_MACH_AMDGCN_GFX700: return "gfx700";
  case EF_AMDGPU_MACH_AMDGCN_GFX701: return "gfx701";
  case EF_AMDGPU_MACH_AMDGCN_GFX702: return "gfx702";
  case EF_AMDGPU_MACH_AMDGCN_GFX703: return "gfx703";
  case EF_AMDGPU_MACH_AMDGCN_GFX704: return "gfx704";
  case EF_AMDGPU_MACH_AMDGCN_GFX705: return "gfx705";
  case EF_AMDGPU_MACH_AMDGCN_GFX801: return "gfx801";
  case EF_AMDGPU_MACH_AMDGCN_GFX802: return "gfx802";
  case EF_AMDGPU_MACH_AMDGCN_GFX803: return "gfx803";
  case EF_AMDGPU_MACH_AMDGCN_GFX805: return "gfx805";
  case EF_AMDGPU_MACH_AMDGCN_GFX810: return "gfx810";
  case EF_AMDGPU_MACH_AMDGCN_GFX900: return "gfx900";
  case EF_AMDGPU_MACH_AMDGCN_GFX902: return "gfx902";
  case EF_AMDGPU_MACH_AMDGCN_GFX904: return "gfx904";
  case EF_AMDGPU_MACH_AMDGCN_GFX906: return "gfx906";
  case EF_AMDGPU_MACH_AMDGCN_GFX908: return "gfx908";
  case EF_AMDGPU_MACH_AMDGCN_GFX909: return "gfx909";
  case EF_AMDGPU_MACH_AMDGCN_GFX90A: return "gfx90a";
  case EF_AMDGPU_MACH_AMDGCN_GFX90C: return "gfx90c";
  case EF_AMDGPU_MACH_AMDGCN_GFX942: return "gfx942";
  case EF_AMDGPU_MACH_AMDGCN_GFX950: return "gfx950";
  case EF_AMDGPU_MACH_AMDGCN_GFX1010: return "gfx1010";
  case EF_AMDGPU_MACH_AMDGCN_GFX1011: return "gfx1011";
  case EF_AMDGPU_MACH_AMDGCN_GFX1012: return "gfx1012";
  case EF_AMDGPU_MACH_AMDGCN_GFX1013: return "gfx1013";
  case EF_AMDGPU_MACH_AMDGCN_GFX1030: return "gfx1030";
  case EF_AMDGPU_MACH_AMDGCN_GFX1031: return "gfx1031";
  case EF_AMDGPU_MACH_AMDGCN_GFX1032: return "gfx1032";
  case EF_AMDGPU_MACH_AMDGCN_GFX1033: return "gfx1033";
  case EF_AMDGPU_MACH_AMDGCN_GFX1034: return "gfx1034";
  case EF_AMDGPU_MACH_AMDGCN_GFX1035: return "gfx1035";
  case EF_AMDGPU_MACH_AMDGCN_GFX1036: return "gfx1036";
  case EF_AMDGPU_MACH_AMDGCN_GFX1100: return "gfx1100";
  case EF_AMDGPU_MACH_AMDGCN_GFX1101: return "gfx1101";
  case EF_AMDGPU_MACH_AMDGCN_GFX1102: return "gfx1102";
  case EF_AMDGPU_MACH_AMDGCN_GFX1103: return "gfx1103";
  case EF_AMDGPU_MACH_AMDGCN_GFX1150: return "gfx1150";
  case EF_AMDGPU_MACH_AMDGCN_GFX1151: return "gfx1151";
  case EF_AMDGPU_MACH_AMDGCN_GFX1152: return "gfx1152";
  case EF_AMDGPU_MACH_AMDGCN_GFX1153: return "gfx1153";
  case EF_AMDGPU_MACH_AMDGCN_GFX1200: return "gfx1200";
  case EF_AMDGPU_MACH_AMDGCN_GFX1201: return "gfx1201";
  case EF_AMDGPU_MACH_AMDGCN_GFX1250: return "gfx1250";
  case EF_AMDGPU_MACH_AMDGCN_GFX1251: return "gfx1251";
  case EF_AMDGPU_MACH_AMDGCN_GFX9_GENERIC: return "gfx9-generic";
  case EF_AMDGPU_MACH_AMDGCN_GFX9_4_GENERIC: return "gfx9-4-generic";
  case EF_AMDGPU_MACH_AMDGCN_GFX10_1_GENERIC: return "gfx10-1-generic";
  case EF_AMDGPU_MACH_AMDGCN_GFX10_3_GENERIC: return "gfx10-3-generic";
  case EF_AMDGPU_MACH_AMDGCN_GFX11_GENERIC: return "gfx11-generic";
  case EF_AMDGPU_MACH_AMDGCN_GFX12_GENERIC: return "gfx12-generic";
  default: return "";
  }
}

/// Hands the objects of one parsed, uncompressed bundle to Sink.
Error emitEntries(StringRef Data, const ParsedBundle &B, StringRef Where,
                  uint64_t FileOffset, CodeObjectContainer Container,
                  unsigned Version, CodeObjectSink Sink,
                  BundleScanStats *Stats) {
  for (unsigned I = 0; I < B.Entries.size(); ++I) {
    const BundleEntry &E = B.Entries[I];
    if (isHostBundleEntry(E.Id)) {
      if (Stats)
        ++Stats->SkippedHostEntries;
      continue;
    }
    if (E.Size == 0) {
      if (Stats)
        ++Stats->SkippedEmptyEntries;
      continue;
    }
    ExtractedCodeObject O;
    O.TargetId = E.Id;
    O.Bytes = Data.substr(E.Offset, E.Size).str(); // checked by the parser
    O.IsAmdgpuElf = isAmdgpuElf(O.Bytes);
    O.Arch = archFromTargetId(E.Id);
    if (O.Arch.empty() && O.IsAmdgpuElf) {
      if (Expected<std::pair<std::string, std::string>> T =
              amdgpuElfTarget(O.Bytes, Where))
        O.Arch = T->first;
      else
        consumeError(T.takeError());
    }
    O.Container = Container;
    O.CompressedVersion = Version;
    O.FileOffset = FileOffset;
    O.EntryIndex = I;
    std::string Kind = Container == CodeObjectContainer::CompressedBundle
                           ? "CCOB v" + std::to_string(Version)
                           : std::string("bundle");
    O.Origin = (Where + " (file " + hex(FileOffset) + ") " + Kind + " entry " +
                Twine(I))
                   .str();
    if (Error Err = Sink(std::move(O)))
      return Err;
  }
  return Error::success();
}

/// The processor named by a code object v2 NT_AMD_HSA_ISA_VERSION note
/// (e_flags carries no processor there): "gfx" major minor stepping, the
/// stepping written as one hex-like digit (gfx90a, gfx90c).
std::string archFromIsaNote(const object::ELF64LEFile &F) {
  Expected<object::ELF64LEFile::Elf_Shdr_Range> Sections = F.sections();
  if (!Sections) {
    consumeError(Sections.takeError());
    return "";
  }
  for (const object::ELF64LEFile::Elf_Shdr &S : *Sections) {
    if (S.sh_type != ELF::SHT_NOTE)
      continue;
    Error Err = Error::success();
    for (const object::ELF64LEFile::Elf_Note &N : F.notes(S, Err)) {
      if (N.getName() != "AMD" || N.getType() != ELF::NT_AMD_HSA_ISA_VERSION)
        continue;
      ArrayRef<uint8_t> D = N.getDesc(S.sh_addralign);
      if (D.size() < 16)
        continue;
      uint32_t Major = support::endian::read32le(D.data() + 4);
      uint32_t Minor = support::endian::read32le(D.data() + 8);
      uint32_t Stepping = support::endian::read32le(D.data() + 12);
      if (Major > 99 || Minor > 9 || Stepping > 35)
        continue;
      consumeError(std::move(Err));
      return "gfx" + std::to_string(Major) + std::to_string(Minor) +
             (Stepping < 10 ? char('0' + Stepping) : char('a' + Stepping - 10));
    }
    consumeError(std::move(Err));
  }
  return "";
}

/// Decompresses zstd frames from In into at most Limit bytes. Consumed gets
/// how many input bytes the frames used. With StopAtMagic (v1, no size in
/// the header) decoding stops at a frame boundary followed by a bundle
/// magic; trailing zero bytes after a frame are padding.
Error zstdDecompress(StringRef In, uint64_t Limit, bool StopAtMagic,
                     StringRef Name, uint64_t InFileOffset, std::string &Out,
                     uint64_t &Consumed) {
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx *)> Ctx(ZSTD_createDCtx(),
                                                         ZSTD_freeDCtx);
  if (!Ctx)
    return makeError(Name, InFileOffset, "cannot create a zstd context");
  ZSTD_inBuffer InBuf{In.data(), In.size(), 0};
  // Grow the output as data really arrives: a hostile header's size never
  // becomes an allocation by itself.
  Out.clear();
  uint64_t Produced = 0;
  uint64_t Cap = std::min<uint64_t>(Limit + 1,
                                    std::max<uint64_t>(In.size() * 4, 1 << 16));
  Out.resize(Cap);
  bool InFrame = false;
  while (true) {
    if (Produced == Out.size()) {
      if (Out.size() > Limit)
        return makeError(Name, InFileOffset + InBuf.pos,
                         "decompressed data is larger than the header's " +
                             Twine(Limit) + " bytes");
      Out.resize(std::min<uint64_t>(Limit + 1, Out.size() * 2));
    }
    ZSTD_outBuffer OutBuf{Out.data(), Out.size(), Produced};
    size_t PrevIn = InBuf.pos;
    size_t Ret = ZSTD_decompressStream(Ctx.get(), &OutBuf, &InBuf);
    if (ZSTD_isError(Ret))
      return makeError(Name, InFileOffset + InBuf.pos,
                       Twine("zstd: ") + ZSTD_getErrorName(Ret));
    bool Progress = OutBuf.pos != Produced || InBuf.pos != PrevIn;
    Produced = OutBuf.pos;
    if (Produced > Limit)
      return makeError(Name, InFileOffset + InBuf.pos,
                       "decompressed data is larger than the header's " +
                           Twine(Limit) + " bytes");
    InFrame = Ret != 0;
    if (!InFrame) {
      // A frame ended. Stop at the end of input, at padding, or (v1) at the
      // next bundle.
      StringRef Rest = In.drop_front(InBuf.pos);
      if (Rest.empty() || Rest.find_first_not_of('\0') == StringRef::npos ||
          (StopAtMagic && startsWithMagic(Rest)))
        break;
      continue;
    }
    if (InBuf.pos == InBuf.size && !Progress)
      return makeError(Name, InFileOffset + InBuf.pos,
                       "truncated zstd data (frame not finished)");
  }
  Out.resize(Produced);
  Consumed = InBuf.pos;
  return Error::success();
}

} // namespace

StringRef containerName(CodeObjectContainer C) {
  switch (C) {
  case CodeObjectContainer::PlainElf: return "elf";
  case CodeObjectContainer::Bundle: return "bundle";
  case CodeObjectContainer::CompressedBundle: return "ccob";
  case CodeObjectContainer::EmbeddedElf: return "embedded";
  }
  return "?";
}

void BundleScanStats::add(const BundleScanStats &O) {
  UncompressedBundles += O.UncompressedBundles;
  for (unsigned I = 0; I < 4; ++I)
    CompressedBundles[I] += O.CompressedBundles[I];
  SkippedHostEntries += O.SkippedHostEntries;
  SkippedEmptyEntries += O.SkippedEmptyEntries;
  EmbeddedElfs += O.EmbeddedElfs;
}

std::string archFromTargetId(StringRef Id) {
  StringRef Head = Id.take_until([](char C) { return C == ':'; });
  // The processor is the '-'-separated component starting with "gfx" (it may
  // itself contain '-': "gfx9-4-generic").
  size_t P = Head.starts_with("gfx") ? 0 : Head.rfind("-gfx");
  if (P == StringRef::npos)
    return "";
  if (P != 0)
    ++P;
  return Head.drop_front(P).str();
}

bool isHostBundleEntry(StringRef Id) { return Id.starts_with("host-"); }

bool isAmdgpuElf(StringRef B) {
  if (B.size() < 20 || !B.starts_with("\x7f"
                                      "ELF"))
    return false;
  uint16_t Machine =
      B[5] == ELF::ELFDATA2MSB
          ? support::endian::read16be(B.data() + 18)
          : support::endian::read16le(B.data() + 18);
  return Machine == ELF::EM_AMDGPU;
}

Expected<std::pair<std::string, std::string>>
amdgpuElfTarget(StringRef B, StringRef Name) {
  if (!isAmdgpuElf(B))
    return makeError(Name, 0, "not an AMDGPU ELF");
  if (B.size() < sizeof(ELF::Elf64_Ehdr))
    return makeError(Name, 0, "truncated ELF header (" + Twine(B.size()) +
                                  " bytes)");
  if (B[ELF::EI_CLASS] != ELF::ELFCLASS64 || B[ELF::EI_DATA] != ELF::ELFDATA2LSB)
    return makeError(Name, ELF::EI_CLASS,
                     "AMDGPU ELF is not 64-bit little-endian");
  // Let llvm::object check the section table and string tables.
  Expected<object::ELF64LEObjectFile> Obj =
      object::ELF64LEObjectFile::create(MemoryBufferRef(B, Name));
  if (!Obj)
    return makeError(Name, 0,
                     "malformed AMDGPU ELF: " + toString(Obj.takeError()));
  uint8_t OsAbi = B[ELF::EI_OSABI];
  uint8_t AbiVersion = B[ELF::EI_ABIVERSION];
  uint32_t Flags = support::endian::read32le(B.data() + 48); // e_flags
  std::string Cpu = machName(Flags & ELF::EF_AMDGPU_MACH).str();
  if (Cpu.empty() && (Flags & ELF::EF_AMDGPU_MACH) == ELF::EF_AMDGPU_MACH_NONE)
    Cpu = archFromIsaNote(Obj->getELFFile());
  std::string Id = "amdgcn-amd-";
  Id += OsAbi == ELF::ELFOSABI_AMDGPU_PAL      ? "amdpal"
        : OsAbi == ELF::ELFOSABI_AMDGPU_MESA3D ? "mesa3d"
                                               : "amdhsa";
  Id += "--";
  Id += Cpu.empty() ? "unknown-" + hex(Flags & ELF::EF_AMDGPU_MACH) : Cpu;
  if (OsAbi == ELF::ELFOSABI_AMDGPU_HSA &&
      AbiVersion >= ELF::ELFABIVERSION_AMDGPU_HSA_V4) {
    switch (Flags & ELF::EF_AMDGPU_FEATURE_SRAMECC_V4) {
    case ELF::EF_AMDGPU_FEATURE_SRAMECC_OFF_V4: Id += ":sramecc-"; break;
    case ELF::EF_AMDGPU_FEATURE_SRAMECC_ON_V4: Id += ":sramecc+"; break;
    default: break;
    }
    switch (Flags & ELF::EF_AMDGPU_FEATURE_XNACK_V4) {
    case ELF::EF_AMDGPU_FEATURE_XNACK_OFF_V4: Id += ":xnack-"; break;
    case ELF::EF_AMDGPU_FEATURE_XNACK_ON_V4: Id += ":xnack+"; break;
    default: break;
    }
  } else if (OsAbi == ELF::ELFOSABI_AMDGPU_HSA &&
             AbiVersion == ELF::ELFABIVERSION_AMDGPU_HSA_V3) {
    if (Flags & ELF::EF_AMDGPU_FEATURE_SRAMECC_V3)
      Id += ":sramecc+";
    if (Flags & ELF::EF_AMDGPU_FEATURE_XNACK_V3)
      Id += ":xnack+";
  }
  return std::make_pair(Cpu, Id);
}

Expected<ParsedBundle> parseOffloadBundle(StringRef Data, StringRef Name,
                                          uint64_t BaseOffset) {
  Cursor C(Data, Name, BaseOffset);
  StringRef Magic;
  if (Error E = C.readBytes(Magic, kBundleMagic.size(), "bundle magic"))
    return std::move(E);
  if (Magic != kBundleMagic)
    return makeError(Name, BaseOffset, "not an offload bundle (bad magic)");
  uint64_t Count;
  if (Error E = C.read(Count, "bundle entry count"))
    return std::move(E);
  // Each entry header takes at least 24 bytes: a larger count cannot fit.
  if (Count > C.remaining() / 24)
    return makeError(Name, BaseOffset + 24,
                     "bundle entry count " + Twine(Count) +
                         " does not fit in the remaining " +
                         Twine(C.remaining()) + " bytes");
  ParsedBundle B;
  B.Entries.reserve(Count);
  for (uint64_t I = 0; I < Count; ++I) {
    uint64_t At = C.fileOffset();
    BundleEntry E;
    uint64_t IdLen;
    StringRef Id;
    if (Error Err = C.read(E.Offset, "entry offset"))
      return std::move(Err);
    if (Error Err = C.read(E.Size, "entry size"))
      return std::move(Err);
    if (Error Err = C.read(IdLen, "entry id length"))
      return std::move(Err);
    if (Error Err = C.readBytes(Id, IdLen, "entry id"))
      return std::move(Err);
    E.Id = Id.str();
    if (E.Offset > Data.size() || E.Size > Data.size() - E.Offset)
      return makeError(Name, At,
                       "entry " + Twine(I) + " (" + E.Id + ") payload [" +
                           hex(E.Offset) + ", +" + hex(E.Size) +
                           ") runs past the end of the data (" +
                           hex(Data.size()) + " bytes)");
    B.Entries.push_back(std::move(E));
  }
  B.Extent = C.pos();
  for (const BundleEntry &E : B.Entries)
    B.Extent = std::max(B.Extent, E.Offset + E.Size); // no overflow: checked
  return B;
}

Expected<DecompressedBundle>
decompressOffloadBundle(StringRef Data, StringRef Name, uint64_t BaseOffset) {
  Cursor C(Data, Name, BaseOffset);
  StringRef Magic;
  if (Error E = C.readBytes(Magic, 4, "compressed bundle magic"))
    return std::move(E);
  if (Magic != kCompressedBundleMagic)
    return makeError(Name, BaseOffset,
                     "not a compressed offload bundle (bad magic)");
  DecompressedBundle D;
  uint16_t Version, Method;
  if (Error E = C.read(Version, "CCOB version"))
    return std::move(E);
  if (Error E = C.read(Method, "CCOB compression method"))
    return std::move(E);
  D.Version = Version;
  D.Method = Method;
  uint64_t TotalSize = 0, RawSize = 0;
  uint64_t VersionAt = BaseOffset + 4;
  switch (Version) {
  case 1: {
    uint32_t U;
    if (Error E = C.read(U, "CCOB v1 uncompressed size"))
      return std::move(E);
    RawSize = U;
    break;
  }
  case 2: {
    uint32_t T, U;
    if (Error E = C.read(T, "CCOB v2 total size"))
      return std::move(E);
    if (Error E = C.read(U, "CCOB v2 uncompressed size"))
      return std::move(E);
    TotalSize = T;
    RawSize = U;
    break;
  }
  case 3:
    if (Error E = C.read(TotalSize, "CCOB v3 total size"))
      return std::move(E);
    if (Error E = C.read(RawSize, "CCOB v3 uncompressed size"))
      return std::move(E);
    break;
  default:
    return makeError(Name, VersionAt,
                     "unsupported compressed bundle version " + Twine(Version));
  }
  if (Error E = C.read(D.StoredHash, "CCOB hash"))
    return std::move(E);
  uint64_t HeaderSize = C.pos();
  if (Method != static_cast<uint16_t>(compression::Format::Zlib) &&
      Method != static_cast<uint16_t>(compression::Format::Zstd))
    return makeError(Name, VersionAt + 2,
                     "unknown compression method " + Twine(Method));
  if (RawSize > kMaxDecompressedBundleSize)
    return makeError(Name, BaseOffset + 8,
                     "uncompressed size " + Twine(RawSize) +
                         " exceeds the limit of " +
                         Twine(kMaxDecompressedBundleSize));

  StringRef Compressed;
  if (Version >= 2) {
    if (TotalSize < HeaderSize || TotalSize > Data.size())
      return makeError(Name, BaseOffset + 8,
                       "CCOB v" + Twine(Version) + " total size " +
                           Twine(TotalSize) + " is outside [" +
                           Twine(HeaderSize) + ", " + Twine(Data.size()) +
                           "] (header size, bytes available)");
    Compressed = Data.slice(HeaderSize, TotalSize);
  } else {
    Compressed = Data.drop_front(HeaderSize);
  }
  uint64_t CompressedAt = BaseOffset + HeaderSize;

  uint64_t Consumed = Compressed.size();
  if (Method == static_cast<uint16_t>(compression::Format::Zstd)) {
    if (Error E = zstdDecompress(Compressed, RawSize, /*StopAtMagic=*/Version == 1,
                                 Name, CompressedAt, D.Data, Consumed))
      return std::move(E);
  } else {
    if (!compression::zlib::isAvailable())
      return makeError(Name, CompressedAt,
                       "zlib-compressed bundle, but LLVM has no zlib");
    if (Version == 1) {
      // No size in the header: the data runs to the next bundle, if any.
      size_t Next = std::min(Compressed.find(kCompressedBundleMagic),
                             Compressed.find(kBundleMagic));
      if (Next != StringRef::npos)
        Compressed = Compressed.take_front(Next);
      Consumed = Compressed.size();
    }
    // zlib expands at most ~1032:1, so this bounds the allocation below.
    if (RawSize / 1032 > Compressed.size() + 64)
      return makeError(Name, BaseOffset + 8,
                       "uncompressed size " + Twine(RawSize) +
                           " is impossible for " + Twine(Compressed.size()) +
                           " bytes of zlib data");
    SmallVector<uint8_t, 0> Buf;
    if (Error E = compression::zlib::decompress(arrayRefFromStringRef(Compressed),
                                                Buf, RawSize))
      return makeError(Name, CompressedAt, "zlib: " + toString(std::move(E)));
    D.Data.assign(reinterpret_cast<const char *>(Buf.data()), Buf.size());
  }
  if (D.Data.size() != RawSize)
    return makeError(Name, CompressedAt,
                     "decompressed " + Twine(D.Data.size()) +
                         " bytes, the header says " + Twine(RawSize));
  MD5 Hash;
  Hash.update(D.Data);
  MD5::MD5Result R;
  Hash.final(R);
  if (R.low() != D.StoredHash)
    return makeError(Name, BaseOffset + HeaderSize - 8,
                     "hash mismatch: stored " + hex(D.StoredHash) +
                         ", computed " + hex(R.low()));
  D.Extent = Version >= 2 ? TotalSize : HeaderSize + Consumed;
  return D;
}

Error extractFromBundles(StringRef Region, StringRef Name, StringRef Where,
                         uint64_t RegionFileOffset, CodeObjectSink Sink,
                         BundleScanStats *Stats) {
  uint64_t Pos = 0;
  while (Pos < Region.size()) {
    StringRef Rest = Region.drop_front(Pos);
    uint64_t At = RegionFileOffset + Pos;
    std::string Here = (Where + "+" + hex(Pos)).str();
    if (Rest.starts_with(kBundleMagic)) {
      Expected<ParsedBundle> B = parseOffloadBundle(Rest, Name, At);
      if (!B)
        return B.takeError();
      if (Stats)
        ++Stats->UncompressedBundles;
      if (Error E = emitEntries(Rest, *B, Here, At, CodeObjectContainer::Bundle,
                                0, Sink, Stats))
        return E;
      Pos += B->Extent;
      continue;
    }
    if (Rest.starts_with(kCompressedBundleMagic)) {
      Expected<DecompressedBundle> D = decompressOffloadBundle(Rest, Name, At);
      if (!D)
        return D.takeError();
      if (Stats && D->Version < 4)
        ++Stats->CompressedBundles[D->Version];
      // Offsets inside the decompressed data have no file offset; messages
      // name the compressed bundle and the position inside its data.
      std::string Inner =
          (Name + " (CCOB at " + hex(At) + ", decompressed)").str();
      Expected<ParsedBundle> B = parseOffloadBundle(D->Data, Inner, 0);
      if (!B)
        return B.takeError();
      if (Error E = emitEntries(D->Data, *B, Here, At,
                                CodeObjectContainer::CompressedBundle,
                                D->Version, Sink, Stats))
        return E;
      Pos += D->Extent;
      continue;
    }
    // Between bundles only zero padding is expected.
    size_t NonZero = Rest.find_first_not_of('\0');
    if (NonZero == StringRef::npos)
      break;
    if (NonZero == 0)
      return makeError(Name, At,
                       "expected an offload bundle magic or zero padding, found "
                       "0x" + utohexstr(static_cast<uint8_t>(Rest[0])));
    Pos += NonZero;
  }
  return Error::success();
}

Expected<uint64_t> amdgpuElfImageSize(StringRef Data, StringRef Name,
                                      uint64_t BaseOffset) {
  if (!isAmdgpuElf(Data))
    return makeError(Name, BaseOffset, "not an AMDGPU ELF");
  if (Data[ELF::EI_CLASS] != ELF::ELFCLASS64 ||
      Data[ELF::EI_DATA] != ELF::ELFDATA2LSB)
    return makeError(Name, BaseOffset + ELF::EI_CLASS,
                     "AMDGPU ELF is not 64-bit little-endian");
  if (Data.size() < sizeof(ELF::Elf64_Ehdr))
    return makeError(Name, BaseOffset, "truncated ELF header");
  using namespace support::endian;
  const char *P = Data.data();
  uint64_t PhOff = read64le(P + 32), ShOff = read64le(P + 40);
  uint16_t PhEntSize = read16le(P + 54), PhNum = read16le(P + 56);
  uint16_t ShEntSize = read16le(P + 58), ShNum = read16le(P + 60);
  uint64_t End = sizeof(ELF::Elf64_Ehdr);
  auto Table = [&](uint64_t Off, uint64_t EntSize, uint64_t Num,
                   uint64_t MinEnt, StringRef What) -> Error {
    if (Num == 0)
      return Error::success();
    if (EntSize < MinEnt)
      return makeError(Name, BaseOffset,
                       What + " entry size " + Twine(EntSize) + " too small");
    uint64_t Bytes = EntSize * Num; // both < 2^16
    if (Off > Data.size() || Bytes > Data.size() - Off)
      return makeError(Name, BaseOffset,
                       What + " table [" + hex(Off) + ", +" + hex(Bytes) +
                           ") runs past the end of the data");
    End = std::max(End, Off + Bytes);
    return Error::success();
  };
  if (Error E = Table(PhOff, PhEntSize, PhNum, sizeof(ELF::Elf64_Phdr),
                      "program header"))
    return std::move(E);
  if (Error E = Table(ShOff, ShEntSize, ShNum, sizeof(ELF::Elf64_Shdr),
                      "section header"))
    return std::move(E);
  auto Extend = [&](uint64_t Off, uint64_t Size, StringRef What) -> Error {
    if (Off > Data.size() || Size > Data.size() - Off)
      return makeError(Name, BaseOffset,
                       What + " [" + hex(Off) + ", +" + hex(Size) +
                           ") runs past the end of the data");
    End = std::max(End, Off + Size);
    return Error::success();
  };
  for (uint64_t I = 0; I < PhNum; ++I) {
    const char *H = P + PhOff + I * PhEntSize;
    if (Error E = Extend(read64le(H + 8), read64le(H + 32), "segment"))
      return std::move(E);
  }
  for (uint64_t I = 0; I < ShNum; ++I) {
    const char *H = P + ShOff + I * ShEntSize;
    if (read32le(H + 4) == ELF::SHT_NOBITS || read32le(H + 4) == ELF::SHT_NULL)
      continue;
    if (Error E = Extend(read64le(H + 24), read64le(H + 32), "section"))
      return std::move(E);
  }
  return End;
}

namespace {

/// Scans one data section of a host ELF for embedded AMDGPU ELF images.
Error scanEmbeddedElfs(StringRef Region, StringRef Name, StringRef Where,
                       uint64_t RegionFileOffset, CodeObjectSink Sink,
                       BundleScanStats *Stats) {
  StringRef ElfMagic("\x7f" "ELF", 4);
  size_t Pos = 0;
  while ((Pos = Region.find(ElfMagic, Pos)) != StringRef::npos) {
    StringRef Rest = Region.drop_front(Pos);
    if (!isAmdgpuElf(Rest) || Rest.size() < sizeof(ELF::Elf64_Ehdr) ||
        Rest[ELF::EI_CLASS] != ELF::ELFCLASS64) {
      ++Pos;
      continue;
    }
    uint64_t At = RegionFileOffset + Pos;
    Expected<uint64_t> Size = amdgpuElfImageSize(Rest, Name, At);
    if (!Size)
      return Size.takeError();
    ExtractedCodeObject O;
    O.Bytes = Rest.take_front(*Size).str();
    Expected<std::pair<std::string, std::string>> T =
        amdgpuElfTarget(O.Bytes, (Name + " (embedded ELF at " + hex(At) + ")").str());
    if (!T)
      return T.takeError();
    O.Arch = T->first;
    O.TargetId = T->second;
    O.Container = CodeObjectContainer::EmbeddedElf;
    O.FileOffset = At;
    O.IsAmdgpuElf = true;
    O.Origin = (Where + "+" + hex(Pos) + " (file " + hex(At) + ") embedded ELF").str();
    if (Stats)
      ++Stats->EmbeddedElfs;
    if (Error E = Sink(std::move(O)))
      return E;
    Pos += *Size;
  }
  return Error::success();
}

} // namespace

Error forEachCodeObject(MemoryBufferRef Buffer, CodeObjectSink Sink,
                        BundleScanStats *Stats) {
  StringRef Bytes = Buffer.getBuffer();
  StringRef Name = Buffer.getBufferIdentifier();

  if (startsWithMagic(Bytes))
    return extractFromBundles(Bytes, Name, Name, 0, Sink, Stats);
  if (!Bytes.starts_with("\x7f"
                         "ELF"))
    return Error::success(); // not a container we know

  if (isAmdgpuElf(Bytes)) {
    Expected<std::pair<std::string, std::string>> T = amdgpuElfTarget(Bytes, Name);
    if (!T)
      return T.takeError();
    ExtractedCodeObject O;
    O.Arch = T->first;
    O.TargetId = T->second;
    O.Bytes = Bytes.str();
    O.Origin = Name.str();
    O.Container = CodeObjectContainer::PlainElf;
    O.IsAmdgpuElf = true;
    return Sink(std::move(O));
  }

  // A host ELF: device code lives in .hip_fatbin, or (ROCr) as AMDGPU ELF
  // images inside data sections.
  Expected<std::unique_ptr<object::ObjectFile>> ObjOrErr =
      object::ObjectFile::createObjectFile(Buffer);
  if (!ObjOrErr)
    return makeError(Name, 0, "malformed ELF: " + toString(ObjOrErr.takeError()));
  const object::ObjectFile &Obj = **ObjOrErr;
  if (!Obj.isELF())
    return Error::success();
  for (const object::SectionRef &Sec : Obj.sections()) {
    Expected<StringRef> SecName = Sec.getName();
    if (!SecName) {
      consumeError(SecName.takeError());
      continue;
    }
    object::ELFSectionRef ESec(Sec);
    uint64_t SecOffset = ESec.getOffset();
    if (ESec.getType() == ELF::SHT_NOBITS || Sec.getSize() == 0)
      continue;
    bool Fatbin = *SecName == ".hip_fatbin";
    // Embedded images live in data: skip code, symbol/string/relocation
    // tables and debug info.
    if (!Fatbin && (ESec.getType() != ELF::SHT_PROGBITS ||
                    (ESec.getFlags() & ELF::SHF_EXECINSTR) ||
                    SecName->starts_with(".debug") ||
                    SecName->starts_with(".eh_frame") ||
                    SecName->starts_with(".gcc_except")))
      continue;
    Expected<StringRef> Contents = Sec.getContents();
    if (!Contents)
      return makeError(Name, SecOffset,
                       "cannot read " + *SecName + ": " +
                           toString(Contents.takeError()));
    StringRef Region = *Contents;
    std::string Where = (Name + ":" + *SecName).str();
    if (!Fatbin) {
      if (Error E = scanEmbeddedElfs(Region, Name, Where, SecOffset, Sink, Stats))
        return E;
      continue;
    }
    size_t First = Region.find_first_not_of('\0');
    if (First == StringRef::npos)
      continue;
    if (!startsWithMagic(Region.drop_front(First)))
      return makeError(Name, SecOffset + First,
                       ".hip_fatbin does not start with an offload bundle");
    if (Error E = extractFromBundles(Region, Name, Where, SecOffset, Sink, Stats))
      return E;
  }
  return Error::success();
}

Expected<std::vector<ExtractedCodeObject>>
extractCodeObjects(MemoryBufferRef Buffer, BundleScanStats *Stats) {
  std::vector<ExtractedCodeObject> Out;
  if (Error E = forEachCodeObject(
          Buffer,
          [&](ExtractedCodeObject &&O) {
            Out.push_back(std::move(O));
            return Error::success();
          },
          Stats))
    return std::move(E);
  return Out;
}

static Expected<std::unique_ptr<MemoryBuffer>> readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return createStringError(Buf.getError(), "%s: cannot read: %s",
                             Path.str().c_str(),
                             Buf.getError().message().c_str());
  return std::move(*Buf);
}

Expected<std::vector<ExtractedCodeObject>>
extractCodeObjectsFromFile(StringRef Path, BundleScanStats *Stats) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = readFile(Path);
  if (!Buf)
    return Buf.takeError();
  return extractCodeObjects((*Buf)->getMemBufferRef(), Stats);
}

Error forEachCodeObjectInFile(StringRef Path, CodeObjectSink Sink,
                              BundleScanStats *Stats) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = readFile(Path);
  if (!Buf)
    return Buf.takeError();
  return forEachCodeObject((*Buf)->getMemBufferRef(), Sink, Stats);
}

} // namespace asmevo
