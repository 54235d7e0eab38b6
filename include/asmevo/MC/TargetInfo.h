//===- TargetInfo.h - LLVM MC facts about one AMDGPU target -----*- C++ -*-===//
//
// The one place where asmevo asks LLVM's AMDGPU tables about instructions:
// decoding (cached by encoding), encoding, printing, assembling, and the
// register facts every later layer relies on (which registers an instruction
// defines and uses, explicitly and implicitly). Nothing here is hand-written
// ISA knowledge; it all comes from MCInstrInfo / MCRegisterInfo.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_MC_TARGETINFO_H
#define ASMEVO_MC_TARGETINFO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCRegister.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

namespace llvm {
class MCAsmInfo;
class MCCodeEmitter;
class MCContext;
class MCDisassembler;
class MCInstPrinter;
class MCInstrDesc;
class MCInstrInfo;
class MCRegisterInfo;
class MCSubtargetInfo;
class Target;
} // namespace llvm

namespace asmevo {

/// The register files of the machine. Special registers that are not part of
/// a numbered file (VCC, EXEC, M0, SCC, ...) are `Special`.
enum class RegKind : uint8_t { SGPR, VGPR, AGPR, TTMP, Special, Unknown };

/// A physical register as a contiguous range in one register file, e.g.
/// s[4:5] = {SGPR, 4, 2}. Special registers carry their LLVM register in
/// `Reg` and First/Count describe 32-bit halves (VCC = VCC_LO, VCC_HI).
struct RegRange {
  RegKind Kind = RegKind::Unknown;
  uint16_t First = 0;
  uint16_t Count = 0;
  llvm::MCRegister Reg;
};

/// Bits of LLVM's AMDGPU MCInstrDesc::TSFlags (SIInstrFlags in LLVM's
/// SIDefines.h, which Debian does not install). TargetInfo checks them against
/// known instructions at start-up and refuses to run if LLVM's layout moved.
namespace InstFlag {
enum : uint64_t {
  SALU = 1ull << 0,
  VALU = 1ull << 1,
  SOP1 = 1ull << 2,
  SOP2 = 1ull << 3,
  SOPC = 1ull << 4,
  SOPK = 1ull << 5,
  SOPP = 1ull << 6,
  VOP1 = 1ull << 7,
  VOP2 = 1ull << 8,
  VOPC = 1ull << 9,
  VOP3 = 1ull << 10,
  VOP3P = 1ull << 12,
  VINTRP = 1ull << 13,
  SDWA = 1ull << 14,
  DPP = 1ull << 15,
  TRANS = 1ull << 16,
  MUBUF = 1ull << 17,
  MTBUF = 1ull << 18,
  SMRD = 1ull << 19,
  MIMG = 1ull << 20,
  EXP = 1ull << 23,
  FLAT = 1ull << 24,
  DS = 1ull << 25,
  VM_CNT = 1ull << 32,
  EXP_CNT = 1ull << 33,
  LGKM_CNT = 1ull << 34,
  SCALAR_STORE = 1ull << 39,
  FlatGlobal = 1ull << 51,
  FPAtomic = 1ull << 53,
  IsMAI = 1ull << 54,
  IsDOT = 1ull << 55,
  FlatScratch = 1ull << 56,
  IsAtomicNoRet = 1ull << 57,
  IsAtomicRet = 1ull << 58,
};
} // namespace InstFlag

/// A decoded instruction with the facts later layers need. Owned by the
/// TargetInfo's decode cache: pointers stay valid for the TargetInfo's life.
struct DecodedInst {
  llvm::MCInst Inst;
  uint8_t Size = 0;
  /// True when MCCodeEmitter re-encodes Inst to exactly the original bytes.
  /// When false the original bytes must be kept (don't-care bits etc.).
  bool ReencodesExactly = false;
  /// "v_add_u32_e32": the first word of the printed instruction.
  std::string Mnemonic;
};

/// How an instruction touches one register.
struct RegAccess {
  llvm::MCRegister Reg;
  bool IsDef = false;
  bool IsImplicit = false;
};

class TargetInfo {
public:
  /// Returns the shared TargetInfo for a processor ("gfx942") and an LLVM
  /// feature string ("+sramecc,-xnack"). Thread-safe; created once.
  static llvm::Expected<TargetInfo *> get(llvm::StringRef CPU,
                                          llvm::StringRef Features = "");
  /// Same, from a target id: "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-".
  static llvm::Expected<TargetInfo *> getForTargetId(llvm::StringRef TargetId);
  ~TargetInfo();

  llvm::StringRef cpu() const { return CPU; }
  llvm::StringRef features() const { return Features; }
  const llvm::MCInstrInfo &instrInfo() const { return *MCII; }
  const llvm::MCRegisterInfo &regInfo() const { return *MRI; }
  const llvm::MCSubtargetInfo &subtarget() const { return *STI; }
  const llvm::MCInstrDesc &desc(unsigned Opcode) const;
  /// LLVM's target-specific flags of an opcode (see InstFlag).
  uint64_t tsFlags(unsigned Opcode) const;

