//===- TargetInfo.cpp - LLVM MC facts about one AMDGPU target -------------===//

#include "asmevo/MC/TargetInfo.h"

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/TargetParser.h"
#include "llvm/TargetParser/Triple.h"

#include <map>

using namespace llvm;
using namespace asmevo;

static constexpr const char *kTriple = "amdgcn-amd-amdhsa";

static uint32_t readWord(ArrayRef<uint8_t> B, size_t I) {
  return uint32_t(B[I]) | uint32_t(B[I + 1]) << 8 | uint32_t(B[I + 2]) << 16 |
         uint32_t(B[I + 3]) << 24;
}

// DenseMap<uint64_t> reserves ~0 and ~0 - 1 as its empty and tombstone keys.
static bool isCacheable64(uint64_t Key) { return Key < ~uint64_t(0) - 1; }

// Marks a first word whose instruction is longer than 4 bytes.
static const DecodedInst LongMarker{};

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUDisassembler();
void LLVMInitializeAMDGPUAsmParser();
}

static void initializeAMDGPUOnce() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    CrashRecoveryContext::Enable();
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
    LLVMInitializeAMDGPUAsmParser();
  });
}

Expected<TargetInfo *> TargetInfo::get(StringRef CPU, StringRef Features) {
  static std::mutex Mutex;
  static std::map<std::string, std::unique_ptr<TargetInfo>> Instances;
  std::lock_guard<std::mutex> Lock(Mutex);
  std::string Key = (CPU + "|" + Features).str();
  auto It = Instances.find(Key);
  if (It != Instances.end())
    return It->second.get();
  std::unique_ptr<TargetInfo> TI(new TargetInfo());
  if (Error E = TI->init(CPU, Features))
    return std::move(E);
  TargetInfo *Result = TI.get();
  Instances.emplace(Key, std::move(TI));
  return Result;
}

Expected<TargetInfo *> TargetInfo::getForTargetId(StringRef TargetId) {
  // amdgcn-amd-amdhsa--<cpu>[:<feature>(+|-)]*
  StringRef Rest = TargetId;
  if (!Rest.consume_front("amdgcn-amd-amdhsa--"))
    return createStringError("target id '" + TargetId +
                             "' does not start with amdgcn-amd-amdhsa--");
  SmallVector<StringRef, 4> Parts;
  Rest.split(Parts, ':');
  std::string Features;
  for (StringRef F : ArrayRef<StringRef>(Parts).drop_front()) {
    if (F.size() < 2 || (F.back() != '+' && F.back() != '-'))
      return createStringError("malformed feature '" + F + "' in target id '" +
                               TargetId + "'");
    if (!Features.empty())
      Features += ",";
    Features += F.back();
    Features += F.drop_back().str();
  }
  return get(Parts.front(), Features);
}

TargetInfo::~TargetInfo() = default;

