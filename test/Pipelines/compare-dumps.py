"""Compares two --dump-outputs files of one ckpt-run entry for lit tests.

Usage: compare-dumps.py REPORT A.bin B.bin TOLERANCE
REPORT is ckpt-run's output for either run (its `output #i tensor<...>`
lines give the types). Prints the largest normwise relative difference of
the float outputs and whether the integer outputs are equal; exits 1 when a
float output differs by more than TOLERANCE or an integer output differs.
"""

import re
import sys

import numpy

DTYPES = {"f32": numpy.float32, "f64": numpy.float64, "i1": numpy.uint8, "i8": numpy.int8,
          "i32": numpy.int32, "i64": numpy.int64, "index": numpy.int64}


def main():
    report, first, second, tolerance = sys.argv[1:5]
    types = re.findall(r"^output #\d+ tensor<((?:\d+x)*)(\w+)>", open(report).read(), re.M)
    a, b = open(first, "rb").read(), open(second, "rb").read()
    offset, worst, status = 0, 0.0, 0
    for index, (dims, element) in enumerate(types):
        dtype = numpy.dtype(DTYPES[element])
        count = int(numpy.prod([int(d) for d in dims.split("x") if d], dtype=numpy.int64))
        x = numpy.frombuffer(a, dtype, count, offset).astype(numpy.float64)
        y = numpy.frombuffer(b, dtype, count, offset).astype(numpy.float64)
        offset += count * dtype.itemsize
        if dtype.kind == "f":
            scale = numpy.linalg.norm(x)
            error = numpy.linalg.norm(x - y) / scale if scale > 0 else numpy.linalg.norm(x - y)
            worst = max(worst, float(error))
            if not error <= float(tolerance):
                print(f"output #{index}: relative difference {error:.3e}")
                status = 1
        elif not numpy.array_equal(x, y):
            print(f"output #{index}: integer outputs differ")
            status = 1
    if offset != len(a) or len(a) != len(b):
        print(f"sizes: {len(a)} and {len(b)} bytes, outputs take {offset}")
        status = 1
    print(f"outputs={len(types)} max_relative_difference={worst:.1e} "
          f"{'ok' if status == 0 else 'FAILED'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
