"""The functional export of a PyTorch training step (forward and backward as
PyTorch traces them) into linalg-on-tensors MLIR.

The joint graph comes from AOTAutograd (`aot_export_module` with
`trace_joint=True`), which functionalizes the step: in-place and aliasing
ops (`relu_`, `add_`, `copy_`, views written through) become pure ops, and a
buffer the step writes (BatchNorm's running statistics and
`num_batches_tracked`) becomes an extra result, its value after the step,
computed once. The model is not changed: the step is traced through a
parameter-free view of it (`_step_module`) that holds

- one parameter per distinct trainable tensor of the model (tied weights,
  GPT-2's `wte` and `lm_head`, are one parameter and get one gradient, the
  sum, as autograd gives),
- as buffers: the model's buffers and its parameters that get no gradient
  (`requires_grad=False`, or ones the loss does not depend on),

and calls the model with `torch.func.functional_call`. Scaled dot-product
attention without dropout (unmasked, or with a boolean padding mask), and
attention written out by hand with a mask known while tracing
(ckpt.torch.attention_patterns), become ckpt's fused `ckpt.attention` and
`ckpt.attention_grad` (ckpt.torch.attention); other calls are traced in the
math form
(`SDPBackend.MATH`), so they import as matmuls and a softmax with their
mask; the decompositions of
ckpt.torch.decompositions keep torch-mlir's own scatter and its failing
grouped-convolution backward out. torch-mlir's FX importer then lowers the
graph to linalg on tensors.

Random ops (dropout, bernoulli, rand) draw from Philox-4x32-10 keyed by an
explicit seed, the step's last argument `rng:seed` (ckpt.torch.random):
torch-mlir would draw them from a hidden global seed that ckpt could not
reproduce when it recomputes. Other random ops are refused.
Constructs torch-mlir cannot lower fail here with the aten op, the module
that called it and a hint.
"""

import dataclasses
import operator
import re
import threading
import time

import numpy

#: aten ops that draw random numbers: their bits come from torch-mlir's
#: hidden global seed, not from the step's arguments.
_RANDOM_OPS = ("native_dropout", "bernoulli", "rand", "randn", "randint", "normal",
               "uniform", "multinomial", "exponential", "rand_like", "randn_like")

#: PyTorch's tracing keeps global state: one export at a time per process
#: (the builds that follow may run concurrently).
_TRACING = threading.Lock()

#: Hints for the aten ops that are known to need one.
_HINTS = {
    "_scaled_dot_product_flash_attention": "a fused attention kernel was traced; ckpt.torch "
                                           "exports attention in its math form",
    "randn": "draw uniform numbers (torch.rand) and transform them",
    "normal": "draw uniform numbers (torch.rand) and transform them",
}


class ExportError(RuntimeError):
    """The step could not be exported. `op` is the aten op at fault (or
    None) and `module_path` the module that called it (`transformer.h.3.attn`;
    None when unknown)."""

    def __init__(self, message, op=None, module_path=None, problem=None, hint=None,
                 source_line=None):
        super().__init__(message)
        self.op = op
        self.module_path = module_path
        self.problem = problem
        self.hint = hint
        self.source_line = source_line

    @classmethod
    def at_op(cls, op, problem, hint=None, module_path=None, source_line=None):
        """The error for aten op `op` (`erfinv.default`), located in
        `module_path` at `source_line` when they are known."""
        hint = hint or next((h for key, h in _HINTS.items() if op.startswith(key)),
                            "decompose it into ops torch-mlir lowers "
                            "(ckpt.torch.decompositions) or keep it out of the training step")
        where = [f"in {module_path}"] * bool(module_path) + [f"at {source_line}"] * bool(source_line)
        message = (f"ckpt.torch: aten.{op}" + (f" ({', '.join(where)})" if where else "")
                   + f": {problem}; hint: {hint}")
        return cls(message, op=f"aten.{op}", module_path=module_path, problem=problem,
                   hint=hint, source_line=source_line)


