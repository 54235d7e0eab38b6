#include "../../../test/Kernels/half.hip"
#include "HostRef.h"
using namespace hostref;

static std::vector<__half> halves(size_t N, double Lo, double Hi, uint64_t S) {
  auto F = randomReals<float>(N, Lo, Hi, S);
  return std::vector<__half>(F.begin(), F.end());
}
// f16 fma vs host (which may compute a*x+y in f32 and round once, or twice):
// 1 ulp of f16.
HOSTREF_CASE("haxpy") {
  c.Source = "half"; c.Kernel = "haxpy";
  int n = 300; __half a = (__half)1.5f;
  c.Grid[0] = 5; c.Block[0] = 64;
  c.i32(n); c.value(a);
  __half *x = c.buf(halves(n, -4, 4, 141));
  __half *y = c.buf(halves(n, -4, 4, 142), f16ulp(1));
  asmevo_host::launch({5}, {64}, [&] { haxpy(n, a, x, y); });
}
HOSTREF_CASE("half_convert") {
  c.Source = "half"; c.Kernel = "half_convert";
  int n = 300;
  c.Grid[0] = 5; c.Block[0] = 64;
  c.i32(n);
  __half *in = c.buf(halves(n, -8, 8, 143));
  float *f32 = c.out<float>(n, f32ulp(1));
  __half *f16 = c.out<__half>(n, f16ulp(1));
  asmevo_host::launch({5}, {64}, [&] { half_convert(n, in, f32, f16); });
}
HOSTREF_CASE("bf16_convert") {
  c.Source = "half"; c.Kernel = "bf16_convert";
  int n = 300; float scale = 3.0f;
  c.Grid[0] = 5; c.Block[0] = 64;
  c.i32(n); c.f32(scale);
  float *in = c.buf(randomReals<float>(n, -100, 100, 144));
  unsigned short *bf = c.out<unsigned short>(n);
  float *out = c.out<float>(n);
  asmevo_host::launch({5}, {64}, [&] { bf16_convert(n, scale, in, bf, out); });
}
