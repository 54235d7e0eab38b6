#include "../../../test/Kernels/intdiv.hip"
#include "HostRef.h"
using namespace hostref;
using asmevo_host::launch;

template <typename T> static std::vector<T> nonzero(std::vector<T> V) {
  for (auto &X : V)
    if (X == 0)
      X = 1;
  return V;
}
HOSTREF_CASE("div_i32") {
  c.Source = "intdiv"; c.Kernel = "div_i32";
  int n = 1000;
  c.Grid[0] = 4; c.Block[0] = 256;
  c.i32(n);
  std::vector<int> A = randomInts<int>(n, INT32_MIN + 1, INT32_MAX, 11);
  std::vector<int> B = nonzero(randomInts<int>(n, -70000, 70000, 12));
  A[0] = INT32_MIN + 1; B[0] = -1; A[1] = 7; B[1] = INT32_MIN; A[2] = 0;
  int *a = c.buf(A), *b = c.buf(B);
  int *o = c.out<int>(n);
  launch({4}, {256}, [&] { div_i32(n, a, b, o); });
}
HOSTREF_CASE("div_u32") {
  c.Source = "intdiv"; c.Kernel = "div_u32";
  int n = 1000;
  c.Grid[0] = 4; c.Block[0] = 256;
  c.i32(n);
  std::vector<unsigned> A = randomInts<unsigned>(n, 0, UINT32_MAX, 13);
  std::vector<unsigned> B = nonzero(randomInts<unsigned>(n, 0, UINT32_MAX, 14));
  for (int k = 0; k < 100; ++k)
    B[k] = k + 1;
  B[100] = UINT32_MAX; A[101] = UINT32_MAX; B[101] = 1;
  unsigned *a = c.buf(A), *b = c.buf(B);
  unsigned *o = c.out<unsigned>(n);
  launch({4}, {256}, [&] { div_u32(n, a, b, o); });
}
HOSTREF_CASE("div_const") {
  c.Source = "intdiv"; c.Kernel = "div_const";
  int n = 1000;
  c.Grid[0] = 4; c.Block[0] = 256;
  c.i32(n);
  std::vector<int> A = randomInts<int>(n, INT32_MIN, INT32_MAX, 15);
  A[0] = INT32_MIN; A[1] = INT32_MAX; A[2] = -1; A[3] = 0;
  int *a = c.buf(A);
  int *o = c.out<int>(n);
  launch({4}, {256}, [&] { div_const(n, a, o); });
}
HOSTREF_CASE("div_i64") {
  c.Source = "intdiv"; c.Kernel = "div_i64";
  int n = 600;
  c.Grid[0] = 3; c.Block[0] = 256;
  c.i32(n);
  auto A = randomInts<long long>(n, INT64_MIN + 1, INT64_MAX, 16);
  auto B = nonzero(randomInts<long long>(n, -5000000000LL, 5000000000LL, 17));
  for (int k = 0; k < 50; ++k)
    B[k] = k - 25 == 0 ? 3 : k - 25;
  long long *a = c.buf(A), *b = c.buf(B);
  long long *o = c.out<long long>(n);
  launch({3}, {256}, [&] { div_i64(n, a, b, o); });
}
HOSTREF_CASE("div_u64") {
  c.Source = "intdiv"; c.Kernel = "div_u64";
  int n = 600;
  c.Grid[0] = 3; c.Block[0] = 256;
  c.i32(n);
  auto A = randomInts<unsigned long long>(n, 0, INT64_MAX, 18);
  auto B = nonzero(randomInts<unsigned long long>(n, 1, 1ll << 40, 19));
  for (int k = 0; k < 50; ++k)
    B[k] = k + 1;
  unsigned long long *a = c.buf(A), *b = c.buf(B);
  unsigned long long *o = c.out<unsigned long long>(n);
  launch({3}, {256}, [&] { div_u64(n, a, b, o); });
}
HOSTREF_CASE("div_uniform") {
  c.Source = "intdiv"; c.Kernel = "div_uniform";
  int n = 1000; unsigned d = 37;
  c.Grid[0] = 4; c.Block[0] = 256;
  c.i32(n); c.u32(d);
  unsigned *a = c.buf(randomInts<unsigned>(n, 0, UINT32_MAX, 20));
  unsigned *o = c.out<unsigned>(n);
  launch({4}, {256}, [&] { div_uniform(n, d, a, o); });
}