@dataclasses.dataclass
class ExportedStep:
    """A training step exported to MLIR."""
    #: The module as MLIR text (linalg on tensors).
    mlir: str
    #: Name of the function: the training step.
    entry: str
    #: Names of the function's arguments, in order: `param:<name>` (the
    #: trainable parameters), `frozen:<name>` (parameters that get no
    #: gradient), `buffer:<name>`, `input:<i>`, `target:<i>`,
    #: `scale:loss` (a 0-d float32 the gradients are scaled by) when exported
    #: with a loss scale, and `rng:seed` (a 0-d int64) when the step draws
    #: random numbers.
    argument_names: list
    #: Names of the results: `loss`, `grad:<parameter>` for every trainable
    #: parameter, then `buffer:<name>` for every buffer the step updates
    #: (its value after the step).
    result_names: list
    #: aten ops of the traced step (after decomposition).
    aten_ops: list
    #: Seconds spent tracing and importing.
    export_time_s: float

    @property
    def parameters(self):
        """Names of the parameters the step differentiates, in result order."""
        return [n[len("grad:"):] for n in self.result_names if n.startswith("grad:")]

    @property
    def updated_buffers(self):
        """Names of the buffers the step writes, in result order."""
        return [n[len("buffer:"):] for n in self.result_names if n.startswith("buffer:")]

    @property
    def random(self):
        """Whether the step draws random numbers (and takes `rng:seed`)."""
        return "rng:seed" in self.argument_names

    @property
    def scaled(self):
        """Whether the step scales its gradients by a `scale:loss` argument."""
        return "scale:loss" in self.argument_names

    def argument_tensors(self, model, inputs, targets=(), seed=None, loss_scale=None):
        """The step's arguments for `model`'s current parameters and buffers
        and the given inputs and targets, as detached tensors. A step that
        draws random numbers also takes `seed` (an int; None: drawn from
        torch's default generator, so `torch.manual_seed` fixes it); a
        scaled one `loss_scale` (a number or a 1-element tensor)."""
        import torch
        named = dict(model.named_parameters(remove_duplicate=False))
        named.update(model.named_buffers(remove_duplicate=False))
        values = []
        for name in self.argument_names:
            kind, key = name.split(":", 1)
            if kind == "input":
                values.append(inputs[int(key)])
            elif kind == "target":
                values.append(targets[int(key)])
            elif kind == "scale":
                if loss_scale is None:
                    raise ValueError("this step was exported with a loss scale: pass loss_scale")
                values.append(torch.as_tensor(loss_scale, dtype=torch.float32).reshape(()).cpu())
            elif kind == "rng":
                if seed is None:
                    seed = int(torch.randint(0, 2**62, ()))
                values.append(torch.tensor(seed, dtype=torch.int64))
            else:
                values.append(named[key])
        return [v.detach() for v in values]

    def arguments(self, model, inputs, targets=(), seed=None, loss_scale=None):
        """`argument_tensors` as contiguous numpy arrays."""
        return [numpy.asarray(v.cpu().numpy(), order="C")
                for v in self.argument_tensors(model, inputs, targets, seed, loss_scale)]


def _distinct(named):
    """(name, tensor) pairs with tensors that appear under several names
    (tied weights) kept once, under their first name."""
    seen, kept = set(), []
    for name, tensor in named:
        if id(tensor) not in seen:
            seen.add(id(tensor))
            kept.append((name, tensor))
    return kept


def _autocast_state():
    """{device type: dtype} of the autocast contexts active here."""
    import torch
    return {device: torch.get_autocast_dtype(device) for device in ("cpu", "cuda")
            if torch.is_autocast_enabled(device)}


def _autocast(state):
    """A context manager entering the autocast contexts of `state`
    (`_autocast_state`)."""
    import contextlib

    import torch
    stack = contextlib.ExitStack()
    for device, dtype in state.items():
        stack.enter_context(torch.autocast(device, dtype=dtype))
    return stack


