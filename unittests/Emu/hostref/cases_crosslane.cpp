#include "../../../test/Kernels/crosslane.hip"
#include "HostRef.h"
using namespace hostref;

// Device-only wave code: host references written from the kernels' stated
// semantics (ref_* functions of crosslane.hip, or per-lane formulas).
HOSTREF_CASE("wave_scan_i32") {
  c.Source = "crosslane"; c.Kernel = "wave_scan_i32";
  c.Grid[0] = 2; c.Block[0] = 128;
  int *in = c.buf(randomInts<int>(256, -1000, 1000, 91));
  int *out = c.out<int>(256);
  for (int w = 0; w < 4; ++w)
    ref_wave_scan_i32(in + 64 * w, out + 64 * w);
}
HOSTREF_CASE("dpp_swizzle_mix") {
  c.Source = "crosslane"; c.Kernel = "dpp_swizzle_mix";
  c.Grid[0] = 1; c.Block[0] = 128;
  int *in = c.buf(randomInts<int>(128, INT32_MIN, INT32_MAX, 92));
  int *out = c.out<int>(512);
  for (int i = 0; i < 128; ++i) {
    int l = i & 63, b = i & ~63;
    out[4 * i + 0] = in[b + ((l & ~3) | (3 - (l & 3)))];
    out[4 * i + 1] = l == 0 ? -1 : in[i - 1];
    out[4 * i + 2] = in[b + ((l & 0x20) | ((l & 0x1f) ^ 0x1f))];
    out[4 * i + 3] = in[b + ((l & ~3) | 2)];
  }
}
HOSTREF_CASE("wave_reduce_bpermute") {
  c.Source = "crosslane"; c.Kernel = "wave_reduce_bpermute";
  c.Grid[0] = 1; c.Block[0] = 128;
  float *in = c.buf(randomReals<float>(128, -4, 4, 93));
  float *sum = c.out<float>(128, f32ulp(0, 2e-5));
  float *mx = c.out<float>(128);
  for (int w = 0; w < 2; ++w)
    ref_wave_reduce(in + 64 * w, sum + 64 * w, mx + 64 * w);
}
HOSTREF_CASE("readlane_ops") {
  c.Source = "crosslane"; c.Kernel = "readlane_ops";
  int lane = 37;
  c.Grid[0] = 2; c.Block[0] = 64;
  c.i32(lane);
  int *in = c.buf(randomInts<int>(128, -100000, 100000, 94));
  int *out = c.out<int>(128);
  for (int i = 0; i < 128; ++i) {
    int b = i & ~63;
    out[i] = in[i] - in[b] + in[b + lane] * (i & 63);
  }
}
HOSTREF_CASE("compact_positive") {
  c.Source = "crosslane"; c.Kernel = "compact_positive";
  int n = 60; // one wave: the slot order is deterministic
  c.Grid[0] = 1; c.Block[0] = 64;
  c.i32(n);
  float *in = c.buf(randomReals<float>(n, -1, 1, 95));
  float *out = c.out<float>(64);
  unsigned *count = c.out<unsigned>(1);
  unsigned k = 0;
  for (int i = 0; i < n; ++i)
    if (in[i] > 0)
      out[k++] = in[i];
  *count = k;
}
