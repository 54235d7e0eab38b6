//===- Metadata.cpp - AMDGPU HSA kernel metadata (msgpack) ----------------===//

#include "asmevo/CodeObject/Metadata.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace asmevo;

namespace {
/// Typed access to the fields of one msgpack map, with errors naming the key.
class MapReader {
public:
  explicit MapReader(msgpack::MapDocNode &Map) : Map(Map) {}

  msgpack::DocNode *find(StringRef Key) {
    auto It = Map.find(Key);
    return It == Map.end() ? nullptr : &It->second;
  }

  Error str(StringRef Key, std::string &Out, bool Required = false) {
    msgpack::DocNode *N = find(Key);
    if (!N)
      return Required ? missing(Key) : Error::success();
    if (N->getKind() != msgpack::Type::String)
      return wrongType(Key, "a string");
    Out = N->getString().str();
    return Error::success();
  }

  template <typename T>
  Error uint(StringRef Key, T &Out, bool Required = false) {
    msgpack::DocNode *N = find(Key);
    if (!N)
      return Required ? missing(Key) : Error::success();
    uint64_t V;
    if (N->getKind() == msgpack::Type::UInt)
      V = N->getUInt();
    else if (N->getKind() == msgpack::Type::Int && N->getInt() >= 0)
      V = N->getInt();
    else
      return wrongType(Key, "an unsigned integer");
    if (V > std::numeric_limits<T>::max())
      return createStringError(formatv("{0}: value {1} is too large", Key, V));
    Out = T(V);
    return Error::success();
  }

  Error boolean(StringRef Key, bool &Out) {
    msgpack::DocNode *N = find(Key);
    if (!N)
      return Error::success();
    // Some fields (.uniform_work_group_size) are written as 0/1 integers.
    if (N->getKind() == msgpack::Type::UInt && N->getUInt() <= 1) {
      Out = N->getUInt();
      return Error::success();
    }
    if (N->getKind() != msgpack::Type::Boolean)
      return wrongType(Key, "a boolean or 0/1");
    Out = N->getBool();
    return Error::success();
  }

private:
  static Error missing(StringRef Key) {
    return createStringError("required field " + Key + " is missing");
  }
  static Error wrongType(StringRef Key, StringRef What) {
    return createStringError(Key + " is not " + What);
  }
  msgpack::MapDocNode &Map;
};
} // namespace

