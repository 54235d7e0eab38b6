#include "../../../test/Kernels/special.hip"
#include "HostRef.h"
using namespace hostref;

// Reference from the ISA definitions of the builtins (device-only kernel).
static unsigned permB(unsigned long long D, unsigned S) {
  S &= 0xff;
  if (S >= 13) return 0xff;
  if (S == 12) return 0;
  if (S == 11) return (D >> 63) & 1 ? 0xff : 0;
  if (S == 10) return (D >> 47) & 1 ? 0xff : 0;
  if (S == 9) return (D >> 31) & 1 ? 0xff : 0;
  if (S == 8) return (D >> 15) & 1 ? 0xff : 0;
  return (D >> (8 * S)) & 0xff;
}
static unsigned ref_special(unsigned x, unsigned y) {
  unsigned long long d = ((unsigned long long)x << 32) | y;
  unsigned sel = 0x05010400u;
  unsigned r = permB(d, sel) | permB(d, sel >> 8) << 8 | permB(d, sel >> 16) << 16 |
               permB(d, sel >> 24) << 24;
  r ^= (unsigned)(d >> (8 * (y & 3)));
  unsigned off = y & 31;
  r += (x >> off) & 31; // ubfe width 5
  off = x & 31;
  r += (unsigned)((int)((y >> off) << 25) >> 25); // sbfe width 7
  unsigned sad = 0, sadhi = 0, msad = 0, lerp = 0;
  for (int k = 0; k < 4; ++k) {
    int p = (x >> (8 * k)) & 0xff, q = (y >> (8 * k)) & 0xff;
    sad += p > q ? p - q : q - p;
    if (q)
      msad += p > q ? p - q : q - p;
    lerp |= ((p + q + 1) >> 1) << (8 * k);
  }
  sadhi = sad;
  r += sad + 17u;
  r ^= lerp;
  r += (sadhi << 16) + 3u;
  r += msad;
  return r;
}
HOSTREF_CASE("valu_special_u32") {
  c.Source = "special"; c.Kernel = "valu_special_u32";
  int n = 300;
  c.Grid[0] = 5; c.Block[0] = 64;
  c.i32(n);
  unsigned *a = c.buf(randomInts<unsigned>(n, 0, UINT32_MAX, 131));
  unsigned *b = c.buf(randomInts<unsigned>(n, 0, UINT32_MAX, 132));
  unsigned *o = c.out<unsigned>(n);
  for (int i = 0; i < n; ++i)
    o[i] = ref_special(a[i], b[i]);
}
HOSTREF_CASE("scalar_control") {
  c.Source = "special"; c.Kernel = "scalar_control";
  int n = 100;
  c.Grid[0] = 2; c.Block[0] = 64;
  c.i32(n);
  int *in = c.buf(randomInts<int>(n, -1000, 1000, 133));
  int *o = c.out<int>(n);
  for (int i = 0; i < n; ++i)
    o[i] = in[i] + 1;
}
HOSTREF_CASE("inline_asm") {
  c.Source = "special"; c.Kernel = "inline_asm";
  int n = 100, k = 11;
  c.Grid[0] = 2; c.Block[0] = 64;
  c.i32(n); c.i32(k);
  int *in = c.buf(randomInts<int>(n, -1000, 1000, 134));
  int *o = c.out<int>(n);
  for (int i = 0; i < n; ++i)
    o[i] = ref_inline_asm(in[i], k);
}
