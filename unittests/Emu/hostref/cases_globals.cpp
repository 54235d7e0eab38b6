#include "../../../test/Kernels/globals.hip"
#include "HostRef.h"
using namespace hostref;

HOSTREF_CASE("poly_const") {
  c.Source = "globals"; c.Kernel = "poly_const";
  int n = 300;
  c.Grid[0] = 5; c.Block[0] = 64;
  c.i32(n);
  float *x = c.buf(randomReals<float>(n, -2, 2, 111));
  float *y = c.out<float>(n);
  asmevo_host::launch({5}, {64}, [&] { poly_const(n, x, y); });
}
HOSTREF_CASE("permute_const") {
  c.Source = "globals"; c.Kernel = "permute_const";
  int n = 256;
  c.Grid[0] = 4; c.Block[0] = 64;
  c.i32(n);
  float *x = c.buf(randomReals<float>(n, -2, 2, 112));
  float *y = c.out<float>(n);
  asmevo_host::launch({4}, {64}, [&] { permute_const(n, x, y); });
}
