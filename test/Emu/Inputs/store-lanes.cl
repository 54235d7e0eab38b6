// Lanes of one store that write the same address (lit test
// store-lanes.test). The ISA gives no order between a store's lanes, so
// different bytes from two lanes leave the memory undefined: the emulator
// fails the store as a race instead of letting its last lane win (that hid
// a mutant making lanes with partial sums store next to the lane with the
// whole sum). The same bytes from several lanes leave one result.
#define L ((int)__builtin_amdgcn_workitem_id_x())

kernel void same_bytes(global int *out, global const int *in) {
  out[L & 3] = in[L & 3];
}

kernel void different_bytes(global int *out, global const int *in) {
  out[L & 3] = in[L];
}

// 16-bit stores one byte apart: each lane overlaps its neighbours in one
// byte (in[] holds 32-bit values: every other 16-bit element is 0, so lanes
// 0 and 1 agree on their shared byte, lanes 1 and 2 do not).
kernel void overlapping_shorts(global uchar *out, global const ushort *in) {
  *(global ushort *)(out + L) = in[L];
}
