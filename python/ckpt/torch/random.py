"""Random ops of the exported step as Philox-4x32-10 keyed by an explicit
seed: dropout masks that recomputation reproduces bit for bit.

torch-mlir lowers `native_dropout`, `bernoulli` and `rand` through a hidden
global seed (an `ml_program.global` the step loads and stores). Here each of
them is replaced, in the joint graph, by the counter-based generator of
`ckpt.random_uniform`: element `i` of the k-th random op's draw is the
Philox-4x32-10 block of counter `offset_k + i` under the key `seed`, where
`seed` is a new argument of the step (a 0-d int64 tensor) and `offset_k`
the number of elements the ops before it drew. f32 draws take the top 24
bits of the block's first word, f64 draws 53 bits of its first two words:
the bits of `ckpt.random_uniform` with the same seed and offset. The
arithmetic is int64 (32-bit words; the 32x32-bit products wrap, and their
high word is read back with a floor division and a mask), which torch-mlir lowers to
elementwise linalg that ckpt fuses. A new seed per step gives new masks.

    graph = with_explicit_seed(graph_module, example_arguments)
    # graph takes (*arguments, seed) and draws nothing from hidden state
"""

import math

#: Philox-4x32-10's multipliers and Weyl key increments.
_M0, _M1, _W0, _W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
_MASK = 0xFFFFFFFF


def _shift_right(value, bits):
    """`value >> bits` (arithmetic) as a floor division, which torch-mlir
    lowers (it has no lowering of the shift ops)."""
    import torch
    return torch.div(value, 2 ** bits, rounding_mode="floor")


def _philox(counter_low, counter_high, seed):
    """The 4 words of the Philox-4x32-10 block of counters (low, high, 0, 0)
    under the key (seed low, seed high), as int64 tensors in [0, 2**32)."""
    import torch
    k0 = torch.bitwise_and(seed, _MASK)
    k1 = torch.bitwise_and(_shift_right(seed, 32), _MASK)
    c0, c1 = counter_low, counter_high
    c2 = torch.zeros_like(counter_low)
    c3 = torch.zeros_like(counter_low)
    for round_index in range(10):
        if round_index:
            k0 = torch.bitwise_and(k0 + _W0, _MASK)
            k1 = torch.bitwise_and(k1 + _W1, _MASK)
        p0 = c0 * _M0
        p1 = c2 * _M1
        hi0 = torch.bitwise_and(_shift_right(p0, 32), _MASK)
        lo0 = torch.bitwise_and(p0, _MASK)
        hi1 = torch.bitwise_and(_shift_right(p1, 32), _MASK)
        lo1 = torch.bitwise_and(p1, _MASK)
        c0 = torch.bitwise_xor(torch.bitwise_xor(hi1, c1), k0)
        c1 = lo1
        c2 = torch.bitwise_xor(torch.bitwise_xor(hi0, c3), k1)
        c3 = lo0
    return c0, c1, c2, c3


def philox_uniform(seed, offset, shape, dtype):
    """Uniform numbers in [0, 1) of `shape` and `dtype` (f64 draws stay f64,
    every other float type is drawn as f32 and converted) for `seed` (0-d
    int64 tensor) at counter `offset` (int): ckpt.random_uniform's values."""
    import torch
    counter = torch.arange(math.prod(shape), dtype=torch.int64) + offset
    words = _philox(torch.bitwise_and(counter, _MASK),
                    torch.bitwise_and(_shift_right(counter, 32), _MASK), seed)
    if dtype == torch.float64:
        # ((w0 << 32) | w1) >> 11 without leaving 63 bits.
        bits = words[0] * 2 ** 21 + _shift_right(words[1], 11)
        values = bits.to(torch.float64) * 2.0 ** -53
    else:
        values = (_shift_right(words[0], 8).to(torch.float32) * 2.0 ** -24)
        values = values.to(dtype)
    return values.reshape(shape)


class _Stream:
    """The seed of the step being traced and the counter its draws reached."""

    def __init__(self, seed):
        self.seed = seed
        self.offset = 0

    def uniform(self, shape, dtype):
        values = philox_uniform(self.seed, self.offset, tuple(shape), dtype)
        self.offset += values.numel()
        return values


def _decompositions(stream):
    import torch
    aten = torch.ops.aten

    def native_dropout(input, p, train):
        if not train or p == 0:
            return input.clone(), torch.ones_like(input, dtype=torch.bool)
        if p >= 1:
            return torch.zeros_like(input), torch.zeros_like(input, dtype=torch.bool)
        keep = stream.uniform(input.shape, input.dtype) >= p
        return input * keep.to(input.dtype) * (1.0 / (1.0 - p)), keep

    def bernoulli_p(input, p, generator=None):
        return (stream.uniform(input.shape, input.dtype) < p).to(input.dtype)

    def bernoulli(input, generator=None):
        return (stream.uniform(input.shape, input.dtype) < input).to(input.dtype)

    def rand(size, generator=None, dtype=None, layout=None, device=None, pin_memory=None):
        return stream.uniform(size, dtype or torch.get_default_dtype())

    def rand_like(input, dtype=None, layout=None, device=None, pin_memory=None,
                  memory_format=None):
        return stream.uniform(input.shape, dtype or input.dtype)

    return {aten.native_dropout.default: native_dropout,
            aten.bernoulli.p: bernoulli_p,
            aten.bernoulli.default: bernoulli,
            aten.rand.default: rand,
            aten.rand_like.default: rand_like}


#: The random ops this module replaces, by aten name.
SUPPORTED = ("native_dropout", "bernoulli", "rand", "rand_like")


def with_explicit_seed(graph_module, example_arguments):
    """`graph_module` traced again with one more argument, the seed (a 0-d
    int64 tensor, last), and its random ops replaced by Philox draws from
    it. `example_arguments` are the graph's arguments (fake or real)."""
    import torch
    from torch.fx.experimental.proxy_tensor import make_fx

    stream = _Stream(None)

    def step(*arguments):
        *arguments, seed = arguments
        stream.seed = seed
        stream.offset = 0
        return graph_module(*arguments)

    seed = torch.zeros((), dtype=torch.int64)
    return make_fx(step, decomposition_table=_decompositions(stream),
                   tracing_mode="fake")(*example_arguments, seed)
