//===- CodeObjectLite.cpp - ELF notes and msgpack without LLVM ------------===//

#include "CodeObjectLite.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>

namespace asmevo {
namespace lite {

namespace {

template <typename T> T rd(const uint8_t *P) {
  T V;
  std::memcpy(&V, P, sizeof V);
  return V;
}

// ELF64 header fields (little endian).
constexpr unsigned EI_CLASS = 4, EI_DATA = 5;

} // namespace

size_t elfImageSize(const uint8_t *I) {
  if (!I || std::memcmp(I, "\x7f" "ELF", 4) != 0 || I[EI_CLASS] != 2 ||
      I[EI_DATA] != 1)
    return 0;
  uint64_t PhOff = rd<uint64_t>(I + 32), ShOff = rd<uint64_t>(I + 40);
  uint16_t PhEnt = rd<uint16_t>(I + 54), PhNum = rd<uint16_t>(I + 56);
  uint16_t ShEnt = rd<uint16_t>(I + 58), ShNum = rd<uint16_t>(I + 60);
  uint64_t End = 64;
  End = std::max<uint64_t>(End, PhOff + uint64_t(PhEnt) * PhNum);
  End = std::max<uint64_t>(End, ShOff + uint64_t(ShEnt) * ShNum);
  for (unsigned K = 0; K < PhNum && PhEnt >= 56; ++K) {
    const uint8_t *P = I + PhOff + uint64_t(K) * PhEnt;
    End = std::max<uint64_t>(End, rd<uint64_t>(P + 8) + rd<uint64_t>(P + 32));
  }
  for (unsigned K = 0; K < ShNum && ShEnt >= 64; ++K) {
    const uint8_t *S = I + ShOff + uint64_t(K) * ShEnt;
    if (rd<uint32_t>(S + 4) == 8 /*SHT_NOBITS*/)
      continue;
    End = std::max<uint64_t>(End, rd<uint64_t>(S + 24) + rd<uint64_t>(S + 32));
  }
  return size_t(End);
}

//===----------------------------------------------------------------------===//
// msgpack
//===----------------------------------------------------------------------===//

namespace {

struct Node {
  enum Kind { Nil, Bool, Int, Float, Str, Arr, Map } K = Nil;
  int64_t I = 0;
  std::string S;
  std::vector<std::unique_ptr<Node>> Items;                 // Arr
  std::vector<std::pair<std::string, std::unique_ptr<Node>>> Fields; // Map
  const Node *get(const std::string &Key) const {
    for (auto &F : Fields)
      if (F.first == Key)
        return F.second.get();
    return nullptr;
  }
};

struct Reader {
  const uint8_t *P, *E;
  bool Bad = false;
  unsigned Depth = 0;
  uint64_t be(unsigned N) {
    if (size_t(E - P) < N) {
      Bad = true;
      return 0;
    }
    uint64_t V = 0;
    for (unsigned K = 0; K < N; ++K)
      V = V << 8 | P[K];
    P += N;
    return V;
  }
  std::string bytes(uint64_t N) {
    if (uint64_t(E - P) < N) {
      Bad = true;
      return "";
    }
    std::string S(reinterpret_cast<const char *>(P), N);
    P += N;
    return S;
  }
  std::unique_ptr<Node> parse() {
    auto N = std::make_unique<Node>();
    if (Bad || P >= E || ++Depth > 64) {
      Bad = true;
      return N;
    }
    uint8_t T = *P++;
    auto arr = [&](uint64_t Cnt) {
      N->K = Node::Arr;
      for (uint64_t K = 0; K < Cnt && !Bad; ++K)
        N->Items.push_back(parse());
    };
    auto map = [&](uint64_t Cnt) {
      N->K = Node::Map;
      for (uint64_t K = 0; K < Cnt && !Bad; ++K) {
        auto Key = parse();
        auto Val = parse();
        N->Fields.push_back({Key->S, std::move(Val)});
      }
    };
    if (T <= 0x7f) {
      N->K = Node::Int;
      N->I = T;
    } else if (T <= 0x8f) {
      map(T & 15);
    } else if (T <= 0x9f) {
      arr(T & 15);
    } else if (T <= 0xbf) {
      N->K = Node::Str;
      N->S = bytes(T & 31);
    } else if (T >= 0xe0) {
      N->K = Node::Int;
      N->I = int8_t(T);
    } else {
      switch (T) {
      case 0xc0: break;
      case 0xc2: N->K = Node::Bool; N->I = 0; break;
      case 0xc3: N->K = Node::Bool; N->I = 1; break;
      case 0xc4: N->S = bytes(be(1)); break;
      case 0xc5: N->S = bytes(be(2)); break;
      case 0xc6: N->S = bytes(be(4)); break;
      case 0xca: N->K = Node::Float; be(4); break;
      case 0xcb: N->K = Node::Float; be(8); break;
      case 0xcc: N->K = Node::Int; N->I = int64_t(be(1)); break;
      case 0xcd: N->K = Node::Int; N->I = int64_t(be(2)); break;
      case 0xce: N->K = Node::Int; N->I = int64_t(be(4)); break;
      case 0xcf: N->K = Node::Int; N->I = int64_t(be(8)); break;
      case 0xd0: N->K = Node::Int; N->I = int8_t(be(1)); break;
      case 0xd1: N->K = Node::Int; N->I = int16_t(be(2)); break;
      case 0xd2: N->K = Node::Int; N->I = int32_t(be(4)); break;
      case 0xd3: N->K = Node::Int; N->I = int64_t(be(8)); break;
      case 0xd9: N->K = Node::Str; N->S = bytes(be(1)); break;
      case 0xda: N->K = Node::Str; N->S = bytes(be(2)); break;
      case 0xdb: N->K = Node::Str; N->S = bytes(be(4)); break;
      case 0xdc: arr(be(2)); break;
      case 0xdd: arr(be(4)); break;
      case 0xde: map(be(2)); break;
      case 0xdf: map(be(4)); break;
      default: Bad = true; // ext types: not in AMDGPU metadata
      }
    }
    --Depth;
    return N;
  }
};

void collect(const Node &Root, CodeObjectInfo &Out) {
  if (const Node *T = Root.get("amdhsa.target"); T && T->K == Node::Str)
    Out.Target = T->S;
  const Node *Ks = Root.get("amdhsa.kernels");
  if (!Ks || Ks->K != Node::Arr)
    return;
  for (const auto &KN : Ks->Items) {
    if (KN->K != Node::Map)
      continue;
    KernelLayout K;
    if (const Node *N = KN->get(".name"))
      K.Name = N->S;
    if (const Node *N = KN->get(".kernarg_segment_size"))
      K.KernargSize = uint64_t(N->I);
    if (const Node *N = KN->get(".group_segment_fixed_size"))
      K.GroupSegmentFixedSize = uint64_t(N->I);
    if (const Node *As = KN->get(".args"); As && As->K == Node::Arr)
      for (const auto &AN : As->Items) {
        ArgLayout A;
        if (const Node *N = AN->get(".offset"))
          A.Offset = uint64_t(N->I);
        if (const Node *N = AN->get(".size"))
          A.Size = uint64_t(N->I);
        if (const Node *N = AN->get(".value_kind"))
          A.ValueKind = N->S;
        K.Args.push_back(A);
      }
    if (!K.Name.empty())
      Out.Kernels.push_back(std::move(K));
  }
}

} // namespace

bool readCodeObject(const uint8_t *I, size_t Size, CodeObjectInfo &Out,
                    std::string &Err) {
  if (Size < 64 || elfImageSize(I) == 0 || elfImageSize(I) > Size) {
    Err = "not a complete ELF64 code object";
    return false;
  }
  uint64_t ShOff = rd<uint64_t>(I + 40);
  uint16_t ShEnt = rd<uint16_t>(I + 58), ShNum = rd<uint16_t>(I + 60);
  bool Found = false;
  for (unsigned K = 0; K < ShNum; ++K) {
    const uint8_t *S = I + ShOff + uint64_t(K) * ShEnt;
    if (rd<uint32_t>(S + 4) != 7 /*SHT_NOTE*/)
      continue;
    uint64_t Off = rd<uint64_t>(S + 24), Len = rd<uint64_t>(S + 32);
    if (Off + Len > Size)
      continue;
    const uint8_t *P = I + Off, *E = I + Off + Len;
    while (E - P >= 12) {
      uint32_t NameSz = rd<uint32_t>(P), DescSz = rd<uint32_t>(P + 4),
               Type = rd<uint32_t>(P + 8);
      const uint8_t *Name = P + 12;
      const uint8_t *Desc = Name + ((NameSz + 3) & ~3u);
      if (Desc + DescSz > E || Desc < Name)
        break;
      if (Type == 32 /*NT_AMDGPU_METADATA*/ && NameSz >= 6 &&
          std::memcmp(Name, "AMDGPU", 6) == 0) {
        Reader R{Desc, Desc + DescSz};
        auto Root = R.parse();
        if (R.Bad || Root->K != Node::Map) {
          Err = "malformed AMDGPU metadata";
          return false;
        }
        collect(*Root, Out);
        Found = true;
      }
      P = Desc + ((DescSz + 3) & ~3u);
    }
  }
  if (!Found) {
    Err = "no AMDGPU metadata note";
    return false;
  }
  return true;
}

namespace {
std::vector<std::string> splitColons(const std::string &S) {
  std::vector<std::string> R;
  size_t P = 0;
  for (size_t C; (C = S.find(':', P)) != std::string::npos; P = C + 1)
    R.push_back(S.substr(P, C - P));
  R.push_back(S.substr(P));
  return R;
}
} // namespace

bool codeObjectFromBundle(const uint8_t *B, const std::string &Device,
                          std::vector<uint8_t> &Image, std::string &Err) {
  if (std::memcmp(B, "CCOB", 4) == 0) {
    Err = "compressed offload bundle (CCOB): not supported";
    return false;
  }
  if (std::memcmp(B, "__CLANG_OFFLOAD_BUNDLE__", 24) != 0) {
    Err = "not a clang offload bundle";
    return false;
  }
  std::vector<std::string> Dev = splitColons(Device);
  uint64_t N = rd<uint64_t>(B + 24);
  const uint8_t *P = B + 32;
  size_t Best = 0;
  uint64_t BestOff = 0, BestSize = 0;
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t Off = rd<uint64_t>(P), Size = rd<uint64_t>(P + 8),
             Len = rd<uint64_t>(P + 16);
    if (I >= 4096 || Len > 4096) {
      Err = "malformed offload bundle";
      return false;
    }
    std::string Id(reinterpret_cast<const char *>(P + 24), Len);
    P += 24 + Len;
    size_t At = Id.find("amdgcn-amd-amdhsa--");
    if (At == std::string::npos || Id.compare(0, 3, "hip") != 0 || !Size)
      continue;
    std::vector<std::string> E = splitColons(Id.substr(At + 19));
    bool Fits = E[0] == Dev[0];
    for (size_t K = 1; Fits && K < E.size(); ++K)
      Fits = std::find(Dev.begin() + 1, Dev.end(), E[K]) != Dev.end();
    if (Fits && E.size() > Best) {
      Best = E.size();
      BestOff = Off;
      BestSize = Size;
    }
  }
  if (!Best) {
    Err = "the bundle has no code object for " + Device;
    return false;
  }
  Image.assign(B + BestOff, B + BestOff + BestSize);
  return true;
}

std::vector<uint8_t> packKernelParams(const KernelLayout &K, void **Params) {
  std::vector<uint8_t> Out(K.KernargSize, 0);
  unsigned I = 0;
  for (const ArgLayout &A : K.Args) {
    if (A.hidden())
      continue;
    void *P = Params ? Params[I] : nullptr;
    ++I;
    if (!P || A.Offset + A.Size > Out.size())
      continue;
    std::memcpy(Out.data() + A.Offset, P, A.Size);
  }
  return Out;
}

bool kernargFromExtra(void **Extra, std::vector<uint8_t> &Out) {
  if (!Extra)
    return false;
  void *Buf = nullptr;
  size_t *Size = nullptr;
  for (unsigned K = 0; K < 16 && Extra[K] != (void *)0x03; K += 2) {
    if (Extra[K] == (void *)0x01)
      Buf = Extra[K + 1];
    else if (Extra[K] == (void *)0x02)
      Size = static_cast<size_t *>(Extra[K + 1]);
  }
  if (!Buf || !Size)
    return false;
  Out.assign(static_cast<uint8_t *>(Buf), static_cast<uint8_t *>(Buf) + *Size);
  return true;
}

} // namespace lite
} // namespace asmevo
