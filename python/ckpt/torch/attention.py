"""Scaled dot-product attention exported as `ckpt.attention` and
`ckpt.attention_grad`, the fused ops of ckpt's dialect, instead of its math
form.

Traced in its math form (`SDPBackend.MATH`), `F.scaled_dot_product_attention`
becomes matmuls, a mask and a softmax whose backward keeps the (Sq, Sk)
probabilities of every layer. While the step is traced, `fused_attention()`
routes each call ckpt's fused ops can take (no dropout; no `attn_mask`, or
a boolean one that is the same for every query, a padding mask such as
`mask[:, None, None, :]`; float32 or float64; equal leading dimensions
after a grouped-query expansion) to two custom ops of the `ckpt` torch
library:

- `ckpt::attention(q, k, v, causal, scale, key_mask=None) -> (out, lse)`,
- `ckpt::attention_backward(q, k, v, out, lse, grad_out, causal, scale,
  key_mask=None) -> (grad_q, grad_k, grad_v)`,

its autograd formula, so that AOTAutograd's joint graph holds the pair as
PyTorch's flash kernels would (the backward reads the output and the row
log-sum-exp, not the probabilities). Other calls keep the math form. The
same mode recognizes attention written out by hand
(ckpt.torch.attention_patterns) and routes it to the same ops.

torch-mlir knows neither op: its FX importer makes them `torch.operator`s.
`calls_for_operators` turns each into a call of a private function before
torch-mlir's pipelines run (their type conversion then converts the call's
tensors like any other), and `ops_for_calls` turns each call into
`ckpt.attention` / `ckpt.attention_grad` (with `tensor.empty`
destinations) once they have run, printed in generic form so that
torch-mlir's context needs no ckpt dialect. The pipelines' last pass, the
check of torch-mlir's linalg backend contract, knows no ckpt op and is left
out for such a step (`contract_pipeline`); ckpt's parser verifies the result.

The ops' eager implementations compute the same values in PyTorch (used
only when the ops run outside an export, on real tensors).
"""

import contextlib
import math
import re
from typing import Optional

#: Name of the torch library the ops are defined in.
LIBRARY = "ckpt"
#: Prefix of the private functions the operators become between import and
#: lowering.
_CALL_PREFIX = "__ckpt_torch_"
#: torch-mlir's name of an operator of the `ckpt` library (`torch.operator`).
_OPERATOR_PREFIX = "torch.ckpt."

_ops = None


def _scores(q, k, causal, scale, key_mask):
    """The scaled scores q kᵀ * scale, -inf above the diagonal when causal
    (top-left aligned, as PyTorch's `is_causal`) and where `key_mask`
    ([..., Sk], optional) is false."""
    import torch
    scores = torch.matmul(q, k.transpose(-1, -2)) * scale
    if key_mask is not None:
        scores = scores.masked_fill(~key_mask.unsqueeze(-2), float("-inf"))
    if causal:
        rows, cols = scores.shape[-2], scores.shape[-1]
        keep = torch.ones(rows, cols, dtype=torch.bool, device=q.device).tril()
        scores = scores.masked_fill(~keep, float("-inf"))
    return scores


def _probabilities(scores, lse):
    """exp(scores - lse), 0 on rows without keys (lse -inf), as PyTorch's
    safe softmax gives them."""
    import torch
    shift = torch.where(torch.isneginf(lse), torch.zeros_like(lse), lse)
    return torch.exp(scores - shift.unsqueeze(-1))


def _define_ops():
    """Defines the `ckpt` library's ops once; returns (attention,
    attention_backward)."""
    global _ops
    if _ops is not None:
        return _ops
    import torch

    @torch.library.custom_op(f"{LIBRARY}::attention", mutates_args=())
    def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool,
                  scale: float, key_mask: Optional[torch.Tensor] = None
                  ) -> tuple[torch.Tensor, torch.Tensor]:
        scores = _scores(q, k, causal, scale, key_mask)
        lse = torch.logsumexp(scores, dim=-1)
        return torch.matmul(_probabilities(scores, lse), v), lse

    @attention.register_fake
    def _(q, k, v, causal, scale, key_mask=None):
        return q.new_empty(q.shape[:-1] + v.shape[-1:]), q.new_empty(q.shape[:-1])

    @torch.library.custom_op(f"{LIBRARY}::attention_backward", mutates_args=())
    def attention_backward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, out: torch.Tensor,
                           lse: torch.Tensor, grad_out: torch.Tensor, causal: bool,
                           scale: float, key_mask: Optional[torch.Tensor] = None
                           ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        probabilities = _probabilities(_scores(q, k, causal, scale, key_mask), lse)
        grad_v = torch.matmul(probabilities.transpose(-1, -2), grad_out)
        grad_p = torch.matmul(grad_out, v.transpose(-1, -2))
        row = (grad_out * out).sum(dim=-1, keepdim=True)
        grad_s = probabilities * (grad_p - row) * scale
        return torch.matmul(grad_s, k), torch.matmul(grad_s.transpose(-1, -2), q), grad_v

    @attention_backward.register_fake
    def _(q, k, v, out, lse, grad_out, causal, scale, key_mask=None):
        return q.new_empty(q.shape), k.new_empty(k.shape), v.new_empty(v.shape)

    def setup_context(ctx, inputs, output):
        q, k, v, causal, scale, key_mask = inputs
        ctx.save_for_backward(q, k, v, *output, key_mask)
        ctx.causal, ctx.scale = causal, scale

    def backward(ctx, grad_out, _grad_lse):
        # The log-sum-exp is the op's residual, never a user's result
        # (`fused_attention` returns the output only): no gradient flows
        # into it.
        q, k, v, out, lse, key_mask = ctx.saved_tensors
        grads = attention_backward(q, k, v, out, lse, grad_out.contiguous(), ctx.causal,
                                   ctx.scale, key_mask)
        return (*grads, None, None, None)

    attention.register_autograd(backward, setup_context=setup_context)
    _ops = (attention, attention_backward)
    return _ops


