"""Seeded random loss functions for differential testing of ckpt-remat.

`generate(seed)` builds a random DAG of tensor ops (a `Program`) and
`Program.mlir()` prints it as a module holding one function
`@loss(args...) -> tensor<f32>` marked `ckpt.differentiate`, on statically
shaped f32 tensors, for `ckpt-opt --ckpt-autodiff` to turn into
`@loss_grad`.

The ops: matmuls (`linalg.matmul` and `linalg.generic` contractions with
either operand transposed, `linalg.batch_matmul` on rank-3 values),
elementwise ops as tensor-level arith/math ops or as `linalg.generic`
payloads (add, sub, mul, maximumf, relu, tanh, neg, exp of bounded values),
sums over an axis (`linalg.reduce` or a reducing `linalg.generic`),
broadcasts (`linalg.broadcast` or a generic, and fused into a generic as
`x - sum(x) / n`),
transposes (`linalg.transpose` or a permuting generic), reshapes
(`tensor.expand_shape` / `tensor.collapse_shape`), `ckpt.attention`
(causal or not, half of them with a constant key mask) over the last two
dimensions of a rank-2 or rank-3 value,
values used several times and long-range skip connections. The loss is the sum over the
program's outputs (the values nothing else reads) of mean(value^2).

Activations are 4-64 KiB (1024 to 16384 f32 elements); sums over an axis
may be smaller and are consumed where they are made (broadcast back). Every value carries a bound on its magnitude (inputs are in
[-1, 1), as ckpt-run fills them); an op that could exceed `LIMIT` first
squashes its operands with tanh, and exp only sees values bounded by 3 (or
runs on tanh of its operand), so that no output is NaN or infinite.

The same seed gives the same program. `Program.drop(i)` replaces op `i` by
a fresh argument of its shape and removes what no output needs any more:
the minimizer of the differential tester uses it.
"""

import argparse
import math
import random
import sys

from ckpt.models.emitter import Emitter

DTYPE = "f32"
MIN_ELEMENTS = 1024      # 4 KiB
MAX_ELEMENTS = 16384     # 64 KiB
DIMS = (16, 32, 64, 128)
LIMIT = 64.0             # bound on any value's magnitude before squashing
EXP_INPUT_LIMIT = 3.0

# Op kinds and their weights in the random choice. Kinds that do not apply
# to the chosen operand fall back to an elementwise op.
KIND_WEIGHTS = {
    "matmul": 5,         # linalg.matmul / generic contraction / batch_matmul
    "unary": 6,          # tanh, neg, relu, exp
    "binary": 6,         # add, sub, mul, maximumf of two values of one shape
    "skip": 3,           # binary op with a value from much earlier
    "reduce": 2,         # sum over an axis, broadcast back
    "center": 2,         # x - broadcast(y) with y = sum(x) / n or a value
    "broadcast": 1,      # a rank-2 activation broadcast to rank 3
    "transpose": 2,
    "reshape": 3,        # expand_shape to rank 3 / collapse_shape to rank 2
    "attention": 2,      # ckpt.attention (causal or not) of a value and others
}
ALL_KINDS = tuple(KIND_WEIGHTS)


