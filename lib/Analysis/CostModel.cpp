//===- CostModel.cpp - FLOPs, bytes and time of tensor ops ----------------===//
//
// Linalg ops are costed through the LinalgOp interface, so named ops,
// generalized ops and new structured ops share one formula: the iteration
// domain size times the weighted floating-point ops of the payload.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Analysis/CostModel.h"

#include "ckpt/Analysis/TensorBytes.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::ckpt;

OpCost &OpCost::operator+=(const OpCost &other) {
  flops += other.flops;
  bytesRead += other.bytesRead;
  bytesWritten += other.bytesWritten;
  kernelLaunches += other.kernelLaunches;
  estimatedSeconds += other.estimatedSeconds;
  return *this;
}

namespace {

/// Floating-point operations of one scalar op in a payload.
int64_t getScalarFlops(Operation *op) {
  bool isFloat = llvm::any_of(op->getResultTypes(), [](Type t) {
    return isa<FloatType>(getElementTypeOrSelf(t));
  });
  bool readsFloat = llvm::any_of(op->getOperandTypes(), [](Type t) {
    return isa<FloatType>(getElementTypeOrSelf(t));
  });
  if (!isFloat && !readsFloat)
    return 0;
  return llvm::TypeSwitch<Operation *, int64_t>(op)
      .Case<math::FmaOp>([](auto) { return 2; })
      .Case<math::SqrtOp, math::RsqrtOp>([](auto) { return 2; })
      .Case<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
            arith::RemFOp, arith::NegFOp, arith::MaximumFOp, arith::MinimumFOp,
            arith::MaxNumFOp, arith::MinNumFOp, arith::CmpFOp, arith::SelectOp,
            math::AbsFOp, math::FloorOp, math::CeilOp, math::RoundOp,
            math::CopySignOp>([](auto) { return 1; })
      .Case<arith::ConstantOp, arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp,
            arith::UIToFPOp, arith::FPToSIOp, arith::FPToUIOp,
            arith::BitcastOp>([](auto) { return 0; })
      .Default([](Operation *other) {
        // Transcendental functions (exp, log, tanh, erf, pow, sin, ...) cost
        // a polynomial evaluation.
        return isa<math::MathDialect>(other->getDialect()) ? 8 : 1;
      });
}

/// Bytes of a shaped operand or result; 0 for scalars.
int64_t getValueBytes(Value value) {
  return getStaticBytes(value.getType()).value_or(0);
}

/// Peak rate for ops computing in `elementType`.
double getFlopRate(Type elementType, const DeviceTarget &target, bool useTF32) {
  if (elementType.isF64())
    return target.fp64FlopsPerSecond;
  if (elementType.isBF16())
    return target.bf16FlopsPerSecond;
  if (elementType.isF16())
    return target.fp16FlopsPerSecond;
  if (elementType.isF32() && useTF32)
    return target.tf32FlopsPerSecond;
  return target.fp32FlopsPerSecond;
}

OpCost costLinalgOp(linalg::LinalgOp op) {
  OpCost cost;
  int64_t domainSize = 1;
  for (int64_t extent : op.getStaticLoopRanges())
    domainSize *= ShapedType::isDynamic(extent) ? 1 : extent;
  int64_t payloadFlops = 0;
  for (Operation &scalar : op.getBlock()->without_terminator())
    payloadFlops += getScalarFlops(&scalar);
  cost.flops = domainSize * payloadFlops;
  for (OpOperand *input : op.getDpsInputOperands())
    cost.bytesRead += getValueBytes(input->get());
  for (OpOperand &init : op.getDpsInitsMutable()) {
    cost.bytesWritten += getValueBytes(init.get());
    if (op.payloadUsesValueFromOperand(&init))
      cost.bytesRead += getValueBytes(init.get());
  }
  cost.kernelLaunches = 1;
  return cost;
}

/// Static trip count of a loop, 1 when unknown.
int64_t getTripCount(scf::ForOp loop) {
  APInt lower, upper, step;
  if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lower)) ||
      !matchPattern(loop.getUpperBound(), m_ConstantInt(&upper)) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      step.getSExtValue() <= 0)
    return 1;
  int64_t span = upper.getSExtValue() - lower.getSExtValue();
  return span <= 0 ? 0 : (span + step.getSExtValue() - 1) / step.getSExtValue();
}

OpCost costRegions(Operation *op, const DeviceTarget &target,
                   const CostModelOptions &options) {
  OpCost cost;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &inner : block)
        cost += estimateOpCost(&inner, target, options);
  return cost;
}

/// The (query row, key) pairs an attention op visits: every pair, or the
/// keys up to the row's position when causal.
int64_t getAttentionPairs(ShapedType query, ShapedType key, bool causal) {
  if (!query.hasStaticShape() || !key.hasStaticShape())
    return 0;
  int64_t rank = query.getRank();
  int64_t batch = 1;
  for (int64_t size : query.getShape().drop_back(2))
    batch *= size;
  int64_t rows = query.getDimSize(rank - 2), keys = key.getDimSize(rank - 2);
  if (!causal)
    return batch * rows * keys;
  // sum over rows i of min(i + 1, keys).
  int64_t full = std::min(rows, keys);
  int64_t pairs = full * (full + 1) / 2 + (rows - full) * keys;
  return batch * pairs;
}

