#include "../../../test/Kernels/control_flow.hip"
#include "HostRef.h"
using namespace hostref;
using asmevo_host::launch;

HOSTREF_CASE("collatz") {
  c.Source = "control_flow"; c.Kernel = "collatz";
  int n = 700, cap = 500;
  c.Grid[0] = 11; c.Block[0] = 64;
  c.i32(n); c.i32(cap);
  unsigned *in = c.buf(randomInts<unsigned>(n, 1, 100000, 21));
  int *out = c.out<int>(n);
  launch({11}, {64}, [&] { collatz(n, cap, in, out); });
}
HOSTREF_CASE("piecewise_f32") {
  c.Source = "control_flow"; c.Kernel = "piecewise_f32";
  int n = 512, mode = 3;
  c.Grid[0] = 4; c.Block[0] = 128;
  c.i32(n); c.i32(mode);
  float *in = c.buf(randomReals<float>(n, -4, 6, 22));
  // sqrtf: v_sqrt_f32 is approximate (1 ulp).
  float *out = c.out<float>(n, f32ulp(2));
  launch({4}, {128}, [&] { piecewise_f32(n, mode, in, out); });
}
HOSTREF_CASE("divisor_scan_i32") {
  c.Source = "control_flow"; c.Kernel = "divisor_scan_i32";
  int n = 300, lim = 90, stop = 7;
  c.Grid[0] = 5; c.Block[0] = 64;
  c.i32(n); c.i32(lim); c.i32(stop);
  int *in = c.buf(randomInts<int>(n, 1, 100000, 23));
  int *out = c.out<int>(n);
  launch({5}, {64}, [&] { divisor_scan_i32(n, lim, stop, in, out); });
}
HOSTREF_CASE("escape_time") {
  c.Source = "control_flow"; c.Kernel = "escape_time";
  int n = 400, iters = 200; float r = 3.9f, lo = 0.05f, hi = 0.95f;
  c.Grid[0] = 7; c.Block[0] = 64;
  c.i32(n); c.i32(iters); c.f32(r); c.f32(lo); c.f32(hi);
  float *x0 = c.buf(randomReals<float>(n, 0.1, 0.9, 24));
  int *out = c.out<int>(n);
  launch({7}, {64}, [&] { escape_time(n, iters, r, lo, hi, x0, out); });
}
