"""PyTorch frontend: a model's training step as linalg-on-tensors MLIR.

    import ckpt, ckpt.torch
    step = ckpt.torch.export_training_step(model, (x,), F.cross_entropy, targets=(y,))
    step.mlir            # func.func @train_step(params..., buffers..., x, y)
                         #   -> (loss, d loss / d param for every param)
    args = step.arguments(model, (x,), (y,))          # numpy, argument order
    result = ckpt.run(step.mlir, step.entry, inputs=args, budget="0.5")
    loss, *grads = result.outputs

The step computes `loss_fn(model(*inputs), *targets)` and its gradient with
respect to every parameter (torch.func.grad_and_value over
torch.func.functional_call, so parameters, buffers, inputs and targets are
all function arguments and nothing is baked in as a constant). It is traced
with make_fx into aten ops, decomposed with torch-mlir's table plus the two
decompositions in ckpt.torch.decompositions (which keep torch-mlir's own
`tm_tensor.scatter` out of the output), and imported with torch-mlir's FX
importer as linalg on tensors, which ckpt-opt parses and remats. The gradient
seed is the scalar 1 inside the step, so there are no tangent inputs.

Buffers are read, not written: a module that updates a buffer in the
training step (BatchNorm's running statistics) is refused; use
`track_running_stats=False` (batch statistics, as in training) or export in
eval mode.

`reference(model, inputs, loss_fn, targets)` computes the same loss and
gradients with eager PyTorch autograd (not through torch.func), as the
check to compare against.
"""

import dataclasses
import time

import numpy


@dataclasses.dataclass
class ExportedStep:
    """A training step exported to MLIR."""
    #: The module as MLIR text (linalg on tensors).
    mlir: str
    #: Name of the function: the training step.
    entry: str
    #: Names of the function's arguments, in order: `param:<name>`,
    #: `buffer:<name>`, `input:<i>`, `target:<i>`.
    argument_names: list
    #: Names of the results: `loss`, then `grad:<parameter name>`.
    result_names: list
    #: aten ops of the traced step (after decomposition).
    aten_ops: list
    #: Seconds spent tracing and importing.
    export_time_s: float

    def arguments(self, model, inputs, targets=()):
        """The step's arguments for `model`'s current parameters and buffers
        and the given inputs and targets, as contiguous numpy arrays."""
        return [numpy.ascontiguousarray(v.cpu().numpy())
                for v in _argument_values(model, inputs, targets)]


def _parameters(model):
    return list(model.named_parameters())


def _buffers(model):
    return list(model.named_buffers())


def _argument_values(model, inputs, targets):
    """The step's arguments as detached tensors: parameters, buffers,
    inputs, targets."""
    values = [p for _, p in _parameters(model)] + [b for _, b in _buffers(model)]
    return [v.detach() for v in values + list(inputs) + list(targets)]


def _step_function(model, loss_fn, num_inputs):
    import torch
    from torch.func import functional_call, grad_and_value

    parameter_names = [name for name, _ in _parameters(model)]
    buffer_names = [name for name, _ in _buffers(model)]

    def step(*args):
        parameters = dict(zip(parameter_names, args[:len(parameter_names)]))
        rest = args[len(parameter_names):]
        buffers = dict(zip(buffer_names, rest[:len(buffer_names)]))
        rest = rest[len(buffer_names):]
        inputs, targets = rest[:num_inputs], rest[num_inputs:]

        def loss_of(params):
            output = functional_call(model, {**params, **buffers}, tuple(inputs))
            return loss_fn(output, *targets)

        grads, loss = grad_and_value(loss_of)(parameters)
        return (loss, *[grads[name] for name in parameter_names])

    return step, parameter_names, buffer_names


def export_training_step(model, example_inputs, loss_fn, targets=(), func_name="train_step"):
    """Exports the training step of `model` on `example_inputs` (a tuple of
    tensors; their shapes and dtypes are the step's) with loss
    `loss_fn(model(*example_inputs), *targets)` as MLIR. Returns an
    ExportedStep. Raises RuntimeError when torch-mlir cannot import the
    traced step, naming the first op it could not lower."""
    import torch
    from torch.fx.experimental.proxy_tensor import make_fx
    from torch_mlir import fx as torch_mlir_fx
    from torch_mlir.extras.fx_decomp_util import get_decomposition_table

    from .decompositions import scatter_free_decompositions

    example_inputs = tuple(example_inputs)
    targets = tuple(targets)
    step, parameter_names, buffer_names = _step_function(model, loss_fn, len(example_inputs))
    args = _argument_values(model, example_inputs, targets)

    start = time.perf_counter()
    table = {**get_decomposition_table(), **scatter_free_decompositions()}
    try:
        graph = make_fx(step, decomposition_table=table, tracing_mode="fake")(*args)
    except RuntimeError as error:
        # torch.func refuses in-place updates of buffers (BatchNorm's running
        # statistics) with a RuntimeError of its own.
        raise RuntimeError(f"ckpt.torch: could not trace the training step: {error} "
                           "(buffers must not be updated: use BatchNorm with "
                           "track_running_stats=False, or eval mode)") from error
    mutated = _mutated_placeholders(graph)
    if mutated:
        raise RuntimeError("ckpt.torch: the training step writes into its arguments "
                           f"({', '.join(mutated)}); buffers must not be updated "
                           "(e.g. BatchNorm with track_running_stats=False, or eval mode)")
    aten_ops = sorted({str(node.target) for node in graph.graph.nodes
                       if node.op == "call_function"})
    try:
        module = torch_mlir_fx.stateless_fx_import(graph, output_type="linalg-on-tensors",
                                                   model_name=func_name)
    except Exception as error:  # torch-mlir raises several exception types
        raise RuntimeError(f"ckpt.torch: torch-mlir could not import the step: {error}") from error
    text = str(module)
    if "tm_tensor." in text or "torch." in text.split("func.func", 1)[-1]:
        raise RuntimeError("ckpt.torch: the imported step still holds torch-mlir ops "
                           "that MLIR does not know (tm_tensor or torch dialect)")
    names = ([f"param:{n}" for n in parameter_names] + [f"buffer:{n}" for n in buffer_names]
             + [f"input:{i}" for i in range(len(example_inputs))]
             + [f"target:{i}" for i in range(len(targets))])
    return ExportedStep(mlir=text, entry=func_name, argument_names=names,
                        result_names=["loss"] + [f"grad:{n}" for n in parameter_names],
                        aten_ops=aten_ops, export_time_s=time.perf_counter() - start)


def _mutated_placeholders(graph):
    """Names of the graph's inputs that an in-place op writes into."""
    mutated = []
    placeholders = [n for n in graph.graph.nodes if n.op == "placeholder"]
    for node in graph.graph.nodes:
        if node.op != "call_function":
            continue
        schema = getattr(node.target, "_schema", None)
        if schema is None:
            continue
        for argument, value in zip(schema.arguments, node.args):
            if argument.alias_info is not None and argument.alias_info.is_write \
                    and value in placeholders and value.name not in mutated:
                mutated.append(value.name)
    return mutated


def reference(model, inputs, loss_fn, targets=()):
    """Loss and parameter gradients by eager PyTorch autograd, as numpy
    arrays in the order of the exported step's results."""
    import torch
    parameters = [p for _, p in _parameters(model)]
    loss = loss_fn(model(*inputs), *targets)
    grads = torch.autograd.grad(loss, parameters, allow_unused=True)
    results = [loss] + [g if g is not None else torch.zeros_like(p)
                        for g, p in zip(grads, parameters)]
    return [r.detach().cpu().numpy() for r in results]