  /// Decodes one instruction at the start of Bytes. Returns null when the
  /// bytes are not a valid instruction for this target (or when fewer bytes
  /// remain than the encoding needs). Results are cached by encoding words.
  const DecodedInst *decode(llvm::ArrayRef<uint8_t> Bytes);

  /// Encodes an instruction. Fails with a message for instructions that the
  /// code emitter cannot encode.
  llvm::Error encode(const llvm::MCInst &Inst,
                     llvm::SmallVectorImpl<uint8_t> &Out) const;

  /// Prints "mnemonic operands" as LLVM's AMDGPU printer does.
  std::string print(const llvm::MCInst &Inst) const;
  /// Splits print() into the mnemonic and the operand text.
  std::pair<std::string, std::string> printSplit(const llvm::MCInst &Inst) const;

  /// Assembles one instruction written in AMDGPU assembly syntax. Errors carry
  /// the assembler's diagnostic.
  llvm::Error assemble(llvm::StringRef Text, llvm::MCInst &Out,
                       llvm::SmallVectorImpl<uint8_t> &Bytes);

  /// True when assembling print(D.Inst) gives Bytes back exactly, so the
  /// text alone is a lossless form. Computed once per distinct encoding.
  bool textRoundTrips(const DecodedInst &D, llvm::ArrayRef<uint8_t> Bytes);

  /// The encoding of "<Mnemonic> 0" for a SOPP instruction with a SIMM16
  /// operand (s_branch, s_cbranch_*, s_waitcnt, s_nop, ...), with the SIMM16
  /// bits clear; or of "<Mnemonic>" when WithImm is false.
  llvm::Expected<uint32_t> soppTemplate(llvm::StringRef Mnemonic,
                                        bool WithImm = true);

  /// MC opcode for an LLVM instruction name, e.g. "S_WAITCNT_vi"; 0 if none.
  unsigned opcodeByName(llvm::StringRef Name) const;
  llvm::StringRef opcodeName(unsigned Opcode) const;

  /// Classifies a physical register into its file and range.
  RegRange classify(llvm::MCRegister Reg) const;
  /// Assembly name of a register ("s[4:5]", "vcc", "v7").
  std::string regName(llvm::MCRegister Reg) const;
  /// True when A and B share any register unit (overlap).
  bool regsOverlap(llvm::MCRegister A, llvm::MCRegister B) const;

  /// Every register the instruction defines or uses, explicit operands
  /// first, then the implicit ones from the instruction description.
  void accesses(const llvm::MCInst &Inst,
                llvm::SmallVectorImpl<RegAccess> &Out) const;

  /// Number of distinct encodings decoded so far (for statistics).
  size_t decodeCacheSize() const;

private:
  TargetInfo() = default;
  llvm::Error init(llvm::StringRef CPU, llvm::StringRef Features);
  llvm::Error checkFlagLayout() const;
  const DecodedInst *decodeUncached(llvm::ArrayRef<uint8_t> Bytes);

  std::string CPU, Features;
  const llvm::Target *TheTarget = nullptr;
  std::unique_ptr<llvm::MCRegisterInfo> MRI;
  std::unique_ptr<llvm::MCAsmInfo> MAI;
  std::unique_ptr<llvm::MCInstrInfo> MCII;
  std::unique_ptr<llvm::MCSubtargetInfo> STI;
  std::unique_ptr<llvm::MCContext> Ctx;
  std::unique_ptr<llvm::MCDisassembler> Disasm;
  std::unique_ptr<llvm::MCInstPrinter> Printer;
  std::unique_ptr<llvm::MCCodeEmitter> Emitter;
  llvm::StringMap<unsigned> OpcodeByName;
  std::vector<RegRange> RegClass; // indexed by MCRegister id

  mutable std::mutex CacheMutex;
  std::deque<DecodedInst> Entries;
  // First word -> entry, for 4-byte instructions; (w0,w1) -> entry for
  // 8-byte ones. A first word whose instruction is longer maps to Long.
  // DenseMap reserves the all-ones keys (empty/tombstone): the 32-bit cache
  // is keyed by the word zero-extended to 64 bits, and 64-bit keys that
  // collide with the reserved ones bypass the cache.
  llvm::DenseMap<uint64_t, const DecodedInst *> Cache32;
  llvm::DenseMap<uint64_t, const DecodedInst *> Cache64;
  llvm::DenseMap<const DecodedInst *, bool> TextRoundTrip;
  llvm::StringMap<uint32_t> SoppTemplates;
};

} // namespace asmevo

#endif // ASMEVO_MC_TARGETINFO_H
