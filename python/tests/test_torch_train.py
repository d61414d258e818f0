"""ckpt.torch.TrainStep: a compiled training step in a real training loop,
against eager PyTorch (`loss.backward()` and `optimizer.step()`), and the
functional export underneath it: in-place ops, BatchNorm statistics, tied,
frozen and unused parameters, SDPA with its masks, and the errors of
unsupported constructs.

scripts/test.sh sets CKPT_REQUIRE_TORCH=1, so a missing torch or
torch-mlir fails the suite instead of skipping it.
"""

import copy
import json
import os

import pytest

from torch_required import torch  # noqa: E402 (skips or fails here)

import torch.nn as nn
import torch.nn.functional as F

import ckpt.torch
from ckpt.torch import ExportError, TrainStep
from ckpt.torch.models import decoder_example

BUILD = os.environ.get("CKPT_BUILD_DIR")


class Block(nn.Module):
    """Linear, BatchNorm with running statistics, an in-place residual add
    and an in-place ReLU (torchvision's residual block): what the
    checkpointing guides warn about."""

    def __init__(self, width):
        super().__init__()
        self.linear = nn.Linear(width, width)
        self.norm = nn.BatchNorm1d(width)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        y = self.norm(self.linear(x))
        y += x
        return self.act(y)


class Net(nn.Module):
    """Tied input and output weights, a frozen scale, a parameter the loss
    does not use."""

    def __init__(self, vocab=16, width=32, blocks=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.blocks = nn.Sequential(*[Block(width) for _ in range(blocks)])
        self.head = nn.Linear(width, vocab, bias=False)
        self.head.weight = self.embed.weight
        self.scale = nn.Parameter(torch.full((width,), 0.5), requires_grad=False)
        self.unused = nn.Linear(width, width)

    def forward(self, tokens):
        return self.head(self.blocks(self.embed(tokens) * self.scale))


def assert_normwise_close(got, want, tolerance=1e-5):
    """All tensors together within a normwise relative tolerance: some
    gradients are zero in exact arithmetic (a bias before BatchNorm) and
    rounding noise alone, which no elementwise tolerance fits."""
    got = torch.cat([g.detach().double().reshape(-1) for g in got])
    want = torch.cat([w.detach().double().reshape(-1) for w in want])
    error = float(torch.linalg.vector_norm(got - want) / torch.linalg.vector_norm(want))
    assert error <= tolerance, error


def grads(model):
    return [p.grad for p in model.parameters() if p.grad is not None]


def lm_loss(logits, labels):
    return F.cross_entropy(logits, labels)


def net_and_data(seed=0, batch=256):
    torch.manual_seed(seed)
    model = Net().train()
    generator = torch.Generator().manual_seed(seed + 1)
    batches = [(torch.randint(0, 16, (batch,), generator=generator),
                torch.randint(0, 16, (batch,), generator=generator)) for _ in range(5)]
    return model, batches


def train(model, batches, step=None, lr=0.05):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    losses = []
    for tokens, labels in batches:
        optimizer.zero_grad()
        if step is None:
            loss = lm_loss(model(tokens), labels)
            loss.backward()
        else:
            loss = step(tokens, labels)
        losses.append(loss.detach())
        optimizer.step()
    return torch.stack(losses)


def test_five_steps_equal_eager_and_remat_is_bit_identical():
    model, batches = net_and_data()
    eager, plain, remat = copy.deepcopy(model), copy.deepcopy(model), copy.deepcopy(model)
    tokens, labels = batches[0]
    plain_step = TrainStep(plain, lm_loss, (tokens,), (labels,), build=BUILD)
    remat_step = TrainStep(remat, lm_loss, (tokens,), (labels,), budget="0.7", build=BUILD)
    expected = train(eager, batches)
    got = train(plain, batches, plain_step)
    rematerialized = train(remat, batches, remat_step)
    torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-6)
    assert torch.equal(got, rematerialized)
    for (name, a), (_, b) in zip(plain.state_dict().items(), remat.state_dict().items()):
        assert torch.equal(a, b), name
    assert_normwise_close(plain.state_dict().values(), eager.state_dict().values(), 1e-4)
    # Running statistics updated once per step, as eager does (a runtime
    # checkpoint wrapper would update them again when it recomputes).
    assert int(plain.blocks[0].norm.num_batches_tracked) == 5
    assert int(remat.blocks[0].norm.num_batches_tracked) == 5
    report = remat_step.report["functions"][0]
    assert report["recompute_count"] > 0
    assert remat_step.peak_bytes <= report["budget_bytes"] <= 0.7 * plain_step.peak_bytes + 64


