"""Heap the GEMM libraries allocate on their own during a compiled step,
beside the peak the ckpt runtime measures.

ckpt's runtime counts every buffer the step allocates; oneDNN's dnnl_sgemm
packs its operands into buffers it allocates and frees inside each call,
with no hook to hand it ckpt's. This measures them: the step runs in a
child process with library_heap.c preloaded, which counts the heap
allocations made from libdnnl and libopenblas (OpenBLAS's own buffers are
mapped once at start-up and are not heap), and prints the most bytes they
held at once during one step (after two warm-up steps), next to the
runtime's measured peak.

    PYTHONPATH=python python3 benchmarks/cpu/library_workspace.py [MODEL ...] \
        [--threads 1] [--budget 0.5]

MODEL names ckpt.torch's examples (gpt, resnet) or ckpt.torch.zoo's models
(resnet18, gpt2-sdpa, bert, vit, ...).
"""

import argparse
import ctypes
import os
import pickle
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARIES = "libdnnl,libopenblas"


def child(library, entry, arguments_path):
    """Runs in the preloaded process: two warm-up steps, then one measured."""
    from ckpt.aot import CompiledStep
    from ckpt.execution import input_bytes

    heap = ctypes.CDLL(None)
    for name in ("library_heap_peak", "library_heap_calls"):
        getattr(heap, name).restype = ctypes.c_long
    with open(arguments_path, "rb") as file:
        arguments = pickle.load(file)
    step = CompiledStep(library, entry)
    step(*arguments)
    step(*arguments)
    heap.library_heap_reset()
    step(*arguments)
    print(heap.library_heap_peak(), heap.library_heap_calls(),
          step.peak_bytes() + input_bytes(step))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", default=["resnet18", "gpt2-sdpa"])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--budget", default=None,
                        help="also build at this remat budget (e.g. 0.5; min where no "
                             "schedule meets it)")
    args = parser.parse_args()
    compiler = shutil.which("cc") or shutil.which("clang-22") or shutil.which("gcc")
    if not compiler:
        print("library_workspace: error: no C compiler (cc) to build library_heap.c",
              file=sys.stderr)
        return 1
    from ckpt.execution import BuildError, build_library
    from ckpt.torch import export_training_step
    from ckpt.torch.models import EXAMPLES
    from ckpt.torch.zoo import ZOO

    with tempfile.TemporaryDirectory(prefix="ckpt-library-workspace-") as work:
        preload = os.path.join(work, "library_heap.so")
        subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", preload,
                        os.path.join(HERE, "library_heap.c"), "-ldl"], check=True)
        unknown = [name for name in args.models if name not in EXAMPLES and name not in ZOO]
        if unknown:
            print(f"library_workspace: error: unknown model '{unknown[0]}' (known: "
                  f"{', '.join(list(EXAMPLES) + list(ZOO))})", file=sys.stderr)
            return 1
        print(f"threads={args.threads}")
        print(f"{'model':10} {'budget':7} {'library_heap_peak_bytes':>24} {'allocations':>12} "
              f"{'runtime_peak_bytes':>19} {'ratio':>7}")
        for name in args.models:
            model, inputs, targets, loss_fn = (EXAMPLES[name] if name in EXAMPLES
                                               else ZOO[name])()
            step = export_training_step(model, inputs, loss_fn, targets=targets)
            arguments_path = os.path.join(work, f"{name}.pkl")
            with open(arguments_path, "wb") as file:
                pickle.dump(step.arguments(model, inputs, targets), file)
            for budget in [None] + ([args.budget] if args.budget else []):
                folder = os.path.join(work, f"{name}-{budget}")
                os.makedirs(folder)
                try:
                    library, _ = build_library(step.mlir, step.entry, folder, budget=budget,
                                               gemm="blas", threads=args.threads)
                except BuildError as error:
                    if error.kind != "infeasible-budget":
                        raise
                    # No schedule meets it: the smallest peak the planner finds.
                    budget = "min"
                    library, _ = build_library(step.mlir, step.entry, folder, budget=budget,
                                               gemm="blas", threads=args.threads)
                env = {**os.environ, "LD_PRELOAD": preload,
                       "CKPT_HEAP_LIBRARIES": LIBRARIES,
                       "OPENBLAS_NUM_THREADS": str(args.threads)}
                result = subprocess.run(
                    [sys.executable, os.path.abspath(__file__), "--child", library,
                     step.entry, arguments_path],
                    env=env, capture_output=True, text=True)
                if result.returncode != 0:
                    sys.stderr.write(result.stderr)
                    return 1
                heap, calls, peak = map(int, result.stdout.split()[-3:])
                print(f"{name:10} {budget or 'none':7} {heap:24d} {calls:12d} {peak:19d} "
                      f"{heap / peak:7.3f}")
                sys.stdout.flush()
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        sys.exit(child(*sys.argv[2:]))
    sys.exit(main())
