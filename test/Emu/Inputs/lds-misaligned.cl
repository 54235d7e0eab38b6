// Misaligned LDS reads and writes (lit test lds-misaligned.test). Packed
// structs make clang emit ds_write_b16/b32/b64/b128 and the matching reads
// at odd byte offsets (amdhsa sets unaligned-access-mode), as hipSPARSELt's
// LPM1/LPM2 kernels do; ROCm runs them in the unaligned alignment mode.
#include "workgroup-barrier.h"
typedef struct __attribute__((packed)) { ushort v; } p16;
typedef struct __attribute__((packed)) { uint v; } p32;
typedef struct __attribute__((packed)) { ulong v; } p64;
typedef struct __attribute__((packed)) { uint4 v; } p128;

// Wave 0 writes, wave 1 reads back after a barrier. s[0] is a byte store,
// so the aligned dword at 0 shows where the misaligned dword's bytes went.
kernel void misaligned_rw(global uint *out, local uchar *s) {
  uint l = __builtin_amdgcn_workitem_id_x();
  if (l == 0) {
    s[0] = 0xaa;
    ((local p32 *)(s + 1))->v = 0x44332211u;
    ((local p64 *)(s + 6))->v = 0x1817161514131211ul;
    ((local p128 *)(s + 17))->v =
        (uint4)(0x24232221u, 0x28272625u, 0x2c2b2a29u, 0x302f2e2du);
    ((local p16 *)(s + 35))->v = 0x5251;
  }
  BARRIER();
  if (l == 64) {
    out[0] = ((local p32 *)(s + 1))->v;
    ulong d = ((local p64 *)(s + 6))->v;
    out[1] = (uint)d;
    out[2] = (uint)(d >> 32);
    uint4 q = ((local p128 *)(s + 17))->v;
    out[3] = q.x;
    out[4] = q.y;
    out[5] = q.z;
    out[6] = q.w;
    out[7] = ((local p16 *)(s + 35))->v;
    out[8] = ((local uint *)s)[0];
  }
}

// Wave 0's misaligned dword covers bytes 1..4; wave 1 stores byte 4 with no
// barrier between: a race on byte 4 (race) or none on byte 5 (adjacent).
kernel void misaligned_race(global uint *out, local uchar *s) {
  uint l = __builtin_amdgcn_workitem_id_x();
  if (l == 0)
    ((local p32 *)(s + 1))->v = 0x44332211u;
  if (l == 64)
    s[4] = 0x99;
  BARRIER();
  if (l == 0)
    out[0] = ((local p32 *)(s + 1))->v;
}
kernel void misaligned_adjacent(global uint *out, local uchar *s) {
  uint l = __builtin_amdgcn_workitem_id_x();
  if (l == 0)
    ((local p32 *)(s + 1))->v = 0x44332211u;
  if (l == 64)
    s[5] = 0x99;
  BARRIER();
  if (l == 0)
    out[0] = ((local p32 *)(s + 2))->v;
}
