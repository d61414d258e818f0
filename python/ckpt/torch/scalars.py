"""Python scalars read from tensors while the step is traced
(`int(t.max())`, `t.item()`, `bool(t.any())`: aten._local_scalar_dense).

AOTAutograd traces on fake tensors, which hold no values, so such a read
stops the trace. `constant_scalars` runs the forward and the loss once
eagerly on the real tensors under a dispatch mode that marks every tensor
computed from the step's arguments (parameters, buffers, inputs, targets),
and records each read in order with whether its tensor is marked, the
module running and the source line. A read of a marked tensor depends on
the data: the step cannot be one compiled function, and the export's error
names the module and the line. A read of a tensor computed from shapes and
constants only has the same value on every call with these shapes:
`replaying` gives the trace the recorded values, in the same order, through
the Python conversions that read them (`item`, `int`, `float`, `bool`,
`index`); a read the eager run did not make, or of another shape, is an
error, not a guess.
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
    #: The shape of the tensor read.
    shape: tuple = ()


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
                                        _call_site(), tuple(args[0].shape)))
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


#: The Python conversions of torch.Tensor that read one value, and what
#: each makes of the recorded number.
_CONVERSIONS = {"item": lambda value: value, "__int__": int, "__float__": float,
                "__bool__": bool, "__index__": int}


class ReplayError(RuntimeError):
    """The trace read a Python number the eager run did not record."""


@contextlib.contextmanager
def replaying(reads):
    """Inside, each Python conversion of a one-element tensor to a number
    (`item`, `int`, `float`, `bool`, `index`) returns the next of `reads`
    (ScalarRead of constant tensors, in the eager run's order) instead of
    reading the tensor, after checking that the tensor has the recorded
    shape; the sequence starts over when the trace runs the forward again."""
    import torch
    reads = list(reads)
    position = [0]
    originals = {name: getattr(torch.Tensor, name) for name in _CONVERSIONS}

    def replayed(name, convert):
        def conversion(self, *args, **kwargs):
            if not reads:
                raise ReplayError(f"the trace read a Python number from a tensor "
                                  f"({name}) that the eager run did not")
            # AOTAutograd runs the forward more than once (metadata, then
            # the joint trace): each run reads the same sequence.
            read = reads[position[0] % len(reads)]
            position[0] += 1
            if tuple(self.shape) != tuple(read.shape):
                raise ReplayError(f"the trace read a Python number from a tensor of shape "
                                  f"{tuple(self.shape)} where the eager run read one of "
                                  f"shape {tuple(read.shape)}")
            return convert(read.value)
        return conversion

    for name, convert in _CONVERSIONS.items():
        setattr(torch.Tensor, name, replayed(name, convert))
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(torch.Tensor, name, original)

