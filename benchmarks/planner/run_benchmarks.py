#!/usr/bin/env python3
"""Measures ckpt-plan's solvers against the ILP optimum, in one run.

For each graph family, budget (fraction of the baseline peak) and solver it
prints the cost, the extra-cost ratio (cost - baseline) / (optimal - baseline)
where `ilp` proved optimality within its class (ratio 1.0 = as good as the
ILP; below 1.0 = better than the ILP's class allows; marked * and taken
against the best cost any solver found where nothing is proven), the peak and
the solve time, then checks the acceptance targets. On chain, transformer
and U-Net graphs, a case without a proven optimum, or where `ilp` finds no
plan but another solver does, is a miss; a budget no solver meets, and a
random DAG's budget without a proven optimum, are listed as not counted.
Targets:
  auto   extra <= 1.05 x optimal extra + 0.1% of baseline cost
  greedy extra <= 1.5  x optimal extra + 0.5% of baseline cost
  ilp    proves optimality on chain/transformer/unet graphs <= 200 nodes
         within 60 s (where its class is feasible)
  greedy/auto plan a 10,000-node random layered graph in <= 1 s

Usage: run_benchmarks.py --ckpt-plan build/bin/ckpt-plan [--time-limit 60]
Python 3 standard library only.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = os.path.join(HERE, "gen_graphs.py")

FAMILIES = [
    ("chain", 100),       # 200 nodes
    ("transformer", 8),   # 195 nodes
    ("unet", 6),          # 115 nodes
    ("random", 100),      # 97 nodes
]
BUDGETS = [0.5, 0.6, 0.7, 0.8, 0.9]


def generate(family, size, path, seed=0):
    subprocess.run([sys.executable, GENERATOR, family, str(size), "--seed",
                    str(seed), "-o", path], check=True)


def plan(tool, graph, budget, solver, time_limit):
    start = time.monotonic()
    proc = subprocess.run([tool, f"--graph={graph}", f"--budget={budget}",
                           f"--solver={solver}", f"--time-limit={time_limit}"],
                          capture_output=True, text=True)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1], "wall_s": wall}
    result = json.loads(proc.stdout)
    result["wall_s"] = wall
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ckpt-plan", required=True)
    parser.add_argument("--time-limit", type=float, default=60)
    args = parser.parse_args()
    tool = os.path.abspath(args.ckpt_plan)
    failures = []
    not_counted = []
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'family':<12}{'nodes':>6}{'budget':>7}  {'solver':<16}"
              f"{'cost':>10}{'extra/opt':>10}{'peak/base':>10}{'gap':>8}{'time_s':>9}")
        for family, size in FAMILIES:
            graph = os.path.join(tmp, f"{family}{size}.json")
            generate(family, size, graph)
            solvers = ["ilp", "auto", "greedy", "uniform:4"]
            if family == "chain":
                solvers.insert(1, "chain-dp")
            for budget in BUDGETS:
                results = {s: plan(tool, graph, budget, s, args.time_limit)
                           for s in solvers}
                ilp = results["ilp"]
                planned = [r for r in results.values() if "error" not in r]
                if not planned:
                    # Nobody met the budget: below the smallest feasible peak
                    # any solver found, so no target applies.
                    not_counted.append(f"{family} at {budget}: "
                                       f"{ilp['error'][:110]}")
                proven = "error" not in ilp and ilp.get("gap") == 0
                best_known = min((r["cost"] for r in planned), default=None)
                if planned and family != "random" and \
                        planned[0]["num_nodes"] <= 200:
                    if "error" in ilp:
                        failures.append(f"ilp found no plan on {family} at "
                                        f"{budget} although another solver "
                                        f"did")
                    elif not proven or ilp["solve_time_s"] > 60:
                        failures.append(
                            f"ilp did not prove optimality on {family} at "
                            f"{budget} within 60 s (gap "
                            f"{ilp.get('gap')})")
                if planned and not proven:
                    # The auto/greedy targets apply where the ILP proves
                    # optimality; on the proof targets above an unproven
                    # case is already a miss, on random DAGs it is listed.
                    not_counted.append(f"{family} at {budget}: auto/greedy "
                                       f"targets unverified, no proven "
                                       f"optimum (ilp gap "
                                       f"{ilp.get('gap')})")
                for name in ("auto", "greedy"):
                    if proven and "error" in results[name]:
                        failures.append(f"{name} found no plan on {family} "
                                        f"at {budget}; ilp did")
                for solver, r in results.items():
                    if "error" in r:
                        print(f"{family:<12}{'':>6}{budget:>7}  {solver:<16}"
                              f"  {r['error'][:90]}")
                        continue
                    base = r["baseline_cost"]
                    extra = r["cost"] - base
                    ratio = ""
                    reference = ilp["cost"] if proven else best_known
                    ref_extra = reference - base
                    ratio = ("%.3f" % (extra / ref_extra)) if ref_extra > 0 \
                        else ("1.000" if extra == 0 else "inf")
                    if not proven:
                        ratio += "*"
                    if proven:
                        for name, factor, slack in (("auto", 1.05, 0.001),
                                                    ("greedy", 1.5, 0.005)):
                            if solver == name and \
                                    extra > factor * ref_extra + slack * base:
                                failures.append(
                                    f"{name} on {family} at {budget}: extra "
                                    f"{extra} > {factor} x {ref_extra} + "
                                    f"{slack:.1%} of {base}")
                    gap = r.get("gap")
                    print(f"{family:<12}{r['num_nodes']:>6}{budget:>7}  "
                          f"{r['solver']:<16}{r['cost']:>10}{ratio:>10}"
                          f"{r['peak_bytes'] / r['baseline_peak_bytes']:>10.3f}"
                          f"{'' if gap is None else '%.4f' % gap:>8}"
                          f"{r['solve_time_s']:>9.3f}")
        graph = os.path.join(tmp, "random10000.json")
        generate("random", 10000, graph)
        for solver in ("greedy", "auto"):
            for budget in (0.5, 0.7, 0.9):
                r = plan(tool, graph, budget, solver, args.time_limit)
                if "error" in r:
                    print(f"random-10k   {budget:>7}  {solver:<8} {r['error']}")
                    failures.append(f"{solver} failed on random-10k at {budget}")
                    continue
                print(f"{'random-10k':<12}{r['num_nodes']:>6}{budget:>7}  "
                      f"{r['solver']:<16}{r['cost']:>10}{'':>10}"
                      f"{r['peak_bytes'] / r['baseline_peak_bytes']:>10.3f}"
                      f"{'':>8}{r['solve_time_s']:>9.3f}  (process wall "
                      f"{r['wall_s']:.3f} s)")
                if r["solve_time_s"] > 1.0:
                    failures.append(f"{solver} took {r['solve_time_s']:.2f} s "
                                    f"on random-10k at {budget}")
    print()
    print("* ratio against the best cost any solver found (no proven optimum)")
    if not_counted:
        print("budgets not counted:")
        for f in not_counted:
            print("  " + f)
    if failures:
        print("targets missed:")
        for f in failures:
            print("  " + f)
        return 1
    print("all targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