def test_thread_count_is_checked():
    model, batches = net_and_data()
    with pytest.raises(ValueError, match="threads must be a positive integer"):
        TrainStep(model, lm_loss, batches[0][0:1], batches[0][1:2], threads=0, build=BUILD)


def test_tied_frozen_and_unused_parameters():
    model, batches = net_and_data(seed=3)
    step = TrainStep(model, lm_loss, batches[0][0:1], batches[0][1:2], build=BUILD)
    names = step.exported.argument_names
    # One gradient for the tied embedding and head, none for the frozen
    # scale or the unused layer, whose .grad stays None as under autograd.
    assert step.exported.parameters.count("embed.weight") == 1
    assert "head.weight" not in step.exported.parameters
    assert "frozen:scale" in names and "frozen:unused.weight" in names
    reference = copy.deepcopy(model)
    step(*batches[0])
    lm_loss(reference(batches[0][0]), batches[0][1]).backward()
    assert model.unused.weight.grad is None and reference.unused.weight.grad is None
    assert model.scale.grad is None
    assert_normwise_close([model.embed.weight.grad], [reference.embed.weight.grad])


def test_gradients_accumulate_like_backward():
    model, batches = net_and_data(seed=1)
    reference = copy.deepcopy(model)
    step = TrainStep(model, lm_loss, *[(t,) for t in batches[0]], build=BUILD)
    for tokens, labels in batches[:2]:
        step(tokens, labels)
        lm_loss(reference(tokens), labels).backward()
    for (name, p), (_, q) in zip(model.named_parameters(), reference.named_parameters()):
        assert (p.grad is None) == (q.grad is None), name
    assert_normwise_close(grads(model), grads(reference))


def test_new_shapes_and_eval_mode_build_again():
    model, batches = net_and_data(seed=2)
    reference = copy.deepcopy(model)
    step = TrainStep(model, lm_loss, *[(t,) for t in batches[0]], build=BUILD)
    tokens, labels = batches[1]
    small = (tokens[:64], labels[:64])
    torch.testing.assert_close(step(*small), lm_loss(reference(small[0]), small[1]),
                               rtol=1e-5, atol=1e-6)
    model.eval()
    reference.eval()
    before = copy.deepcopy(model.state_dict())
    loss = step(tokens, labels)
    torch.testing.assert_close(loss, lm_loss(reference(tokens), labels), rtol=1e-5, atol=1e-6)
    # Eval mode: BatchNorm reads its running statistics and writes nothing.
    assert not step.exported.updated_buffers
    for name, value in model.state_dict().items():
        assert torch.equal(value, before[name]), name


class Attention(nn.Module):
    def __init__(self, width=32, heads=4, causal=True):
        super().__init__()
        self.qkv = nn.Linear(width, 3 * width)
        self.out = nn.Linear(width, width)
        self.heads = heads
        self.causal = causal

    def forward(self, x, mask):
        b, s, d = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        if self.causal:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask[:, None, None, :])
        return self.out(y.transpose(1, 2).reshape(b, s, d))


@pytest.mark.parametrize("causal", [True, False], ids=["causal", "padding-mask"])
def test_scaled_dot_product_attention_with_masks(causal):
    torch.manual_seed(4)
    model = Attention(causal=causal)
    x = torch.randn(8, 64, 32)
    mask = torch.arange(64).view(1, 64) < torch.tensor([64, 40, 17, 64, 5, 64, 33, 64]).view(8, 1)
    target = torch.randn(8, 64, 32)

    def loss_fn(y, target):
        return ((y - target) ** 2).mean()

    reference = copy.deepcopy(model)
    step = TrainStep(model, loss_fn, (x, mask), (target,), build=BUILD)
    assert not any("flash" in op or "efficient" in op for op in step.exported.aten_ops)
    loss = step(x, mask, target)
    expected = loss_fn(reference(x, mask), target)
    expected.backward()
    torch.testing.assert_close(loss, expected, rtol=1e-5, atol=1e-6)
    assert_normwise_close(grads(model), grads(reference))