Expected<KernelMetadata> KernelMetadata::fromNode(msgpack::DocNode &Node) {
  if (!Node.isMap())
    return createStringError("kernel metadata is not a map");
  MapReader R(Node.getMap());
  KernelMetadata M;
  if (Error E = R.str(".name", M.Name, true))
    return std::move(E);
  if (Error E = R.str(".symbol", M.Symbol, true))
    return std::move(E);
  auto Err = [&](Error E) -> Error {
    return createStringError("kernel " + M.Name + ": " + toString(std::move(E)));
  };
  if (Error E = joinErrors(
          joinErrors(R.uint(".kernarg_segment_size", M.KernargSegmentSize, true),
                     R.uint(".kernarg_segment_align", M.KernargSegmentAlign)),
          joinErrors(R.uint(".group_segment_fixed_size",
                            M.GroupSegmentFixedSize),
                     R.uint(".private_segment_fixed_size",
                            M.PrivateSegmentFixedSize))))
    return Err(std::move(E));
  if (Error E = joinErrors(
          joinErrors(R.uint(".wavefront_size", M.WavefrontSize),
                     R.uint(".sgpr_count", M.SgprCount)),
          joinErrors(R.uint(".vgpr_count", M.VgprCount),
                     R.uint(".agpr_count", M.AgprCount))))
    return Err(std::move(E));
  if (Error E = joinErrors(
          joinErrors(R.uint(".sgpr_spill_count", M.SgprSpillCount),
                     R.uint(".vgpr_spill_count", M.VgprSpillCount)),
          joinErrors(R.uint(".max_flat_workgroup_size", M.MaxFlatWorkgroupSize),
                     R.uint(".kernarg_preload_count", M.KernargPreloadCount))))
    return Err(std::move(E));
  if (Error E = joinErrors(
          joinErrors(R.boolean(".uses_dynamic_stack", M.UsesDynamicStack),
                     R.boolean(".workgroup_processor_mode",
                               M.WorkgroupProcessorMode)),
          R.boolean(".uniform_work_group_size", M.UniformWorkGroupSize)))
    return Err(std::move(E));
  if (msgpack::DocNode *W = R.find(".reqd_workgroup_size")) {
    if (!W->isArray() || W->getArray().size() != 3)
      return Err(createStringError(".reqd_workgroup_size is not 3 integers"));
    std::array<uint32_t, 3> Dims;
    for (unsigned I = 0; I < 3; ++I) {
      msgpack::DocNode &D = W->getArray()[I];
      if (D.getKind() != msgpack::Type::UInt || D.getUInt() > UINT32_MAX)
        return Err(createStringError(".reqd_workgroup_size is not 3 integers"));
      Dims[I] = D.getUInt();
    }
    M.ReqdWorkgroupSize = Dims;
  }
  if (msgpack::DocNode *A = R.find(".args")) {
    if (!A->isArray())
      return Err(createStringError(".args is not an array"));
    unsigned Index = 0;
    for (msgpack::DocNode &AN : A->getArray()) {
      if (!AN.isMap())
        return Err(createStringError(formatv(".args[{0}] is not a map", Index)));
      MapReader AR(AN.getMap());
      KernelArgMetadata Arg;
      Error E = joinErrors(
          joinErrors(joinErrors(AR.str(".name", Arg.Name),
                                AR.str(".type_name", Arg.TypeName)),
                     joinErrors(AR.uint(".offset", Arg.Offset, true),
                                AR.uint(".size", Arg.Size, true))),
          joinErrors(joinErrors(AR.str(".value_kind", Arg.ValueKind, true),
                                AR.str(".address_space", Arg.AddressSpace)),
                     joinErrors(AR.str(".access", Arg.Access),
                                AR.str(".actual_access", Arg.ActualAccess))));
      E = joinErrors(std::move(E),
                     joinErrors(joinErrors(AR.boolean(".is_const", Arg.IsConst),
                                           AR.boolean(".is_restrict",
                                                      Arg.IsRestrict)),
                                joinErrors(AR.boolean(".is_volatile",
                                                      Arg.IsVolatile),
                                           AR.uint(".pointee_align",
                                                   Arg.PointeeAlign))));
      if (E)
        return Err(createStringError(
            formatv(".args[{0}]: {1}", Index, toString(std::move(E)))));
      if (Arg.Size > M.KernargSegmentSize ||
          Arg.Offset > M.KernargSegmentSize - Arg.Size)
        return Err(createStringError(
            formatv(".args[{0}] [{1}, +{2}) lies outside the kernarg segment "
                    "of {3} bytes",
                    Index, Arg.Offset, Arg.Size, M.KernargSegmentSize)));
      M.Args.push_back(std::move(Arg));
      ++Index;
    }
  }
  return M;
}

void KernelMetadata::updateCounts(msgpack::DocNode &Node, uint32_t SgprCount,
                                  uint32_t VgprCount, uint32_t AgprCount) {
  auto &Map = Node.getMap();
  Map[".sgpr_count"] = SgprCount;
  Map[".vgpr_count"] = VgprCount;
  if (Map.find(".agpr_count") != Map.end() || AgprCount)
    Map[".agpr_count"] = AgprCount;
}

namespace {
/// A bounds-checked walk over msgpack bytes.
class MsgpackChecker {
public:
  explicit MsgpackChecker(StringRef B) : B(B) {}

