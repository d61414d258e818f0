"""Differential tester of ckpt-remat on the generator's random programs.

For program i (seed S * 1000 + i) and every solver: the program is
differentiated (`ckpt-opt --ckpt-autodiff`, giving `@loss_grad`); the
baseline peak and the smallest peak the solver finds come from
`ckpt-opt --ckpt-tensor-prep --ckpt-remat="budget=min ..." report=-`; K
budgets strictly below the baseline are chosen (the minimum itself, in
bytes, and byte counts uniform in [minimum, baseline)); and one
`ckpt-run --compare` runs the step without remat and at every budget.

A case (program, solver, budget) passes when the outputs are bit-identical
and the measured peak is within the budget. Otherwise it is a mismatch, a
budget violation, a failure (the budget does not compile, ckpt-run
crashes, or a planner schedule on the way could not be applied to the IR:
the planner's model and the IR disagree, `unappliable_plans` in the remat
report) or infeasible: ckpt-remat calls the budget infeasible although it
is at or above the minimum that budget=min found. budget=min itself may
fail that way ("infeasible at budget=min"); the budgets above the smallest
peak its error states are then tested. Infeasible budgets fail the run
unless --allow-infeasible.

Budgets come from a random.Random seeded from (S, i, solver), so a run is
reproducible from its seed (up to the ILP's time limit, which `auto`
obeys).

With --save-failures DIR, every failing program is minimized (ops replaced
by arguments while the same kind of failure persists) and written to DIR as
a lit test marked XFAIL: the differentiated module with RUN lines that
reproduce the failure.
"""

import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from . import generator

TOOLS = ("ckpt-opt", "ckpt-run")
DEFAULT_SOLVERS = "greedy,auto,greedy-peak"
RETRY_SECONDS = 30
# The kind ckpt-remat's report gives a budget no schedule found meets.
INFEASIBLE_BUDGET = "infeasible-budget"


class RematFailure(str):
    """A failure's error lines, with what ckpt-remat's report says of it:
    `kind` (the `error` object's kind, e.g. infeasible-budget; None when the
    report has none) and its smallest peak and baseline bytes."""

    def __new__(cls, text, kind=None, smallest=None, baseline=None):
        failure = super().__new__(cls, text)
        failure.kind, failure.smallest, failure.baseline = kind, smallest, baseline
        return failure


def _failure(r):
    """The RematFailure of a failed `ckpt-opt ... report=-` run: its error
    lines, and the error object of the report it wrote to stdout."""
    text = _first_lines(r.stderr) or f"exit status {r.returncode}"
    try:
        report = json.loads(r.stdout[r.stdout.index("{"):])
        for f in report["functions"]:
            if "error" in f:
                return RematFailure(text, f["error"]["kind"], int(f["error"]["smallest_peak_bytes"]),
                                    int(f["baseline_peak_bytes"]))
    except (ValueError, KeyError, IndexError, TypeError):
        pass
    return RematFailure(text)
RETRIES = 10


def find_tools(build=None, explicit=None):
    """Paths of ckpt-opt and ckpt-run: given explicitly, else in --build
    (its bin/ or the folder itself), else on PATH, else in the source
    tree's build/bin."""
    explicit = explicit or {}
    here = os.path.dirname(os.path.abspath(__file__))
    default_bin = os.path.normpath(os.path.join(here, "..", "..", "..", "build", "bin"))
    found = {}
    for tool in TOOLS:
        path = explicit.get(tool)
        if not path and build:
            for d in (os.path.join(build, "bin"), build):
                if os.path.exists(os.path.join(d, tool)):
                    path = os.path.join(d, tool)
                    break
            if not path:
                sys.exit(f"difftest: no {tool} in {build} or {build}/bin")
        if not path:
            path = shutil.which(tool)
        if not path and os.path.exists(os.path.join(default_bin, tool)):
            path = os.path.join(default_bin, tool)
        if not path:
            sys.exit(f"difftest: cannot find {tool}: pass --build DIR or put it on PATH")
        found[tool] = path
    return found


