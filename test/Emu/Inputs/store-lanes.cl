// Lanes of one store that write the same address (lit test
// store-lanes.test). The ISA gives no order between a store's lanes, so
// different bytes from two lanes leave the memory undefined: the emulator
// fails the store as a race instead of letting its last lane win (that hid
// a mutant making lanes with partial sums store next to the lane with the
// whole sum). The same bytes from several lanes leave one result.
#include "workgroup-barrier.h"
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

// The same through MUBUF (buffer_store_dword, raw buffer of 256 bytes).
#define RSRC(P, N) __builtin_amdgcn_make_buffer_rsrc(P, 0, N, 0x00027000)

kernel void buffer_same_bytes(global int *out, global const int *in) {
  __builtin_amdgcn_raw_buffer_store_b32(in[L & 3], RSRC(out, 256), (L & 3) * 4,
                                        0, 0);
}

kernel void buffer_different_bytes(global int *out, global const int *in) {
  __builtin_amdgcn_raw_buffer_store_b32(in[L], RSRC(out, 256), (L & 3) * 4, 0,
                                        0);
}

// Out of the buffer's 16 bytes the stores are dropped: nothing written,
// nothing to disagree on.
kernel void buffer_dropped(global int *out, global const int *in) {
  __builtin_amdgcn_raw_buffer_store_b32(in[L], RSRC(out, 16), 16 + (L & 3) * 4,
                                        0, 0);
}

// And through LDS: ds_write2_b32 (DATA and DATA2 both agree between the
// lanes), ds_write_b32 and ds_write2_b32 whose DATA2 disagrees.
kernel void lds_same_bytes(global int *out, global const int *in,
                           local int *S) {
  S[L & 3] = in[L & 3];
  S[(L & 3) + 16] = in[L & 3] + 1;
  BARRIER();
  out[L] = S[L & 3] + S[(L & 3) + 16];
}

kernel void lds_different_bytes(global int *out, global const int *in,
                                local int *S) {
  S[L & 3] = in[L];
  BARRIER();
  out[L] = S[L & 3];
}

kernel void lds_different_data2(global int *out, global const int *in,
                                local int *S) {
  S[L & 3] = in[L & 3];
  S[(L & 3) + 16] = in[L];
  BARRIER();
  out[L] = S[L & 3] + S[(L & 3) + 16];
}