Error TargetInfo::init(StringRef CPUName, StringRef FeatureString) {
  initializeAMDGPUOnce();
  CPU = CPUName.str();
  Features = FeatureString.str();
  Triple TT(kTriple);
  std::string Err;
  TheTarget = TargetRegistry::lookupTarget(TT, Err);
  if (!TheTarget)
    return createStringError("AMDGPU target not available in LLVM: " + Err);
  // Ask the target parser first: MC would only warn about an unknown CPU.
  if (llvm::AMDGPU::parseArchAMDGCN(CPU) == llvm::AMDGPU::GK_NONE)
    return createStringError("unsupported AMDGPU processor '" + CPU + "'");
  MRI.reset(TheTarget->createMCRegInfo(TT));
  MCTargetOptions Opts;
  MAI.reset(TheTarget->createMCAsmInfo(*MRI, TT, Opts));
  MCII.reset(TheTarget->createMCInstrInfo());
  STI.reset(TheTarget->createMCSubtargetInfo(TT, CPU, Features));
  if (!MRI || !MAI || !MCII || !STI)
    return createStringError("cannot create MC objects for " + CPU);
  if (!STI->isCPUStringValid(CPU))
    return createStringError("unsupported AMDGPU processor '" + CPU + "'");
  Ctx = std::make_unique<MCContext>(TT, MAI.get(), MRI.get(), STI.get());
  Disasm.reset(TheTarget->createMCDisassembler(*STI, *Ctx));
  Printer.reset(TheTarget->createMCInstPrinter(TT, 0, *MAI, *MCII, *MRI));
  Emitter.reset(TheTarget->createMCCodeEmitter(*MCII, *Ctx));
  if (!Disasm || !Printer || !Emitter)
    return createStringError("cannot create the AMDGPU disassembler, printer "
                             "or code emitter for " + CPU);
  Printer->setPrintImmHex(true);

  for (unsigned Op = 0, E = MCII->getNumOpcodes(); Op != E; ++Op)
    OpcodeByName[MCII->getName(Op)] = Op;
  if (Error E = checkFlagLayout())
    return E;

  // Classify every register once: its 32-bit leaves tell file and range.
  RegClass.resize(MRI->getNumRegs());
  auto leafOf = [&](StringRef Name, RegKind &Kind, unsigned &Index) {
    static const std::pair<StringRef, RegKind> Files[] = {
        {"SGPR", RegKind::SGPR},
        {"VGPR", RegKind::VGPR},
        {"AGPR", RegKind::AGPR},
        {"TTMP", RegKind::TTMP}};
    for (auto &[Prefix, K] : Files) {
      if (!Name.starts_with(Prefix))
        continue;
      StringRef Rest = Name.drop_front(Prefix.size());
      if (Rest.getAsInteger(10, Index))
        return false;
      Kind = K;
      return true;
    }
    return false;
  };
  // The leaf (file, index) of every register, parsed once: the loop below
  // visits every sub-register of every tuple, ~3M visits on gfx942, and
  // parsing the name at each visit was a fifth of a small asmevo-opt run.
  std::vector<std::pair<RegKind, unsigned>> Leaf(MRI->getNumRegs(),
                                                 {RegKind::Unknown, 0});
  for (unsigned R = 1, E = MRI->getNumRegs(); R != E; ++R)
    if (!leafOf(MRI->getName(R), Leaf[R].first, Leaf[R].second))
      Leaf[R] = {RegKind::Unknown, 0};
  for (unsigned R = 1, E = MRI->getNumRegs(); R != E; ++R) {
    RegRange Range;
    Range.Reg = MCRegister(R);
    Range.Kind = RegKind::Special;
    unsigned Min = ~0u, Max = 0, Leaves = 0;
    RegKind LeafKind = RegKind::Unknown;
    bool Mixed = false;
    for (MCSubRegIterator SI(R, MRI.get(), /*IncludeSelf=*/true); SI.isValid();
         ++SI) {
      auto [K, Index] = Leaf[*SI];
      if (K == RegKind::Unknown)
        continue;
      if (LeafKind != RegKind::Unknown && LeafKind != K)
        Mixed = true;
      LeafKind = K;
      Min = std::min(Min, Index);
      Max = std::max(Max, Index);
      ++Leaves;
    }
    if (Leaves && !Mixed) {
      Range.Kind = LeafKind;
      Range.First = Min;
      Range.Count = Max - Min + 1;
    } else {
      // Special registers: count 32-bit halves via sub-registers.
      unsigned Halves = 0;
      for (MCSubRegIterator SI(R, MRI.get()); SI.isValid(); ++SI)
        if (StringRef(MRI->getName(*SI)).ends_with("_LO") ||
            StringRef(MRI->getName(*SI)).ends_with("_HI"))
          ++Halves;
      Range.Count = Halves ? Halves : 1;
    }
    RegClass[R] = Range;
  }
  return Error::success();
}

const MCInstrDesc &TargetInfo::desc(unsigned Opcode) const {
  return MCII->get(Opcode);
}

uint64_t TargetInfo::tsFlags(unsigned Opcode) const {
  return MCII->get(Opcode).TSFlags;
}

