#!/usr/bin/env python3
"""Rewrites one record of a code object's .rela.dyn, for bad-input tests.

set-reloc.py IN OUT SLOT [--type T] [--undefine-symbol] [--addend-of SYM]
                        [--offset-of SYM]
  SLOT               the record whose r_offset is this dynamic symbol's value
  --type T           r_info's type becomes T
  --undefine-symbol  the record's symbol gets section index SHN_UNDEF
  --addend-of SYM    r_addend becomes SYM's value
  --offset-of SYM    r_offset becomes SYM's value (the slot moves there)
"""
import argparse
import struct


def sections(img):
    shoff, = struct.unpack_from("<Q", img, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", img, 0x3A)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", img, shoff + i * shentsize)
            for i in range(shnum)]
    stroff = hdrs[shstrndx][4]

    def name(h):
        end = img.index(b"\0", stroff + h[0])
        return img[stroff + h[0]:end].decode()

    return [(name(h), h) for h in hdrs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("symbol")
    ap.add_argument("--type", type=int)
    ap.add_argument("--undefine-symbol", action="store_true")
    ap.add_argument("--addend-of", metavar="SYMBOL")
    ap.add_argument("--offset-of", metavar="SYMBOL")
    args = ap.parse_args()
    img = bytearray(open(args.input, "rb").read())
    secs = sections(img)
    rela = [h for n, h in secs if n == ".rela.dyn"][0]
    dynsym = secs[rela[6]][1]
    dynstr = secs[dynsym[6]][1]

    def symbol_value(symbol):
        for o in range(dynsym[4], dynsym[4] + dynsym[5], 24):
            name, = struct.unpack_from("<I", img, o)
            end = img.index(b"\0", dynstr[4] + name)
            if img[dynstr[4] + name:end].decode() == symbol:
                return struct.unpack_from("<Q", img, o + 8)[0]
        raise SystemExit("no dynamic symbol " + symbol)

    value = symbol_value(args.symbol)
    off = next(o for o in range(rela[4], rela[4] + rela[5], 24)
               if struct.unpack_from("<Q", img, o)[0] == value)
    info, = struct.unpack_from("<Q", img, off + 8)
    if args.type is not None:
        info = (info & ~0xFFFFFFFF) | args.type
        struct.pack_into("<Q", img, off + 8, info)
    if args.addend_of:
        struct.pack_into("<Q", img, off + 16, symbol_value(args.addend_of))
    if args.offset_of:
        struct.pack_into("<Q", img, off, symbol_value(args.offset_of))
    if args.undefine_symbol:
        struct.pack_into("<H", img, dynsym[4] + 24 * (info >> 32) + 6, 0)
    open(args.output, "wb").write(img)


if __name__ == "__main__":
    main()
