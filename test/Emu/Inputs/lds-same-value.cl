// Stores of one value by several waves to one LDS slot (lit test
// lds-same-value.test): every wave of a 128-wide workgroup stores in[l & 3]
// to s[l & 3] (rocSPARSE's segmented COO kernels store a shared carry this
// way). In any order the slot ends with the same bytes: no race. When the
// waves store different values (wave_value) or a wave changes the value
// after another wave stored it (then_changed), the result depends on the
// order: a race.
#include "workgroup-barrier.h"
kernel void same_value(global int *out, global const int *in, local int *s) {
  int l = (int)__builtin_amdgcn_workitem_id_x();
  s[l & 3] = in[l & 3];
  BARRIER();
  out[l] = s[l & 3] + l;
}
kernel void wave_value(global int *out, global const int *in, local int *s) {
  int l = (int)__builtin_amdgcn_workitem_id_x();
  s[l & 3] = in[l & 3] + (l >> 6);
  BARRIER();
  out[l] = s[l & 3] + l;
}
kernel void then_changed(global int *out, global const int *in,
                         local int *s) {
  int l = (int)__builtin_amdgcn_workitem_id_x();
  s[l & 3] = in[l & 3];
  // A volatile store: kept after the first (not merged into it).
  if (l == 64 && in[8] != 0)
    ((volatile local int *)s)[1] = in[8];
  BARRIER();
  out[l] = s[l & 3] + l;
}
