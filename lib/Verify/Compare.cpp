//===- Compare.cpp - Byte comparison of after-states, tolerances ----------===//

#include "Internal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <set>

using namespace llvm;

namespace asmevo {
namespace verify {

const char *verdictName(Verdict V) {
  switch (V) {
  case Verdict::Equivalent: return "EQUIVALENT";
  case Verdict::NotEquivalent: return "NOT EQUIVALENT";
  case Verdict::CannotDecide: return "CANNOT DECIDE";
  }
  return "?";
}

std::string VerdictResult::str() const {
  std::string S = verdictName(V);
  if (!Why.Summary.empty())
    S += ": " + Why.Summary;
  return S;
}

Expected<Tolerance> Tolerance::parse(StringRef S) {
  Tolerance T;
  StringRef Orig = S;
  auto bad = [&]() {
    return createStringError(("bad --tolerance '" + Orig +
                              "': expected [argN:]f32|f64|f16:ulp=N")
                                 .str());
  };
  if (S.starts_with("arg")) {
    auto [A, Rest] = S.split(':');
    unsigned I;
    if (A.drop_front(3).getAsInteger(10, I))
      return bad();
    T.Arg = int(I);
    S = Rest;
  }
  auto [Ty, Rest] = S.split(':');
  if (Ty == "f32")
    T.Bits = 32;
  else if (Ty == "f64")
    T.Bits = 64;
  else if (Ty == "f16")
    T.Bits = 16;
  else
    return bad();
  if (!Rest.consume_front("ulp=") || Rest.getAsInteger(10, T.Ulps))
    return bad();
  return T;
}

std::string Tolerance::str() const {
  return formatv("{0}f{1}:ulp={2}", Arg >= 0 ? formatv("arg{0}:", Arg).str() : "",
                 Bits, Ulps)
      .str();
}

static double halfToDouble(uint16_t H) {
  int E = (H >> 10) & 31, M = H & 1023;
  double V = E == 0    ? std::ldexp(M, -24)
             : E == 31 ? (M ? NAN : INFINITY)
                       : std::ldexp(1024 + M, E - 25);
  return (H & 0x8000) ? -V : V;
}

static uint64_t loadLE(const uint8_t *P, unsigned N) {
  uint64_t V = 0;
  std::memcpy(&V, P, N);
  return V;
}

static std::string fmtG(const char *Fmt, double D) {
  char B[64];
  std::snprintf(B, sizeof B, Fmt, D);
  return B;
}

static std::string valueText(const uint8_t *P, unsigned N) {
  uint64_t V = loadLE(P, N);
  switch (N) {
  case 8: {
    double D;
    std::memcpy(&D, &V, 8);
    return formatv("0x{0:x-16} (f64 {1}, i64 {2})", V,
                   fmtG("%.17g", D), int64_t(V))
        .str();
  }
  case 4: {
    float F;
    uint32_t U = uint32_t(V);
    std::memcpy(&F, &U, 4);
    return formatv("0x{0:x-8} (f32 {1}, i32 {2})", U,
                   fmtG("%.9g", double(F)), int32_t(U))
        .str();
  }
  case 2:
    return formatv("0x{0:x-4} (f16 {1}, i16 {2})", V,
                   fmtG("%.5g", halfToDouble(uint16_t(V))), int16_t(V))
        .str();
  default:
    return formatv("0x{0:x-2}", V).str();
  }
}

static bool isNaN(uint64_t V, unsigned Bits) {
  switch (Bits) {
  case 16: return (V & 0x7c00) == 0x7c00 && (V & 0x3ff);
  case 32: return (V & 0x7f800000) == 0x7f800000 && (V & 0x7fffff);
  default:
    return (V & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
           (V & 0xfffffffffffffull);
  }
}

static uint64_t ulpDistance(uint64_t A, uint64_t B, unsigned Bits) {
  uint64_t Sign = 1ull << (Bits - 1);
  auto ord = [&](uint64_t X) -> int64_t {
    return (X & Sign) ? -int64_t(X & (Sign - 1)) : int64_t(X);
  };
  int64_t D = ord(A) - ord(B);
  return uint64_t(D < 0 ? -D : D);
}

std::optional<Evidence> compareResults(const TestInput &In,
                                       ArrayRef<MemRegion> A,
                                       ArrayRef<MemRegion> B,
                                       ArrayRef<Tolerance> Tols,
                                       StringRef NA, StringRef NB) {
  if (A.size() != B.size()) {
    Evidence E;
    E.Input = In.Name;
    E.Summary = formatv("{0} returns {1} memory regions, {2} {3}", NA, A.size(),
                        NB, B.size());
    return E;
  }
  // Sparse buffers: every page either run touched, as a region of its own;
  // a page one run did not touch holds the fill.
  if (llvm::any_of(A, [](const MemRegion &R) { return R.Sparse != nullptr; })) {
    std::vector<MemRegion> EA, EB;
    for (size_t I = 0; I < A.size(); ++I) {
      const MemRegion &RA = A[I], &RB = B[I];
      if (!RA.Sparse || !RB.Sparse || RA.Base != RB.Base ||
          RA.Size != RB.Size) {
        EA.push_back(RA);
        EB.push_back(RB);
        continue;
      }
      std::set<uint64_t> Offs;
      for (const auto &KV : RA.Pages)
        Offs.insert(KV.first);
      for (const auto &KV : RB.Pages)
        Offs.insert(KV.first);
      for (uint64_t Off : Offs) {
        auto bytes = [&](const MemRegion &R) {
          auto It = R.Pages.find(Off);
          if (It != R.Pages.end())
            return It->second;
          std::vector<uint8_t> D(
              std::min<uint64_t>(SparsePageSize, R.Size - Off));
          R.Sparse->fill(Off, D.data(), D.size());
          return D;
        };
        MemRegion PA, PB;
        PA.Base = PB.Base = RA.Base + Off;
        PA.Size = PB.Size = std::min<uint64_t>(SparsePageSize, RA.Size - Off);
        PA.K = PB.K = MemRegion::Buffer;
        PA.Arg = PB.Arg = RA.Arg;
        PA.Name = PB.Name = RA.Name;
        PA.Data = bytes(RA);
        PB.Data = bytes(RB);
        if (PA.Data == PB.Data)
          continue;
        EA.push_back(std::move(PA));
        EB.push_back(std::move(PB));
      }
    }
    return compareResults(In, EA, EB, Tols, NA, NB);
  }
  std::optional<Evidence> First;
  std::vector<std::string> Others;
  for (size_t I = 0; I < A.size(); ++I) {
    const MemRegion &RA = A[I], &RB = B[I];
    if (RA.K == MemRegion::Guard)
      continue;
    if (RA.Base != RB.Base || RA.Data.size() != RB.Data.size()) {
      Evidence E;
      E.Input = In.Name;
      E.Summary = formatv("region {0}: {1} has {2} bytes at {3:x}, {4} {5} "
                          "bytes at {6:x}",
                          RA.Name, NA, RA.Data.size(), RA.Base, NB,
                          RB.Data.size(), RB.Base);
      if (!First)
        First = E;
      continue;
    }
    if (RA.Data == RB.Data)
      continue;
    const Tolerance *Tol = nullptr;
    for (const Tolerance &T : Tols)
      if (T.Arg < 0 ? RA.K == MemRegion::Buffer : T.Arg == RA.Arg)
        Tol = &T;
    // Offsets relative to the argument's pointer when known.
    uint64_t Origin = RA.Base;
    for (const Footprint &F : In.Footprints)
      if (RA.Arg >= 0 && F.Arg == unsigned(RA.Arg))
        Origin = F.Pointer;
    unsigned Elem = Tol ? Tol->Bits / 8 : 4;
    size_t N = RA.Data.size();
    uint64_t DiffBytes = 0, DiffElems = 0;
    std::optional<size_t> FirstOff;
    int64_t LastElem = INT64_MIN;
    for (size_t Off = 0; Off < N; ++Off) {
      if (RA.Data[Off] == RB.Data[Off])
        continue;
      int64_t Rel = int64_t(RA.Base + Off - Origin);
      int64_t EI = Rel >= 0 ? Rel / Elem : -((-Rel + Elem - 1) / Elem);
      if (Tol) {
        int64_t ElemStart = EI * Elem;
        int64_t S = ElemStart - int64_t(RA.Base - Origin);
        if (S >= 0 && size_t(S) + Elem <= N) {
          uint64_t VA = loadLE(&RA.Data[S], Elem), VB = loadLE(&RB.Data[S], Elem);
          if ((isNaN(VA, Tol->Bits) && isNaN(VB, Tol->Bits)) ||
              ulpDistance(VA, VB, Tol->Bits) <= Tol->Ulps) {
            Off = size_t(S) + Elem - 1; // skip the element
            continue;
          }
        }
      }
      ++DiffBytes;
      if (EI != LastElem) {
        ++DiffElems;
        LastElem = EI;
      }
      if (!FirstOff)
        FirstOff = Off;
    }
    if (!FirstOff)
      continue; // within tolerance
    if (First) {
      Others.push_back(RA.Name);
      continue;
    }
    size_t Off = *FirstOff;
    int64_t Rel = int64_t(RA.Base + Off - Origin);
    int64_t EI = Rel >= 0 ? Rel / Elem : -((-Rel + Elem - 1) / Elem);
    int64_t S = EI * Elem - int64_t(RA.Base - Origin);
    std::string VA = "?", VB = "?";
    if (S >= 0 && size_t(S) + Elem <= N) {
      VA = valueText(&RA.Data[S], Elem);
      VB = valueText(&RB.Data[S], Elem);
    } else {
      VA = valueText(&RA.Data[Off], 1);
      VB = valueText(&RB.Data[Off], 1);
    }
    Evidence E;
    E.Input = In.Name;
    std::string Where =
        Origin != RA.Base || RA.Arg >= 0
            ? formatv("pointer{0}0x{1:x-}", Rel < 0 ? "-" : "+",
                      uint64_t(Rel < 0 ? -Rel : Rel))
                  .str()
            : formatv("offset 0x{0:x-}", Off).str();
    E.Summary = formatv("{0} differs at {1} (element {2} of {3} bytes)",
                        RA.Name, Where, EI, Elem);
    E.Detail = formatv("  input:   {0}\n"
                       "  buffer:  {1} (address {2:x}, {3} bytes{4})\n"
                       "  first difference: byte {5} of the region, {6}, "
                       "element {7} ({8}-byte elements)\n"
                       "  {9}: {10}\n  {11}: {12}\n"
                       "  {13} differing bytes in {14} elements of this region",
                       In.Name, RA.Name, RA.Base, N,
                       Tol ? ", tolerance " + Tol->str() : std::string(),
                       Off, Where, EI, Elem, NA, VA, NB, VB, DiffBytes, DiffElems)
                   .str();
    First = E;
  }
  if (First && !Others.empty()) {
    First->Detail += "\n  also differ:";
    for (const std::string &O : Others)
      First->Detail += " " + O;
  }
  return First;
}

} // namespace verify
} // namespace asmevo
