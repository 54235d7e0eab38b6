#include "../../../test/Kernels/buffer.hip"
#include "HostRef.h"
using namespace hostref;

// Device-only (buffer intrinsics): the reference is the stated semantics,
// out-of-range loads read 0 and out-of-range stores are dropped.
HOSTREF_CASE("buffer_stencil_f32") {
  c.Source = "buffer"; c.Kernel = "buffer_stencil_f32";
  int n = 250;
  c.Grid[0] = 4; c.Block[0] = 64;
  c.i32(n);
  float *in = c.buf(randomReals<float>(n, -3, 3, 121));
  float *out = c.out<float>(n, f32ulp(1));
  for (int i = 0; i < n; ++i)
    out[i] = buffer_get(in, n, i - 1) + 2.0f * buffer_get(in, n, i) +
             buffer_get(in, n, i + 1);
}
HOSTREF_CASE("buffer_copy_x4") {
  c.Source = "buffer"; c.Kernel = "buffer_copy_x4";
  int n = 1000, soff = 16;
  c.Grid[0] = 4; c.Block[0] = 64; // 256 lanes x 4 floats = 1024 > n
  c.i32(n); c.i32(soff);
  float *in = c.buf(randomReals<float>(n + 64, -3, 3, 122));
  float *out = c.out<float>(n + 64);
  // raw buffer: range check on the offset without soffset, per dword.
  for (int i = 0; i < 256; ++i)
    for (int k = 0; k < 4; ++k) {
      long off = i * 16 + k * 4;
      if (off + 4 <= n * 4)
        out[(off + soff) / 4] = in[(off + soff) / 4];
    }
}
// buffer_to_lds_reverse is not a case: with 256 threads its four waves all
// DMA into tile[0..63] (the LDS address is M0 + inst_offset + lane * 4 with a
// wave-uniform M0), which the emulator reports as an LDS race
// (test/Emu/lds-dma.test).
