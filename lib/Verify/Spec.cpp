//===- Spec.cpp - Dispatch spec parsing (docs/run-spec.md) ----------------===//

#include "asmevo/Verify/Spec.h"
#include "asmevo/CodeObject/CodeObject.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
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

using Patches = std::vector<std::pair<uint64_t, uint64_t>>; // [lo, hi)

/// The bytes of a buffer argument or an extra region: "buffer" (a file) or
/// "buffer_size" with "fill", then "patch". The patched byte intervals go
/// to Patched: a pointer may not overlap them.
static Error
parsePatches(const json::Object *O, uint64_t Size,
             std::vector<std::pair<uint64_t, std::vector<uint8_t>>> &Out) {
  auto fail = [](const Twine &Msg) { return createStringError(Msg.str()); };
  const json::Value *PV = O->get("patch");
  if (!PV)
    return Error::success();
  const json::Array *PA = PV->getAsArray();
  if (!PA)
    return fail("\"patch\" must be an array of {\"offset\": N, "
                "\"bytes\": \"hex\"}");
  for (const json::Value &E : *PA) {
    const json::Object *PO = E.getAsObject();
    auto POff = PO ? PO->getInteger("offset") : std::nullopt;
    auto PHex = PO ? PO->getString("bytes") : std::nullopt;
    if (!POff || !PHex || *POff < 0)
      return fail("a patch needs \"offset\" (>= 0) and \"bytes\" "
                  "(hex)");
    auto PB = hexBytes(*PHex);
    if (!PB)
      return fail("patch: " + toString(PB.takeError()));
    if (uint64_t(*POff) + PB->size() > Size)
      return fail(formatv("patch at offset {0} of {1} bytes ends past "
                          "the buffer ({2} bytes)",
                          *POff, PB->size(), Size));
    Out.push_back({uint64_t(*POff), std::move(*PB)});
  }
  return Error::success();
}

/// A sparse buffer's contents: "buffer_size" (up to MaxSparseSize), a fill
/// that is a function of the offset, patches.
static Error parseSparse(const json::Object *O,
                         std::shared_ptr<const SparseFill> &Sparse,
                         Patches &Patched) {
  auto fail = [](const Twine &Msg) { return createStringError(Msg.str()); };
  if (O->get("buffer"))
    return fail("a sparse buffer takes \"buffer_size\" and a fill, not a "
                "file");
  auto N = O->getInteger("buffer_size");
  if (!N || *N <= 0 || uint64_t(*N) > MaxSparseSize)
    return fail(formatv("bad buffer_size for a sparse buffer: 1..{0} bytes "
                        "(64 GiB - 1 MiB, the distance between buffers "
                        "less a guard)",
                        MaxSparseSize));
  auto F = std::make_shared<SparseFill>();
  F->Size = uint64_t(*N);
  StringRef Fill = O->getString("fill").value_or("zero");
  auto badFill = [&] {
    return fail("fill " + Fill +
                ": a sparse buffer's fill is zero, random:SEED, "
                "int-f16:SEED or int-f32/int-f64:SEED[:LO:HI] (each element "
                "a function of its offset; index fills need the whole "
                "buffer)");
  };
  if (Fill == "zero") {
    F->K = SparseFill::Zero;
  } else if (Fill.starts_with("random:")) {
    F->K = SparseFill::Random;
    if (Fill.drop_front(7).getAsInteger(10, F->Seed))
      return badFill();
  } else if (Fill.starts_with("int-f16:") || Fill.starts_with("int-f32:") ||
             Fill.starts_with("int-f64:")) {
    StringRef Kind = Fill.take_front(7);
    F->K = Kind == "int-f16"   ? SparseFill::IntF16
           : Kind == "int-f32" ? SparseFill::IntF32
                               : SparseFill::IntF64;
    auto [SeedS, Range] = Fill.drop_front(8).split(':');
    if (SeedS.getAsInteger(10, F->Seed))
      return badFill();
    if (!Range.empty()) {
      auto [LoS, HiS] = Range.split(':');
      if (Kind == "int-f16" || LoS.getAsInteger(10, F->Lo) ||
          HiS.getAsInteger(10, F->Hi) || F->Lo > F->Hi || F->Lo < -(1 << 20) ||
          F->Hi > (1 << 20))
        return fail(Fill + ": the range is LO:HI with "
                           "|LO|, |HI| <= 2^20 (f32, f64)");
    }
  } else {
    return badFill();
  }
  if (Error E = parsePatches(O, F->Size, F->Patches))
    return E;
  for (auto &[Off, B] : F->Patches)
    Patched.push_back({Off, Off + B.size()});
  Sparse = std::move(F);
  return Error::success();
}