def test_fused_qkv_projection_remat_forecast_is_exact():
    """nn.TransformerEncoderLayer projects q, k and v with one matmul and
    slices its result; where remat recomputes that projection, the region
    yields three slices of one buffer. The measured peak equals the
    forecast and meets the budget (bufferization used to copy the slices
    with an offset while the forecast counted views: 3.4% over, budget
    missed)."""
    model, (tokens,), (labels,), loss_fn = decoder_example(vocab=256, seed=5)
    step = TrainStep(model, loss_fn, (tokens,), (labels,), budget="0.5", build=BUILD, threads=1)
    step(tokens, labels)
    report = step.report["functions"][0]
    assert report["recompute_count"] > 0
    assert step.peak_bytes == report["peak_bytes"]
    assert step.peak_bytes <= report["budget_bytes"]


class Special(nn.Module):
    def __init__(self, op):
        super().__init__()
        self.linear = nn.Linear(8, 8)
        self.op = op

    def forward(self, x):
        return self.op(self.linear(x))


def failing_model(op):
    return nn.Sequential(Special(lambda x: x), nn.Sequential(nn.Linear(8, 8), Special(op)))


@pytest.mark.parametrize("op,aten,problem", [
    (torch.erfinv, "aten.erfinv", "cannot lower it to linalg"),
    (lambda x: torch.sort(x, 1)[0], "aten.sort", "tm_tensor.sort"),
    (lambda x: x + torch.randn_like(x), "aten.randn", "no Philox form"),
], ids=["unlowered", "torch-mlir-only", "random"])
def test_unsupported_constructs_name_op_and_module(op, aten, problem):
    with pytest.raises(ExportError) as raised:
        ckpt.torch.export_training_step(failing_model(op), (torch.randn(4, 8),),
                                        lambda y: y.pow(2).mean())
    error = raised.value
    message = str(error)
    assert error.op.startswith(aten) and error.module_path == "1.1"
    assert message.startswith(f"ckpt.torch: {aten}") and "(in 1.1, at " in message
    assert problem in message and "hint: " in message
    assert "\n" not in message and len(message) < 400


def step_like_eager(model, images, labels, budget, grad_tolerance):
    """One cross-entropy TrainStep of `model` without remat and one of a copy
    at `budget`: the loss equals eager's, the gradients within
    `grad_tolerance` (normwise), the remat build's loss and gradients bit for
    bit the plain build's, its budget met. Returns the eager reference, the
    remat copy and its TrainStep."""
    reference, remat = copy.deepcopy(model), copy.deepcopy(model)
    step = TrainStep(model, F.cross_entropy, (images,), (labels,), build=BUILD, threads=1)
    remat_step = TrainStep(remat, F.cross_entropy, (images,), (labels,), budget=budget,
                           build=BUILD, threads=1)
    loss = step(images, labels)
    assert torch.equal(remat_step(images, labels), loss)
    expected = F.cross_entropy(reference(images), labels)
    expected.backward()
    torch.testing.assert_close(loss, expected, rtol=1e-5, atol=1e-6)
    assert_normwise_close(grads(model), grads(reference), grad_tolerance)
    for (name, a), (_, b) in zip(model.named_parameters(), remat.named_parameters()):
        assert torch.equal(a.grad, b.grad), name
    report = remat_step.report["functions"][0]
    assert report["budget_met"] and remat_step.peak_bytes <= report["budget_bytes"]
    return reference, remat, remat_step


