#!/usr/bin/env python3
"""Edits an asmevo capture for tests and recomputes its checksum.

  edit_capture.py IN OUT version N          set the format version
  edit_capture.py IN OUT flip-after REGION OFFSET   flip a byte of an after-state
  edit_capture.py IN OUT header-json EXPR    replace the JSON header text
                                             (EXPR: python str.replace pair "a=>b")
"""
import hashlib
import json
import struct
import sys

src, dst, op = sys.argv[1], sys.argv[2], sys.argv[3]
data = bytearray(open(src, "rb").read())
body = data[:-32]
hlen = struct.unpack_from("<Q", body, 16)[0]
header = body[24:24 + hlen].decode()
blobs = bytearray(body[24 + hlen:])
if op == "version":
    struct.pack_into("<I", body, 8, int(sys.argv[4]))
elif op == "flip-after":
    h = json.loads(header)
    off, _ = h["regions"][int(sys.argv[4])]["after"]
    blobs[off + int(sys.argv[5])] ^= 0xff
    body = body[:24 + hlen] + blobs
elif op == "header-json":
    a, b = sys.argv[4].split("=>")
    header = header.replace(a, b)
    hb = header.encode()
    body = body[:16] + struct.pack("<Q", len(hb)) + hb + blobs
else:
    sys.exit("unknown op " + op)
open(dst, "wb").write(bytes(body) + hashlib.sha256(bytes(body)).digest())
