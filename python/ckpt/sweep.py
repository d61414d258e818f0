"""Budget sweep: rematerialize and run a step at a range of budgets.

    python3 -m ckpt sweep step.mlir --entry=loss_grad --budgets=0.2:1.0:0.1 \\
        [--solver=auto] [--iterations=3] [--plot=pareto.png] [--json=sweep.json]

For every budget, then `min` and `auto`: ckpt-remat (through ckpt.run: an ahead-of-time build) and
execution on ckpt-run's inputs; the table gives the budget, the estimated
and the measured peak, the FLOP overhead, the measured step-time ratio to
the build without remat, and whether the outputs are bit-identical to it.
Budgets below the smallest feasible peak are listed as infeasible. The
Pareto plot (matplotlib) shows measured peak against FLOP overhead and
marks the point `--remat-budget=auto` picks (the knee of the trade-off).
"""

import argparse
import json
import sys

import numpy

from .execution import BuildError, run


def parse_budgets(text):
    """`START:STOP:STEP` (fractions, inclusive) or a comma-separated list."""
    if ":" in text:
        parts = text.split(":")
        if len(parts) != 3:
            raise ValueError(f"--budgets: expected START:STOP:STEP, got '{text}'")
        start, stop, step = (float(p) for p in parts)
        if not (0 < start <= stop <= 1 and step > 0):
            raise ValueError(f"--budgets: need 0 < START <= STOP <= 1 and STEP > 0, got '{text}'")
        count = int(round((stop - start) / step)) + 1
        # Two decimals keep the decimal point: "1" would be one byte.
        return [f"{start + i * step:.2f}" for i in range(count) if start + i * step <= stop + 1e-9]
    budgets = [b.strip() for b in text.split(",") if b.strip()]
    if not budgets:
        raise ValueError("--budgets: no budget given")
    return budgets


def _progress(done, total, label):
    width = 30
    filled = int(width * done / total)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label:<12}")
    sys.stderr.flush()
    if done == total:
        sys.stderr.write("\n")


def sweep(module, entry, budgets, solver="auto", iterations=3, backend="cpu", build=None,
          progress=True):
    """Returns the rows of the sweep (dicts): the baseline first, then the
    budgets, then `min` (the smallest peak ckpt-remat reaches) and `auto`
    (the knee it picks)."""
    labels = ["none"] + [b for b in budgets if b not in ("min", "auto")] + ["min", "auto"]
    rows, baseline = [], None
    for index, budget in enumerate(labels):
        if progress:
            _progress(index, len(labels), budget)
        row = {"budget": budget}
        try:
            result = run(module, entry, backend=backend, iterations=iterations,
                         budget=None if budget == "none" else budget, solver=solver,
                         build=build)
        except BuildError as error:
            if error.kind != "infeasible-budget":
                raise
            row["infeasible"] = (f"below the smallest peak found, "
                                 f"{error.smallest_peak_bytes} bytes")
            rows.append(row)
            continue
        row.update(peak_bytes=result.peak_bytes, step_time_s=result.step_time_s)
        if baseline is None:
            baseline = result
            row.update(estimated_peak_bytes=None, flop_overhead=0.0, time_ratio=1.0,
                       identical=True)
        else:
            function = next(f for f in result.report["functions"] if f["name"] == entry)
            row.update(budget_bytes=function["budget_bytes"],
                       estimated_peak_bytes=function["peak_bytes"],
                       flop_overhead=function["extra_flops"] / max(1, function["baseline_flops"]),
                       time_ratio=result.step_time_s / baseline.step_time_s,
                       identical=all(numpy.array_equal(a, b, equal_nan=True)
                                     for a, b in zip(result.outputs, baseline.outputs)),
                       within_budget=result.peak_bytes <= function["budget_bytes"])
        rows.append(row)
    if progress:
        _progress(len(labels), len(labels), "done")
    return rows


def print_table(rows, out=sys.stdout):
    base = rows[0]["peak_bytes"]
    out.write(f"{'budget':>8} {'est. peak B':>12} {'peak B':>12} {'peak/base':>9} "
              f"{'FLOP overh.':>11} {'time/base':>9}  outputs\n")
    for row in rows:
        if "infeasible" in row:
            out.write(f"{row['budget']:>8}  infeasible: {row['infeasible']}\n")
            continue
        estimated = row.get("estimated_peak_bytes")
        outputs = "reference" if row["budget"] == "none" else (
            "bit-identical" if row["identical"] else "DIFFER")
        if row["budget"] != "none" and not row.get("within_budget", True):
            outputs += ", OVER BUDGET"
        out.write(f"{row['budget']:>8} {estimated if estimated is not None else '-':>12} "
                  f"{row['peak_bytes']:>12} {row['peak_bytes'] / base:>9.3f} "
                  f"{row['flop_overhead']:>10.2%} {row['time_ratio']:>9.3f}  {outputs}\n")


def plot(rows, path, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    base = rows[0]["peak_bytes"]
    points = [r for r in rows if "infeasible" not in r and r["budget"] != "auto"]
    auto = next((r for r in rows if r["budget"] == "auto" and "infeasible" not in r), None)
    fig, ax = plt.subplots(figsize=(6.4, 4.4), dpi=120)
    xs = [r["peak_bytes"] / base for r in points]
    ys = [100 * r["flop_overhead"] for r in points]
    order = sorted(range(len(points)), key=lambda i: xs[i])
    ax.plot([xs[i] for i in order], [ys[i] for i in order], "o-", color="tab:blue",
            label="ckpt-remat at a budget")
    # Budgets that give the same point share one label ("none = 1.00").
    labels = {}
    for i in order:
        labels.setdefault((round(xs[i], 4), round(ys[i], 4)), []).append(points[i]["budget"])
    for (x, y), names in labels.items():
        ax.annotate(" = ".join(names), (x, y), textcoords="offset points", xytext=(4, 4),
                    fontsize=8)
    if auto:
        ax.plot([auto["peak_bytes"] / base], [100 * auto["flop_overhead"]], "*", markersize=16,
                color="tab:red", label="--remat-budget=auto (knee)")
    ax.set_xlabel("measured peak / peak without remat")
    ax.set_ylabel("recomputed FLOPs (% of the step)")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m ckpt sweep", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="MLIR file with the training step")
    parser.add_argument("--entry", required=True)
    parser.add_argument("--budgets", default="0.2:1.0:0.1")
    parser.add_argument("--solver", default="auto")
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--backend", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--plot", help="write the Pareto plot (PNG) here")
    parser.add_argument("--json", help="write the rows here")
    parser.add_argument("--build", help="ckpt build directory (default: CKPT_BUILD_DIR or build/)")
    args = parser.parse_args(argv)
    try:
        budgets = parse_budgets(args.budgets)
        with open(args.file) as f:
            module = f.read()
        rows = sweep(module, args.entry, budgets, args.solver, args.iterations, args.backend,
                     args.build, progress=sys.stderr.isatty())
    except (ValueError, OSError, RuntimeError) as error:
        print(f"ckpt sweep: error: {error}", file=sys.stderr)
        return 1
    print_table(rows)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    if args.plot:
        plot(rows, args.plot, f"{args.file.rsplit('/', 1)[-1]} @{args.entry}")
        print(f"plot: {args.plot}")
    bad = [r["budget"] for r in rows[1:] if "infeasible" not in r and
           (not r["identical"] or not r.get("within_budget", True))]
    if bad:
        print(f"ckpt sweep: error: outputs differ or budget missed at {', '.join(bad)}",
              file=sys.stderr)
        return 1
    return 0
