// BARRIER(): an OpenCL work-group barrier for kernels built without device
// libraries (the test inputs of test/Emu): release fence, s_barrier,
// acquire fence, as barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
// lowers.
#define BARRIER()                                                              \
  do {                                                                         \
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");                     \
    __builtin_amdgcn_s_barrier();                                              \
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");                     \
  } while (0)
