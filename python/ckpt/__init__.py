"""ckpt: gradient checkpointing as a compiler transformation (Python side).

    import ckpt
    text, report = ckpt.remat(module_text, budget="50%", solver="auto")
    plan = ckpt.plan(graph, budget="0.7", solver="chain-dp")
    result = ckpt.run(module_text, "loss_grad", backend="cpu", budget="0.5")

`ckpt.remat`, `ckpt.plan` and `ckpt.CkptError` come from the native
extension `ckpt._ckpt` (built with the project into build/python/ckpt/,
found through CKPT_BUILD_DIR or the repository's build/ directory).
`ckpt.run` (ckpt.execution) builds with ckpt-compile and calls the result
through ckpt.aot. `ckpt.models` generates the model zoo as MLIR (linalg on
tensors),
`ckpt.aot` calls ahead-of-time builds, `ckpt.gpu_package` prepares GPU runs;
they need no extension.
"""

import os as _os

# The extension lives in the build tree: make it part of this package.
_build = _os.environ.get("CKPT_BUILD_DIR") or _os.path.join(
    _os.path.dirname(_os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))), "build")
_built = _os.path.join(_build, "python", "ckpt")
if _os.path.isdir(_built) and _built not in __path__:
    __path__.append(_built)

_COMPILER_NAMES = ("remat", "remat_options", "plan", "CkptError")


def __getattr__(name):
    # Loaded on first use, so that ckpt.models and friends work without the
    # extension.
    if name in _COMPILER_NAMES:
        from . import compiler
        return getattr(compiler, name)
    if name in ("run", "RunResult"):
        from . import execution
        return getattr(execution, name)
    raise AttributeError(f"module 'ckpt' has no attribute '{name}'")
