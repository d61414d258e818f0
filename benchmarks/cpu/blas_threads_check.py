"""Gradients of a zoo model's gemm=blas builds on 1 and 2 threads
(ckpt-compile --num-threads: the GEMMs and the parallel loops), each against
float64 eager PyTorch (normwise over all gradients); the 2-thread build runs
twice (deterministic: the same checksum).

    CKPT_BUILD_DIR=build python3 benchmarks/cpu/blas_threads_check.py [MODEL]
"""

import os
import pickle
import subprocess
import sys
import tempfile
import zlib

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))


def run_library(library, entry, arguments, outputs):
    """In a child process, one build per process."""
    from ckpt.aot import CompiledStep
    with open(arguments, "rb") as f:
        args = pickle.load(f)
    with open(outputs, "wb") as f:
        pickle.dump(CompiledStep(library, entry)(*args), f)


def main(name):
    import torch
    from ckpt.execution import build_library
    from ckpt.torch import export_training_step
    from ckpt.torch.zoo import ZOO

    torch.manual_seed(0)
    model, inputs, targets, loss_fn = ZOO[name]()
    step = export_training_step(model, inputs, loss_fn, targets=targets)
    work = tempfile.mkdtemp(prefix="ckpt-blas-threads-")
    libraries = {}
    for threads in (1, 2):
        folder = os.path.join(work, str(threads))
        os.makedirs(folder)
        libraries[threads], _ = build_library(step.mlir, step.entry, folder, gemm="blas",
                                              threads=threads)
    arguments, outputs = os.path.join(work, "args.pkl"), os.path.join(work, "out.pkl")
    with open(arguments, "wb") as f:
        pickle.dump(step.arguments(model, inputs, targets), f)

    exact = model.double()
    exact.zero_grad()
    loss_fn(exact(*[i.double() if i.is_floating_point() else i for i in inputs]),
            *targets).backward()
    reference = {n: p.grad.numpy() for n, p in exact.named_parameters() if p.grad is not None}
    grads = [(i, n[len("grad:"):]) for i, n in enumerate(step.result_names)
             if n.startswith("grad:") and n[len("grad:"):] in reference]
    want = numpy.concatenate([reference[n].ravel() for _, n in grads])
    for threads in (1, 2, 2):
        subprocess.run([sys.executable, __file__, "--run", libraries[threads], step.entry,
                        arguments, outputs], check=True)
        with open(outputs, "rb") as f:
            results = pickle.load(f)
        got = numpy.concatenate([results[i].ravel().astype(numpy.float64) for i, _ in grads])
        error = numpy.linalg.norm(got - want) / numpy.linalg.norm(want)
        print(f"{name} threads={threads} grad_error_vs_f64={error:.2e} "
              f"checksum={zlib.crc32(got.tobytes()):08x}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--run":
        run_library(*sys.argv[2:])
        sys.exit(0)
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "resnet18"))
