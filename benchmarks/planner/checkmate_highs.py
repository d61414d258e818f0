#!/usr/bin/env python3
"""An independent Checkmate MILP (Jain et al., MLSys 2020) on ckpt's planner
memory model, solved with HiGHS, to check ckpt-plan's `auto` against.

It shares no code with ckpt's planner: the graph is read from ckpt-plan's
JSON (networkx node-link: `cost_cpu`, `cost_ram`, `recomputable`,
`policy`, `constant_bytes`), the model is written from the rules of
lib/Planner/Schedule.cpp's validator, and every schedule HiGHS returns is
replayed by this file's own simulator (`simulate`) before its cost counts.

The memory model (ckpt's): the constant bytes are always resident; a
computation needs its inputs resident, makes its output resident, and the
peak is taken right after it (inputs and output alive); a value is freed
after its last reader of the copy it reads; outputs (nodes nobody reads)
are resident at the end; a node that is not recomputable (or must_save)
is computed once.

The MILP (Checkmate's, over every schedule whose first computations are in
program order, with any number of recomputations, at most one per node and
stage, in index order): stage t computes node t for the first time.
  R[t,i] in {0,1}, i <= t: node i is computed in stage t (R[t,t] = 1);
  S[t,i] in {0,1}, i < t: i is resident when stage t starts;
  S[t+1,i] <= S[t,i] + R[t,i];  S[n,i] = 1 exactly for the outputs;
  R[t,j] <= R[t,i] + S[t,i] for every edge i -> j;
  F[t,i,k] in {0,1}, k in {i} + readers of i, k <= t: i is freed right
  after k is computed in stage t; F <= R[t,k], F <= 1 - S[t+1,i],
  F <= 1 - R[t,j] for every reader j > k of i (Checkmate's FREE, its
  product bounded above factor by factor: a free the solver leaves out
  only overstates memory);
  U[t,k] = constant + sum_i S[t,i] b_i + sum_{j<=k} R[t,j] b_j
           - sum_{j<k} sum_i F[t,i,j] b_i <= budget, for every k <= t;
  minimize sum_t sum_i R[t,i] c_i.

    PYTHONPATH=python python3 benchmarks/planner/checkmate_highs.py GRAPH.json \\
        --budgets 0.5,0.6,0.7,0.8,0.9 [--time-limit 600] [--auto-time-limit 60]

prints per budget the MILP's extra cost (proven or with its gap) and
`ckpt-plan --solver=auto`'s, and whether auto meets the planner issue's
target: extra(auto) <= 1.01 x extra(optimum) + 0.0005 x baseline cost
(`ok`, else `miss`; also `miss` when auto finds no schedule where HiGHS
found one, proven or not, and `?` when auto finds one where HiGHS proves
there is none). Exits 1 on a miss. Needs `highspy` (scripts/setup-deps.sh installs it).
"""

import argparse
import heapq
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Graph:
    """A planner problem: nodes in a stable topological order of their ids."""

    def __init__(self, data):
        nodes = sorted(data["nodes"], key=lambda node: node["id"])
        index = {node["id"]: position for position, node in enumerate(nodes)}
        preds = [[] for _ in nodes]
        for link in data.get("links", data.get("edges", [])):
            source, target = index[link["source"]], index[link["target"]]
            if source not in preds[target]:
                preds[target].append(source)
        # Kahn's algorithm, earliest id first (as RematProblem::create).
        indegree = [len(p) for p in preds]
        succs = [[] for _ in nodes]
        for v, p in enumerate(preds):
            for u in p:
                succs[u].append(v)
        ready = [v for v in range(len(nodes)) if indegree[v] == 0]
        heapq.heapify(ready)
        order = []
        while ready:
            v = heapq.heappop(ready)
            order.append(v)
            for w in succs[v]:
                indegree[w] -= 1
                if indegree[w] == 0:
                    heapq.heappush(ready, w)
        if len(order) != len(nodes):
            raise ValueError("the graph has a cycle")
        position = {v: i for i, v in enumerate(order)}
        self.n = len(nodes)
        self.bytes = [int(nodes[v]["cost_ram"]) for v in order]
        self.cost = [int(nodes[v]["cost_cpu"]) for v in order]
        self.once = [not nodes[v].get("recomputable", True)
                     or nodes[v].get("policy", "default") == "must_save" for v in order]
        self.must_recompute = any(node.get("policy") == "must_recompute" for node in nodes)
        self.preds = [sorted(position[u] for u in preds[v]) for v in order]
        self.succs = [[] for _ in range(self.n)]
        for v in range(self.n):
            for u in self.preds[v]:
                self.succs[u].append(v)
        self.sink = [not s for s in self.succs]
        # At the top level (ckpt-remat's graphs) or in networkx's "graph".
        self.constant = int(data.get("constant_bytes",
                                     data.get("graph", {}).get("constant_bytes", 0)))

    def baseline_cost(self):
        return sum(self.cost)


