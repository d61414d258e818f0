//===- CkptOps.td - ckpt dialect operations ----------------*- tablegen -*-===//
//
// Operations of the ckpt dialect.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTOPS_TD
#define CKPT_DIALECT_CKPT_IR_CKPTOPS_TD

include "ckpt/Dialect/Ckpt/IR/CkptBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/RegionKindInterface.td"

//===----------------------------------------------------------------------===//
// Region ops: shared shape of ckpt.recompute and ckpt.checkpoint
//===----------------------------------------------------------------------===//

// Operands become the block arguments of a single isolated block; ckpt.yield
// returns the results. Both ops share the assembly format
//   (%arg = %operand : type, ...) -> (types) { body } attributes {...}
// and the region verifier (see CkptOps.cpp).
class Ckpt_RegionOp<string mnemonic, list<Trait> traits = []>
    : Ckpt_Op<mnemonic, !listconcat(traits, [IsolatedFromAbove, SingleBlock])> {
  let arguments = (ins Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The single block of the region.
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The block arguments that stand for the inputs inside the region.
    ::mlir::Block::BlockArgListType getRegionInputs() {
      return getBodyBlock().getArguments();
    }
    /// The terminator returning the region's results.
    YieldOp getYield();
  }];
  let extraClassDefinition = [{
    ::mlir::ckpt::YieldOp $cppClass::getYield() {
      return ::llvm::cast<::mlir::ckpt::YieldOp>(getBodyBlock().getTerminator());
    }
    ::mlir::ParseResult $cppClass::parse(::mlir::OpAsmParser &parser,
                                         ::mlir::OperationState &result) {
      return ::mlir::ckpt::detail::parseRegionOp(parser, result);
    }
    void $cppClass::print(::mlir::OpAsmPrinter &p) {
      ::mlir::ckpt::detail::printRegionOp(p, getOperation());
    }
    ::llvm::LogicalResult $cppClass::verifyRegions() {
      return ::mlir::ckpt::detail::verifyRegionOp(getOperation());
    }
  }];
}

//===----------------------------------------------------------------------===//
// ckpt.recompute
//===----------------------------------------------------------------------===//

