//===- Program.cpp - Pre-decoding instructions for the emulator ----------===//
//
// Each instruction is decoded once (on first execution) into an Inst: the
// handler of its opcode, its data operands (registers and constants from the
// MCInst, implicit VCC made explicit), its modifiers and control fields read
// from the encoding bits (CDNA3 ISA formats VOP3/VOP3P/SDWA/DPP/SMEM/DS/FLAT/
// MUBUF/SOPP), and the registers it reads and writes (for the scoreboard).
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "asmevo/CodeObject/CodeObject.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace asmevo {
namespace emu {

const char *fidelityName(Fidelity F) {
  switch (F) {
  case Fidelity::Exact:
    return "exact";
  case Fidelity::Approximate:
    return "approximate";
  case Fidelity::Unsupported:
    return "unsupported";
  }
  return "?";
}

const char *errorKindName(ErrorKind K) {
  switch (K) {
  case ErrorKind::None:
    return "ok";
  case ErrorKind::Fault:
    return "fault";
  case ErrorKind::Race:
    return "race";
  case ErrorKind::Budget:
    return "budget";
  case ErrorKind::Unsupported:
    return "unsupported";
  case ErrorKind::Approximate:
    return "approximate";
  case ErrorKind::Invalid:
    return "invalid";
  }
  return "?";
}

StringRef baseMnemonic(StringRef M) {
  for (StringRef Suffix : {"_e32", "_e64", "_sdwa", "_dpp"})
    if (M.ends_with(Suffix))
      return M.drop_back(Suffix.size());
  return M;
}

const OpTable &opTable() {
  static OpTable *T = [] {
    auto *Tab = new OpTable;
    registerSalu(*Tab);
    registerValu(*Tab);
    registerMem(*Tab);
    registerMfma(*Tab);
    return Tab;
  }();
  return *T;
}

size_t Emulator::implementedOpcodeCount() {
  size_t N = 0;
  for (auto &E : opTable().Map)
    if (E.second.Fid != Fidelity::Unsupported)
      ++N;
  return N;
}

std::vector<std::pair<std::string, Fidelity>> Emulator::implementedOpcodes() {
  std::vector<std::pair<std::string, Fidelity>> R;
  for (auto &E : opTable().Map)
    R.push_back({E.first().str(), E.second.Fid});
  std::sort(R.begin(), R.end());
  return R;
}

//===----------------------------------------------------------------------===//
// Register classification
//===----------------------------------------------------------------------===//

namespace {
struct SpecialMap {
  DenseMap<unsigned, Opnd> Map;
  void build(TargetInfo &TI) {
    const MCRegisterInfo &MRI = TI.regInfo();
    for (unsigned R = 1; R < MRI.getNumRegs(); ++R) {
      RegRange RR = TI.classify(MCRegister(R));
      if (RR.Kind != RegKind::Special)
        continue;
      StringRef N = MRI.getName(R);
      Opnd O;
      auto sreg = [&](unsigned Idx, unsigned Count) {
        O.Kind = OK::S;
        O.Reg = Idx;
        O.Count = Count;
      };
      auto pair = [&](StringRef Base, unsigned Idx) {
        if (N == Base)
          sreg(Idx, 2);
        else if (N == (Base + "_LO").str())
          sreg(Idx, 1);
        else if (N == (Base + "_HI").str())
          sreg(Idx + 1, 1);
        else
          return false;
        return true;
      };
      auto aperture = [&](StringRef Base, uint64_t V) {
        if (!N.starts_with(Base))
          return false;
        O.Kind = OK::Imm;
        O.Count = 0xff; // aperture marker: 32-bit reads give bits 63:32
        O.Imm = V;
        return true;
      };
      if (pair("VCC", SVccLo) || pair("EXEC", SExecLo) ||
          pair("FLAT_SCR", SFlatScrLo) || pair("XNACK_MASK", SXnackLo)) {
      } else if (N == "M0" || N.starts_with("M0_gfx")) {
        sreg(SM0, 1);
      } else if (N == "SCC" || N == "SRC_SCC") {
        O.Kind = OK::Scc;
      } else if (N == "SRC_EXECZ") {
        O.Kind = OK::Execz;
      } else if (N == "SRC_VCCZ") {
        O.Kind = OK::Vccz;
      } else if (aperture("SRC_SHARED_BASE", Emulator::SharedApertureBase) ||
                 aperture("SRC_SHARED_LIMIT",
                          Emulator::SharedApertureBase | 0xffffffffull) ||
                 aperture("SRC_PRIVATE_BASE", Emulator::PrivateApertureBase) ||
                 aperture("SRC_PRIVATE_LIMIT",
                          Emulator::PrivateApertureBase | 0xffffffffull)) {
      } else {
        O.Kind = OK::Bad;
        O.Imm = R;
      }
      Map[R] = O;
    }
  }
};
} // namespace

static Opnd classifyReg(TargetInfo &TI, const SpecialMap &SM, MCRegister R) {
  Opnd O;
  if (!R)
    return O;
  RegRange RR = TI.classify(R);
  switch (RR.Kind) {
  case RegKind::SGPR:
    O.Kind = OK::S;
    O.Reg = RR.First;
    O.Count = RR.Count;
    return O;
  case RegKind::TTMP:
    O.Kind = OK::S;
    O.Reg = STtmp0 + RR.First;
    O.Count = RR.Count;
    return O;
  case RegKind::VGPR:
    O.Kind = OK::V;
    O.Reg = RR.First;
    O.Count = RR.Count;
    return O;
  case RegKind::AGPR:
    O.Kind = OK::A;
    O.Reg = RR.First;
    O.Count = RR.Count;
    return O;
  default: {
    auto It = SM.Map.find(R.id());
    if (It != SM.Map.end())
      return It->second;
    O.Kind = OK::Bad;
    O.Imm = R.id();
    return O;
  }
  }
}

static const SpecialMap &specialMap(TargetInfo &TI) {
  static std::mutex M;
  static std::map<TargetInfo *, std::unique_ptr<SpecialMap>> Maps;
  std::lock_guard<std::mutex> L(M);
  auto &P = Maps[&TI];
  if (!P) {
    P = std::make_unique<SpecialMap>();
    P->build(TI);
  }
  return *P;
}

static uint32_t word(ArrayRef<uint8_t> B, unsigned I) {
  uint32_t W = 0;
  if (B.size() >= I * 4 + 4)
    std::memcpy(&W, B.data() + I * 4, 4);
  return W;
}

static int64_t sext(uint64_t V, unsigned Bits) {
  return int64_t(V << (64 - Bits)) >> (64 - Bits);
}

//===----------------------------------------------------------------------===//
// Predecode
//===----------------------------------------------------------------------===//

static void unsupportedHandler(Wave &W, const Inst &I) {
  W.fail(ErrorKind::Unsupported, I, I.Error);
}

void Program::predecode(Inst &I, ArrayRef<uint8_t> Bytes) {
  const SpecialMap &SM = specialMap(*TI);
  const DecodedInst *D = I.D;
  unsigned Opc = D->Inst.getOpcode();
  const MCInstrDesc &Desc = TI->desc(Opc);
  uint64_t TS = TI->tsFlags(Opc);
  StringRef Base = baseMnemonic(D->Mnemonic);
  const OpInfo *Info = opTable().find(Base);
  I.Fn = unsupportedHandler;
  if (!Info || Info->Fid == Fidelity::Unsupported) {
    I.Error = (Twine("unimplemented opcode ") + D->Mnemonic + " (" +
               TI->opcodeName(Opc) + ")")
                  .str();
    I.Fid = Fidelity::Unsupported;
    return;
  }
  I.Info = Info;
  I.Fid = Info->Fid;
  I.Aux = Info->Aux;
  if (D16UnusedUnspecified && isD16Load(*Info)) {
    // The unused half is zeroed in plain runs and kept when the observer
    // asks (Memory::Observer::keepD16Unused); a verifier runs both rules.
    // Not an approximate opcode: each rule is exact, and the verifier's
    // question is not which operands the load saw but which rule applies.
    I.D16Unspecified = true;
  }

  // Data operands: those with a register class, defs first.
  unsigned NumDefs = Desc.getNumDefs();
  const MCInst &MI = D->Inst;
  unsigned N = std::min<unsigned>(MI.getNumOperands(), Desc.getNumOperands());
  bool IsDpp = TS & InstFlag::DPP;
  for (unsigned K = 0; K < N; ++K) {
    if (Desc.operands()[K].RegClass == -1)
      continue;
    // DPP: the tied "old" source is the destination's previous value, which
    // the handlers keep by not writing disabled lanes.
    if (IsDpp && K >= NumDefs &&
        Desc.getOperandConstraint(K, MCOI::TIED_TO) != -1)
      continue;
    const MCOperand &MO = MI.getOperand(K);
    Opnd O;
    int64_t Val;
    if (MO.isReg())
      O = classifyReg(*TI, SM, MO.getReg());
    else if (MO.isImm()) {
      O.Kind = OK::Imm;
      O.Imm = uint64_t(MO.getImm());
    } else if (MO.isDFPImm()) {
      O.Kind = OK::Imm;
      O.Imm = MO.getDFPImm();
    } else if (MO.isExpr() && MO.getExpr()->evaluateAsAbsolute(Val)) {
      // Literals printed as lit(...) are constant expressions.
      O.Kind = OK::Imm;
      O.Imm = uint64_t(Val);
    } else {
      O.Kind = OK::Bad;
    }
    if (O.Kind == OK::Bad) {
      I.Error = "operand " + std::to_string(K) + " of " +
                std::string(D->Mnemonic) + " (" +
                (MO.isReg() ? TI->regName(MO.getReg()) : std::string("expr")) +
                ") is a register or value the emulator does not model";
      I.Fid = Fidelity::Unsupported;
      return;
    }
    if (K < NumDefs) {
      if (I.NDst < 2)
        I.Dst[I.NDst++] = O;
    } else if (I.NSrc < 5) {
      I.Src[I.NSrc++] = O;
    }
  }

  uint32_t W0 = word(Bytes, 0), W1 = word(Bytes, 1);
  // VOP2 forms with an inline literal K that is not a register-class operand.
  if ((Base == "v_madmk_f32" || Base == "v_madak_f32" ||
       Base == "v_fmamk_f32" || Base == "v_fmaak_f32") && I.NSrc < 5) {
    Opnd K;
    K.Kind = OK::Imm;
    K.Imm = W1;
    I.Src[I.NSrc++] = K;
  }
  bool IsValu = TS & InstFlag::VALU;
  I.IsValu = IsValu;
  // Encoding of VALU instructions.
  if (IsValu) {
    if (TS & InstFlag::SDWA)
      I.E = Enc::SDWA;
    else if (TS & InstFlag::DPP)
      I.E = Enc::DPP;
    else if ((W0 >> 23) == 0x1A7)
      I.E = Enc::VOP3P;
    else if ((W0 >> 26) == 0x34)
      I.E = Enc::VOP3;
    else
      I.E = Enc::E32;
    // Implicit VCC made explicit for the handlers (e32/SDWA/DPP forms).
    const MCRegisterInfo &MRI = TI->regInfo();
    for (MCPhysReg R : Desc.implicit_defs()) {
      if (StringRef(MRI.getName(R)) == "VCC" && I.NDst < 2) {
        Opnd O;
        O.Kind = OK::S;
        O.Reg = SVccLo;
        O.Count = 2;
        I.Dst[I.NDst++] = O;
      }
    }
    for (MCPhysReg R : Desc.implicit_uses()) {
      if (StringRef(MRI.getName(R)) == "VCC" && I.NSrc < 5) {
        Opnd O;
        O.Kind = OK::S;
        O.Reg = SVccLo;
        O.Count = 2;
        I.Src[I.NSrc++] = O;
      }
    }
  }

  switch (I.E) {
  case Enc::VOP3:
    if (NumDefs >= 2 || (TS & InstFlag::VOPC && NumDefs == 1 &&
                         I.Dst[0].Kind == OK::S && false)) {
      // VOP3b: bits 14:8 are SDST, no abs/op_sel.
    } else if (NumDefs < 2) {
      I.Abs = (W0 >> 8) & 7;
      I.OpSel = (W0 >> 11) & 0xf;
    }
    if (NumDefs >= 2)
      I.Abs = 0;
    I.Clamp = (W0 >> 15) & 1;
    I.Omod = (W1 >> 27) & 3;
    I.Neg = (W1 >> 29) & 7;
    break;
  case Enc::VOP3P:
    if (TS & InstFlag::IsMAI) {
      I.Cbsz = (W0 >> 8) & 7;
      I.Abid = (W0 >> 11) & 0xf;
      I.Blgp = (W1 >> 29) & 7;
    } else {
      I.NegHi = (W0 >> 8) & 7;
      I.OpSel = (W0 >> 11) & 7;
      I.OpSelHi = ((W1 >> 27) & 3) | (((W0 >> 14) & 1) << 2);
      I.Clamp = (W0 >> 15) & 1;
      I.Neg = (W1 >> 29) & 7;
    }
    break;
  case Enc::SDWA: {
    bool IsVopc = TS & InstFlag::VOPC;
    if (!IsVopc) {
      I.DstSel = (W1 >> 8) & 7;
      I.DstUnused = (W1 >> 11) & 3;
      I.Clamp = (W1 >> 13) & 1;
      I.Omod = (W1 >> 14) & 3;
    }
    I.SrcSel[0] = (W1 >> 16) & 7;
    I.SrcSext[0] = (W1 >> 19) & 1;
    I.Neg |= ((W1 >> 20) & 1);
    I.Abs |= ((W1 >> 21) & 1);
    I.SrcSel[1] = (W1 >> 24) & 7;
    I.SrcSext[1] = (W1 >> 27) & 1;
    I.Neg |= ((W1 >> 28) & 1) << 1;
    I.Abs |= ((W1 >> 29) & 1) << 1;
    break;
  }
  case Enc::DPP:
    I.DppCtrl = (W1 >> 8) & 0x1ff;
    I.BoundCtrl = (W1 >> 19) & 1;
    I.Neg = ((W1 >> 20) & 1) | (((W1 >> 22) & 1) << 1);
    I.Abs = ((W1 >> 21) & 1) | (((W1 >> 23) & 1) << 1);
    I.BankMask = (W1 >> 24) & 0xf;
    I.RowMask = (W1 >> 28) & 0xf;
    break;
  default:
    break;
  }
  I.Simple = I.E == Enc::E32 || I.E == Enc::Other ||
             ((I.E == Enc::VOP3) && !I.Neg && !I.Abs && !I.OpSel && !I.Clamp &&
              !I.Omod);

  // Control fields of the other formats.
  if (TS & InstFlag::SOPP) {
    I.Off = sext(W0 & 0xffff, 16);
    I.C0 = W0 & 0xffff;
  } else if (TS & InstFlag::SOPC) {
    I.C0 = (W0 >> 8) & 0xff;
  } else if (TS & InstFlag::SOPK) {
    I.C0 = W0 & 0xffff;
    I.C1 = W1; // s_setreg_imm32_b32 literal
    I.Off = sext(W0 & 0xffff, 16);
  } else if (TS & InstFlag::SMRD) {
    bool Imm = (W0 >> 17) & 1;
    I.Off = Imm ? sext(W1 & 0x1fffff, 21) : 0;
    I.C0 = (W0 >> 14) & 1; // soe
    I.C1 = Imm;
    I.C2 = (W0 >> 16) & 1; // glc
  } else if (TS & InstFlag::DS) {
    I.C0 = W0 & 0xff;         // offset0
    I.C1 = (W0 >> 8) & 0xff;  // offset1
    I.C2 = (W0 >> 16) & 1;    // gds
    I.Off = W0 & 0xffff;      // 16-bit offset
  } else if (TS & InstFlag::FLAT) {
    unsigned Seg = (W0 >> 14) & 3;
    I.C0 = Seg;
    // C1: bit0 lds, bit1 has vaddr, bit2 has saddr (from the LLVM variant).
    StringRef OpName = TI->opcodeName(Opc);
    bool SAddr = OpName.contains("_SADDR") || OpName.contains("_SVS");
    bool VAddr = true;
    if (Seg == 1)
      VAddr = !(OpName.contains("_SADDR") || OpName.contains("_ST_") ||
                OpName.ends_with("_ST")) ||
              OpName.contains("_SVS");
    // The LDS-DMA forms: the lds bit (13) of FLAT/GLOBAL, or gfx940's
    // dedicated global_load_lds_* opcodes, which leave bit 13 clear.
    bool Lds = (Seg != 1 && ((W0 >> 13) & 1)) || OpName.contains("_LOAD_LDS_");
    I.C1 = (Lds ? 1 : 0) | (VAddr ? 2 : 0) | (SAddr ? 4 : 0);
    I.AddrReg = W1 & 0xff;
    I.C2 = (W0 >> 16) & 1; // glc/sc0
    I.Off = Seg == 0 ? int64_t(W0 & 0xfff) : sext(W0 & 0x1fff, 13);
  } else if (TS & InstFlag::MUBUF) {
    I.Off = W0 & 0xfff;
    I.C0 = (W0 >> 12) & 1; // offen
    I.C1 = (W0 >> 13) & 1; // idxen
    I.C2 = (W0 >> 16) & 1; // lds
  }
  if (TS & InstFlag::VM_CNT)
    I.MemCounters |= 1;
  if (TS & InstFlag::LGKM_CNT)
    I.MemCounters |= (TS & (InstFlag::SMRD | InstFlag::FLAT)) ? 4 : 2;
  // LDS-DMA loads (MUBUF/GLOBAL with the lds bit) complete through vmcnt.
  if (((TS & InstFlag::MUBUF) && I.C2) ||
      ((TS & InstFlag::FLAT) && I.C0 != 1 && (I.C1 & 1)))
    I.MemCounters = 1;
  I.IsMem = (TS & (InstFlag::SMRD | InstFlag::DS | InstFlag::FLAT |
                   InstFlag::MUBUF | InstFlag::MTBUF)) != 0;
  I.IsAtomic = TS & (InstFlag::IsAtomicRet | InstFlag::IsAtomicNoRet);

  // Registers read and written, for the scoreboard.
  SmallVector<RegAccess, 8> Acc;
  TI->accesses(MI, Acc);
  for (const RegAccess &A : Acc) {
    Opnd O = classifyReg(*TI, SM, A.Reg);
    RegRef R;
    if (O.Kind == OK::S)
      R.File = 0;
    else if (O.Kind == OK::V)
      R.File = 1;
    else if (O.Kind == OK::A)
      R.File = 2;
    else
      continue;
    R.First = O.Reg;
    R.Count = O.Count;
    if (R.File == 1)
      I.MaxV = std::max<uint16_t>(I.MaxV, R.First + R.Count);
    if (R.File == 2)
      I.MaxA = std::max<uint16_t>(I.MaxA, R.First + R.Count);
    (A.IsDef ? I.Defs : I.Uses).push_back(R);
  }
  I.Fn = Info->Fn;
}

const Inst *Program::decodeAt(CodeRange &R, uint64_t PC, std::string &Err) {
  std::lock_guard<std::mutex> L(M);
  std::atomic<Inst *> &Slot = R.Slots[(PC - R.Begin) >> 2];
  if (Inst *I = Slot.load(std::memory_order_acquire))
    return I;
  ArrayRef<uint8_t> Bytes = R.Bytes.drop_front(PC - R.Begin);
  const DecodedInst *D = TI->decode(Bytes);
  Insts.emplace_back();
  Inst &I = Insts.back();
  I.PC = PC;
  I.Index = ByIndex.size();
  ByIndex.push_back(&I);
  if (!D) {
    I.Size = 4;
    I.Fid = Fidelity::Unsupported;
    std::string Hex;
    raw_string_ostream OS(Hex);
    OS << format_hex(word(Bytes, 0), 10);
    I.Error = "cannot decode the instruction word " + Hex;
    I.Fn = unsupportedHandler;
  } else {
    I.D = D;
    I.Size = D->Size;
    predecode(I, Bytes.take_front(D->Size));
  }
  Slot.store(&I, std::memory_order_release);
  return &I;
}

std::string Program::text(const Inst &I) const {
  if (!I.D)
    return "<undecodable>";
  return TI->print(I.D->Inst);
}

//===----------------------------------------------------------------------===//
// Emulator
//===----------------------------------------------------------------------===//

Emulator::Emulator() = default;
Emulator::~Emulator() = default;

uint64_t Emulator::loadBase() const { return Prog->LoadBase; }

Expected<std::unique_ptr<Emulator>> Emulator::create(const CodeObject &CO) {
  StringRef CPU = CO.cpu();
  bool Is942 = CPU == "gfx940" || CPU == "gfx941" || CPU == "gfx942" ||
               CPU == "gfx950" || CPU == "gfx9-4-generic";
  bool Is90a = CPU == "gfx90a";
  if (!Is942 && !Is90a)
    return createStringError("the emulator supports gfx90a and gfx942 code "
                             "objects, not " +
                             CPU);
  auto TI = TargetInfo::get(CPU == "gfx9-4-generic" ? "gfx942" : CPU,
                            CO.features());
  if (!TI)
    return TI.takeError();
  std::unique_ptr<Emulator> E(new Emulator);
  E->Prog = std::make_unique<Program>();
  Program &P = *E->Prog;
  P.TI = *TI;
  P.CO = &CO;
  P.IsGfx942 = Is942;
  // gfx90a, gfx942, gfx950 and gfx9-4-generic all take sramecc in their
  // target ids (LLVM's FEATURE_SRAMECC); "any" (no setting) may run with
  // it on.
  P.D16UnusedUnspecified = !CO.features().contains("-sramecc");
  P.LoadBase = CodeLoadBase;
  for (const ElfSection &S : CO.sections()) {
    if (!S.isAlloc() || !S.isExec() || !S.hasFileBytes() || !S.Size)
      continue;
    auto Bytes = CO.bytesAt(S.Addr, S.Size);
    if (!Bytes)
      return Bytes.takeError();
    Program::CodeRange R;
    R.Begin = P.LoadBase + S.Addr;
    R.End = R.Begin + S.Size;
    R.Bytes = *Bytes;
    size_t Slots = (S.Size + 3) / 4;
    R.Slots.reset(new std::atomic<Inst *>[Slots]);
    for (size_t K = 0; K < Slots; ++K)
      R.Slots[K].store(nullptr, std::memory_order_relaxed);
    P.Ranges.push_back(std::move(R));
  }
  if (P.Ranges.empty())
    return createStringError(CO.name() + ": no executable section");
  return std::move(E);
}

OpcodeSupport Emulator::support(StringRef Mnemonic) const {
  OpcodeSupport S;
  if (const OpInfo *I = opTable().find(baseMnemonic(Mnemonic))) {
    S.Known = true;
    S.Fid = I->Fid;
  }
  return S;
}

} // namespace emu
} // namespace asmevo
