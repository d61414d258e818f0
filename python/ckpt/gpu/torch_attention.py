"""The zoo's attention program (python/ckpt/models/attention.py) in PyTorch,
for the GPU package: `loss = mean(softmax(q k^T / sqrt(width)) v)^2` through
`torch.nn.functional.scaled_dot_product_attention` (PyTorch's flash or
memory-efficient kernels), forward and backward.

    python3 torch_attention.py --batch 4 --heads 12 --seq 1024 --width 64 --causal [--dtype bf16]

prints the median time and torch.cuda.max_memory_allocated of one forward
and backward (inputs allocated before the measurement).
"""

import argparse
import json
import statistics
import time

import torch

DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}


def loss_of(q, k, v, causal, mask=None):
    attn_mask = None
    if mask is not None:
        # [batch, heads, keys] padding mask -> broadcast over the queries.
        attn_mask = mask[:, :, None, :]
        if causal:
            rows, cols = q.shape[-2], k.shape[-2]
            attn_mask = attn_mask & torch.ones(rows, cols, dtype=torch.bool,
                                               device=q.device).tril()
            causal = False
    o = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask,
                                                         is_causal=causal)
    return (o.float() ** 2).mean()


def loss_and_gradients(arrays, causal, device="cuda"):
    """The program's `loss_grad` on ckpt's argument list (q, k, v[, mask]):
    the loss and the gradients of q, k and v as numpy arrays (f32)."""
    q, k, v = (torch.from_numpy(a).to(device).requires_grad_() for a in arrays[:3])
    mask = torch.from_numpy(arrays[3]).to(device).bool() if len(arrays) > 3 else None
    loss = loss_of(q, k, v, causal, mask)
    loss.backward()
    return [loss.detach().cpu().numpy()] + [t.grad.cpu().numpy() for t in (q, k, v)]


def measure(batch, heads, seq, width, causal, dtype="f32", iterations=20, seed=1,
            device="cuda"):
    """Median time (s) and peak allocated bytes of one forward and backward."""
    generator = torch.Generator(device="cpu").manual_seed(seed)
    shape = (batch, heads, seq, width)
    q, k, v = ((torch.rand(*shape, generator=generator) * 2 - 1).to(device, DTYPES[dtype])
               .requires_grad_() for _ in range(3))
    times, peak = [], 0
    for iteration in range(iterations + 3):
        for t in (q, k, v):
            t.grad = None
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        start = time.perf_counter()
        loss_of(q, k, v, causal).backward()
        torch.cuda.synchronize()
        elapsed = time.perf_counter() - start
        if iteration >= 3:  # warm-up
            times.append(elapsed)
            peak = max(peak, torch.cuda.max_memory_allocated())
    return {"median_step_time_s": statistics.median(times), "peak_bytes": peak}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--heads", type=int, default=12)
    parser.add_argument("--seq", type=int, default=1024)
    parser.add_argument("--width", type=int, default=64)
    parser.add_argument("--causal", action="store_true")
    parser.add_argument("--dtype", choices=sorted(DTYPES), default="f32")
    parser.add_argument("--iterations", type=int, default=20)
    args = parser.parse_args()
    print(json.dumps(measure(args.batch, args.heads, args.seq, args.width, args.causal,
                             args.dtype, args.iterations)))


if __name__ == "__main__":
    main()
