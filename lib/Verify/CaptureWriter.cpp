//===- CaptureWriter.cpp - Capture serialization, no LLVM -----------------===//
//
// Used by asmevoVerify and by the LD_PRELOAD interposer (tools/capture),
// which must not pull LLVM into the host process. Standard library only.
//
//===----------------------------------------------------------------------===//

#include "asmevo/Verify/CaptureWriter.h"

#include <cstdio>
#include <cstring>

namespace asmevo {
namespace verify {

//===----------------------------------------------------------------------===//
// SHA-256
//===----------------------------------------------------------------------===//

namespace {
constexpr uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

inline uint32_t rotr(uint32_t X, unsigned N) { return (X >> N) | (X << (32 - N)); }

void block(uint32_t H[8], const uint8_t *P) {
  uint32_t W[64];
  for (int I = 0; I < 16; ++I)
    W[I] = uint32_t(P[4 * I]) << 24 | uint32_t(P[4 * I + 1]) << 16 |
           uint32_t(P[4 * I + 2]) << 8 | P[4 * I + 3];
  for (int I = 16; I < 64; ++I) {
    uint32_t S0 = rotr(W[I - 15], 7) ^ rotr(W[I - 15], 18) ^ (W[I - 15] >> 3);
    uint32_t S1 = rotr(W[I - 2], 17) ^ rotr(W[I - 2], 19) ^ (W[I - 2] >> 10);
    W[I] = W[I - 16] + S0 + W[I - 7] + S1;
  }
  uint32_t A = H[0], B = H[1], C = H[2], D = H[3], E = H[4], F = H[5],
           G = H[6], Hh = H[7];
  for (int I = 0; I < 64; ++I) {
    uint32_t S1 = rotr(E, 6) ^ rotr(E, 11) ^ rotr(E, 25);
    uint32_t Ch = (E & F) ^ (~E & G);
    uint32_t T1 = Hh + S1 + Ch + K256[I] + W[I];
    uint32_t S0 = rotr(A, 2) ^ rotr(A, 13) ^ rotr(A, 22);
    uint32_t Maj = (A & B) ^ (A & C) ^ (B & C);
    uint32_t T2 = S0 + Maj;
    Hh = G; G = F; F = E; E = D + T1; D = C; C = B; B = A; A = T1 + T2;
  }
  H[0] += A; H[1] += B; H[2] += C; H[3] += D;
  H[4] += E; H[5] += F; H[6] += G; H[7] += Hh;
}
} // namespace

std::array<uint8_t, 32> sha256(const uint8_t *Data, size_t Size) {
  uint32_t H[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  size_t Full = Size / 64 * 64;
  for (size_t I = 0; I < Full; I += 64)
    block(H, Data + I);
  uint8_t Tail[128] = {};
  size_t R = Size - Full;
  if (R)
    std::memcpy(Tail, Data + Full, R);
  Tail[R] = 0x80;
  size_t TL = R + 1 + 8 <= 64 ? 64 : 128;
  uint64_t Bits = uint64_t(Size) * 8;
  for (int I = 0; I < 8; ++I)
    Tail[TL - 1 - I] = uint8_t(Bits >> (8 * I));
  for (size_t I = 0; I < TL; I += 64)
    block(H, Tail + I);
  std::array<uint8_t, 32> Out;
  for (int I = 0; I < 8; ++I)
    for (int J = 0; J < 4; ++J)
      Out[4 * I + J] = uint8_t(H[I] >> (24 - 8 * J));
  return Out;
}

std::string sha256HexStd(const uint8_t *Data, size_t Size) {
  auto D = sha256(Data, Size);
  static const char *Hex = "0123456789abcdef";
  std::string S;
  for (uint8_t B : D) {
    S += Hex[B >> 4];
    S += Hex[B & 15];
  }
  return S;
}

//===----------------------------------------------------------------------===//
// Serialization
//===----------------------------------------------------------------------===//

namespace {
std::string quote(const std::string &S) {
  std::string O = "\"";
  for (unsigned char C : S) {
    switch (C) {
    case '"': O += "\\\""; break;
    case '\\': O += "\\\\"; break;
    case '\n': O += "\\n"; break;
    case '\t': O += "\\t"; break;
    default:
      if (C < 0x20) {
        char B[8];
        std::snprintf(B, sizeof B, "\\u%04x", C);
        O += B;
      } else {
        O += char(C);
      }
    }
  }
  return O + "\"";
}

struct Blobs {
  std::vector<uint8_t> Data;
  std::string add(const std::vector<uint8_t> &B) {
    std::string R = "[" + std::to_string(Data.size()) + ", " +
                    std::to_string(B.size()) + "]";
    Data.insert(Data.end(), B.begin(), B.end());
    return R;
  }
};

std::string triple(const std::array<uint32_t, 3> &T) {
  return "[" + std::to_string(T[0]) + ", " + std::to_string(T[1]) + ", " +
         std::to_string(T[2]) + "]";
}

std::string hex64(uint64_t V) {
  char B[32];
  std::snprintf(B, sizeof B, "0x%llx", (unsigned long long)V);
  return B;
}

void put32(std::vector<uint8_t> &O, uint32_t V) {
  for (int I = 0; I < 4; ++I)
    O.push_back(uint8_t(V >> (8 * I)));
}
void put64(std::vector<uint8_t> &O, uint64_t V) {
  for (int I = 0; I < 8; ++I)
    O.push_back(uint8_t(V >> (8 * I)));
}
} // namespace

std::vector<uint8_t> serializeCapture(const CaptureData &C) {
  Blobs B;
  std::string J = "{\n";
  J += "  \"format\": \"asmevo-capture\",\n";
  J += "  \"version\": " + std::to_string(C.Version) + ",\n";
  J += "  \"producer\": " + quote(C.Producer) + ",\n";
  J += "  \"target\": " + quote(C.Target) + ",\n";
  J += "  \"kernel\": " + quote(C.Kernel) + ",\n";
  J += "  \"code_object\": {\"sha256\": " + quote(C.CodeObjectSha256) +
       ", \"blob\": " + (C.CodeObject.empty() ? "null" : B.add(C.CodeObject)) +
       "},\n";
  J += "  \"launch\": {\"workgroups\": " + triple(C.Workgroups) +
       ", \"workgroup_size\": " + triple(C.WorkgroupSize) +
       ", \"dynamic_lds\": " + std::to_string(C.DynamicLds) + "},\n";
  J += "  \"kernarg\": {\"blob\": " + B.add(C.Kernarg) +
       ", \"hidden_filled\": " + (C.KernargHasHidden ? "true" : "false") +
       "},\n";
  J += "  \"regions\": [";
  for (size_t I = 0; I < C.Regions.size(); ++I) {
    const CaptureRegion &R = C.Regions[I];
    J += I ? ",\n    " : "\n    ";
    std::string Access = std::string(R.Readable ? "r" : "") + (R.Writable ? "w" : "");
    J += "{\"address\": \"" + hex64(R.Address) + "\", \"size\": " +
         std::to_string(R.Size) + ", \"access\": " + quote(Access) +
         ", \"name\": " + quote(R.Name) + ", \"before\": " + B.add(R.Before) +
         ", \"after\": " + (R.HasAfter ? B.add(R.After) : std::string("null")) +
         "}";
  }
  J += C.Regions.empty() ? "],\n" : "\n  ],\n";
  J += "  \"note\": " + quote(C.Note) + "\n}\n";

  std::vector<uint8_t> Out(CaptureMagic, CaptureMagic + 8);
  put32(Out, C.Version);
  put32(Out, 0);
  put64(Out, J.size());
  Out.insert(Out.end(), J.begin(), J.end());
  Out.insert(Out.end(), B.Data.begin(), B.Data.end());
  auto H = sha256(Out.data(), Out.size());
  Out.insert(Out.end(), H.begin(), H.end());
  return Out;
}

bool writeCapture(const CaptureData &C, const std::string &Path) {
  std::vector<uint8_t> Bytes = serializeCapture(C);
  std::string Tmp = Path + ".tmp";
  FILE *F = std::fopen(Tmp.c_str(), "wb");
  if (!F)
    return false;
  bool Ok = std::fwrite(Bytes.data(), 1, Bytes.size(), F) == Bytes.size();
  Ok &= std::fclose(F) == 0;
  if (!Ok || std::rename(Tmp.c_str(), Path.c_str()) != 0) {
    std::remove(Tmp.c_str());
    return false;
  }
  return true;
}

} // namespace verify
} // namespace asmevo
