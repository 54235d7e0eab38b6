// Block tags of the dispatch-wide race shadow (GlobalRace.cpp, lit test
// race-blocks.test): a whole wave's aligned dword access of a[0..63] checks
// and records one tag per kind for the 256-byte block, any other access
// splits the block into per-dword tags. Three workgroups of one wave; the
// emulator on one thread runs them in order. Built without device
// libraries: ids come from builtins.
#define WG __builtin_amdgcn_workgroup_id_x()
#define L ((int)__builtin_amdgcn_workitem_id_x())

// Whole-block read by workgroup 0, then one lane of workgroup 1 stores into
// the block (race) or into the next block (none).
kernel void whole_read_lane_store(global int *a, global int *out) {
  if (WG == 0)
    out[L] = a[L];
  else if (WG == 1 && L == 5)
    a[5] = 1;
}
kernel void whole_read_lane_store_next(global int *a, global int *out) {
  if (WG == 0)
    out[L] = a[L];
  else if (WG == 1 && L == 5)
    a[64 + 5] = 1;
}

// Partial wave: lanes 32..63 of workgroup 0 read their half of the block;
// workgroup 1 stores the other half (none) or the whole block (race at
// a[32]).
kernel void half_read_half_store(global int *a, global int *out) {
  if (WG == 0 && L >= 32)
    out[L] = a[L];
  else if (WG == 1 && L < 32)
    a[L] = 1;
}
kernel void half_read_whole_store(global int *a, global int *out) {
  if (WG == 0 && L >= 32)
    out[L] = a[L];
  else if (WG == 1)
    a[L] = 1;
}
// Lane 40 of workgroup 0 stores a[40]; workgroup 1 reads the whole block
// (race at a[40]).
kernel void lane_store_whole_read(global int *a, global int *out) {
  if (WG == 0 && L == 40)
    a[40] = 1;
  else if (WG == 1)
    out[L] = a[L];
}

// Misaligned run: workgroup 0 reads a[1..64], across two blocks; workgroup
// 1 stores a[64] (race) or a[0] (none).
kernel void misaligned_read_store_in(global int *a, global int *out) {
  if (WG == 0)
    out[L] = a[L + 1];
  else if (WG == 1 && L == 0)
    a[64] = 1;
}
kernel void misaligned_read_store_out(global int *a, global int *out) {
  if (WG == 0)
    out[L] = a[L + 1];
  else if (WG == 1 && L == 0)
    a[0] = 1;
}

// Mixed accessors in one block: workgroups 0 and 1 read it whole (one
// block tag of several workgroups), then lane 40 of workgroup 2 stores.
kernel void two_whole_reads_lane_store(global int *a, global int *out) {
  if (WG < 2)
    out[64 * WG + L] = a[L];
  else if (L == 40)
    a[40] = 1;
}
// Workgroups 0 and 1 read one half each (per-dword tags), then workgroup 2
// stores the whole block.
kernel void two_half_reads_whole_store(global int *a, global int *out) {
  if (WG == 0 && L < 32)
    out[L] = a[L];
  else if (WG == 1 && L >= 32)
    out[L] = a[L];
  else if (WG == 2)
    a[L] = 1;
}

// Split after coarse: workgroup 0 stores the whole block, then its lane 3
// stores a[3] again (the writer tags are split, each keeps workgroup 0);
// workgroup 1 then reads the whole block: the race is at a[0], not a[3].
kernel void split_after_whole_store(global int *a, global int *out) {
  if (WG == 0) {
    a[L] = L;
    if (L == 3)
      *(volatile global int *)&a[3] = 7;
  } else if (WG == 1)
    out[L] = a[L];
}
// Workgroup 0 stores the whole block; lanes 7 and 8 of workgroup 1 read
// a[7..8] (a vector load of part of the block).
kernel void whole_store_lanes_read(global int *a, global int *out) {
  if (WG == 0)
    a[L] = L;
  else if (WG == 1 && L >= 7 && L < 9)
    out[L] = a[L];
}