static Error parseContents(const json::Object *O, StringRef SpecDir,
                           std::vector<uint8_t> &Data, Patches &Patched,
                           std::shared_ptr<const SparseFill> &Sparse) {
  auto fail = [](const Twine &Msg) { return createStringError(Msg.str()); };
  if (const json::Value *SV = O->get("sparse")) {
    if (!SV->getAsBoolean())
      return fail("\"sparse\" must be true or false");
    if (*SV->getAsBoolean())
      return parseSparse(O, Sparse, Patched);
  }
  if (auto F = O->getString("buffer")) {
    SmallString<256> P(*F);
    if (!sys::path::is_absolute(P) && !SpecDir.empty())
      P = (SpecDir + "/" + *F).str();
    auto Buf = MemoryBuffer::getFile(P);
    if (!Buf)
      return fail("cannot read " + P);
    Data.assign((*Buf)->getBufferStart(), (*Buf)->getBufferEnd());
  } else {
    auto N = O->getInteger("buffer_size");
    if (!N || *N < 0 || *N > (int64_t(1) << 36))
      return fail("bad buffer_size");
    Data.assign(size_t(*N), 0);
    StringRef Fill = O->getString("fill").value_or("zero");
    if (Fill.consume_front("random:")) {
      uint64_t Seed;
      if (Fill.getAsInteger(10, Seed))
        return fail("bad random seed");
      std::mt19937_64 G(Seed);
      for (auto &X : Data)
        X = uint8_t(G());
    } else if (Fill.starts_with("int-f32:") || Fill.starts_with("int-f16:") ||
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
        return fail("bad seed in " + Fill);
      if (!Range.empty()) {
        auto [LoS, HiS] = Range.split(':');
        if (Kind == "int-f16" || LoS.getAsInteger(10, Lo) ||
            HiS.getAsInteger(10, Hi) || Lo > Hi || Lo < -(1 << 20) ||
            Hi > (1 << 20))
          return fail(Fill + ": the range is LO:HI with "
                             "|LO|, |HI| <= 2^20 (f32, f64)");
      }
      std::mt19937_64 G(Seed);
      // f16 encodings of 0, 1, 2, 3 (sign bit 0x8000).
      static const uint16_t Half[] = {0x0000, 0x3c00, 0x4000, 0x4200};
      size_t Elt = Kind == "int-f16" ? 2 : Kind == "int-f32" ? 4 : 8;
      for (size_t Off = 0; Off + Elt <= Data.size(); Off += Elt) {
        // The same stream as before for -3..3 (bench/ specs rely on it).
        int V = int(int64_t(G() % uint64_t(Hi - Lo + 1)) + Lo);
        if (Elt == 2) {
          uint16_t H = Half[V < 0 ? -V : V] | (V < 0 ? 0x8000 : 0);
          std::memcpy(&Data[Off], &H, 2);
        } else if (Elt == 4) {
          float F = float(V);
          std::memcpy(&Data[Off], &F, 4);
        } else {
          double D = double(V);
          std::memcpy(&Data[Off], &D, 8);
        }
      }
    } else if (Fill.starts_with("index-i") || Fill.starts_with("arith-i") ||
               Fill.starts_with("cols-i")) {
      if (Error E = indexFill(Fill, Data))
        return E;
    } else if (Fill != "zero") {
      return fail("fill must be zero, random:SEED, "
                  "int-f32/int-f64:SEED[:LO:HI], int-f16:SEED, "
                  "index-iW:SEED:N, arith-iW:START:STEP[:REPEAT] "
                  "or cols-iW:SEED:N:RUN[:BASE] (W = 32 or 64)");
    }
  }
  // Bytes set after the fill: a single zero pivot, a sentinel, an
  // initial value the caller would have written (docs/run-spec.md).
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> List;
  if (Error E = parsePatches(O, Data.size(), List))
    return E;
  for (auto &[Off, B] : List) {
    std::memcpy(Data.data() + Off, B.data(), B.size());
    Patched.push_back({Off, Off + B.size()});
  }
  return Error::success();
}

