"""ckpt's compiler from Python, over the C API (the `ckpt._ckpt` extension).

    text, report = remat(module_text, budget="0.5", solver="greedy")
    result = plan({"nodes": [...], "links": [...]}, budget="70%")

Failures raise CkptError (a RuntimeError) whose message holds the
diagnostics (`<input>:line:col: error: ...`).
"""

import json
import os

try:
    from . import _ckpt
except ImportError as error:  # pragma: no cover - depends on the build
    raise ImportError(
        "ckpt's native extension (ckpt._ckpt) is not built: build the project "
        "(bash scripts/build.sh; it needs nanobind: pip install nanobind) or "
        "set CKPT_BUILD_DIR to a build directory that has python/ckpt/_ckpt*.so"
    ) from error

CkptError = _ckpt.CkptError


def _option(key, value):
    text = str(value)
    if not text or any(c.isspace() for c in text) or "{" in text or "}" in text:
        raise ValueError(f"{key}: {text!r} is not a valid option value")
    return f"{key}={text}"


def remat(module, budget, solver="auto", policy=None, target=None, time_limit=None):
    """Rematerializes MLIR text (linalg on tensors, e.g. a training step from
    ckpt-autodiff) to `budget` (`0.5`, `50%`, `512MiB`, `min`, `auto`).

    Returns (rematerialized module text, report dict): per function the
    budget, baseline and estimated peak bytes, the recomputations and the
    saved residuals (see docs/UserGuide.md)."""
    options = [_option("budget", budget), _option("solver", solver)]
    if policy:
        options.append(_option("policy", policy))
    if target:
        options.append(_option("target", target))
    if time_limit is not None:
        options.append(_option("time-limit", float(time_limit)))
    text, report = _ckpt.remat_text(module, " ".join(options))
    return text, json.loads(report)


def plan(graph, budget, solver="auto", time_limit=10.0):
    """Plans a remat problem: `graph` is a ckpt-plan graph (networkx
    node-link JSON) as a dict, a JSON string or a file path. Returns
    ckpt-plan's result as a dict (feasible, peak_bytes, cost, overhead,
    schedule, ...)."""
    if isinstance(graph, dict):
        text = json.dumps(graph)
    elif isinstance(graph, str) and not graph.lstrip().startswith("{") and os.path.exists(graph):
        with open(graph) as f:
            text = f.read()
    else:
        text = str(graph)
    return json.loads(_ckpt.plan_graph(text, str(budget), str(solver), float(time_limit)))
