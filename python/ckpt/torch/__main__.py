"""python3 -m ckpt.torch MODEL [--budget 0.5] [--solver auto] [-o step.mlir]

Exports the training step of one of the small PyTorch models of
ckpt.torch.models (gpt, resnet) through torch-mlir, runs it with ckpt
without and with remat on the model's own inputs, and prints the peaks, the
step times and the largest difference from PyTorch's autograd.
"""

import argparse
import sys

import numpy


def main(argv=None):
    from . import export_training_step, reference
    from .models import EXAMPLES
    from ..execution import run

    parser = argparse.ArgumentParser(prog="python3 -m ckpt.torch", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", choices=sorted(EXAMPLES))
    parser.add_argument("--budget", default="0.5")
    parser.add_argument("--solver", default="auto")
    parser.add_argument("-o", "--output", help="also write the exported MLIR here")
    args = parser.parse_args(argv)

    model, inputs, targets, loss = EXAMPLES[args.model]()
    step = export_training_step(model, inputs, loss, targets=targets)
    if args.output:
        with open(args.output, "w") as f:
            f.write(step.mlir)
    print(f"{args.model}: {len(step.argument_names)} arguments, {len(step.result_names)} results, "
          f"{len(step.aten_ops)} aten ops, exported in {step.export_time_s:.2f} s")
    arguments = step.arguments(model, inputs, targets)
    expected = reference(model, inputs, loss, targets)
    baseline = run(step.mlir, step.entry, inputs=arguments, iterations=3)
    remat = run(step.mlir, step.entry, inputs=arguments, iterations=3, budget=args.budget,
                solver=args.solver)
    report = remat.report["functions"][0]
    identical = all(a.tobytes() == b.tobytes() for a, b in zip(baseline.outputs, remat.outputs))
    # Largest error as a fraction of the allclose tolerance (rtol 1e-4,
    # atol 1e-5): at most 1 passes.
    worst = max(float(numpy.max(numpy.abs(got - want) / (1e-5 + 1e-4 * numpy.abs(want))))
                for got, want in zip(remat.outputs, expected))
    close = worst <= 1
    print(f"baseline: peak_bytes={baseline.peak_bytes} step_time_s={baseline.step_time_s:.3e}")
    print(f"remat:    budget={args.budget} solver={report['solver']} "
          f"budget_bytes={report['budget_bytes']} peak_bytes={remat.peak_bytes} "
          f"recompute_count={report['recompute_count']} step_time_s={remat.step_time_s:.3e}")
    print(f"peak_ratio={remat.peak_bytes / baseline.peak_bytes:.4f} "
          f"step_time_ratio={remat.step_time_s / baseline.step_time_s:.3f} "
          f"outputs_identical={'yes' if identical else 'no'} "
          f"within_budget={'yes' if remat.peak_bytes <= report['budget_bytes'] else 'no'} "
          f"autograd_close={'yes' if close else 'no'} (worst error {worst:.2f} of rtol 1e-4 + atol 1e-5)")
    return 0 if identical and close and remat.peak_bytes <= report["budget_bytes"] else 1


if __name__ == "__main__":
    sys.exit(main())