# seconds spent in each tool (for --verbose), from every worker thread
TOOL_SECONDS = {}
_TOOL_SECONDS_LOCK = threading.Lock()


def run(cmd, **kwargs):
    """subprocess.run, waiting for a tool that is being relinked (it cannot be
    executed for a moment) instead of failing."""
    for attempt in range(RETRIES + 1):
        try:
            start = time.monotonic()
            result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
            key = os.path.basename(cmd[0]) + (" --compare" if "--compare" in cmd else "")
            with _TOOL_SECONDS_LOCK:
                TOOL_SECONDS[key] = TOOL_SECONDS.get(key, 0.0) + time.monotonic() - start
            return result
        except OSError as error:
            if attempt == RETRIES:
                raise
            print(f"difftest: cannot run {cmd[0]} ({error}); retrying in {RETRY_SECONDS} s",
                  file=sys.stderr, flush=True)
            time.sleep(RETRY_SECONDS)


class Tester:
    def __init__(self, tools, time_limit, work, verbose=False, opt_level=0):
        self.opt = tools["ckpt-opt"]
        self.run = tools["ckpt-run"]
        self.time_limit = time_limit
        self.opt_level = opt_level
        self.work = work
        self.verbose = verbose

    def log(self, message):
        if self.verbose:
            print(message, file=sys.stderr, flush=True)

    # -- steps ----------------------------------------------------------------

    def differentiate(self, program, path):
        """Writes @loss_grad of `program` to `path`; None or the error."""
        r = run([self.opt, "--ckpt-autodiff", "-o", path], input=program.mlir())
        return None if r.returncode == 0 else (_first_lines(r.stderr) or f"exit status {r.returncode}")

    def remat_options(self, solver, budget):
        opts = f"budget={budget} solver={solver} functions=loss_grad"
        if self.time_limit is not None:
            opts += f" time-limit={self.time_limit}"
        return opts

    def minimum(self, path, solver):
        """(baseline peak, smallest peak) of the solver, or the error text."""
        r = run([self.opt, path, "--ckpt-tensor-prep",
                 f"--ckpt-remat={self.remat_options(solver, 'min')} report=-",
                 "-o", os.devnull])
        if r.returncode:
            return _failure(r)
        try:
            report = json.loads(r.stdout[r.stdout.index("{"):])
            f = report["functions"][0]
            return int(f["baseline_peak_bytes"]), int(f["peak_bytes"])
        except (ValueError, KeyError, IndexError) as error:
            return f"unreadable remat report ({error}): {r.stdout[:500]}"

    def run_command(self, path, solver, budgets):
        cmd = [self.run, path, "--entry=loss_grad", "--iterations=1", "--compare",
               f"--opt-level={self.opt_level}", f"--remat-solver={solver}",
               "--remat-budget=" + ",".join(str(b) for b in budgets)]
        if self.time_limit is not None:
            cmd.append(f"--remat-time-limit={self.time_limit}")
        return cmd

    def compare(self, path, solver, budgets):
        """One ckpt-run --compare over all budgets: ({budget: result}, the
        process), each result a dict with `status` (pass, mismatch,
        violation, unappliable: the result passed but a planner schedule on
        the way could not be applied to the IR, infeasible: ckpt-remat
        called the budget (at or above the solver's own minimum) infeasible,
        failed: another compile failure, crash: no result) and
        `recompute_count`."""
        r = run(self.run_command(path, solver, budgets))
        results = {}
        current = None
        for line in r.stdout.splitlines():
            m = re.match(r"remat: budget=(\S+) failed$", line)
            if m:
                results[m.group(1)] = dict(status="failed", recompute_count=0, line=line)
                current = None
                continue
            m = re.match(r"remat: budget=(\S+) .*recompute_count=(\d+)", line)
            if m:
                current = m.group(1)
                unappliable = re.search(r"unappliable_plans=(\d+)", line)
                results[current] = dict(status="crash", recompute_count=int(m.group(2)),
                                        unappliable=int(unappliable.group(1)) if unappliable
                                        else 0, line=line)
                continue
            m = re.match(r"peak_ratio=.*outputs_identical=(\w+) within_budget=(\w+)", line)
            if m and current is not None:
                res = results[current]
                res["line"] += "\n" + line
                if m.group(1) != "yes":
                    res["status"] = "mismatch"
                elif m.group(2) != "yes":
                    res["status"] = "violation"
                elif res["unappliable"]:
                    res["status"] = "unappliable"
                else:
                    res["status"] = "pass"
                current = None
        out = {}
        for b in budgets:
            res = results.get(str(b), dict(status="crash", recompute_count=0, line=""))
            errors = [l.strip() for l in r.stderr.splitlines()
                      if f"budget of {b} bytes" in l or f"at budget {b}," in l]
            if res["status"] == "failed":
                # ckpt-run's stderr does not say which budget an error is
                # for: ckpt-remat alone at this budget does
                e = run([self.opt, path, "--ckpt-tensor-prep",
                         f"--ckpt-remat={self.remat_options(solver, b)} report=-",
                         "-o", os.devnull])
                if e.returncode:
                    errors = [_first_lines(e.stderr, 2)]
                    if _failure(e).kind == INFEASIBLE_BUDGET:
                        res["status"] = "infeasible"
            res["errors"] = errors
            out[b] = res
        # every budget passed but a non-zero exit (or a signal): a crash
        if r.returncode and all(v["status"] == "pass" for v in out.values()):
            for v in out.values():
                v["status"] = "crash"
        for v in out.values():
            if v["status"] == "crash":
                v["errors"] = v["errors"] + [_first_lines(r.stderr) or
                                             f"exit status {r.returncode}"]
        return out, r

    # -- one failure, minimized ------------------------------------------------

    def reproduces(self, program, solver, budget, status, position=None):
        """Whether `program` still fails the same way at `budget` (bytes, or
        'min': the solver's own minimum), or at the budget at the same
        `position` (0 to 1) between its minimum and baseline: (budget,
        minimum) or None. The budget must be below the baseline and at or
        above the minimum the solver reports for budget=min."""
        path = os.path.join(self.work, "minimize.mlir")
        if self.differentiate(program, path):
            return None
        mins = self.minimum(path, solver)
        if status in ("min-infeasible", "min-failed"):
            if isinstance(mins, tuple) or min_status(mins) != status:
                return None
            return "min", None, None, dict(line="", errors=[mins]), False
        min_ok = isinstance(mins, tuple)
        mins = bounds(mins)
        if mins is None or mins[1] >= mins[0]:
            return None
        baseline, minimum = mins
        if budget == "min":
            budgets = [minimum]
        else:
            budgets = [budget]
            if position is not None:
                budgets.append(minimum + int(position * (baseline - minimum)))
            budgets = sorted({b for b in budgets if minimum <= b < baseline})
        if not budgets:
            return None
        results, _ = self.compare(path, solver, budgets)
        for b in budgets:
            if results[b]["status"] == status:
                return b, minimum, baseline, results[b], min_ok
        return None

    def minimize(self, program, solver, budget, status, position=None):
        """Drops ops (each replaced by an argument) while the failure
        persists: (smallest program, its budget or 'min')."""
        changed = True
        while changed:
            changed = False
            for index in reversed(range(len(program.nodes))):
                if program.nodes[index].op == "arg":
                    continue
                candidate = program.drop(index)
                if candidate.op_count() == 0:
                    continue
                found = self.reproduces(candidate, solver, budget, status, position)
                if found is not None:
                    self.log(f"difftest: minimize: dropped #{index}, "
                             f"{candidate.op_count()} ops left")
                    program = candidate
                    if budget != "min":
                        budget = found[0]
                    changed = True
                    break
        return program, budget

    def save_failure(self, directory, program, solver, budget, status, is_min, position,
                     origin):
        """Minimizes the failure and writes it to `directory` as a lit test
        (XFAIL: it fails today); returns its path."""
        start = "min" if is_min else budget
        small, small_budget = self.minimize(program, solver, start, status, position)
        found = self.reproduces(small, solver, small_budget, status)
        if found is None and small is not program:   # the tools changed meanwhile?
            small, small_budget = program, start
            found = self.reproduces(small, solver, start, status)
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, f"seed{program.seed}-{solver}-{status}.mlir")
        self.differentiate(small, path)
        with open(path) as f:
            body = f.read()
        timed = solver.startswith(("auto", "ilp"))
        limit = f" --remat-time-limit={self.time_limit}" if timed and self.time_limit else ""
        opt_limit = f" time-limit={self.time_limit}" if timed and self.time_limit else ""
        at_min = status in ("min-infeasible", "min-failed")

        def quote(text):
            return ["//   " + re.sub(r'^\S+:\d+:\d+: |loc\("[^"]*":\d+:\d+\): ', "",
                                     part.strip())
                    for part in text.strip().splitlines() if part.strip()]

        header = [f"// ckpt.difftest regression: ckpt-remat solver={solver}, {status}."]
        if found is None:
            header.append("// (The failure did not reproduce when it was saved.)")
        elif at_min:
            budget = "min"
            header.append("// budget=min fails (the solver does not meet the minimum it "
                          "found itself):")
            header += quote(found[3]["errors"][0])
        else:
            budget, minimum, baseline, result, min_ok = found
            what = {"mismatch": "the outputs with remat differ from those without",
                    "violation": "the measured peak exceeds the budget",
                    "infeasible": "the budget is called infeasible",
                    }.get(status, "the budget fails to compile")
            smallest = (f"smallest peak (budget=min) {minimum} B" if min_ok else
                        f"budget=min fails, stating a smallest peak of {minimum - 1} B")
            header.append(f"// Baseline peak {baseline} B, {smallest}; at budget {budget} B "
                          f"{what}:")
            for line in [result.get("line", "")] + result["errors"]:
                header += quote(line)
        header += [
            f"// Found by python3 -m ckpt.difftest {origin}; minimized from "
            f"{program.op_count()} to {small.op_count()} ops. The forward program:",
            f"//   python3 -m ckpt.difftest.generator {small.recipe}",
            "// It fails today: remove the XFAIL line once it passes.",
            "// XFAIL: *",
        ]
        min_run = (f"// RUN: ckpt-opt %s --ckpt-tensor-prep --ckpt-remat=\"budget=min "
                   f"solver={solver} functions=loss_grad{opt_limit} report=-\" -o /dev/null "
                   f"| FileCheck %s --check-prefix=MIN")
        if at_min:
            header += [min_run, "// MIN: \"peak_bytes\""]
        else:
            if status == "infeasible" and found is not None and found[4]:
                header += [min_run, f"// MIN: \"peak_bytes\": {found[1]},"]
            header += [
                f"// RUN: ckpt-run %s --entry=loss_grad --iterations=1 --compare "
                f"--opt-level={self.opt_level} --remat-solver={solver} "
                f"--remat-budget={budget}{limit} | FileCheck %s",
                "// CHECK: outputs_identical=yes within_budget=yes",
            ]
        with open(path, "w") as f:
            f.write("\n".join(header) + "\n\n" + body)
        return path


