//===- Spec.cpp - Dispatch spec parsing (docs/run-spec.md) ----------------===//

#include "asmevo/Verify/Spec.h"
#include "asmevo/CodeObject/CodeObject.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdint>
#include <cstring>
#include <random>
#include <set>

using namespace llvm;

namespace asmevo {
namespace verify {

static Error readTriple(const json::Object &O, StringRef Key,
                        std::array<uint32_t, 3> &Out) {
  const json::Value *V = O.get(Key);
  if (!V)
    return Error::success();
  const json::Array *A = V->getAsArray();
  if (!A || A->empty() || A->size() > 3)
    return createStringError(("\"" + Key + "\" must be an array of 1-3 "
                              "positive integers")
                                 .str());
  Out = {1, 1, 1};
  for (size_t K = 0; K < A->size(); ++K) {
    auto I = (*A)[K].getAsInteger();
    if (!I || *I <= 0 || *I > 0xffffffffll)
      return createStringError(
          ("\"" + Key + "\" must hold positive integers").str());
    Out[K] = uint32_t(*I);
  }
  return Error::success();
}

static Expected<std::vector<uint8_t>> hexBytes(StringRef Hex) {
  std::vector<uint8_t> B;
  if (Hex.size() % 2)
    return createStringError("\"bytes\" needs an even number of hex digits");
  for (size_t K = 0; K < Hex.size(); K += 2) {
    unsigned V;
    if (Hex.substr(K, 2).getAsInteger(16, V))
      return createStringError("\"bytes\" is not hex");
    B.push_back(uint8_t(V));
  }
  return B;
}

/// Index-array fills (docs/run-spec.md), elements of W = 32 or 64 bits:
///   index-iW:SEED:N           values in [0, N) (gathers, scatters);
///   arith-iW:START:STEP[:R]   START + STEP * (k / R): CSR row offsets
///                             (R = 1), sorted COO row indices (R > 1);
///   cols-iW:SEED:N:RUN[:B]    runs of RUN sorted distinct values in
///                             [B, B + N) (B = index base, default 0): the
///                             column indices of CSR/COO rows of RUN
///                             entries each, sorted as rocSPARSE requires.
static Error indexFill(StringRef Fill, std::vector<uint8_t> &Data) {
  auto [Kind, Rest] = Fill.split(':');
  auto [KindName, WidthS] = Kind.split("-i");
  unsigned W = 0;
  if (WidthS.getAsInteger(10, W) || (W != 32 && W != 64))
    return createStringError(("fill " + Kind +
                              ": the element width must be "
                              "i32 or i64")
                                 .str());
  SmallVector<StringRef, 4> F;
  Rest.split(F, ':');
  int64_t Lo = W == 32 ? INT32_MIN : INT64_MIN;
  int64_t Hi = W == 32 ? INT32_MAX : INT64_MAX;
  size_t Elt = W / 8, Count = Data.size() / Elt;
  auto put = [&](size_t K, int64_t V) {
    if (W == 32) {
      int32_t V32 = int32_t(V);
      std::memcpy(&Data[K * 4], &V32, 4);
    } else {
      std::memcpy(&Data[K * 8], &V, 8);
    }
  };
  auto bad = [&](const Twine &Msg) {
    return createStringError(("fill " + Fill + ": " + Msg).str());
  };
  if (KindName == "index") {
    uint64_t Seed, N;
    if (F.size() != 2 || F[0].getAsInteger(10, Seed) ||
        F[1].getAsInteger(10, N) || N == 0 || N > uint64_t(Hi) + 1)
      return bad(Kind + " needs SEED:N with 0 < N <= 2^" + Twine(W - 1));
    // The same stream as before for i32 (specs of bench/ rely on it).
    std::mt19937_64 G(Seed);
    for (size_t K = 0; K < Count; ++K)
      put(K, int64_t(G() % N));
    return Error::success();
  }
  if (KindName == "arith") {
    int64_t Start, Step, Repeat = 1;
    if (F.size() < 2 || F.size() > 3 || F[0].getAsInteger(10, Start) ||
        F[1].getAsInteger(10, Step) ||
        (F.size() == 3 && (F[2].getAsInteger(10, Repeat) || Repeat <= 0)))
      return bad(Kind + " needs START:STEP or START:STEP:REPEAT (REPEAT > 0)");
    for (size_t K = 0; K < Count; ++K) {
      // In 128 bits: a wrapped value must be an error, not a wrong index.
      __int128 V = __int128(Start) + __int128(Step) * __int128(K / Repeat);
      if (V < Lo || V > Hi)
        return bad("leaves the i" + Twine(W) + " range");
      put(K, int64_t(V));
    }
    return Error::success();
  }
  if (KindName == "cols") {
    uint64_t Seed, N, Run;
    int64_t Base = 0;
    if (F.size() < 3 || F.size() > 4 || F[0].getAsInteger(10, Seed) ||
        F[1].getAsInteger(10, N) || F[2].getAsInteger(10, Run) || Run == 0 ||
        N < Run || N > uint64_t(Hi) + 1 ||
        (F.size() == 4 && (F[3].getAsInteger(10, Base) || Base < 0 ||
                           uint64_t(Base) > uint64_t(Hi) - (N - 1))))
      return bad(Kind + " needs SEED:N:RUN[:BASE] with 0 < RUN <= N and "
                        "BASE + N - 1 in range");
    std::mt19937_64 G(Seed);
    for (size_t K0 = 0; K0 < Count; K0 += Run) {
      // RUN distinct values out of [0, N) (Floyd's sampling), sorted.
      std::set<uint64_t> S;
      for (uint64_t J = N - Run; J < N; ++J) {
        uint64_t T = G() % (J + 1);
        if (!S.insert(T).second)
          S.insert(J);
      }
      size_t K = K0;
      for (uint64_t V : S)
        if (K < Count)
          put(K++, Base + int64_t(V));
    }
    return Error::success();
  }
  return bad("unknown index fill '" + KindName + "'");
}

Expected<DispatchSpec> parseSpec(StringRef Json, const KernelInfo &K,
                                 StringRef SpecDir, StringRef SpecPath) {
  auto err = [&](const Twine &Msg) -> Error {
    return createStringError((SpecPath + ": " + Msg).str());
  };
  if (!K.Meta)
    return err("kernel '" + K.Name +
               "' has no metadata (kernarg layout unknown)");
  auto SpecV = json::parse(Json);
  if (!SpecV)
    return err(toString(SpecV.takeError()));
  const json::Object *Spec = SpecV->getAsObject();
  if (!Spec)
    return err("the spec must be a JSON object");

  DispatchSpec Out;
  Out.Name = SpecPath.str();
  emu::Dispatch &D = Out.Launch;
  if (Error E = readTriple(*Spec, "workgroups", D.Workgroups))
    return err(toString(std::move(E)));
  if (Error E = readTriple(*Spec, "workgroup_size", D.WorkgroupSize))
    return err(toString(std::move(E)));
  if (const json::Value *L = Spec->get("dynamic_lds")) {
    auto I = L->getAsInteger();
    if (!I || *I < 0 || *I > 65536)
      return err("bad dynamic_lds");
    D.DynamicLds = uint32_t(*I);
  }
  const json::Array *Args = Spec->getArray("args");
  std::vector<const KernelArgMetadata *> Explicit;
  for (const KernelArgMetadata &A : K.Meta->Args)
    if (!A.isHidden())
      Explicit.push_back(&A);
  size_t NArgs = Args ? Args->size() : 0;
  if (NArgs != Explicit.size())
    return err(formatv("{0} args given, kernel '{1}' has {2} explicit "
                       "arguments",
                       NArgs, K.Name, Explicit.size()));

  D.Kernarg.assign(K.Meta->KernargSegmentSize, 0);
  uint32_t DynLdsOffset = K.KD.GroupSegmentFixedSize;
  for (size_t I = 0; I < NArgs; ++I) {
    const KernelArgMetadata &A = *Explicit[I];
    const json::Object *O = (*Args)[I].getAsObject();
    std::string Where = formatv("args[{0}]", I).str();
    if (!O)
      return err(Where + " must be an object");
    auto putBytes = [&](const void *P, size_t N) -> bool {
      if (N != A.Size)
        return false;
      if (A.Offset + N > D.Kernarg.size())
        D.Kernarg.resize(A.Offset + N);
      std::memcpy(D.Kernarg.data() + A.Offset, P, N);
      return true;
    };
    auto sizeError = [&](StringRef Kind) {
      return err(formatv("{0}: {1} does not fit argument '{2}' of {3} bytes "
                         "({4})",
                         Where, Kind, A.Name, A.Size, A.ValueKind));
    };
    if (O->get("buffer") || O->get("buffer_size")) {
      // A pointer passed by value (Tensile's assembly kernels declare
      // AddressA... as by_value u64) takes a buffer as well: the entry says
      // it is a pointer, the metadata cannot.
      if (!(A.ValueKind == "global_buffer" || A.ValueKind == "by_value") ||
          A.Size != 8)
        return err(Where + ": a buffer for argument '" + A.Name +
                   "' which is " + A.ValueKind + " of " +
                   std::to_string(A.Size) + " bytes");
      SpecBuffer B;
      B.ArgIndex = unsigned(I);
      B.KernargOffset = A.Offset;
      if (auto F = O->getString("buffer")) {
        SmallString<256> P(*F);
        if (!sys::path::is_absolute(P) && !SpecDir.empty())
          P = (SpecDir + "/" + *F).str();
        auto Buf = MemoryBuffer::getFile(P);
        if (!Buf)
          return err(Where + ": cannot read " + P);
        B.Data.assign((*Buf)->getBufferStart(), (*Buf)->getBufferEnd());
      } else {
        auto N = O->getInteger("buffer_size");
        if (!N || *N < 0 || *N > (int64_t(1) << 36))
          return err(Where + ": bad buffer_size");
        B.Data.assign(size_t(*N), 0);
        StringRef Fill = O->getString("fill").value_or("zero");
        if (Fill.consume_front("random:")) {
          uint64_t Seed;
          if (Fill.getAsInteger(10, Seed))
            return err(Where + ": bad random seed");
          std::mt19937_64 G(Seed);
          for (auto &X : B.Data)
            X = uint8_t(G());
        } else if (Fill.starts_with("int-f32:") ||
                   Fill.starts_with("int-f16:") ||
                   Fill.starts_with("int-f64:")) {
          // Small integers (-3..3) as floats: sums of products stay exact in
          // any order, so a host reference can check a GEMM bit for bit.
          // f32/f64 take an optional range SEED:LO:HI (e.g. 1:3, no zeros:
          // a divisor, a pivot).
          StringRef Kind = Fill.take_front(7);
          auto [SeedS, Range] = Fill.drop_front(8).split(':');
          uint64_t Seed;
          int64_t Lo = -3, Hi = 3;
          if (SeedS.getAsInteger(10, Seed))
            return err(Where + ": bad seed in " + Fill);
          if (!Range.empty()) {
            auto [LoS, HiS] = Range.split(':');
            if (Kind == "int-f16" || LoS.getAsInteger(10, Lo) ||
                HiS.getAsInteger(10, Hi) || Lo > Hi || Lo < -(1 << 20) ||
                Hi > (1 << 20))
              return err(Where + ": " + Fill +
                         ": the range is LO:HI with "
                         "|LO|, |HI| <= 2^20 (f32, f64)");
          }
          std::mt19937_64 G(Seed);
          // f16 encodings of 0, 1, 2, 3 (sign bit 0x8000).
          static const uint16_t Half[] = {0x0000, 0x3c00, 0x4000, 0x4200};
          size_t Elt = Kind == "int-f16" ? 2 : Kind == "int-f32" ? 4 : 8;
          for (size_t Off = 0; Off + Elt <= B.Data.size(); Off += Elt) {
            // The same stream as before for -3..3 (bench/ specs rely on it).
            int V = int(int64_t(G() % uint64_t(Hi - Lo + 1)) + Lo);
            if (Elt == 2) {
              uint16_t H = Half[V < 0 ? -V : V] | (V < 0 ? 0x8000 : 0);
              std::memcpy(&B.Data[Off], &H, 2);
            } else if (Elt == 4) {
              float F = float(V);
              std::memcpy(&B.Data[Off], &F, 4);
            } else {
              double D = double(V);
              std::memcpy(&B.Data[Off], &D, 8);
            }
          }
        } else if (Fill.starts_with("index-i") || Fill.starts_with("arith-i") ||
                   Fill.starts_with("cols-i")) {
          if (Error E = indexFill(Fill, B.Data))
            return err(Where + ": " + toString(std::move(E)));
        } else if (Fill != "zero") {
          return err(Where + ": fill must be zero, random:SEED, "
                             "int-f32/int-f64:SEED[:LO:HI], int-f16:SEED, "
                             "index-iW:SEED:N, arith-iW:START:STEP[:REPEAT] "
                             "or cols-iW:SEED:N:RUN[:BASE] (W = 32 or 64)");
        }
      }
      // Bytes set after the fill: a single zero pivot, a sentinel, an
      // initial value the caller would have written (docs/run-spec.md).
      if (const json::Value *PV = O->get("patch")) {
        const json::Array *PA = PV->getAsArray();
        if (!PA)
          return err(Where + ": \"patch\" must be an array of {\"offset\": "
                             "N, \"bytes\": \"hex\"}");
        for (const json::Value &E : *PA) {
          const json::Object *PO = E.getAsObject();
          auto POff = PO ? PO->getInteger("offset") : std::nullopt;
          auto PHex = PO ? PO->getString("bytes") : std::nullopt;
          if (!POff || !PHex || *POff < 0)
            return err(Where + ": a patch needs \"offset\" (>= 0) and "
                               "\"bytes\" (hex)");
          auto PB = hexBytes(*PHex);
          if (!PB)
            return err(Where + ": patch: " + toString(PB.takeError()));
          if (uint64_t(*POff) + PB->size() > B.Data.size())
            return err(Where + formatv(": patch at offset {0} of {1} bytes "
                                       "ends past the buffer ({2} bytes)",
                                       *POff, PB->size(), B.Data.size()));
          std::memcpy(B.Data.data() + *POff, PB->data(), PB->size());
        }
      }
      B.ReadOnly = O->getBoolean("readonly").value_or(false);
      if (const json::Value *OV = O->get("pointer_offset")) {
        auto Off = OV->getAsInteger();
        if (!Off || *Off < 0 || uint64_t(*Off) > B.Data.size())
          return err(Where + formatv(": \"pointer_offset\" must be a byte "
                                     "offset in 0..{0} (the buffer's size)",
                                     B.Data.size()));
        B.PointerOffset = uint64_t(*Off);
      }
      Out.Buffers.push_back(std::move(B));
      continue;
    }
    if (auto L = O->getInteger("lds")) {
      if (A.ValueKind != "dynamic_shared_pointer")
        return err(Where + ": \"lds\" for a non-LDS argument");
      if (*L < 0 || *L > 65536)
        return err(Where + ": bad lds size");
      uint64_t Align = std::max<uint64_t>(A.PointeeAlign, 4);
      uint32_t Off = uint32_t((DynLdsOffset + Align - 1) / Align * Align);
      D.DynamicLds += (Off - DynLdsOffset) + uint32_t(*L);
      DynLdsOffset = Off + uint32_t(*L);
      uint32_t V = Off;
      if (!putBytes(&V, 4))
        return sizeError("lds");
      continue;
    }
    if (auto V = O->get("bytes")) {
      auto S = V->getAsString();
      if (!S)
        return err(Where + ": \"bytes\" must be a hex string");
      auto B = hexBytes(*S);
      if (!B)
        return err(Where + ": " + toString(B.takeError()));
      if (!putBytes(B->data(), B->size()))
        return sizeError("bytes");
      continue;
    }
    bool Done = false;
    for (StringRef T : {"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"}) {
      const json::Value *V = O->get(T);
      if (!V)
        continue;
      std::optional<int64_t> IV = V->getAsInteger();
      std::optional<uint64_t> UV = V->getAsUINT64();
      if (!IV && !UV)
        return err(Where + ": " + T + " needs an integer");
      uint64_t X = UV ? *UV : uint64_t(*IV);
      StringRef Bits = T.drop_front(1);
      unsigned Bytes = Bits == "8" ? 1 : Bits == "16" ? 2 : Bits == "32" ? 4 : 8;
      if (!putBytes(&X, Bytes))
        return sizeError(T);
      Done = true;
      break;
    }
    if (Done)
      continue;
    if (auto F = O->getNumber("f32")) {
      float X = float(*F);
      if (!putBytes(&X, 4))
        return sizeError("f32");
      continue;
    }
    if (auto F = O->getNumber("f64")) {
      double X = *F;
      if (!putBytes(&X, 8))
        return sizeError("f64");
      continue;
    }
    if (auto F = O->getString("f32_bits")) {
      uint32_t X;
      if (F->getAsInteger(0, X) || !putBytes(&X, 4))
        return sizeError("f32_bits");
      continue;
    }
    return err(Where + ": unknown argument kind");
  }
  if (D.DynamicLds > 65536)
    return err("dynamic LDS larger than 64 KiB");
  return Out;
}

Expected<DispatchSpec> loadSpec(StringRef Path, const KernelInfo &K) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(("cannot read " + Path).str());
  return parseSpec((*Buf)->getBuffer(), K, sys::path::parent_path(Path),
                   Path);
}

Error mapSpecBuffers(DispatchSpec &Spec, emu::Memory &Mem) {
  for (SpecBuffer &B : Spec.Buffers) {
    uint64_t Addr = specBufferAddress(B.ArgIndex);
    auto R = Mem.map(Addr, B.Data.size(),
                     B.ReadOnly ? emu::PermRead : emu::PermRW,
                     formatv("arg{0}", B.ArgIndex).str());
    if (!R)
      return R.takeError();
    if (!B.Data.empty())
      std::memcpy((*R)->Data.data(), B.Data.data(), B.Data.size());
    else
      (*R)->Size = 0; // zero-sized: every access faults
    if (B.KernargOffset + 8 > Spec.Launch.Kernarg.size())
      Spec.Launch.Kernarg.resize(B.KernargOffset + 8);
    uint64_t Ptr = specBufferPointer(B);
    std::memcpy(Spec.Launch.Kernarg.data() + B.KernargOffset, &Ptr, 8);
  }
  return Error::success();
}

} // namespace verify
} // namespace asmevo
