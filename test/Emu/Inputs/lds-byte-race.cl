// Byte stores of different waves into one LDS dword (lit test
// lds-byte-race.test): lane 0 of wave w stores byte w of s, as Tensile's
// int8 GEMMs store their operands into LDS a byte at a time before the
// first barrier. Distinct bytes are distinct locations: no race.
// same_byte has both waves store byte 0 with different values: a race.
#include "workgroup-barrier.h"
kernel void own_byte(global uchar *out, local uchar *s) {
  uint l = __builtin_amdgcn_workitem_id_x();
  if ((l & 63) == 0)
    s[l >> 6] = (uchar)(l >> 6) + 1;
  BARRIER();
  if (l < 2)
    out[l] = s[l];
}
kernel void same_byte(global uchar *out, local uchar *s) {
  uint l = __builtin_amdgcn_workitem_id_x();
  if ((l & 63) == 0)
    s[0] = (uchar)(l >> 6) + 1;
  BARRIER();
  if (l < 2)
    out[l] = s[l];
}
