//===- OffloadBundleTest.cpp - Tests for the code object extractor -------===//
//
// Builds bundles in memory (uncompressed, CCOB v1/v2/v3 with zstd and zlib,
// several bundles at 4 KiB alignment, host ELFs with .hip_fatbin or embedded
// AMDGPU images) and checks what comes out; then truncates, corrupts and
// randomly mutates them: every outcome must be a result or an llvm::Error,
// never a crash or an out-of-bounds read (run under ASan to see the latter).
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/OffloadBundle.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <zstd.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace asmevo;
using namespace llvm;

namespace {

//===-- builders ----------------------------------------------------------===//

template <typename T> void put(std::string &S, T V) {
  char B[sizeof(T)];
  support::endian::write<T, endianness::little>(B, V);
  S.append(B, sizeof(T));
}

template <typename T> void putAt(std::string &S, size_t At, T V) {
  support::endian::write<T, endianness::little>(&S[At], V);
}

void alignTo(std::string &S, size_t A) {
  S.resize((S.size() + A - 1) / A * A, '\0');
}

/// A minimal AMDGPU ELF: header, one program header, a .text section with
/// Body, and the section name table.
std::string amdgpuElf(unsigned Mach, uint8_t AbiVersion = ELF::ELFABIVERSION_AMDGPU_HSA_V5,
                      uint32_t Features = ELF::EF_AMDGPU_FEATURE_SRAMECC_ON_V4 |
                                          ELF::EF_AMDGPU_FEATURE_XNACK_OFF_V4,
                      StringRef Body = "\x00\x00\x81\xbf") {
  std::string Shstr("\0.text\0.shstrtab\0", 17);
  std::string S(64, '\0');
  S[0] = 0x7f; S[1] = 'E'; S[2] = 'L'; S[3] = 'F';
  S[ELF::EI_CLASS] = ELF::ELFCLASS64;
  S[ELF::EI_DATA] = ELF::ELFDATA2LSB;
  S[ELF::EI_VERSION] = 1;
  S[ELF::EI_OSABI] = ELF::ELFOSABI_AMDGPU_HSA;
  S[ELF::EI_ABIVERSION] = AbiVersion;
  putAt<uint16_t>(S, 16, ELF::ET_DYN);
  putAt<uint16_t>(S, 18, ELF::EM_AMDGPU);
  putAt<uint32_t>(S, 20, 1);
  putAt<uint32_t>(S, 48, Mach | Features);
  putAt<uint16_t>(S, 52, 64);
  // Program header right after the ELF header.
  uint64_t PhOff = S.size();
  S.resize(S.size() + 56, '\0');
  uint64_t TextOff = S.size();
  S += Body.str();
  uint64_t StrOff = S.size();
  S += Shstr;
  alignTo(S, 8);
  uint64_t ShOff = S.size();
  S.resize(S.size() + 3 * 64, '\0');
  // PT_LOAD covering .text.
  putAt<uint32_t>(S, PhOff, ELF::PT_LOAD);
  putAt<uint64_t>(S, PhOff + 8, TextOff);
  putAt<uint64_t>(S, PhOff + 32, Body.size());
  putAt<uint64_t>(S, PhOff + 40, Body.size());
  // Sections: null, .text, .shstrtab.
  uint64_t T = ShOff + 64;
  putAt<uint32_t>(S, T + 0, 1);
  putAt<uint32_t>(S, T + 4, ELF::SHT_PROGBITS);
  putAt<uint64_t>(S, T + 8, ELF::SHF_ALLOC | ELF::SHF_EXECINSTR);
  putAt<uint64_t>(S, T + 24, TextOff);
  putAt<uint64_t>(S, T + 32, Body.size());
  uint64_t R = ShOff + 128;
  putAt<uint32_t>(S, R + 0, 7);
  putAt<uint32_t>(S, R + 4, ELF::SHT_STRTAB);
  putAt<uint64_t>(S, R + 24, StrOff);
  putAt<uint64_t>(S, R + 32, Shstr.size());
  putAt<uint64_t>(S, 32, PhOff);
  putAt<uint16_t>(S, 54, 56);
  putAt<uint16_t>(S, 56, 1);
  putAt<uint64_t>(S, 40, ShOff);
  putAt<uint16_t>(S, 58, 64);
  putAt<uint16_t>(S, 60, 3);
  putAt<uint16_t>(S, 62, 2);
  return S;
}

/// An uncompressed bundle; payloads start at Align-aligned offsets.
std::string bundle(const std::vector<std::pair<std::string, std::string>> &Entries,
                   size_t Align = 4096) {
  std::string H(kBundleMagic.data(), kBundleMagic.size());
  put<uint64_t>(H, Entries.size());
  std::vector<size_t> Slots;
  for (const auto &[Id, Bytes] : Entries) {
    Slots.push_back(H.size());
    put<uint64_t>(H, 0);
    put<uint64_t>(H, Bytes.size());
    put<uint64_t>(H, Id.size());
    H += Id;
  }
  for (size_t I = 0; I < Entries.size(); ++I) {
    if (Entries[I].second.empty())
      continue;
    alignTo(H, Align);
    putAt<uint64_t>(H, Slots[I], H.size());
    H += Entries[I].second;
  }
  return H;
}

uint64_t md5Low(StringRef S) {
  MD5 H;
  H.update(S);
  MD5::MD5Result R;
  H.final(R);
  return R.low();
}

/// A CCOB bundle around Inner (method 1 zstd, 0 zlib).
std::string ccob(StringRef Inner, unsigned Version, unsigned Method = 1) {
  std::string Data;
  if (Method == 1) {
    Data.resize(ZSTD_compressBound(Inner.size()));
    size_t N = ZSTD_compress(Data.data(), Data.size(), Inner.data(),
                             Inner.size(), 3);
    EXPECT_FALSE(ZSTD_isError(N));
    Data.resize(N);
  } else {
    SmallVector<uint8_t, 0> Out;
    compression::zlib::compress(arrayRefFromStringRef(Inner), Out);
    Data.assign(reinterpret_cast<const char *>(Out.data()), Out.size());
  }
  std::string S("CCOB");
  put<uint16_t>(S, Version);
  put<uint16_t>(S, Method);
  size_t HeaderSize = Version == 1 ? 20 : Version == 2 ? 24 : 32;
  if (Version == 1) {
    put<uint32_t>(S, Inner.size());
  } else if (Version == 2) {
    put<uint32_t>(S, HeaderSize + Data.size());
    put<uint32_t>(S, Inner.size());
  } else {
    put<uint64_t>(S, HeaderSize + Data.size());
    put<uint64_t>(S, Inner.size());
  }
  put<uint64_t>(S, md5Low(Inner));
  EXPECT_EQ(S.size(), HeaderSize);
  return S + Data;
}

/// A minimal x86-64 shared object with the given extra sections.
std::string hostElf(const std::vector<std::pair<std::string, std::string>> &Sections) {
  std::string Shstr(1, '\0');
  std::vector<uint32_t> NameOff;
  for (const auto &Sec : Sections) {
    NameOff.push_back(Shstr.size());
    Shstr += Sec.first;
    Shstr += '\0';
  }
  uint32_t ShstrName = Shstr.size();
  Shstr += ".shstrtab";
  Shstr += '\0';
  std::string S(64, '\0');
  S[0] = 0x7f; S[1] = 'E'; S[2] = 'L'; S[3] = 'F';
  S[ELF::EI_CLASS] = ELF::ELFCLASS64;
  S[ELF::EI_DATA] = ELF::ELFDATA2LSB;
  S[ELF::EI_VERSION] = 1;
  putAt<uint16_t>(S, 16, ELF::ET_DYN);
  putAt<uint16_t>(S, 18, ELF::EM_X86_64);
  putAt<uint32_t>(S, 20, 1);
  putAt<uint16_t>(S, 52, 64);
  std::vector<uint64_t> Offs;
  for (const auto &Sec : Sections) {
    alignTo(S, 4096);
    Offs.push_back(S.size());
    S += Sec.second;
  }
  uint64_t StrOff = S.size();
  S += Shstr;
  alignTo(S, 8);
  uint64_t ShOff = S.size();
  size_t N = Sections.size() + 2;
  S.resize(S.size() + N * 64, '\0');
  for (size_t I = 0; I < Sections.size(); ++I) {
    uint64_t H = ShOff + (I + 1) * 64;
    putAt<uint32_t>(S, H, NameOff[I]);
    putAt<uint32_t>(S, H + 4, ELF::SHT_PROGBITS);
    putAt<uint64_t>(S, H + 8, ELF::SHF_ALLOC | ELF::SHF_WRITE);
    putAt<uint64_t>(S, H + 24, Offs[I]);
    putAt<uint64_t>(S, H + 32, Sections[I].second.size());
    putAt<uint64_t>(S, H + 48, 4096);
  }
  uint64_t H = ShOff + (N - 1) * 64;
  putAt<uint32_t>(S, H, ShstrName);
  putAt<uint32_t>(S, H + 4, ELF::SHT_STRTAB);
  putAt<uint64_t>(S, H + 24, StrOff);
  putAt<uint64_t>(S, H + 32, Shstr.size());
  putAt<uint64_t>(S, 40, ShOff);
  putAt<uint16_t>(S, 58, 64);
  putAt<uint16_t>(S, 60, N);
  putAt<uint16_t>(S, 62, N - 1);
  return S;
}

Expected<std::vector<ExtractedCodeObject>> extract(StringRef Bytes,
                                                   BundleScanStats *Stats = nullptr) {
  return extractCodeObjects(MemoryBufferRef(Bytes, "test.bin"), Stats);
}

/// Extracts from a bundle region directly (bytes must start with a magic).
Expected<std::vector<ExtractedCodeObject>> extractRegion(StringRef Bytes) {
  std::vector<ExtractedCodeObject> Out;
  if (Error E = extractFromBundles(
          Bytes, "region.bin", "region.bin", 0,
          [&](ExtractedCodeObject &&O) {
            Out.push_back(std::move(O));
            return Error::success();
          }))
    return std::move(E);
  return Out;
}

const char *kHost = "host-x86_64-unknown-linux-gnu-";
const char *kGfx942 = "hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-";
const char *kGfx90a = "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+";

struct Fixture {
  std::string Elf942 = amdgpuElf(ELF::EF_AMDGPU_MACH_AMDGCN_GFX942);
  std::string Elf90a = amdgpuElf(ELF::EF_AMDGPU_MACH_AMDGCN_GFX90A, ELF::ELFABIVERSION_AMDGPU_HSA_V5,
                                 ELF::EF_AMDGPU_FEATURE_XNACK_ON_V4, "\x01\x02\x03\x04\x00\x00\x81\xbf");
  std::string Bundle = bundle({{kHost, ""}, {kGfx942, Elf942}, {kGfx90a, Elf90a}});
};

void expectTwoObjects(const std::vector<ExtractedCodeObject> &Objs, const Fixture &F) {
  ASSERT_EQ(Objs.size(), 2u);
  EXPECT_EQ(Objs[0].TargetId, kGfx942);
  EXPECT_EQ(Objs[0].Arch, "gfx942");
  EXPECT_EQ(Objs[0].Bytes, F.Elf942);
  EXPECT_EQ(Objs[0].EntryIndex, 1u);
  EXPECT_TRUE(Objs[0].IsAmdgpuElf);
  EXPECT_EQ(Objs[1].TargetId, kGfx90a);
  EXPECT_EQ(Objs[1].Arch, "gfx90a");
  EXPECT_EQ(Objs[1].Bytes, F.Elf90a);
  EXPECT_EQ(Objs[1].EntryIndex, 2u);
}

std::string errorText(Error E) { return toString(std::move(E)); }

//===-- tests -------------------------------------------------------------===//

TEST(OffloadBundle, ArchFromTargetId) {
  EXPECT_EQ(archFromTargetId("hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"), "gfx942");
  EXPECT_EQ(archFromTargetId("hipv4-amdgcn-amd-amdhsa--gfx90a"), "gfx90a");
  EXPECT_EQ(archFromTargetId("hip-amdgcn-amd-amdhsa-gfx90a"), "gfx90a");
  EXPECT_EQ(archFromTargetId("hip-amdgcn-amd-amdhsa-gfx906:xnack-"), "gfx906");
  EXPECT_EQ(archFromTargetId("hipv4-amdgcn-amd-amdhsa--gfx9-4-generic:xnack-"), "gfx9-4-generic");
  EXPECT_EQ(archFromTargetId("gfx1100"), "gfx1100");
  EXPECT_EQ(archFromTargetId("host-x86_64-unknown-linux-gnu-"), "");
  EXPECT_EQ(archFromTargetId(""), "");
  EXPECT_TRUE(isHostBundleEntry("host-x86_64-unknown-linux-gnu-"));
  EXPECT_FALSE(isHostBundleEntry(kGfx942));
}

TEST(OffloadBundle, PlainElf) {
  Fixture F;
  auto Objs = extract(F.Elf942);
  ASSERT_TRUE(bool(Objs)) << toString(Objs.takeError());
  ASSERT_EQ(Objs->size(), 1u);
  EXPECT_EQ((*Objs)[0].Arch, "gfx942");
  EXPECT_EQ((*Objs)[0].TargetId, "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-");
  EXPECT_EQ((*Objs)[0].Container, CodeObjectContainer::PlainElf);
  EXPECT_EQ((*Objs)[0].Bytes, F.Elf942);
  auto T = amdgpuElfTarget(F.Elf90a, "x");
  ASSERT_TRUE(bool(T));
  EXPECT_EQ(T->second, "amdgcn-amd-amdhsa--gfx90a:xnack+");
  auto Size = amdgpuElfImageSize(F.Elf942 + std::string(100, 'x'), "x");
  ASSERT_TRUE(bool(Size));
  EXPECT_EQ(*Size, F.Elf942.size());
}

TEST(OffloadBundle, NotAContainer) {
  auto Objs = extract("just some text, no code here");
  ASSERT_TRUE(bool(Objs));
  EXPECT_TRUE(Objs->empty());
}

TEST(OffloadBundle, Uncompressed) {
  Fixture F;
  BundleScanStats Stats;
  auto Objs = extract(F.Bundle, &Stats);
  ASSERT_TRUE(bool(Objs)) << toString(Objs.takeError());
  expectTwoObjects(*Objs, F);
  EXPECT_EQ((*Objs)[0].Container, CodeObjectContainer::Bundle);
  EXPECT_EQ(Stats.UncompressedBundles, 1u);
  EXPECT_EQ(Stats.SkippedHostEntries, 1u);
}

TEST(OffloadBundle, OldStyleIdsAndEmptyEntries) {
  Fixture F;
  std::string B = bundle({{"host-x86_64-unknown-linux", "hostcode"},
                          {"hip-amdgcn-amd-amdhsa-gfx90a", F.Elf90a},
                          {"hip-amdgcn-amd-amdhsa-gfx908", ""}},
                         /*Align=*/1);
  BundleScanStats Stats;
  auto Objs = extract(B, &Stats);
  ASSERT_TRUE(bool(Objs)) << toString(Objs.takeError());
  ASSERT_EQ(Objs->size(), 1u);
  EXPECT_EQ((*Objs)[0].Arch, "gfx90a");
  EXPECT_EQ(Stats.SkippedEmptyEntries, 1u);
  EXPECT_EQ(Stats.SkippedHostEntries, 1u);
}

TEST(OffloadBundle, CompressedVersions) {
  Fixture F;
  for (unsigned V = 1; V <= 3; ++V) {
    SCOPED_TRACE("CCOB v" + std::to_string(V));
    BundleScanStats Stats;
    auto Objs = extract(ccob(F.Bundle, V), &Stats);
    ASSERT_TRUE(bool(Objs)) << toString(Objs.takeError());
    expectTwoObjects(*Objs, F);
    EXPECT_EQ((*Objs)[0].Container, CodeObjectContainer::CompressedBundle);
    EXPECT_EQ((*Objs)[0].CompressedVersion, V);
    EXPECT_EQ(Stats.CompressedBundles[V], 1u);
  }
}

TEST(OffloadBundle, CompressedZlib) {
  if (!compression::zlib::isAvailable())
    GTEST_SKIP() << "LLVM built without zlib";
  Fixture F;
  for (unsigned V = 2; V <= 3; ++V) {
    auto Objs = extract(ccob(F.Bundle, V, /*Method=*/0));
    ASSERT_TRUE(bool(Objs)) << toString(Objs.takeError());
    expectTwoObjects(*Objs, F);
  }
}

TEST(OffloadBundle, DecompressReportsHeader) {
  Fixture F;
  std::string C = ccob(F.Bundle, 3);
  auto D = decompressOffloadBundle(C + std::string(4096, '\0'), "x");
  ASSERT_TRUE(bool(D)) << toString(D.takeError());
  EXPECT_EQ(D->Version, 3u);
  EXPECT_EQ(D->Method, 1u);
  EXPECT_EQ(D->Extent, C.size());
  EXPECT_EQ(D->Data, F.Bundle);
  // v1 has no total size: the extent is what the zstd frame used.
  std::string C1 = ccob(F.Bundle, 1);
  auto D1 = decompressOffloadBundle(C1 + std::string(100, '\0'), "x");
  ASSERT_TRUE(bool(D1)) << toString(D1.takeError());
  EXPECT_EQ(D1->Extent, C1.size());
}

/// A .hip_fatbin as ROCm >= 6.2 lays it out: one compressed bundle per
/// source file at 4 KiB-aligned offsets, plus an old uncompressed one.
std::string fatbinRegion(const Fixture &F) {
  std::string R = ccob(F.Bundle, 3);
  alignTo(R, 4096);
  R += ccob(bundle({{kHost, ""}, {kGfx942, amdgpuElf(ELF::EF_AMDGPU_MACH_AMDGCN_GFX942,
                                                   ELF::ELFABIVERSION_AMDGPU_HSA_V5,
                                                   0, "\x7f\x7f\x7f\x7f")}}),
            2);
  alignTo(R, 4096);
  R += F.Bundle;
  alignTo(R, 4096);
  return R;
}

TEST(OffloadBundle, ManyBundlesInARegion) {
  Fixture F;
  std::string R = fatbinRegion(F);
  auto Objs = extract(R);
  ASSERT_TRUE(bool(Objs)) << toString(Objs.takeError());
  ASSERT_EQ(Objs->size(), 5u);
  EXPECT_EQ((*Objs)[2].TargetId, kGfx942);
  EXPECT_EQ((*Objs)[2].CompressedVersion, 2u);
  EXPECT_EQ((*Objs)[2].FileOffset, 4096u);
  EXPECT_EQ((*Objs)[3].Container, CodeObjectContainer::Bundle);
  EXPECT_EQ((*Objs)[4].Bytes, F.Elf90a);
}

TEST(OffloadBundle, HostElfWithFatbinAndEmbeddedImages) {
  Fixture F;
  std::string Data = "some host data" + F.Elf90a + std::string(13, '\1') + F.Elf942;
  std::string Host = hostElf({{".data", Data}, {".hip_fatbin", fatbinRegion(F)}});
  BundleScanStats Stats;
  auto Objs = extract(Host, &Stats);
  ASSERT_TRUE(bool(Objs)) << toString(Objs.takeError());
  ASSERT_EQ(Objs->size(), 7u);
  EXPECT_EQ(Stats.EmbeddedElfs, 2u);
  EXPECT_EQ((*Objs)[0].Container, CodeObjectContainer::EmbeddedElf);
  EXPECT_EQ((*Objs)[0].Bytes, F.Elf90a);
  EXPECT_EQ((*Objs)[0].FileOffset, 4096u + 14u);
  EXPECT_EQ((*Objs)[1].Bytes, F.Elf942);
  EXPECT_EQ((*Objs)[1].Arch, "gfx942");
  EXPECT_EQ((*Objs)[2].Arch, "gfx942");
  EXPECT_EQ((*Objs)[2].FileOffset, 8192u); // .hip_fatbin at file offset 8192
  EXPECT_NE((*Objs)[2].Origin.find(".hip_fatbin"), std::string::npos);
  // A host ELF without device code gives nothing.
  auto None = extract(hostElf({{".data", "hello"}}));
  ASSERT_TRUE(bool(None)) << toString(None.takeError());
  EXPECT_TRUE(None->empty());
}

//===-- malformed input ---------------------------------------------------===//

TEST(OffloadBundle, EveryTruncationIsAnError) {
  Fixture F;
  for (const std::string &Full : {F.Bundle, ccob(F.Bundle, 1), ccob(F.Bundle, 2),
                                  ccob(F.Bundle, 3)}) {
    for (size_t N = 1; N < Full.size(); N += (N < 200 ? 1 : 97)) {
      auto Objs = extractRegion(StringRef(Full).take_front(N));
      EXPECT_FALSE(bool(Objs)) << "prefix " << N << " of " << Full.size();
      if (!Objs) {
        EXPECT_NE(errorText(Objs.takeError()).find("region.bin: offset 0x"),
                  std::string::npos);
      }
    }
  }
}

TEST(OffloadBundle, CorruptHeaders) {
  Fixture F;
  auto expectError = [](StringRef Bytes, StringRef Needle) {
    auto Objs = extractRegion(Bytes);
    ASSERT_FALSE(bool(Objs));
    std::string Msg = errorText(Objs.takeError());
    EXPECT_NE(Msg.find(Needle.str()), std::string::npos) << Msg;
  };
  // Entry count far too large.
  std::string B = F.Bundle;
  putAt<uint64_t>(B, 24, ~0ull);
  expectError(B, "entry count");
  // Offset + size overflow 64 bits.
  B = F.Bundle;
  size_t Entry1 = 32 + 24 + std::string(kHost).size();
  putAt<uint64_t>(B, Entry1, ~0ull - 4);
  putAt<uint64_t>(B, Entry1 + 8, 16);
  expectError(B, "runs past the end");
  // Id length larger than the data.
  B = F.Bundle;
  putAt<uint64_t>(B, Entry1 + 16, 1ull << 62);
  expectError(B, "truncated");
  // Compressed: unknown version and method, bad sizes, bad hash, bad data.
  std::string C = ccob(F.Bundle, 3);
  std::string X = C;
  putAt<uint16_t>(X, 4, 9);
  expectError(X, "version 9");
  X = C;
  putAt<uint16_t>(X, 6, 7);
  expectError(X, "compression method 7");
  X = C;
  putAt<uint64_t>(X, 8, C.size() + 1);
  expectError(X, "total size");
  X = C;
  putAt<uint64_t>(X, 8, 3);
  expectError(X, "total size");
  X = C;
  putAt<uint64_t>(X, 16, 1ull << 60);
  expectError(X, "exceeds the limit");
  X = C;
  putAt<uint64_t>(X, 16, F.Bundle.size() - 1);
  expectError(X, "larger than the header");
  X = C;
  putAt<uint64_t>(X, 16, F.Bundle.size() + 1);
  expectError(X, "header says");
  X = C;
  putAt<uint64_t>(X, 24, md5Low(F.Bundle) ^ 1);
  expectError(X, "hash mismatch");
  X = C;
  X[40] ^= 0x55;
  auto Objs = extractRegion(X);
  EXPECT_FALSE(bool(Objs));
  if (!Objs)
    consumeError(Objs.takeError());
  // Garbage between bundles.
  std::string R = F.Bundle + std::string(10, '\0') + "garbage";
  expectError(R, "expected an offload bundle magic");
  // A malformed plain AMDGPU ELF.
  std::string E = F.Elf942;
  putAt<uint64_t>(E, 40, 1ull << 40);
  auto EO = extract(E);
  EXPECT_FALSE(bool(EO));
  if (!EO) {
    EXPECT_NE(errorText(EO.takeError()).find("test.bin"), std::string::npos);
  }
}

/// Random byte flips, truncations and insertions on valid inputs: each run
/// must end in a result or an error. Deterministic (fixed seed).
TEST(OffloadBundle, RandomMutations) {
  Fixture F;
  std::vector<std::string> Seeds = {
      F.Bundle, ccob(F.Bundle, 1), ccob(F.Bundle, 2), ccob(F.Bundle, 3),
      fatbinRegion(F), F.Elf942,
      hostElf({{".data", "xx" + F.Elf942}, {".hip_fatbin", fatbinRegion(F)}})};
  std::mt19937_64 Rng(42);
  unsigned Ok = 0, Failed = 0;
  for (const std::string &Seed : Seeds) {
    for (unsigned Iter = 0; Iter < 400; ++Iter) {
      std::string M = Seed;
      unsigned Edits = 1 + Rng() % 4;
      for (unsigned K = 0; K < Edits && !M.empty(); ++K) {
        size_t At = Rng() % M.size();
        switch (Rng() % 5) {
        case 0: M[At] ^= char(1u << (Rng() % 8)); break;
        case 1: M[At] = char(Rng()); break;
        case 2: M.resize(At); break;
        case 3: // a header field set to an extreme value
          if (At + 8 <= M.size())
            putAt<uint64_t>(M, At & ~size_t(7), Rng() % 2 ? ~0ull : Rng() % 100000);
          break;
        case 4: M.insert(At, std::string(1 + Rng() % 16, char(Rng()))); break;
        }
      }
      // Copy to an exact-size heap block so ASan sees any overread.
      std::unique_ptr<MemoryBuffer> Buf =
          MemoryBuffer::getMemBufferCopy(M, "mutant");
      auto Objs = extractCodeObjects(Buf->getMemBufferRef());
      if (Objs) {
        ++Ok;
        for (const ExtractedCodeObject &O : *Objs)
          EXPECT_LE(O.Bytes.size(), 16u * M.size() + (1u << 20));
      } else {
        ++Failed;
        consumeError(Objs.takeError());
      }
      if (!M.empty() && (M[0] == '_' || M[0] == 'C')) {
        auto R = extractRegion(M);
        if (!R)
          consumeError(R.takeError());
      }
    }
  }
  EXPECT_GT(Failed, 0u);
  EXPECT_GT(Ok, 0u);
}

} // namespace
