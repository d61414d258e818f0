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


def remat_options():
    """ckpt-remat's options: {python keyword: (key, kind, default,
    description)}, from the list the pass, the pipelines and the tools share
    (include/ckpt/Remat/RematOptions.def); a keyword is its key with `-`
    written `_` (`time_limit`)."""
    return {key.replace("-", "_"): (key, kind, default, description)
            for key, kind, default, description, _ in _ckpt.remat_options()}


def remat(module, budget, **options):
    """Rematerializes MLIR text (linalg on tensors, e.g. a training step from
    ckpt-autodiff) to `budget` (`0.5`, `50%`, `512MiB`, `min`, `auto`), with
    any other option of ckpt-remat as a keyword (`solver="greedy"`,
    `policy="save-matmuls"`, `target="cpu"`, `time_limit=5`, ...; see
    `remat_options()`); None leaves an option at its default.

    Returns (rematerialized module text, report dict): per function the
    budget, baseline and estimated peak bytes, the recomputations and the
    saved residuals (see docs/UserGuide.md)."""
    known = remat_options()
    words = [_option("budget", budget)]
    for keyword, value in options.items():
        if keyword not in known or keyword == "budget":
            raise TypeError(f"remat() got an unexpected keyword argument {keyword!r}; "
                            f"the options are {', '.join(sorted(known))}")
        if value is None:
            continue
        key, kind = known[keyword][:2]
        if kind == "number":
            value = float(value)
        elif kind == "list" and not isinstance(value, str):
            value = ",".join(str(v) for v in value)
        words.append(_option(key, value))
    text, report = _ckpt.remat_text(module, " ".join(words))
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
