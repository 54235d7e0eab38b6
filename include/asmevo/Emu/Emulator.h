//===- Emulator.h - CPU wavefront emulator for gfx90a/gfx942 ----*- C++ -*-===//
//
// Runs one dispatch of a kernel from an AMDGPU code object on the CPU: the
// embedded executor of asmevo's differential oracle. It is exact where it
// claims to be and refuses where it is not:
//
//  * every opcode has a declared fidelity (exact / approximate /
//    unsupported); executing an unsupported one stops the run with its name;
//  * a register written by a memory instruction is unreadable (and may not be
//    overwritten) until the s_waitcnt that guarantees it (scoreboard per
//    register and counter; SMEM and FLAT return out of order);
//  * every memory access is checked against mapped regions and permissions;
//  * LDS accesses of different waves of a workgroup between two barriers
//    that conflict (write/write, write/read) are reported as races;
//  * global memory: a store unordered with another wave's read in the same
//    barrier interval, and any non-atomic conflict between workgroups, is a
//    race; so are scalar-cache hazards (a scalar load of bytes written in
//    the dispatch, bytes left in a scalar cache without s_dcache_wb);
//  * an instruction budget stops runaway kernels.
//
// See docs/emulator.md for the model and its documented assumptions.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_EMU_EMULATOR_H
#define ASMEVO_EMU_EMULATOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace asmevo {
class CodeObject;
struct KernelInfo;

namespace emu {

/// What the emulator claims about an opcode's results.
enum class Fidelity : uint8_t {
  Exact,       // bit-exact per the ISA definition
  Approximate, // hardware result not specified bit for bit (v_exp_f32, ...)
  Unsupported, // not implemented: executing it is an error
};
const char *fidelityName(Fidelity F);

enum MemPerm : uint8_t { PermRead = 1, PermWrite = 2, PermRW = 3 };

/// A mapped range of the global address space.
struct Region {
  uint64_t Base = 0;
  uint64_t Size = 0;
  uint8_t Perms = PermRW;
  std::string Name;
  std::vector<uint8_t> Data;
  bool contains(uint64_t Addr, uint64_t Len) const {
    return Addr >= Base && Len <= Size && Addr - Base <= Size - Len;
  }
};

/// The global memory image of a dispatch: non-overlapping regions.
class Memory {
public:
  /// Maps a region; fails when it overlaps another one or wraps.
  llvm::Expected<Region *> map(uint64_t Base, uint64_t Size, uint8_t Perms,
                               llvm::StringRef Name);
  /// The region holding all of [Addr, Addr+Len), or null.
  Region *find(uint64_t Addr, uint64_t Len);
  const Region *findByName(llvm::StringRef Name) const;
  /// The region that starts at Base, or null.
  Region *at(uint64_t Base);
  /// Removes the region that starts at Base; false when there is none.
  bool unmap(uint64_t Base);
  llvm::ArrayRef<std::unique_ptr<Region>> regions() const { return Regions; }
  /// First free address >= Hint aligned to Align with Size bytes free.
  uint64_t freeAddress(uint64_t Hint, uint64_t Size, uint64_t Align) const;

