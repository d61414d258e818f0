"""ckpt.attention on the CPU: the fused op against a numpy reference, and the
zoo GPT with its attention raised (memory linear in the sequence length,
outputs equal to the unfused build's within f32 rounding and to PyTorch eager
autograd's within rtol 1e-4 / atol 1e-5, remat exact)."""

import importlib.util
import os
import subprocess

import numpy
import pytest

import ckpt
from ckpt.models.transformer import transformer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("CKPT_BUILD_DIR", os.path.join(ROOT, "build"))


def attention_module(batch, rows, keys, d, dv, dtype, causal, scale, masked=False):
    """@attend(q, k, v[, lo, hi]): ckpt.attention, with a key mask lo[b] <= j
    < hi[b] (from two i64 vectors) when `masked`."""
    def ty(*shape):
        return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"
    flag = "causal " if causal else ""
    bounds, mask, key_mask = "", "", ""
    if masked:
        bounds = f", %lo: tensor<{batch}xi64>, %hi: tensor<{batch}xi64>"
        key_mask = f" key_mask(%mask : tensor<{batch}x{keys}xi1>)"
        mask = f"""
  %me = tensor.empty() : tensor<{batch}x{keys}xi1>
  %mask = linalg.generic {{indexing_maps = [affine_map<(b, j) -> (b)>, affine_map<(b, j) -> (b)>,
                                           affine_map<(b, j) -> (b, j)>],
                           iterator_types = ["parallel", "parallel"]}}
      ins(%lo, %hi : tensor<{batch}xi64>, tensor<{batch}xi64>) outs(%me : tensor<{batch}x{keys}xi1>) {{
  ^bb0(%a: i64, %z: i64, %unused: i1):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %above = arith.cmpi sge, %ji, %a : i64
    %below = arith.cmpi slt, %ji, %z : i64
    %in = arith.andi %above, %below : i1
    linalg.yield %in : i1
  }} -> tensor<{batch}x{keys}xi1>"""
    return f"""
func.func @attend(%q: {ty(batch, rows, d)}, %k: {ty(batch, keys, d)}, %v: {ty(batch, keys, dv)}{bounds})
    -> ({ty(batch, rows, dv)}, {ty(batch, rows)}) {{{mask}
  %e = tensor.empty() : {ty(batch, rows, dv)}
  %l = tensor.empty() : {ty(batch, rows)}
  %o, %lse = ckpt.attention {flag}scale({scale}){key_mask}
      ins(%q, %k, %v : {ty(batch, rows, d)}, {ty(batch, keys, d)}, {ty(batch, keys, dv)})
      outs(%e, %l : {ty(batch, rows, dv)}, {ty(batch, rows)}) -> {ty(batch, rows, dv)}, {ty(batch, rows)}
  return %o, %lse : {ty(batch, rows, dv)}, {ty(batch, rows)}
}}
"""


def reference(q, k, v, causal, scale, key_mask=None):
    scores = scale * numpy.einsum("bid,bjd->bij", q.astype(numpy.float64), k.astype(numpy.float64))
    if key_mask is not None:
        scores = numpy.where(key_mask[:, None, :], scores, -numpy.inf)
    if causal:
        rows, keys = scores.shape[1:]
        later = numpy.arange(keys)[None, :] > numpy.arange(rows)[:, None]
        scores = numpy.where(later, -numpy.inf, scores)
    top = scores.max(axis=-1, keepdims=True)
    empty = numpy.isneginf(top)  # rows without keys: output 0, lse -inf
    exps = numpy.exp(scores - numpy.where(empty, 0.0, top))
    sums = exps.sum(axis=-1, keepdims=True)
    out = numpy.einsum("bij,bje->bie", exps / numpy.where(empty, 1.0, sums),
                       v.astype(numpy.float64))
    return out, numpy.where(empty, -numpy.inf, top + numpy.log(sums))[..., 0]


@pytest.mark.parametrize("dtype,causal,threads", [("f64", True, 1), ("f32", False, 1),
                                                   ("f32", True, 2)])