// The InstFlag bits mirror LLVM's SIInstrFlags; verify them on instructions
// whose class is certain so that a changed layout fails loudly, not subtly.
Error TargetInfo::checkFlagLayout() const {
  struct Expect {
    const char *Opcode;
    uint64_t Set;
  };
  static const Expect Checks[] = {
      {"S_LOAD_DWORD_IMM_vi", InstFlag::SMRD | InstFlag::LGKM_CNT},
      {"GLOBAL_LOAD_DWORD_vi",
       InstFlag::FLAT | InstFlag::VM_CNT | InstFlag::FlatGlobal},
      {"DS_READ_B32_vi", InstFlag::DS | InstFlag::LGKM_CNT},
      {"V_ADD_U32_e32_gfx9", InstFlag::VALU | InstFlag::VOP2},
      {"S_WAITCNT_vi", InstFlag::SALU | InstFlag::SOPP},
      {"BUFFER_LOAD_DWORD_OFFEN_vi", InstFlag::MUBUF | InstFlag::VM_CNT},
      {"V_EXP_F32_e32_vi", InstFlag::VALU | InstFlag::VOP1 | InstFlag::TRANS},
  };
  for (const Expect &C : Checks) {
    unsigned Op = opcodeByName(C.Opcode);
    if (!Op)
      return createStringError(Twine("LLVM has no opcode ") + C.Opcode +
                               "; this LLVM is not the one asmevo supports");
    if ((tsFlags(Op) & C.Set) != C.Set)
      return createStringError(
          Twine("LLVM's AMDGPU TSFlags layout differs from the one asmevo "
                "was written for (checked on ") +
          C.Opcode + ")");
  }
  return Error::success();
}

unsigned TargetInfo::opcodeByName(StringRef Name) const {
  auto It = OpcodeByName.find(Name);
  return It == OpcodeByName.end() ? 0 : It->second;
}

StringRef TargetInfo::opcodeName(unsigned Opcode) const {
  return MCII->getName(Opcode);
}

size_t TargetInfo::decodeCacheSize() const {
  std::lock_guard<std::mutex> Lock(CacheMutex);
  return Entries.size();
}

const DecodedInst *TargetInfo::decode(ArrayRef<uint8_t> Bytes) {
  if (Bytes.size() < 4)
    return nullptr;
  uint32_t W0 = readWord(Bytes, 0);
  std::lock_guard<std::mutex> Lock(CacheMutex);
  auto It = Cache32.find(W0);
  if (It != Cache32.end()) {
    if (It->second != &LongMarker)
      return It->second;
    if (Bytes.size() >= 8) {
      uint64_t Key = uint64_t(W0) | uint64_t(readWord(Bytes, 4)) << 32;
      if (isCacheable64(Key)) {
        auto It64 = Cache64.find(Key);
        if (It64 != Cache64.end())
          return It64->second;
      }
    }
  }
  return decodeUncached(Bytes);
}

const DecodedInst *TargetInfo::decodeUncached(ArrayRef<uint8_t> Bytes) {
  MCInst Inst;
  uint64_t Size = 0;
  // The decoder reads at most 12 bytes on the targets asmevo supports; give
  // it no more so that the cache keys below are complete.
  ArrayRef<uint8_t> Window = Bytes.take_front(12);
  // LLVM's decoder crashes on a tiny share of arbitrary words; foreign bytes
  // (data, corrupt files) must become "undecodable", not a crash.
  MCDisassembler::DecodeStatus S = MCDisassembler::Fail;
  CrashRecoveryContext CRC;
  if (!CRC.RunSafely([&] {
        S = Disasm->getInstruction(Inst, Size, Window, 0, nulls());
      }))
    return nullptr;
  if (S != MCDisassembler::Success || Size == 0 || Size % 4 != 0 ||
      Size > Window.size())
    return nullptr;
  Entries.emplace_back();
  DecodedInst &D = Entries.back();
  D.Inst = Inst;
  D.Size = Size;
  SmallVector<char, 16> Enc;
  SmallVector<MCFixup, 2> Fixups;
  Emitter->encodeInstruction(Inst, Enc, Fixups, *STI);
  D.ReencodesExactly =
      Fixups.empty() && Enc.size() == Size &&
      std::equal(Enc.begin(), Enc.end(), Window.begin(),
                 [](char A, uint8_t B) { return uint8_t(A) == B; });
  // The printed mnemonic carries the encoding suffix (_e32, _e64, _dpp,
  // _sdwa) that MCInstPrinter::getMnemonic leaves out.
  D.Mnemonic = printSplit(Inst).first;
  uint32_t W0 = readWord(Bytes, 0);
  if (Size == 4) {
    Cache32[W0] = &D;
  } else if (Size == 8) {
    Cache32[W0] = &LongMarker;
    uint64_t Key = uint64_t(W0) | uint64_t(readWord(Bytes, 4)) << 32;
    if (isCacheable64(Key))
      Cache64[Key] = &D;
  }
  return &D;
}

