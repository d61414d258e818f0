"""Calls a ckpt-compile library through ckpt.aot on ckpt-run's inputs and
prints ckpt-run's output lines (FNV-1a checksums and sums), so that a test
can compare them with the JIT's.

Usage: call-library.py LIBRARY ENTRY [SEED]
"""

import sys

import numpy

from ckpt.aot import CompiledStep

MASK = (1 << 64) - 1


class SplitMix64:
    """ckpt-run's input generator."""

    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def symmetric(self):
        return ((self.next() >> 40) * 2.0 ** -24) * 2.0 - 1.0


def fnv1a(data):
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & MASK
    return value


def main():
    library, entry = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    step = CompiledStep(library, entry)
    rng = SplitMix64(seed)
    args = []
    for shape, dtype in step.inputs:
        count = int(numpy.prod(shape, dtype=numpy.int64))
        if dtype in (numpy.float32, numpy.float64):
            values = [rng.symmetric() for _ in range(count)]
        elif dtype == numpy.uint8:
            values = [rng.next() % 2 for _ in range(count)]
        else:
            values = [rng.next() % 16 for _ in range(count)]
        args.append(numpy.array(values).astype(dtype).reshape(shape))
    outputs = step(*args)
    print(f"peak_bytes={step.peak_bytes()}")
    for index, (output, info) in enumerate(zip(outputs, step.signature["outputs"])):
        shape = "x".join(str(d) for d in info["shape"])
        type_text = f"tensor<{shape + 'x' if shape else ''}{info['dtype']}>"
        total = float(output.astype(numpy.float64).sum()) if output.dtype.kind == "f" else 0.0
        print(f"output #{index} {type_text} checksum=0x{fnv1a(output.tobytes()):016x} "
              f"sum={total:.6e}")


if __name__ == "__main__":
    main()
