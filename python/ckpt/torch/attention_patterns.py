"""Attention written out by hand, recognized while a step is traced:

    scores = torch.matmul(q, k.transpose(-1, -2)) * scale   (or / divisor)
    scores = scores + mask                 (optional; or torch.where /
                                            masked_fill with a boolean mask)
    p = F.softmax(scores, dim=-1)          (then .type/.to its own dtype and
                                            dropout with p=0: the same p)
    out = torch.matmul(p, v)

as Hugging Face's `eager` attention (GPT-2, BERT, ViT, Llama, ...) computes
it. `Recognizer.observe` follows every torch function call of the traced
forward (from ckpt.torch.attention's TorchFunctionMode); when the last
matmul completes the chain, `Recognizer.fused` gives `ckpt::attention`'s
output for it, which the mode returns instead of the matmul's. The chain's
own ops stay in the traced graph, unused by the step's results (dead code,
which torch-mlir's pipelines remove); a chain whose intermediates are used
elsewhere keeps working for those uses.

A mask can only be folded in when its values are known while tracing, as
Hugging Face's causal masks are (computed from `arange` comparisons of the
sequence positions, no step input): every tensor computed from constants
alone (`arange`, `zeros`, `full`, ... and ops on them) gets a *shadow*, its
real value, computed beside the trace on real tensors. The mask's shadow
must then be a causal mask, a key (padding) mask the same for every query,
both, or nothing at all (additive masks: 0 where kept, at most -1e9 where
masked; boolean ones: true where kept), and no query row may lose every
key. A mask computed from a step input (a padding mask from
`attention_mask`) has no shadow: such attention keeps its math form. Ops
that draw random numbers are never shadowed. Any in-place op (`add_`,
`/=`, `x[...] = `, `out=`, `inplace=True`) drops every shadow and every
chain followed so far (an alias might have changed), and so does any error
while following. Under autocast nothing is fused (the written-out matmuls
run in autocast's dtype).
"""

import dataclasses
import math

#: Factories whose result depends on their arguments only (not random).
_FACTORIES = frozenset({"arange", "zeros", "ones", "full", "tensor", "as_tensor", "eye",
                        "zeros_like", "ones_like", "full_like", "tril", "triu", "linspace",
                        "scalar_tensor"})
#: Parts of the names of ops whose result a second run does not repeat
#: (random draws, uninitialized memory): never shadowed.
_UNREPEATABLE = ("rand", "bernoulli", "dropout", "normal", "multinomial", "poisson",
                 "uniform", "exponential", "cauchy", "geometric", "empty")
#: In-place operators (besides names ending in "_" and `out=`).
_IN_PLACE = frozenset({"__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__",
                       "__imod__", "__ipow__", "__iand__", "__ior__", "__ixor__",
                       "__ilshift__", "__irshift__", "__imatmul__", "__setitem__"})
#: Tensor queries and bookkeeping that compute nothing.
_IGNORED = frozenset({"__get__", "__set__", "size", "dim", "stride", "storage_offset",
                      "is_contiguous", "numel", "data_ptr", "untyped_storage", "device",
                      "_is_view", "is_inference", "is_conj", "is_neg", "is_floating_point",
                      "element_size", "requires_grad_", "__len__", "__format__",
                      "__repr__", "__bool__", "item", "tolist"})
_MATMULS = frozenset({"matmul", "__matmul__", "bmm"})
_MULS = frozenset({"mul", "__mul__", "__rmul__", "multiply"})
_DIVS = frozenset({"div", "__truediv__", "divide", "true_divide"})
_ADDS = frozenset({"add", "__add__", "__radd__"})
_CASTS = frozenset({"type", "to"})
#: An additive mask entry at most this is a masked key.
_MASKED = -1e9


def _name(func):
    return getattr(func, "__name__", "")


def _in_place(name, args, kwargs):
    """Whether a call writes into one of its arguments."""
    if name in _IN_PLACE or (name.endswith("_") and not name.startswith("__")):
        return True
    if "out" in kwargs or kwargs.get("inplace") is True:
        return True
    # F.dropout(input, p, training, inplace), F.relu(input, inplace), ...
    return len(args) > 1 and args[-1] is True and name in (
        "dropout", "relu", "threshold", "hardtanh", "elu", "leaky_relu", "rrelu", "selu",
        "celu", "silu", "mish", "hardswish", "hardsigmoid", "relu6")


def _tensors(value):
    """The tensors in `value` (nested lists and tuples)."""
    import torch
    if torch.is_tensor(value):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _tensors(v)]
    return []


@dataclasses.dataclass(frozen=True)
class _Chain:
    """The state of one written-out attention: q, k, the scale so far and
    the mask folded in (causal flag, key mask as a traced tensor or None)."""
    query: object
    key: object
    scale: float = 1.0
    masked: bool = False
    causal: bool = False
    key_mask: object = None


