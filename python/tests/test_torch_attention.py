"""ckpt.torch's fused attention: `F.scaled_dot_product_attention` exported as
ckpt.attention / ckpt.attention_grad (ckpt.torch.attention). The custom ops'
autograd formula against PyTorch's SDPA; which calls are fused; gradients
of exported steps against eager autograd (rtol 1e-4 / atol 1e-5); HF GPT-2's
measured peak linear in the sequence length with no seq x seq buffer at the
peak.

scripts/test.sh sets CKPT_REQUIRE_TORCH=1, so a missing torch or
torch-mlir fails the suite instead of skipping it.
"""

import copy
import os
import subprocess

import pytest

from torch_required import torch  # noqa: E402 (skips or fails here)

import torch.nn as nn
import torch.nn.functional as F

import ckpt
import ckpt.torch
from ckpt.torch import TrainStep
from ckpt.torch.attention import fused_attention

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("CKPT_BUILD_DIR")


@pytest.mark.parametrize("causal,gqa,scale,masked", [(True, False, None, False),
                                                     (False, False, 0.3, False),
                                                     (True, True, None, False),
                                                     (False, True, None, True)],
                         ids=["causal", "scaled", "grouped-query", "padding-mask"])
def test_custom_ops_equal_sdpa_forward_and_backward(causal, gqa, scale, masked):
    """ckpt::attention's eager implementation and its autograd formula
    (ckpt::attention_backward, from the output and the log-sum-exp) give
    SDPA's output and gradients, in float64; Sq != Sk (top-left causal
    alignment as PyTorch's); a boolean padding mask [B, 1, 1, Sk], one batch
    entry all padding (zeros, not NaN)."""
    generator = torch.Generator().manual_seed(3)
    heads, kv_heads = 4, (2 if gqa else 4)
    q = torch.randn(2, heads, 5, 6, dtype=torch.float64, generator=generator)
    k = torch.randn(2, kv_heads, 7, 6, dtype=torch.float64, generator=generator)
    v = torch.randn(2, kv_heads, 7, 3, dtype=torch.float64, generator=generator)
    grad = torch.randn(2, heads, 5, 3, dtype=torch.float64, generator=generator)
    # The second batch entry all padding: PyTorch's safe softmax gives 0.
    mask = (torch.arange(7) < torch.tensor([[4], [0]]))[:, None, None, :] if masked else None
    inputs = [t.clone().requires_grad_() for t in (q, k, v)]
    reference = [t.clone().requires_grad_() for t in (q, k, v)]
    with fused_attention():
        out = F.scaled_dot_product_attention(*inputs, attn_mask=mask, is_causal=causal,
                                             scale=scale, enable_gqa=gqa)
    expected = F.scaled_dot_product_attention(*reference, attn_mask=mask, is_causal=causal,
                                              scale=scale, enable_gqa=gqa)
    torch.testing.assert_close(out, expected, rtol=1e-10, atol=1e-12)
    out.backward(grad)
    expected.backward(grad)
    for got, want in zip(inputs, reference):
        torch.testing.assert_close(got.grad, want.grad, rtol=1e-10, atol=1e-12)


def test_calls_pytorch_refuses_are_refused():
    """A call PyTorch's SDPA refuses (a mask with is_causal) is not fused:
    SDPA runs and raises, as without ckpt."""
    q = torch.randn(1, 2, 4, 8)
    mask = torch.ones(1, 1, 1, 4, dtype=torch.bool)
    with fused_attention(), pytest.raises(RuntimeError, match="is_causal"):
        F.scaled_dot_product_attention(q, q, q, attn_mask=mask, is_causal=True)