def _key_mask(attn_mask, q, keys):
    """`attn_mask` as a [..., Sk] key mask for queries `q` (leading
    dimensions q's), or None when it is not one: boolean, of rank 2 or more
    (PyTorch refuses 1-D masks), broadcastable, and of size 1 along the
    queries."""
    import torch
    if attn_mask.dtype != torch.bool or attn_mask.dim() > q.dim() or attn_mask.dim() < 2:
        return None
    shape = (1,) * (q.dim() - attn_mask.dim()) + tuple(attn_mask.shape)
    if shape[-2] != 1 or shape[-1] != keys:
        return None
    target = tuple(q.shape[:-2]) + (1, keys)
    if any(s not in (1, t) for s, t in zip(shape, target)):
        return None
    return attn_mask.reshape(shape).expand(target).squeeze(-2)


def fusable_types(q, k, v):
    """Whether ckpt::attention computes attention over q, k, v as their
    types go: f32 or f64 throughout, outside autocast (where the math runs
    in autocast's dtype), one rank >= 2."""
    import torch
    if torch.is_autocast_enabled(q.device.type):
        return False
    return (q.dtype in (torch.float32, torch.float64) and k.dtype == v.dtype == q.dtype
            and q.dim() == k.dim() == v.dim() >= 2)


def fusable_shapes(q, k, v):
    """Whether q, k, v have the shapes ckpt::attention takes: equal leading
    dimensions, keys and values of one length, queries and keys of one
    width."""
    return (q.shape[:-2] == k.shape[:-2] and k.shape[:-1] == v.shape[:-1]
            and q.shape[-1] == k.shape[-1])


