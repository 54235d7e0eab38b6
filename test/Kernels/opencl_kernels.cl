// OpenCL C kernels (no device library: work-item ids and barriers through
// __builtin_amdgcn_*). clang-22 also emits a non-kernel copy of each kernel
// into .text, and OpenCL kernels carry OpenCL-specific hidden arguments
// (hidden_global_offset_*, printf/hostcall/default queue buffers, ...).

static inline uint gid_x(void) {
  return __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
         __builtin_amdgcn_workitem_id_x();
}

static inline void local_barrier(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// c = a * s + b (float4)
__kernel void cl_vadd4(int n, float s, __global const float4 *a,
                       __global const float4 *b, __global float4 *c) {
  uint i = gid_x();
  if (i < (uint)n)
    c[i] = a[i] * s + b[i];
}

// Block sum of 128 ints in __local memory; out[group] = sum. The __local
// buffer is a kernel argument (dynamic LDS: value_kind
// dynamic_shared_pointer, the dispatch supplies 512 bytes of group memory).
// (A __local array declared inside the kernel draws a clang-22 warning,
// "local memory global used by non-kernel function", from the non-kernel
// copy.)
__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void cl_block_sum(int n, __global const int *in, __global int *out,
                  __local int *buf) {
  uint t = __builtin_amdgcn_workitem_id_x();
  uint i = gid_x();
  buf[t] = i < (uint)n ? in[i] : 0;
  local_barrier();
  for (uint s = 64; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    local_barrier();
  }
  if (t == 0)
    out[__builtin_amdgcn_workgroup_id_x()] = buf[0];
}