  //--- Verification hooks (used by lib/Verify; null = no effect) ----------//
  /// An observer of the dispatches that run on this memory. The emulator
  /// calls it from its worker threads: implementations lock themselves.
  struct Observer {
    virtual ~Observer() = default;
    /// Every global-memory access of a kernel (per lane: vector, scalar,
    /// atomic; the kernarg segment too) goes through this call instead of
    /// find(): it returns the region that holds [Addr, Addr+Len) or null
    /// (the access faults). It may log the access and map() new regions
    /// (never unmap during a run).
    virtual Region *access(Memory &M, uint64_t Addr, uint64_t Len,
                           bool Write) = 0;
    /// Every lane of every executed approximate opcode (and once per
    /// scalar/memory approximate op, Lane = 0). Key hashes the operation
    /// (mnemonic and modifiers) and the lane's operand bits. The returned
    /// mask is XORed into the lane's first VGPR result (VALU ops only), so a
    /// verifier can run kernels under a perturbed implementation of the
    /// approximate functions; return 0 to keep the emulator's value.
    virtual uint32_t approx(uint64_t WorkgroupLinear, unsigned Wave,
                            unsigned Lane, uint64_t Key) = 0;
    /// Non-zero: registers, LDS and private memory that the dispatch ABI
    /// leaves undefined start with pseudo-random values derived from this
    /// seed (workgroup and wave), not zero, so a kernel that reads them
    /// sees what hardware could give it.
    virtual uint64_t poisonSeed() { return 0; }
    /// D16 loads of a code object that may run with SRAM ECC on (it does
    /// not say "-sramecc"): the unused half of the destination is not
    /// specified there. false (plain runs): it is zeroed; true: it is kept,
    /// as without SRAM ECC. A verifier runs both rules.
    virtual bool keepD16Unused() { return false; }
    /// Non-zero: an instruction whose result the hardware does not specify
    /// for its operands (an SMFMAC row with a non-increasing index pair,
    /// lib/Emu/Mfma.cpp) writes, where unspecified, a hash of this seed,
    /// the instruction and the operands that feed the element, instead of
    /// failing. A verifier runs two seeds: K0's output must not change, or
    /// K1 must change the same way (the value is a function of operands).
    virtual uint64_t unspecifiedSeed() { return 0; }
    /// The work-item of the next access() call: workgroup (linear), wave in
    /// the workgroup, lane (64: the wave's scalar unit). Lets a verifier
    /// tell which accesses of a dispatch come from different work-items.
    virtual void accessor(uint64_t WorkgroupLinear, unsigned Wave,
                          unsigned Lane) {}
  };
  Observer *Obs = nullptr;

private:
  std::vector<std::unique_ptr<Region>> Regions; // sorted by Base
};

/// One dispatch: grid, workgroup and the explicit kernel arguments.
struct Dispatch {
  std::array<uint32_t, 3> Workgroups{1, 1, 1};    // number of workgroups
  std::array<uint32_t, 3> WorkgroupSize{64, 1, 1}; // work-items per workgroup
  uint32_t DynamicLds = 0;                        // bytes of dynamic LDS
  /// The kernarg segment as the host fills it: explicit arguments at their
  /// metadata offsets. Hidden arguments are filled by the emulator (as the
  /// ROCm runtime would) unless FillHidden is false. Resized to the
  /// metadata's kernarg segment size when shorter.
  std::vector<uint8_t> Kernarg;
  bool FillHidden = true;
};

struct TimingRequest; // CostModel.h

struct RunOptions {
  unsigned Threads = 0;           // 0: all hardware threads
  uint64_t Budget = 1ull << 28;   // wave-instructions per wave
  bool Trace = false;             // print executed instructions
  bool Profile = false;           // count executed instructions per PC
  bool RefuseApproximate = false; // approximate opcodes are errors
  uint32_t ScratchPerLane = 0;    // 0: from the descriptor (+ dynamic stack)
  uint32_t DynamicStackPerLane = 16384; // extra private bytes per lane when
                                        // the kernel uses a dynamic stack
  llvm::raw_ostream *TraceOut = nullptr; // default: stderr
  /// Kernels with kernarg preload (gfx942): start at the 256-byte
  /// compatibility prologue (which loads the SGPRs itself) instead of at
  /// entry + 256 with preloaded SGPRs, as firmware with preload support does.
  bool KernargPreloadPrologue = false;
  /// Dispatch-wide race checks on global memory (docs/emulator.md): a
  /// store unordered with another workgroup's access or with another wave's
  /// read in the same barrier interval, and scalar-cache incoherence.
  bool GlobalRaceCheck = true;
  /// LDS alignment (docs/emulator.md, "LDS alignment"). Off (default): the
  /// mode ROCm runs every gfx9 queue in (KFD: SH_MEM_CONFIG.ALIGNMENT_MODE
  /// UNALIGNED), where plain DS reads and writes of any width take any byte
  /// address; misaligned ds_read2/ds_write2, atomics, FLAT and LDS-DMA
  /// accesses are refused (not modelled). On: b16 halfword, b32 and wider
  /// dword, atomics natural alignment, else a fault (for a driver that
  /// leaves the mode at an aligned setting).
  bool StrictLdsAlignment = false;
  /// Interleaved scheduling (docs/emulator.md): the waves of CoResident
  /// consecutive workgroups run on one host thread and take turns every
  /// InterleaveEvery instructions (0: only at the events below) and, with
  /// InterleaveAtomics, right after each atomic, so that atomics of
  /// different waves and workgroups contend. Deterministic; Threads is
  /// ignored. Both 0/false: each wave runs until s_barrier or s_endpgm.
  unsigned InterleaveEvery = 0;
  bool InterleaveAtomics = false;
  unsigned CoResident = 4;
  bool interleaved() const { return InterleaveEvery || InterleaveAtomics; }
  /// Timing mode (CostModel.h): also model the dispatch's cycles; the
  /// result goes to Timing->Result. Null: functional run only.
  TimingRequest *Timing = nullptr;
};

enum class ErrorKind : uint8_t {
  None,
  Fault,       // memory access outside mapped/allowed memory
  Race,        // scoreboard or LDS race
  Budget,      // instruction budget exhausted
  Unsupported, // unimplemented opcode or semantics
  Approximate, // approximate opcode refused (RefuseApproximate)
  Invalid,     // invalid program/dispatch (bad PC, decode failure, ...)
};
const char *errorKindName(ErrorKind K);

struct RunResult {
  ErrorKind Kind = ErrorKind::None;
  std::string Message; // empty on success
  uint64_t WaveInstructions = 0;
  uint64_t Waves = 0;
  uint64_t Workgroups = 0;
  double Seconds = 0;
  /// Approximate opcodes executed (mnemonic -> wave-instruction count).
  std::map<std::string, uint64_t> ApproximateOps;
  /// D16 loads executed whose unused half is not specified (SRAM ECC on or
  /// any; Memory::Observer::keepD16Unused). Not approximate opcodes: each
  /// rule is exact, and RunOptions::RefuseApproximate refuses them too.
  uint64_t D16UnspecifiedLoads = 0;
  /// Instructions executed whose results the hardware does not specify for
  /// their operands, given pseudo-random values instead of a failure
  /// (Memory::Observer::unspecifiedSeed).
  uint64_t UnspecifiedResults = 0;
  /// --profile: executed wave-instructions per PC (code-object vaddr).
  std::map<uint64_t, uint64_t> Profile;
  /// Disassembly per profiled PC.
  std::map<uint64_t, std::string> ProfileText;
  bool ok() const { return Kind == ErrorKind::None; }
};

/// Static opcode support of the emulator.
struct OpcodeSupport {
  Fidelity Fid = Fidelity::Unsupported;
  bool Known = false; // the emulator has an entry for this mnemonic
};

/// One dynamic relocation of a code object, as ROCr's loader applies it
/// before any dispatch (AMDGPUUsage "Relocation Records"): the 8 bytes at
/// Offset become load base + Target.
struct DynamicRelocation {
  uint64_t Offset = 0; // r_offset: code-object address of the slot
  uint32_t Type = 0;   // R_AMDGPU_ABS64 or R_AMDGPU_RELATIVE64
  uint64_t Target = 0; // S + A or A, a code-object address
  std::string Symbol;  // S's name (R_AMDGPU_ABS64)
};
/// The object's dynamic relocations. Any other type, an undefined or
/// unresolvable symbol, or a slot outside the loaded segments is an error
/// naming the object, the type and the offset: the emulator never runs a
/// code object whose data the loader would have patched differently.
llvm::Expected<std::vector<DynamicRelocation>>
dynamicRelocations(const CodeObject &CO);
/// "name+offset" of the defined object or function symbol that holds Addr,
/// else of its data section; "" for code outside every symbol or no
/// section. Stable across emission, which moves code but keeps names.
std::string describeAddress(const CodeObject &CO, uint64_t Addr);

/// A kernel loaded for emulation. Decoding happens once per instruction
/// (lazily, shared by all waves and threads).
class Program;

class Emulator {
public:
  /// Prepares a code object (decoder, code segments). The CodeObject must
  /// outlive the Emulator.
  static llvm::Expected<std::unique_ptr<Emulator>> create(const CodeObject &CO);
  ~Emulator();