def test_depthwise_convolution_block_equals_eager_and_remats_exactly():
    """MobileNetV2's building block (a 1x1 expansion, a depthwise 3x3
    convolution with stride 2, BatchNorm with running statistics, in-place
    ReLU6, a 1x1 projection): torch-mlir's grouped-convolution backward is
    replaced by ckpt.torch.decompositions. Gradients and statistics equal
    eager's, statistics updated once a step, remat at 0.8 bit-identical and
    within budget. (The coverage table's MobileNetV2 row checks the whole
    network; CI's coverage test leaves it out for time.)"""
    torch.manual_seed(6)

    def block(channels, expanded):
        return [nn.Conv2d(channels, expanded, 1, bias=False), nn.BatchNorm2d(expanded),
                nn.ReLU6(inplace=True),
                nn.Conv2d(expanded, expanded, 3, stride=2, padding=1, groups=expanded,
                          bias=False),
                nn.BatchNorm2d(expanded), nn.ReLU6(inplace=True),
                nn.Conv2d(expanded, channels, 1, bias=False), nn.BatchNorm2d(channels)]

    model = nn.Sequential(*block(8, 32), *block(8, 48), nn.AdaptiveAvgPool2d(1),
                          nn.Flatten(), nn.Linear(8, 10)).train()
    images = torch.randn(8, 8, 32, 32)
    labels = torch.randint(0, 10, (8,))
    reference, remat, remat_step = step_like_eager(model, images, labels, "0.8", 1e-4)
    assert_normwise_close([b for n, b in model.named_buffers() if "running" in n],
                          [b for n, b in reference.named_buffers() if "running" in n], 1e-5)
    assert int(model[1].num_batches_tracked) == int(remat[1].num_batches_tracked) == 1
    assert remat_step.report["functions"][0]["recompute_count"] > 0


@pytest.mark.parametrize("kernel,stride,padding,size,groups", [
    (3, (2, 2), (1, 1), (16, 16), 1), (1, (2, 2), (0, 0), (16, 16), 1),
    (7, (2, 2), (3, 3), (20, 20), 1), (3, (2, 2), (1, 1), (15, 17), 1),
    (4, (3, 3), (1, 1), (13, 11), 1), (2, (2, 2), (0, 0), (8, 9), 1),
    (1, (3, 3), (0, 0), (7, 8), 1), (3, (2, 1), (1, 0), (9, 8), 1),
    (3, (2, 2), (1, 1), (15, 16), 6), (3, (2, 2), (1, 1), (12, 12), 2),
], ids=["3x3s2", "1x1s2", "7x7s2", "odd", "4x4s3", "unread-edge", "1x1s3", "mixed",
        "depthwise", "groups"])
def test_strided_input_gradient_equals_autograd(kernel, stride, padding, size, groups):
    """The input gradient of a strided convolution as stride x stride
    phase convolutions (no zeros multiplied): equal to autograd's in
    float64, for kernels smaller than, equal to and larger than the stride,
    odd sizes, input edges no window reads, different strides per axis,
    depthwise and grouped convolutions."""
    from ckpt.torch.decompositions import _strided_input_gradient
    torch.manual_seed(3)
    x = torch.randn(2, 6, *size, dtype=torch.float64, requires_grad=True)
    weight = torch.randn(6 * (2 if groups == 6 else 1), 6 // groups, kernel, kernel,
                         dtype=torch.float64)
    y = F.conv2d(x, weight, stride=stride, padding=padding, groups=groups)
    dy = torch.randn_like(y)
    expected, = torch.autograd.grad(y, x, dy)
    got = _strided_input_gradient(dy, weight, size, stride, padding, groups)
    torch.testing.assert_close(got, expected, rtol=1e-12, atol=1e-12)


def test_strided_convolutions_train_like_eager():
    """A network of strided convolutions (3x3 stride 2, 1x1 stride 2, 4x4
    stride 3 on an odd grid) through TrainStep: its input gradients are the
    phase decomposition's and its weight gradients the shrunk convolutions
    (ckpt-shrink-sliced-convolutions); gradients equal eager's, remat at 0.95
    bit-identical and within budget."""
    torch.manual_seed(8)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
                          nn.Conv2d(8, 16, 1, stride=2), nn.ReLU(),
                          nn.Conv2d(16, 8, 4, stride=3, padding=1), nn.Flatten(),
                          nn.Linear(8 * 2 * 2, 10)).train()
    images = torch.randn(32, 3, 23, 23)
    labels = torch.randint(0, 10, (32,))
    step_like_eager(model, images, labels, "0.95", 1e-5)


#: Normwise distance from float64 that float32 rounding alone reaches on the
#: zoo's random-init BatchNorm networks (see the coverage test).
FLOAT32_NOISE = 5e-3


