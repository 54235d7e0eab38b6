// Scalar atomics and stores in compiled kernels (lit test scalar-mem.test),
// written with inline assembly: the compiler does not select them.
#define SPTR(P)                                                                \
  ((ulong)__builtin_amdgcn_readfirstlane((uint)((ulong)(P) >> 32)) << 32 |     \
   __builtin_amdgcn_readfirstlane((uint)(ulong)(P)))

// Each workgroup decrements *counter once (S_ATOMIC_DEC: 0 or above the
// data wraps to the data, else minus one) and records the value it got.
kernel void count_down(global uint *counter, global uint *out) {
  uint v = 1000;
  __asm__ volatile("s_atomic_dec %0, %1, 0x0 glc\n\ts_waitcnt lgkmcnt(0)"
                   : "+s"(v)
                   : "s"(SPTR(counter))
                   : "memory");
  if (__builtin_amdgcn_workitem_id_x() == 0)
    out[__builtin_amdgcn_workgroup_id_x()] = v;
}

// Workgroup w stores w + 7 to out[w] with s_store_dword; store_wb writes
// the scalar cache back before the end, store_nowb does not.
kernel void store_wb(global uint *out) {
  uint w = __builtin_amdgcn_workgroup_id_x();
  __asm__ volatile("s_store_dword %0, %1, 0x0\n\ts_dcache_wb" ::"s"(w + 7),
                   "s"(SPTR(out + w))
                   : "memory");
}
kernel void store_nowb(global uint *out) {
  uint w = __builtin_amdgcn_workgroup_id_x();
  __asm__ volatile("s_store_dword %0, %1, 0x0" ::"s"(w + 7),
                   "s"(SPTR(out + w))
                   : "memory");
}