class Recognizer:
    """Follows a traced forward's torch function calls (see the module)."""

    def __init__(self):
        from torch.utils.weak import WeakIdKeyDictionary
        self.shadows = WeakIdKeyDictionary()
        self.transposed = WeakIdKeyDictionary()  # k.transpose(-1, -2) -> k
        self.scores = WeakIdKeyDictionary()      # tensor -> _Chain
        self.probabilities = WeakIdKeyDictionary()

    # Shadows ----------------------------------------------------------

    def _shadow(self, value):
        import torch
        if torch.is_tensor(value):
            return self.shadows[value]
        if isinstance(value, (list, tuple)):
            return type(value)(self._shadow(v) for v in value)
        return value

    def _forget(self):
        """Drops every shadow and every chain: after an in-place op, any of
        them may describe a tensor whose value changed (through an alias,
        too)."""
        for table in ("shadows", "transposed", "scores", "probabilities"):
            setattr(self, table, type(getattr(self, table))())

    def _track_shadow(self, func, args, kwargs, result):
        """Computes `result`'s shadow when every tensor argument has one (or
        `func` is a factory with none), unless `func` draws random numbers
        or leaves memory uninitialized."""
        from torch.utils._python_dispatch import _disable_current_modes
        name = _name(func)
        results = _tensors(result)
        if not results or any(word in name for word in _UNREPEATABLE):
            return
        inputs = _tensors(list(args) + list(kwargs.values()))
        if inputs:
            if not all(t in self.shadows for t in inputs):
                return
        elif name not in _FACTORIES:
            return
        if any(getattr(t, "device", None) is not None and t.device.type == "meta"
               for t in results):
            return
        try:
            with _disable_current_modes():
                real = func(*self._shadow(list(args)),
                            **{k: self._shadow(v) for k, v in kwargs.items()})
        except Exception:  # a shadow is an optimization: never fail the trace
            return
        reals = _tensors(real)
        if len(reals) == len(results):
            for traced, value in zip(results, reals):
                if tuple(value.shape) == tuple(traced.shape):
                    self.shadows[traced] = value

    # The chain --------------------------------------------------------

    def _mask_kind(self, scores, mask, keep_where_true, boolean):
        """(causal, key mask of shape scores.shape[:-2] + (Sk,) as a shadow
        or None) for a mask with a known value, or None when the mask is
        not one the fused op takes."""
        import torch
        from torch.utils._python_dispatch import _disable_current_modes
        if not torch.is_tensor(mask) or mask not in self.shadows:
            return None
        with _disable_current_modes():  # real tensors, outside the trace
            return self._classify(self.shadows[mask], tuple(scores.shape),
                                  keep_where_true, boolean)

    @staticmethod
    def _classify(value, shape, keep_where_true, boolean):
        import torch
        if len(shape) < 2 or value.dim() > len(shape):
            return None
        # Only the last two dimensions are expanded: the leading ones stay as
        # the mask has them (1 or the scores' size), so that the checks cost
        # the mask's size, not the scores'.
        value = value.reshape((1,) * (len(shape) - value.dim()) + tuple(value.shape))
        if any(size not in (1, full) for size, full in zip(value.shape[:-2], shape[:-2])):
            return None
        try:
            value = value.expand(tuple(value.shape[:-2]) + tuple(shape[-2:]))
        except RuntimeError:
            return None
        if boolean:
            if value.dtype != torch.bool:
                return None
            kept = value if keep_where_true else ~value
        else:
            if not value.is_floating_point():
                return None
            kept = value == 0
            if not bool(((value == 0) | (value <= _MASKED)).all()):
                return None
        rows, keys = shape[-2], shape[-1]
        causal_pattern = torch.ones(rows, keys, dtype=torch.bool).tril()
        if not bool(kept.any(dim=-1).all()):
            return None  # a row without keys: softmax over -inf differs
        key_kept = kept.any(dim=-2)
        for causal in (False, True):
            expected = key_kept.unsqueeze(-2)
            if causal:
                expected = expected & causal_pattern
            if bool((kept == expected).all()):
                return causal, (None if bool(key_kept.all()) else key_kept)
        return None

    def _fold_mask(self, chain, scores, mask, keep_where_true, boolean):
        kind = self._mask_kind(scores, mask, keep_where_true, boolean)
        if kind is None:
            return None
        causal, key_kept = kind
        key_mask = None
        if key_kept is not None:
            # A constant of the traced graph, computed in it from the mask.
            if boolean:
                traced = mask if keep_where_true else ~mask
            else:
                traced = mask == 0
            traced = traced.reshape((1,) * (scores.dim() - traced.dim()) + tuple(traced.shape))
            key_kept = traced.expand(tuple(traced.shape[:-2]) + tuple(scores.shape[-2:]))
            key_mask = key_kept.any(dim=-2).expand(tuple(scores.shape[:-2])
                                                    + (scores.shape[-1],))
        return dataclasses.replace(chain, masked=True, causal=causal, key_mask=key_mask)

    def observe(self, func, args, kwargs, result):
        """Records what `func(*args, **kwargs) = result` means for shadows
        and for attention chains. Recognition never fails a trace: an
        unexpected error only forgets what was recorded."""
        name = _name(func)
        if name in _IGNORED:
            return
        if _in_place(name, args, kwargs):
            self._forget()
            return
        try:
            self._track_shadow(func, args, kwargs, result)
            self._follow(name, args, kwargs, result)
        except Exception:  # noqa: BLE001 (see the docstring)
            self._forget()

    def _follow(self, name, args, kwargs, result):
        """The chain part of `observe`."""
        import torch
        if not torch.is_tensor(result) or not args:
            return
        first = args[0]
        second = args[1] if len(args) > 1 else None
        if name == "transpose" and torch.is_tensor(first) and len(args) == 3 \
                and first.dim() >= 2:
            dims = {d % first.dim() for d in args[1:] if isinstance(d, int)}
            if dims == {first.dim() - 1, first.dim() - 2}:
                self.transposed[result] = first
        elif name in _MATMULS and torch.is_tensor(first) and torch.is_tensor(second):
            if second in self.transposed:
                self.scores[result] = _Chain(first, self.transposed[second])
        elif name in _MULS | _DIVS and not kwargs:
            scores, factor = (first, second) if torch.is_tensor(first) else (second, first)
            if torch.is_tensor(scores) and scores in self.scores and \
                    isinstance(factor, (int, float)) and not isinstance(factor, bool) \
                    and factor != 0 and not self.scores[scores].masked:
                chain = self.scores[scores]
                scale = chain.scale * factor if name in _MULS else chain.scale / factor
                if (name in _DIVS and first is not scores) or not math.isfinite(scale):
                    return
                self.scores[result] = dataclasses.replace(chain, scale=scale)
        elif name in _ADDS and torch.is_tensor(first) and torch.is_tensor(second) \
                and kwargs.get("alpha", 1) == 1:
            scores, mask = (first, second) if first in self.scores else (second, first)
            if scores in self.scores and not self.scores[scores].masked:
                folded = self._fold_mask(self.scores[scores], scores, mask, True, False)
                if folded is not None:
                    self.scores[result] = folded
        elif name == "where" and len(args) == 3 and torch.is_tensor(second) \
                and second in self.scores and not self.scores[second].masked \
                and isinstance(args[2], float) and args[2] <= _MASKED:
            folded = self._fold_mask(self.scores[second], second, first, True, True)
            if folded is not None:
                self.scores[result] = folded
        elif name == "masked_fill" and first in self.scores and len(args) == 3 \
                and not self.scores[first].masked and isinstance(args[2], float) \
                and args[2] <= _MASKED:
            folded = self._fold_mask(self.scores[first], first, second, False, True)
            if folded is not None:
                self.scores[result] = folded
        elif name == "softmax" and first in self.scores:
            dim = args[1] if len(args) > 1 else kwargs.get("dim")
            dtype = kwargs.get("dtype") or (args[2] if len(args) > 2 else None)
            if isinstance(dim, int) and dim % first.dim() == first.dim() - 1 and \
                    (dtype is None or dtype == first.dtype):
                self.probabilities[result] = self.scores[first]
        elif name in _CASTS and first in self.probabilities and result.dtype == first.dtype:
            self.probabilities[result] = self.probabilities[first]
        elif name == "dropout" and first in self.probabilities:
            p = kwargs.get("p", args[1] if len(args) > 1 else 0.5)
            training = kwargs.get("training", args[2] if len(args) > 2 else True)
            if p == 0 or not training:
                self.probabilities[result] = self.probabilities[first]

    def fused(self, func, args, kwargs):
        """ckpt::attention's output for `func(*args, **kwargs)` when it is
        the matmul that completes a chain the fused op computes, else None."""
        import torch
        if _name(func) not in _MATMULS or kwargs or len(args) != 2:
            return None
        probabilities, value = args
        if not (torch.is_tensor(probabilities) and torch.is_tensor(value)) or \
                probabilities not in self.probabilities:
            return None
        chain = self.probabilities[probabilities]
        query, key = chain.query, chain.key
        from .attention import _define_ops, fusable_shapes, fusable_types
        if not (fusable_types(query, key, value) and fusable_shapes(query, key, value)):
            return None
        attention, _ = _define_ops()
        out, _lse = attention(query, key, value, chain.causal, float(chain.scale),
                              chain.key_mask)
        return out