bool TargetInfo::textRoundTrips(const DecodedInst &D,
                                ArrayRef<uint8_t> Bytes) {
  {
    std::lock_guard<std::mutex> Lock(CacheMutex);
    auto It = TextRoundTrip.find(&D);
    if (It != TextRoundTrip.end())
      return It->second;
  }
  MCInst Re;
  SmallVector<uint8_t, 16> Enc;
  bool Same = false;
  if (Error E = assemble(print(D.Inst), Re, Enc))
    consumeError(std::move(E));
  else
    Same = ArrayRef<uint8_t>(Enc) == Bytes.take_front(D.Size);
  std::lock_guard<std::mutex> Lock(CacheMutex);
  TextRoundTrip[&D] = Same;
  return Same;
}

Expected<uint32_t> TargetInfo::soppTemplate(StringRef Mnemonic, bool WithImm) {
  std::string Text = WithImm ? (Mnemonic + " 0").str() : Mnemonic.str();
  {
    std::lock_guard<std::mutex> Lock(CacheMutex);
    auto It = SoppTemplates.find(Text);
    if (It != SoppTemplates.end())
      return It->second;
  }
  MCInst Inst;
  SmallVector<uint8_t, 8> Enc;
  if (Error E = assemble(Text, Inst, Enc))
    return std::move(E);
  if (Enc.size() != 4)
    return createStringError("'" + Text + "' is not a 4-byte instruction");
  uint32_t W = readWord(Enc, 0);
  if (WithImm && (W & 0xffff))
    return createStringError("'" + Text + "' has no SIMM16 field");
  std::lock_guard<std::mutex> Lock(CacheMutex);
  SoppTemplates[Text] = W;
  return W;
}

Error TargetInfo::encode(const MCInst &Inst,
                         SmallVectorImpl<uint8_t> &Out) const {
  SmallVector<char, 16> Enc;
  SmallVector<MCFixup, 2> Fixups;
  Emitter->encodeInstruction(Inst, Enc, Fixups, *STI);
  if (!Fixups.empty())
    return createStringError("instruction '" + print(Inst) +
                             "' needs a relocation; asmevo encodes only "
                             "resolved instructions");
  if (Enc.empty() || Enc.size() % 4)
    return createStringError("cannot encode '" + print(Inst) + "'");
  Out.append(Enc.begin(), Enc.end());
  return Error::success();
}

std::string TargetInfo::print(const MCInst &Inst) const {
  std::string S;
  raw_string_ostream OS(S);
  Printer->printInst(&Inst, 0, "", *STI, OS);
  StringRef T = StringRef(S).trim();
  return T.str();
}

std::pair<std::string, std::string>
TargetInfo::printSplit(const MCInst &Inst) const {
  std::string Text = print(Inst);
  size_t Space = Text.find_first_of(" \t");
  if (Space == std::string::npos)
    return {Text, ""};
  return {Text.substr(0, Space), StringRef(Text).substr(Space).trim().str()};
}

namespace {
/// Keeps the instructions the assembler emits; nothing else is expected.
class CaptureStreamer : public MCStreamer {
public:
  explicit CaptureStreamer(MCContext &Ctx) : MCStreamer(Ctx) {}
  SmallVector<MCInst, 1> Insts;
  unsigned Other = 0;

  void emitInstruction(const MCInst &Inst,
                       const MCSubtargetInfo &) override {
    Insts.push_back(Inst);
  }
  bool emitSymbolAttribute(MCSymbol *, MCSymbolAttr) override { return true; }
  void emitCommonSymbol(MCSymbol *, uint64_t, Align) override { ++Other; }
  void emitZerofill(MCSection *, MCSymbol *, uint64_t, Align,
                    SMLoc) override {
    ++Other;
  }
};
} // namespace

