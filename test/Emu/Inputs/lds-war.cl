// Write-after-read across waves in LDS (lit test lds-war.test): each wave
// reads the other wave's half of `s`, then, after a barrier, overwrites its
// own half. The read's result is used only at the end, so the wait that
// orders the read before the barrier is the fence's lgkmcnt(0) alone.
// Built without device libraries: ids and barriers come from builtins.
#include "workgroup-barrier.h"
kernel void swap_halves(global int *out, local int *s) {
  int l = (int)__builtin_amdgcn_workitem_id_x();
  s[l] = l;
  BARRIER();
  int v = s[(l + 64) % 128];
  BARRIER();
  s[l] = 7;
  BARRIER();
  out[l] = v + s[(l + 1) % 128];
}
