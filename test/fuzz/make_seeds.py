#!/usr/bin/env python3
"""Writes the hand-made seeds of the container and program-file fuzzers.

Small, valid offload containers (LLVM OffloadBinary v1, as slmc++ embeds
them) in corpus/fatbinary and device-only program files in corpus/program;
the program files that slmc++ writes (with a CPU host object) sit beside
them. Run from anywhere; the output is deterministic.
"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SPIRV, PTX, OBJECT = 6, 5, 1
HIP = 3


def align8(n):
    return (n + 7) & ~7


def binary(kind, strings, payload, offload=HIP, checksum=True):
    """One offload binary: header, entry, string table, strings, image;
    with the checksum slmc++ writes (runtime/lib/FatBinary.h) last."""
    if checksum:
        strings = strings + [("slmc.checksum", image_checksum(
            kind, offload, strings, payload))]
    strings_at = 32 + 40
    text_at = strings_at + 16 * len(strings)
    text, offsets = b"", []
    for key, value in strings:
        k = text_at + len(text)
        text += key.encode() + b"\0"
        v = text_at + len(text)
        text += value.encode() + b"\0"
        offsets.append((k, v))
    image_at = align8(text_at + len(text))
    size = image_at + len(payload)
    out = bytearray(size)
    out[0:32] = b"\x10\xff\x10\xad" + struct.pack("<IQQQ", 1, size, 32, 40)
    out[32:72] = struct.pack("<HHIQQQQ", kind, offload, 0, strings_at,
                             len(strings), image_at, len(payload))
    for i, (k, v) in enumerate(offsets):
        out[strings_at + 16 * i:strings_at + 16 * i + 16] = struct.pack("<QQ", k, v)
    out[text_at:text_at + len(text)] = text
    out[image_at:] = payload
    return bytes(out)


def container(binaries, terminator=True):
    out = b""
    for b in binaries:
        out += b
        out += b"\0" * (align8(len(out)) - len(out))
    return out + (b"\0" * 8 if terminator else b"")


def image_checksum(kind, offload, strings, payload):
    data = struct.pack("<HH", kind, offload)
    for key, value in sorted(strings):
        data += key.encode() + b"\0" + value.encode() + b"\0"
    return "crc32:%08x" % (zlib.crc32(data + payload) & 0xffffffff)


def write(sub, name, data):
    path = os.path.join(HERE, "corpus", sub, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


spirv = b"\x03\x02\x23\x07" + bytes(range(28))
ptx = b".version 7.0\n.target sm_75\n.entry k() { ret; }\n"
spv = binary(SPIRV, [("triple", "spirv64-intel"), ("arch", "generic")], spirv)
pt = binary(PTX, [("triple", "nvptx64-nvidia-cuda"), ("arch", "sm_75")], ptx,
            offload=1)
write("fatbinary", "spirv-ptx.bin", container([spv, pt]))
write("fatbinary", "spirv-only.bin", container([spv]))
write("fatbinary", "empty.bin", container([]))
write("fatbinary", "no-strings.bin",
      container([binary(SPIRV, [], b"", checksum=False)]))

kernels = ("transpose(surface,surface,value4,value4);scale(value8);"
           "slmc_cm_fill_0(surface)=fill<8U, 8U>")
for name, images in {
    "spirv-ptx.program": [
        binary(SPIRV, [("triple", "spirv64-intel"), ("slmc.kernels", kernels)],
               spirv),
        binary(PTX, [("triple", "nvptx64-nvidia-cuda"), ("arch", "sm_75"),
                     ("slmc.kernels", kernels)], ptx, offload=1)],
    "one-kernel.program": [
        binary(SPIRV, [("triple", "spirv64-intel"), ("slmc.kernels", "k()")],
               spirv)],
}.items():
    write("program", name, container(images, terminator=False))