def simulate(graph, sequence):
    """Replays a compute sequence in ckpt's model (each copy freed after the
    last computation that reads it; the final copies of outputs kept):
    returns (peak bytes, cost). Raises ValueError on an invalid sequence."""
    n = len(sequence)
    last_use = list(range(n))
    current = [None] * graph.n
    final = [None] * graph.n
    for position, v in enumerate(sequence):
        for u in graph.preds[v]:
            if current[u] is None:
                raise ValueError(f"node {v} computed before its input {u}")
            last_use[current[u]] = position
        current[v] = position
        final[v] = position
    if any(f is None for f in final):
        raise ValueError("a node is never computed")
    freed_after = [[] for _ in range(n)]
    for position, v in enumerate(sequence):
        if graph.sink[v] and final[v] == position:
            continue
        freed_after[last_use[position]].append(v)
    resident = [False] * graph.n
    count = [0] * graph.n
    memory = peak = graph.constant
    cost = 0
    for position, v in enumerate(sequence):
        if resident[v]:
            raise ValueError(f"node {v} computed while resident")
        if count[v] and graph.once[v]:
            raise ValueError(f"node {v} may not be recomputed")
        for u in graph.preds[v]:
            if not resident[u]:
                raise ValueError(f"node {v} needs non-resident {u}")
        count[v] += 1
        resident[v] = True
        memory += graph.bytes[v]
        peak = max(peak, memory)
        cost += graph.cost[v]
        for u in freed_after[position]:
            resident[u] = False
            memory -= graph.bytes[u]
    return peak, cost


def baseline_peak(graph):
    return simulate(graph, list(range(graph.n)))[0]


