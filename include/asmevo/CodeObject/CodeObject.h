//===- CodeObject.h - A read-only view of an AMDGPU code object -*- C++ -*-===//
//
// Parses an AMDGPU HSA code object (ELF64, code object v4/v5/v6): sections,
// symbols, program headers, the AMDGPU metadata note (msgpack) and every
// kernel descriptor. Every malformed input yields an llvm::Error naming the
// file and, where it applies, the kernel and byte offset; nothing here
// asserts on input.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_CODEOBJECT_CODEOBJECT_H
#define ASMEVO_CODEOBJECT_CODEOBJECT_H

#include "asmevo/CodeObject/KernelDescriptor.h"
#include "asmevo/CodeObject/Metadata.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace asmevo {

struct ElfSection {
  std::string Name;
  uint32_t Index = 0;
  uint32_t Type = 0;
  uint64_t Flags = 0;
  uint64_t Addr = 0;
  uint64_t Offset = 0;
  uint64_t Size = 0;
  uint64_t Align = 0;
  uint32_t Link = 0;
  uint32_t Info = 0;
  uint64_t EntSize = 0;
  bool isAlloc() const;
  bool isExec() const;
  bool hasFileBytes() const; // not SHT_NOBITS
};

struct ElfSegment {
  uint32_t Type = 0;
  uint32_t Flags = 0;
  uint64_t Offset = 0;
  uint64_t VAddr = 0;
  uint64_t FileSize = 0;
  uint64_t MemSize = 0;
  uint64_t Align = 0;
};

struct ElfSymbol {
  std::string Name;
  uint64_t Value = 0;
  uint64_t Size = 0;
  uint8_t Type = 0;    // STT_*
  uint8_t Binding = 0; // STB_*
  uint8_t Other = 0;
  uint16_t SectionIndex = 0;
  bool Dynamic = false;      // from .dynsym (else .symtab)
  uint64_t RecordOffset = 0; // file offset of its Elf64_Sym record
};

/// One record of an SHT_RELA section, as LLVM's ELF reader decodes it.
struct ElfRelocation {
  uint64_t RecordOffset = 0; // file offset of its Elf64_Rela record
  uint64_t Offset = 0;       // r_offset
  uint32_t Type = 0;         // R_AMDGPU_*
  uint32_t SymbolIndex = 0;  // into the section's linked symbol table
  int64_t Addend = 0;
};

/// One kernel: its descriptor, its code and its metadata.
struct KernelInfo {
  std::string Name;          // "axpy"
  std::string DescriptorSym; // "axpy.kd"
  uint64_t DescriptorAddr = 0;
  KernelDescriptor KD;
  uint64_t CodeAddr = 0; // DescriptorAddr + KD.KernelCodeEntryByteOffset
  uint64_t CodeSize = 0; // from the function symbol; 0 if unknown
  std::optional<KernelMetadata> Meta;
};

class CodeObject {
public:
  /// Reads and parses a file. Errors name the file.
  static llvm::Expected<std::unique_ptr<CodeObject>> load(llvm::StringRef Path);
  /// Parses a buffer; Name is used in diagnostics.
  static llvm::Expected<std::unique_ptr<CodeObject>>
  parse(std::unique_ptr<llvm::MemoryBuffer> Buffer, llvm::StringRef Name);

  llvm::StringRef name() const { return Name; }
  llvm::ArrayRef<uint8_t> image() const;

  /// Processor name, e.g. "gfx942".
  llvm::StringRef cpu() const { return CPU; }
  /// LLVM feature string derived from the ELF flags, e.g. "+sramecc,-xnack".
  llvm::StringRef features() const { return Features; }
  /// Target id as in the metadata: "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-".
  llvm::StringRef targetId() const { return TargetId; }
  /// Code object version: 4, 5 or 6.
  unsigned version() const { return Version; }
  uint32_t elfFlags() const { return EFlags; }

  llvm::ArrayRef<ElfSection> sections() const { return Sections; }
  llvm::ArrayRef<ElfSegment> segments() const { return Segments; }
  llvm::ArrayRef<ElfSymbol> symbols() const { return Symbols; }
  const ElfSection *section(llvm::StringRef Name) const;
  /// The section whose [Addr, Addr+Size) holds the virtual address.
  const ElfSection *sectionAt(uint64_t VAddr) const;
  /// The records of SHT_RELA section S. The loader and emission both read
  /// them; a malformed section is an error naming it.
  llvm::Expected<std::vector<ElfRelocation>>
  relocations(const ElfSection &S) const;
  /// Entry Index of symbol table section Table (SHT_SYMTAB or SHT_DYNSYM),
  /// with its name; an error when either is out of range.
  llvm::Expected<ElfSymbol> symbolAt(const ElfSection &Table,
                                     uint32_t Index) const;

  /// File bytes at a virtual address (must lie in one section with bytes).
  llvm::Expected<llvm::ArrayRef<uint8_t>> bytesAt(uint64_t VAddr,
                                                  uint64_t Size) const;

  llvm::ArrayRef<KernelInfo> kernels() const { return Kernels; }
  const KernelInfo *kernel(llvm::StringRef Name) const;

  /// One NT_AMDGPU_METADATA note. Most objects have one; Tensile objects
  /// carry one per kernel, which loaders merge.
  struct MetadataNote {
    std::unique_ptr<llvm::msgpack::Document> Doc;
    uint64_t Offset = 0; // file offset of the note's descriptor bytes
    uint64_t Size = 0;
  };
  llvm::ArrayRef<MetadataNote> metadataNotes() const { return Notes; }
  /// The first metadata document (an empty one when there is no note).
  const llvm::msgpack::Document &metadataDocument() const;
  /// The `amdhsa.kernels` entry whose `.symbol` is Symbol, from any note.
  const llvm::msgpack::DocNode *kernelMetadataNode(llvm::StringRef Symbol) const;

  ~CodeObject();

private:
  CodeObject();
  llvm::Error parseImpl();

  std::string Name;
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  std::string CPU, Features, TargetId;
  unsigned Version = 0;
  uint32_t EFlags = 0;
  std::vector<ElfSection> Sections;
  std::vector<ElfSegment> Segments;
  std::vector<ElfSymbol> Symbols;
  std::vector<KernelInfo> Kernels;
  std::vector<MetadataNote> Notes;
  std::unique_ptr<llvm::msgpack::Document> EmptyDoc;
  // Lookups by name, so that per-kernel work stays linear in objects with
  // thousands of kernels (Tensile's have one metadata note per kernel).
  llvm::StringMap<size_t> KernelIndex;
  llvm::StringMap<const llvm::msgpack::DocNode *> MetadataBySymbol;
};

} // namespace asmevo

#endif // ASMEVO_CODEOBJECT_CODEOBJECT_H