def bounds(mins):
    """(baseline, minimum) from Tester.minimum's answer; when budget=min
    failed, from its error (the smallest peak it states, plus one byte), or
    None."""
    if isinstance(mins, tuple):
        return mins
    if getattr(mins, "smallest", None) is None:
        return None
    return mins.baseline, mins.smallest + 1


def min_status(error):
    """The kind of failure of budget=min, from the report's error kind."""
    return "min-infeasible" if getattr(error, "kind", None) == INFEASIBLE_BUDGET else "min-failed"


def _first_lines(text, count=4):
    """The error lines of a tool's stderr, without the IR it dumps."""
    lines = [l for l in text.strip().splitlines() if "error" in l or "Assertion" in l]
    return "\n".join((lines or text.strip().splitlines())[:count])


def choose_budgets(rng, baseline, minimum, count):
    """The minimum and count - 1 byte counts uniform in [minimum, baseline),
    without repeats, in increasing order."""
    budgets = {minimum}
    span = baseline - minimum
    for _ in range(count - 1):
        if len(budgets) >= span:
            break
        while True:
            b = rng.randrange(minimum, baseline)
            if b not in budgets:
                budgets.add(b)
                break
    return sorted(budgets)


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="python3 -m ckpt.difftest",
        description="Differential test of ckpt-remat on seeded random programs.")
    p.add_argument("--programs", type=int, default=20, help="number of programs")
    p.add_argument("--seed", type=int, default=1, help="program i uses seed S*1000+i")
    p.add_argument("--only-program", type=int, metavar="I",
                   help="run program I only (as numbered in a run of this seed)")
    p.add_argument("--ops", default="10-40", metavar="MIN-MAX",
                   help="range of the number of ops per program (default 10-40)")
    p.add_argument("--solvers", default=DEFAULT_SOLVERS,
                   help=f"comma-separated ckpt-remat solvers (default {DEFAULT_SOLVERS})")
    p.add_argument("--budgets-per-program", type=int, default=3, metavar="K",
                   help="budgets per program and solver: the minimum and K-1 random ones")
    p.add_argument("--build", help="build directory (tools in DIR/bin) or tools directory")
    p.add_argument("--ckpt-opt", help="path of ckpt-opt (overrides --build)")
    p.add_argument("--ckpt-run", help="path of ckpt-run (overrides --build)")
    p.add_argument("--time-limit", type=float, default=1.0,
                   help="seconds the ILP may take per plan (ckpt-remat time-limit; default 1)")
    p.add_argument("--save-failures", metavar="DIR",
                   help="write each failing program, minimized, as a lit test here")
    p.add_argument("--min-share", type=float, default=80.0,
                   help="least percentage of cases with recomputation (default 80)")
    p.add_argument("--allow-infeasible", action="store_true",
                   help="do not fail on budgets in [minimum, baseline) that the solver "
                        "calls infeasible (they are still counted and reported)")
    p.add_argument("--generate-only", action="store_true",
                   help="only check that every program differentiates and runs, with "
                        "finite outputs")
    p.add_argument("--opt-level", type=int, default=0, choices=range(4),
                   help="ckpt-run's JIT optimization level (default 0: the checks are "
                        "of outputs and peaks, and the JIT at -O2 takes most of a "
                        "case's time)")
    p.add_argument("--jobs", type=int, default=1,
                   help="programs checked at once (default 1)")
    p.add_argument("--verbose", "-v", action="store_true", help="a line per program and solver")
    args = p.parse_args(argv)
    if args.budgets_per_program < 1:
        p.error("--budgets-per-program must be at least 1")
    if args.programs < 1:
        p.error("--programs must be at least 1")
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    if args.only_program is not None and not 0 <= args.only_program < args.programs:
        p.error("--only-program must be below --programs")
    m = re.fullmatch(r"(\d+)-(\d+)", args.ops)
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        p.error("--ops must be MIN-MAX with 1 <= MIN <= MAX")
    args.ops = (int(m.group(1)), int(m.group(2)))
    return args


