"""The guard against a wrong compiled step: `TrainStep(..., verify=True)`.

The first call of each build compares the compiled step's loss and
gradients with eager PyTorch autograd on the same parameters, buffers and
inputs, run in float64 (the reference) and in the model's own precision
(how far that precision itself is from the reference). Eager's own error is
the largest over that run and PERTURBED_RUNS more with every floating
parameter and input moved by about one rounding (relative noise of the
dtype's epsilon): at a ReLU or a max, one rounding can move a value across
the kink and change a gradient by 1e-2 on a BatchNorm network, in eager
float32 as much as in any compiled step, so one lucky eager run is not the
precision the model has. A parameter fails
when its gradient is further from float64 than both TOLERANCE and
FLOAT32_FACTOR times eager's own distance, normwise, with the norm floored
at NORM_FLOOR of the whole gradient's (a parameter whose gradient is nearly
zero is judged against the gradient's scale, not its own); the loss is
judged the same way. A failure raises VerificationError naming the worst
parameter, so a wrong result cannot pass silently.
"""

import copy

#: Normwise distance from float64 always accepted.
TOLERANCE = 1e-4
#: How much further from float64 than eager (in the model's precision) the
#: compiled step may be.
FLOAT32_FACTOR = 1.5
#: Per-parameter norms are floored at this fraction of the whole gradient's.
NORM_FLOOR = 1e-3
#: Eager runs in the model's precision on inputs and parameters moved by
#: about one rounding, besides the run on the exact ones.
PERTURBED_RUNS = 2


class VerificationError(RuntimeError):
    """The compiled step's loss or a gradient is further from eager float64
    than the bound. `parameter` names the worst one (`loss` for the loss),
    `error` is its normwise distance from float64 and `eager_error` eager's
    in the model's own precision."""

    def __init__(self, message, parameter, error, eager_error):
        super().__init__(message)
        self.parameter = parameter
        self.error = error
        self.eager_error = eager_error


def _double(value):
    import torch
    if isinstance(value, torch.Tensor) and value.is_floating_point():
        return value.detach().double()
    return value


def _perturbed(tensor, generator):
    """`tensor` moved by relative noise of its dtype's epsilon (floating
    tensors only)."""
    import torch
    if not isinstance(tensor, torch.Tensor) or not tensor.is_floating_point():
        return tensor
    noise = torch.randn(tensor.shape, generator=generator, dtype=torch.float64)
    epsilon = torch.finfo(tensor.dtype).eps
    return (tensor.detach().double() * (1 + epsilon * noise)).to(tensor.dtype)


def _eager(model, loss_fn, inputs, targets, names, dtype=None, seed=None):
    """Loss and {name: gradient} of eager autograd on a copy of `model`
    (in float64 with `dtype`), the parameters of `names` only; with `seed`,
    its floating parameters and inputs perturbed (_perturbed)."""
    import torch
    model = copy.deepcopy(model)
    if dtype is not None:
        model = model.to(dtype)
        inputs = tuple(_double(t) for t in inputs)
        targets = tuple(_double(t) for t in targets)
    if seed is not None:
        generator = torch.Generator().manual_seed(seed)
        with torch.no_grad():
            for parameter in model.parameters():
                parameter.copy_(_perturbed(parameter, generator))
        inputs = tuple(_perturbed(t, generator) for t in inputs)
    parameters = dict(model.named_parameters(remove_duplicate=False))
    wanted = [parameters[name] for name in names]
    loss = loss_fn(model(*inputs), *targets)
    grads = torch.autograd.grad(loss, wanted, allow_unused=True)
    return loss.detach().double(), {
        name: (g if g is not None else torch.zeros_like(p)).detach().double()
        for name, p, g in zip(names, wanted, grads)}


def check(model, loss_fn, inputs, targets, loss, gradients):
    """Raises VerificationError when `loss` and `gradients` ({parameter
    name: tensor}, the compiled step's for `model` before its update) are
    not as close to eager float64 autograd as the bound allows; returns the
    rows checked, (name, error, eager error), worst first."""
    import torch
    names = list(gradients)
    reference_loss, reference = _eager(model, loss_fn, inputs, targets, names,
                                       dtype=torch.float64)
    eager_runs = [_eager(model, loss_fn, inputs, targets, names, seed=seed)
                  for seed in [None] + list(range(PERTURBED_RUNS))]
    total = float(torch.linalg.vector_norm(
        torch.cat([g.reshape(-1) for g in reference.values()]))) if reference else 0.0

    def distance(got, want, floor):
        scale = max(float(torch.linalg.vector_norm(want)), floor, 1e-30)
        return float(torch.linalg.vector_norm(got.double().cpu() - want)) / scale

    rows = [("loss", distance(loss.reshape(()), reference_loss, 0.0),
             max(distance(run[0], reference_loss, 0.0) for run in eager_runs))]
    floor = NORM_FLOOR * total
    for name in names:
        rows.append((name, distance(gradients[name], reference[name], floor),
                     max(distance(run[1][name], reference[name], floor) for run in eager_runs)))
    rows.sort(key=lambda row: row[1] / max(TOLERANCE, FLOAT32_FACTOR * row[2]), reverse=True)
    name, error, eager_error = rows[0]
    if error > max(TOLERANCE, FLOAT32_FACTOR * eager_error):
        raise VerificationError(
            f"ckpt.torch: the compiled step is wrong at {name}: its "
            f"{'value' if name == 'loss' else 'gradient'} is {error:.2e} from eager float64 "
            f"autograd (normwise), where eager in the model's precision is up to "
            f"{eager_error:.2e} from it (bound: max({TOLERANCE:g}, {FLOAT32_FACTOR:g}x eager's))",
            name, error, eager_error)
    return rows
