//===- Passes.td - automatic differentiation --------------*- tablegen -*-===//
//
// ckpt-autodiff: reverse-mode differentiation of linalg on tensors.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_AUTODIFF_PASSES_TD
#define CKPT_AUTODIFF_PASSES_TD

include "mlir/Pass/PassBase.td"

def AutodiffPass : Pass<"ckpt-autodiff", "mlir::ModuleOp"> {
  let summary = "Reverse-mode differentiation of a loss function on tensors";
  let description = [{
    For every function marked `ckpt.differentiate` (or named by the
    `function` option) that returns one scalar loss (`f32`/`f64` or a 0-d
    float tensor), generates `<name>_grad` with the same arguments,
    returning the loss followed by the gradient with respect to every
    floating-point tensor argument, in argument order. The forward ops carry
    `ckpt.phase = #ckpt.phase<forward>` and the adjoint ops
    `#ckpt.phase<backward>`, which the memory analysis and the remat pass
    read. Adjoints of values with several uses are summed.

    Unfused attention is first raised to `ckpt.attention` (as
    `ckpt-raise-attention` does; `raise-attention=0` keeps it unfused), whose
    adjoint is one `ckpt.attention_grad` from the inputs, the output and the
    row log-sum-exp. `linalg.softmax` has its own rule, `dX = P * (dP -
    sum(dP * P))`, which reads only the probabilities P. Named linalg ops are
    generalized, other aggregates decomposed and
    elementwise arith/math on tensors turned into linalg.generic first; then
    one rule differentiates every `linalg.generic` whose inputs are read
    through projected permutations: the adjoint of input `x` is a generic over
    the same iteration space, parallel in `x`'s dimensions and reducing the
    others, whose payload is the forward payload followed by its
    forward-mode derivative with respect to `x`, times the output's adjoint.
    This covers elementwise ops (add, sub, mul, div, neg, max/min, select,
    exp, log, tanh, erf, sqrt, rsqrt, casts), additive and max/min
    reductions, transposes, broadcasts, matmul and batch matmul with any
    operand layout. Reshapes, slices and casts have their own rules. Any
    other op is a located error naming it.

    Example:

    ```mlir
    func.func @loss(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<f32>
        attributes {ckpt.differentiate} { ... }
    // becomes, next to @loss:
    func.func @loss_grad(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>)
        -> (tensor<f32>, tensor<8x8xf32>, tensor<8x8xf32>) { ... }
    ```
  }];
  let options = [
    Option<"functionName", "function", "std::string", /*default=*/"\"\"",
           "Function to differentiate (default: those marked "
           "ckpt.differentiate)">,
    Option<"suffix", "suffix", "std::string", /*default=*/"\"_grad\"",
           "Suffix of the generated function's name">,
    Option<"raiseAttention", "raise-attention", "bool", /*default=*/"true",
           "Raise unfused attention to ckpt.attention first "
           "(ckpt-raise-attention), so its gradient recomputes the "
           "probabilities instead of keeping them">,
  ];
  let dependentDialects = ["mlir::ckpt::CkptDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::tensor::TensorDialect"];
}


#endif // CKPT_AUTODIFF_PASSES_TD