def elements(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def fits(shape):
    return MIN_ELEMENTS <= elements(shape) <= MAX_ELEMENTS


class Node:
    """One value of the program: a function argument or an op's result.

    `op` names the emission ("arg", "matmul", "contract", ...), `inputs`
    are node indices, `attrs` the op's parameters, `bound` a bound on the
    magnitude of every element.
    """

    def __init__(self, op, inputs, shape, bound, **attrs):
        self.op = op
        self.inputs = list(inputs)
        self.shape = tuple(shape)
        self.bound = bound
        self.attrs = attrs

    def describe(self):
        extra = " ".join(f"{k}={v}" for k, v in sorted(self.attrs.items()))
        return f"{self.op}({', '.join(f'#{i}' for i in self.inputs)}) {self.shape} {extra}".strip()


class Program:
    """A DAG of nodes in topological order plus the indices of its outputs."""

    def __init__(self, seed, nodes, outputs, recipe=None):
        self.seed = seed
        self.nodes = nodes
        self.outputs = list(outputs)
        # the generator's command-line arguments that give this program
        self.recipe = recipe or f"--seed {seed}"

    # -- structure ------------------------------------------------------------

    def op_indices(self):
        return [i for i, n in enumerate(self.nodes) if n.op != "arg"]

    def op_count(self):
        return len(self.op_indices())

    def kinds(self):
        return sorted({n.attrs.get("kind", n.op) for n in self.nodes if n.op != "arg"})

    def drop(self, index):
        """A copy with node `index` turned into a fresh argument of its
        shape (or, if it is an output and not the only one, removed from the
        outputs), then pruned to what the outputs need."""
        nodes = [Node(n.op, n.inputs, n.shape, n.bound, **n.attrs) for n in self.nodes]
        outputs = list(self.outputs)
        if index in outputs and len(outputs) > 1 and nodes[index].op != "arg":
            outputs.remove(index)
        else:
            nodes[index] = Node("arg", [], nodes[index].shape, 1.0)
        return Program(self.seed, nodes, outputs, self.recipe + f" --drop {index}")._pruned()

    def _pruned(self):
        needed = set()
        stack = list(self.outputs)
        while stack:
            i = stack.pop()
            if i in needed:
                continue
            needed.add(i)
            stack.extend(self.nodes[i].inputs)
        order = sorted(needed)
        remap = {old: new for new, old in enumerate(order)}
        nodes = []
        for old in order:
            n = self.nodes[old]
            nodes.append(Node(n.op, [remap[i] for i in n.inputs], n.shape, n.bound, **n.attrs))
        return Program(self.seed, nodes, [remap[o] for o in self.outputs], self.recipe)

    def describe(self):
        lines = [f"program seed={self.seed} ops={self.op_count()} outputs={self.outputs}"]
        lines += [f"  #{i} = {n.describe()}" for i, n in enumerate(self.nodes)]
        return "\n".join(lines)

    def tensor_bytes(self):
        return [elements(n.shape) * 4 for n in self.nodes]

    # -- emission ---------------------------------------------------------------

    def mlir(self, name="loss"):
        e = Emitter(DTYPE)
        names, args, terms = [], [], []
        for i, n in enumerate(self.nodes):
            if n.op == "arg":
                ssa = f"%arg{len(args)}"
                args.append((ssa, e.ty(n.shape)))
                names.append(ssa)
            else:
                names.append(_emit(e, n, [(names[j], self.nodes[j].shape) for j in n.inputs]))
            # an output's loss term right after it (an auxiliary loss): the
            # output need not stay alive to the end of the forward pass
            if i in self.outputs:
                terms.append(e.sum_squares_mean(names[i], n.shape))
        loss = terms[0]
        for term in terms[1:]:
            loss = e.elementwise("addf", loss, term, ())
        e.emit(f"return {loss} : {e.ty(())}")
        header = (f"// ckpt.difftest program: seed {self.seed}, {self.op_count()} ops, "
                  f"{len(self.outputs)} output(s)\n")
        return header + e.function(name, args, e.ty(()))


# -- emission of one node ----------------------------------------------------

def _ident(rank):
    return list(range(rank))


def _scalar_body(e, op, args):
    """Lines and result of the payload of elementwise `op` on `args`."""
    dt = DTYPE
    r = e.fresh("r")
    if op in ("addf", "subf", "mulf", "maximumf"):
        return [f"{r} = arith.{op} {args[0]}, {args[1]} : {dt}"], r
    if op == "negf":
        return [f"{r} = arith.negf {args[0]} : {dt}"], r
    if op in ("tanh", "exp"):
        return [f"{r} = math.{op} {args[0]} : {dt}"], r
    if op == "relu":
        z = e.fresh("z")
        return [f"{z} = arith.constant 0.0 : {dt}",
                f"{r} = arith.maximumf {args[0]}, {z} : {dt}"], r
    if op == "exp_tanh":
        t = e.fresh("t")
        return [f"{t} = math.tanh {args[0]} : {dt}",
                f"{r} = math.exp {t} : {dt}"], r
    raise ValueError(op)


def _emit(e, node, ins):
    a = node.attrs
    op = node.op
    shape = node.shape
    rank = len(shape)
    if op == "attention":
        (q, qs), (k, ks), (v, vs) = ins
        out, lse = e.fresh("e"), e.fresh("l")
        name = e.fresh("att")
        e.emit(f"{out} = tensor.empty() : {e.ty(shape)}")
        e.emit(f"{lse} = tensor.empty() : {e.ty(shape[:-1])}")
        causal = "causal " if a["causal"] else ""
        mask = ""
        if a.get("key_mask") is not None:
            mask_shape = list(shape[:-2]) + [ks[-2]]
            rows = [f"[{', '.join('true' if b else 'false' for b in row)}]"
                    for row in a["key_mask"]]
            literal = f"[{', '.join(rows)}]" if len(mask_shape) == 2 else rows[0]
            mask_type = f"tensor<{'x'.join(map(str, mask_shape))}xi1>"
            m = e.fresh("mask")
            e.emit(f"{m} = arith.constant dense<{literal}> : {mask_type}")
            mask = f" key_mask({m} : {mask_type})"
        e.emit(f"{name}:2 = ckpt.attention {causal}scale({a['scale']!r}){mask} "
               f"ins({q}, {k}, {v} : {e.ty(qs)}, {e.ty(ks)}, {e.ty(vs)}) "
               f"outs({out}, {lse} : {e.ty(shape)}, {e.ty(shape[:-1])}) "
               f"-> {e.ty(shape)}, {e.ty(shape[:-1])}")
        return f"{name}#0"
    if op == "matmul":
        (x, (m, k)), (w, (_, n)) = ins
        return e.matmul(x, w, m, k, n)
    if op == "batch_matmul":
        (x, (b, m, k)), (w, (_, _, n)) = ins
        return e.batch_matmul(x, w, b, m, k, n)
    if op == "contract":
        (x, xs), (w, ws) = ins
        m, n = shape
        # loops (m, n, k)
        xdims = [0, 2] if a["layout"][0] == "n" else [2, 0]
        wdims = [2, 1] if a["layout"][1] == "n" else [1, 2]
        zeros = e.filled(shape, 0.0)

        def body(args, acc):
            p, r = e.fresh("p"), e.fresh("r")
            return ([f"{p} = arith.mulf {args[0]}, {args[1]} : {DTYPE}",
                     f"{r} = arith.addf {acc}, {p} : {DTYPE}"], r)

        return e.generic([(x, xs, xdims), (w, ws, wdims)], shape, [0, 1],
                         ["parallel", "parallel", "reduction"], body, init=zeros,
                         name="mm")
    if op == "ew":
        fn = a["fn"]
        if a["form"] == "tensor":
            if fn == "relu":
                zero = e.filled(shape, 0.0)
                return e.elementwise("maximumf", ins[0][0], zero, shape)
            if fn in ("tanh", "exp"):
                return e.unary(f"math.{fn}", ins[0][0], shape)
            if fn == "negf":
                return e.unary("arith.negf", ins[0][0], shape)
            return e.elementwise(fn, ins[0][0], ins[1][0], shape)
        return e.generic([(s, sh, _ident(rank)) for s, sh in ins], shape, _ident(rank),
                         ["parallel"] * rank, lambda args, acc: _scalar_body(e, fn, args),
                         name="ew")
    if op == "reduce":
        (x, xs), = ins
        axis = a["axis"]
        zeros = e.filled(shape, 0.0)
        if a["form"] == "reduce":
            name = e.fresh("red")
            i, acc, s = e.fresh("in"), e.fresh("acc"), e.fresh("s")
            e.emit(f"{name} = linalg.reduce ins({x} : {e.ty(xs)}) outs({zeros} : {e.ty(shape)}) "
                   f"dimensions = [{axis}]")
            e.emit(f"  ({i}: {DTYPE}, {acc}: {DTYPE}) {{")
            e.emit(f"    {s} = arith.addf {i}, {acc} : {DTYPE}")
            e.emit(f"    linalg.yield {s} : {DTYPE}")
            e.emit("  }")
            return name
        its = ["reduction" if d == axis else "parallel" for d in range(len(xs))]

        def body(args, acc):
            r = e.fresh("r")
            return [f"{r} = arith.addf {acc}, {args[0]} : {DTYPE}"], r

        return e.generic([(x, xs, _ident(len(xs)))], shape,
                         [d for d in range(len(xs)) if d != axis], its, body,
                         init=zeros, name="red")
    if op == "broadcast":
        (x, xs), = ins
        axis = a["axis"]
        if a["form"] == "broadcast":
            empty = e.fresh("e")
            e.emit(f"{empty} = tensor.empty() : {e.ty(shape)}")
            name = e.fresh("bc")
            e.emit(f"{name} = linalg.broadcast ins({x} : {e.ty(xs)}) outs({empty} : "
                   f"{e.ty(shape)}) dimensions = [{axis}]")
            return name
        return e.generic([(x, xs, [d for d in range(rank) if d != axis])], shape,
                         _ident(rank), ["parallel"] * rank,
                         lambda args, acc: ([], args[0]), name="bc")
    if op == "center":
        # x - y[broadcast along axis] * scale
        (x, xs), (y, ys) = ins
        axis = a["axis"]
        scale = e.scalar(a["scale"])

        def body(args, acc):
            p, r = e.fresh("p"), e.fresh("r")
            return ([f"{p} = arith.mulf {args[1]}, {scale} : {DTYPE}",
                     f"{r} = arith.subf {args[0]}, {p} : {DTYPE}"], r)

        return e.generic([(x, xs, _ident(rank)), (y, ys, [d for d in range(rank) if d != axis])],
                         shape, _ident(rank), ["parallel"] * rank, body, name="ctr")
    if op == "transpose":
        (x, xs), = ins
        perm = a["perm"]
        if a["form"] == "transpose":
            return e.transpose(x, xs, perm)
        in_dims = [perm.index(j) for j in range(rank)]
        return e.generic([(x, xs, in_dims)], shape, _ident(rank), ["parallel"] * rank,
                         lambda args, acc: ([], args[0]), name="tr")
    if op == "expand":
        (x, xs), = ins
        reassoc = a["reassoc"]
        name = e.fresh("ex")
        e.emit(f"{name} = tensor.expand_shape {x} {reassoc} output_shape "
               f"[{', '.join(str(d) for d in shape)}] : {e.ty(xs)} into {e.ty(shape)}")
        return name
    if op == "collapse":
        (x, xs), = ins
        name = e.fresh("co")
        e.emit(f"{name} = tensor.collapse_shape {x} {a['reassoc']} : {e.ty(xs)} into {e.ty(shape)}")
        return name
    raise ValueError(f"unknown node op {op}")


# -- random construction -------------------------------------------------------

class _Builder:
    def __init__(self, rng, kinds):
        self.rng = rng
        self.kinds = [k for k in ALL_KINDS if k in kinds]
        self.weights = [KIND_WEIGHTS[k] for k in self.kinds]
        self.nodes = []
        self.users = []

    def add(self, node):
        self.nodes.append(node)
        self.users.append(0)
        for i in node.inputs:
            self.users[i] += 1
        return len(self.nodes) - 1

    def arg(self, shape):
        return self.add(Node("arg", [], shape, 1.0))

    def values(self, pred=lambda n: True):
        return [i for i, n in enumerate(self.nodes) if n.op != "arg" and pred(n)]

    def pick_operand(self):
        """An activation (4-64 KiB; sums over an axis are consumed where they
        are made): mostly the latest or a recent one, sometimes one nothing
        reads yet, sometimes any (a long-range use)."""
        vals = self.values(lambda n: fits(n.shape))
        if not vals:
            return 0
        r = self.rng.random()
        unused = [i for i in vals if self.users[i] == 0]
        if r < 0.5:
            return vals[-1]
        if r < 0.65 and unused:
            return self.rng.choice(unused)
        if r < 0.9:
            return self.rng.choice(vals[-4:])
        return self.rng.choice(vals)

    def squash(self, i, limit=LIMIT):
        """`i`, or tanh of it when its bound exceeds `limit`."""
        if self.nodes[i].bound <= limit:
            return i
        form = self.rng.choice(["tensor", "generic"])
        return self.add(Node("ew", [i], self.nodes[i].shape, 1.0, fn="tanh", form=form,
                             kind="unary"))

    def same_shape(self, shape, exclude, early=False):
        cands = [j for j in range(len(self.nodes))
                 if self.nodes[j].shape == shape and j != exclude]
        if early:
            cands = cands[: max(1, len(cands) // 3)]
        return cands

    # -- op kinds (each returns the new node's index, or None) --------------

    def k_matmul(self, i):
        x = self.nodes[i]
        rng = self.rng
        if len(x.shape) == 3:
            b, m, k = x.shape
            ns = [n for n in DIMS if fits((b, m, n)) and fits((b, k, n))]
            if not ns:
                return None
            n = rng.choice(ns)
            w = self.arg((b, k, n))
            i = self.squash(i, LIMIT / k)
            return self.add(Node("batch_matmul", [i, w], (b, m, n),
                                 self.nodes[i].bound * k, kind="matmul"))
        if len(x.shape) != 2:
            return None
        layout = rng.choice(["named", "nn", "nt", "tn"])
        if layout == "tn":
            k, m = x.shape
        else:
            m, k = x.shape
        ns = [n for n in DIMS if fits((m, n)) and fits((k, n))]
        if not ns:
            return None
        n = rng.choice(ns)
        wshape = (n, k) if layout == "nt" else (k, n)
        # the other operand: a weight argument, or a value of that shape
        others = [j for j in self.values() if self.nodes[j].shape == wshape and j != i]
        if others and rng.random() < 0.3:
            w = rng.choice(others)
        else:
            w = self.arg(wshape)
        i = self.squash(i, math.sqrt(LIMIT / k))
        w = self.squash(w, math.sqrt(LIMIT / k))
        bound = self.nodes[i].bound * self.nodes[w].bound * k
        if layout == "named":
            return self.add(Node("matmul", [i, w], (m, n), bound, kind="matmul"))
        return self.add(Node("contract", [i, w], (m, n), bound, layout=layout,
                             kind="matmul"))

    def k_unary(self, i):
        rng = self.rng
        fn = rng.choice(["tanh", "negf", "relu", "exp"])
        b = self.nodes[i].bound
        if fn == "exp":
            if b > EXP_INPUT_LIMIT:
                fn = "exp_tanh"
                bound = math.e
            else:
                bound = math.exp(b)
        else:
            bound = 1.0 if fn == "tanh" else b
        form = "generic" if fn == "exp_tanh" else rng.choice(["tensor", "generic"])
        return self.add(Node("ew", [i], self.nodes[i].shape, bound, fn=fn, form=form,
                             kind="unary"))

    def _binary(self, i, j, kind):
        rng = self.rng
        fn = rng.choice(["addf", "subf", "mulf", "maximumf"])
        same = i == j
        limit = math.sqrt(LIMIT) if fn == "mulf" else LIMIT / 2
        i = self.squash(i, limit)
        j = i if same else self.squash(j, limit)
        if fn == "mulf":
            bound = self.nodes[i].bound * self.nodes[j].bound
        else:
            bound = self.nodes[i].bound + self.nodes[j].bound
        form = rng.choice(["tensor", "generic"])
        return self.add(Node("ew", [i, j], self.nodes[i].shape, bound, fn=fn, form=form,
                             kind=kind))

    def k_binary(self, i):
        shape = self.nodes[i].shape
        cands = self.same_shape(shape, i)
        if cands and self.rng.random() < 0.8:
            j = self.rng.choice(cands)
        elif self.rng.random() < 0.3:
            j = i   # x op x: a value used twice by one op
        else:
            j = self.arg(shape)
        return self._binary(i, j, "binary")

    def k_skip(self, i):
        shape = self.nodes[i].shape
        cands = [j for j in self.same_shape(shape, i, early=True) if j < i]
        if not cands:
            return None
        return self._binary(i, self.rng.choice(cands), "skip")

    def _reduce(self, i, axis):
        """sum of `i` over `axis` (a small value, consumed right away)."""
        x = self.nodes[i]
        n = x.shape[axis]
        i = self.squash(i, LIMIT / n)
        shape = tuple(d for k, d in enumerate(x.shape) if k != axis)
        return self.add(Node("reduce", [i], shape, self.nodes[i].bound * n, axis=axis,
                             form=self.rng.choice(["reduce", "generic"]), kind="reduce"))

    def _broadcast(self, i, kind):
        """`i` broadcast along a new axis (at a random position, of a random
        size) to an activation of rank at most 3."""
        x = self.nodes[i]
        opts = []
        for axis in range(len(x.shape) + 1):
            for d in (2, 4, 8, 16) if len(x.shape) >= 2 else DIMS:
                shape = x.shape[:axis] + (d,) + x.shape[axis:]
                if fits(shape) and len(shape) <= 3:
                    opts.append((axis, shape))
        if not opts:
            return None
        axis, shape = self.rng.choice(opts)
        return self.add(Node("broadcast", [i], shape, x.bound, axis=axis,
                             form=self.rng.choice(["broadcast", "generic"]), kind=kind))

    def k_reduce(self, i):
        """A sum over an axis broadcast back to an activation (maybe of
        another shape)."""
        x = self.nodes[i]
        if len(x.shape) < 2:
            return None
        # an axis whose sum can be broadcast back to an activation
        axes = [a for a in range(len(x.shape))
                if elements(x.shape) // x.shape[a] * max(DIMS) >= MIN_ELEMENTS]
        if not axes:
            return None
        r = self._reduce(i, self.rng.choice(axes))
        r = self.squash(r, LIMIT / 2)
        return self._broadcast(r, "reduce")

    def k_broadcast(self, i):
        """An activation broadcast along a new axis."""
        if len(self.nodes[i].shape) != 2:
            return None
        return self._broadcast(i, "broadcast")

    def k_center(self, i):
        """x - y[broadcast along axis] * scale, with y an activation of the
        reduced shape or sum(x, axis) (then scale is 1/n: x - mean(x))."""
        x = self.nodes[i]
        if len(x.shape) < 2:
            return None
        axis = self.rng.randrange(len(x.shape))
        reduced = tuple(d for k, d in enumerate(x.shape) if k != axis)
        cands = [j for j in self.values() if self.nodes[j].shape == reduced and j != i]
        if cands and self.rng.random() < 0.7:
            y = self.rng.choice(cands)
            scale = 1.0
        else:
            i = self.squash(i, LIMIT / 2)
            y = self._reduce(i, axis)
            scale = 1.0 / x.shape[axis]
        i = self.squash(i, LIMIT / 2)
        y_bound = self.nodes[y].bound * scale
        if y_bound > LIMIT / 2:
            y = self.squash(y, 1.0)
            y_bound = scale
        return self.add(Node("center", [i, y], x.shape, self.nodes[i].bound + y_bound,
                             axis=axis, scale=scale, kind="center"))

    def k_attention(self, i):
        """softmax(scale q k^T) v over the last two dimensions of `i`
        (queries), with keys and values of its shape: values of that shape
        or arguments. The output is a convex combination of value rows."""
        x = self.nodes[i]
        if len(x.shape) not in (2, 3):
            return None
        rng = self.rng
        operands = []
        for _ in range(2):
            others = self.same_shape(x.shape, i)
            operands.append(rng.choice(others) if others and rng.random() < 0.5
                            else self.arg(x.shape))
        key, value = operands
        scale = 1.0 / math.sqrt(x.shape[-1])
        # Half of them with a constant key (padding) mask; key 0 is always
        # kept, so no query row (causal or not) is left without a key.
        key_mask = None
        if rng.random() < 0.5:
            rows = math.prod(x.shape[:-2])
            keys = x.shape[-2]
            key_mask = [[j == 0 or rng.random() < 0.7 for j in range(keys)]
                        for _ in range(rows)]
        return self.add(Node("attention", [i, key, value], x.shape, self.nodes[value].bound,
                             causal=rng.random() < 0.5, scale=scale, key_mask=key_mask,
                             kind="attention"))

    def k_transpose(self, i):
        x = self.nodes[i]
        rank = len(x.shape)
        if rank < 2:
            return None
        perm = list(range(rank))
        while perm == list(range(rank)):
            self.rng.shuffle(perm)
        shape = tuple(x.shape[p] for p in perm)
        return self.add(Node("transpose", [i], shape, x.bound, perm=perm,
                             form=self.rng.choice(["transpose", "generic"]),
                             kind="transpose"))

    def k_reshape(self, i):
        x = self.nodes[i]
        if len(x.shape) == 3:
            if self.rng.random() < 0.5:
                reassoc, shape = "[[0, 1], [2]]", (x.shape[0] * x.shape[1], x.shape[2])
            else:
                reassoc, shape = "[[0], [1, 2]]", (x.shape[0], x.shape[1] * x.shape[2])
            return self.add(Node("collapse", [i], shape, x.bound, reassoc=reassoc,
                                 kind="reshape"))
        if len(x.shape) != 2:
            return None
        d = self.rng.randrange(2)
        splits = [f for f in (2, 4, 8) if x.shape[d] % f == 0 and x.shape[d] // f >= 2]
        if not splits:
            return None
        f = self.rng.choice(splits)
        if d == 0:
            reassoc, shape = "[[0, 1], [2]]", (f, x.shape[0] // f, x.shape[1])
        else:
            reassoc, shape = "[[0], [1, 2]]", (x.shape[0], f, x.shape[1] // f)
        return self.add(Node("expand", [i], shape, x.bound, reassoc=reassoc,
                             kind="reshape"))


def random_shape(rng):
    while True:
        shape = (rng.choice(DIMS), rng.choice(DIMS))
        if fits(shape):
            return shape


def generate(seed, ops=None, kinds=ALL_KINDS, min_ops=10, max_ops=40):
    """The program of `seed`: about `ops` ops (default: min_ops to max_ops,
    drawn from the seed), of the op kinds in `kinds`."""
    rng = random.Random(seed)
    # an op kind adds at most 3 nodes (tanh squashes before it)
    target = rng.randint(min_ops, max(min_ops, max_ops - 2))
    if ops is not None:
        target = ops
    b = _Builder(rng, kinds)
    x = b.arg(random_shape(rng))
    # the first op reads the input
    first = b.k_matmul(x) if "matmul" in b.kinds else b.k_unary(x)
    if first is None:
        b.k_unary(x)
    while len(b.values()) < target:
        kind = rng.choices(b.kinds, b.weights)[0]
        i = b.pick_operand()
        made = getattr(b, "k_" + kind)(i)
        if made is None:
            b.k_unary(i)
    # outputs: the values nothing reads (the last one included)
    outputs = [i for i in b.values() if b.users[i] == 0]
    recipe = f"--seed {seed}"
    if ops is not None:
        recipe += f" --ops {ops}"
    elif (min_ops, max_ops) != (10, 40):
        recipe += f" --min-ops {min_ops} --max-ops {max_ops}"
    if tuple(kinds) != ALL_KINDS:
        recipe += " --kinds " + ",".join(kinds)
    return Program(seed, b.nodes, outputs, recipe)._pruned()


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m ckpt.difftest.generator",
                                     description="Print the random program of a seed.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ops", type=int, default=None,
                        help="number of ops (default: 10 to 40, from the seed)")
    parser.add_argument("--min-ops", type=int, default=10)
    parser.add_argument("--max-ops", type=int, default=40)
    parser.add_argument("--drop", type=int, action="append", default=[], metavar="I",
                        help="replace node I by an argument (as the minimizer does; "
                             "repeatable, applied in order)")
    parser.add_argument("--kinds", default=",".join(ALL_KINDS),
                        help="op kinds to use: " + ",".join(ALL_KINDS))
    parser.add_argument("--describe", action="store_true", help="print the DAG instead of MLIR")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    bad = [k for k in kinds if k not in ALL_KINDS]
    if bad:
        parser.error("unknown op kinds: " + ",".join(bad))
    prog = generate(args.seed, args.ops, kinds, args.min_ops, args.max_ops)
    for index in args.drop:
        if not 0 <= index < len(prog.nodes):
            parser.error(f"--drop {index}: the program has {len(prog.nodes)} nodes")
        prog = prog.drop(index)
    sys.stdout.write(prog.describe() + "\n" if args.describe else prog.mlir())
    return 0


if __name__ == "__main__":
    sys.exit(main())
