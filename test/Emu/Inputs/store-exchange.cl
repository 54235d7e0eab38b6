// Each work-item stores a value to global memory; after a workgroup barrier
// (release/acquire fences at workgroup scope, as __syncthreads) it reads the
// value stored by a work-item of another wave (lit test store-race.test).
kernel void exchange(global int *out, global const int *x, global int *y) {
  int i = __builtin_amdgcn_workitem_id_x();
  out[i] = x[i] * 3;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  y[i] = out[(i + 64) & 255] + 1;
}
