//===- MetadataPatch.cpp - Rewrite metadata values inside a note ----------===//
//
// A rewrite changes a few metadata values (register counts, segment sizes).
// Re-serialising the whole note would change its size and move every section
// after it; instead each changed scalar is written over its original bytes
// in the same msgpack width (msgpack allows any width for a value). Changes of
// structure, or values that do not fit the original width, are refused.
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/Metadata.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace asmevo;

namespace {

class Patcher {
public:
  Patcher(MutableArrayRef<uint8_t> Blob) : B(Blob) {}

  /// Walks the blob's object at Pos together with New (the wanted value).
  Error walk(const msgpack::DocNode &New, const Twine &Path) {
    if (Pos >= B.size())
      return fail(Path, "truncated");
    uint8_t T = B[Pos];
    // Containers.
    uint64_t N;
    bool IsMap;
    if (containerHeader(T, N, IsMap)) {
      auto &NewMut = const_cast<msgpack::DocNode &>(New);
      if (IsMap != New.isMap() || (!IsMap && !New.isArray()))
        return fail(Path, "the structure changed");
      if ((IsMap && NewMut.getMap().size() != N) ||
          (!IsMap && NewMut.getArray().size() != N))
        return fail(Path, "the number of entries changed");
      for (uint64_t I = 0; I < N; ++I) {
        if (IsMap) {
          std::string Key;
          if (Error E = readKey(Key))
            return E;
          auto It = NewMut.getMap().find(Key);
          if (It == NewMut.getMap().end())
            return fail(Path, "key " + Key + " was removed");
          if (Error E = walk(It->second, Path + "/" + Key))
            return E;
        } else if (Error E = walk(NewMut.getArray()[I],
                                  Path + "[" + Twine(I) + "]")) {
          return E;
        }
      }
      return Error::success();
    }
    return scalar(New, Path);
  }

private:
  Error fail(const Twine &Path, const Twine &Why) {
    return createStringError("metadata " + Path.str() + ": " + Why.str() +
                             "; only values that keep their size can be "
                             "rewritten in place");
  }

  uint64_t readBE(unsigned N) {
    uint64_t V = 0;
    for (unsigned I = 0; I < N; ++I)
      V = V << 8 | B[Pos + I];
    return V;
  }
  void writeBE(uint64_t At, unsigned N, uint64_t V) {
    for (unsigned I = 0; I < N; ++I)
      B[At + I] = uint8_t(V >> (8 * (N - 1 - I)));
  }

  bool containerHeader(uint8_t T, uint64_t &N, bool &IsMap) {
    if ((T & 0xf0) == 0x80 || (T & 0xf0) == 0x90) {
      IsMap = (T & 0xf0) == 0x80;
      N = T & 0x0f;
      Pos += 1;
      return true;
    }
    if (T >= 0xdc && T <= 0xdf) {
      IsMap = T >= 0xde;
      unsigned W = (T == 0xdc || T == 0xde) ? 2 : 4;
      ++Pos;
      N = readBE(W);
      Pos += W;
      return true;
    }
    return false;
  }

  Error readKey(std::string &Key) {
    uint8_t T = B[Pos];
    uint64_t Len;
    unsigned H;
    if ((T & 0xe0) == 0xa0) {
      Len = T & 0x1f;
      H = 1;
    } else if (T == 0xd9 || T == 0xda || T == 0xdb) {
      unsigned W = T == 0xd9 ? 1 : T == 0xda ? 2 : 4;
      ++Pos;
      Len = readBE(W);
      --Pos;
      H = 1 + W;
    } else {
      return createStringError("metadata: a map key is not a string");
    }
    Key.assign(reinterpret_cast<const char *>(B.data() + Pos + H), Len);
    Pos += H + Len;
    return Error::success();
  }

