"""Python scalars read from tensors while the step is traced
(`int(t.max())`, `t.item()`, `bool(t.any())`: aten._local_scalar_dense).

AOTAutograd traces on fake tensors, which hold no values, so such a read
stops the trace. `constant_scalars` runs the forward and the loss once
eagerly on the real tensors under a dispatch mode that marks every tensor
computed from the step's arguments (parameters, buffers, inputs, targets),
and records each read in order with whether its tensor is marked, the
module running and the source line. A read of a marked tensor depends on
the data: the step cannot be one compiled function, and the export's error
names the module and the line. Reads of tensors of shapes and constants
are not specialized into the step yet (the trace's functionalization
reads the fake tensor before any decomposition could answer): the export
retries as a compiler (models skip eager-only checks then) and otherwise
names the read.
"""

import contextlib
import dataclasses
import traceback


@dataclasses.dataclass
class ScalarRead:
    """One `_local_scalar_dense` call of the eager run."""
    value: object
    #: Whether the tensor read is computed from the step's arguments.
    data_dependent: bool
    #: The innermost module running, and the model's source line.
    module_path: str
    source_line: str


def _call_site():
    frames = [f for f in traceback.extract_stack()
              if "/torch/" not in f.filename and "/ckpt/torch/" not in f.filename]
    if not frames:
        return None
    return f"{frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}"


def constant_scalars(run, arguments, model):
    """The scalar reads of `run()` (the eager forward and loss), as a list
    of ScalarRead; `arguments` are the tensors the step takes, whose
    descendants count as data; `model`'s modules locate each read."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_flatten

    marked = {id(t) for t in arguments}
    keep = list(arguments)  # ids stay unique while the tensors live
    reads, stack = [], []

    class Mark(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            result = func(*args, **kwargs)
            flat, _ = tree_flatten((args, kwargs))
            dependent = any(isinstance(t, torch.Tensor) and id(t) in marked for t in flat)
            if func is torch.ops.aten._local_scalar_dense.default:
                reads.append(ScalarRead(result, dependent, stack[-1] if stack else None,
                                        _call_site()))
            elif dependent:
                outputs, _ = tree_flatten(result)
                for t in outputs:
                    if isinstance(t, torch.Tensor):
                        marked.add(id(t))
                        keep.append(t)
            return result

    with tracking_modules(model, stack), torch.no_grad(), Mark():
        run()
    return reads


@contextlib.contextmanager
def tracking_modules(model, stack):
    """Inside, `stack` holds the names of `model`'s modules whose forward
    is running, innermost last (None for the model itself)."""
    def enter(name):
        def hook(_module, _args):
            stack.append(name or None)
        return hook

    def leave(_module, _args, _output):
        if stack:
            stack.pop()

    handles = []
    for name, module in model.named_modules():
        handles.append(module.register_forward_pre_hook(enter(name)))
        handles.append(module.register_forward_hook(leave))
    try:
        yield stack
    finally:
        for handle in handles:
            handle.remove()


def is_scalar_read_failure(error):
    """Whether a tracing error is a Python scalar read from a fake tensor."""
    text = f"{type(error).__name__}: {error}"
    return ("_local_scalar_dense" in text or "data-dependent" in text
            or "DataDependent" in text)
