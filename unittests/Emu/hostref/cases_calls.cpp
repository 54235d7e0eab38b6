#include "../../../test/Kernels/calls.hip"
#include "HostRef.h"
using namespace hostref;

HOSTREF_CASE("poly_eval_f32") {
  c.Source = "calls"; c.Kernel = "poly_eval_f32";
  int n = 300, degree = 6;
  c.Grid[0] = 5; c.Block[0] = 64;
  c.i32(n); c.i32(degree);
  float *coef = c.buf(randomReals<float>(degree + 1, -2, 2, 101));
  float *x = c.buf(randomReals<float>(n, -1.5, 1.5, 102));
  float *y = c.out<float>(n);
  asmevo_host::launch({5}, {64}, [&] { poly_eval_f32(n, degree, coef, x, y); });
}
HOSTREF_CASE("poly_diff_f32") {
  c.Source = "calls"; c.Kernel = "poly_diff_f32";
  int n = 200, degree = 5; float h = 0.01f;
  c.Grid[0] = 4; c.Block[0] = 64;
  c.i32(n); c.i32(degree); c.f32(h);
  float *coef = c.buf(randomReals<float>(degree + 1, -2, 2, 103));
  float *x = c.buf(randomReals<float>(n, -1.5, 1.5, 104));
  float *y = c.out<float>(n, f32ulp(4));
  asmevo_host::launch({4}, {64}, [&] { poly_diff_f32(n, degree, h, coef, x, y); });
}
HOSTREF_CASE("poly_integrate_f32") {
  c.Source = "calls"; c.Kernel = "poly_integrate_f32";
  int n = 64, degree = 4, depth = 3;
  c.Grid[0] = 1; c.Block[0] = 64;
  c.i32(n); c.i32(degree); c.i32(depth);
  float *coef = c.buf(randomReals<float>(degree + 1, -2, 2, 105));
  float *lo = c.buf(randomReals<float>(n, -2, 2, 106));
  float *out = c.out<float>(n, f32ulp(2));
  asmevo_host::launch({1}, {64}, [&] { poly_integrate_f32(n, degree, depth, coef, lo, out); });
}