class Attention(nn.Module):
    """Self-attention through SDPA: causal, bidirectional, with a boolean
    padding mask, with an additive (float) padding mask, with dropout, or
    grouped-query (two key/value heads for four query heads)."""

    def __init__(self, kind, width=32, heads=4):
        super().__init__()
        self.kind = kind
        self.heads = heads
        kv_width = width // 2 if kind == "grouped-query" else width
        self.q = nn.Linear(width, width)
        self.kv = nn.Linear(width, 2 * kv_width)
        self.out = nn.Linear(width, width)

    def forward(self, x, lengths):
        b, s, d = x.shape
        q = self.q(x).view(b, s, self.heads, -1).transpose(1, 2)
        kv_heads = self.heads // 2 if self.kind == "grouped-query" else self.heads
        k, v = self.kv(x).view(b, s, 2, kv_heads, -1).permute(2, 0, 3, 1, 4)
        if self.kind in ("padding-mask", "additive-mask"):
            mask = torch.arange(s).view(1, s) < lengths.view(b, 1)
            if self.kind == "additive-mask":
                mask = torch.zeros(b, s).masked_fill(~mask, float("-inf"))
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask[:, None, None, :])
        elif self.kind == "dropout":
            y = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5, is_causal=True)
        else:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=self.kind != "bidirectional",
                                               enable_gqa=self.kind == "grouped-query")
        return self.out(y.transpose(1, 2).reshape(b, s, d))


class Stack(nn.Module):
    """Three residual attention layers (`layer(kind)`: Attention or
    WrittenOut) with a GELU between: room for remat."""

    def __init__(self, kind, layer=None):
        super().__init__()
        self.layers = nn.ModuleList((layer or Attention)(kind) for _ in range(3))

    def forward(self, x, lengths):
        for layer in self.layers:
            x = x + F.gelu(layer(x, lengths))
        return x


def mse(y, target):
    return ((y - target) ** 2).mean()


def example(kind, seed=4):
    torch.manual_seed(seed)
    x = torch.randn(4, 64, 32)
    lengths = torch.tensor([64, 10, 0, 47])  # one entry all padding
    return Stack(kind), x, lengths, torch.randn(4, 64, 32)


@pytest.mark.parametrize("kind,fused", [("causal", 6), ("bidirectional", 6),
                                        ("grouped-query", 6), ("padding-mask", 6),
                                        ("additive-mask", 0), ("dropout", 0)])
def test_which_calls_are_fused(kind, fused):
    """A call without dropout and with no mask or a boolean padding mask
    becomes a ckpt.attention and a ckpt.attention_grad (the mask as their
    key_mask); one with an additive mask or dropout keeps the math form
    (matmuls and a softmax); `fused_attention=False` keeps it for all."""
    model, x, lengths, target = example(kind)
    step = ckpt.torch.export_training_step(model, (x, lengths), mse, targets=(target,))
    assert step.mlir.count('"ckpt.attention"') + step.mlir.count('"ckpt.attention_grad"') \
        == fused
    if kind == "padding-mask":
        assert step.mlir.count("xi1>) -> (tensor<") >= 6  # each op's last operand
    if kind == "causal":  # one kind is enough for the switch
        unfused = ckpt.torch.export_training_step(model, (x, lengths), mse, targets=(target,),
                                                  fused_attention=False)
        assert "ckpt.attention" not in unfused.mlir


def step_equals_eager(model, x, lengths, target):
    """A TrainStep of `model` (one call) against eager autograd on a copy:
    loss and gradients within rtol 1e-4 / atol 1e-5. Returns (step, the
    untouched copy)."""
    reference = copy.deepcopy(model)
    untouched = copy.deepcopy(model)
    step = TrainStep(model, mse, (x, lengths), (target,), build=BUILD, threads=1)
    loss = step(x, lengths, target)
    expected = mse(reference(x, lengths), target)
    expected.backward()
    torch.testing.assert_close(loss, expected, rtol=1e-4, atol=1e-5)
    for (name, p), want in zip(model.named_parameters(), reference.parameters()):
        torch.testing.assert_close(p.grad, want.grad, rtol=1e-4, atol=1e-5, msg=name)
    return step, untouched


