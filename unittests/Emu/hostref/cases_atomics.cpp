#include "../../../test/Kernels/atomics.hip"
#include "HostRef.h"
using namespace hostref;

HOSTREF_CASE("histogram_global") {
  c.Source = "atomics"; c.Kernel = "histogram_global";
  int n = 3000, bins = 37;
  c.Grid[0] = 12; c.Block[0] = 256;
  c.i32(n); c.i32(bins);
  unsigned *in = c.buf(randomInts<unsigned>(n, 0, UINT32_MAX, 81));
  unsigned *h = c.out<unsigned>(bins);
  asmevo_host::launch({12}, {256}, [&] { histogram_global(n, bins, in, h); });
}
HOSTREF_CASE("histogram_lds") {
  c.Source = "atomics"; c.Kernel = "histogram_lds";
  int n = 5000, bins = 200;
  c.Grid[0] = 4; c.Block[0] = 256;
  c.i32(n); c.i32(bins);
  unsigned *in = c.buf(randomInts<unsigned>(n, 0, UINT32_MAX, 82));
  unsigned *h = c.out<unsigned>(bins);
  asmevo_host::launch_threaded({4}, {256}, [&] { histogram_lds(n, bins, in, h); });
}
HOSTREF_CASE("lds_atomic_mix") {
  c.Source = "atomics"; c.Kernel = "lds_atomic_mix";
  int n = 700;
  c.Grid[0] = 3; c.Block[0] = 256;
  c.i32(n);
  int *in = c.buf(randomInts<int>(n, INT32_MIN, INT32_MAX, 83));
  int *out = c.out<int>(15);
  asmevo_host::launch_threaded({3}, {256}, [&] { lds_atomic_mix(n, in, out); });
}
HOSTREF_CASE("global_atomic_mix") {
  c.Source = "atomics"; c.Kernel = "global_atomic_mix";
  int n = 1000;
  c.Grid[0] = 4; c.Block[0] = 256;
  c.i32(n);
  float *x = c.buf(randomReals<float>(n, -1, 1, 84));
  float *fsum = c.out<float>(1, f32ulp(0, 1e-4)); // order-dependent sum
  int *imax = c.buf(std::vector<int>{INT32_MIN});
  unsigned *umin = c.buf(std::vector<unsigned>{UINT32_MAX});
  int *last = c.out<int>(1);
  asmevo_host::launch({4}, {256}, [&] { global_atomic_mix(n, x, fsum, imax, umin, last); });
}
HOSTREF_CASE("cas_max_f32") {
  c.Source = "atomics"; c.Kernel = "cas_max_f32";
  int n = 900;
  c.Grid[0] = 4; c.Block[0] = 256;
  c.i32(n);
  float *x = c.buf(randomReals<float>(n, -100, 100, 85));
  float *r = c.buf(std::vector<float>{-1e30f});
  asmevo_host::launch({4}, {256}, [&] { cas_max_f32(n, x, r); });
}
HOSTREF_CASE("atomic_u64") {
  c.Source = "atomics"; c.Kernel = "atomic_u64";
  int n = 900;
  c.Grid[0] = 4; c.Block[0] = 256;
  c.i32(n);
  unsigned *x = c.buf(randomInts<unsigned>(n, 0, UINT32_MAX, 86));
  unsigned long long *sum = c.out<unsigned long long>(1);
  unsigned long long *mp = c.out<unsigned long long>(1);
  asmevo_host::launch({4}, {256}, [&] { atomic_u64(n, x, sum, mp); });
}
