#!/usr/bin/env python3
"""The remat forecast against the measured peak on real PyTorch models.

For each model of ckpt.torch.zoo (Hugging Face and torchvision, small
configs), the training step is exported with ckpt.torch, built without
remat and at every budget with ckpt.run on the model's own inputs (class
indices in range, unlike ckpt-run's generated integers), and compared:
the forecast (`peak_bytes` of ckpt-remat's report, arguments included)
against the measured peak (the runtime's, plus the inputs), the outputs
against the build without remat (bit-identical), and the measured peak
against the budget.

    PYTHONPATH=python python3 benchmarks/remat/forecast_sweep.py \\
        [--models gpt2-sdpa,gpt2-eager,bert,vit,t5-encoder,llama] \\
        [--budgets 0.9,0.8,0.7,0.6,0.5,min]

Prints one row per (model, budget); exits 1 if a forecast is off by more
than 1%, an output differs or a peak exceeds its budget. ResNet-18 and
MobileNetV2 are built at batch 4 and 32x32 here (their weights then
dominate: most budgets are infeasible and reported as such).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "python"))

SMALL_VISION = {"resnet18": dict(batch=4, size=32), "mobilenet-v2": dict(batch=4, size=32)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="gpt2-sdpa,gpt2-eager,bert,vit,t5-encoder,llama")
    parser.add_argument("--budgets", default="0.9,0.8,0.7,0.6,0.5,min")
    args = parser.parse_args()
    import numpy as np
    import ckpt
    from ckpt.execution import BuildError
    from ckpt.torch import export_training_step
    from ckpt.torch.zoo import ZOO

    bad = 0
    print(f"{'model':13} {'budget':>6} {'solver':28} {'forecast':>10} {'measured':>10} "
          f"{'error':>7} identical within")
    for name in args.models.split(","):
        model, inputs, targets, loss_fn = ZOO[name](**SMALL_VISION.get(name, {}))
        step = export_training_step(model, inputs, loss_fn, targets=targets)
        arguments = step.arguments(model, inputs, targets)
        baseline = ckpt.run(step.mlir, step.entry, inputs=arguments, iterations=1)
        for budget in args.budgets.split(","):
            try:
                result = ckpt.run(step.mlir, step.entry, inputs=arguments, iterations=1,
                                  budget=budget)
            except BuildError as error:
                reason = "infeasible" if error.kind == "infeasible-budget" else "error"
                print(f"{name:13} {budget:>6} {reason}: {str(error).splitlines()[0][-90:]}",
                      flush=True)
                bad += reason != "infeasible"
                continue
            report = result.report["functions"][0]
            forecast, measured = report["peak_bytes"], result.peak_bytes
            error = (forecast - measured) / measured
            identical = all(np.array_equal(a, b)
                            for a, b in zip(baseline.outputs, result.outputs))
            within = measured <= report["budget_bytes"]
            bad += abs(error) > 0.01 or not identical or not within
            print(f"{name:13} {budget:>6} {report['solver']:28} {forecast:10d} {measured:10d} "
                  f"{error:7.2%} {'yes' if identical else 'NO':9} {'yes' if within else 'NO'}",
                  flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
