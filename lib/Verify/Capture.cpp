//===- Capture.cpp - Reading captures (docs/capture-format.md) ------------===//

#include "asmevo/Verify/Capture.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace llvm;

namespace asmevo {
namespace verify {

std::string sha256Hex(ArrayRef<uint8_t> Bytes) {
  return sha256HexStd(Bytes.data(), Bytes.size());
}

Expected<CaptureData> readCapture(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf)
    return createStringError((Path + ": cannot read: " +
                              Buf.getError().message())
                                 .str());
  ArrayRef<uint8_t> B(reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()),
                      (*Buf)->getBufferSize());
  return parseCapture(B, Path);
}

Expected<CaptureData> parseCapture(ArrayRef<uint8_t> B, StringRef Name) {
  auto err = [&](const Twine &Msg) -> Error {
    return createStringError((Name + ": corrupt capture: " + Msg).str());
  };
  if (B.size() < 24 + 32 || std::memcmp(B.data(), CaptureMagic, 8) != 0)
    return err("not an asmevo capture (bad magic or too short)");
  uint32_t Version;
  std::memcpy(&Version, B.data() + 8, 4);
  if (Version != CaptureVersion)
    return createStringError(
        formatv("{0}: capture format version {1} is not supported (this "
                "build reads version {2})",
                Name, Version, CaptureVersion)
            .str());
  auto Sum = sha256(B.data(), B.size() - 32);
  if (std::memcmp(Sum.data(), B.data() + B.size() - 32, 32) != 0)
    return err("checksum mismatch (the file is truncated or damaged)");
  uint64_t HLen;
  std::memcpy(&HLen, B.data() + 16, 8);
  if (HLen > B.size() - 24 - 32)
    return err("header length beyond the end of the file");
  StringRef Header(reinterpret_cast<const char *>(B.data() + 24), HLen);
  ArrayRef<uint8_t> Blobs = B.slice(24 + HLen, B.size() - 24 - HLen - 32);

  auto V = json::parse(Header);
  if (!V)
    return err("header: " + toString(V.takeError()));
  const json::Object *O = V->getAsObject();
  if (!O)
    return err("header is not a JSON object");
  if (O->getString("format") != StringRef("asmevo-capture"))
    return err("\"format\" is not \"asmevo-capture\"");
  if (O->getInteger("version") != int64_t(Version))
    return err("header version differs from the file version");

  CaptureData C;
  C.Version = Version;
  auto str = [&](StringRef Key, std::string &Out, bool Required) -> Error {
    auto S = O->getString(Key);
    if (!S) {
      if (Required)
        return err("missing \"" + Key + "\"");
      return Error::success();
    }
    Out = S->str();
    return Error::success();
  };
  if (Error E = str("producer", C.Producer, false))
    return std::move(E);
  if (Error E = str("target", C.Target, true))
    return std::move(E);
  if (Error E = str("kernel", C.Kernel, true))
    return std::move(E);
  if (Error E = str("note", C.Note, false))
    return std::move(E);
  if (C.Kernel.empty())
    return err("empty kernel name");

  auto blob = [&](const json::Value *Ref, StringRef What,
                  std::vector<uint8_t> &Out) -> Error {
    const json::Array *A = Ref ? Ref->getAsArray() : nullptr;
    if (!A || A->size() != 2)
      return err(What + ": blob reference must be [offset, size]");
    auto Off = (*A)[0].getAsInteger(), Len = (*A)[1].getAsInteger();
    if (!Off || !Len || *Off < 0 || *Len < 0 ||
        uint64_t(*Off) > Blobs.size() || uint64_t(*Len) > Blobs.size() - *Off)
      return err(What + ": blob out of bounds");
    Out.assign(Blobs.begin() + *Off, Blobs.begin() + *Off + *Len);
    return Error::success();
  };

  const json::Object *CO = O->getObject("code_object");
  if (!CO)
    return err("missing \"code_object\"");
  if (auto S = CO->getString("sha256"))
    C.CodeObjectSha256 = S->str();
  if (C.CodeObjectSha256.size() != 64 ||
      C.CodeObjectSha256.find_first_not_of("0123456789abcdef") != std::string::npos)
    return err("code_object.sha256 must be 64 lowercase hex digits");
  if (const json::Value *BV = CO->get("blob"); BV && BV->kind() != json::Value::Null) {
    if (Error E = blob(BV, "code_object", C.CodeObject))
      return std::move(E);
    if (sha256Hex(C.CodeObject) != C.CodeObjectSha256)
      return err("the embedded code object does not match code_object.sha256");
  }

  const json::Object *L = O->getObject("launch");
  if (!L)
    return err("missing \"launch\"");
  auto triple = [&](StringRef Key, std::array<uint32_t, 3> &Out) -> Error {
    const json::Array *A = L->getArray(Key);
    if (!A || A->size() != 3)
      return err("launch." + Key + " must be [x, y, z]");
    for (int I = 0; I < 3; ++I) {
      auto X = (*A)[I].getAsInteger();
      if (!X || *X <= 0 || *X > 0xffffffffll)
        return err("launch." + Key + " must hold positive integers");
      Out[I] = uint32_t(*X);
    }
    return Error::success();
  };
  if (Error E = triple("workgroups", C.Workgroups))
    return std::move(E);
  if (Error E = triple("workgroup_size", C.WorkgroupSize))
    return std::move(E);
  if (uint64_t(C.WorkgroupSize[0]) * C.WorkgroupSize[1] * C.WorkgroupSize[2] > 1024)
    return err("launch.workgroup_size has more than 1024 work-items");
  auto Dyn = L->getInteger("dynamic_lds");
  if (!Dyn || *Dyn < 0 || *Dyn > 65536)
    return err("launch.dynamic_lds must be 0..65536");
  C.DynamicLds = uint32_t(*Dyn);

  const json::Object *KA = O->getObject("kernarg");
  if (!KA)
    return err("missing \"kernarg\"");
  if (Error E = blob(KA->get("blob"), "kernarg", C.Kernarg))
    return std::move(E);
  C.KernargHasHidden = KA->getBoolean("hidden_filled").value_or(true);

  const json::Array *Rs = O->getArray("regions");
  if (!Rs)
    return err("missing \"regions\"");
  for (size_t I = 0; I < Rs->size(); ++I) {
    const json::Object *R = (*Rs)[I].getAsObject();
    std::string W = formatv("regions[{0}]", I).str();
    if (!R)
      return err(W + " is not an object");
    CaptureRegion CR;
    auto A = R->getString("address");
    if (!A || A->getAsInteger(0, CR.Address))
      return err(W + ".address must be a hex string");
    auto Sz = R->getInteger("size");
    if (!Sz || *Sz < 0)
      return err(W + ".size must be a non-negative integer");
    CR.Size = uint64_t(*Sz);
    if (CR.Address + CR.Size < CR.Address)
      return err(W + " wraps around the address space");
    StringRef Acc = R->getString("access").value_or("rw");
    CR.Readable = Acc.contains('r');
    CR.Writable = Acc.contains('w');
    CR.Name = R->getString("name").value_or("").str();
    if (Error E = blob(R->get("before"), W + ".before", CR.Before))
      return std::move(E);
    if (CR.Before.size() != CR.Size)
      return err(W + ".before has " + Twine(CR.Before.size()) +
                 " bytes, size says " + Twine(CR.Size));
    if (const json::Value *AV = R->get("after"); AV && AV->kind() != json::Value::Null) {
      if (Error E = blob(AV, W + ".after", CR.After))
        return std::move(E);
      if (CR.After.size() != CR.Size)
        return err(W + ".after has the wrong size");
      CR.HasAfter = true;
    }
    C.Regions.push_back(std::move(CR));
  }
  std::vector<std::pair<uint64_t, uint64_t>> Spans;
  for (const CaptureRegion &R : C.Regions)
    Spans.push_back({R.Address, R.Address + R.Size});
  std::sort(Spans.begin(), Spans.end());
  for (size_t I = 1; I < Spans.size(); ++I)
    if (Spans[I].first < Spans[I - 1].second)
      return err(formatv("regions overlap at {0:x}", Spans[I].first).str());
  return C;
}

Error writeCaptureFile(const CaptureData &C, StringRef Path) {
  if (!writeCapture(C, Path.str()))
    return createStringError(("cannot write " + Path).str());
  return Error::success();
}

} // namespace verify
} // namespace asmevo
