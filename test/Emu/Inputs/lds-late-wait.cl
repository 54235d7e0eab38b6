// Read-after-write across waves in LDS where only the later wave reads the
// earlier wave's bytes (lit test lds-late-wait.test): every lane writes its
// slot, and after a barrier reads the slot of lane l % 64, which wave 0
// wrote. Wave 0 reads only its own slots, so its s_waitcnt after the
// barrier comes before wave 1 runs in the emulator's order.
// Built without device libraries: ids and barriers come from builtins.
#include "workgroup-barrier.h"
kernel void read_wave0(global int *out, local int *s) {
  int l = (int)__builtin_amdgcn_workitem_id_x();
  s[l] = 3 * l + 1;
  BARRIER();
  out[l] = s[l % 64] + 5;
}