  Error check() {
    if (Error E = value(/*Depth=*/0, /*IsKey=*/false))
      return E;
    if (Pos != B.size())
      return fail(formatv("{0} trailing bytes after the metadata object",
                          B.size() - Pos));
    return Error::success();
  }

private:
  Error fail(const Twine &Msg) {
    return createStringError(formatv("msgpack offset {0}: ", Pos).str() + Msg);
  }
  Error need(uint64_t N) {
    if (N > B.size() - Pos)
      return fail(formatv("needs {0} more bytes, {1} left", N, B.size() - Pos));
    return Error::success();
  }
  Expected<uint64_t> readBE(unsigned N) {
    if (Error E = need(N))
      return std::move(E);
    uint64_t V = 0;
    for (unsigned I = 0; I < N; ++I)
      V = V << 8 | uint8_t(B[Pos + I]);
    Pos += N;
    return V;
  }
  Error skip(uint64_t N) {
    if (Error E = need(N))
      return E;
    Pos += N;
    return Error::success();
  }
  Error container(uint64_t N, bool IsMap, unsigned Depth) {
    for (uint64_t I = 0; I < N; ++I) {
      if (IsMap)
        if (Error E = value(Depth + 1, /*IsKey=*/true))
          return E;
      if (Error E = value(Depth + 1, /*IsKey=*/false))
        return E;
    }
    return Error::success();
  }

  Error value(unsigned Depth, bool IsKey) {
    if (Depth > 64)
      return fail("nesting deeper than 64 levels");
    if (Error E = need(1))
      return E;
    uint8_t T = uint8_t(B[Pos++]);
    auto keyCheck = [&](bool Scalar) -> Error {
      if (IsKey && !Scalar)
        return fail("a map key is not a scalar");
      return Error::success();
    };
    if (T <= 0x7f || T >= 0xe0)
      return Error::success(); // fixint
    if (T >= 0xa0 && T <= 0xbf)
      return skip(T & 0x1f); // fixstr
    if ((T >= 0x80 && T <= 0x8f) || (T >= 0x90 && T <= 0x9f)) {
      if (Error E = keyCheck(false))
        return E;
      return container(T & 0x0f, T <= 0x8f, Depth);
    }
    switch (T) {
    case 0xc0: case 0xc2: case 0xc3:
      return Error::success();
    case 0xcc: case 0xd0: return skip(1);
    case 0xcd: case 0xd1: return skip(2);
    case 0xca: case 0xce: case 0xd2: return skip(4);
    case 0xcb: case 0xcf: case 0xd3: return skip(8);
    case 0xc4: case 0xd9: { auto N = readBE(1); if (!N) return N.takeError(); return skip(*N); }
    case 0xc5: case 0xda: { auto N = readBE(2); if (!N) return N.takeError(); return skip(*N); }
    case 0xc6: case 0xdb: { auto N = readBE(4); if (!N) return N.takeError(); return skip(*N); }
    case 0xdc: case 0xdd: case 0xde: case 0xdf: {
      if (Error E = keyCheck(false))
        return E;
      auto N = readBE(T == 0xdc || T == 0xde ? 2 : 4);
      if (!N)
        return N.takeError();
      return container(*N, T >= 0xde, Depth);
    }
    case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:
      if (Error E = keyCheck(false))
        return E;
      return skip(1 + (1u << (T - 0xd4)));
    case 0xc7: case 0xc8: case 0xc9: {
      if (Error E = keyCheck(false))
        return E;
      auto N = readBE(T == 0xc7 ? 1 : T == 0xc8 ? 2 : 4);
      if (!N)
        return N.takeError();
      return skip(*N + 1);
    }
    default:
      return fail(formatv("invalid type byte {0:x2}", T));
    }
  }

  StringRef B;
  uint64_t Pos = 0;
};
} // namespace

Error asmevo::validateMsgpack(StringRef Blob) {
  return MsgpackChecker(Blob).check();
}
