"""Where a compiled CPU step spends its time, by op.

Build the step with `ckpt-compile --profile-ir=IR ...` (the IR before the
loop lowering, with line tables into it), record a process that calls it
with `perf record -o DATA ...`, then

    python3 benchmarks/cpu/profile_ops.py IR DATA [--top 25] [--comm python3]

prints the share of samples per shared object (the step's library, OpenBLAS,
libc, the kernel) and, for the step's own code, per top-level op of the
function (a loop's body counts for the loop), with the op's first line.
"""

import argparse
import collections
import re
import subprocess
import sys

# The MLIR printer indents a function's body by four spaces (module, func).
_BODY_INDENT = 4


def owners(lines):
    """Line number -> line number of the top-level op it belongs to."""
    owner, current = {}, None
    for number, line in enumerate(lines, 1):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if indent == _BODY_INDENT and stripped and not stripped.startswith(("}", "^")):
            current = number
        owner[number] = current
    return owner


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ir")
    parser.add_argument("data")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--comm", default=None, help="only samples of this command")
    args = parser.parse_args()
    with open(args.ir) as f:
        lines = f.read().split("\n")
    owner = owners(lines)
    command = ["perf", "report", "-i", args.data, "--sort", "dso,srcline", "--stdio"]
    if args.comm:
        command += ["--comm", args.comm]
    report = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    by_dso, by_op = collections.Counter(), collections.Counter()
    for row in report.split("\n"):
        match = re.match(r"\s+([\d.]+)%\s+(\S+)\s+(\S+)", row)
        if not match:
            continue
        share, dso, source = float(match[1]), match[2], match[3]
        by_dso[dso] += share
        line = re.match(r".*\.mlir:(\d+)", source)
        if line:
            by_op[owner.get(int(line[1]))] += share
    print("share by shared object:")
    for dso, share in by_dso.most_common(8):
        print(f"  {share:6.2f}%  {dso}")
    print(f"share by op of {args.ir} (top {args.top}):")
    for number, share in by_op.most_common(args.top):
        text = lines[number - 1].strip() if number else "(outside the function body)"
        print(f"  {share:6.2f}%  line {number}: {text[:140]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
