#include "../../../test/Kernels/reduce.hip"
#include "HostRef.h"
using namespace hostref;

HOSTREF_CASE("reduce_sum_f32") {
  c.Source = "reduce"; c.Kernel = "reduce_sum_f32";
  int n = 1000;
  c.Grid[0] = 4; c.Block[0] = 256;
  c.i32(n);
  float *in = c.buf(randomReals<float>(n, -1, 1, 41));
  float *out = c.out<float>(4);
  ref_reduce_sum_f32(n, in, out, 4);
}
HOSTREF_CASE("reduce_max_i32") {
  c.Source = "reduce"; c.Kernel = "reduce_max_i32";
  int n = 3000;
  c.Grid[0] = 3; c.Block[0] = 1024;
  c.i32(n);
  int *in = c.buf(randomInts<int>(n, INT32_MIN, INT32_MAX, 42));
  int *out = c.out<int>(3);
  for (int b = 0; b < 3; ++b) {
    int m = INT32_MIN;
    for (int t = 0; t < 1024; ++t)
      if (b * 1024 + t < n)
        m = std::max(m, in[b * 1024 + t]);
    out[b] = m;
  }
}
HOSTREF_CASE("softmax_row_f32") {
  c.Source = "reduce"; c.Kernel = "softmax_row_f32";
  int rows = 3, cols = 700;
  c.Grid[0] = rows; c.Block[0] = 256;
  c.i32(cols);
  float *x = c.buf(randomReals<float>(rows * cols, -5, 5, 43));
  float *y = c.out<float>(rows * cols, f32ulp(64, 1e-7));
  asmevo_host::launch_threaded({unsigned(rows)}, {256},
                               [&] { softmax_row_f32(cols, x, y); });
}
HOSTREF_CASE("scan_dynamic_lds") {
  c.Source = "reduce"; c.Kernel = "scan_dynamic_lds";
  int n = 500;
  c.Grid[0] = 4; c.Block[0] = 128; c.DynLds = 2 * 128 * 4;
  c.i32(n);
  std::vector<float> D = randomReals<float>(n, -1, 1, 44);
  float *data = c.buf(D);
  float *out = c.out<float>(4);
  asmevo_host::launch_threaded({4}, {128}, [&] { scan_dynamic_lds(n, data, out); });
}