def make_program(args, index):
    return generator.generate(program_seed(args.seed, index), min_ops=args.ops[0],
                              max_ops=args.ops[1])


def program_seed(seed, index):
    return seed * 1000 + index


def _finite(text):
    try:
        value = float(text)
    except ValueError:
        return False
    return value == value and abs(value) != float("inf")


def generate_only(args, tester):
    """Every program parses, differentiates and runs, with finite outputs."""
    failures = 0
    ops, sizes, kinds = [], [], set()
    for i in range(args.programs):
        program = make_program(args, i)
        ops.append(program.op_count())
        sizes += program.tensor_bytes()
        kinds.update(program.kinds())
        path = os.path.join(tester.work, f"program{i}.mlir")
        error = tester.differentiate(program, path)
        if error:
            failures += 1
            print(f"difftest: program {i} (seed {program.seed}): ckpt-autodiff failed:\n{error}")
            continue
        r = run([tester.run, path, "--entry=loss_grad", "--iterations=1"])
        sums = re.findall(r"^output #\d+ .* sum=(\S+)$", r.stdout, re.M)
        bad = [x for x in sums if not _finite(x)]
        if r.returncode or not sums or bad:
            failures += 1
            print(f"difftest: program {i} (seed {program.seed}): ckpt-run failed or "
                  f"non-finite outputs (exit {r.returncode}):\n{r.stdout}"
                  f"{_first_lines(r.stderr)}")
            continue
        tester.log(f"difftest: program {i} (seed {program.seed}): {program.op_count()} ops, "
                   f"{len(sums)} outputs, ok")
    print(f"difftest-generate: {args.programs} programs, {args.programs - failures} "
          f"differentiated and ran with finite outputs, {min(ops)}-{max(ops)} ops, "
          f"tensors up to {max(sizes)} B, op kinds {','.join(sorted(kinds))}, "
          f"seed {args.seed}")
    return 1 if failures else 0