Error TargetInfo::assemble(StringRef Text, MCInst &Out,
                           SmallVectorImpl<uint8_t> &Bytes) {
  SourceMgr SrcMgr;
  std::string Source = Text.str() + "\n";
  SrcMgr.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Source), SMLoc());
  std::string Diag;
  SrcMgr.setDiagHandler(
      [](const SMDiagnostic &D, void *Context) {
        auto *S = static_cast<std::string *>(Context);
        if (!S->empty())
          *S += "; ";
        *S += D.getMessage().str();
      },
      &Diag);
  Triple TT(kTriple);
  MCContext AsmCtx(TT, MAI.get(), MRI.get(), STI.get(), &SrcMgr);
  std::unique_ptr<MCObjectFileInfo> MOFI(
      TheTarget->createMCObjectFileInfo(AsmCtx, /*PIC=*/false));
  AsmCtx.setObjectFileInfo(MOFI.get());
  CaptureStreamer Str(AsmCtx);
  TheTarget->createNullTargetStreamer(Str);
  std::unique_ptr<MCAsmParser> Parser(
      createMCAsmParser(SrcMgr, AsmCtx, Str, *MAI));
  MCTargetOptions Opts;
  std::unique_ptr<MCTargetAsmParser> TAP(
      TheTarget->createMCAsmParser(*STI, *Parser, *MCII, Opts));
  if (!TAP)
    return createStringError("no AMDGPU assembly parser");
  Parser->setTargetParser(*TAP);
  bool Failed = Parser->Run(/*NoInitialTextSection=*/false);
  if (Failed || !Diag.empty())
    return createStringError(Diag.empty() ? "cannot assemble '" + Text.str() +
                                                "'"
                                          : Diag);
  if (Str.Insts.size() != 1)
    return createStringError("expected exactly one instruction in '" +
                             Text.str() + "'");
  Out = Str.Insts.front();
  return encode(Out, Bytes);
}

RegRange TargetInfo::classify(MCRegister Reg) const {
  if (!Reg.isValid() || Reg.id() >= RegClass.size())
    return RegRange();
  return RegClass[Reg.id()];
}

std::string TargetInfo::regName(MCRegister Reg) const {
  RegRange R = classify(Reg);
  const char *Prefix = nullptr;
  switch (R.Kind) {
  case RegKind::SGPR:
    Prefix = "s";
    break;
  case RegKind::VGPR:
    Prefix = "v";
    break;
  case RegKind::AGPR:
    Prefix = "a";
    break;
  case RegKind::TTMP:
    Prefix = "ttmp";
    break;
  default:
    return StringRef(MRI->getName(Reg)).lower();
  }
  if (R.Count == 1)
    return (Twine(Prefix) + Twine(R.First)).str();
  return (Twine(Prefix) + "[" + Twine(R.First) + ":" +
          Twine(R.First + R.Count - 1) + "]")
      .str();
}

bool TargetInfo::regsOverlap(MCRegister A, MCRegister B) const {
  return MRI->regsOverlap(A, B);
}

void TargetInfo::accesses(const MCInst &Inst,
                          SmallVectorImpl<RegAccess> &Out) const {
  const MCInstrDesc &D = MCII->get(Inst.getOpcode());
  unsigned NumDefs = D.getNumDefs();
  for (unsigned I = 0, E = Inst.getNumOperands(); I != E; ++I) {
    const MCOperand &Op = Inst.getOperand(I);
    if (!Op.isReg() || !Op.getReg().isValid())
      continue;
    // Tied uses (e.g. the accumulator of v_mac) are operands of their own
    // in the MCInst, so they are listed as uses here too.
    Out.push_back({Op.getReg(), I < NumDefs, false});
  }
  for (MCPhysReg R : D.implicit_uses())
    Out.push_back({MCRegister(R), false, true});
  for (MCPhysReg R : D.implicit_defs())
    Out.push_back({MCRegister(R), true, true});
}
