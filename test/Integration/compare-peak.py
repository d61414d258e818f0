#!/usr/bin/env python3
"""Compares the peak estimated by ckpt-report with the peak measured by
libckpt_runtime for one function, and fails beyond a relative tolerance.

Usage: compare-peak.py REPORT.json RUN_OUTPUT FUNCTION [--tolerance 0.02]

The run output must contain the runtime's report line
`ckpt-runtime: peak_bytes=N ...` printed right after the function returned,
with only the function's arguments allocated before it was called (and the
measurement reset before the call), so that N is the function's peak
including its arguments, as the estimate is.
"""

import argparse
import json
import re
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("report")
    parser.add_argument("run_output")
    parser.add_argument("function")
    parser.add_argument("--tolerance", type=float, default=0.02)
    args = parser.parse_args()

    with open(args.report) as f:
        report = json.load(f)
    functions = {fn["name"]: fn for fn in report["functions"]}
    if args.function not in functions:
        sys.exit(f"compare-peak: no function '{args.function}' in the report")
    estimated = functions[args.function]["peak_bytes"]

    with open(args.run_output) as f:
        match = re.search(r"ckpt-runtime: peak_bytes=(\d+)", f.read())
    if not match:
        sys.exit("compare-peak: no 'ckpt-runtime: peak_bytes=' line in the run output")
    measured = int(match.group(1))

    error = abs(estimated - measured) / measured if measured else float(estimated != 0)
    print(f"{args.function}: estimated_peak_bytes={estimated} "
          f"measured_peak_bytes={measured} relative_error={error:.4f}")
    if error > args.tolerance:
        print(f"compare-peak: error {error:.2%} exceeds {args.tolerance:.0%}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