def check_program(args, tester, i, solvers):
    """Program i with every solver: (counts, failing cases, output lines),
    the lines printed by the caller in program order."""
    counts = {}
    failing, lines = [], []

    def count(key):
        counts[key] = counts.get(key, 0) + 1

    program = make_program(args, i)
    path = os.path.join(tester.work, f"program{i}.mlir")
    error = tester.differentiate(program, path)
    if error:
        count("errors")
        lines.append(f"difftest: program {i} (seed {program.seed}): ckpt-autodiff failed:\n{error}")
        return counts, failing, lines
    for solver in solvers:
        mins = tester.minimum(path, solver)
        if not isinstance(mins, tuple):
            status = min_status(mins)
            count("min_infeasible" if status == "min-infeasible" else "failures")
            lines.append(f"difftest: program {i} (seed {program.seed}), solver {solver}: "
                         f"budget=min failed ({status}):\n  " + mins.replace("\n", "\n  "))
            failing.append((program, solver, "min", status, True, None,
                            f"--seed {args.seed} --ops {args.ops[0]}-{args.ops[1]} "
                            f"(program {i}, budget=min)"))
            # the error states the smallest peak found and the baseline:
            # the budgets above that peak are still tested
            if bounds(mins) is None:
                continue
        baseline, minimum = bounds(mins)
        if minimum >= baseline:
            count("skipped")
            tester.log(f"difftest: program {i} (seed {program.seed}), solver {solver}: "
                       f"no budget below the baseline {baseline}")
            continue
        # one seeded stream per program and solver: the same budgets with
        # --only-program, another list of solvers or another --jobs
        draws = random.Random(f"{args.seed}:{i}:{solver}")
        budgets = choose_budgets(draws, baseline, minimum, args.budgets_per_program)
        results, _ = tester.compare(path, solver, budgets)
        statuses = []
        for b in budgets:
            res = results[b]
            status = res["status"]
            count("cases")
            if res["recompute_count"] > 0 and status not in ("failed", "infeasible", "crash"):
                count("recomputed")
            statuses.append(f"{b}:{status}/{res['recompute_count']}")
            if status == "pass":
                continue
            count({"mismatch": "mismatches", "violation": "violations",
                   "infeasible": "infeasible"}.get(status, "failures"))
            detail = "\n".join([res.get("line", "")] + res["errors"]).strip()
            if status == "infeasible":
                detail = (f"budget=min with solver={solver} "
                          + (f"reports a peak of {minimum} B" if isinstance(mins, tuple)
                             else f"fails, stating a smallest peak of {minimum - 1} B")
                          + f" (baseline {baseline} B), but the budget {b} B fails:\n"
                          + detail)
            lines.append(f"difftest: program {i} (seed {program.seed}), solver {solver}, "
                         f"budget {b} (baseline {baseline}, minimum {minimum}): {status}\n"
                         f"  {' '.join(tester.run_command(path, solver, [b]))}\n"
                         f"  " + detail.replace("\n", "\n  "))
            origin = (f"--seed {args.seed} --ops {args.ops[0]}-{args.ops[1]} "
                      f"(program {i}, budget {b} B)")
            failing.append((program, solver, b, status, b == minimum,
                            (b - minimum) / (baseline - minimum), origin))
        tester.log(f"difftest: program {i} (seed {program.seed}, {program.op_count()} ops), "
                   f"{solver}: baseline {baseline}, minimum {minimum}: {' '.join(statuses)}")
    return counts, failing, lines


