//===- CodeObject.cpp - A read-only view of an AMDGPU code object ---------===//

#include "asmevo/CodeObject/CodeObject.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;
using namespace asmevo;

bool ElfSection::isAlloc() const { return Flags & ELF::SHF_ALLOC; }
bool ElfSection::isExec() const { return Flags & ELF::SHF_EXECINSTR; }
bool ElfSection::hasFileBytes() const { return Type != ELF::SHT_NOBITS; }

CodeObject::CodeObject() : EmptyDoc(std::make_unique<msgpack::Document>()) {}

const msgpack::Document &CodeObject::metadataDocument() const {
  return Notes.empty() ? *EmptyDoc : *Notes.front().Doc;
}

const msgpack::DocNode *CodeObject::kernelMetadataNode(StringRef Symbol) const {
  return MetadataBySymbol.lookup(Symbol);
}
CodeObject::~CodeObject() = default;

ArrayRef<uint8_t> CodeObject::image() const {
  return ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Buffer->getBufferStart()),
      Buffer->getBufferSize());
}

Expected<std::unique_ptr<CodeObject>> CodeObject::load(StringRef Path) {
  auto BufOrErr = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                        /*RequiresNullTerminator=*/false);
  if (!BufOrErr)
    return createStringError(BufOrErr.getError(),
                             Path + ": " + BufOrErr.getError().message());
  return parse(std::move(*BufOrErr), Path);
}

Expected<std::unique_ptr<CodeObject>>
CodeObject::parse(std::unique_ptr<MemoryBuffer> Buffer, StringRef Name) {
  std::unique_ptr<CodeObject> CO(new CodeObject());
  CO->Name = Name.str();
  CO->Buffer = std::move(Buffer);
  // A length read from a corrupt file can reach an allocation inside LLVM's
  // readers before anything checks it; that is a malformed input, not a crash.
  Error E = Error::success();
  try {
    E = CO->parseImpl();
  } catch (const std::bad_alloc &) {
    consumeError(std::move(E));
    return createStringError(Name + ": malformed ELF: a size field asks for "
                                    "more memory than exists");
  }
  if (E)
    return createStringError(Name + ": " + toString(std::move(E)));
  return std::move(CO);
}

const ElfSection *CodeObject::section(StringRef SecName) const {
  for (const ElfSection &S : Sections)
    if (S.Name == SecName)
      return &S;
  return nullptr;
}

const ElfSection *CodeObject::sectionAt(uint64_t VAddr) const {
  for (const ElfSection &S : Sections)
    if (S.isAlloc() && S.Size && VAddr >= S.Addr && VAddr - S.Addr < S.Size)
      return &S;
  return nullptr;
}

/// Entry Index of a symbol table of type TableType at file offset TableOff.
static ElfSymbol makeSymbol(const object::ELF64LE::Sym &Sym, StringRef Name,
                            uint32_t TableType, uint64_t TableOff,
                            uint64_t Index) {
  ElfSymbol ES;
  ES.Name = Name.str();
  ES.Value = Sym.st_value;
  ES.Size = Sym.st_size;
  ES.Type = Sym.getType();
  ES.Binding = Sym.getBinding();
  ES.Other = Sym.st_other;
  ES.SectionIndex = Sym.st_shndx;
  ES.Dynamic = TableType == ELF::SHT_DYNSYM;
  ES.RecordOffset = TableOff + Index * sizeof(object::ELF64LE::Sym);
  return ES;
}

/// LLVM's reader over the image; parse() already accepted the header.
static Expected<object::ELF64LEFile> elfFile(const CodeObject &CO) {
  ArrayRef<uint8_t> Img = CO.image();
  return object::ELF64LEFile::create(
      StringRef(reinterpret_cast<const char *>(Img.data()), Img.size()));
}

Expected<std::vector<ElfRelocation>>
CodeObject::relocations(const ElfSection &S) const {
  auto fail = [&](Error E) {
    return createStringError(
        formatv("relocation section {0}: {1}", S.Name, toString(std::move(E))));
  };
  auto FileOrErr = elfFile(*this);
  if (!FileOrErr)
    return fail(FileOrErr.takeError());
  auto SecOrErr = FileOrErr->getSection(S.Index);
  if (!SecOrErr)
    return fail(SecOrErr.takeError());
  auto RelasOrErr = FileOrErr->relas(**SecOrErr);
  if (!RelasOrErr)
    return fail(RelasOrErr.takeError());
  std::vector<ElfRelocation> Out;
  Out.reserve(RelasOrErr->size());
  for (auto [I, R] : llvm::enumerate(*RelasOrErr)) {
    ElfRelocation E;
    E.RecordOffset = S.Offset + I * sizeof(object::ELF64LE::Rela);
    E.Offset = R.r_offset;
    E.Type = R.getType(/*isMips64EL=*/false);
    E.SymbolIndex = R.getSymbol(/*isMips64EL=*/false);
    E.Addend = R.r_addend;
    Out.push_back(E);
  }
  return Out;
}

