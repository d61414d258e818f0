"""Mixed precision through ckpt.torch: `torch.autocast` steps against
PyTorch's own autocast (bf16 gradients within normwise 1e-2, reductions
accumulated in f32), remat bit-identical under autocast, and a GradScaler
driving TrainStep exactly as it drives `loss.backward()`: scaled gradients,
overflowing steps skipped, the same scale after every update.

scripts/test.sh sets CKPT_REQUIRE_TORCH=1, so a missing torch or
torch-mlir fails the suite instead of skipping it.
"""

import copy
import os

import pytest

from torch_required import torch  # noqa: E402 (skips or fails here)

import torch.nn as nn
import torch.nn.functional as F

from ckpt.torch import TrainStep, export_training_step, models

BUILD = os.environ.get("CKPT_BUILD_DIR")


def Decoder(layers=2):
    """ckpt.torch.models.Decoder at this test's sizes: embedding, causal
    nn.TransformerEncoderLayers (GELU MLP), LayerNorm and a head: the
    matmuls autocast to the narrow type, the softmax, norms and loss stay
    in f32, the embedding gradient is summed in f32."""
    return models.Decoder(vocab=32, dim=32, heads=4, layers=layers)


def lm_loss(logits, labels):
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))


def data(seed=0, batch=4, seq=32, vocab=32, steps=4):
    generator = torch.Generator().manual_seed(seed)
    return [(torch.randint(0, vocab, (batch, seq), generator=generator),
             torch.randint(0, vocab, (batch, seq), generator=generator)) for _ in range(steps)]


def normwise(got, want):
    got = torch.cat([g.detach().double().reshape(-1) for g in got])
    want = torch.cat([w.detach().double().reshape(-1) for w in want])
    return float(torch.linalg.vector_norm(got - want) / torch.linalg.vector_norm(want))


def grads(model):
    return [p.grad for p in model.parameters()]


def test_bf16_autocast_gradients_match_pytorch_autocast_and_remat_is_bit_identical():
    torch.manual_seed(0)
    model = Decoder().train()
    (tokens, labels), = data(steps=1)
    eager, plain, remat = (copy.deepcopy(model) for _ in range(3))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        lm_loss(eager(tokens), labels).backward()
        plain_step = TrainStep(plain, lm_loss, (tokens,), (labels,), build=BUILD)
        remat_step = TrainStep(remat, lm_loss, (tokens,), (labels,), budget="0.7", build=BUILD)
        loss = plain_step(tokens, labels)
        remat_loss = remat_step(tokens, labels)
    # The step computes in bf16: the matmuls' operands are bf16 in the IR.
    assert "bf16" in plain_step.exported.mlir
    # Gradients are the parameters' dtype (f32), as autograd gives them.
    assert all(p.grad.dtype == torch.float32 for p in plain.parameters())
    with torch.autocast("cpu", dtype=torch.bfloat16):
        want_loss = lm_loss(copy.deepcopy(model)(tokens), labels)
    torch.testing.assert_close(loss, want_loss.float(), rtol=1e-2, atol=0)
    assert normwise(grads(plain), grads(eager)) <= 1e-2
    # bf16 itself: eager f32 is further from eager autocast than ckpt is.
    reference = copy.deepcopy(model)
    lm_loss(reference(tokens), labels).backward()
    assert normwise(grads(plain), grads(eager)) < normwise(grads(reference), grads(eager))
    # Remat under autocast: bit-identical, within its budget.
    assert torch.equal(loss, remat_loss)
    for p, q in zip(plain.parameters(), remat.parameters()):
        assert torch.equal(p.grad, q.grad)
    report = remat_step.report["functions"][0]
    assert report["recompute_count"] > 0
    assert remat_step.peak_bytes <= report["budget_bytes"]


def test_f16_grad_scaler_skips_overflowing_steps_like_eager():
    torch.manual_seed(1)
    model = Decoder(layers=1).train()
    batches = data(seed=2)
    # The first scale overflows f16 in the backward (inf gradients: the step
    # is skipped and the scale backed off to 2**12); then two good steps
    # grow it to 2**13.
    settings = dict(init_scale=2.0 ** 40, backoff_factor=2.0 ** -28, growth_interval=2)

    def run(model, compiled):
        scaler = torch.amp.GradScaler("cpu", **settings)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        step = None
        if compiled:
            with torch.autocast("cpu", dtype=torch.float16):
                step = TrainStep(model, lm_loss, batches[0][:1], batches[0][1:], build=BUILD,
                                 grad_scaler=scaler)
        scales, losses, after_first = [], [], None
        for index, (tokens, labels) in enumerate(batches):
            optimizer.zero_grad()
            with torch.autocast("cpu", dtype=torch.float16):
                if compiled:
                    loss = step(tokens, labels)
                else:
                    loss = lm_loss(model(tokens), labels)
            if not compiled:
                scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
            scales.append(scaler.get_scale())
            losses.append(float(loss.detach()))
            if index == 0:
                after_first = copy.deepcopy(model.state_dict())
        return scales, losses, after_first, step

    eager, compiled = copy.deepcopy(model), copy.deepcopy(model)
    eager_scales, eager_losses, _, _ = run(eager, False)
    scales, losses, after_first, step = run(compiled, True)
    assert step.exported.scaled
    assert scales == eager_scales == [2.0 ** 12, 2.0 ** 12, 2.0 ** 13, 2.0 ** 13]
    # The overflowing step changed nothing.
    for name, value in model.state_dict().items():
        assert torch.equal(after_first[name], value), name
    torch.testing.assert_close(torch.tensor(losses), torch.tensor(eager_losses), rtol=1e-2, atol=0)
    assert normwise(list(compiled.parameters()), list(eager.parameters())) <= 1e-2


def test_scaled_export_takes_a_scale_and_returns_the_unscaled_loss():
    torch.manual_seed(2)
    model = nn.Sequential(nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 4))
    x, y = torch.randn(16, 8), torch.randn(16, 4)

    def loss_fn(out, target):
        return ((out - target) ** 2).mean()

    exported = export_training_step(model, (x,), loss_fn, targets=(y,), loss_scale=True)
    assert exported.argument_names[-1] == "scale:loss"
    with pytest.raises(ValueError, match="exported with a loss scale"):
        exported.argument_tensors(model, (x,), (y,))
    with pytest.raises(TypeError, match="grad_scaler must be a torch.amp.GradScaler"):
        TrainStep(model, loss_fn, (x,), (y,), grad_scaler=object(), build=BUILD)
    step = TrainStep(model, loss_fn, (x,), (y,), build=BUILD,
                     grad_scaler=torch.amp.GradScaler("cpu", init_scale=256.0))
    reference = copy.deepcopy(model)
    loss = step(x, y)
    want = loss_fn(reference(x), y)
    (want * 256.0).backward()
    torch.testing.assert_close(loss, want.detach(), rtol=1e-6, atol=0)
    assert normwise(grads(model), grads(reference)) <= 1e-6
