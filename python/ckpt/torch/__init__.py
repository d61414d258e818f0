"""PyTorch frontend: a model's training step as linalg-on-tensors MLIR, and
a training loop that runs it.

    import ckpt.torch
    step = ckpt.torch.TrainStep(model, loss_fn, (x,), (y,), budget="0.5")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in batches:
        optimizer.zero_grad()
        loss = step(x, y)        # forward + backward: p.grad, buffers updated
        optimizer.step()

`TrainStep` (ckpt.torch.train) compiles the step once per shape and mode
and then behaves like `loss_fn(model(x), y).backward()`: it accumulates
every gradient into `p.grad` and updates the model's buffers (BatchNorm's
running statistics) exactly once, recomputation or not. Dropout draws from
an explicit seed (ckpt.torch.random), a new one each call. Data parallel:
`allreduce_gradients(model)` after the step (ckpt.torch.distributed).

Underneath, `export_training_step(model, inputs, loss_fn, targets)`
(ckpt.torch.export) exports the joint forward and backward step as PyTorch
traces it, functionalized (in-place ops, aliasing and buffer updates made
pure), through torch-mlir's FX importer as linalg on tensors:

    step = ckpt.torch.export_training_step(model, (x,), F.cross_entropy, targets=(y,))
    step.mlir            # func.func @train_step(params..., frozen..., buffers..., x, y)
                         #   -> (loss, d loss / d param..., updated buffers...)
    args = step.arguments(model, (x,), (y,))          # numpy, argument order
    result = ckpt.run(step.mlir, step.entry, inputs=args, budget="0.5")
    loss, *grads = result.outputs

Inside torch.compile instead: `torch.compile(model,
backend=ckpt.torch.compile_backend(budget="2GiB"))` partitions forward and
backward by ckpt's plan and lets Inductor generate the kernels
(ckpt.torch.partitioner).

`reference(model, inputs, loss_fn, targets)` computes the loss and
gradients with eager PyTorch autograd, as the check to compare against.
"""

from .distributed import allreduce_gradients
from .export import ExportError, ExportedStep, export_training_step
from .partitioner import CompilePlanError, compile_backend
from .train import TrainStep
from .verify import VerificationError


def reference(model, inputs, loss_fn, targets=()):
    """Loss and gradients of the trainable parameters (tied ones once, as
    export_training_step lists them) by eager PyTorch autograd, as numpy
    arrays in the order of the exported step's first results. Buffers the
    forward updates are updated, as in any eager step."""
    import torch
    from .export import _distinct
    parameters = [p for _, p in _distinct(model.named_parameters(remove_duplicate=False))
                  if p.requires_grad]
    loss = loss_fn(model(*inputs), *targets)
    grads = torch.autograd.grad(loss, parameters, allow_unused=True)
    results = [loss] + [g if g is not None else torch.zeros_like(p)
                        for g, p in zip(grads, parameters)]
    return [r.detach().cpu().numpy() for r in results]


__all__ = ["CompilePlanError", "ExportError", "ExportedStep", "TrainStep", "VerificationError",
           "allreduce_gradients", "compile_backend", "export_training_step", "reference"]
