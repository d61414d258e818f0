"""A GPT-style decoder stack: pre-layer-norm blocks with causal multi-head
self-attention, a GELU MLP and residual connections, trained to regress a
target sequence (mean-squared error).

Token embedding lookups are left to the caller: the model takes the
embedded sequence `x` (seq x d) as an argument.
"""

import math

from .emitter import Emitter


def _row_mean(e, x, seq, d, square):
    """mean over the last dimension of x (or of x^2), as a (seq,) tensor."""
    dt = e.dtype
    inv_d = e.scalar(1.0 / d)
    zeros = e.filled((seq,), 0.0)

    def body(args, acc):
        lines, value = [], args[0]
        if square:
            value = e.fresh("q")
            lines.append(f"{value} = arith.mulf {args[0]}, {args[0]} : {dt}")
        s, r = e.fresh("s"), e.fresh("r")
        lines += [f"{s} = arith.mulf {value}, {inv_d} : {dt}",
                  f"{r} = arith.addf {acc}, {s} : {dt}"]
        return lines, r

    return e.generic([(x, (seq, d), [0, 1])], (seq,), [0],
                     ["parallel", "reduction"], body, init=zeros,
                     name="var" if square else "mean")


def _layernorm(e, x, gamma, beta, seq, d):
    dt = e.dtype
    eps = e.scalar(1e-5)
    mean = _row_mean(e, x, seq, d, square=False)

    def center_body(args, acc):
        r = e.fresh("r")
        return ([f"{r} = arith.subf {args[0]}, {args[1]} : {dt}"], r)

    centered = e.generic([(x, (seq, d), [0, 1]), (mean, (seq,), [0])], (seq, d),
                         [0, 1], ["parallel", "parallel"], center_body, name="xc")
    var = _row_mean(e, centered, seq, d, square=True)

    def norm_body(args, acc):
        ve, rs, n, sc, r = (e.fresh(s) for s in ("ve", "rs", "n", "sc", "r"))
        return ([f"{ve} = arith.addf {args[1]}, {eps} : {dt}",
                 f"{rs} = math.rsqrt {ve} : {dt}",
                 f"{n} = arith.mulf {args[0]}, {rs} : {dt}",
                 f"{sc} = arith.mulf {n}, {args[2]} : {dt}",
                 f"{r} = arith.addf {sc}, {args[3]} : {dt}"], r)

    return e.generic([(centered, (seq, d), [0, 1]), (var, (seq,), [0]),
                      (gamma, (d,), [1]), (beta, (d,), [1])], (seq, d), [0, 1],
                     ["parallel", "parallel"], norm_body, name="ln")


def _heads(e, t, seq, heads, dh, permutation):
    """(seq x d) -> (seq x heads x dh) -> transposed by `permutation`."""
    split = e.fresh("split")
    e.emit(f"{split} = tensor.expand_shape {t} [[0], [1, 2]] output_shape "
           f"[{seq}, {heads}, {dh}] : {e.ty((seq, heads * dh))} into "
           f"{e.ty((seq, heads, dh))}")
    return e.transpose(split, (seq, heads, dh), permutation)


