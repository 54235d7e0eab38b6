#include "../../../test/Kernels/switch.hip"
#include "HostRef.h"
using namespace hostref;

HOSTREF_CASE("interp_u32") {
  c.Source = "switch"; c.Kernel = "interp_u32";
  int n = 200, len = 40;
  c.Grid[0] = 4; c.Block[0] = 64;
  c.i32(n); c.i32(len);
  unsigned *code = c.buf(randomInts<unsigned>(n * len, 0, UINT32_MAX, 61));
  unsigned *data = c.buf(randomInts<unsigned>(n, 0, UINT32_MAX, 62));
  unsigned *out = c.out<unsigned>(n);
  asmevo_host::launch({4}, {64}, [&] { interp_u32(n, len, code, data, out); });
  c.Archs.push_back("gfx942:switch-longbranch");
}
HOSTREF_CASE("classify_f32") {
  c.Source = "switch"; c.Kernel = "classify_f32";
  int n = 300;
  c.Grid[0] = 5; c.Block[0] = 64;
  c.i32(n);
  float *x = c.buf(randomReals<float>(n, -4, 4, 63));
  float *y = c.buf(randomReals<float>(n, -4, 4, 64));
  int *out = c.out<int>(n);
  asmevo_host::launch({5}, {64}, [&] { classify_f32(n, x, y, out); });
}
