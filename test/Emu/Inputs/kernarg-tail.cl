// Three int arguments after a pointer: LLVM loads them with one
// s_load_dwordx4 at offset 8 of a 20-byte kernarg segment (gfx9 has no
// s_load_dwordx3), relying on the runtime's 16-byte kernarg buffer units.
// Lit test kernarg-tail.test. Built without device libraries.
kernel void tail3(global int *out, int a, int b, int c) {
  out[__builtin_amdgcn_workgroup_id_x() * 64 +
      __builtin_amdgcn_workitem_id_x()] = a * b + c;
}