@pytest.mark.parametrize("kind", ["causal", "bidirectional", "grouped-query", "padding-mask"])
def test_fused_gradients_equal_eager(kind):
    """Loss and gradients of the fused step equal eager autograd's (SDPA's
    own CPU kernel) within rtol 1e-4 / atol 1e-5; with the padding mask,
    remat at 0.6 leaves every output bit-identical and meets the budget."""
    model, x, lengths, target = example(kind)
    step, untouched = step_equals_eager(model, x, lengths, target)
    assert '"ckpt.attention"' in step.exported.mlir
    if kind != "padding-mask":
        return  # remat over the fused ops: checked once, on the masked kind
    exported = step.exported
    arguments = exported.arguments(untouched, (x, lengths), (target,))
    baseline = ckpt.run(exported.mlir, exported.entry, inputs=arguments, threads=1)
    remat = ckpt.run(exported.mlir, exported.entry, inputs=arguments, budget="0.6", threads=1)
    report = remat.report["functions"][0]
    assert report["recompute_count"] > 0 and report["budget_met"]
    assert remat.peak_bytes <= report["budget_bytes"]
    assert all(a.tobytes() == b.tobytes() for a, b in zip(baseline.outputs, remat.outputs))


class WrittenOut(nn.Module):
    """Attention written out by hand (matmul, scale, mask, softmax, matmul)
    in the ways models write it; see test_written_out_attention."""

    def __init__(self, kind, width=32, heads=4):
        super().__init__()
        self.kind, self.heads = kind, heads
        self.qkv = nn.Linear(width, 3 * width)
        self.out = nn.Linear(width, width)

    def forward(self, x, lengths):
        b, s, d = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        scores = torch.matmul(q, k.transpose(-2, -1)) / (d // self.heads) ** 0.5
        causal = torch.ones(s, s, dtype=torch.bool).tril()
        if self.kind == "additive-causal":
            mask = torch.zeros(s, s).masked_fill(~causal, torch.finfo(torch.float32).min)
            scores = scores + mask
        elif self.kind == "masked-fill-causal":
            scores = scores.masked_fill(~causal, float("-inf"))
        elif self.kind == "where-padding":
            # A constant key mask (the last 5 positions padded), as torch.where.
            keep = (torch.arange(s) < s - 5).view(1, 1, 1, s)
            scores = torch.where(keep, scores, -1e30)
        elif self.kind == "input-mask":
            keep = torch.arange(s).view(1, s) < lengths.view(b, 1)
            scores = scores + torch.zeros(b, 1, 1, s).masked_fill(~keep[:, None, None, :], -1e30)
        elif self.kind == "in-place-mask":
            # In place: the scores the matmul made are changed afterwards.
            scores.masked_fill_(~causal, float("-inf"))
        elif self.kind == "in-place-scale":
            scores /= 2.0
        elif self.kind == "random-mask":
            keep = torch.rand_like(torch.ones(s)) > 0.05
            scores = scores.masked_fill(~keep, float("-inf"))
        elif self.kind == "diagonal-band":
            # Not causal, not a key mask: keys within 3 positions only.
            i = torch.arange(s)
            band = (i.view(s, 1) - i.view(1, s)).abs() <= 3
            scores = scores.masked_fill(~band, float("-inf"))
        p = F.softmax(scores, dim=-1).type(v.dtype)
        p = F.dropout(p, p=0.0, training=self.training)
        y = torch.matmul(p, v)
        return self.out(y.transpose(1, 2).reshape(b, s, d))


@pytest.mark.parametrize("kind,fused", [("additive-causal", 3), ("masked-fill-causal", 3),
                                        ("where-padding", 3), ("input-mask", 0),
                                        ("diagonal-band", 0), ("in-place-mask", 0),
                                        ("in-place-scale", 0)])
def test_written_out_attention(kind, fused):
    """Attention written out by hand is recognized while the step is traced
    when its mask is known then: a causal mask added (0 / float32's minimum)
    or filled in (-inf), a constant key mask through torch.where. A mask
    from a step input (lengths), one that is neither causal nor a key mask
    (a band), and scores changed in place (masked_fill_, /=) keep the math
    form. Gradients equal eager's either way."""
    torch.manual_seed(8)
    model = Stack(kind, WrittenOut)
    x = torch.randn(4, 32, 32)
    lengths = torch.tensor([32, 10, 3, 17])
    target = torch.randn(4, 32, 32)
    step, _ = step_equals_eager(model, x, lengths, target)
    assert step.exported.mlir.count('"ckpt.attention"') == fused
    assert step.exported.mlir.count('"ckpt.attention_grad"') == fused


def test_unrepeatable_masks_and_autocast_keep_the_math_form():
    """A mask drawn at random (rand_like) gets no shadow: a second draw
    beside the trace would not be the step's mask. Under autocast the
    matmuls (and SDPA) run in autocast's dtype: neither form is fused."""
    torch.manual_seed(9)
    x, lengths, target = torch.randn(2, 16, 32), torch.tensor([16, 5]), torch.randn(2, 16, 32)
    random = ckpt.torch.export_training_step(WrittenOut("random-mask"), (x, lengths), mse,
                                             targets=(target,))
    assert "ckpt.attention" not in random.mlir and random.random
    for model in (WrittenOut("additive-causal"), Attention("causal")):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            step = ckpt.torch.export_training_step(model, (x, lengths), mse, targets=(target,))
        assert "ckpt.attention" not in step.mlir and "bf16" in step.mlir


def hf_gpt2_peak(seq, tmp_path, attention="sdpa"):
    """HF GPT-2's (SDPA) exported step at `seq`, run: (measured peak bytes,
    ckpt-report's largest buffers at the peak, (model, inputs, targets,
    loss_fn, exported step, its outputs))."""
    from ckpt.torch.zoo import gpt2
    model, inputs, targets, loss_fn = gpt2(attention=attention, seq=seq, batch=2, n_embd=48,
                                           n_head=4)
    exported = ckpt.torch.export_training_step(model, inputs, loss_fn, targets=targets)
    path = tmp_path / f"gpt2-{seq}.mlir"
    path.write_text(exported.mlir)
    build = BUILD or os.path.join(ROOT, "build")
    report = subprocess.run([os.path.join(build, "bin", "ckpt-opt"), str(path),
                             "--ckpt-tensor-prep", "--ckpt-report", "-o", os.devnull],
                            capture_output=True, text=True, check=True).stdout
    largest = report.split("largest buffers alive at the peak:")[-1]
    result = ckpt.run(exported.mlir, exported.entry,
                      inputs=exported.arguments(model, inputs, targets), threads=1)
    return result.peak_bytes, largest, (model, inputs, targets, loss_fn, exported,
                                        result.outputs)


@pytest.mark.parametrize("attention", ["sdpa", "eager"])
def test_hf_gpt2_peak_is_linear_in_the_sequence(tmp_path, attention):
    """HF GPT-2 with SDPA (its default) and with its `eager` attention
    (written out, recognized while tracing): doubling the sequence at most
    2.2x the measured peak, no (seq, seq) buffer among the largest at the
    peak (width 48: its MLP's 192 is no sequence length here), and the
    step's loss and gradients equal eager autograd's."""
    small, largest_small, _ = hf_gpt2_peak(128, tmp_path, attention)
    large, largest_large, (model, inputs, targets, loss_fn, exported, outputs) = \
        hf_gpt2_peak(256, tmp_path, attention)
    assert exported.mlir.count('"ckpt.attention"') == 2
    assert large <= 2.2 * small, (small, large)
    assert "x128x128x" not in largest_small and "x256x256x" not in largest_large
    loss = loss_fn(model(*inputs), *targets)
    loss.backward()
    results = dict(zip(exported.result_names, outputs))
    torch.testing.assert_close(torch.from_numpy(results["loss"]), loss.detach(),
                               rtol=1e-4, atol=1e-5)
    for name, parameter in model.named_parameters():
        if f"grad:{name}" in results:
            torch.testing.assert_close(torch.from_numpy(results[f"grad:{name}"]),
                                       parameter.grad, rtol=1e-4, atol=1e-5, msg=name)