def difftest(args, tester):
    solvers = [x for x in args.solvers.split(",") if x]
    counts = dict(cases=0, mismatches=0, violations=0, failures=0, infeasible=0,
                  min_infeasible=0,
                  recomputed=0, skipped=0, errors=0)
    failing = []
    indices = [i for i in range(args.programs)
               if args.only_program is None or i == args.only_program]
    # Programs on --jobs threads (each waits on its own tool processes);
    # results merged and printed in program order, so the output does not
    # depend on the number of jobs.
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(check_program, args, tester, i, solvers) for i in indices]
        for future in futures:
            program_counts, program_failing, lines = future.result()
            for key, value in program_counts.items():
                counts[key] += value
            failing += program_failing
            for line in lines:
                print(line, flush=True)
    if args.save_failures:
        seen = set()
        for program, solver, budget, status, is_min, position, origin in failing:
            key = (program.seed, solver, status)
            if key in seen:
                continue
            seen.add(key)
            path = tester.save_failure(args.save_failures, program, solver, budget, status,
                                       is_min, position, origin)
            print(f"difftest: saved {path}", flush=True)
    cases = counts["cases"]
    share = 100.0 * counts["recomputed"] / cases if cases else 0.0
    programs = 1 if args.only_program is not None else args.programs
    extra = ""
    if counts["skipped"]:
        extra += (f", {counts['skipped']} program/solver pair(s) without a budget below "
                  "the baseline")
    if counts["errors"]:
        extra += f", {counts['errors']} program error(s)"
    print(f"difftest: {cases} cases ({programs} programs x {len(solvers)} solvers x "
          f"{args.budgets_per_program} budgets{extra}), {counts['mismatches']} mismatches, "
          f"{counts['violations']} budget violations, {counts['failures']} failures, "
          f"{counts['infeasible']} infeasible, {counts['min_infeasible']} infeasible at "
          f"budget=min, {share:.1f}% with recomputation, "
          f"seed {args.seed}", flush=True)
    bad = (counts["mismatches"] or counts["violations"] or counts["failures"]
           or counts["errors"] or cases == 0
           or ((counts["infeasible"] or counts["min_infeasible"])
               and not args.allow_infeasible)
           or (share < args.min_share and args.only_program is None))
    return 1 if bad else 0


def main(argv=None):
    args = parse_args(argv)
    tools = find_tools(args.build, {"ckpt-opt": args.ckpt_opt, "ckpt-run": args.ckpt_run})
    with tempfile.TemporaryDirectory(prefix="ckpt-difftest-") as work:
        tester = Tester(tools, args.time_limit, work, args.verbose, args.opt_level)
        status = generate_only(args, tester) if args.generate_only else difftest(args, tester)
        tester.log("difftest: seconds per tool: " + ", ".join(
            f"{k} {v:.1f}" for k, v in sorted(TOOL_SECONDS.items())))
        return status
