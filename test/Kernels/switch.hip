// Many branches: a per-lane bytecode interpreter with a 32-way switch in a
// loop (binary-search compare trees, many basic blocks, lane-divergent
// paths) and a long unrolled if-chain. Built once more with
// -mllvm -amdgpu-s-branch-bits=7 (see CMakeLists.txt, "switch-longbranch")
// so that out-of-range branches become s_getpc_b64/s_add_u32/s_addc_u32/
// s_setpc_b64 long-branch sequences.
#include "asmevo_hip.h"

// One step of the interpreter: opcode `op` applied to (acc, x, k).
ASMEVO_HD unsigned interp_step(unsigned op, unsigned acc, unsigned x,
                               unsigned k) {
  switch (op & 31) {
  case 0: return acc + x;
  case 1: return acc - x;
  case 2: return acc * x;
  case 3: return acc ^ x;
  case 4: return acc | (x << 3);
  case 5: return acc & ~x;
  case 6: return (acc << (x & 31)) | (acc >> ((32 - x) & 31));
  case 7: return acc >> (x & 31);
  case 8: return (unsigned)((int)acc >> (x & 31));
  case 9: return acc + k * 0x9e3779b9u;
  case 10: return acc * 0x85ebca6bu + x;
  case 11: return acc ^ (acc >> 13) ^ x;
  case 12: return acc < x ? x : acc;
  case 13: return acc > x ? x : acc;
  case 14: return x ? acc / x : acc;
  case 15: return x ? acc % x : ~acc;
  case 16: return __builtin_popcount(acc ^ x) + acc;
  case 17: return acc + __builtin_clz(x | 1u);
  case 18: return acc - __builtin_ctz(x | 0x80000000u);
  case 19: return (acc & 0xffff) * (x >> 16);
  case 20: return acc + (k & 7) * x;
  case 21: {
    unsigned r = acc;
    for (unsigned i = 0; i < (x & 7); ++i)
      r = r * 3u + i;
    return r;
  }
  case 22: return (acc & 1) ? acc + x : acc - x;
  case 23: return acc == x ? 0 : acc;
  case 24: return acc + (unsigned)(int)(short)x;
  case 25: return acc + (unsigned)(int)(signed char)x;
  case 26: return ((acc & 0xff00ff00u) >> 8) | ((acc & 0x00ff00ffu) << 8);
  case 27: return __builtin_bitreverse32(acc) ^ x;
  case 28: return acc + ((x * k) >> 7);
  case 29: return (unsigned)((unsigned long long)acc * x >> 32);
  case 30: return acc - (x | k);
  default: return acc + 1;
  }
}

// Each lane runs `len` instructions from its own program (code[i*len ...]).
extern "C" __global__ void interp_u32(int n, int len,
                                      const unsigned *__restrict__ code,
                                      const unsigned *__restrict__ data,
                                      unsigned *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned acc = data[i];
  const unsigned *prog = code + (long)i * len;
  for (int k = 0; k < len; ++k)
    acc = interp_step(prog[k], acc, prog[k] >> 5, (unsigned)k);
  out[i] = acc;
}

// Classifier with many sequential, lane-divergent branches.
ASMEVO_HD int classify(float x, float y) {
  int c = 0;
#define ASMEVO_CLS(T, V)                                                       \
  if (x * (T) + y > (V))                                                       \
    c = c * 3 + 1;                                                             \
  else if (y * (T) - x < -(V))                                                 \
    c = c * 5 + 2;                                                             \
  else                                                                         \
    c ^= (int)(T * 16.0f);
  ASMEVO_CLS(0.5f, 1.0f) ASMEVO_CLS(1.5f, 2.0f) ASMEVO_CLS(-0.25f, 0.5f)
  ASMEVO_CLS(2.5f, 3.0f) ASMEVO_CLS(-1.5f, 0.75f) ASMEVO_CLS(0.125f, 0.1f)
  ASMEVO_CLS(3.5f, 4.0f) ASMEVO_CLS(-2.0f, 1.25f) ASMEVO_CLS(0.75f, 0.6f)
  ASMEVO_CLS(1.25f, 1.5f) ASMEVO_CLS(-0.5f, 0.3f) ASMEVO_CLS(4.0f, 5.0f)
#undef ASMEVO_CLS
  return c;
}

extern "C" __global__ void classify_f32(int n, const float *__restrict__ x,
                                        const float *__restrict__ y,
                                        int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = classify(x[i], y[i]);
}
