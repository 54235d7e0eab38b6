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
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

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
  ArrayRef<ElfSection> Secs = CO.sections();
  auto fail = [&](const Twine &Msg) {
    return createStringError("code object " + CO.name() + ": " + Msg);
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
    auto RecordsOrErr = CO.relocations(S);
    if (!RecordsOrErr)
      return fail(toString(RecordsOrErr.takeError()));
    const ElfSection *Sym = S.Link < Secs.size() ? &Secs[S.Link] : nullptr;
    if (Sym && (Sym->Type != ELF::SHT_DYNSYM && Sym->Type != ELF::SHT_SYMTAB))
      Sym = nullptr;
    for (const ElfRelocation &R : *RecordsOrErr) {
      DynamicRelocation D;
      D.Offset = R.Offset;
      D.Type = R.Type;
      auto where = [&] {
        return formatv("{0} (type {1}) at offset {2:x} in {3}",
                       relocName(D.Type), D.Type, D.Offset, S.Name)
            .str();
      };
      if (D.Type == ELF::R_AMDGPU_NONE)
        continue;
      if (D.Type == ELF::R_AMDGPU_RELATIVE64) {
        // B + A; AMDGPUUsage: a relocation without S names STN_UNDEF.
        if (R.SymbolIndex)
          return fail("malformed dynamic relocation " + where() +
                      ": names a symbol");
        D.Target = R.Addend;
      } else if (D.Type == ELF::R_AMDGPU_ABS64) {
        // S + A, S the loaded address of a symbol the object defines.
        if (!Sym || !R.SymbolIndex)
          return fail("dynamic relocation " + where() + " has no valid symbol");
        auto SOrErr = CO.symbolAt(*Sym, R.SymbolIndex);
        if (!SOrErr)
          return fail("dynamic relocation " + where() +
                      " has no valid symbol: " + toString(SOrErr.takeError()));
        const ElfSymbol &E = *SOrErr;
        if (E.SectionIndex == ELF::SHN_UNDEF)
          return fail(formatv(
              "dynamic relocation {0} refers to the undefined symbol '{1}': "
              "the runtime resolves it from a variable the host defines, "
              "which the emulator does not model",
              where(), E.Name));
        if (E.SectionIndex >= ELF::SHN_LORESERVE ||
            (E.Type != ELF::STT_OBJECT && E.Type != ELF::STT_FUNC))
          return fail(formatv("dynamic relocation {0} refers to symbol '{1}' "
                              "(type {2}, section index {3}), which the "
                              "loader does not resolve",
                              where(), E.Name, E.Type, E.SectionIndex));
        D.Target = E.Value + R.Addend;
        D.Symbol = E.Name;
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
