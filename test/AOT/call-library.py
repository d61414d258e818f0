"""Calls a ckpt-compile library through ckpt.aot on ckpt-run's inputs and
prints ckpt-run's output lines (FNV-1a checksums and sums), so that a test
can compare them with the JIT's, and how many threads the call started
(threads_started=N: the process's threads after the step less those before).

Usage: call-library.py LIBRARY ENTRY [SEED]
"""

import os
import sys

import numpy

from ckpt.aot import CompiledStep
from ckpt.inputs import generate

MASK = (1 << 64) - 1


def fnv1a(data):
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & MASK
    return value


def main():
    library, entry = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    step = CompiledStep(library, entry)
    args = generate(step.inputs, seed)
    threads_before = len(os.listdir("/proc/self/task"))
    outputs = step(*args)
    print(f"peak_bytes={step.peak_bytes()}")
    print(f"threads_started={len(os.listdir('/proc/self/task')) - threads_before}")
    for index, (output, info) in enumerate(zip(outputs, step.signature["outputs"])):
        shape = "x".join(str(d) for d in info["shape"])
        type_text = f"tensor<{shape + 'x' if shape else ''}{info['dtype']}>"
        total = float(output.astype(numpy.float64).sum()) if output.dtype.kind == "f" else 0.0
        print(f"output #{index} {type_text} checksum=0x{fnv1a(output.tobytes()):016x} "
              f"sum={total:.6e}")


if __name__ == "__main__":
    main()
