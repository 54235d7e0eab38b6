// Byte granularity of the dispatch-wide race shadow (GlobalRace.cpp, lit
// test race-bytes.test): workgroups of three work-items update 16-bit or
// 8-bit elements in place, `stride` elements apart. With stride 3 no byte
// is shared, though neighbouring workgroups share dwords (haxpy with an
// odd block); with stride 2 they share an element: a race. Built without
// device libraries: ids come from builtins.
#define WG __builtin_amdgcn_workgroup_id_x()
#define L ((int)__builtin_amdgcn_workitem_id_x())

kernel void update_u16(global ushort *y, int stride) {
  int I = WG * stride + L;
  y[I] = y[I] + 1;
}

kernel void update_u8(global uchar *y, int stride) {
  int I = WG * stride + L;
  y[I] = y[I] + 1;
}