  /// Rewrites one scalar in place if it changed.
  Error scalar(const msgpack::DocNode &New, const Twine &Path) {
    uint8_t T = B[Pos];
    // Integers.
    int Width = -1; // bytes after the type byte; 0 for fixints
    bool Signed = false;
    if (T <= 0x7f || T >= 0xe0)
      Width = 0, Signed = T >= 0xe0;
    else if (T >= 0xcc && T <= 0xcf)
      Width = 1 << (T - 0xcc);
    else if (T >= 0xd0 && T <= 0xd3)
      Width = 1 << (T - 0xd0), Signed = true;
    if (Width >= 0) {
      int64_t Old;
      if (Width == 0)
        Old = Signed ? int64_t(int8_t(T)) : int64_t(T);
      else {
        ++Pos;
        uint64_t U = readBE(Width);
        --Pos;
        Old = Signed ? int64_t(U << (64 - 8 * Width)) >> (64 - 8 * Width)
                     : int64_t(U);
      }
      int64_t V;
      if (New.getKind() == msgpack::Type::UInt)
        V = int64_t(New.getUInt());
      else if (New.getKind() == msgpack::Type::Int)
        V = New.getInt();
      else
        return fail(Path, "an integer became another kind of value");
      if (V != Old) {
        if (Width == 0) {
          bool Fits = Signed ? (V >= -32 && V < 0) || (V >= 0 && V <= 127)
                             : V >= 0 && V <= 127;
          if (!Fits)
            return fail(Path, formatv("{0} does not fit the original 1-byte "
                                      "encoding",
                                      V));
          B[Pos] = uint8_t(int8_t(V));
        } else {
          bool Fits = Signed ? Width == 8 || (V >= -(int64_t(1) << (8 * Width - 1)) &&
                                              V < (int64_t(1) << (8 * Width - 1)))
                             : V >= 0 && (Width == 8 || uint64_t(V) < (uint64_t(1) << (8 * Width)));
          if (!Fits)
            return fail(Path, formatv("{0} does not fit the original {1}-byte "
                                      "encoding",
                                      V, Width));
          writeBE(Pos + 1, Width, uint64_t(V));
        }
      }
      Pos += 1 + Width;
      return Error::success();
    }
    if (T == 0xc2 || T == 0xc3) {
      if (New.getKind() != msgpack::Type::Boolean)
        return fail(Path, "a boolean became another kind of value");
      B[Pos] = New.getBool() ? 0xc3 : 0xc2;
      ++Pos;
      return Error::success();
    }
    if (T == 0xc0) {
      ++Pos;
      return Error::success();
    }
    // Strings: same length only.
    if ((T & 0xe0) == 0xa0 || T == 0xd9 || T == 0xda || T == 0xdb) {
      uint64_t Start = Pos;
      std::string Old;
      if (Error E = readKey(Old))
        return E;
      if (New.getKind() != msgpack::Type::String)
        return fail(Path, "a string became another kind of value");
      StringRef S = New.getString();
      if (S != Old) {
        if (S.size() != Old.size())
          return fail(Path, "a string changed its length");
        std::copy(S.begin(), S.end(), B.begin() + (Pos - S.size()));
      }
      (void)Start;
      return Error::success();
    }
    if (T == 0xca || T == 0xcb) {
      if (New.getKind() != msgpack::Type::Float)
        return fail(Path, "a float became another kind of value");
      double Old;
      if (T == 0xca) {
        uint32_t U = uint32_t(readBEAt(Pos + 1, 4));
        float F;
        memcpy(&F, &U, 4);
        Old = F;
      } else {
        uint64_t U = readBEAt(Pos + 1, 8);
        memcpy(&Old, &U, 8);
      }
      if (Old != New.getFloat())
        return fail(Path, "rewriting floating-point metadata is not supported");
      Pos += T == 0xca ? 5 : 9;
      return Error::success();
    }
    return fail(Path, formatv("unsupported msgpack type {0:x2}", T));
  }
  uint64_t readBEAt(uint64_t At, unsigned N) {
    uint64_t Save = Pos;
    Pos = At;
    uint64_t V = readBE(N);
    Pos = Save;
    return V;
  }

  MutableArrayRef<uint8_t> B;
  uint64_t Pos = 0;
};

} // namespace

Error asmevo::patchMetadataInPlace(MutableArrayRef<uint8_t> Blob,
                                   const msgpack::DocNode &NewRoot) {
  if (Error E = validateMsgpack(
          StringRef(reinterpret_cast<const char *>(Blob.data()), Blob.size())))
    return E;
  Patcher P(Blob);
  return P.walk(NewRoot, "");
}
