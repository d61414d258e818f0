"""A GPT-style decoder stack: pre-layer-norm blocks with causal multi-head
self-attention, a GELU MLP and residual connections.

Two heads: with `vocab` = 0 the model takes an embedded sequence `x`
(seq x d) and regresses a target sequence (mean-squared error); with a
vocabulary it is a language model: token ids (i64) are embedded through a
table (token embedding plus a learned position embedding), a final layer
norm and the tied embedding give the logits, and the loss is the mean
cross-entropy against integer labels.

Gathers are written as linalg reductions with a select on the index
(`sum_v (ids[t] == v ? table[v, d] : 0)`), which ckpt-autodiff
differentiates with its generic rules: the table's gradient is the
scatter-add, without materializing a one-hot matrix.
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


def _heads(e, t, seq, heads, dh, permutation, batch=1):
    """(seq x d) -> (seq x heads x dh) -> transposed by `permutation`; with a
    batch, (batch*seq x d) -> (batch x seq x heads x dh) -> transposed (the
    batch kept first) -> (batch*heads x ...)."""
    if batch > 1:
        return _batched_heads(e, t, seq, heads, dh, permutation, batch)
    split = e.fresh("split")
    e.emit(f"{split} = tensor.expand_shape {t} [[0], [1, 2]] output_shape "
           f"[{seq}, {heads}, {dh}] : {e.ty((seq, heads * dh))} into "
           f"{e.ty((seq, heads, dh))}")
    return e.transpose(split, (seq, heads, dh), permutation)


def _batched_heads(e, t, seq, heads, dh, permutation, batch):
    split = e.fresh("split")
    e.emit(f"{split} = tensor.expand_shape {t} [[0, 1], [2, 3]] output_shape "
           f"[{batch}, {seq}, {heads}, {dh}] : {e.ty((batch * seq, heads * dh))} into "
           f"{e.ty((batch, seq, heads, dh))}")
    per_sequence = (seq, heads, dh)
    moved = e.transpose(split, (batch,) + per_sequence, [0] + [p + 1 for p in permutation])
    shape = tuple(per_sequence[p] for p in permutation)
    merged = e.fresh("bh")
    e.emit(f"{merged} = tensor.collapse_shape {moved} [[0, 1], [2], [3]] : "
           f"{e.ty((batch,) + shape)} into {e.ty((batch * shape[0],) + shape[1:])}")
    return merged


def _attention(e, y, wq, wk, wv, wo, seq, d, heads, batch=1):
    dt = e.dtype
    dh = d // heads
    rows = batch * seq
    q = _heads(e, e.matmul(y, wq, rows, d, d), seq, heads, dh, [1, 0, 2], batch)
    kt = _heads(e, e.matmul(y, wk, rows, d, d), seq, heads, dh, [1, 2, 0], batch)
    v = _heads(e, e.matmul(y, wv, rows, d, d), seq, heads, dh, [1, 0, 2], batch)
    # The attention's batch: the heads of every sequence.
    heads = batch * heads
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
    if batch > 1:
        heads //= batch
        split = e.fresh("split")
        e.emit(f"{split} = tensor.expand_shape {out} [[0, 1], [2], [3]] output_shape "
               f"[{batch}, {heads}, {seq}, {dh}] : {e.ty((batch * heads, seq, dh))} into "
               f"{e.ty((batch, heads, seq, dh))}")
        back = e.transpose(split, (batch, heads, seq, dh), [0, 2, 1, 3])
        merged = e.fresh("merged")
        e.emit(f"{merged} = tensor.collapse_shape {back} [[0, 1], [2, 3]] : "
               f"{e.ty((batch, seq, heads, dh))} into {e.ty((rows, d))}")
        return e.matmul(merged, wo, rows, d, d)
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


def _select_by_index(e, name, operands, maps, iterators, out_shape, index_dim,
                     block_args):
    """sum over `index_dim` of (id == index ? value : 0): a gather written as
    a linalg reduction. `operands` are (value, type) pairs; `block_args`
    names and orders the payload's arguments: ("id" or "value", stem) per
    operand, the accumulator last."""
    dt = e.dtype
    zero = e.scalar(0.0)
    init = e.filled(out_shape, 0.0)
    result = e.fresh(name)
    names = {role: e.fresh(stem) for role, stem in block_args}
    acc = e.fresh("acc")
    v, vi, hit, pick, s = (e.fresh(n) for n in ("v", "vi", "hit", "pick", "s"))
    values = ", ".join(value for value, _ in operands)
    types = ", ".join(type_ for _, type_ in operands)
    iterator_list = ", ".join(f'"{it}"' for it in iterators)
    e.emit(f"{result} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
           f"iterator_types = [{iterator_list}]}} "
           f"ins({values} : {types}) outs({init} : {e.ty(out_shape)}) {{")
    arg_types = {"id": "i64", "value": dt}
    e.emit("^bb0(" + ", ".join(f"{names[role]}: {arg_types[role]}" for role, _ in block_args)
           + f", {acc}: {dt}):")
    for line in (f"{v} = linalg.index {index_dim} : index",
                 f"{vi} = arith.index_cast {v} : index to i64",
                 f"{hit} = arith.cmpi eq, {names['id']}, {vi} : i64",
                 f"{pick} = arith.select {hit}, {names['value']}, {zero} : {dt}",
                 f"{s} = arith.addf {acc}, {pick} : {dt}",
                 f"linalg.yield {s} : {dt}"):
        e.emit("  " + line)
    e.emit(f"}} -> {e.ty(out_shape)}")
    return result


def _embed(e, ids, table, seq, d, vocab):
    """table[ids[t], :] for every t, as a select-reduction over the vocabulary."""
    return _select_by_index(
        e, "emb", [(ids, f"tensor<{seq}xi64>"), (table, e.ty((vocab, d)))],
        [e._map(3, [0]), e._map(3, [2, 1]), e._map(3, [0, 1])],
        ["parallel", "parallel", "reduction"], (seq, d), 2,
        [("id", "id"), ("value", "x")])


def _cross_entropy(e, logits, labels, seq, vocab):
    """mean_t (logsumexp_v logits[t, v] - logits[t, labels[t]])."""
    dt = e.dtype
    # Row max (for a stable log-sum-exp).
    lowest = e.filled((seq,), -1e30)

    def max_body(args, acc):
        r = e.fresh("r")
        return [f"{r} = arith.maximumf {acc}, {args[0]} : {dt}"], r

    m = e.generic([(logits, (seq, vocab), [0, 1])], (seq,), [0],
                  ["parallel", "reduction"], max_body, init=lowest, name="max")

    def sum_body(args, acc):
        c, x, r = e.fresh("c"), e.fresh("x"), e.fresh("r")
        return ([f"{c} = arith.subf {args[0]}, {args[1]} : {dt}",
                 f"{x} = math.exp {c} : {dt}",
                 f"{r} = arith.addf {acc}, {x} : {dt}"], r)

    zeros = e.filled((seq,), 0.0)
    s = e.generic([(logits, (seq, vocab), [0, 1]), (m, (seq,), [0])], (seq,), [0],
                  ["parallel", "reduction"], sum_body, init=zeros, name="sumexp")
    # The label's logit, as a select-reduction over the vocabulary.
    picked = _select_by_index(
        e, "picked", [(logits, e.ty((seq, vocab))), (labels, f"tensor<{seq}xi64>")],
        [e._map(2, [0, 1]), e._map(2, [0]), e._map(2, [0])], ["parallel", "reduction"],
        (seq,), 1, [("value", "x"), ("id", "lab")])
    # mean_t (m + log s - picked)
    inv = e.scalar(1.0 / seq)
    total = e.filled((), 0.0)

    def loss_body(args, acc):
        lg, t1, t2, t3, r2 = (e.fresh(n) for n in ("lg", "t1", "t2", "t3", "r2"))
        return ([f"{lg} = math.log {args[1]} : {dt}",
                 f"{t1} = arith.addf {args[0]}, {lg} : {dt}",
                 f"{t2} = arith.subf {t1}, {args[2]} : {dt}",
                 f"{t3} = arith.mulf {t2}, {inv} : {dt}",
                 f"{r2} = arith.addf {acc}, {t3} : {dt}"], r2)

    return e.generic([(m, (seq,), [0]), (s, (seq,), [0]), (picked, (seq,), [0])],
                     (), [], ["reduction"], loss_body, init=total, name="loss")


def transformer(layers=2, seq=16, d=32, heads=4, vocab=0,
                tokens_as_constants=False, batch=1, dtype="f32", name="loss"):
    """Returns the MLIR of the training loss.

    Without a vocabulary: `@name(x, target, params...)`, `x` and `target`
    seq x d. With one: `@name(ids, labels, embedding, positions,
    params..., lnf_gamma, lnf_beta)`, ids and labels `tensor<seq x i64>`
    (or dense constants with `tokens_as_constants`, for gradient checks
    that perturb float arguments only), the embedding vocab x d (tied with
    the output projection), positions seq x d. Each of the `layers` blocks
    has ln1 gamma/beta (d), wq, wk, wv, wo (d x d), ln2 gamma/beta (d),
    w1 (d x 4d) and w2 (4d x d). With `batch` > 1 (regression only), `x`
    and `target` hold `batch` sequences, (batch*seq) x d, each attending
    within itself.
    """
    if d % heads:
        raise ValueError("d must be a multiple of heads")
    if vocab < 0:
        raise ValueError("--vocab must not be negative")
    if batch > 1 and vocab:
        raise ValueError("--batch above 1 needs --vocab 0")
    e = Emitter(dtype)
    rows = batch * seq
    act = (rows, d)
    if vocab:
        args = []
        ids, labels = "%ids", "%labels"
        if tokens_as_constants:
            # A fixed, reproducible token sequence and its shift.
            tokens = [(7 * t + 3) % vocab for t in range(seq + 1)]
            e.emit(f"%ids = arith.constant dense<{tokens[:-1]}> : tensor<{seq}xi64>")
            e.emit(f"%labels = arith.constant dense<{tokens[1:]}> : tensor<{seq}xi64>")
        else:
            args += [(ids, f"tensor<{seq}xi64>"), (labels, f"tensor<{seq}xi64>")]
        args += [("%embedding", e.ty((vocab, d))), ("%positions", e.ty(act))]
        tok = _embed(e, ids, "%embedding", seq, d, vocab)
        h = e.elementwise("addf", tok, "%positions", act)
    else:
        args = [("%x", e.ty(act)), ("%target", e.ty(act))]
        h = "%x"
    for layer in range(layers):
        p = {n: f"%l{layer}_{n}" for n in
             ("ln1g", "ln1b", "wq", "wk", "wv", "wo", "ln2g", "ln2b", "w1", "w2")}
        args += [(p["ln1g"], e.ty((d,))), (p["ln1b"], e.ty((d,)))]
        args += [(p[w], e.ty((d, d))) for w in ("wq", "wk", "wv", "wo")]
        args += [(p["ln2g"], e.ty((d,))), (p["ln2b"], e.ty((d,)))]
        args += [(p["w1"], e.ty((d, 4 * d))), (p["w2"], e.ty((4 * d, d)))]
        y = _layernorm(e, h, p["ln1g"], p["ln1b"], rows, d)
        attn = _attention(e, y, p["wq"], p["wk"], p["wv"], p["wo"], seq, d, heads, batch)
        h = e.elementwise("addf", h, attn, act)
        y2 = _layernorm(e, h, p["ln2g"], p["ln2b"], rows, d)
        u = e.matmul(y2, p["w1"], rows, d, 4 * d)
        g = _gelu(e, u, (rows, 4 * d))
        m = e.matmul(g, p["w2"], rows, 4 * d, d)
        h = e.elementwise("addf", h, m, act)
    if vocab:
        args += [("%lnf_g", e.ty((d,))), ("%lnf_b", e.ty((d,)))]
        hf = _layernorm(e, h, "%lnf_g", "%lnf_b", seq, d)
        # Logits through the tied embedding: hf @ embedding^T.
        logits = e.generic([(hf, act, [0, 2]), ("%embedding", (vocab, d), [1, 2])],
                           (seq, vocab), [0, 1],
                           ["parallel", "parallel", "reduction"],
                           lambda a, acc: _multiply_add(e, a, acc),
                           init=e.filled((seq, vocab), 0.0), name="logits")
        loss = _cross_entropy(e, logits, labels, seq, vocab)
    else:
        diff = e.elementwise("subf", h, "%target", act)
        loss = e.sum_squares_mean(diff, act)
    e.emit(f"return {loss} : {e.ty(())}")
    return e.function(name, args, e.ty(()))


def _multiply_add(e, args, acc):
    p, r = e.fresh("p"), e.fresh("r")
    return ([f"{p} = arith.mulf {args[0]}, {args[1]} : {e.dtype}",
             f"{r} = arith.addf {acc}, {p} : {e.dtype}"], r)