Expected<ElfSymbol> CodeObject::symbolAt(const ElfSection &Table,
                                         uint32_t Index) const {
  auto fail = [&](Error E) {
    return createStringError(formatv("symbol {0} of {1}: {2}", Index,
                                     Table.Name, toString(std::move(E))));
  };
  auto FileOrErr = elfFile(*this);
  if (!FileOrErr)
    return fail(FileOrErr.takeError());
  auto SecOrErr = FileOrErr->getSection(Table.Index);
  if (!SecOrErr)
    return fail(SecOrErr.takeError());
  auto SymOrErr = FileOrErr->getSymbol(*SecOrErr, Index);
  if (!SymOrErr)
    return fail(SymOrErr.takeError());
  auto StrTabOrErr = FileOrErr->getStringTableForSymtab(**SecOrErr);
  if (!StrTabOrErr)
    return fail(StrTabOrErr.takeError());
  auto NameOrErr = (*SymOrErr)->getName(*StrTabOrErr);
  if (!NameOrErr)
    return fail(NameOrErr.takeError());
  return makeSymbol(**SymOrErr, *NameOrErr, Table.Type, Table.Offset, Index);
}

Expected<ArrayRef<uint8_t>> CodeObject::bytesAt(uint64_t VAddr,
                                                uint64_t Size) const {
  const ElfSection *S = sectionAt(VAddr);
  if (!S)
    return createStringError(formatv("address {0:x} is in no section", VAddr));
  if (!S->hasFileBytes())
    return createStringError(formatv("address {0:x} is in {1}, which has no "
                                     "file bytes",
                                     VAddr, S->Name));
  uint64_t Rel = VAddr - S->Addr;
  if (Size > S->Size - Rel)
    return createStringError(formatv("{0} bytes at {1:x} run past the end of "
                                     "section {2}",
                                     Size, VAddr, S->Name));
  // Only sections with file bytes had their extent checked against the file
  // (an SHT_NULL header with SHF_ALLOC set slipped through: found by the
  // fuzzer).
  uint64_t FileSize = image().size();
  if (S->Offset > FileSize || Rel > FileSize - S->Offset ||
      Size > FileSize - S->Offset - Rel)
    return createStringError(formatv("{0} bytes at {1:x} (section {2}) lie "
                                     "outside the file",
                                     Size, VAddr, S->Name));
  return image().slice(S->Offset + Rel, Size);
}

const KernelInfo *CodeObject::kernel(StringRef KName) const {
  auto It = KernelIndex.find(KName);
  return It == KernelIndex.end() ? nullptr : &Kernels[It->second];
}

// LLVM's e_flags -> processor switch (ELFObjectFileBase::getAMDGPUCPUName)
// ends in llvm_unreachable: a value it does not list is undefined behaviour
// in a release build (the fuzzer got a garbage name, then an abort). Only
// values that name a processor in this LLVM's ELF.h may reach it.
static bool isKnownAMDGPUMach(unsigned Mach) {
  if (Mach >= ELF::EF_AMDGPU_MACH_R600_FIRST &&
      Mach <= ELF::EF_AMDGPU_MACH_R600_LAST)
    return true;
  if (Mach < ELF::EF_AMDGPU_MACH_AMDGCN_FIRST ||
      Mach > ELF::EF_AMDGPU_MACH_AMDGCN_LAST)
    return false;
  switch (Mach) {
  case ELF::EF_AMDGPU_MACH_AMDGCN_RESERVED_0X27:
  case ELF::EF_AMDGPU_MACH_AMDGCN_RESERVED_0X40:
  case ELF::EF_AMDGPU_MACH_AMDGCN_RESERVED_0X4B:
  case ELF::EF_AMDGPU_MACH_AMDGCN_RESERVED_0X4D:
  case ELF::EF_AMDGPU_MACH_AMDGCN_RESERVED_0X50:
  case ELF::EF_AMDGPU_MACH_AMDGCN_RESERVED_0X56:
  case ELF::EF_AMDGPU_MACH_AMDGCN_RESERVED_0X57:
    return false;
  default:
    // 0x5b-0x5e have no name between GFX1251 and GFX9_4_GENERIC.
    return Mach <= ELF::EF_AMDGPU_MACH_AMDGCN_GFX1251 ||
           Mach == ELF::EF_AMDGPU_MACH_AMDGCN_GFX9_4_GENERIC;
  }
}

