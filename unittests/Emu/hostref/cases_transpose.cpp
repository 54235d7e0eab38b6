#include "../../../test/Kernels/transpose.hip"
#include "HostRef.h"
using namespace hostref;

HOSTREF_CASE("transpose_lds_f32") {
  c.Source = "transpose"; c.Kernel = "transpose_lds_f32";
  int M = 70, N = 45;
  c.Grid[0] = (N + 31) / 32; c.Grid[1] = (M + 31) / 32;
  c.Block[0] = 32; c.Block[1] = 8;
  c.i32(M); c.i32(N);
  float *in = c.buf(randomReals<float>(M * N, -9, 9, 51));
  float *out = c.out<float>(M * N);
  asmevo_host::launch_threaded({c.Grid[0], c.Grid[1]}, {32, 8},
                               [&] { transpose_lds_f32(M, N, in, out); });
}
HOSTREF_CASE("transpose_naive_f32") {
  c.Source = "transpose"; c.Kernel = "transpose_naive_f32";
  int M = 33, N = 50;
  c.Grid[0] = 4; c.Grid[1] = 5; c.Block[0] = 16; c.Block[1] = 8;
  c.i32(M); c.i32(N);
  float *in = c.buf(randomReals<float>(M * N, -9, 9, 52));
  float *out = c.out<float>(M * N);
  asmevo_host::launch({4, 5}, {16, 8}, [&] { transpose_naive_f32(M, N, in, out); });
}
HOSTREF_CASE("stencil3d_f32") {
  c.Source = "transpose"; c.Kernel = "stencil3d_f32";
  int X = 12, Y = 10, Z = 9;
  c.Grid[0] = 3; c.Grid[1] = 3; c.Grid[2] = 3;
  c.Block[0] = 4; c.Block[1] = 4; c.Block[2] = 4;
  c.i32(X); c.i32(Y); c.i32(Z);
  float *in = c.buf(randomReals<float>(X * Y * Z, -1, 1, 53));
  float *out = c.out<float>(X * Y * Z, f32ulp(2, 1e-6)); // fma contraction differs
  asmevo_host::launch({3, 3, 3}, {4, 4, 4}, [&] { stencil3d_f32(X, Y, Z, in, out); });
}
