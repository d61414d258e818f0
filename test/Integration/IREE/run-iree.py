"""Runs two IREE modules' FUNCTION on the same inputs (a ramp of values per
argument type; integers stay in 0..16, valid indices for tokens and labels)
with iree-run-module, and prints each one's DEVICE_LOCAL peak, whether every
output is bit-identical, whether the second's peak is lower and, with
--max-ratio R, whether it is at most R times the first's.

Usage: run-iree.py [--max-ratio R] BASE.vmfb OTHER.vmfb FUNCTION TYPE...
       run-iree.py [--max-ratio R] BASE.vmfb OTHER.vmfb FUNCTION --types-of MODULE.mlir
(--types-of reads FUNCTION's argument types from an MLIR module.)
"""

import os
import re
import subprocess
import sys
import tempfile

import numpy


def run(module, function, inputs, directory, tag):
    outputs = [os.path.join(directory, f"{tag}.{i}.npy") for i in range(64)]
    command = ["iree-run-module", "--device=local-sync", f"--module={module}",
               f"--function={function}", "--print_statistics"]
    command += [f"--input=@{path}" for path in inputs]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode:
        sys.exit(f"iree-run-module failed: {result.stderr.strip()[-2000:]}")
    peak = int(re.search(r"DEVICE_LOCAL:\s+(\d+)B peak", result.stdout + result.stderr).group(1))
    count = len(re.findall(r"^result\[\d+\]", result.stdout, re.M))
    command = [c for c in command if c != "--print_statistics"]
    command += [f"--output=@{path}" for path in outputs[:count]]
    subprocess.run(command, capture_output=True, text=True, check=True)
    return peak, [numpy.load(path) for path in outputs[:count]]


def argument_types(path, function):
    """The tensor types of FUNCTION's arguments in the MLIR module at path."""
    with open(path) as f:
        text = f.read()
    match = re.search(r"func\.func @" + re.escape(function) + r"\((.*?)\)\s*(->|attributes|\{)",
                      text, re.S)
    if not match:
        sys.exit(f"no function @{function} in {path}")
    return re.findall(r"tensor<([^>]*)>", match.group(1))


def main():
    args = sys.argv[1:]
    max_ratio = None
    if args[0] == "--max-ratio":
        max_ratio, args = float(args[1]), args[2:]
    base, other, function, types = args[0], args[1], args[2], args[3:]
    if types[:1] == ["--types-of"]:
        types = argument_types(types[1], function)
    with tempfile.TemporaryDirectory() as directory:
        inputs = []
        for index, spec in enumerate(types):
            *dims, element = spec.split("x")
            dtype = {"f32": "float32", "f64": "float64", "i64": "int64",
                     "i32": "int32"}[element]
            shape = tuple(int(d) for d in dims)
            size = int(numpy.prod(shape))
            if element.startswith("i"):
                values = (numpy.arange(size) % 17).astype(dtype).reshape(shape)
            else:
                values = (numpy.arange(size) % 17 - 8).astype(dtype).reshape(shape) / (16 + index)
            path = os.path.join(directory, f"input{index}.npy")
            numpy.save(path, values.astype(dtype))
            inputs.append(path)
        base_peak, base_out = run(base, function, inputs, directory, "base")
        other_peak, other_out = run(other, function, inputs, directory, "other")
    identical = len(base_out) == len(other_out) > 0 and all(
        a.dtype == b.dtype and a.tobytes() == b.tobytes() for a, b in zip(base_out, other_out))
    print(f"base_peak_bytes={base_peak} peak_bytes={other_peak} "
          f"peak_ratio={other_peak / base_peak:.4f} outputs={len(base_out)}")
    print(f"outputs_identical={'yes' if identical else 'no'} "
          f"peak_lower={'yes' if other_peak < base_peak else 'no'}")
    if max_ratio is not None:
        within = other_peak <= int(max_ratio * base_peak)
        print(f"within_budget={'yes' if within else 'no'} max_ratio={max_ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