def test_budget_is_not_required_of_resident_models():
    """Budget 0.5 is not required where weights, gradients and inputs are
    0.4 of the peak or more (they stay whatever is recomputed); other
    fractions scale the same way, and bytes or min are always required."""
    from ckpt.torch import coverage
    assert coverage._budget_exempt(0.46, "0.5")
    assert coverage._budget_exempt(0.40, "0.5")
    assert not coverage._budget_exempt(0.39, "0.5")
    assert not coverage._budget_exempt(0.46, "0.6")
    assert not coverage._budget_exempt(0.9, "2GiB")
    assert not coverage._budget_exempt(0.9, "min")


def test_coverage_table_on_real_models(tmp_path):
    """The coverage table's rows (ckpt.torch.zoo: transformers and
    torchvision models from small configs): exported, bit-identical between
    no remat and remat at 0.5, gradients and a 5-step loss curve equal to
    eager PyTorch's, BatchNorm statistics equal to eager's and updated once
    per step. ResNet-18's smallest peak is above half (its weights,
    gradients and input are over 0.4 of it): its row shows the budget as
    not required and must pass every other check."""
    from ckpt.torch import coverage
    rows_path = tmp_path / "rows.json"
    # The families the table must cover; Qwen2, Mistral and GPT-NeoX (Llama's
    # and GPT-2's kin) and MobileNetV2 (its row alone took 212 s here; its
    # depthwise block is test_depthwise_convolution_block_equals_eager_and_
    # remats_exactly) are in the full table (docs/TorchCoverage.md), not in
    # every test run.
    # Three of the families added for issue 51 (a running sum for positions,
    # audio, a depthwise/LayerNorm CNN) run here too; the rest are in the
    # full table.
    models = ["gpt2-sdpa", "gpt2-eager", "bert", "llama", "t5-encoder", "vit", "resnet18",
              "roberta", "whisper-encoder", "convnext"]
    argv = ["--json", str(rows_path), "--output", str(tmp_path / "table.md"), "--jobs", "2",
            "--models", ",".join(models)]
    if BUILD:
        argv += ["--build", BUILD]
    status = coverage.main(argv)
    rows = {row["model"]: row for row in json.loads(rows_path.read_text())}
    assert set(rows) == set(models)
    for name, row in rows.items():
        assert "error" not in row, (name, row.get("error"))
        assert row["identical"], name
        if "tracked_ckpt" in row:
            assert row["tracked_ckpt"] == row["tracked_remat"] == row["tracked_eager"] == 5
            assert row["tracked_checkpoint"] == 10
            # float32 itself is imprecise here (eager float32 is 4e-4 to
            # 4e-2 from float64, varying from run to run: ResNet-18's
            # gradients 2.3e-3 in one run, 4.2e-4 in another, while ckpt's
            # stayed at 2.1e-3 to 3.0e-3): no worse than five times eager's
            # error or than FLOAT32_NOISE, whichever is larger. A wrong
            # gradient is off by order one. The table's stricter twice
            # fails MobileNetV2's gradients (3.5 times, on every parameter
            # alike; see docs/TorchCoverage.md).
            for measure in ("grad_error", "loss_error", "statistics_error"):
                assert row[f"{measure}_f64"] <= max(coverage.TOLERANCE, FLOAT32_NOISE,
                                                    5 * row[f"eager_{measure}_f64"]), \
                    (name, measure)
        else:
            # Transformers: float32 is precise enough to match eager itself.
            assert row["grad_error"] <= coverage.TOLERANCE, name
            assert row["loss_error"] <= coverage.TOLERANCE, name
        if name == "resnet18":
            # Its weights, gradients and inputs are over 0.4 of its peak:
            # budget 0.5 is not required (and not reached); the row passes.
            assert row["resident_share"] >= 0.4 and row["budget_exempt"], name
        else:
            assert row["budget_reached"] and not row["budget_exempt"], name
        assert row["passed"], name
    assert status == (0 if all(row["passed"] for row in rows.values()) else 1)


