//===- AttentionOps.td - fused attention ops ---------------*- tablegen -*-===//
//
// ckpt.attention and ckpt.attention_grad: scaled dot-product attention as one
// op whose saved state is O(sequence), and its flash-style gradient.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_DIALECT_CKPT_IR_ATTENTIONOPS_TD
#define CKPT_DIALECT_CKPT_IR_ATTENTIONOPS_TD

include "ckpt/Dialect/Ckpt/IR/CkptBase.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Ckpt_TensorOrMemRef : AnyTypeOf<[AnyRankedTensor, AnyStridedMemRef],
    "ranked tensor or strided memref">;

// Shared shape of the attention ops: destination style on tensors (the
// results are the updated `outs`, one per init) or on memrefs after
// bufferization (no results), like linalg's structured ops. The operands are
// the inputs, the inits, then the optional key mask (an input).
class Ckpt_AttentionBase<string mnemonic, int numInputs, int numInits>
    : Ckpt_Op<mnemonic, [
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
        DestinationStyleOpInterface
      ]> {
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The destinations: the last operands.
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return ::mlir::MutableOperandRange(getOperation(), }] # numInputs # [{,
                                         }] # numInits # [{);
    }
  }];
}

//===----------------------------------------------------------------------===//
// ckpt.attention
//===----------------------------------------------------------------------===//

def Ckpt_AttentionOp : Ckpt_AttentionBase<"attention", 3, 2> {
  let summary = "scaled dot-product attention with its row log-sum-exp";
  let description = [{
    For every index of the leading (batch, head, ...) dimensions, with
    `Q: [..., Sq, D]`, `K: [..., Sk, D]` and `V: [..., Sk, Dv]`:

    ```
    S[i, j]  = scale * sum_d Q[i, d] K[j, d]      (j <= i only when causal)
    lse[i]   = log sum_j exp(S[i, j])
    out[i,:] = sum_j exp(S[i, j] - lse[i]) V[j, :]
    ```

    which is `softmax(scale * Q K^T + mask) V`, with `causal` masking the keys
    after the query's position (top-left aligned, as PyTorch's `is_causal`)
    and the optional `key_mask` (`[..., Sk]` of i1, the query's leading
    dimensions) masking the keys where it is false (a padding mask: key j
    takes part in S[i, j] only where key_mask[..., j]). A row left with no
    key has a zero output, a -inf log-sum-exp and zero gradients, as
    PyTorch's SDPA (its safe softmax) gives it.
    The op never materializes the `Sq x Sk` scores: lowered, it computes each
    output row with an online softmax, so neither it nor the saved state of
    its gradient holds anything with two sequence dimensions. `lse` (the row
    log-sum-exp, `[..., Sq]`) is what `ckpt.attention_grad` needs besides the
    inputs and the output to recompute the probabilities.

    The op is in destination style: `outs` gives the output and the
    log-sum-exp; on tensors the results are their updated values. After
    bufferization it works on memrefs and has no results;
    `ckpt-lower-attention` lowers it to loops. `lse` has the element type of
    the inputs, or f32 for bf16/f16 inputs.

    Example (4 heads, 128 positions, 16 channels per head):

    ```mlir
    %o, %lse = ckpt.attention causal scale(0.25)
        ins(%q, %k, %v : tensor<4x128x16xf32>, tensor<4x128x16xf32>, tensor<4x128x16xf32>)
        outs(%e, %l : tensor<4x128x16xf32>, tensor<4x128xf32>)
        -> tensor<4x128x16xf32>, tensor<4x128xf32>
    ```
  }];
  let arguments = (ins Ckpt_TensorOrMemRef:$query, Ckpt_TensorOrMemRef:$key,
                       Ckpt_TensorOrMemRef:$value, Ckpt_TensorOrMemRef:$out,
                       Ckpt_TensorOrMemRef:$lse,
                       Optional<Ckpt_TensorOrMemRef>:$key_mask,
                       UnitAttr:$causal, F64Attr:$scale);
  let assemblyFormat = [{
    (`causal` $causal^)? `scale` `(` $scale `)`
    (`key_mask` `(` $key_mask^ `:` type($key_mask) `)`)?
    `ins` `(` $query `,` $key `,` $value `:` type($query) `,` type($key) `,`
      type($value) `)`
    `outs` `(` $out `,` $lse `:` type($out) `,` type($lse) `)`
    attr-dict (`->` type($results)^)?
  }];
}

