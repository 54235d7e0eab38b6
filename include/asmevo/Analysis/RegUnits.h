//===- RegUnits.h - Register units: overlap, files, names -------*- C++ -*-===//
//
// Every register fact of the analysis layer is expressed in LLVM's register
// units (MCRegisterInfo::regunits): two registers overlap exactly when they
// share a unit, which handles 64/128/512-bit tuples, VCC vs VCC_LO, EXEC vs
// EXEC_HI and 16-bit halves uniformly. A few pseudo units are appended after
// the MC units so that memory and ordering dependences use the same
// machinery as registers (a store "defines" its address space, a load
// "uses" it).
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_ANALYSIS_REGUNITS_H
#define ASMEVO_ANALYSIS_REGUNITS_H

#include "asmevo/MC/TargetInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace asmevo {

/// A sorted, duplicate-free list of unit numbers (small: most instructions
/// touch fewer than 40 units).
using UnitList = llvm::SmallVector<uint16_t, 8>;

/// Pseudo units after the MC register units.
enum class PseudoUnit : unsigned {
  MemGlobal,  ///< global/constant memory (global_*, buffer_*, s_load, flat)
  MemScratch, ///< private memory (scratch_*, buffer_* on scratch, flat)
  MemLDS,     ///< local data share (ds_*, flat, LDS DMA)
  MemGDS,     ///< global data share / GWS / ordered count
  Order,      ///< side effects: barriers, messages, cache control, ...
  Count
};

class RegUnitInfo {
public:
  /// The unit tables of a target; built once per TargetInfo.
  static const RegUnitInfo &get(const TargetInfo &TI);

  const TargetInfo &target() const { return TI; }
  unsigned numMCUnits() const { return NumMC; }
  unsigned numUnits() const { return NumMC + unsigned(PseudoUnit::Count); }
  unsigned pseudo(PseudoUnit P) const { return NumMC + unsigned(P); }
  bool isPseudo(unsigned U) const { return U >= NumMC; }

  /// Appends the units of Reg (unsorted); use addReg for a sorted list.
  void unitsOf(llvm::MCRegister Reg, UnitList &Out) const;
  /// Adds Reg's units to a sorted unit list.
  void addReg(UnitList &L, llvm::MCRegister Reg) const;
  static void addUnit(UnitList &L, unsigned U);
  static bool intersects(llvm::ArrayRef<uint16_t> A, llvm::ArrayRef<uint16_t> B);
  static void intersect(llvm::ArrayRef<uint16_t> A, llvm::ArrayRef<uint16_t> B,
                        UnitList &Out);
  static bool contains(llvm::ArrayRef<uint16_t> A, unsigned U);

  /// The register file and 32-bit index a unit belongs to (SGPR 4, VGPR 7,
  /// AGPR 0, TTMP 3) or Special for everything else.
  RegKind kindOf(unsigned U) const { return Units[U].Kind; }
  unsigned indexOf(unsigned U) const { return Units[U].Index; }
  /// "vcc_lo", "exec_hi", "m0", "scc", "mode", "mem.global", ...
  llvm::StringRef specialName(unsigned U) const { return Units[U].Name; }
  /// All units of the 32-bit register (Kind, Index), e.g. both 16-bit halves
  /// of v7. Empty when the register does not exist.
  llvm::ArrayRef<uint16_t> unitsOfIndex(RegKind Kind, unsigned Index) const;
  /// The MC register of one 32-bit register of a file (v7 -> VGPR7).
  llvm::MCRegister regOfIndex(RegKind Kind, unsigned Index) const;
  /// The MC register of the tuple Kind[First : First+Count-1]; invalid when
  /// the target has no such tuple (e.g. misaligned).
  llvm::MCRegister tupleReg(RegKind Kind, unsigned First, unsigned Count) const;

  /// Assembly-like description: "v[2:3], s4, vcc, mem.global".
  std::string describe(llvm::ArrayRef<uint16_t> Units) const;
  std::string describe(const llvm::BitVector &Units) const;

private:
  explicit RegUnitInfo(const TargetInfo &TI);
  struct UnitClass {
    RegKind Kind = RegKind::Special;
    uint16_t Index = 0;
    std::string Name;
  };
  /// LLVM has encoding-specific copies of some registers (M0_gfxpre11,
  /// FLAT_SCR_vi, SGPR_NULL_gfxpre11, TTMP0_vi/_gfx9plus) whose units do
  /// not overlap the generic register's; they are the same hardware
  /// register, so their units are mapped onto one canonical set.
  std::vector<uint16_t> Remap;
  const TargetInfo &TI;
  unsigned NumMC = 0;
  std::vector<UnitClass> Units;
  // Per file: units of each 32-bit register, and the register itself.
  std::vector<UnitList> FileUnits[4];
  std::vector<llvm::MCRegister> FileRegs[4];
  // (Kind, First, Count) -> MC register, for renaming tuples.
  std::vector<std::vector<llvm::MCRegister>> Tuples[4];
};

} // namespace asmevo

#endif // ASMEVO_ANALYSIS_REGUNITS_H