/// One entry of a "pointers" array: 8 bytes at offset At of a buffer, a
/// region or a by-value argument get the address of argument buffer or
/// region To plus Plus. Resolved once every buffer and region is known.
struct PendingPointer {
  enum DestKind { ArgBuffer, Region, Kernarg } Dest;
  size_t Index; // into DispatchSpec::Buffers / Regions (unused: Kernarg)
  uint64_t At;  // byte offset in the destination (the kernarg: absolute)
  std::string Where;
  const json::Value *To;
  int64_t Plus;
};

/// Reads O's "pointers" (if any) for a destination of Size bytes whose
/// first byte is at Base of the destination (a by-value argument's kernarg
/// offset, else 0).
static Error parsePointers(const json::Object &O, StringRef Where,
                           uint64_t Size, const Patches &Patched,
                           PendingPointer::DestKind Dest, size_t Index,
                           std::vector<PendingPointer> &Pending,
                           uint64_t Base = 0) {
  const json::Value *V = O.get("pointers");
  if (!V)
    return Error::success();
  const json::Array *A = V->getAsArray();
  if (!A)
    return createStringError((Where + ": \"pointers\" must be an array of "
                                      "{\"offset\": N, \"to\": ARG or "
                                      "\"REGION\", \"plus\": M}")
                                 .str());
  std::vector<std::pair<uint64_t, size_t>> Seen; // offset, entry
  for (size_t K = 0; K < A->size(); ++K) {
    std::string W = formatv("{0}: pointers[{1}]", Where, K).str();
    const json::Object *P = (*A)[K].getAsObject();
    auto Off = P ? P->getInteger("offset") : std::nullopt;
    const json::Value *To = P ? P->get("to") : nullptr;
    if (!Off || *Off < 0 || !To || (!To->getAsInteger() && !To->getAsString()))
      return createStringError(W + ": needs \"offset\" (>= 0) and \"to\" (an "
                                   "argument index or a region name)");
    int64_t Plus = 0;
    if (const json::Value *PV = P->get("plus")) {
      auto PI = PV->getAsInteger();
      if (!PI)
        return createStringError(W + ": \"plus\" must be an integer");
      Plus = *PI;
    }
    uint64_t O8 = uint64_t(*Off);
    if (O8 + 8 > Size)
      return createStringError(
          formatv("{0}: the 8-byte pointer at offset {1} ends past the {2} "
                  "bytes it is written into",
                  W, O8, Size)
              .str());
    for (auto [Lo, Hi] : Patched)
      if (O8 < Hi && Lo < O8 + 8)
        return createStringError(
            formatv("{0}: the pointer at offset {1} overlaps the patch of "
                    "bytes [{2}, {3})",
                    W, O8, Lo, Hi)
                .str());
    for (auto [SO, SK] : Seen)
      if (O8 < SO + 8 && SO < O8 + 8)
        return createStringError(
            formatv("{0}: the pointer at offset {1} overlaps pointers[{2}] at "
                    "offset {3}",
                    W, O8, SK, SO)
                .str());
    Seen.push_back({O8, K});
    Pending.push_back({Dest, Index, Base + O8, W, To, Plus});
  }
  return Error::success();
}

