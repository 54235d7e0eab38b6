#include "../../../test/Kernels/elementwise.hip"
#include "HostRef.h"
using namespace hostref;
using asmevo_host::launch;

HOSTREF_CASE("axpy_f32") {
  c.Source = "elementwise"; c.Kernel = "axpy_f32";
  int n = 1000; float a = 1.75f;
  c.Grid[0] = 4; c.Block[0] = 256;
  c.i32(n); c.f32(a);
  float *x = c.buf(randomReals<float>(n, -10, 10, 1));
  float *y = c.buf(randomReals<float>(n, -10, 10, 2));
  launch({4}, {256}, [&] { axpy_f32(n, a, x, y); });
}
// The device tanhf/expf go through v_exp_f32 (approximate), the host
// through libm: compare with a tolerance.
HOSTREF_CASE("gelu_tanh_f32") {
  c.Source = "elementwise"; c.Kernel = "gelu_tanh_f32";
  int n = 777;
  c.Grid[0] = 13; c.Block[0] = 64;
  c.i32(n);
  float *in = c.buf(randomReals<float>(n, -6, 6, 3));
  float *out = c.out<float>(n, f32ulp(64, 2e-6));
  launch({13}, {64}, [&] { gelu_tanh_f32(n, in, out); });
}
HOSTREF_CASE("gelu_erf_f32") {
  c.Source = "elementwise"; c.Kernel = "gelu_erf_f32";
  int n = 500;
  c.Grid[0] = 8; c.Block[0] = 64;
  c.i32(n);
  float *in = c.buf(randomReals<float>(n, -5, 5, 4));
  float *out = c.out<float>(n, f32ulp(64, 2e-6));
  launch({8}, {64}, [&] { gelu_erf_f32(n, in, out); });
}
HOSTREF_CASE("chain_f32") {
  c.Source = "elementwise"; c.Kernel = "chain_f32";
  int n = 640; float s = 0.75f;
  c.Grid[0] = 5; c.Block[0] = 128;
  c.i32(n); c.f32(s);
  float *in = c.buf(randomReals<float>(n, -4, 4, 5));
  float *out = c.out<float>(n, f32ulp(64, 4e-6));
  launch({5}, {128}, [&] { chain_f32(n, s, in, out); });
}
HOSTREF_CASE("bias_relu_f32x4") {
  c.Source = "elementwise"; c.Kernel = "bias_relu_f32x4";
  int rows = 37, cols = 64;
  c.Grid[0] = 3; c.Block[0] = 256;
  c.i32(rows); c.i32(cols);
  float *in = c.buf(randomReals<float>(rows * cols, -3, 3, 6));
  float *bias = c.buf(randomReals<float>(cols, -1, 1, 7));
  float *out = c.out<float>(rows * cols);
  launch({3}, {256}, [&] { bias_relu_f32x4(rows, cols, in, bias, out); });
}
HOSTREF_CASE("vadd_i32_gridstride") {
  c.Source = "elementwise"; c.Kernel = "vadd_i32_gridstride";
  int n = 5000;
  c.Grid[0] = 3; c.Block[0] = 192;
  c.i32(n);
  int *a = c.buf(randomInts<int>(n, INT32_MIN, INT32_MAX, 8));
  int *b = c.buf(randomInts<int>(n, INT32_MIN, INT32_MAX, 9));
  int *o = c.out<int>(n);
  launch({3}, {192}, [&] { vadd_i32_gridstride(n, a, b, o); });
}