static std::string featuresFromFlags(uint32_t Flags, unsigned Version,
                                     std::string &TargetSuffix) {
  std::string F;
  if (Version < 4)
    return F;
  auto add = [&](const char *Name, unsigned Setting, unsigned On,
                 unsigned Off) {
    if (Setting == On) {
      F += std::string(F.empty() ? "" : ",") + "+" + Name;
      TargetSuffix += std::string(":") + Name + "+";
    } else if (Setting == Off) {
      F += std::string(F.empty() ? "" : ",") + "-" + Name;
      TargetSuffix += std::string(":") + Name + "-";
    }
  };
  // Target id order is alphabetical: sramecc before xnack.
  add("sramecc", Flags & ELF::EF_AMDGPU_FEATURE_SRAMECC_V4,
      ELF::EF_AMDGPU_FEATURE_SRAMECC_ON_V4,
      ELF::EF_AMDGPU_FEATURE_SRAMECC_OFF_V4);
  add("xnack", Flags & ELF::EF_AMDGPU_FEATURE_XNACK_V4,
      ELF::EF_AMDGPU_FEATURE_XNACK_ON_V4, ELF::EF_AMDGPU_FEATURE_XNACK_OFF_V4);
  return F;
}

Error CodeObject::parseImpl() {
  ArrayRef<uint8_t> Img = image();
  if (Img.size() < 4 || memcmp(Img.data(), "\x7f"
                                            "ELF",
                               4) != 0)
    return createStringError("not an ELF file");
  if (Img.size() < sizeof(ELF::Elf64_Ehdr))
    return createStringError(
        formatv("truncated ELF header: {0} bytes, need {1}", Img.size(),
                sizeof(ELF::Elf64_Ehdr)));
  if (Img[ELF::EI_CLASS] != ELF::ELFCLASS64 ||
      Img[ELF::EI_DATA] != ELF::ELFDATA2LSB)
    return createStringError("not a 64-bit little-endian ELF; AMDGPU code "
                             "objects are ELF64 LE");
  auto FileOrErr = object::ELF64LEFile::create(
      StringRef(reinterpret_cast<const char *>(Img.data()), Img.size()));
  if (!FileOrErr)
    return FileOrErr.takeError();
  const object::ELF64LEFile &File = *FileOrErr;
  const auto &Hdr = File.getHeader();
  if (Hdr.e_machine != ELF::EM_AMDGPU)
    return createStringError(
        formatv("not an AMDGPU ELF (e_machine {0}, expected {1})",
                Hdr.e_machine, unsigned(ELF::EM_AMDGPU)));
  if (Hdr.e_ident[ELF::EI_OSABI] != ELF::ELFOSABI_AMDGPU_HSA)
    return createStringError(formatv("unsupported OS ABI {0}: only AMDHSA "
                                     "code objects are supported",
                                     unsigned(Hdr.e_ident[ELF::EI_OSABI])));
  switch (Hdr.e_ident[ELF::EI_ABIVERSION]) {
  case ELF::ELFABIVERSION_AMDGPU_HSA_V4:
    Version = 4;
    break;
  case ELF::ELFABIVERSION_AMDGPU_HSA_V5:
    Version = 5;
    break;
  case ELF::ELFABIVERSION_AMDGPU_HSA_V6:
    Version = 6;
    break;
  default:
    return createStringError(formatv(
        "unsupported code object ABI version {0} (supported: v4, v5, v6)",
        unsigned(Hdr.e_ident[ELF::EI_ABIVERSION])));
  }
  EFlags = Hdr.e_flags;

  // The processor comes from e_flags through LLVM's own mapping.
  if (!isKnownAMDGPUMach(EFlags & ELF::EF_AMDGPU_MACH))
    return createStringError(
        formatv("unknown AMDGPU processor in e_flags {0:x}", EFlags));
  {
    auto ObjOrErr = object::ELF64LEObjectFile::create(MemoryBufferRef(
        StringRef(reinterpret_cast<const char *>(Img.data()), Img.size()),
        Name));
    if (!ObjOrErr)
      return ObjOrErr.takeError();
    std::optional<StringRef> Name = ObjOrErr->tryGetCPUName();
    if (!Name || Name->empty())
      return createStringError(
          formatv("unknown AMDGPU processor in e_flags {0:x}", EFlags));
    CPU = Name->str();
  }
  std::string Suffix;
  Features = featuresFromFlags(EFlags, Version, Suffix);
  TargetId = "amdgcn-amd-amdhsa--" + CPU + Suffix;

  // Program headers.
  auto PhdrsOrErr = File.program_headers();
  if (!PhdrsOrErr)
    return PhdrsOrErr.takeError();
  for (const auto &P : *PhdrsOrErr)
    Segments.push_back({P.p_type, P.p_flags, P.p_offset, P.p_vaddr,
                        P.p_filesz, P.p_memsz, P.p_align});

  // Sections.
  auto SecsOrErr = File.sections();
  if (!SecsOrErr)
    return SecsOrErr.takeError();
  auto Secs = *SecsOrErr;
  for (unsigned I = 0; I < Secs.size(); ++I) {
    const auto &S = Secs[I];
    auto NameOrErr = File.getSectionName(S);
    if (!NameOrErr)
      return NameOrErr.takeError();
    ElfSection ES;
    ES.Name = NameOrErr->str();
    ES.Index = I;
    ES.Type = S.sh_type;
    ES.Flags = S.sh_flags;
    ES.Addr = S.sh_addr;
    ES.Offset = S.sh_offset;
    ES.Size = S.sh_size;
    ES.Align = S.sh_addralign;
    ES.Link = S.sh_link;
    ES.Info = S.sh_info;
    ES.EntSize = S.sh_entsize;
    if (ES.hasFileBytes() && ES.Type != ELF::SHT_NULL &&
        (ES.Offset > Img.size() || ES.Size > Img.size() - ES.Offset))
      return createStringError(
          formatv("section {0} [{1:x}, +{2:x}) runs past the end of the file "
                  "({3} bytes): truncated file",
                  ES.Name, ES.Offset, ES.Size, Img.size()));
    Sections.push_back(std::move(ES));
  }

  // Symbols, from .symtab and .dynsym.
  for (const auto &S : Secs) {
    if (S.sh_type != ELF::SHT_SYMTAB && S.sh_type != ELF::SHT_DYNSYM)
      continue;
    auto SymsOrErr = File.symbols(&S);
    if (!SymsOrErr)
      return SymsOrErr.takeError();
    auto StrTabOrErr = File.getStringTableForSymtab(S);
    if (!StrTabOrErr)
      return StrTabOrErr.takeError();
    for (auto [I, Sym] : llvm::enumerate(*SymsOrErr)) {
      if (I == 0) // the null symbol
        continue;
      auto NameOrErr = Sym.getName(*StrTabOrErr);
      if (!NameOrErr)
        return NameOrErr.takeError();
      Symbols.push_back(makeSymbol(Sym, *NameOrErr, S.sh_type, S.sh_offset, I));
    }
  }

  // The metadata notes.
  for (const auto &S : Secs) {
    if (S.sh_type != ELF::SHT_NOTE)
      continue;
    Error Err = Error::success();
    for (const auto &Note : File.notes(S, Err)) {
      if (Note.getName() != "AMDGPU" ||
          Note.getType() != ELF::NT_AMDGPU_METADATA)
        continue;
      // The alignment the note iterator itself uses: sh_addralign 0 or 1
      // means 4 (0 asserted in getDesc and put the descriptor at the note
      // header in release builds; found by the fuzzer).
      ArrayRef<uint8_t> Desc =
          Note.getDesc(std::max<uint64_t>(S.sh_addralign, 4));
      MetadataNote MN;
      MN.Doc = std::make_unique<msgpack::Document>();
      MN.Offset = Desc.data() - Img.data();
      MN.Size = Desc.size();
      StringRef Blob(reinterpret_cast<const char *>(Desc.data()), Desc.size());
      if (Error E = validateMsgpack(Blob))
        return createStringError(
            formatv("corrupt AMDGPU metadata note at file offset {0:x}: {1}",
                    MN.Offset, toString(std::move(E))));
      if (!MN.Doc->readFromBlob(Blob, /*Multi=*/false))
        return createStringError(
            formatv("corrupt AMDGPU metadata note at file offset {0:x}: not "
                    "valid msgpack",
                    MN.Offset));
      Notes.push_back(std::move(MN));
    }
    if (Err)
      return createStringError("corrupt note section: " +
                               toString(std::move(Err)));
  }

  // Metadata for each kernel, keyed by descriptor symbol.
  std::vector<KernelMetadata> Metas;
  for (MetadataNote &N : Notes) {
    msgpack::DocNode &Root = N.Doc->getRoot();
    if (!Root.isMap())
      return createStringError(formatv(
          "AMDGPU metadata note at file offset {0:x}: root is not a map",
          N.Offset));
    auto &Map = Root.getMap();
    auto It = Map.find(N.Doc->getNode("amdhsa.kernels"));
    if (It == Map.end())
      continue;
    if (!It->second.isArray())
      return createStringError("amdhsa.kernels is not an array");
    unsigned Index = 0;
    for (msgpack::DocNode &KN : It->second.getArray()) {
      auto MOrErr = KernelMetadata::fromNode(KN);
      if (!MOrErr)
        return createStringError(formatv("amdhsa.kernels[{0}]: {1}", Index,
                                         toString(MOrErr.takeError())));
      Metas.push_back(std::move(*MOrErr));
      ++Index;
    }
  }

  // The first entry for each descriptor symbol, from any note.
  for (MetadataNote &N : Notes) {
    auto It = N.Doc->getRoot().getMap().find(N.Doc->getNode("amdhsa.kernels"));
    if (It == N.Doc->getRoot().getMap().end())
      continue;
    for (msgpack::DocNode &KN : It->second.getArray()) {
      if (!KN.isMap())
        continue;
      auto S = KN.getMap().find(".symbol");
      if (S != KN.getMap().end() &&
          S->second.getKind() == msgpack::Type::String)
        MetadataBySymbol.try_emplace(S->second.getString(), &KN);
    }
  }

  // Indices for the loop below (the last match wins, as it always did).
  DenseMap<uint64_t, uint64_t> FuncSizeAt;
  for (const ElfSymbol &F : Symbols)
    if (F.Type == ELF::STT_FUNC && F.Size)
      FuncSizeAt[F.Value] = F.Size;
  StringMap<size_t> MetaIndex;
  for (size_t I = 0; I < Metas.size(); ++I)
    MetaIndex[Metas[I].Symbol] = I;

  // Kernels: every object symbol "X.kd" with a 64-byte descriptor.
  StringSet<> SeenDescriptors;
  for (const ElfSymbol &Sym : Symbols) {
    if (!StringRef(Sym.Name).ends_with(".kd") || Sym.Type != ELF::STT_OBJECT)
      continue;
    if (!SeenDescriptors.insert(Sym.Name).second)
      continue; // in both .dynsym and .symtab
    KernelInfo K;
    K.DescriptorSym = Sym.Name;
    K.Name = StringRef(Sym.Name).drop_back(3).str();
    K.DescriptorAddr = Sym.Value;
    auto BytesOrErr = bytesAt(Sym.Value, KernelDescriptor::Size);
    if (!BytesOrErr)
      return createStringError("kernel " + K.Name + ": descriptor: " +
                               toString(BytesOrErr.takeError()));
    K.KD = KernelDescriptor::decode(*BytesOrErr);
    K.CodeAddr = K.DescriptorAddr + K.KD.KernelCodeEntryByteOffset;
    const ElfSection *CodeSec = sectionAt(K.CodeAddr);
    if (!CodeSec || !CodeSec->isExec())
      return createStringError(
          formatv("kernel {0}: descriptor at {1:x} points to code at {2:x}, "
                  "which is not in an executable section",
                  K.Name, K.DescriptorAddr, K.CodeAddr));
    if (auto It = FuncSizeAt.find(K.CodeAddr); It != FuncSizeAt.end())
      K.CodeSize = It->second;
    if (auto It = MetaIndex.find(K.DescriptorSym); It != MetaIndex.end())
      K.Meta = Metas[It->second];
    Kernels.push_back(std::move(K));
  }
  std::sort(Kernels.begin(), Kernels.end(),
            [](const KernelInfo &A, const KernelInfo &B) {
              return A.CodeAddr < B.CodeAddr;
            });
  for (size_t I = 0; I < Kernels.size(); ++I)
    KernelIndex.try_emplace(Kernels[I].Name, I);
  for (const KernelMetadata &M : Metas)
    if (!kernel(StringRef(M.Symbol).drop_back(3)))
      return createStringError("metadata names kernel descriptor '" +
                               M.Symbol + "', which has no symbol");
  return Error::success();
}
