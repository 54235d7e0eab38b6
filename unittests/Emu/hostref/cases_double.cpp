#include "../../../test/Kernels/double.hip"
#include "HostRef.h"
using namespace hostref;
using asmevo_host::launch;

HOSTREF_CASE("daxpy") {
  c.Source = "double"; c.Kernel = "daxpy";
  int n = 500; double a = -1.25;
  c.Grid[0] = 2; c.Block[0] = 256;
  c.i32(n); c.f64(a);
  double *x = c.buf(randomReals<double>(n, -100, 100, 31));
  double *y = c.buf(randomReals<double>(n, -100, 100, 32));
  launch({2}, {256}, [&] { daxpy(n, a, x, y); });
}
// Division and sqrt go through v_rcp_f64/v_rsq_f64 refinement sequences.
HOSTREF_CASE("dmix") {
  c.Source = "double"; c.Kernel = "dmix";
  int n = 500;
  c.Grid[0] = 2; c.Block[0] = 256;
  c.i32(n);
  double *x = c.buf(randomReals<double>(n, -1000, 1000, 33));
  double *y = c.buf(randomReals<double>(n, -1000, 1000, 34));
  double *o = c.out<double>(n, f64ulp(4));
  launch({2}, {256}, [&] { dmix(n, x, y, o); });
}
HOSTREF_CASE("dconv") {
  c.Source = "double"; c.Kernel = "dconv";
  int n = 300;
  c.Grid[0] = 5; c.Block[0] = 64;
  c.i32(n);
  double *x = c.buf(randomReals<double>(n, -1e6, 1e6, 35));
  int *k = c.buf(randomInts<int>(n, -100000, 100000, 36));
  long long *l = c.buf(randomInts<long long>(n, -1000000000LL, 1000000000LL, 37));
  unsigned long long *u = c.buf(randomInts<unsigned long long>(n, 0, 1ll << 40, 38));
  float *o = c.out<float>(n);
  launch({5}, {64}, [&] { dconv(n, x, k, l, u, o); });
}
HOSTREF_CASE("ddot_block") {
  c.Source = "double"; c.Kernel = "ddot_block";
  int n = 1000;
  c.Grid[0] = 4; c.Block[0] = 256;
  c.i32(n);
  double *x = c.buf(randomReals<double>(n, -2, 2, 39));
  double *y = c.buf(randomReals<double>(n, -2, 2, 40));
  double *o = c.out<double>(4, f64ulp(2));
  asmevo_host::launch_threaded({4}, {256}, [&] { ddot_block(n, x, y, o); });
}