/// What a buffer argument and an extra region (What) both hold: contents,
/// "pointers" into other buffers (not in a sparse one) and "readonly".
static Error parseMemoryBody(const json::Object &O, StringRef Where,
                             StringRef What, StringRef SpecDir,
                             PendingPointer::DestKind Dest, size_t Index,
                             std::vector<uint8_t> &Data,
                             std::shared_ptr<const SparseFill> &Sparse,
                             bool &ReadOnly,
                             std::vector<PendingPointer> &Pending) {
  Patches Patched;
  if (Error E = parseContents(&O, SpecDir, Data, Patched, Sparse))
    return createStringError((Where + ": " + toString(std::move(E))).str());
  if (Sparse && O.get("pointers"))
    return createStringError(
        (Where + ": a sparse " + What + " cannot hold \"pointers\"").str());
  if (Error E =
          parsePointers(O, Where, Data.size(), Patched, Dest, Index, Pending))
    return E;
  ReadOnly = O.getBoolean("readonly").value_or(false);
  return Error::success();
}

static bool validRegionName(StringRef N) {
  return !N.empty() && llvm::all_of(N, [](char C) {
    return isAlnum(C) || C == '_' || C == '-' || C == '.';
  });
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
  std::vector<PendingPointer> Pending;
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
    if (O->get("pointers") &&
        !(O->get("buffer") || O->get("buffer_size") || O->get("bytes")))
      return err(Where + ": \"pointers\" needs a buffer or \"bytes\"");
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
      if (Error E = parseMemoryBody(
              *O, Where, "buffer", SpecDir, PendingPointer::ArgBuffer,
              Out.Buffers.size(), B.Data, B.Sparse, B.ReadOnly, Pending))
        return err(toString(std::move(E)));
      Out.SparseBuffers += B.Sparse != nullptr;
      if (const json::Value *OV = O->get("pointer_offset")) {
        auto Off = OV->getAsInteger();
        if (!Off || *Off < 0 || uint64_t(*Off) > B.size())
          return err(Where + formatv(": \"pointer_offset\" must be a byte "
                                     "offset in 0..{0} (the buffer's size)",
                                     B.size()));
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
      // A struct passed by value that holds device pointers (rocPRIM's
      // onesweep arguments).
      if (Error E =
              parsePointers(*O, Where, B->size(), {}, PendingPointer::Kernarg,
                            0, Pending, A.Offset))
        return err(toString(std::move(E)));
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

  // Extra regions: memory that is no argument, reached through pointers.
  if (const json::Value *RV = Spec->get("regions")) {
    const json::Object *RO = RV->getAsObject();
    if (!RO)
      return err("\"regions\" must be an object of NAME: {\"buffer_size\": "
                 "N, ...}");
    std::vector<StringRef> Names;
    for (const auto &KV : *RO)
      Names.push_back(KV.first);
    llvm::sort(Names);
    if (Names.size() > MaxSpecRegions)
      return err(
          formatv("{0} regions, at most {1}", Names.size(), MaxSpecRegions));
    if (!Names.empty() && NArgs > MaxSpecArgsWithRegions)
      return err(formatv("regions with {0} explicit arguments: the argument "
                         "buffers would reach the regions' addresses (at "
                         "most {1})",
                         NArgs, MaxSpecArgsWithRegions));
    for (StringRef N : Names) {
      std::string Where = ("regions." + N).str();
      if (!validRegionName(N))
        return err(Where + ": a region name is letters, digits, '_', '-' "
                           "and '.'");
      const json::Object *O = RO->getObject(N);
      if (!O)
        return err(Where + " must be an object");
      if (!O->get("buffer") && !O->get("buffer_size"))
        return err(Where + ": needs \"buffer\" or \"buffer_size\"");
      if (O->get("pointer_offset"))
        return err(Where + ": a region has no \"pointer_offset\" (a pointer "
                           "to it says \"plus\")");
      SpecRegion R;
      R.Name = N.str();
      R.Address = specRegionAddress(unsigned(Out.Regions.size()));
      if (Error E = parseMemoryBody(*O, Where, "region", SpecDir,
                                    PendingPointer::Region, Out.Regions.size(),
                                    R.Data, R.Sparse, R.ReadOnly, Pending))
        return err(toString(std::move(E)));
      Out.SparseBuffers += R.Sparse != nullptr;
      Out.Regions.push_back(std::move(R));
    }
  }

  // Pointers: every target is known now.
  for (const PendingPointer &P : Pending) {
    uint64_t Target = 0, TargetSize = 0;
    if (auto I = P.To->getAsInteger()) {
      auto B = llvm::find_if(Out.Buffers, [&](const SpecBuffer &B) {
        return int64_t(B.ArgIndex) == *I;
      });
      if (B == Out.Buffers.end())
        return err(formatv("{0}: \"to\": {1} is not a buffer argument (an "
                           "index of args whose entry is a buffer)",
                           P.Where, *I));
      Target = specBufferAddress(B->ArgIndex);
      TargetSize = B->size();
    } else {
      StringRef N = *P.To->getAsString();
      auto R = llvm::find_if(Out.Regions,
                             [&](const SpecRegion &R) { return R.Name == N; });
      if (R == Out.Regions.end()) {
        std::string Known;
        for (const SpecRegion &X : Out.Regions)
          Known += (Known.empty() ? "" : ", ") + X.Name;
        return err(P.Where + ": \"to\": unknown region '" + N + "' (" +
                   (Known.empty() ? "the spec has no \"regions\""
                                  : "regions: " + Known) +
                   ")");
      }
      Target = R->Address;
      TargetSize = R->size();
    }
    if (P.Plus < 0 || uint64_t(P.Plus) > TargetSize)
      return err(formatv("{0}: \"plus\" must be a byte offset in 0..{1} "
                         "(the target's size)",
                         P.Where, TargetSize));
    uint64_t V = Target + uint64_t(P.Plus);
    uint8_t *Dst;
    if (P.Dest == PendingPointer::Kernarg) {
      Dst = D.Kernarg.data() + P.At;
    } else {
      Dst = (P.Dest == PendingPointer::ArgBuffer ? Out.Buffers[P.Index].Data
                                                 : Out.Regions[P.Index].Data)
                .data() +
            P.At;
      ++Out.MemoryPointers;
    }
    std::memcpy(Dst, &V, 8);
  }
  return Out;
}

Expected<DispatchSpec> loadSpec(StringRef Path, const KernelInfo &K) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(("cannot read " + Path).str());
  return parseSpec((*Buf)->getBuffer(), K, sys::path::parent_path(Path),
                   Path);
}

