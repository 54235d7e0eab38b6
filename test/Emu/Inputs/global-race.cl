// Dispatch-wide race checks (lit tests global-race.test, interleave.test).
// Work-items 0..63 (wave 0 of workgroup 0 when the workgroup has 128
// work-items, or all of workgroup 0 with 64) and 64..127 access each
// other's elements of a. Built without device libraries: ids and barriers
// come from builtins.
#define GID (__builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() + __builtin_amdgcn_workitem_id_x())
#include "workgroup-barrier.h"

// war_*: the first 64 read a[i + 64], which the next 64 then store.
kernel void war_nobar(global int *a, global int *out) {
  int i = GID;
  if (i < 64)
    out[i] = a[i + 64];
  else
    a[i] = i;
}

kernel void war_bar(global int *a, global int *out) {
  int i = GID;
  int v = i < 64 ? a[i + 64] : 0;
  BARRIER();
  if (i < 64)
    out[i] = v;
  else
    a[i] = i;
}

// raw_bar: the first 64 store a[i], which the next 64 read after a barrier.
kernel void raw_bar(global int *a, global int *out) {
  int i = GID;
  if (i < 64)
    a[i] = i;
  BARRIER();
  if (i >= 64)
    out[i] = a[i - 64];
}

// Lane 0 of every wave adds 1 to *counter with a compare-and-swap loop and
// records how often its compare-and-swap failed (interleave.test).
kernel void cas_count(global int *counter, global int *retries) {
  if (__builtin_amdgcn_workitem_id_x() % 64)
    return;
  int w = GID / 64;
  int old = *(volatile global int *)counter;
  int r = 0;
  for (;;) {
    int prev = __sync_val_compare_and_swap(counter, old, old + 1);
    if (prev == old)
      break;
    old = prev;
    ++r;
  }
  retries[w] = r;
}