  /// Maps the code object's loadable segments into Mem at loadBase() (read
  /// only, except writable segments such as .data/.bss) and applies the
  /// dynamic relocations (dynamicRelocations(); its errors are returned).
  llvm::Error mapCodeObject(Memory &Mem) const;
  /// Virtual address of code object address 0.
  uint64_t loadBase() const;

  /// Runs one dispatch of Kernel. Mem must already hold the code object
  /// (mapCodeObject) and every buffer the kernel reads. The kernarg segment,
  /// dispatch packet and queue are mapped by run() and unmapped after.
  RunResult run(const KernelInfo &Kernel, const Dispatch &D, Memory &Mem,
                const RunOptions &Opts);

  /// Support of one mnemonic as printed by LLVM ("v_add_f32_e64").
  OpcodeSupport support(llvm::StringRef Mnemonic) const;
  /// Number of mnemonics (without encoding suffixes) implemented.
  static size_t implementedOpcodeCount();
  /// All implemented base mnemonics with their fidelity.
  static std::vector<std::pair<std::string, Fidelity>> implementedOpcodes();

  /// Virtual addresses chosen for apertures (documented model choices).
  static constexpr uint64_t SharedApertureBase = 0x0001000000000000ull;
  static constexpr uint64_t PrivateApertureBase = 0x0002000000000000ull;
  static constexpr uint64_t CodeLoadBase = 0x00007f0000000000ull;
  static constexpr uint64_t KernargBase = 0x00007e0000000000ull;

private:
  Emulator();
  std::unique_ptr<Program> Prog;
};

/// Sets up and runs an instruction sequence for tests: a kernel made of the
/// given encoded bytes (assembled elsewhere), one wave, with initial SGPR
/// and VGPR values. Returns the final registers. With Workgroups > 1 the
/// snippet runs as that many one-wave workgroups in order (0, 1, ...) under
/// one dispatch-wide race shadow; the registers are the last one's.
/// RunOptions::Threads == 1 takes the shadow's one-thread paths.
struct SnippetState {
  unsigned Workgroups = 1;  // input only
  int WorkgroupIdSgpr = -1; // input only: >= 0, the SGPR set to the id
  std::array<uint32_t, 128> S{};
  std::vector<std::array<uint32_t, 64>> V = std::vector<std::array<uint32_t, 64>>(32);
  std::vector<std::array<uint32_t, 64>> A = std::vector<std::array<uint32_t, 64>>(8);
  uint64_t Exec = ~0ull;
  bool SCC = false;
  uint32_t Mode = 0x3f0; // MODE: round nearest, f32/f64 denormals on
  bool Ieee = true;
  std::vector<uint8_t> Lds = std::vector<uint8_t>(4096);
  /// Input only: the code object's SRAM ECC setting as in its LLVM feature
  /// string ("-sramecc", "+sramecc"; "" is any), which decides D16 loads.
  std::string Features;
};
struct SnippetResult {
  RunResult Run;
  SnippetState State;
};
SnippetResult runSnippet(llvm::StringRef CPU, llvm::ArrayRef<uint8_t> Code,
                         const SnippetState &Init, Memory *Mem = nullptr,
                         const RunOptions &Opts = RunOptions());

} // namespace emu
} // namespace asmevo

#endif // ASMEVO_EMU_EMULATOR_H