def philox_reference_bits():
    """test/Dialect/Ckpt/philox-reference.py: ckpt.random_uniform's bits in
    Python, checked against Random123's known answers."""
    import importlib.util
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path = os.path.join(root, "test", "Dialect", "Ckpt", "philox-reference.py")
    spec = importlib.util.spec_from_file_location("philox_reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for counter, key, expected in module.KAT:
        assert tuple(module.philox4x32_10(counter, key)) == expected
    return module.element_bits


def test_dropout_draws_ckpt_random_uniform_bits():
    """Dropout's keep mask is `u >= p` for u = ckpt.random_uniform(seed,
    offset): the same bits as the Python reference; the keep rate is 1 - p
    within 1%; remat recomputes the mask bit for bit."""
    import struct
    import numpy
    element_bits = philox_reference_bits()

    class Dropped(nn.Module):
        # Dropout, then three tanh layers whose saved outputs make remat
        # worth it at `min` (with dropout alone, nothing is alive across
        # the peak that recomputing would free).
        def __init__(self):
            super().__init__()
            self.scale = nn.Parameter(torch.ones(256, 256))
            self.gains = nn.Parameter(torch.ones(3, 256))

        def forward(self, x):
            h = F.dropout(x * self.scale, 0.3, True)
            for gain in self.gains:
                h = torch.tanh(h * gain)
            return h

    model = Dropped()
    x = torch.ones(256, 256)
    step = ckpt.torch.export_training_step(model, (x,), lambda y: y.sum())
    assert step.random and step.argument_names[-1] == "rng:seed"
    assert "native_dropout.default" not in step.aten_ops
    args = step.arguments(model, (x,), seed=2024)
    plain = ckpt.run(step.mlir, step.entry, inputs=args, iterations=1, build=BUILD)
    remat = ckpt.run(step.mlir, step.entry, inputs=args, iterations=1, budget="min",
                     build=BUILD)
    assert all(a.tobytes() == b.tobytes() for a, b in zip(plain.outputs, remat.outputs))
    assert remat.report["functions"][0]["recompute_count"] > 0
    # d loss / d scale = mask / (1 - p) times tanh derivatives (positive):
    # the mask, element by element.
    keep = plain.outputs[1] > 0
    assert abs(keep.mean() - 0.7) <= 0.01 * 0.7
    uniform = numpy.array([struct.unpack("<f", struct.pack("<i", element_bits(2024, 0, i, "f32")))[0]
                           for i in range(2048)])
    assert (keep.reshape(-1)[:2048] == (uniform >= 0.3)).all()
    other = ckpt.run(step.mlir, step.entry, inputs=step.arguments(model, (x,), seed=2025),
                     iterations=1, build=BUILD)
    assert (other.outputs[1] > 0).tolist() != keep.tolist()


def test_dropout_training_is_bit_identical_between_budgets():
    from ckpt.torch.zoo import gpt2
    model, (tokens,), (labels,), loss_fn = gpt2(batch=8, seq=64)
    for module in model.modules():
        if isinstance(module, nn.Dropout):
            module.p = 0.1
    plain, remat = copy.deepcopy(model), copy.deepcopy(model)
    plain_step = TrainStep(plain, loss_fn, (tokens,), (labels,), build=BUILD)
    remat_step = TrainStep(remat, loss_fn, (tokens,), (labels,), budget="0.5", build=BUILD)
    assert plain_step.exported.random
    losses = []
    for key, (net, step) in {"plain": (plain, plain_step), "remat": (remat, remat_step)}.items():
        optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
        for seed in (11, 12, 13):
            optimizer.zero_grad()
            losses.append((key, seed, float(step(tokens, labels, seed=seed))))
            optimizer.step()
    assert [l for k, _, l in losses if k == "plain"] == [l for k, _, l in losses if k == "remat"]
    for a, b in zip(plain.parameters(), remat.parameters()):
        assert torch.equal(a, b)
    assert remat_step.peak_bytes <= remat_step.report["functions"][0]["budget_bytes"]
    # Without dropout the first loss differs: the masks are applied.
    eval_free = copy.deepcopy(model)
    for module in eval_free.modules():
        if isinstance(module, nn.Dropout):
            module.p = 0.0
    assert float(loss_fn(eval_free(tokens), labels)) != losses[0][2]
