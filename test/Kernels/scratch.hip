// Private (scratch) memory: per-lane arrays indexed with run-time indices
// (scratch_load/scratch_store on gfx942, buffer_load/buffer_store ...
// offen on the private segment buffer on gfx90a), and a small array that
// the compiler keeps in VGPRs with dynamic register indexing.
#include "asmevo_hip.h"

// Per-lane insertion sort of 64 values, then out = values at positions
// given by `pick` (dynamic indices into a 256-byte private array).
// (loops kept rolled: fully unrolled, this sort is 130 KB of code)
ASMEVO_HD void sort64(float *v) {
#pragma nounroll
  for (int i = 1; i < 64; ++i) {
    float key = v[i];
    int j = i - 1;
    while (j >= 0 && v[j] > key) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = key;
  }
}

extern "C" __global__ void private_sort64(int n, const float *__restrict__ in,
                                          const int *__restrict__ pick,
                                          float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v[64];
#pragma nounroll
  for (int k = 0; k < 64; ++k)
    v[k] = in[(long)i * 64 + k];
  sort64(v);
  out[2 * i] = v[pick[i] & 63];
  out[2 * i + 1] = v[(pick[i] >> 8) & 63];
}

// A per-lane histogram/lookup table in private memory (1 KiB per lane):
// read-modify-write at data-dependent indices.
ASMEVO_HD unsigned private_table(const unsigned *keys, int len, unsigned seed) {
  unsigned table[256];
#pragma nounroll
  for (int k = 0; k < 256; ++k)
    table[k] = seed ^ (unsigned)k;
  unsigned h = seed;
  for (int k = 0; k < len; ++k) {
    unsigned idx = (keys[k] ^ h) & 255;
    table[idx] = table[idx] * 31u + keys[k];
    h = table[(idx * 7u) & 255] + (h << 1);
  }
  return h ^ table[h & 255];
}

extern "C" __global__ void private_table_u32(int n, int len,
                                             const unsigned *__restrict__ keys,
                                             unsigned *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = private_table(keys, len, (unsigned)i * 2654435761u);
}

// Small arrays kept in VGPRs with dynamic indices: a wave-uniform index
// (kernel argument) uses VGPR indexing mode (s_set_gpr_idx_on/off around a
// v_mov_b32), a per-lane index becomes a v_cndmask_b32 select chain.
extern "C" __global__ void vgpr_dynamic_index(int n, int sel,
                                              const float *__restrict__ in,
                                              const int *__restrict__ idx,
                                              float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v[16];
  for (int k = 0; k < 16; ++k)
    v[k] = in[i] * (float)(k + 1);
  v[sel & 15] += 100.0f;                 // uniform index
  out[i] = v[idx[i] & 15] + v[(sel >> 4) & 15]; // per-lane, uniform
}