//===----------------------------------------------------------------------===//
// ckpt.attention_grad
//===----------------------------------------------------------------------===//

def Ckpt_AttentionGradOp : Ckpt_AttentionBase<"attention_grad", 6, 3> {
  let summary = "gradient of ckpt.attention, recomputing the probabilities";
  let description = [{
    Given the inputs of a `ckpt.attention` with the same `causal`, `scale`
    and `key_mask`, its output `out` and log-sum-exp `lse`, and the gradient
    `grad_out` of the output, computes the gradients of the query, key and
    value (flash attention's backward, Dao et al. 2022):

    ```
    P[i, j]   = exp(scale * Q[i,:] . K[j,:] - lse[i])   (recomputed; 0 where masked)
    dV[j, :]  = sum_i P[i, j] dO[i, :]
    dS[i, j]  = P[i, j] (dO[i,:] . V[j,:] - dO[i,:] . out[i,:])
    dQ[i, :]  = scale sum_j dS[i, j] K[j, :]
    dK[j, :]  = scale sum_i dS[i, j] Q[i, :]
    ```

    The probabilities are recomputed rather than saved: this is
    rematerialization inside one op, and why a step using `ckpt.attention`
    keeps O(sequence) per attention. `outs` gives the three gradients (fully
    overwritten); on tensors the results are their updated values, on
    memrefs there are none.

    Example:

    ```mlir
    %dq, %dk, %dv = ckpt.attention_grad causal scale(0.25)
        ins(%q, %k, %v, %o, %lse, %do : tensor<4x128x16xf32>, tensor<4x128x16xf32>,
            tensor<4x128x16xf32>, tensor<4x128x16xf32>, tensor<4x128xf32>,
            tensor<4x128x16xf32>)
        outs(%e0, %e1, %e2 : tensor<4x128x16xf32>, tensor<4x128x16xf32>,
             tensor<4x128x16xf32>)
        -> tensor<4x128x16xf32>, tensor<4x128x16xf32>, tensor<4x128x16xf32>
    ```
  }];
  let arguments = (ins Ckpt_TensorOrMemRef:$query, Ckpt_TensorOrMemRef:$key,
                       Ckpt_TensorOrMemRef:$value, Ckpt_TensorOrMemRef:$out,
                       Ckpt_TensorOrMemRef:$lse, Ckpt_TensorOrMemRef:$grad_out,
                       Ckpt_TensorOrMemRef:$grad_query,
                       Ckpt_TensorOrMemRef:$grad_key,
                       Ckpt_TensorOrMemRef:$grad_value,
                       Optional<Ckpt_TensorOrMemRef>:$key_mask,
                       UnitAttr:$causal, F64Attr:$scale);
  let assemblyFormat = [{
    (`causal` $causal^)? `scale` `(` $scale `)`
    (`key_mask` `(` $key_mask^ `:` type($key_mask) `)`)?
    `ins` `(` $query `,` $key `,` $value `,` $out `,` $lse `,` $grad_out `:`
      type($query) `,` type($key) `,` type($value) `,` type($out) `,`
      type($lse) `,` type($grad_out) `)`
    `outs` `(` $grad_query `,` $grad_key `,` $grad_value `:`
      type($grad_query) `,` type($grad_key) `,` type($grad_value) `)`
    attr-dict (`->` type($results)^)?
  }];
}

#endif // CKPT_DIALECT_CKPT_IR_ATTENTIONOPS_TD