def solve(graph, budget, time_limit):
    """The Checkmate MILP at `budget` bytes: dict(status, cost, bound,
    sequence, seconds); cost and sequence from the best schedule HiGHS found
    (checked by `simulate`), bound its lower bound on the cost."""
    import highspy
    import numpy as np

    n = graph.n
    # HiGHS prints a banner when constructed, before output_flag applies.
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        try:
            h = highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", float(time_limit))
    h.setOptionValue("threads", 1)
    inf = highspy.kHighsInf

    columns = {"cost": [], "lower": [], "upper": []}

    def column(cost, lower=0.0, upper=1.0):
        columns["cost"].append(float(cost))
        columns["lower"].append(float(lower))
        columns["upper"].append(float(upper))
        return len(columns["cost"]) - 1

    R, S, F = {}, {}, {}
    for t in range(n):
        for i in range(t + 1):
            fixed = 1.0 if i == t else 0.0
            upper = 0.0 if (graph.once[i] and i != t) else 1.0
            R[t, i] = column(graph.cost[i], fixed, max(fixed, upper))
        for i in range(t):
            S[t, i] = column(0.0)
    # S[n, i]: resident at the end (outputs only).
    for i in range(n):
        value = 1.0 if graph.sink[i] else 0.0
        S[n, i] = column(0.0, value, value)
    for t in range(n):
        for i in range(t + 1):
            for k in [i] + [j for j in graph.succs[i] if j <= t]:
                F[t, i, k] = column(0.0)

    rows = []  # (lower, upper, [(column, coefficient)])

    def row(terms, lower=-inf, upper=inf):
        rows.append((lower, upper, terms))

    # S[t+1, i] exists for every i <= t (S[n, i] for the last stage).
    for t in range(n):
        for i in range(t + 1):
            # S[t+1,i] <= S[t,i] + R[t,i]
            terms = [(S[t + 1, i], 1.0), (R[t, i], -1.0)]
            if (t, i) in S:
                terms.append((S[t, i], -1.0))
            row(terms, upper=0.0)
        for j in range(t + 1):
            for i in graph.preds[j]:
                # R[t,j] <= R[t,i] + S[t,i]
                terms = [(R[t, j], 1.0), (R[t, i], -1.0)]
                if (t, i) in S:
                    terms.append((S[t, i], -1.0))
                row(terms, upper=0.0)
        for i in range(t + 1):
            readers = [j for j in graph.succs[i] if j <= t]
            for k in [i] + readers:
                f = F[t, i, k]
                row([(f, 1.0), (R[t, k], -1.0)], upper=0.0)
                row([(f, 1.0), (S[t + 1, i], 1.0)], upper=1.0)
                for j in readers:
                    if j > k:
                        row([(f, 1.0), (R[t, j], 1.0)], upper=1.0)
            # Freed at most once per stage.
            row([(F[t, i, k], 1.0) for k in [i] + readers], upper=1.0)
        # Memory after each computation of the stage.
        carried = [(S[t, i], float(graph.bytes[i])) for i in range(t)]
        computed, freed = [], []
        for k in range(t + 1):
            computed.append((R[t, k], float(graph.bytes[k])))
            terms = carried + computed + freed
            row(terms, upper=float(budget - graph.constant))
            for i in range(k + 1):
                if (t, i, k) in F:
                    freed.append((F[t, i, k], -float(graph.bytes[i])))

    lp = highspy.HighsLp()
    lp.num_col_ = len(columns["cost"])
    lp.num_row_ = len(rows)
    lp.col_cost_ = np.array(columns["cost"])
    lp.col_lower_ = np.array(columns["lower"])
    lp.col_upper_ = np.array(columns["upper"])
    lp.row_lower_ = np.array([r[0] for r in rows])
    lp.row_upper_ = np.array([r[1] for r in rows])
    starts, indices, values = [0], [], []
    for _, _, terms in rows:
        for c, a in terms:
            indices.append(c)
            values.append(a)
        starts.append(len(indices))
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(indices, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(values)
    lp.integrality_ = [highspy.HighsVarType.kInteger] * lp.num_col_
    h.passModel(lp)
    start = time.perf_counter()
    h.run()
    seconds = time.perf_counter() - start
    status = h.getModelStatus()
    info = h.getInfo()
    result = dict(seconds=seconds, status=h.modelStatusToString(status),
                  bound=info.mip_dual_bound, cost=None, sequence=None)
    if status == highspy.HighsModelStatus.kInfeasible:
        result["status"] = "infeasible"
        return result
    if info.primal_solution_status != 2:  # no feasible solution found
        return result
    x = h.getSolution().col_value
    sequence = [i for t in range(n) for i in range(t + 1) if x[R[t, i]] > 0.5]
    peak, cost = simulate(graph, sequence)
    if peak > budget:
        raise AssertionError(f"the MILP's schedule peaks at {peak} B over {budget} B")
    result.update(cost=cost, sequence=sequence, peak=peak)
    result["optimal"] = status == highspy.HighsModelStatus.kOptimal
    return result


def plan_auto(graph_path, budget, time_limit, build):
    tool = os.path.join(build, "bin", "ckpt-plan")
    start = time.perf_counter()
    r = subprocess.run([tool, f"--graph={graph_path}", f"--budget={budget}", "--solver=auto",
                        f"--time-limit={time_limit}", "--format=json"],
                       capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if r.returncode:
        return dict(feasible=False, seconds=seconds, error=r.stderr.strip().splitlines()[0])
    result = json.loads(r.stdout)
    result["seconds"] = seconds
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graphs", nargs="+")
    parser.add_argument("--budgets", default="0.5,0.6,0.7,0.8,0.9")
    parser.add_argument("--time-limit", type=float, default=600.0, help="HiGHS, seconds")
    parser.add_argument("--auto-time-limit", type=float, default=60.0)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = parser.parse_args()
    print(f"{'graph':28} {'nodes':>5} {'budget':>6} {'milp extra':>11} {'milp':>10} "
          f"{'milp s':>7} {'auto extra':>11} {'auto s':>7} {'auto/opt':>8} {'target':>6}")
    misses = 0
    for path in args.graphs:
        with open(path) as f:
            graph = Graph(json.load(f))
        name = os.path.basename(path)
        if graph.must_recompute:
            print(f"{name:28} skipped: must_recompute policies (not modelled here)")
            continue
        baseline = baseline_peak(graph)
        base_cost = graph.baseline_cost()
        for fraction in args.budgets.split(","):
            budget = int(float(fraction) * baseline)
            milp = solve(graph, budget, args.time_limit)
            auto = plan_auto(path, budget, args.auto_time_limit, args.build)
            if milp["cost"] is None:
                milp_text, extra_opt = milp["status"], None
            else:
                extra_opt = milp["cost"] - base_cost
                milp_text = "optimal" if milp["optimal"] else \
                    f"gap {(milp['cost'] - milp['bound']) / max(milp['cost'], 1):.1%}"
            if auto.get("feasible"):
                extra_auto = auto["cost"] - base_cost
                auto_text = f"{extra_auto:11d}"
            else:
                extra_auto, auto_text = None, f"{'none':>11}"
            ratio, verdict = "", ""
            if extra_opt is not None and milp["optimal"]:
                if extra_auto is None:
                    verdict = "miss"
                else:
                    ratio = f"{extra_auto / extra_opt:.3f}" if extra_opt else "-"
                    verdict = "ok" if extra_auto <= 1.01 * extra_opt + 0.0005 * base_cost \
                        else "miss"
            elif milp["status"] == "infeasible":
                verdict = "ok" if extra_auto is None else "?"
            elif extra_opt is not None and extra_auto is None:
                verdict = "miss"  # a schedule exists; auto called it infeasible
            misses += verdict == "miss"
            extra_opt_text = f"{extra_opt:11d}" if extra_opt is not None else f"{'-':>11}"
            print(f"{name:28} {graph.n:5d} {fraction:>6} {extra_opt_text} {milp_text:>10} "
                  f"{milp['seconds']:7.1f} {auto_text} {auto['seconds']:7.1f} {ratio:>8} "
                  f"{verdict:>6}", flush=True)
    print(f"misses: {misses}")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