def _sdpa(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
          enable_gqa=False):
    """F.scaled_dot_product_attention through `ckpt::attention`, or None
    when the fused op does not compute it (then SDPA runs, and raises where
    PyTorch refuses the call: a mask with is_causal)."""
    if dropout_p != 0.0 or (attn_mask is not None and is_causal) or \
            not fusable_types(q, k, v):
        return None
    if enable_gqa and q.dim() >= 3 and k.shape[-3] != q.shape[-3]:
        if q.shape[-3] % k.shape[-3] or q.shape[-3] % v.shape[-3]:
            return None
        k = k.repeat_interleave(q.shape[-3] // k.shape[-3], dim=-3)
        v = v.repeat_interleave(q.shape[-3] // v.shape[-3], dim=-3)
    if not fusable_shapes(q, k, v):
        return None
    key_mask = None
    if attn_mask is not None:
        key_mask = _key_mask(attn_mask, q, k.shape[-2])
        if key_mask is None:
            return None
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else float(scale)
    attention, _ = _define_ops()
    out, _lse = attention(q, k, v, bool(is_causal), scale, key_mask)
    return out


@contextlib.contextmanager
def fused_attention():
    """A context in which `F.scaled_dot_product_attention` calls that the
    fused op computes go through `ckpt::attention` (see the module's doc),
    and so does attention written out as matmul, scale, mask, softmax and
    matmul (ckpt.torch.attention_patterns); everything else runs as it
    is."""
    import torch
    import torch.nn.functional as F

    from .attention_patterns import Recognizer
    recognizer = Recognizer()

    class Mode(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if func is F.scaled_dot_product_attention:
                out = _sdpa(*args, **kwargs)
                if out is not None:
                    return out
            out = recognizer.fused(func, args, kwargs)
            if out is not None:
                return out
            result = func(*args, **kwargs)
            recognizer.observe(func, args, kwargs, result)
            return result

    _define_ops()
    with Mode():
        yield


def _constant(value, ir):
    """The Python value of a `torch.constant.bool`/`.float`/`.int` operand."""
    owner = value.owner
    attribute = owner.attributes["value"]
    if str(owner.name) == "torch.constant.bool":
        return ir.BoolAttr(attribute).value
    if str(owner.name) == "torch.constant.float":
        return ir.FloatAttr(attribute).value
    return ir.IntegerAttr(attribute).value


def _walk(operation, name):
    """The ops named `name` nested in `operation`, in order."""
    found = []
    for region in operation.regions:
        for block in region.blocks:
            for op in block.operations:
                if op.operation.name == name:
                    found.append(op.operation)
                found.extend(_walk(op.operation, name))
    return found


def calls_for_operators(module):
    """Replaces every `torch.operator "torch.ckpt.<op>"` of `module` (torch
    dialect, as the FX importer makes it) by a call of a new private
    function; returns {function name: (op, causal, scale)} for
    `ops_for_calls`. The scalar operands must be constants."""
    from torch_mlir import ir

    calls = {}
    with module.context, ir.Location.unknown():
        for operator in _walk(module.operation, "torch.operator"):
            name = ir.StringAttr(operator.attributes["name"]).value
            if not name.startswith(_OPERATOR_PREFIX):
                continue
            op = name[len(_OPERATOR_PREFIX):]
            # Tensors (the inputs, then the key mask when given), then the
            # causal flag and the scale as constants (a missing mask is a
            # `torch.constant.none`).
            tensors = [v for v in operator.operands if str(v.type).startswith("!torch.vtensor")]
            causal, scale = (_constant(v, ir) for v in operator.operands
                             if str(v.type) in ("!torch.bool", "!torch.float"))
            callee = f"{_CALL_PREFIX}{op}_{len(calls)}"
            result_types = [r.type for r in operator.results]
            with ir.InsertionPoint(module.body):
                ir.Operation.create(
                    "func.func", regions=1,
                    attributes={"sym_name": ir.StringAttr.get(callee),
                                "sym_visibility": ir.StringAttr.get("private"),
                                "function_type": ir.TypeAttr.get(ir.FunctionType.get(
                                    [t.type for t in tensors], result_types))})
            call = ir.Operation.create(
                "func.call", results=result_types, operands=tensors,
                attributes={"callee": ir.FlatSymbolRefAttr.get(callee)},
                loc=operator.location, ip=ir.InsertionPoint(operator))
            for old, new in zip(operator.results, call.results):
                old.replace_all_uses_with(new)
            operator.erase()
            calls[callee] = (op, bool(causal), float(scale))
    return calls


#: ckpt's op for each op of the `ckpt` torch library and how many inputs
#: come before its destinations (one per result); the key mask, when there
#: is one, comes after them.
_CKPT_OPS = {"attention": ("ckpt.attention", 3),
             "attention_backward": ("ckpt.attention_grad", 6)}


def ops_for_calls(module, calls):
    """Replaces the calls `calls_for_operators` made (after torch-mlir's
    pipelines: on builtin tensors) by ckpt's ops, with `tensor.empty`
    destinations, and erases the private functions."""
    from torch_mlir import ir

    if not calls:
        return
    module.context.allow_unregistered_dialects = True
    with module.context, ir.Location.unknown():
        for call in _walk(module.operation, "func.call"):
            callee = ir.FlatSymbolRefAttr(call.attributes["callee"]).value
            if callee not in calls:
                continue
            op, causal, scale = calls[callee]
            point = ir.InsertionPoint(call)
            inits = [ir.Operation.create("tensor.empty", results=[r.type], loc=call.location,
                                         ip=point).result for r in call.results]
            attributes = {"scale": ir.FloatAttr.get(ir.F64Type.get(), scale)}
            if causal:
                attributes["causal"] = ir.UnitAttr.get()
            name, inputs = _CKPT_OPS[op]
            operands = list(call.operands)
            fused = ir.Operation.create(name, results=[r.type for r in call.results],
                                        operands=operands[:inputs] + inits + operands[inputs:],
                                        attributes=attributes, loc=call.location, ip=point)
            for old, new in zip(call.results, fused.results):
                old.replace_all_uses_with(new)
            call.erase()
        for function in list(module.body.operations):
            if str(function.operation.name) == "func.func" and \
                    ir.StringAttr(function.operation.attributes["sym_name"]).value in calls:
                function.operation.erase()


def contract_pipeline(pipeline):
    """`pipeline` (a torch-mlir pipeline, textual) expanded, without its
    check of the linalg backend contract, which rejects the calls."""
    from torch_mlir.passmanager import PassManager
    expanded = str(PassManager.parse(pipeline))
    return re.sub(r",torch-verify-linalg-on-tensors-backend-contract(?=\)$)", "", expanded)
