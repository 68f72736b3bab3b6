#!/usr/bin/env python3
"""Damages the device images embedded in an executable built by slmc++.

usage: corrupt-images.py EXE OUT MODE
  magic   the first image's magic number
  size    the first image's size field (far past the end of the file)
  offset  the first image's entry offset (out of bounds)
"""
import struct
import sys

exe, out, mode = sys.argv[1:4]
data = bytearray(open(exe, "rb").read())
pos = data.find(b"\x10\xff\x10\xad")
if pos < 0:
    sys.exit("no offload image found in " + exe)
if mode == "magic":
    data[pos:pos + 4] = b"JUNK"
elif mode == "size":
    data[pos + 8:pos + 16] = struct.pack("<Q", 1 << 40)
elif mode == "offset":
    data[pos + 16:pos + 24] = struct.pack("<Q", 1 << 33)
else:
    sys.exit("unknown mode " + mode)
open(out, "wb").write(bytes(data))