def test_attention_matches_reference(dtype, causal, threads):
    # More keys than queries, value width unlike the head width; scores large
    # enough (scale 2) that a softmax without its maximum shift would lose
    # digits.
    batch, rows, keys, d, dv, scale = 3, 17, 23, 8, 5, 2.0
    rng = numpy.random.default_rng(7)
    np_type = numpy.float64 if dtype == "f64" else numpy.float32
    q, k, v = (rng.standard_normal(shape).astype(np_type)
               for shape in ((batch, rows, d), (batch, keys, d), (batch, keys, dv)))
    result = ckpt.run(attention_module(batch, rows, keys, d, dv, dtype, causal, scale), "attend",
                      inputs=[q, k, v], iterations=1, threads=threads)
    out, lse = reference(q, k, v, causal, scale)
    tolerance = 1e-12 if dtype == "f64" else 2e-6
    assert numpy.abs(result.outputs[0] - out).max() <= tolerance * numpy.abs(out).max()
    assert numpy.abs(result.outputs[1] - lse).max() <= tolerance * numpy.abs(lse).max()
    # The op allocates nothing beyond its results (each rounded up to the
    # 64-byte alignment the runtime is asked for).
    def aligned(array):
        return -(-array.size * q.itemsize // 64) * 64
    assert result.step_peak_bytes == aligned(out) + aligned(lse)


@pytest.mark.parametrize("causal", [True, False], ids=["causal", "bidirectional"])
def test_key_mask_matches_reference(causal):
    """A key padding mask over 150 keys (three blocks of 64): a prefix
    (padding at the end), a window, and, without causality, keys from 70 on
    only (the first block masked entirely: its exponentials must not poison
    the row's sum); a fourth batch entry masks every key (all padding): its
    rows have output 0 and log-sum-exp -inf, as PyTorch's SDPA gives."""
    batch, rows, keys, d, dv, scale = 4, 17, 150, 8, 5, 0.5
    rng = numpy.random.default_rng(11)
    q, k, v = (rng.standard_normal(shape) for shape in
               ((batch, rows, d), (batch, keys, d), (batch, keys, dv)))
    lo = numpy.array([0, 0 if causal else 70, 0 if causal else 3, 0], dtype=numpy.int64)
    hi = numpy.array([150, 9 if causal else 150, 140, 0], dtype=numpy.int64)
    result = ckpt.run(attention_module(batch, rows, keys, d, dv, "f64", causal, scale,
                                       masked=True),
                      "attend", inputs=[q, k, v, lo, hi], iterations=1)
    mask = (numpy.arange(keys)[None, :] >= lo[:, None]) & (numpy.arange(keys)[None, :] < hi[:, None])
    out, lse = reference(q, k, v, causal, scale, mask)
    assert numpy.all(numpy.isfinite(result.outputs[0]))
    assert numpy.abs(result.outputs[0] - out).max() <= 1e-12 * numpy.abs(out).max()
    assert numpy.all(result.outputs[0][3] == 0) and numpy.all(numpy.isneginf(result.outputs[1][3]))
    finite = numpy.isfinite(lse)
    assert numpy.abs(result.outputs[1][finite] - lse[finite]).max() <= \
        1e-12 * numpy.abs(lse[finite]).max()


def gpt_step(seq, raise_attention=True):
    forward = transformer(layers=2, seq=seq, d=64, heads=4, vocab=64)
    option = "" if raise_attention else " raise-attention=0"
    return subprocess.run([os.path.join(BUILD, "bin", "ckpt-opt"),
                           f"--ckpt-autodiff=function=loss{option}"], input=forward,
                          capture_output=True, text=True, check=True).stdout


def test_gpt_peak_grows_linearly_in_sequence():
    # Doubling the sequence at most a bit more than doubles the peak with the
    # raised attention (parameters stay, activations double); the unfused
    # build keeps heads x seq x seq probabilities per layer and grows faster.
    fused = {s: ckpt.run(gpt_step(s), "loss_grad", iterations=1).peak_bytes for s in (128, 256)}
    unfused = {s: ckpt.run(gpt_step(s, False), "loss_grad", iterations=1).peak_bytes
               for s in (128, 256)}
    assert fused[256] <= 2.2 * fused[128]
    assert unfused[256] > 2.2 * unfused[128]
    assert fused[256] < unfused[256]


def test_gpt_raised_equals_unfused_and_remats_exactly():
    step = gpt_step(64)
    fused = ckpt.run(step, "loss_grad", iterations=1)
    unfused = ckpt.run(gpt_step(64, False), "loss_grad", iterations=1)
    for a, b in zip(fused.outputs, unfused.outputs):
        assert numpy.linalg.norm(a - b) <= 1e-5 * max(numpy.linalg.norm(b), 1e-30)
    remat = ckpt.run(step, "loss_grad", iterations=1, budget="0.9")
    assert all(numpy.array_equal(a, b) for a, b in zip(fused.outputs, remat.outputs))
    report = remat.report["functions"][0]
    assert report["peak_bytes"] == remat.peak_bytes
    assert remat.peak_bytes <= report["budget_bytes"]
    assert report["recompute_count"] > 0


def test_gpt_raised_gradients_equal_eager_pytorch():
    # The zoo GPT without a vocabulary is python/ckpt/gpu/torch_gpt.py's
    # model; its raised step against PyTorch eager autograd (unfused
    # attention, float32) on the same arguments.
    pytest.importorskip("torch")
    spec = importlib.util.spec_from_file_location(
        "torch_gpt", os.path.join(ROOT, "python", "ckpt", "gpu", "torch_gpt.py"))
    torch_gpt = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(torch_gpt)
    layers, seq, d, heads = 2, 64, 32, 4
    forward = transformer(layers=layers, seq=seq, d=d, heads=heads)
    step = subprocess.run([os.path.join(BUILD, "bin", "ckpt-opt"),
                           "--ckpt-autodiff=function=loss"], input=forward,
                          capture_output=True, text=True, check=True).stdout
    assert "ckpt.attention_grad" in step
    shapes = [(seq, d), (seq, d)] + [shape for _ in range(layers) for shape in
                                     ((d,), (d,), (d, d), (d, d), (d, d), (d, d), (d,), (d,),
                                      (d, 4 * d), (4 * d, d))]
    arrays = torch_gpt.ckpt_inputs(shapes)
    expected = torch_gpt.loss_and_gradients(arrays, heads, device="cpu")
    result = ckpt.run(step, "loss_grad", inputs=arrays, iterations=1)
    assert len(result.outputs) == len(expected)
    for got, want in zip(result.outputs, expected):
        numpy.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
