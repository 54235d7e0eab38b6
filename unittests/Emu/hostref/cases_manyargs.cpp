#include "../../../test/Kernels/manyargs.hip"
#include "HostRef.h"
using namespace hostref;

// Small integers: every partial sum is exact, whatever the association.
static std::vector<float> smallPos(size_t N, uint64_t Seed) {
  auto I = randomInts<int>(N, -8, 8, Seed);
  return std::vector<float>(I.begin(), I.end());
}

HOSTREF_CASE("mixed_scalars") {
  c.Source = "manyargs"; c.Kernel = "mixed_scalars";
  signed char ch = -7; short s = 1234; int i = -56789; long long l = 1LL << 40;
  __half h = (__half)0.75f; float f = 1.25f; double d = -2.5;
  unsigned char flag = 1; int n = 200;
  c.Grid[0] = 4; c.Block[0] = 64;
  c.i8(ch);
  float *x = c.buf(randomReals<float>(n, -3, 3, 151));
  c.i16(s);
  float *y = c.out<float>(n, f32ulp(2));
  c.i32(i); c.i64(l); c.value(h); c.f32(f); c.f64(d); c.value(flag); c.i32(n);
  asmevo_host::launch({4}, {64}, [&] { mixed_scalars(ch, x, s, y, i, l, h, f, d, flag, n); });
}
HOSTREF_CASE("struct_args") {
  c.Source = "manyargs"; c.Kernel = "struct_args";
  Params p{};
  p.c = -3; p.s = 300; p.i = -4000; p.l = 123456789012LL; p.f = 0.5f; p.d = 7.25;
  p.u[0] = 1; p.u[1] = 2; p.u[2] = 3;
  Small q{1.5f, 5};
  int n = 150;
  c.Grid[0] = 3; c.Block[0] = 64;
  c.value(p);
  float *x = c.buf(randomReals<float>(n, -3, 3, 152));
  c.value(q);
  float *y = c.out<float>(n, f32ulp(2));
  c.i32(n);
  asmevo_host::launch({3}, {64}, [&] { struct_args(p, x, q, y, n); });
}
HOSTREF_CASE("sum16_ptrs") {
  c.Source = "manyargs"; c.Kernel = "sum16_ptrs";
  int n = 130;
  c.Grid[0] = 3; c.Block[0] = 64;
  c.i32(n);
  float *a[16];
  for (int k = 0; k < 16; ++k)
    a[k] = c.buf(smallPos(n, 160 + k));
  float *out = c.out<float>(n);
  asmevo_host::launch({3}, {64}, [&] {
    sum16_ptrs(n, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9],
               a[10], a[11], a[12], a[13], a[14], a[15], out);
  });
}
HOSTREF_CASE("table_arg") {
  c.Source = "manyargs"; c.Kernel = "table_arg";
  Table t;
  auto V = randomReals<float>(64, -2, 2, 170);
  for (int k = 0; k < 64; ++k)
    t.c[k] = V[k];
  int n = 200;
  c.Grid[0] = 4; c.Block[0] = 64;
  c.value(t); c.i32(n);
  int *idx = c.buf(randomInts<int>(n, 0, 4095, 171));
  float *out = c.out<float>(n);
  asmevo_host::launch({4}, {64}, [&] { table_arg(t, n, idx, out); });
}
