"""Summarizes a module produced by ckpt-gpu-pipeline for lit tests.

Prints one line: the number of kernels (distinct kernels that
gpu.launch_func ops launch), of cuBLAS call sites, of floating-point LLVM ops on the host (the
cubins are opaque strings, so every such op is host work), and of ops that
are neither LLVM ops nor gpu.binary / gpu.launch_func, and of gpu.binary
ops (cubins: 1 when ckpt-merge-gpu-modules put every kernel into one
module).
"""

import re
import sys


def main():
    text = open(sys.argv[1]).read()
    kernels = len(set(re.findall(r"gpu\.launch_func\s+(?:<[^>]*>\s*)?(@[\w$.]+::@[\w$.]+)", text)))
    binaries = len(re.findall(r"^\s*gpu\.binary @", text, re.M))
    cublas = len(re.findall(r"llvm\.call @ckpt_cuda_(?:batch_)?gemm_", text))
    host_fp = len(re.findall(r"\bllvm\.(?:f(?:add|sub|mul|div|rem|cmp|neg)|intr\.(?:exp|log|sqrt|tanh|maximum|minimum|maxnum|minnum|fma|erf))\b", text))
    ops = re.findall(r"^\s*(?:%[\w#:, %]+ = )?\"?([a-z_]+\.[a-z_.0-9]+)", text, re.M)
    other = [op for op in ops if not op.startswith("llvm.")
             and op not in ("gpu.binary", "gpu.launch_func")]
    print(f"kernels={kernels} cublas={cublas} host_fp={host_fp} other_ops={len(other)} "
          f"binaries={binaries}")
    for op in sorted(set(other)):
        print(f"  other: {op}")


if __name__ == "__main__":
    main()