static Error noPager(const DispatchSpec &Spec, StringRef Name) {
  return createStringError(
      (Spec.Name + ": " + Name +
       " is sparse (\"sparse\": true); this tool maps buffers whole "
       "(asmevo-run and asmevo-verify run sparse buffers)")
          .str());
}

Error mapSpecBuffers(DispatchSpec &Spec, emu::Memory &Mem, SparsePager *Pager) {
  for (SpecBuffer &B : Spec.Buffers) {
    uint64_t Addr = specBufferAddress(B.ArgIndex);
    std::string Name = formatv("arg{0}", B.ArgIndex).str();
    if (B.Sparse) {
      if (!Pager)
        return noPager(Spec, Name);
      Pager->add(Addr, B.ReadOnly ? emu::PermRead : emu::PermRW, Name,
                 B.Sparse);
      if (B.KernargOffset + 8 > Spec.Launch.Kernarg.size())
        Spec.Launch.Kernarg.resize(B.KernargOffset + 8);
      uint64_t Ptr = specBufferPointer(B);
      std::memcpy(Spec.Launch.Kernarg.data() + B.KernargOffset, &Ptr, 8);
      continue;
    }
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
  for (SpecRegion &SR : Spec.Regions) {
    if (SR.Sparse) {
      if (!Pager)
        return noPager(Spec, "region " + SR.Name);
      Pager->add(SR.Address, SR.ReadOnly ? emu::PermRead : emu::PermRW,
                 "region " + SR.Name, SR.Sparse);
      continue;
    }
    auto R =
        Mem.map(SR.Address, SR.Data.size(),
                SR.ReadOnly ? emu::PermRead : emu::PermRW, "region " + SR.Name);
    if (!R)
      return R.takeError();
    if (!SR.Data.empty())
      std::memcpy((*R)->Data.data(), SR.Data.data(), SR.Data.size());
    else
      (*R)->Size = 0;
  }
  return Error::success();
}

static uint64_t mix64(uint64_t X) {
  X += 0x9e3779b97f4a7c15ull;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return X ^ (X >> 31);
}

void SparseFill::fill(uint64_t Off, uint8_t *Out, size_t Len) const {
  // A hash of (seed, element index) per element: any page can be made
  // without the ones before it (the dense fills are streams).
  static const uint16_t Half[] = {0x0000, 0x3c00, 0x4000, 0x4200};
  size_t Elt = K == IntF16 ? 2 : K == IntF32 ? 4 : 8;
  for (size_t I = 0; I < Len;) {
    uint64_t P = Off + I, E = P / Elt;
    size_t In = P % Elt, N = std::min<size_t>(Elt - In, Len - I);
    uint8_t B[8] = {};
    uint64_t H = mix64(Seed ^ mix64(E));
    // As the dense int fills: a partial element at the end stays zero.
    if (K == Random) {
      std::memcpy(B, &H, 8);
    } else if (K != Zero && (E + 1) * Elt <= Size) {
      int V = int(int64_t(H % uint64_t(Hi - Lo + 1)) + Lo);
      if (K == IntF16) {
        uint16_t X = Half[V < 0 ? -V : V] | (V < 0 ? 0x8000 : 0);
        std::memcpy(B, &X, 2);
      } else if (K == IntF32) {
        float X = float(V);
        std::memcpy(B, &X, 4);
      } else {
        double X = double(V);
        std::memcpy(B, &X, 8);
      }
    }
    std::memcpy(Out + I, B + In, N);
    I += N;
  }
  for (const auto &[POff, PB] : Patches) {
    uint64_t Lo = std::max(POff, Off),
             Hi = std::min(POff + PB.size(), Off + Len);
    if (Lo < Hi)
      std::memcpy(Out + (Lo - Off), PB.data() + (Lo - POff), Hi - Lo);
  }
}

void SparsePager::add(uint64_t Base, uint8_t Perms, std::string Name,
                      std::shared_ptr<const SparseFill> Fill) {
  Ranges.push_back({Base, Perms, std::move(Name), std::move(Fill)});
}

const SparsePager::Range *SparsePager::rangeOf(uint64_t Addr) const {
  for (const Range &R : Ranges)
    if (Addr >= R.Base && Addr - R.Base < R.Fill->Size)
      return &R;
  return nullptr;
}

Expected<emu::Region *> SparsePager::mapPages(emu::Memory &M, const Range &R,
                                              uint64_t Lo, uint64_t Hi) {
  if (Touched + (Hi - Lo) > MaxTouched) {
    if (Overflow.empty())
      Overflow = formatv("the dispatch touches more than {0} bytes of sparse "
                         "buffers (at {1}, offset 0x{2:x-}): the bound of "
                         "docs/run-spec.md",
                         MaxTouched, R.Name, Lo - R.Base)
                     .str();
    return nullptr;
  }
  auto Reg = M.map(Lo, Hi - Lo, R.Perms, R.Name);
  if (!Reg)
    return Reg.takeError();
  R.Fill->fill(Lo - R.Base, (*Reg)->Data.data(), Hi - Lo);
  Touched += Hi - Lo;
  return *Reg;
}

Error SparsePager::begin(emu::Memory &M) {
  Touched = 0;
  Overflow.clear();
  Want.clear();
  for (auto [Lo, Hi] : Pre) {
    const Range *R = rangeOf(Lo);
    if (!R)
      continue;
    auto Reg = mapPages(M, *R, Lo, Hi);
    if (!Reg)
      return Reg.takeError();
    if (!*Reg)
      return createStringError(Overflow);
  }
  return Error::success();
}

emu::Region *SparsePager::access(emu::Memory &M, uint64_t Addr, uint64_t Len) {
  if (emu::Region *X = M.find(Addr, Len))
    return X;
  const Range *R = rangeOf(Addr);
  // Past the end: the guard (or nothing) faults.
  if (!R || !Len || Len > R->Fill->Size - (Addr - R->Base))
    return nullptr;
  // The emulator asks for a whole wave's span first and falls back to one
  // access per lane (at most 64 bytes, a scalar load) when it gets none:
  // a span of more than two pages is not mapped (a wave's scattered lanes
  // may span gigabytes of a sparse buffer).
  bool PerLane = Len <= 64;
  if (!PerLane && (Addr + Len - 1) / SparsePageSize - Addr / SparsePageSize > 1)
    return nullptr;
  uint64_t End = R->Base + R->Fill->Size;
  uint64_t Lo = R->Base + (Addr - R->Base) / SparsePageSize * SparsePageSize;
  uint64_t Hi =
      std::min(End, R->Base + (Addr + Len - R->Base + SparsePageSize - 1) /
                                  SparsePageSize * SparsePageSize);
  // An access that straddles a mapped page and an unmapped one: the next
  // run maps both as one region (regions are never unmapped in a run).
  for (uint64_t P = Lo; P < Hi; P += SparsePageSize)
    if (M.find(P, 1)) {
      if (PerLane)
        Want.push_back({Lo, Hi});
      return nullptr;
    }
  auto Reg = mapPages(M, *R, Lo, Hi);
  if (!Reg) {
    consumeError(Reg.takeError());
    return nullptr;
  }
  return *Reg;
}

bool SparsePager::retry() {
  if (Want.empty() || !Overflow.empty())
    return false;
  // Every page of Want and of the regions it touches, merged (adjacent
  // ranges too: an access may straddle their border).
  for (auto W : Want)
    Pre.push_back(W);
  Want.clear();
  llvm::sort(Pre);
  std::vector<std::pair<uint64_t, uint64_t>> Merged;
  for (auto [Lo, Hi] : Pre)
    if (!Merged.empty() && Lo <= Merged.back().second &&
        rangeOf(Lo) == rangeOf(Merged.back().first))
      Merged.back().second = std::max(Merged.back().second, Hi);
    else
      Merged.push_back({Lo, Hi});
  Pre = std::move(Merged);
  return true;
}

Expected<std::unique_ptr<emu::Memory>>
runWithSparsePages(SparsePager &P, function_ref<Error(emu::Memory &)> Map,
                   function_ref<emu::RunResult(emu::Memory &)> Run,
                   emu::RunResult &Result) {
  std::unique_ptr<emu::Memory> Mem;
  for (unsigned Attempt = 0;; ++Attempt) {
    Mem = std::make_unique<emu::Memory>();
    if (Error E = Map(*Mem))
      return std::move(E);
    if (Error E = P.begin(*Mem))
      return std::move(E);
    Result = Run(*Mem);
    if (Result.ok() || Attempt >= MaxSparseRetries || !P.retry())
      break;
  }
  if (!Result.ok() && !P.Overflow.empty())
    Result.Message = P.Overflow + "; " + Result.Message;
  return std::move(Mem);
}

std::map<uint64_t, std::vector<uint8_t>>
SparsePager::pages(const emu::Memory &M, uint64_t Base) const {
  std::map<uint64_t, std::vector<uint8_t>> Out;
  const Range *R = rangeOf(Base);
  if (!R)
    return Out;
  for (const auto &Reg : M.regions()) {
    if (Reg->Base < R->Base || Reg->Base - R->Base >= R->Fill->Size)
      continue;
    for (uint64_t P = 0; P < Reg->Size; P += SparsePageSize) {
      uint64_t N = std::min<uint64_t>(SparsePageSize, Reg->Size - P);
      Out[Reg->Base - R->Base + P].assign(Reg->Data.begin() + P,
                                          Reg->Data.begin() + P + N);
    }
  }
  return Out;
}

} // namespace verify
} // namespace asmevo
