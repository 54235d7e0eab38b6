# Turns section header 1 of a code object into an SHT_NULL header that keeps
# SHF_ALLOC, covers every address and points past the end of the file (the
# fuzzer's input for test/CodeObject/errors.test, NULLSEC).
import struct
import sys

data = bytearray(open(sys.argv[1], 'rb').read())
shoff = struct.unpack_from('<Q', data, 0x28)[0]
shentsize = struct.unpack_from('<H', data, 0x3a)[0]
hdr = shoff + shentsize
struct.pack_into('<I', data, hdr + 4, 0)                   # sh_type: SHT_NULL
struct.pack_into('<Q', data, hdr + 8, 2)                   # sh_flags: SHF_ALLOC
struct.pack_into('<Q', data, hdr + 16, 0)                  # sh_addr
struct.pack_into('<Q', data, hdr + 24, 0xfffff90000000238) # sh_offset
struct.pack_into('<Q', data, hdr + 32, 0xffffffe2eb)       # sh_size
open(sys.argv[2], 'wb').write(data)
