//===- ElfRecordsTest.cpp - Relocation and symbol records of a code object ===//
//
// CodeObject::relocations and symbolAt are the one reader of SHT_RELA and
// symbol-table records that the emulator's loader and emission share. The
// records are checked against the bytes at their RecordOffset, and malformed
// sections must give errors that name them.
//
//===----------------------------------------------------------------------===//

#include "TestKernels.h"

#include "asmevo/CodeObject/CodeObject.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Endian.h"
#include "gtest/gtest.h"

using namespace asmevo;
namespace endian = llvm::support::endian;

namespace {

std::unique_ptr<CodeObject> parseBytes(const std::vector<uint8_t> &Bytes) {
  auto CO = CodeObject::parse(
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(
          reinterpret_cast<const char *>(Bytes.data()), Bytes.size())),
      "relocs");
  if (!CO) {
    ADD_FAILURE() << llvm::toString(CO.takeError());
    return nullptr;
  }
  return std::move(*CO);
}

std::vector<uint8_t> readKernel(llvm::StringRef Name) {
  auto Buf = llvm::MemoryBuffer::getFile(test::testKernel(Name));
  if (!Buf)
    return {};
  return std::vector<uint8_t>((*Buf)->getBufferStart(),
                              (*Buf)->getBufferEnd());
}

const ElfSection *sectionOfType(const CodeObject &CO, uint32_t Type) {
  for (const ElfSection &S : CO.sections())
    if (S.Type == Type)
      return &S;
  return nullptr;
}

TEST(ElfRecords, RelocationsMatchTheirRecords) {
  std::vector<uint8_t> Bytes = readKernel("relocs-gfx942-v6.hsaco");
  ASSERT_FALSE(Bytes.empty());
  auto CO = parseBytes(Bytes);
  ASSERT_TRUE(CO);
  const ElfSection *Rela = sectionOfType(*CO, llvm::ELF::SHT_RELA);
  ASSERT_TRUE(Rela);
  auto Records = CO->relocations(*Rela);
  ASSERT_TRUE(bool(Records)) << llvm::toString(Records.takeError());
  ASSERT_EQ(Records->size(), Rela->Size / sizeof(llvm::ELF::Elf64_Rela));
  unsigned Abs = 0, Relative = 0;
  for (const ElfRelocation &R : *Records) {
    const uint8_t *P = Bytes.data() + R.RecordOffset;
    EXPECT_EQ(R.Offset, endian::read64le(P));
    uint64_t Info = endian::read64le(P + 8);
    EXPECT_EQ(R.Type, uint32_t(Info));
    EXPECT_EQ(R.SymbolIndex, uint32_t(Info >> 32));
    EXPECT_EQ(R.Addend, int64_t(endian::read64le(P + 16)));
    if (R.Type == llvm::ELF::R_AMDGPU_ABS64) {
      ++Abs;
      const ElfSection &Table = CO->sections()[Rela->Link];
      auto Sym = CO->symbolAt(Table, R.SymbolIndex);
      ASSERT_TRUE(bool(Sym)) << llvm::toString(Sym.takeError());
      // relocs.hip's ABS64 slots all point to its public global.
      EXPECT_EQ(Sym->Name, "g_pub");
      EXPECT_NE(Sym->SectionIndex, llvm::ELF::SHN_UNDEF);
      EXPECT_EQ(Sym->Value, endian::read64le(Bytes.data() + Sym->RecordOffset +
                                             offsetof(llvm::ELF::Elf64_Sym,
                                                      st_value)));
    } else if (R.Type == llvm::ELF::R_AMDGPU_RELATIVE64) {
      ++Relative;
      EXPECT_EQ(R.SymbolIndex, 0u);
    }
  }
  EXPECT_GT(Abs, 0u);
  EXPECT_GT(Relative, 0u);
}

TEST(ElfRecords, SymbolRecordOffsetsPointAtTheirRecords) {
  std::vector<uint8_t> Bytes = readKernel("relocs-gfx942-v6.hsaco");
  ASSERT_FALSE(Bytes.empty());
  auto CO = parseBytes(Bytes);
  ASSERT_TRUE(CO);
  ASSERT_FALSE(CO->symbols().empty());
  for (const ElfSymbol &S : CO->symbols()) {
    const uint8_t *P = Bytes.data() + S.RecordOffset;
    EXPECT_EQ(S.Value, endian::read64le(P + 8)) << S.Name;
    EXPECT_EQ(S.Size, endian::read64le(P + 16)) << S.Name;
    EXPECT_EQ(S.SectionIndex, endian::read16le(P + 6)) << S.Name;
  }
}

TEST(ElfRecords, MalformedSectionsAreNamedErrors) {
  std::vector<uint8_t> Bytes = readKernel("relocs-gfx942-v6.hsaco");
  ASSERT_FALSE(Bytes.empty());
  auto CO = parseBytes(Bytes);
  ASSERT_TRUE(CO);
  const ElfSection *Rela = sectionOfType(*CO, llvm::ELF::SHT_RELA);
  ASSERT_TRUE(Rela);

  // A symbol index past the table.
  const ElfSection &Table = CO->sections()[Rela->Link];
  uint32_t Past = uint32_t(Table.Size / sizeof(llvm::ELF::Elf64_Sym));
  auto Sym = CO->symbolAt(Table, Past);
  ASSERT_FALSE(bool(Sym));
  std::string Msg = llvm::toString(Sym.takeError());
  EXPECT_NE(Msg.find(Table.Name), std::string::npos) << Msg;

  // A relocation section whose size is not a whole number of records.
  uint64_t ShOff = endian::read64le(Bytes.data() + 0x28);
  uint8_t *Sh = Bytes.data() + ShOff + sizeof(llvm::ELF::Elf64_Shdr) *
                                           Rela->Index;
  endian::write64le(Sh + offsetof(llvm::ELF::Elf64_Shdr, sh_size),
                    Rela->Size - 1);
  auto Bad = parseBytes(Bytes);
  ASSERT_TRUE(Bad);
  auto Records = Bad->relocations(Bad->sections()[Rela->Index]);
  ASSERT_FALSE(bool(Records));
  Msg = llvm::toString(Records.takeError());
  EXPECT_NE(Msg.find("relocation section " + Rela->Name), std::string::npos)
      << Msg;
}

} // namespace
