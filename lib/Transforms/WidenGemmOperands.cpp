//===- WidenGemmOperands.cpp - narrow GEMM operands as f32 copies ---------===//
//
// Implements `ckpt-widen-gemm-operands`: a contraction of bf16/f16 operands
// into an f32 accumulator reads f32 copies of its operands instead, so that
// a BLAS without narrow GEMMs computes it (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "ckpt-widen-gemm-operands"

namespace mlir::ckpt {
#define GEN_PASS_DEF_WIDENGEMMOPERANDSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// Whether `value` is `arith.extf` of block argument `argument` to `wide`.
bool isExtensionOf(Value value, BlockArgument argument, Type wide) {
  auto extension = value.getDefiningOp<arith::ExtFOp>();
  return extension && extension.getIn() == argument &&
         extension.getType() == wide;
}

/// Whether `generic` is what ckpt-widen-accumulators makes of a narrow
/// matrix product: narrow float inputs A and B, an f32 accumulator C and the
/// payload `C + extf(A) * extf(B)` (in either operand order), as one GEMM
/// (at most one batch dimension, one each of M, N and K, every operand
/// indexed by plain loop dimensions).
bool isWidenedGemm(linalg::GenericOp generic) {
  if (!generic.hasPureTensorSemantics() || generic.getNumDpsInputs() != 2 ||
      generic.getNumDpsInits() != 1 || generic->getNumResults() != 1)
    return false;
  Type wide = getElementTypeOrSelf(generic.getDpsInits()[0].getType());
  if (!wide.isF32())
    return false;
  for (Value input : generic.getDpsInputs()) {
    Type element = getElementTypeOrSelf(input.getType());
    if (!element.isBF16() && !element.isF16())
      return false;
    if (!cast<RankedTensorType>(input.getType()).hasStaticShape())
      return false;
  }
  for (AffineMap map : generic.getIndexingMapsArray())
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return false;
  auto linalgOp = cast<linalg::LinalgOp>(generic.getOperation());
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(linalgOp);
  if (failed(dims) || dims->batch.size() > 1 || dims->m.size() != 1 ||
      dims->n.size() != 1 || dims->k.size() != 1 ||
      generic.getNumLoops() != 3 + dims->batch.size())
    return false;

  Block &body = generic.getRegion().front();
  if (body.getOperations().size() != 5)
    return false;
  BlockArgument a = body.getArgument(0), b = body.getArgument(1),
                c = body.getArgument(2);
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto sum = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!sum)
    return false;
  Value product;
  if (sum.getLhs() == c)
    product = sum.getRhs();
  else if (sum.getRhs() == c)
    product = sum.getLhs();
  else
    return false;
  auto multiply = product.getDefiningOp<arith::MulFOp>();
  if (!multiply)
    return false;
  Value lhs = multiply.getLhs(), rhs = multiply.getRhs();
  return (isExtensionOf(lhs, a, wide) && isExtensionOf(rhs, b, wide)) ||
         (isExtensionOf(lhs, b, wide) && isExtensionOf(rhs, a, wide));
}

/// An elementwise f32 copy of the narrow tensor `input`, with `phase` (the
/// contraction's) when it has one.
Value extendToF32(OpBuilder &builder, Location loc, Value input,
                  Attribute phase) {
  auto type = cast<RankedTensorType>(input.getType());
  Type f32 = builder.getF32Type();
  auto empty = tensor::EmptyOp::create(builder, loc, type.getShape(), f32);
  AffineMap identity =
      builder.getMultiDimIdentityMap(static_cast<unsigned>(type.getRank()));
  auto copy = linalg::GenericOp::create(
      builder, loc, empty.getType(), input, ValueRange{empty},
      ArrayRef<AffineMap>{identity, identity},
      SmallVector<utils::IteratorType>(type.getRank(),
                                       utils::IteratorType::parallel),
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        Value wide = arith::ExtFOp::create(nested, loc, f32, args[0]);
        linalg::YieldOp::create(nested, loc, wide);
      });
  if (phase) {
    empty->setAttr(CkptDialect::getPhaseAttrName(), phase);
    copy->setAttr(CkptDialect::getPhaseAttrName(), phase);
  }
  return copy.getResult(0);
}

/// Rewrites `generic` (a widened GEMM) to read f32 copies of its inputs; the
/// payload multiplies and accumulates in f32 as before (the products of
/// extended narrow values are exact in f32 either way).
void readF32Copies(linalg::GenericOp generic) {
  OpBuilder builder(generic);
  Location loc = generic.getLoc();
  Attribute phase = generic->getAttr(CkptDialect::getPhaseAttrName());
  SmallVector<Value, 2> inputs;
  for (Value input : generic.getDpsInputs())
    inputs.push_back(extendToF32(builder, loc, input, phase));
  auto product = linalg::GenericOp::create(
      builder, loc, generic->getResultTypes(), inputs, generic.getDpsInits(),
      generic.getIndexingMapsArray(), generic.getIteratorTypesArray(),
      [](OpBuilder &nested, Location loc, ValueRange args) {
        Value times = arith::MulFOp::create(nested, loc, args[0], args[1]);
        Value plus = arith::AddFOp::create(nested, loc, args[2], times);
        linalg::YieldOp::create(nested, loc, plus);
      });
  // Everything the op carried (ckpt annotations included) describes the
  // product it still computes.
  for (NamedAttribute attribute : generic->getDiscardableAttrs())
    product->setAttr(attribute.getName(), attribute.getValue());
  generic->replaceAllUsesWith(product->getResults());
  generic->erase();
}

struct WidenGemmOperandsPass
    : public mlir::ckpt::impl::WidenGemmOperandsPassBase<
          WidenGemmOperandsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> gemms;
    getOperation()->walk([&](linalg::GenericOp generic) {
      if (isWidenedGemm(generic))
        gemms.push_back(generic);
    });
    for (linalg::GenericOp generic : gemms)
      readF32Copies(generic);
  }
};

} // namespace
