#!/usr/bin/env python3
"""Reference for ckpt.random_uniform: Philox-4x32-10 in Python.

Checks itself against the Random123 known-answer vectors, then compares the
bit patterns printed by an MLIR program (printMemrefI32 / printMemrefI64 of
the bitcast result, one tensor per invocation of --expect) with the
reference for the given seed, offset, shape and element type.

Usage: philox-reference.py --seed S --offset O --shape 2x4 --dtype f32 < run-output
"""

import argparse
import re
import struct
import sys

M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
MASK = 0xFFFFFFFF


def philox4x32_10(ctr, key):
    c, k = list(ctr), list(key)
    for rnd in range(10):
        if rnd:
            k = [(k[0] + W0) & MASK, (k[1] + W1) & MASK]
        p0, p1 = M0 * c[0], M1 * c[2]
        hi0, lo0 = p0 >> 32, p0 & MASK
        hi1, lo1 = p1 >> 32, p1 & MASK
        c = [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0]
    return c


# Random123 kat_vectors for philox4x32_10.
KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((MASK,) * 4, (MASK, MASK), (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


def element_bits(seed, offset, index, dtype):
    counter = (offset + index) & 0xFFFFFFFFFFFFFFFF
    words = philox4x32_10((counter & MASK, counter >> 32, 0, 0),
                          (seed & MASK, (seed >> 32) & MASK))
    if dtype == "f32":
        value = (words[0] >> 8) * 2.0 ** -24
        return struct.unpack("<i", struct.pack("<f", value))[0]
    bits53 = ((words[0] << 32) | words[1]) >> 11
    value = bits53 * 2.0 ** -53
    return struct.unpack("<q", struct.pack("<d", value))[0]


def main():
    for ctr, key, expected in KAT:
        got = tuple(philox4x32_10(ctr, key))
        if got != expected:
            sys.exit(f"philox-reference: known-answer test failed for {ctr}, {key}: {got}")
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=lambda s: int(s, 0), required=True)
    parser.add_argument("--offset", type=lambda s: int(s, 0), action="append", required=True)
    parser.add_argument("--shape", required=True)
    parser.add_argument("--dtype", choices=["f32", "f64"], required=True)
    args = parser.parse_args()
    count = 1
    for d in args.shape.split("x"):
        count *= int(d)

    # Every "data =" block of the run output, flattened.
    text = sys.stdin.read()
    blocks = [list(map(int, re.findall(r"-?\d+", block)))
              for block in re.findall(r"data =\s*(\[.*?\]\])", text, re.S)]
    if len(blocks) != len(args.offset):
        sys.exit(f"philox-reference: expected {len(args.offset)} tensors, found {len(blocks)}")
    for offset, got in zip(args.offset, blocks):
        expected = [element_bits(args.seed, offset, i, args.dtype) for i in range(count)]
        if got != expected:
            sys.exit(f"philox-reference: offset {offset}: got {got}, expected {expected}")
        print(f"offset {offset}: {count} elements match the reference")


if __name__ == "__main__":
    main()