/// FLOPs and bytes of the attention ops: per (row, key) pair, the score's
/// dot product and the value row's update (forward: two exponentials and
/// the output's rescale; gradient: the score and probability recomputed,
/// then dV, dP, dQ and dK).
OpCost costAttention(Operation *op) {
  auto query = cast<ShapedType>(op->getOperand(0).getType());
  auto key = cast<ShapedType>(op->getOperand(1).getType());
  auto value = cast<ShapedType>(op->getOperand(2).getType());
  int64_t d = query.getDimSize(query.getRank() - 1);
  int64_t dv = value.getDimSize(value.getRank() - 1);
  constexpr int64_t kExpFlops = 8;
  OpCost cost;
  if (auto forward = dyn_cast<AttentionOp>(op)) {
    int64_t pairs = getAttentionPairs(query, key, forward.getCausal());
    cost.flops = pairs * (2 * d + 3 * dv + 2 * kExpFlops + 4);
  } else {
    auto grad = cast<AttentionGradOp>(op);
    int64_t pairs = getAttentionPairs(query, key, grad.getCausal());
    cost.flops = pairs * (6 * d + 4 * dv + kExpFlops + 5);
  }
  auto dps = cast<DestinationStyleOpInterface>(op);
  for (OpOperand *input : dps.getDpsInputOperands())
    cost.bytesRead += getValueBytes(input->get());
  for (OpOperand &init : dps.getDpsInitsMutable())
    cost.bytesWritten += getValueBytes(init.get());
  cost.kernelLaunches = 1;
  return cost;
}

/// FLOPs and bytes of `op`, without time.
OpCost countWork(Operation *op, const DeviceTarget &target,
                 const CostModelOptions &options, bool &isComposite) {
  isComposite = false;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return costLinalgOp(linalgOp);
  if (isa<AttentionOp, AttentionGradOp>(op))
    return costAttention(op);
  if (isa<RecomputeOp, CheckpointOp>(op)) {
    isComposite = true;
    return costRegions(op, target, options);
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    isComposite = true;
    OpCost body = costRegions(op, target, options);
    int64_t trips = getTripCount(loop);
    OpCost total;
    total.flops = body.flops * trips;
    total.bytesRead = body.bytesRead * trips;
    total.bytesWritten = body.bytesWritten * trips;
    total.kernelLaunches = body.kernelLaunches * trips;
    total.estimatedSeconds = body.estimatedSeconds * trips;
    return total;
  }
  OpCost cost;
  if (op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() == 1 &&
      isa<ShapedType>(op->getResult(0).getType())) {
    // arith/math on whole tensors: one scalar op per element.
    auto shaped = cast<ShapedType>(op->getResult(0).getType());
    if (shaped.hasStaticShape())
      cost.flops = shaped.getNumElements() * getScalarFlops(op);
    for (Value operand : op->getOperands())
      cost.bytesRead += getValueBytes(operand);
    cost.bytesWritten = getValueBytes(op->getResult(0));
    cost.kernelLaunches = 1;
  } else if (isa<tensor::InsertSliceOp>(op)) {
    cost.bytesRead = getValueBytes(op->getOperand(0));
    cost.bytesWritten = cost.bytesRead;
    cost.kernelLaunches = 1;
  } else if (isa<tensor::ConcatOp, tensor::PadOp>(op)) {
    for (Value operand : op->getOperands())
      cost.bytesRead += getValueBytes(operand);
    cost.bytesWritten = getValueBytes(op->getResult(0));
    cost.kernelLaunches = 1;
  }
  // Views, reshapes, casts, empty tensors and constants move no data.
  return cost;
}

} // namespace

OpCost mlir::ckpt::estimateOpCost(Operation *op, const DeviceTarget &target,
                                  const CostModelOptions &options) {
  bool isComposite = false;
  OpCost cost = countWork(op, target, options, isComposite);
  if (isComposite)
    return cost; // The time of the nested ops is already summed.

  Type elementType;
  if (op->getNumResults())
    elementType = getElementTypeOrSelf(op->getResult(0).getType());
  else if (auto dps = dyn_cast<DestinationStyleOpInterface>(op);
           dps && dps.getNumDpsInits())
    elementType = getElementTypeOrSelf(dps.getDpsInits()[0].getType());
  bool useTF32 = false;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    useTF32 = options.allowTF32 && linalg::isaContractionOpInterface(linalgOp);

  double computeSeconds = 0;
  if (cost.flops && elementType)
    computeSeconds = cost.flops / getFlopRate(elementType, target, useTF32);
  double memorySeconds =
      static_cast<double>(cost.bytesRead + cost.bytesWritten) /
      target.memoryBandwidthBytesPerSecond;
  cost.estimatedSeconds =
      std::max(computeSeconds, memorySeconds) +
      cost.kernelLaunches * target.kernelLaunchOverheadSeconds;
  return cost;
}
