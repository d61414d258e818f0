"""CPU step time of ckpt's compiled training step against PyTorch eager,
side by side in one run, on the same thread count.

For each PyTorch model (ckpt.torch's examples, a GPT and a ResNet, and
ckpt.torch.zoo's real models by name, e.g. resnet18 or gpt2-sdpa, exported
with ckpt.torch.export_training_step): PyTorch eager's training
step (forward, loss, backward by autograd) with torch.set_num_threads(T),
and ckpt's build of the exported step (ckpt.run, the same inputs) with the
matmuls as loops (gemm=codegen) and through OpenBLAS (gemm=blas, with
OPENBLAS_NUM_THREADS=T; convolutions as im2col and a GEMM), each without
remat and at a budget (a budget no schedule meets is reported as such).
Prints the median step times, the ratios to eager and the measured peaks.

    PYTHONPATH=python python3 benchmarks/cpu/run_cpu_benchmark.py [--threads 1] \
        [--models gpt,resnet,resnet18] [--gemm codegen,blas]
"""

import argparse
import os
import statistics
import sys
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--budget", default="0.5")
    parser.add_argument("--models", default="gpt,resnet,resnet18")
    parser.add_argument("--gemm", default="codegen,blas")
    args = parser.parse_args()
    # Before OpenBLAS and torch start their thread pools.
    os.environ["OPENBLAS_NUM_THREADS"] = str(args.threads)
    os.environ["CKPT_BLAS_THREADS"] = str(args.threads)  # libckpt_blas_runtime: 1 unless set
    import torch
    import ckpt
    from ckpt.torch import export_training_step
    from ckpt.execution import BuildError
    from ckpt.torch.models import EXAMPLES
    from ckpt.torch.zoo import ZOO

    torch.set_num_threads(args.threads)
    print(f"threads={args.threads} iterations={args.iterations} torch {torch.__version__}")
    print(f"{'model':8} {'build':24} {'step_time_s':>12} {'vs_eager':>9} {'peak_bytes':>12}")
    for name in args.models.split(","):
        model, inputs, targets, loss_fn = (EXAMPLES[name] if name in EXAMPLES else ZOO[name])()
        step = export_training_step(model, inputs, loss_fn, targets=targets)
        arguments = step.arguments(model, inputs, targets)

        def eager():
            model.zero_grad(set_to_none=True)
            loss_fn(model(*inputs), *targets).backward()

        eager()
        times = []
        for _ in range(args.iterations):
            start = time.perf_counter()
            eager()
            times.append(time.perf_counter() - start)
        eager_s = statistics.median(times)
        print(f"{name:8} {'pytorch eager':24} {eager_s:12.3e} {1.0:9.2f} {'':>12}")
        for gemm in args.gemm.split(","):
            for budget in (None, args.budget):
                label = f"ckpt gemm={gemm}" + (f" budget={budget}" if budget else "")
                try:
                    result = ckpt.run(step.mlir, step.entry, inputs=arguments,
                                      iterations=args.iterations, budget=budget, gemm=gemm)
                except BuildError as error:
                    if error.kind != "infeasible-budget":
                        raise
                    print(f"{name:8} {label:24} {'infeasible':>12} {'':>9} "
                          f"{'min ' + str(error.smallest_peak_bytes):>12}")
                    continue
                print(f"{name:8} {label:24} {result.step_time_s:12.3e} "
                      f"{result.step_time_s / eager_s:9.2f} {result.peak_bytes:12d}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