def _step_module(model, loss_fn, trainable, held, num_inputs, autocast=None, scaled=False):
    """An nn.Module with `trainable` (name, tensor) pairs as its parameters
    and `held` ones as its buffers, whose forward(*inputs, *targets) returns
    (loss_fn(model(*inputs), *targets),) with the model's tensors replaced
    by its own, under the autocast contexts of `autocast`
    (`_autocast_state`) when given. With `scaled`, forward(*inputs,
    *targets, scale) returns (loss * scale, loss): the first is what the
    backward differentiates (GradScaler's `scaler.scale(loss).backward()`),
    the second the loss itself. The model is not a submodule: its own
    parameters are not lifted a second time."""
    import torch
    from torch.func import functional_call

    class StepModule(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self._model = [model]
            for index, (_, tensor) in enumerate(trainable):
                self.register_parameter(f"p{index}", torch.nn.Parameter(tensor.detach(),
                                                                        requires_grad=True))
            for index, (_, tensor) in enumerate(held):
                self.register_buffer(f"b{index}", tensor.detach())

        def forward(self, *args):
            tensors = {name: getattr(self, f"p{i}") for i, (name, _) in enumerate(trainable)}
            tensors.update({name: getattr(self, f"b{i}") for i, (name, _) in enumerate(held)})
            if scaled:
                args, scale = args[:-1], args[-1]
            inputs, targets = args[:num_inputs], args[num_inputs:]
            with _autocast(autocast or {}):
                output = functional_call(self._model[0], tensors, tuple(inputs), strict=False)
                loss = loss_fn(output, *targets)
            if scaled:
                return (loss * scale, loss.detach())
            return (loss,)

    return StepModule()


def _fake_backward(model, loss_fn, trainable, held, inputs, targets, watch=None):
    """The gradients (None where the loss does not depend on a tensor) of
    the `trainable` (name, tensor) pairs, from the step run on fake tensors
    (nothing is computed), forward and backward inside `watch` (a context
    manager) when given."""
    import contextlib

    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.func import functional_call

    with FakeTensorMode(allow_non_fake_inputs=True) as mode:
        fake = {name: mode.from_tensor(t.detach()).requires_grad_(True) for name, t in trainable}
        fake_held = {name: mode.from_tensor(t.detach()) for name, t in held}
        args = [mode.from_tensor(a) for a in list(inputs) + list(targets)]
        with watch if watch is not None else contextlib.nullcontext():
            output = functional_call(model, {**fake, **fake_held}, tuple(args[:len(inputs)]),
                                     strict=False)
            loss = loss_fn(output, *args[len(inputs):])
            return torch.autograd.grad(loss, list(fake.values()), allow_unused=True)


def _unused_parameters(model, loss_fn, trainable, held, inputs, targets):
    """Names of the trainable parameters the loss does not depend on."""
    grads = _fake_backward(model, loss_fn, trainable, held, inputs, targets)
    return {name for (name, _), grad in zip(trainable, grads) if grad is None}


def _aten_name(target):
    """`convolution.default` for torch.ops.aten.convolution.default."""
    text = str(target)
    return text[len("aten."):] if text.startswith("aten.") else text


def _op_name(node):
    """`convolution` for a node calling torch.ops.aten.convolution.default."""
    return _aten_name(node.target).split(".")[0]


def _aten_ops(graph_module):
    """The aten ops (`op.overload`) a graph calls, sorted."""
    return sorted({_aten_name(n.target) for n in graph_module.graph.nodes
                   if n.op == "call_function" and str(n.target).startswith("aten.")})


def _graph_line_node(graph_module, location):
    """The node of `graph_module` that an MLIR location printed as text
    (`loc("<eval_with_key>.1 ...":12:0)`) points to, or None. torch-mlir
    locates each op at its node's stack trace, whose innermost frame is a
    line of the graph AOTAutograd traced: nodes are matched on that line."""
    match = re.search(r'":(\d+):\d+\)', location)
    if not match:
        return None
    line = f", line {match.group(1)}, in "
    for node in graph_module.graph.nodes:
        trace = node.meta.get("stack_trace") or ""
        frames = trace.strip().splitlines()
        if node.op == "call_function" and any(line in frame for frame in frames[-2:]):
            return node
    return None


def _node_error(node, problem, hint=None):
    """ExportError naming `node`'s aten op (located later, by _locate)."""
    return ExportError.at_op(_aten_name(node.target), problem, hint)


def _locate(error, model, loss_fn, trainable, held, inputs, targets):
    """`error` with the module and source line of the first call of its op
    in the model's forward, found by running the forward and backward on
    fake tensors under a dispatch mode that watches for the op while module
    hooks track the module being run. The joint graph itself no longer
    knows them: AOTAutograd traces a graph of the step, not the model."""
    import traceback

    from torch.utils._python_dispatch import TorchDispatchMode

    from . import scalars

    if error.op is None or error.module_path is not None:
        return error
    wanted = {error.op[len("aten."):].split(".")[0]}
    if wanted <= set(_RANDOM_OPS):
        wanted = set(_RANDOM_OPS)  # eager dispatch may draw through another one
    stack, found = [], []

    class Watch(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if not found and func.__name__.split(".")[0].rstrip("_") in wanted:
                frames = [f for f in traceback.extract_stack()
                          if "/torch/" not in f.filename and "/ckpt/torch/" not in f.filename]
                line = (f"{frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}"
                        if frames else None)
                found.append((stack[-1] if stack else None, line))
            return func(*args, **(kwargs or {}))

    try:
        with scalars.tracking_modules(model, stack):
            _fake_backward(model, loss_fn, trainable, held, inputs, targets, watch=Watch())
    except Exception:  # locating is best effort: the error stands as it is
        pass
    if not found:
        return error
    path, line = found[0]
    return ExportError.at_op(error.op[len("aten."):], error.problem, error.hint,
                             module_path=path, source_line=line)


#: torch-mlir's two pipelines from the FX importer's torch dialect to
#: linalg on tensors (what its `stateless_fx_import` runs).
_PIPELINES = (
    "builtin.module(func.func(torch-match-quantized-custom-ops), "
    "torchdynamo-export-to-torch-backend-pipeline{ extra-library=})",
    "builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline"
    "{allow-non-finites=True})",
)

#: aten ops without a value of their own (their line is not where an op
#: fails); getitem is another.
_BOOKKEEPING = ("alias", "view", "_assert_tensor_metadata")


def _producer_at(graph_module, location):
    """The node at `location`'s line, or the closest earlier node that
    computes something (a region's terminator carries the location of the
    getitem after the op)."""
    node = _graph_line_node(graph_module, location)
    while node is not None and node.op == "call_function" and (
            node.target is operator.getitem or _op_name(node) in _BOOKKEEPING):
        node = node.prev
    return node if node is not None and node.op == "call_function" else None


def _import_to_linalg(graph_module, func_name):
    """The joint graph as linalg-on-tensors MLIR text, through torch-mlir's
    FX importer and its pipelines, run here with a diagnostic handler so
    that a failure names the node it comes from."""
    from torch_mlir import fx as torch_mlir_fx
    from torch_mlir.passmanager import PassManager

    from . import attention

    try:
        module = torch_mlir_fx.stateless_fx_import(graph_module, output_type="raw",
                                                   model_name=func_name)
    except Exception as error:  # torch-mlir raises several exception types
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ExportError(f"ckpt.torch: torch-mlir could not import the step: {first[:300]}") \
            from error
    diagnostics = []

    def collect(diagnostic):
        diagnostics.append((str(diagnostic.location), str(diagnostic.message)))
        return True

    failed = None
    with module.context as context:
        context.emit_error_diagnostics = True
        handler = context.attach_diagnostic_handler(collect)
        try:
            calls = attention.calls_for_operators(module)
            pipelines = _PIPELINES[:-1] + (
                attention.contract_pipeline(_PIPELINES[-1]) if calls else _PIPELINES[-1],)
            for pipeline in pipelines:
                PassManager.parse(pipeline).run(module.operation)
            attention.ops_for_calls(module, calls)
        except Exception as error:  # MLIRError, RuntimeError
            failed = error
            # An MLIRError carries the errors themselves.
            for diagnostic in getattr(error, "error_diagnostics", []):
                collect(diagnostic)
        finally:
            handler.detach()
    if failed is not None:
        for location, message in diagnostics:
            # The op the message names, else the node at its location.
            named = re.search(r"torch\.aten\.([A-Za-z0-9_.]+)", message)
            node = None
            if named:
                node = next((n for n in graph_module.graph.nodes if n.op == "call_function"
                             and _op_name(n) == named.group(1).split(".")[0]), None)
            if node is None:
                node = _producer_at(graph_module, location)
            if node is not None:
                first = message.splitlines()[0].split(": %")[0]
                raise _node_error(node, f"torch-mlir cannot lower it to linalg ({first[:160]})")
        first = diagnostics[0][1] if diagnostics else str(failed).strip().splitlines()[0]
        raise ExportError(f"ckpt.torch: torch-mlir could not lower the step: {first[:300]}")
    # Ops only torch-mlir's own MLIR knows (tm_tensor.sort, .scan, .topk) are
    # not linalg: name the node they come from.
    located = module.operation.get_asm(enable_debug_info=True, large_elements_limit=16)
    body = located.split("func.func", 1)[-1]
    leftover = re.search(r"\b(tm_tensor\.(?!yield)[a-z_]+|torch\.[a-z_.]+)", body)
    if leftover:
        op = leftover.group(1)
        after = body[leftover.end():]
        location = re.search(r"loc\((#loc\d+|\"[^\n]*?\":\d+:\d+)\)", after)
        location = location.group(1) if location else ""
        if location.startswith("#loc"):
            alias = re.search(rf"^{location} = loc\((.*)\)$", located, re.MULTILINE)
            location = alias.group(1) if alias else ""
        node = _producer_at(graph_module, location + ")")
        problem = f"torch-mlir lowers it to {op}, which only torch-mlir knows"
        if node is not None:
            raise _node_error(node, problem)
        raise ExportError(f"ckpt.torch: the imported step holds {op}, which only torch-mlir "
                          "knows")
    return str(module)


def _reorder_outputs(graph, signature, trainable_count, loss_index=0):
    """Makes the joint graph return (loss, gradients in parameter order,
    updated buffers in buffer order), the loss being user output
    `loss_index`; returns the updated buffers' indices among the step
    module's buffers."""
    output = next(n for n in graph.nodes if n.op == "output")
    values = {getattr(v, "name", None): v for v in output.args[0]}
    loss = values[signature.user_outputs[loss_index]]
    by_parameter = {p: o for o, p in signature.backward_signature.gradients_to_parameters.items()}
    grads = [values[by_parameter[f"p{i}"]] for i in range(trainable_count)]
    updated = sorted(((int(b[1:]), o) for o, b in signature.buffers_to_mutate.items()))
    output.args = ((loss, *grads, *[values[o] for _, o in updated]),)
    graph.lint()
    return [index for index, _ in updated]


def _cast_gradients(graph, parameters):
    """Casts every gradient result (results 1 to len(parameters)) whose
    dtype is not its parameter's to the parameter's, as autograd does
    before it accumulates a gradient (an f32 parameter read under autocast
    gets an f32 gradient)."""
    import torch
    output = next(n for n in graph.nodes if n.op == "output")
    results = list(output.args[0])
    for index, parameter in enumerate(parameters, start=1):
        value = results[index].meta.get("val")
        if value is None or value.dtype == parameter.dtype:
            continue
        with graph.inserting_before(output):
            cast = graph.call_function(torch.ops.prims.convert_element_type.default,
                                       (results[index], parameter.dtype))
        cast.meta["val"] = value.to(parameter.dtype)
        results[index] = cast
    output.args = (tuple(results),)
    graph.lint()


def export_training_step(model, example_inputs, loss_fn, targets=(), func_name="train_step",
                         loss_scale=False, fused_attention=True):
    """Exports the training step of `model` on `example_inputs` (a tuple of
    tensors; their shapes and dtypes are the step's) with loss
    `loss_fn(model(*example_inputs), *targets)` as MLIR: the loss, the
    gradient of every trainable parameter and the new value of every buffer
    the step updates. Returns an ExportedStep. Raises ExportError (a
    RuntimeError) naming the aten op and its module when the step cannot
    be exported. Safe to call from several threads (one traces at a time).

    The forward and the loss run under the autocast contexts active here
    (`torch.autocast`), the backward without, as in eager training. With
    `loss_scale`, the step takes a 0-d float32 `scale:loss` argument (after
    the targets) and differentiates `loss * scale`, as
    `GradScaler.scale(loss).backward()` does: the gradients are scaled, the
    loss result is not.

    With `fused_attention` (the default), `F.scaled_dot_product_attention`
    calls without dropout, unmasked or with a boolean padding mask, become
    `ckpt.attention` and
    `ckpt.attention_grad` (ckpt.torch.attention); without, every call is
    exported in its math form."""
    from .decompositions import pytorch_fallback
    extra = {}
    with _TRACING:
        # An op torch-mlir cannot lower is traced again through PyTorch's own
        # decomposition of it, one op at a time, at most _FALLBACK_ROUNDS
        # ops (every retry adds one). When the decomposition only moves the
        # failure into ops that are not aten ops (prims), the first error,
        # which names the model's op, is the one raised.
        first = None
        while True:
            try:
                return _export(model, example_inputs, loss_fn, targets, func_name,
                               bool(loss_scale), bool(fused_attention), extra)
            except ExportError as error:
                if error.op is None and first is not None:
                    raise first from None
                first = first or error
                fallback = pytorch_fallback(error.op)
                if not fallback or set(fallback) <= set(extra) or \
                        len(extra) >= _FALLBACK_ROUNDS:
                    raise
                extra.update(fallback)


#: Ops traced again through PyTorch's decompositions, at most, per export.
_FALLBACK_ROUNDS = 8


def _compiling():
    """A context in which torch.compiler.is_compiling() is true, as during a
    torch.compile session: models skip eager-only checks there (Hugging
    Face's padding warning reads a token id as a Python bool)."""
    import contextlib

    import torch
    session = getattr(torch.compiler, "_compile_session_context", None)
    return session() if session is not None else contextlib.nullcontext()


def _scalar_reads(model, loss_fn, buffers, inputs, targets, autocast):
    """The Python scalars the model's forward and loss read from tensors
    (ckpt.torch.scalars), from one eager run on copies of the buffers (the
    model's are not updated); raises ExportError, located, at the first
    read whose tensor is computed from the step's data."""
    import torch
    from torch.func import functional_call

    from . import scalars

    copies = {name: tensor.detach().clone() for name, tensor in buffers}

    def run():
        with _autocast(autocast), _compiling():
            output = functional_call(model, copies, tuple(inputs), strict=False)
            loss_fn(output, *targets)

    arguments = ([p for p in model.parameters()] + list(copies.values()) + list(inputs)
                 + list(targets))
    reads = scalars.constant_scalars(run, arguments, model)
    for read in reads:
        if read.data_dependent:
            raise ExportError.at_op(
                "_local_scalar_dense.default",
                "a Python number read from a tensor computed from the step's inputs or "
                "parameters (.item(), int(), bool() or a comparison in Python): the step "
                "would depend on the data",
                hint="compute it from shapes or constants, or move it out of the training step",
                module_path=read.module_path, source_line=read.source_line)
    return reads


def _export(model, example_inputs, loss_fn, targets, func_name, loss_scale, fuse, extra=None):
    import contextlib
    import torch
    from torch._functorch.aot_autograd import aot_export_module
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from . import random, scalars
    from .attention import fused_attention
    from .decompositions import above_autograd, export_decompositions

    example_inputs = tuple(example_inputs)
    targets = tuple(targets)
    parameters = _distinct(model.named_parameters(remove_duplicate=False))
    buffers = _distinct(model.named_buffers(remove_duplicate=False))
    trainable = [(n, p) for n, p in parameters if p.requires_grad]
    frozen = [(n, p) for n, p in parameters if not p.requires_grad]

    start = time.perf_counter()
    table = {**export_decompositions(), **(extra or {})}

    # Autocast applies to the forward and the loss only, as in eager
    # training (`with autocast(): loss = ...`, then `loss.backward()`
    # outside): traced under an ambient autocast, the backward's ops, and
    # those of decompositions, would be cast too.
    autocast = _autocast_state()
    scale = (torch.ones((), dtype=torch.float32),) if loss_scale else ()

    # Set when the first trace read a Python scalar from a tensor: later
    # traces run as a compiler's (torch.compiler.is_compiling(): models
    # skip their eager-only checks, Hugging Face's padding warning), first
    # as they are, then with the eager run's values of the scalars read
    # from constant tensors (ckpt.torch.scalars).
    specialized = {}

    def trace(trainable, frozen, replay=False):
        module = _step_module(model, loss_fn, trainable, frozen + buffers, len(example_inputs),
                              autocast, scaled=loss_scale)
        with sdpa_kernel(SDPBackend.MATH), torch._C._DisableAutocast(), \
                (fused_attention() if fuse else contextlib.nullcontext()), above_autograd(), \
                (_compiling() if specialized else contextlib.nullcontext()), \
                (scalars.replaying(specialized["reads"]) if replay
                 else contextlib.nullcontext()):
            return aot_export_module(module, example_inputs + targets + scale, trace_joint=True,
                                     output_loss_index=0, decompositions=table)

    def trace_specializing(trainable, frozen):
        if not specialized:
            try:
                return trace(trainable, frozen)
            except Exception as error:  # tracing raises many exception types
                if not scalars.is_scalar_read_failure(error):
                    raise
            specialized["reads"] = _scalar_reads(model, loss_fn, buffers, example_inputs,
                                                 targets, autocast)
            try:
                return trace(trainable, frozen)
            except Exception as error:  # tracing raises many exception types
                if not scalars.is_scalar_read_failure(error) or not specialized["reads"]:
                    raise
        if not specialized["reads"]:
            return trace(trainable, frozen)
        try:
            return trace(trainable, frozen, replay=True)
        except scalars.ReplayError as error:
            read = specialized["reads"][0]
            raise ExportError.at_op(
                "_local_scalar_dense.default",
                f"a Python number read from a tensor of shapes and constants: {error}",
                hint="compute it from the tensor's shape in Python",
                module_path=read.module_path, source_line=read.source_line) from None

    try:
        try:
            graph, signature = trace_specializing(trainable, frozen)
        except AssertionError as error:
            if "did not receive a gradient" not in str(error):
                raise
            unused = _unused_parameters(model, loss_fn, trainable, frozen + buffers,
                                        example_inputs, targets)
            frozen += [(n, p) for n, p in trainable if n in unused]
            trainable = [(n, p) for n, p in trainable if n not in unused]
            graph, signature = trace_specializing(trainable, frozen)
    except ExportError:
        raise
    except Exception as error:  # tracing raises many exception types
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ExportError(f"ckpt.torch: could not trace the training step: {message}") from error

    if signature.user_inputs_to_mutate:
        written = sorted(signature.user_inputs_to_mutate.values())
        raise ExportError(f"ckpt.torch: the training step writes into its inputs ({', '.join(written)}); "
                          "hint: clone an input before changing it in place")
    aten_ops = _aten_ops(graph)
    held = frozen + buffers
    if (list(signature.parameters) != [f"p{i}" for i in range(len(trainable))]
            or list(signature.buffers) != [f"b{i}" for i in range(len(held))]):
        raise ExportError("ckpt.torch: AOTAutograd lifted the step's tensors in an "
                          "unexpected order")
    updated = _reorder_outputs(graph.graph, signature, len(trainable), loss_index=int(loss_scale))
    _cast_gradients(graph.graph, [t for _, t in trainable])
    seeded = False
    try:
        random_ops = {_op_name(n) for n in graph.graph.nodes
                      if n.op == "call_function"} & set(_RANDOM_OPS)
        for node in graph.graph.nodes:
            if node.op == "call_function" and \
                    _op_name(node) in random_ops - set(random.SUPPORTED):
                raise _node_error(node, "this random op has no Philox form in ckpt.torch.random "
                                  "(dropout, bernoulli and rand do)")
        if random_ops:
            graph.recompile()
            arguments = ([t for _, t in trainable] + [t for _, t in held]
                         + list(example_inputs) + list(targets) + list(scale))
            graph = random.with_explicit_seed(graph, [a.detach() for a in arguments])
            seeded = True
            aten_ops = _aten_ops(graph)

        graph.recompile()
        text = _import_to_linalg(graph, func_name)
    except ExportError as error:
        raise _locate(error, model, loss_fn, trainable, held, example_inputs,
                      targets) from None
    names = ([f"param:{n}" for n, _ in trainable] + [f"frozen:{n}" for n, _ in frozen]
             + [f"buffer:{n}" for n, _ in buffers]
             + [f"input:{i}" for i in range(len(example_inputs))]
             + [f"target:{i}" for i in range(len(targets))] + ["scale:loss"] * loss_scale
             + ["rng:seed"] * seeded)
    results = (["loss"] + [f"grad:{n}" for n, _ in trainable]
               + [f"buffer:{held[i][0]}" for i in updated])
    return ExportedStep(mlir=text, entry=func_name, argument_names=names, result_names=results,
                        aten_ops=aten_ops, export_time_s=time.perf_counter() - start)
