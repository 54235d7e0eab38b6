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
                   Fill.starts_with("int-f16:")) {
          // Small integers (-3..3) as floats: sums of products stay exact in
          // any order, so a host reference can check a GEMM bit for bit.
          bool F16 = Fill.starts_with("int-f16:");
          uint64_t Seed;
          if (Fill.drop_front(8).getAsInteger(10, Seed))
            return err(Where + ": bad seed in " + Fill);
          std::mt19937_64 G(Seed);
          // f16 encodings of 0, 1, 2, 3 (sign bit 0x8000).
          static const uint16_t Half[] = {0x0000, 0x3c00, 0x4000, 0x4200};
          size_t Elt = F16 ? 2 : 4;
          for (size_t Off = 0; Off + Elt <= B.Data.size(); Off += Elt) {
            int V = int(G() % 7) - 3;
            if (F16) {
              uint16_t H = Half[V < 0 ? -V : V] | (V < 0 ? 0x8000 : 0);
              std::memcpy(&B.Data[Off], &H, 2);
            } else {
              float F = float(V);
              std::memcpy(&B.Data[Off], &F, 4);
            }
          }
        } else if (Fill.consume_front("index-i32:")) {
          // Valid indices for gathers and scatters: i32 in [0, N).
          auto [SeedS, NS] = Fill.split(':');
          uint64_t Seed, N;
          if (SeedS.getAsInteger(10, Seed) || NS.getAsInteger(10, N) ||
              N == 0 || N > (uint64_t(1) << 31))
            return err(Where + ": fill index-i32 needs SEED:N with 0 < N "
                               "<= 2^31");
          std::mt19937_64 G(Seed);
          for (size_t Off = 0; Off + 4 <= B.Data.size(); Off += 4) {
            uint32_t V = uint32_t(G() % N);
            std::memcpy(&B.Data[Off], &V, 4);
          }
        } else if (Fill.consume_front("arith-i32:")) {
          // START, START+STEP, ...: CSR row offsets and other index arrays
          // whose structure a random fill cannot give.
          auto [StartS, StepS] = Fill.split(':');
          int64_t Start, Step;
          if (StartS.getAsInteger(10, Start) || StepS.getAsInteger(10, Step))
            return err(Where + ": fill arith-i32 needs START:STEP");
          for (size_t Off = 0; Off + 4 <= B.Data.size(); Off += 4) {
            int64_t V = Start + Step * int64_t(Off / 4);
            if (V < INT32_MIN || V > INT32_MAX)
              return err(Where + ": fill arith-i32 leaves the i32 range");
            int32_t V32 = int32_t(V);
            std::memcpy(&B.Data[Off], &V32, 4);
          }
        } else if (Fill != "zero") {
          return err(Where + ": fill must be zero, random:SEED, "
                             "int-f32:SEED, int-f16:SEED, "
                             "index-i32:SEED:N or arith-i32:START:STEP");
        }
      }
      B.ReadOnly = O->getBoolean("readonly").value_or(false);
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
    std::memcpy(Spec.Launch.Kernarg.data() + B.KernargOffset, &Addr, 8);
  }
  return Error::success();
}

} // namespace verify
} // namespace asmevo