def _attention(e, y, wq, wk, wv, wo, seq, d, heads):
    dt = e.dtype
    dh = d // heads
    q = _heads(e, e.matmul(y, wq, seq, d, d), seq, heads, dh, [1, 0, 2])
    kt = _heads(e, e.matmul(y, wk, seq, d, d), seq, heads, dh, [1, 2, 0])
    v = _heads(e, e.matmul(y, wv, seq, d, d), seq, heads, dh, [1, 0, 2])
    scores = e.batch_matmul(q, kt, heads, seq, dh, seq)
    scale = e.scalar(1.0 / math.sqrt(dh))
    masked_value = e.scalar(-1e9)

    def mask_body(args, acc):
        i, j, later, s, r = (e.fresh(n) for n in ("i", "j", "later", "s", "r"))
        return ([f"{i} = linalg.index 1 : index",
                 f"{j} = linalg.index 2 : index",
                 f"{later} = arith.cmpi ugt, {j}, {i} : index",
                 f"{s} = arith.mulf {args[0]}, {scale} : {dt}",
                 f"{r} = arith.select {later}, {masked_value}, {s} : {dt}"], r)

    masked = e.generic([(scores, (heads, seq, seq), [0, 1, 2])], (heads, seq, seq),
                       [0, 1, 2], ["parallel"] * 3, mask_body, name="masked")
    empty = e.fresh("e")
    e.emit(f"{empty} = tensor.empty() : {e.ty((heads, seq, seq))}")
    probs = e.fresh("probs")
    e.emit(f"{probs} = linalg.softmax dimension(2) ins({masked} : "
           f"{e.ty((heads, seq, seq))}) outs({empty} : {e.ty((heads, seq, seq))}) "
           f"-> {e.ty((heads, seq, seq))}")
    out = e.batch_matmul(probs, v, heads, seq, seq, dh)
    back = e.transpose(out, (heads, seq, dh), [1, 0, 2])
    merged = e.fresh("merged")
    e.emit(f"{merged} = tensor.collapse_shape {back} [[0], [1, 2]] : "
           f"{e.ty((seq, heads, dh))} into {e.ty((seq, d))}")
    return e.matmul(merged, wo, seq, d, d)


def _gelu(e, u, shape):
    dt = e.dtype
    half = e.scalar(0.5)
    one = e.scalar(1.0)
    inv_sqrt2 = e.scalar(1.0 / math.sqrt(2.0))

    def body(args, acc):
        s, f, p, h, r = (e.fresh(n) for n in ("s", "f", "p", "h", "r"))
        return ([f"{s} = arith.mulf {args[0]}, {inv_sqrt2} : {dt}",
                 f"{f} = math.erf {s} : {dt}",
                 f"{p} = arith.addf {f}, {one} : {dt}",
                 f"{h} = arith.mulf {args[0]}, {half} : {dt}",
                 f"{r} = arith.mulf {h}, {p} : {dt}"], r)

    return e.generic([(u, shape, [0, 1])], shape, [0, 1], ["parallel", "parallel"],
                     body, name="gelu")


def transformer(layers=2, seq=16, d=32, heads=4, dtype="f32", name="loss"):
    """Returns the MLIR of `@name(x, target, params...) -> loss`.

    `x` and `target` are seq x d; each of the `layers` blocks has
    ln1 gamma/beta (d), wq, wk, wv, wo (d x d), ln2 gamma/beta (d),
    w1 (d x 4d) and w2 (4d x d).
    """
    if d % heads:
        raise ValueError("d must be a multiple of heads")
    e = Emitter(dtype)
    act = (seq, d)
    args = [("%x", e.ty(act)), ("%target", e.ty(act))]
    h = "%x"
    for layer in range(layers):
        p = {n: f"%l{layer}_{n}" for n in
             ("ln1g", "ln1b", "wq", "wk", "wv", "wo", "ln2g", "ln2b", "w1", "w2")}
        args += [(p["ln1g"], e.ty((d,))), (p["ln1b"], e.ty((d,)))]
        args += [(p[w], e.ty((d, d))) for w in ("wq", "wk", "wv", "wo")]
        args += [(p["ln2g"], e.ty((d,))), (p["ln2b"], e.ty((d,)))]
        args += [(p["w1"], e.ty((d, 4 * d))), (p["w2"], e.ty((4 * d, d)))]
        y = _layernorm(e, h, p["ln1g"], p["ln1b"], seq, d)
        attn = _attention(e, y, p["wq"], p["wk"], p["wv"], p["wo"], seq, d, heads)
        h = e.elementwise("addf", h, attn, act)
        y2 = _layernorm(e, h, p["ln2g"], p["ln2b"], seq, d)
        u = e.matmul(y2, p["w1"], seq, d, 4 * d)
        g = _gelu(e, u, (seq, 4 * d))
        m = e.matmul(g, p["w2"], seq, 4 * d, d)
        h = e.elementwise("addf", h, m, act)
    diff = e.elementwise("subf", h, "%target", act)
    loss = e.sum_squares_mean(diff, act)
    e.emit(f"return {loss} : {e.ty(())}")
    return e.function(name, args, e.ty(()))
