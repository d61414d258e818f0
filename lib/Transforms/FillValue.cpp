//===- FillValue.cpp - fills on tensors in their several forms ------------===//

#include "ckpt/Transforms/FillValue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

Value mlir::ckpt::getFillValue(Value tensor) {
  if (auto fill = tensor.getDefiningOp<linalg::FillOp>())
    return fill.getInputs()[0];
  auto generic = tensor.getDefiningOp<linalg::GenericOp>();
  if (!generic)
    return Value();
  if (std::optional<Value> value = linalg::isaFillOpInterface(generic))
    return *value;
  if (generic.getNumDpsInputs() != 0 || generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getIndexingMapsArray()[0].isIdentity())
    return Value();
  Block &body = generic.getRegion().front();
  if (body.getOperations().size() != 1)
    return Value();
  Value yielded = cast<linalg::YieldOp>(body.getTerminator()).getOperand(0);
  if (yielded.getParentRegion() == &generic.getRegion())
    return Value();
  return yielded;
}

void mlir::ckpt::eraseIfUnused(RewriterBase &rewriter, Operation *op) {
  if (!op || !op->use_empty() || !isMemoryEffectFree(op) ||
      !isa<linalg::LinalgOp, tensor::EmptyOp, arith::ConstantOp>(op))
    return;
  SmallVector<Operation *> producers;
  for (Value operand : op->getOperands())
    producers.push_back(operand.getDefiningOp());
  rewriter.eraseOp(op);
  for (Operation *producer : producers)
    eraseIfUnused(rewriter, producer);
}
