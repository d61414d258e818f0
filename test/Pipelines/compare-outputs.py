"""Compares the output lines of two ckpt-run (or call-library.py) logs:
every output's sum must agree within a relative tolerance (BLAS sums in
another order than the loops, so bits may differ). Prints one line per
output and `outputs_close=yes|no`.

Usage: compare-outputs.py A.txt B.txt RTOL
"""

import re
import sys

OUTPUT = re.compile(r"output #(\d+) (\S+) checksum=\S+ sum=(\S+)")


def outputs(path):
    return {int(m.group(1)): (m.group(2), float(m.group(3)))
            for m in map(OUTPUT.search, open(path)) if m}


def main():
    a, b, rtol = outputs(sys.argv[1]), outputs(sys.argv[2]), float(sys.argv[3])
    close = bool(a) and a.keys() == b.keys()
    scale = max((abs(s) for _, s in a.values()), default=1.0) or 1.0
    for index in sorted(a):
        (type_a, sum_a), (type_b, sum_b) = a[index], b.get(index, (None, float("nan")))
        ok = type_a == type_b and abs(sum_a - sum_b) <= rtol * max(abs(sum_a), 1e-3 * scale)
        close &= ok
        print(f"output #{index} {type_a}: {sum_a:.6e} vs {sum_b:.6e} {'ok' if ok else 'DIFFERS'}")
    print(f"outputs_close={'yes' if close else 'no'}")
    return 0 if close else 1


if __name__ == "__main__":
    sys.exit(main())
