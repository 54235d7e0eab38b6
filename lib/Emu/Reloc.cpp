//===- Reloc.cpp - The loader's dynamic relocations ----------------------===//
//
// What ROCr's loader does to a code object's data before any dispatch
// (runtime/hsa-runtime/loader/executable.cpp, ApplyDynamicRelocation):
// every record of a loaded SHT_RELA section is applied with the
// calculations of AMDGPUUsage "Relocation Records". For amdhsa, lld emits
// exactly two dynamic types (lld/ELF/Arch/AMDGPU.cpp: symbolicRel and gotRel
// are R_AMDGPU_ABS64, relativeRel is R_AMDGPU_RELATIVE64), and they are the
// only types in the gfx90a/gfx942 corpus; everything else is refused, so a
// slot is never left holding a value the loader would have replaced.
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/Emu/Emulator.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
namespace endian = llvm::support::endian;

namespace asmevo {
namespace emu {

static const char *relocName(uint32_t Type) {
  switch (Type) {
#define ELF_RELOC(Name, Value)                                                 \
  case Value:                                                                  \
    return #Name;
#include "llvm/BinaryFormat/ELFRelocs/AMDGPU.def"
#undef ELF_RELOC
  default:
    return "unknown";
  }
}

Expected<std::vector<DynamicRelocation>>
dynamicRelocations(const CodeObject &CO) {
  std::vector<DynamicRelocation> Out;
  ArrayRef<uint8_t> Img = CO.image();
  ArrayRef<ElfSection> Secs = CO.sections();
  auto fail = [&](const Twine &Msg) {
    return createStringError("code object " + CO.name() + ": " + Msg);
  };
  auto inImage = [&](const ElfSection &S) {
    return S.Offset <= Img.size() && S.Size <= Img.size() - S.Offset;
  };
  for (const ElfSection &S : Secs) {
    if (S.Type == ELF::SHT_REL || S.Type == ELF::SHT_RELR ||
        (S.Type == ELF::SHT_RELA && !(S.Flags & ELF::SHF_ALLOC)))
      return fail(formatv("relocation section {0} (type {1}{2}) is not "
                          "supported: the emulator applies only the loaded "
                          "SHT_RELA records the loader applies",
                          S.Name, S.Type,
                          S.Type == ELF::SHT_RELA ? ", not loaded" : ""));
    if (S.Type != ELF::SHT_RELA)
      continue;
    if (!inImage(S) || S.Size % 24)
      return fail(formatv("relocation section {0} is malformed", S.Name));
    const ElfSection *Sym = S.Link < Secs.size() ? &Secs[S.Link] : nullptr;
    const ElfSection *Str = nullptr;
    if (Sym && (Sym->Type != ELF::SHT_DYNSYM && Sym->Type != ELF::SHT_SYMTAB))
      Sym = nullptr;
    if (Sym && (!inImage(*Sym) || Sym->Size % 24))
      return fail(
          formatv("symbol table {0} of {1} is malformed", Sym->Name, S.Name));
    if (Sym && Sym->Link < Secs.size() && inImage(Secs[Sym->Link]))
      Str = &Secs[Sym->Link];
    for (uint64_t Off = S.Offset; Off < S.Offset + S.Size; Off += 24) {
      const uint8_t *R = Img.data() + Off;
      DynamicRelocation D;
      D.Offset = endian::read64le(R);
      uint64_t Info = endian::read64le(R + 8);
      D.Type = uint32_t(Info);
      uint32_t SymIdx = uint32_t(Info >> 32);
      uint64_t Addend = endian::read64le(R + 16);
      auto where = [&] {
        return formatv("{0} (type {1}) at offset {2:x} in {3}",
                       relocName(D.Type), D.Type, D.Offset, S.Name)
            .str();
      };
      if (D.Type == ELF::R_AMDGPU_NONE)
        continue;
      if (D.Type == ELF::R_AMDGPU_RELATIVE64) {
        // B + A; AMDGPUUsage: a relocation without S names STN_UNDEF.
        if (SymIdx)
          return fail("malformed dynamic relocation " + where() +
                      ": names a symbol");
        D.Target = Addend;
      } else if (D.Type == ELF::R_AMDGPU_ABS64) {
        // S + A, S the loaded address of a symbol the object defines.
        if (!Sym || !SymIdx || uint64_t(SymIdx) * 24 >= Sym->Size)
          return fail("dynamic relocation " + where() + " has no valid symbol");
        const uint8_t *E = Img.data() + Sym->Offset + uint64_t(SymIdx) * 24;
        uint32_t NameOff = endian::read32le(E);
        StringRef Name = "?";
        if (Str && NameOff < Str->Size) {
          StringRef Tab(reinterpret_cast<const char *>(Img.data()) +
                            Str->Offset,
                        Str->Size);
          Name = Tab.substr(NameOff);
          Name = Name.take_until([](char C) { return C == 0; });
        }
        uint8_t Type = E[4] & 0xf;
        uint16_t Shndx = endian::read16le(E + 6);
        uint64_t Value = endian::read64le(E + 8);
        if (Shndx == ELF::SHN_UNDEF)
          return fail(formatv(
              "dynamic relocation {0} refers to the undefined symbol '{1}': "
              "the runtime resolves it from a variable the host defines, "
              "which the emulator does not model",
              where(), Name));
        if (Shndx >= ELF::SHN_LORESERVE ||
            (Type != ELF::STT_OBJECT && Type != ELF::STT_FUNC))
          return fail(formatv("dynamic relocation {0} refers to symbol '{1}' "
                              "(type {2}, section index {3}), which the "
                              "loader does not resolve",
                              where(), Name, Type, Shndx));
        D.Target = Value + Addend;
        D.Symbol = Name.str();
      } else {
        return fail("unsupported dynamic relocation " + where() +
                    ": the emulator applies R_AMDGPU_ABS64 and "
                    "R_AMDGPU_RELATIVE64 only");
      }
      bool InSegment = false;
      for (const ElfSegment &G : CO.segments())
        if (G.Type == ELF::PT_LOAD && D.Offset >= G.VAddr &&
            D.Offset - G.VAddr + 8 <= G.MemSize)
          InSegment = true;
      if (!InSegment)
        return fail("dynamic relocation " + where() +
                    " patches bytes outside every loaded segment");
      Out.push_back(std::move(D));
    }
  }
  return Out;
}

std::string describeAddress(const CodeObject &CO, uint64_t Addr) {
  // A defined object or function that holds the address; ties go to the
  // first in symbol order (the dynamic table comes first).
  for (const ElfSymbol &S : CO.symbols()) {
    if (S.SectionIndex == ELF::SHN_UNDEF ||
        S.SectionIndex >= ELF::SHN_LORESERVE ||
        (S.Type != ELF::STT_OBJECT && S.Type != ELF::STT_FUNC) ||
        S.Name.empty())
      continue;
    if (Addr == S.Value || (Addr > S.Value && Addr - S.Value < S.Size))
      return formatv("{0}+{1}", S.Name, Addr - S.Value).str();
  }
  // Data sections do not move relative to each other; code does.
  const ElfSection *Sec = CO.sectionAt(Addr);
  if (Sec && !Sec->isExec())
    return formatv("{0}+{1}", Sec->Name, Addr - Sec->Addr).str();
  return "";
}

} // namespace emu
} // namespace asmevo