def Ckpt_RecomputeOp : Ckpt_RegionOp<"recompute", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>
  ]> {
  let summary = "recomputes forward values from saved ones";
  let description = [{
    `ckpt.recompute` holds a clone of forward computation. Its operands are
    the values the recomputation starts from (saved activations, parameters,
    seeds); its single block receives them as arguments, in order, and its
    `ckpt.yield` returns the recomputed values as the op's results. The op is
    isolated from above: everything the clone needs comes in as an operand.

    The remat pass places it right before the first backward use of the
    values it recomputes, so the original forward values can die early.

    Two clones of the same computation must both stay: the op is not `Pure`.
    It declares an allocation effect on each result (and a read of each
    memref operand), so CSE never merges two identical recompute regions with
    each other or with the original computation, loop-invariant code motion
    never hoists one, and DCE removes one only when its results are unused.

    On tensors the region may only hold ops whose only memory effect is
    allocation. After bufferization the op works on memrefs: its region may
    read anything, and allocate and write buffers it allocated itself, but
    never writes into (or frees) a block argument that is not donated: the
    saved values it starts from are read-only. `ckpt-lower-recompute`
    inlines the region after bufferization, before buffer deallocation.

    `donated` lists the inputs (by position, increasing) whose buffers the
    region may write into: inputs read for the last time here, such as a
    recomputed value an elementwise op of the region overwrites (a ReLU
    written over the convolution output it reads). One-Shot Bufferize then
    writes in place into the input's buffer where nothing later reads it
    (and into a copy where something does), and a result yielded from a
    donated input's buffer takes that buffer instead of a fresh one.

    Example:

    ```mlir
    %h = ckpt.recompute(%x = %saved : tensor<64x128xf32>) -> tensor<64x128xf32> {
      %e = tensor.empty() : tensor<64x128xf32>
      %r = linalg.generic {
          indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
          iterator_types = ["parallel", "parallel"]}
          ins(%x : tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) {
        ^bb0(%in: f32, %out: f32):
          %zero = arith.constant 0.0 : f32
          %m = arith.maximumf %in, %zero : f32
          linalg.yield %m : f32
      } -> tensor<64x128xf32>
      ckpt.yield %r : tensor<64x128xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs,
                       OptionalAttr<DenseI64ArrayAttr>:$donated);
}

//===----------------------------------------------------------------------===//
// ckpt.checkpoint
//===----------------------------------------------------------------------===//

def Ckpt_CheckpointOp : Ckpt_RegionOp<"checkpoint", [
    RecursiveMemoryEffects
  ]> {
  let summary = "user-marked forward region whose inner values are recomputed";
  let description = [{
    `ckpt.checkpoint` is the compile-time equivalent of
    `torch.utils.checkpoint`: the values computed inside the region are not
    kept for the backward pass; only the region's inputs and results are.
    Where the backward pass needs an inner value, the `ckpt-remat` pass
    recomputes the region from its inputs. The op has the same shape as
    `ckpt.recompute`: operands become block arguments, `ckpt.yield` returns
    the results.

    The region may only hold ops whose only memory effect is allocation
    (recomputation must not duplicate side effects). The op must be expanded
    by `ckpt-remat` before bufferization; bufferizing or lowering an
    unexpanded `ckpt.checkpoint` is an error that says so.

    Example:

    ```mlir
    %y = ckpt.checkpoint(%a = %x : tensor<64x128xf32>, %w = %w1 : tensor<128x128xf32>)
        -> tensor<64x128xf32> {
      %e = tensor.empty() : tensor<64x128xf32>
      %c0 = arith.constant 0.0 : f32
      %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
      %m = linalg.matmul ins(%a, %w : tensor<64x128xf32>, tensor<128x128xf32>)
                         outs(%z : tensor<64x128xf32>) -> tensor<64x128xf32>
      ckpt.yield %m : tensor<64x128xf32>
    }
    ```
  }];
}

//===----------------------------------------------------------------------===//
// ckpt.yield
//===----------------------------------------------------------------------===//

def Ckpt_YieldOp : Ckpt_Op<"yield", [
    Pure, ReturnLike, Terminator,
    ParentOneOf<["RecomputeOp", "CheckpointOp"]>
  ]> {
  let summary = "returns the values computed by a ckpt region";
  let description = [{
    Terminates the region of `ckpt.recompute` and `ckpt.checkpoint`; its
    operands become the results of the parent op and must match their types.

    Example:

    ```mlir
    ckpt.yield %r, %s : tensor<64x128xf32>, tensor<64xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

//===----------------------------------------------------------------------===//
// ckpt.random_uniform
//===----------------------------------------------------------------------===//

def Ckpt_RandomUniformOp : Ckpt_Op<"random_uniform", [Pure]> {
  let summary = "counter-based uniform random numbers (Philox-4x32-10)";
  let description = [{
    Produces a tensor of pseudo-random numbers uniform in [0, 1), a pure
    function of its operands: element `i` (in row-major order) is derived
    from the Philox-4x32-10 block of counter `offset + i` and key `seed`
    (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011).
    Because nothing is hidden in a generator state, computing the op twice
    gives the same bits: this is the random op the remat pass may recompute,
    so dropout masks are reproduced exactly in the backward pass. Use a new
    `offset` (or `seed`) for each independent draw.

    f32 elements take the top 24 bits of the block's first word, f64
    elements 53 bits of its first two words. `ckpt-lower-random` lowers the
    op to a `linalg.generic` of integer arithmetic.

    Example (dropout with keep probability 0.9):

    ```mlir
    %u = ckpt.random_uniform %seed, %offset : tensor<64x128xf32>
    ```
  }];
  let arguments = (ins I64:$seed, I64:$offset);
  let results = (outs RankedTensorOf<[F32, F64]>:$result);
  let assemblyFormat = "$seed `,` $offset attr-dict `:` type($result)";
  let hasVerifier = 1;
}

include "ckpt/Dialect/Ckpt/IR/AttentionOps.td"

#endif // CKPT_DIALECT_CKPT_IR_CKPTOPS_TD
