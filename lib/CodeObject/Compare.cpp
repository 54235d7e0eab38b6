//===- Compare.cpp - What differs between two code objects ----------------===//

#include "asmevo/CodeObject/Compare.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

using namespace llvm;
using namespace asmevo;

bool asmevo::msgpackEqual(const msgpack::DocNode &A,
                          const msgpack::DocNode &B) {
  if (A.getKind() != B.getKind())
    return false;
  auto &MA = const_cast<msgpack::DocNode &>(A);
  auto &MB = const_cast<msgpack::DocNode &>(B);
  switch (A.getKind()) {
  case msgpack::Type::Map: {
    auto &X = MA.getMap(), &Y = MB.getMap();
    if (X.size() != Y.size())
      return false;
    for (auto IX = X.begin(), IY = Y.begin(); IX != X.end(); ++IX, ++IY)
      if (!msgpackEqual(IX->first, IY->first) ||
          !msgpackEqual(IX->second, IY->second))
        return false;
    return true;
  }
  case msgpack::Type::Array: {
    auto &X = MA.getArray(), &Y = MB.getArray();
    if (X.size() != Y.size())
      return false;
    for (size_t I = 0; I < X.size(); ++I)
      if (!msgpackEqual(X[I], Y[I]))
        return false;
    return true;
  }
  case msgpack::Type::String:
  case msgpack::Type::Binary:
    return A.getString() == B.getString();
  case msgpack::Type::Int:
    return A.getInt() == B.getInt();
  case msgpack::Type::UInt:
    return A.getUInt() == B.getUInt();
  case msgpack::Type::Boolean:
    return A.getBool() == B.getBool();
  case msgpack::Type::Float:
    return A.getFloat() == B.getFloat();
  default:
    return true;
  }
}

std::vector<std::pair<uint64_t, uint64_t>>
asmevo::functionRanges(const CodeObject &CO) {
  std::vector<std::pair<uint64_t, uint64_t>> Ranges;
  for (const ElfSection &Sec : CO.sections()) {
    if (!Sec.isExec() || !Sec.isAlloc() || !Sec.Size)
      continue;
    std::set<uint64_t> Starts = {Sec.Addr};
    for (const ElfSymbol &S : CO.symbols())
      if (S.Type == ELF::STT_FUNC && S.Value >= Sec.Addr &&
          S.Value < Sec.Addr + Sec.Size)
        Starts.insert(S.Value);
    for (const KernelInfo &K : CO.kernels())
      if (K.CodeAddr >= Sec.Addr && K.CodeAddr < Sec.Addr + Sec.Size)
        Starts.insert(K.CodeAddr);
    for (auto It = Starts.begin(); It != Starts.end(); ++It) {
      auto Next = std::next(It);
      Ranges.push_back({*It, Next == Starts.end() ? Sec.Addr + Sec.Size : *Next});
    }
  }
  return Ranges;
}

static std::string hexWordAt(ArrayRef<uint8_t> B, size_t Off) {
  if (Off + 4 > B.size())
    return "<end>";
  return formatv("{0:x8}", support::endian::read32le(B.data() + Off)).str();
}

std::vector<ObjectDifference>
asmevo::compareCodeObjects(const CodeObject &Expected, const CodeObject &Actual,
                           bool CompareWholeImage) {
  std::vector<ObjectDifference> Diffs;
  auto Ranges = functionRanges(Expected);
  for (const KernelInfo &K : Expected.kernels()) {
    const KernelInfo *AK = Actual.kernel(K.Name);
    if (!AK) {
      Diffs.push_back({K.Name, "kernel", "kernel is missing"});
      continue;
    }
    // Code.
    uint64_t End = K.CodeAddr;
    for (auto &[S, E] : Ranges)
      if (S == K.CodeAddr)
        End = E;
    auto EB = Expected.bytesAt(K.CodeAddr, End - K.CodeAddr);
    auto AB = Actual.bytesAt(AK->CodeAddr, End - K.CodeAddr);
    if (!EB || !AB) {
      std::string Msg;
      if (!EB)
        Msg += toString(EB.takeError());
      if (!AB)
        Msg += (Msg.empty() ? "" : "; ") + toString(AB.takeError());
      Diffs.push_back({K.Name, "code", "cannot read the code: " + Msg});
    } else if (*EB != *AB || AK->CodeAddr != K.CodeAddr) {
      size_t Off = 0;
      while (Off < EB->size() && (*EB)[Off] == (*AB)[Off])
        ++Off;
      Off &= ~size_t(3);
      Diffs.push_back(
          {K.Name, "code",
           AK->CodeAddr != K.CodeAddr
               ? formatv("code moved from {0:x} to {1:x}", K.CodeAddr,
                         AK->CodeAddr)
                     .str()
               : formatv("first difference at {0:x} (kernel offset +{1:x}): "
                         "expected {2}, got {3}",
                         K.CodeAddr + Off, Off, hexWordAt(*EB, Off),
                         hexWordAt(*AB, Off))
                     .str()});
    }
    // Descriptor.
    auto EK = K.KD.encode(), AKD = AK->KD.encode();
    if (EK != AKD || AK->DescriptorAddr != K.DescriptorAddr) {
      unsigned Off = 0;
      while (Off < 64 && EK[Off] == AKD[Off])
        ++Off;
      Diffs.push_back({K.Name, "descriptor",
                       formatv("first difference at descriptor byte {0} "
                               "(address {1:x})",
                               Off, K.DescriptorAddr + Off)
                           .str()});
    }
    // Metadata.
    const msgpack::DocNode *EM = Expected.kernelMetadataNode(K.DescriptorSym);
    const msgpack::DocNode *AM = Actual.kernelMetadataNode(AK->DescriptorSym);
    if (bool(EM) != bool(AM) || (EM && !msgpackEqual(*EM, *AM)))
      Diffs.push_back({K.Name, "metadata", "the amdhsa.kernels entry differs"});
  }
  if (CompareWholeImage && Diffs.empty()) {
    ArrayRef<uint8_t> E = Expected.image(), A = Actual.image();
    if (E != A) {
      size_t Off = 0;
      while (Off < E.size() && Off < A.size() && E[Off] == A[Off])
        ++Off;
      Diffs.push_back({"", "image",
                       formatv("files differ from offset {0:x} (sizes {1} and "
                               "{2})",
                               Off, E.size(), A.size())
                           .str()});
    }
  }
  return Diffs;
}
