"""One scaled dot-product attention (`ckpt.attention`) and a mean-square
loss of its output: the program that exercises an attention lowering on its
own (the fused CUDA kernels in the GPU package, the CPU loops).

`loss(q, k, v[, key_mask])` with q [batch, heads, seq, width], k [batch,
heads, keys, width], v [batch, heads, keys, value_width] and the optional
padding mask [batch, heads, keys] (i1, an argument: the inputs decide which
keys are padding). ckpt-autodiff turns it into `loss_grad`, whose backward is
`ckpt.attention_grad`.
"""

import math

from .emitter import Emitter


def attention(batch=2, heads=4, seq=64, keys=0, width=32, value_width=0,
              causal=False, masked=False, dtype="f32", name="loss"):
    keys = keys or seq
    value_width = value_width or width
    e = Emitter(dtype)
    dt = e.dtype
    q_shape = (batch, heads, seq, width)
    k_shape = (batch, heads, keys, width)
    v_shape = (batch, heads, keys, value_width)
    o_shape = (batch, heads, seq, value_width)
    lse_shape = (batch, heads, seq)
    args = [("%q", e.ty(q_shape)), ("%k", e.ty(k_shape)), ("%v", e.ty(v_shape))]
    mask_clause = ""
    if masked:
        mask_type = f"tensor<{batch}x{heads}x{keys}xi1>"
        args.append(("%mask", mask_type))
        mask_clause = f" key_mask(%mask : {mask_type})"
    out, lse = e.fresh("out"), e.fresh("lse")
    e.emit(f"{out} = tensor.empty() : {e.ty(o_shape)}")
    e.emit(f"{lse} = tensor.empty() : {e.ty(lse_shape)}")
    o, row = e.fresh("o"), e.fresh("row_lse")
    flag = " causal" if causal else ""
    scale = 1.0 / math.sqrt(width)
    e.emit(f"{o}, {row} = ckpt.attention{flag} scale({scale!r}){mask_clause}\n"
           f"      ins(%q, %k, %v : {e.ty(q_shape)}, {e.ty(k_shape)}, {e.ty(v_shape)})\n"
           f"      outs({out}, {lse} : {e.ty(o_shape)}, {e.ty(lse_shape)})"
           f" -> {e.ty(o_shape)}, {e.ty(lse_shape)}")
    loss = e.sum_squares_mean(o, o_shape)
    e.emit(f"return {loss} : {e.ty(())}")
    return e.function(name, args, e.ty(()))
