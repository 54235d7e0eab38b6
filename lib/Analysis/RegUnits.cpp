//===- RegUnits.cpp - Register units: overlap, files, names ---------------===//

#include "asmevo/Analysis/RegUnits.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCRegisterInfo.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

using namespace llvm;
using namespace asmevo;

static int fileIndex(RegKind K) {
  switch (K) {
  case RegKind::SGPR:
    return 0;
  case RegKind::VGPR:
    return 1;
  case RegKind::AGPR:
    return 2;
  case RegKind::TTMP:
    return 3;
  default:
    return -1;
  }
}

const RegUnitInfo &RegUnitInfo::get(const TargetInfo &TI) {
  static std::mutex M;
  static std::map<const TargetInfo *, std::unique_ptr<RegUnitInfo>> Cache;
  std::lock_guard<std::mutex> L(M);
  auto &Slot = Cache[&TI];
  if (!Slot)
    Slot.reset(new RegUnitInfo(TI));
  return *Slot;
}

static std::string cleanName(StringRef N) {
  std::string S = N.lower();
  for (StringRef Suffix : {"_gfxpre11", "_vi", "_ci", "_gfx11plus"})
    if (StringRef(S).ends_with(Suffix))
      S.resize(S.size() - Suffix.size());
  return S;
}

RegUnitInfo::RegUnitInfo(const TargetInfo &TI) : TI(TI) {
  const MCRegisterInfo &MRI = TI.regInfo();
  NumMC = MRI.getNumRegUnits();
  Units.resize(numUnits());
  Remap.resize(NumMC);
  for (unsigned U = 0; U < NumMC; ++U)
    Remap[U] = uint16_t(U);
  {
    // Group encoding-specific copies by their name without the suffix.
    StringMap<MCRegister> Canonical;
    for (unsigned R = 1, E = MRI.getNumRegs(); R < E; ++R) {
      StringRef N = MRI.getName(MCRegister(R));
      bool Suffixed = false;
      for (StringRef Sfx : {"_gfxpre11", "_gfx11plus", "_gfx9plus", "_vi",
                            "_ci"})
        Suffixed |= N.ends_with(Sfx);
      if (!Suffixed)
        Canonical.try_emplace(N, MCRegister(R));
    }
    for (StringRef Sfx : {"_gfx9plus", "_gfxpre11", "_vi", "_ci", "_gfx11plus"})
      for (unsigned R = 1, E = MRI.getNumRegs(); R < E; ++R) {
        StringRef N = MRI.getName(MCRegister(R));
        if (!N.ends_with(Sfx))
          continue;
        StringRef Base = N.drop_back(Sfx.size());
        auto [It, Inserted] = Canonical.try_emplace(Base, MCRegister(R));
        if (Inserted)
          continue; // this copy is the canonical one
        SmallVector<unsigned, 8> From, To;
        for (MCRegUnit U : MRI.regunits(MCRegister(R)))
          From.push_back(static_cast<unsigned>(U));
        for (MCRegUnit U : MRI.regunits(It->second))
          To.push_back(static_cast<unsigned>(U));
        if (From.size() != To.size())
          continue;
        for (size_t I = 0; I < From.size(); ++I)
          Remap[From[I]] = uint16_t(To[I]);
      }
  }
  std::vector<bool> Named(NumMC, false);
  // 32-bit registers of the numbered files first; then tuples.
  for (unsigned R = 1, E = MRI.getNumRegs(); R < E; ++R) {
    RegRange C = TI.classify(MCRegister(R));
    int F = fileIndex(C.Kind);
    if (F < 0 || C.Count == 0)
      continue;
    if (C.Count == 1) {
      if (FileUnits[F].size() <= C.First) {
        FileUnits[F].resize(C.First + 1);
        FileRegs[F].resize(C.First + 1);
      }
      FileRegs[F][C.First] = MCRegister(R);
      UnitList &L = FileUnits[F][C.First];
      for (MCRegUnit U : MRI.regunits(MCRegister(R))) {
        unsigned UI = static_cast<unsigned>(U);
        Units[UI].Kind = C.Kind;
        Units[UI].Index = C.First;
        Named[UI] = true;
        addUnit(L, UI);
      }
    }
    if (Tuples[F].size() <= C.Count)
      Tuples[F].resize(C.Count + 1);
    auto &ByFirst = Tuples[F][C.Count];
    if (ByFirst.size() <= C.First)
      ByFirst.resize(C.First + 1);
    // Several MC registers can describe the same range (e.g. aligned and
    // unaligned classes share registers); the first one wins.
    if (!ByFirst[C.First].isValid())
      ByFirst[C.First] = MCRegister(R);
  }
  // Special registers: name a unit after the smallest register of at most
  // two units that contains it (VCC_LO, EXEC_HI, M0, SCC, MODE, ...).
  for (unsigned Pass = 0; Pass < 2; ++Pass)
    for (unsigned R = 1, E = MRI.getNumRegs(); R < E; ++R) {
      SmallVector<unsigned, 4> Us;
      for (MCRegUnit U : MRI.regunits(MCRegister(R)))
        Us.push_back(static_cast<unsigned>(U));
      if (Us.size() != (Pass == 0 ? 2u : 1u))
        continue;
      std::string N = cleanName(MRI.getName(MCRegister(R)));
      if (Pass == 1) {
        for (StringRef Half : {"_lo16", "_hi16"})
          if (StringRef(N).ends_with(Half))
            N.resize(N.size() - Half.size());
      }
      for (unsigned U : Us)
        if (!Named[U]) {
          Named[U] = true;
          Units[U].Kind = RegKind::Special;
          Units[U].Name = N;
        }
    }
  const char *PseudoNames[] = {"mem.global", "mem.scratch", "mem.lds",
                               "mem.gds", "order"};
  for (unsigned P = 0; P < unsigned(PseudoUnit::Count); ++P) {
    Units[NumMC + P].Kind = RegKind::Special;
    Units[NumMC + P].Name = PseudoNames[P];
  }
}

