"""The zoo's GPT-style stack (python/ckpt/models/transformer.py, no
vocabulary) in PyTorch, for the GPU benchmark: the same shapes, the same
math (pre-layer-norm blocks, causal multi-head attention written out as
matmuls, a -1e9 mask and softmax, an erf-GELU MLP of width 4d, residuals,
mean squared error against a target), parameters as plain tensors
multiplied as `x @ W` like the MLIR.

    python3 torch_gpt.py --layers 4 --seq 512 --d 128 --heads 8 [--checkpoint] [--sdpa]

prints the median step time and torch.cuda.max_memory_allocated of one
training step (forward and backward, gradients of every parameter and of
the input), eager or with torch.utils.checkpoint around every block, with
the attention written out or (`--sdpa`) through PyTorch's fused
scaled_dot_product_attention, what a user would pick.
"""

import argparse
import json
import math
import statistics
import time

import torch


def layer_norm(x, gamma, beta):
    mean = x.mean(dim=-1, keepdim=True)
    centered = x - mean
    var = (centered * centered).mean(dim=-1, keepdim=True)
    return centered * torch.rsqrt(var + 1e-5) * gamma + beta


def attention(y, wq, wk, wv, wo, heads, sdpa=False, batch=1):
    rows, d = y.shape
    seq, dh = rows // batch, d // heads
    q = (y @ wq).reshape(batch, seq, heads, dh).permute(0, 2, 1, 3)
    v = (y @ wv).reshape(batch, seq, heads, dh).permute(0, 2, 1, 3)
    if sdpa:
        # PyTorch's fused attention (flash / memory-efficient kernels).
        k = (y @ wk).reshape(batch, seq, heads, dh).permute(0, 2, 1, 3)
        out = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        return out.permute(0, 2, 1, 3).reshape(rows, d) @ wo
    kt = (y @ wk).reshape(batch, seq, heads, dh).permute(0, 2, 3, 1)
    scores = torch.matmul(q, kt) * (1.0 / math.sqrt(dh))
    later = torch.ones(seq, seq, dtype=torch.bool, device=y.device).triu(1)
    masked = scores.masked_fill(later, -1e9)
    probs = torch.softmax(masked, dim=-1)
    out = torch.matmul(probs, v).permute(0, 2, 1, 3).reshape(rows, d)
    return out @ wo


def gelu(u):
    return 0.5 * u * (1.0 + torch.erf(u * (1.0 / math.sqrt(2.0))))


def block(h, p, heads, sdpa=False, batch=1):
    y = layer_norm(h, p["ln1g"], p["ln1b"])
    h = h + attention(y, p["wq"], p["wk"], p["wv"], p["wo"], heads, sdpa, batch)
    y2 = layer_norm(h, p["ln2g"], p["ln2b"])
    return h + gelu(y2 @ p["w1"]) @ p["w2"]


def make_parameters(layers, d, device, seed):
    generator = torch.Generator(device="cpu").manual_seed(seed)

    def uniform(*shape):
        return (torch.rand(*shape, generator=generator) * 2 - 1).to(device).requires_grad_()

    params = []
    for _ in range(layers):
        params.append({
            "ln1g": uniform(d), "ln1b": uniform(d),
            "wq": uniform(d, d), "wk": uniform(d, d), "wv": uniform(d, d), "wo": uniform(d, d),
            "ln2g": uniform(d), "ln2b": uniform(d),
            "w1": uniform(d, 4 * d), "w2": uniform(4 * d, d)})
    return params


PARAMETER_NAMES = ("ln1g", "ln1b", "wq", "wk", "wv", "wo", "ln2g", "ln2b", "w1", "w2")


def ckpt_inputs(shapes, seed=1):
    """The float inputs ckpt-run and ckpt-compile's drivers generate from
    `seed`, one array per shape, in order (ckpt/inputs.py, shipped in the
    GPU package as ckpt_inputs.py)."""
    try:
        from ckpt.inputs import generate
    except ImportError:
        from ckpt_inputs import generate
    return generate([(shape, "f32") for shape in shapes], seed)


def loss_and_gradients(arrays, heads, device="cuda", batch=1):
    """The zoo model's `loss_grad` on ckpt's argument list (x, target, then
    each layer's parameters in PARAMETER_NAMES order): the loss and the
    gradients of every argument, as numpy arrays, in ckpt's output order."""
    tensors = [torch.from_numpy(a).to(device).requires_grad_() for a in arrays]
    x, target, rest = tensors[0], tensors[1], tensors[2:]
    params = [dict(zip(PARAMETER_NAMES, rest[i:i + len(PARAMETER_NAMES)]))
              for i in range(0, len(rest), len(PARAMETER_NAMES))]
    loss = step(x, target, params, heads, checkpoint=False, batch=batch)
    return [loss.detach().cpu().numpy()] + [t.grad.cpu().numpy() for t in tensors]


def step(x, target, params, heads, checkpoint, sdpa=False, batch=1):
    h = x
    for p in params:
        if checkpoint:
            h = torch.utils.checkpoint.checkpoint(block, h, p, heads, sdpa, batch,
                                                  use_reentrant=False)
        else:
            h = block(h, p, heads, sdpa, batch)
    loss = ((h - target) ** 2).mean()
    loss.backward()
    return loss


def measure(layers, seq, d, heads, checkpoint=False, iterations=20, seed=1,
            device="cuda", sdpa=False, batch=1):
    """Median step time (s) and peak allocated bytes of one training step
    (attention written out, or PyTorch's scaled_dot_product_attention with
    `sdpa`)."""
    params = make_parameters(layers, d, device, seed)
    generator = torch.Generator(device="cpu").manual_seed(seed + 1)
    x = (torch.rand(batch * seq, d, generator=generator) * 2 - 1).to(device).requires_grad_()
    target = (torch.rand(batch * seq, d, generator=generator) * 2 - 1).to(device)
    cuda = device.startswith("cuda")
    times, peak = [], 0
    for iteration in range(iterations + 3):
        for p in params:
            for t in p.values():
                t.grad = None
        x.grad = None
        if cuda:
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
        start = time.perf_counter()
        step(x, target, params, heads, checkpoint, sdpa, batch)
        if cuda:
            torch.cuda.synchronize()
        elapsed = time.perf_counter() - start
        if iteration >= 3:  # warm-up
            times.append(elapsed)
            if cuda:
                peak = max(peak, torch.cuda.max_memory_allocated())
    return {"median_step_time_s": statistics.median(times), "peak_bytes": peak}


def release_memory(device):
    """Returns what a failed measurement left to the device (after an
    out-of-memory error)."""
    import gc
    gc.collect()
    if device.startswith("cuda"):
        torch.cuda.empty_cache()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--seq", type=int, default=512)
    parser.add_argument("--d", type=int, default=128)
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--checkpoint", action="store_true")
    parser.add_argument("--sdpa", action="store_true",
                        help="attention through scaled_dot_product_attention")
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--device", default="cuda")
    args = parser.parse_args()
    result = measure(args.layers, args.seq, args.d, args.heads, args.checkpoint,
                     args.iterations, device=args.device, sdpa=args.sdpa,
                     batch=args.batch)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
