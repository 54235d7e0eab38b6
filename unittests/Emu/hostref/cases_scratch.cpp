#include "../../../test/Kernels/scratch.hip"
#include "HostRef.h"
using namespace hostref;

HOSTREF_CASE("private_sort64") {
  c.Source = "scratch"; c.Kernel = "private_sort64";
  int n = 100;
  c.Grid[0] = 2; c.Block[0] = 64;
  c.i32(n);
  float *in = c.buf(randomReals<float>(n * 64, -50, 50, 71));
  int *pick = c.buf(randomInts<int>(n, 0, 0xffff, 72));
  float *out = c.out<float>(2 * n);
  asmevo_host::launch({2}, {64}, [&] { private_sort64(n, in, pick, out); });
}
HOSTREF_CASE("private_table_u32") {
  c.Source = "scratch"; c.Kernel = "private_table_u32";
  int n = 128, len = 64;
  c.Grid[0] = 2; c.Block[0] = 64;
  c.i32(n); c.i32(len);
  unsigned *keys = c.buf(randomInts<unsigned>(len, 0, UINT32_MAX, 73));
  unsigned *out = c.out<unsigned>(n);
  asmevo_host::launch({2}, {64}, [&] { private_table_u32(n, len, keys, out); });
}
HOSTREF_CASE("vgpr_dynamic_index") {
  c.Source = "scratch"; c.Kernel = "vgpr_dynamic_index";
  int n = 200, sel = 0x5a;
  c.Grid[0] = 4; c.Block[0] = 64;
  c.i32(n); c.i32(sel);
  float *in = c.buf(randomReals<float>(n, -3, 3, 74));
  int *idx = c.buf(randomInts<int>(n, 0, 1000, 75));
  // the host may fuse in*(k+1)+100 into one fma: 1 ulp
  float *out = c.out<float>(n, f32ulp(1));
  asmevo_host::launch({4}, {64}, [&] { vgpr_dynamic_index(n, sel, in, idx, out); });
}
