"""A small MLIR text emitter for linalg-on-tensors models."""


class Emitter:
    """Builds the body of one function: fresh SSA names, typed helpers.

    Every helper returns the SSA name of its result. Shapes are tuples of
    ints; `dtype` is "f32" or "f64".
    """

    def __init__(self, dtype):
        self.dtype = dtype
        self.lines = []
        self.counter = 0

    # -- basics -------------------------------------------------------------

    def fresh(self, stem="v"):
        self.counter += 1
        return f"%{stem}{self.counter}"

    def ty(self, shape):
        if not shape:
            return f"tensor<{self.dtype}>"
        return f"tensor<{'x'.join(str(d) for d in shape)}x{self.dtype}>"

    def emit(self, line):
        self.lines.append("  " + line)

    def scalar(self, value):
        name = self.fresh("c")
        self.emit(f"{name} = arith.constant {float(value):.17e} : {self.dtype}")
        return name

    def filled(self, shape, value):
        empty = self.fresh("e")
        self.emit(f"{empty} = tensor.empty() : {self.ty(shape)}")
        scalar = self.scalar(value)
        name = self.fresh("f")
        self.emit(f"{name} = linalg.fill ins({scalar} : {self.dtype}) "
                  f"outs({empty} : {self.ty(shape)}) -> {self.ty(shape)}")
        return name

    @staticmethod
    def _map(rank, dims):
        names = [f"d{i}" for i in range(rank)]
        return f"affine_map<({', '.join(names)}) -> ({', '.join(names[d] for d in dims)})>"

    def generic(self, inputs, out_shape, out_dims, iterators, body, init=None,
                name="g"):
        """A linalg.generic over `len(iterators)` loops.

        `inputs`: list of (ssa, shape, dims) with dims the loop dimensions
        indexing each input. The output (shape `out_shape`, indexed by
        `out_dims`) starts from `init` (an SSA tensor) or an empty tensor.
        `body(args, acc)` receives the scalar block argument names and the
        accumulator and returns (lines, yielded name).
        """
        rank = len(iterators)
        if init is None:
            init = self.fresh("e")
            self.emit(f"{init} = tensor.empty() : {self.ty(out_shape)}")
        maps = [self._map(rank, dims) for _, _, dims in inputs]
        maps.append(self._map(rank, out_dims))
        its = ", ".join(f'"{it}"' for it in iterators)
        ins = ""
        if inputs:
            ins = (" ins(" + ", ".join(s for s, _, _ in inputs) + " : " +
                   ", ".join(self.ty(shape) for _, shape, _ in inputs) + ")")
        result = self.fresh(name)
        self.emit(f"{result} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
                  f"iterator_types = [{its}]}}{ins} outs({init} : {self.ty(out_shape)}) {{")
        args = [self.fresh("a") for _ in inputs]
        acc = self.fresh("acc")
        block_args = ", ".join(f"{a}: {self.dtype}" for a in args + [acc])
        self.emit(f"^bb0({block_args}):")
        lines, yielded = body(args, acc)
        for line in lines:
            self.emit("  " + line)
        self.emit(f"  linalg.yield {yielded} : {self.dtype}")
        self.emit(f"}} -> {self.ty(out_shape)}")
        return result

    # -- building blocks ------------------------------------------------------

    def matmul(self, a, b, m, k, n):
        zeros = self.filled((m, n), 0.0)
        name = self.fresh("mm")
        self.emit(f"{name} = linalg.matmul ins({a}, {b} : {self.ty((m, k))}, {self.ty((k, n))}) "
                  f"outs({zeros} : {self.ty((m, n))}) -> {self.ty((m, n))}")
        return name

    def batch_matmul(self, a, b, batch, m, k, n):
        zeros = self.filled((batch, m, n), 0.0)
        name = self.fresh("bmm")
        self.emit(f"{name} = linalg.batch_matmul ins({a}, {b} : {self.ty((batch, m, k))}, "
                  f"{self.ty((batch, k, n))}) outs({zeros} : {self.ty((batch, m, n))}) "
                  f"-> {self.ty((batch, m, n))}")
        return name

    def transpose(self, a, shape, permutation):
        out_shape = tuple(shape[p] for p in permutation)
        empty = self.fresh("e")
        self.emit(f"{empty} = tensor.empty() : {self.ty(out_shape)}")
        name = self.fresh("tr")
        self.emit(f"{name} = linalg.transpose ins({a} : {self.ty(shape)}) "
                  f"outs({empty} : {self.ty(out_shape)}) permutation = "
                  f"[{', '.join(str(p) for p in permutation)}]")
        return name

    def elementwise(self, op, a, b, shape):
        name = self.fresh("ew")
        self.emit(f"{name} = arith.{op} {a}, {b} : {self.ty(shape)}")
        return name

    def unary(self, op, a, shape):
        name = self.fresh("un")
        self.emit(f"{name} = {op} {a} : {self.ty(shape)}")
        return name

    def dropout(self, a, shape, rate, seed, offset):
        """Inverted dropout: `a * (u >= rate) / (1 - rate)` with `u` from
        `ckpt.random_uniform` at a constant seed and counter offset, so the
        mask is reproducible and the remat pass may recompute it."""
        seed_ssa, offset_ssa = self.fresh("seed"), self.fresh("offset")
        self.emit(f"{seed_ssa} = arith.constant {seed} : i64")
        self.emit(f"{offset_ssa} = arith.constant {offset} : i64")
        uniform = self.fresh("u")
        self.emit(f"{uniform} = ckpt.random_uniform {seed_ssa}, {offset_ssa} "
                  f": {self.ty(shape)}")
        rate_ssa = self.scalar(rate)
        scale = self.scalar(1.0 / (1.0 - rate))
        zero = self.scalar(0.0)
        rank = len(shape)

        def body(args, acc):
            keep, scaled, out = self.fresh("k"), self.fresh("s"), self.fresh("o")
            return ([f"{keep} = arith.cmpf oge, {args[1]}, {rate_ssa} : {self.dtype}",
                     f"{scaled} = arith.mulf {args[0]}, {scale} : {self.dtype}",
                     f"{out} = arith.select {keep}, {scaled}, {zero} : {self.dtype}"],
                    out)

        dims = list(range(rank))
        return self.generic([(a, shape, dims), (uniform, shape, dims)], shape,
                            dims, ["parallel"] * rank, body, name="drop")

    def sum_squares_mean(self, a, shape):
        """mean(a^2) over every element, as a 0-d tensor."""
        rank = len(shape)
        zeros = self.filled((), 0.0)
        count = 1
        for d in shape:
            count *= d
        inv = self.scalar(1.0 / count)

        def body(args, acc):
            q, s, r = self.fresh("q"), self.fresh("s"), self.fresh("r")
            return ([f"{q} = arith.mulf {args[0]}, {args[0]} : {self.dtype}",
                     f"{s} = arith.mulf {q}, {inv} : {self.dtype}",
                     f"{r} = arith.addf {acc}, {s} : {self.dtype}"], r)

        return self.generic([(a, shape, list(range(rank)))], (), [],
                            ["reduction"] * rank, body, init=zeros, name="loss")

    def function(self, name, args, result_type):
        """The module text for a function with `args` [(ssa, type)]."""
        signature = ", ".join(f"{a}: {t}" for a, t in args)
        head = (f"func.func @{name}({signature}) -> {result_type}\n"
                f"    attributes {{ckpt.differentiate}} {{")
        return "module {\n" + head + "\n" + "\n".join(self.lines) + "\n}\n}\n"