void RegUnitInfo::unitsOf(MCRegister Reg, UnitList &Out) const {
  for (MCRegUnit U : TI.regInfo().regunits(Reg))
    Out.push_back(Remap[static_cast<unsigned>(U)]);
}

void RegUnitInfo::addUnit(UnitList &L, unsigned U) {
  auto It = std::lower_bound(L.begin(), L.end(), uint16_t(U));
  if (It == L.end() || *It != U)
    L.insert(It, uint16_t(U));
}

void RegUnitInfo::addReg(UnitList &L, MCRegister Reg) const {
  if (!Reg.isValid())
    return;
  for (MCRegUnit U : TI.regInfo().regunits(Reg))
    addUnit(L, Remap[static_cast<unsigned>(U)]);
}

bool RegUnitInfo::intersects(ArrayRef<uint16_t> A, ArrayRef<uint16_t> B) {
  // Most questions (an op's units against each load in flight) compare a
  // short run of units with a list whose units lie elsewhere: the ranges
  // and a binary search decide them before the merge.
  if (A.empty() || B.empty() || A.back() < B.front() || B.back() < A.front())
    return false;
  size_t I = std::lower_bound(A.begin(), A.end(), B.front()) - A.begin();
  size_t J = std::lower_bound(B.begin(), B.end(), A.front()) - B.begin();
  if (A[I] > B.back() || B[J] > A.back())
    return false;
  while (I < A.size() && J < B.size()) {
    if (A[I] == B[J])
      return true;
    if (A[I] < B[J])
      ++I;
    else
      ++J;
  }
  return false;
}

void RegUnitInfo::intersect(ArrayRef<uint16_t> A, ArrayRef<uint16_t> B,
                            UnitList &Out) {
  size_t I = 0, J = 0;
  while (I < A.size() && J < B.size()) {
    if (A[I] == B[J]) {
      addUnit(Out, A[I]);
      ++I, ++J;
    } else if (A[I] < B[J]) {
      ++I;
    } else {
      ++J;
    }
  }
}

bool RegUnitInfo::contains(ArrayRef<uint16_t> A, unsigned U) {
  return std::binary_search(A.begin(), A.end(), uint16_t(U));
}

ArrayRef<uint16_t> RegUnitInfo::unitsOfIndex(RegKind Kind,
                                             unsigned Index) const {
  int F = fileIndex(Kind);
  if (F < 0 || Index >= FileUnits[F].size())
    return {};
  return FileUnits[F][Index];
}

MCRegister RegUnitInfo::regOfIndex(RegKind Kind, unsigned Index) const {
  int F = fileIndex(Kind);
  if (F < 0 || Index >= FileRegs[F].size())
    return MCRegister();
  return FileRegs[F][Index];
}

MCRegister RegUnitInfo::tupleReg(RegKind Kind, unsigned First,
                                 unsigned Count) const {
  int F = fileIndex(Kind);
  if (F < 0 || Count >= Tuples[F].size() || First >= Tuples[F][Count].size())
    return MCRegister();
  return Tuples[F][Count][First];
}

std::string RegUnitInfo::describe(ArrayRef<uint16_t> Us) const {
  // Collect 32-bit registers per file and special names, in order.
  std::vector<unsigned> Idx[4];
  std::vector<std::string> Specials;
  for (uint16_t U : Us) {
    if (U >= Units.size())
      continue;
    int F = fileIndex(Units[U].Kind);
    if (F >= 0)
      Idx[F].push_back(Units[U].Index);
    else
      Specials.push_back(Units[U].Name);
  }
  std::string Out;
  auto Add = [&](const std::string &S) {
    if (!Out.empty())
      Out += ", ";
    Out += S;
  };
  const char *Prefix[4] = {"s", "v", "a", "ttmp"};
  for (int F : {1, 2, 0, 3}) {
    auto &V = Idx[F];
    std::sort(V.begin(), V.end());
    V.erase(std::unique(V.begin(), V.end()), V.end());
    for (size_t I = 0; I < V.size();) {
      size_t J = I;
      while (J + 1 < V.size() && V[J + 1] == V[J] + 1)
        ++J;
      if (I == J)
        Add(std::string(Prefix[F]) + std::to_string(V[I]));
      else
        Add(std::string(Prefix[F]) + "[" + std::to_string(V[I]) + ":" +
            std::to_string(V[J]) + "]");
      I = J + 1;
    }
  }
  std::sort(Specials.begin(), Specials.end());
  Specials.erase(std::unique(Specials.begin(), Specials.end()), Specials.end());
  // Pair halves: vcc_lo + vcc_hi -> vcc.
  std::vector<std::string> Merged;
  auto Has = [&](const std::string &N) {
    return std::binary_search(Specials.begin(), Specials.end(), N);
  };
  for (const std::string &S : Specials) {
    StringRef R(S);
    if (R.ends_with("_hi") && Has(R.drop_back(3).str() + "_lo"))
      continue; // printed with its _lo half
    if (R.ends_with("_lo") && Has(R.drop_back(3).str() + "_hi")) {
      Merged.push_back(R.drop_back(3).str());
      continue;
    }
    Merged.push_back(S);
  }
  for (auto &S : Merged)
    Add(S == "flat_scr" ? "flat_scratch" : S);
  return Out;
}

std::string RegUnitInfo::describe(const BitVector &BV) const {
  UnitList L;
  for (unsigned U : BV.set_bits())
    L.push_back(uint16_t(U));
  return describe(L);
}
