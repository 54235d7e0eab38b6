//===- HostRef.h - Host reference cases for the emulator ---------*- C++ -*-===//
//
// Ground truth that does not come from the emulator: each case runs an
// in-tree kernel (test/Kernels/*.hip) compiled as host C++ (-DASMEVO_HOST)
// on generated inputs. refgen writes, per case, the dispatch spec, the input
// buffers and the expected output buffers; run_hostref.py runs asmevo-run on
// the gfx942/gfx90a code objects and compares. Adding a kernel = one
// HOSTREF_CASE in the cases_<file>.cpp of its source.
//
//===----------------------------------------------------------------------===//
#ifndef ASMEVO_UNITTESTS_EMU_HOSTREF_H
#define ASMEVO_UNITTESTS_EMU_HOSTREF_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace hostref {

/// How an output buffer is compared: bit for bit, or elementwise floats
/// within Ulps units in the last place or an absolute bound.
struct Cmp {
  std::string Type = "bytes"; // bytes, f32, f64, f16
  double Ulps = 0, Abs = 0;
};
inline Cmp exact() { return Cmp(); }
inline Cmp f32ulp(double U, double A = 0) { return Cmp{"f32", U, A}; }
inline Cmp f64ulp(double U, double A = 0) { return Cmp{"f64", U, A}; }
inline Cmp f16ulp(double U, double A = 0) { return Cmp{"f16", U, A}; }

struct ArgRec {
  std::string Json;                 // the spec entry (for non-buffers)
  std::shared_ptr<std::vector<uint8_t>> Init, Data; // buffers
  Cmp C;
  bool Buffer = false, Compare = true;
};

struct Case {
  std::string Name, Source, Kernel;
  unsigned Grid[3] = {1, 1, 1}, Block[3] = {64, 1, 1};
  unsigned DynLds = 0;
  std::vector<ArgRec> Args;
  std::vector<std::string> Archs = {"gfx942", "gfx90a"};
  std::string Note;

  void i32(int32_t V) { scalar("i32", std::to_string(V)); }
  void u32(uint32_t V) { scalar("u32", std::to_string(V)); }
  void i64(int64_t V) { scalar("i64", std::to_string(V)); }
  void u64(uint64_t V) { scalar("u64", std::to_string(V)); }
  void i8(int8_t V) { scalar("i8", std::to_string(V)); }
  void i16(int16_t V) { scalar("i16", std::to_string(V)); }
  void f32(float V) {
    uint32_t B;
    std::memcpy(&B, &V, 4);
    scalar("f32_bits", "\"" + std::to_string(B) + "\"");
  }
  void f64(double V) {
    uint64_t B;
    std::memcpy(&B, &V, 8);
    bytes(&B, 8);
  }
  void bytes(const void *P, size_t N) {
    static const char *H = "0123456789abcdef";
    std::string S;
    for (size_t K = 0; K < N; ++K) {
      uint8_t X = static_cast<const uint8_t *>(P)[K];
      S += H[X >> 4];
      S += H[X & 15];
    }
    scalar("bytes", "\"" + S + "\"");
  }
  template <typename T> void value(const T &V) { bytes(&V, sizeof(T)); }
  /// A buffer argument with initial contents; returns the host copy the
  /// reference kernel works on (its final contents are the expectation).
  template <typename T> T *buf(const std::vector<T> &Init, Cmp C = exact()) {
    ArgRec A;
    A.Buffer = true;
    A.C = C;
    A.Init = std::make_shared<std::vector<uint8_t>>(Init.size() * sizeof(T));
    if (!Init.empty())
      std::memcpy(A.Init->data(), Init.data(), A.Init->size());
    A.Data = std::make_shared<std::vector<uint8_t>>(*A.Init);
    Args.push_back(A);
    return reinterpret_cast<T *>(Args.back().Data->data());
  }
  template <typename T> T *out(size_t N, Cmp C = exact()) {
    return buf(std::vector<T>(N, T()), C);
  }
  /// Marks the last buffer as not compared (order-dependent contents).
  void noCompare() { Args.back().Compare = false; }

private:
  void scalar(const char *K, const std::string &V) {
    ArgRec A;
    A.Json = std::string("{\"") + K + "\":" + V + "}";
    Args.push_back(A);
  }
};

using CaseFn = std::function<void(Case &)>;
struct Registry {
  static std::vector<std::pair<std::string, CaseFn>> &all() {
    static std::vector<std::pair<std::string, CaseFn>> R;
    return R;
  }
};
struct Registrar {
  Registrar(const char *Name, CaseFn F) {
    Registry::all().push_back({Name, std::move(F)});
  }
};

// Deterministic inputs.
template <typename T>
std::vector<T> randomInts(size_t N, int64_t Lo, int64_t Hi, uint64_t Seed) {
  std::mt19937_64 G(Seed);
  std::uniform_int_distribution<int64_t> D(Lo, Hi);
  std::vector<T> V(N);
  for (auto &X : V)
    X = T(D(G));
  return V;
}
template <typename T>
std::vector<T> randomReals(size_t N, double Lo, double Hi, uint64_t Seed) {
  std::mt19937_64 G(Seed);
  std::uniform_real_distribution<double> D(Lo, Hi);
  std::vector<T> V(N);
  for (auto &X : V)
    X = T(D(G));
  return V;
}

} // namespace hostref

#define HOSTREF_CAT2(A, B) A##B
#define HOSTREF_CAT(A, B) HOSTREF_CAT2(A, B)
#define HOSTREF_CASE(NAME)                                                     \
  static void HOSTREF_CAT(hostref_case_, __LINE__)(hostref::Case & c);         \
  static hostref::Registrar HOSTREF_CAT(hostref_reg_, __LINE__)(               \
      NAME, HOSTREF_CAT(hostref_case_, __LINE__));                             \
  static void HOSTREF_CAT(hostref_case_, __LINE__)(hostref::Case & c)

#endif
