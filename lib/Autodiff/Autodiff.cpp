//===- Autodiff.cpp - reverse-mode differentiation of linalg on tensors ---===//
//
// Implements `ckpt-autodiff`. The gradient function is a clone of the loss
// function, normalized so that (almost) every op is a linalg.generic, then
// extended with the adjoint ops in reverse program order.
//
//===----------------------------------------------------------------------===//

#include "ScalarTangents.h"

#include "ckpt/Autodiff/Passes.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/RaiseAttention.h"

#include "ckpt/Support/FunctionDiagnostics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "ckpt-autodiff"

namespace mlir::ckpt {
#define GEN_PASS_DEF_AUTODIFFPASS
#include "ckpt/Autodiff/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// How a reduction payload combines into its accumulator.
enum class ReductionKind { None, Additive, Max, Min };

/// Normalizes `func` so that differentiation sees linalg.generic ops:
/// aggregates other than softmax (which has its own rule) decomposed,
/// elementwise ops on tensors converted, named ops generalized.
LogicalResult normalizeForDifferentiation(func::FuncOp func) {
  IRRewriter rewriter(func.getContext());
  SmallVector<linalg::AggregatedOpInterface> aggregates;
  func.walk([&](linalg::AggregatedOpInterface op) {
    if (!isa<linalg::SoftmaxOp>(op))
      aggregates.push_back(op);
  });
  for (linalg::AggregatedOpInterface op : aggregates) {
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> values = op.decomposeOperation(rewriter);
    if (failed(values))
      return op->emitOpError("could not be decomposed for differentiation");
    rewriter.replaceOp(op, *values);
  }

  RewritePatternSet patterns(func.getContext());
  linalg::populateElementwiseToLinalgConversionPatterns(patterns);
  if (failed(applyPatternsGreedily(func, std::move(patterns))))
    return emitFunctionError(func)
           << "could not convert elementwise ops to linalg";

  SmallVector<linalg::LinalgOp> named;
  func.walk([&](linalg::LinalgOp op) {
    if (!isa<linalg::GenericOp>(op))
      named.push_back(op);
  });
  for (linalg::LinalgOp op : named) {
    rewriter.setInsertionPoint(op);
    if (failed(linalg::generalizeNamedOp(rewriter, op)))
      return op->emitOpError("could not be generalized for differentiation");
  }
  return success();
}

/// Builds the gradient function of one loss function.
class GradientBuilder {
public:
  GradientBuilder(func::FuncOp grad) : grad(grad), builder(grad.getContext()) {}

  LogicalResult run();

private:
  /// Sums `contribution` into the adjoint of `value`.
  void addAdjoint(Value value, Value contribution, Location loc);
  /// A tensor of `type` filled with `value`.
  Value filled(RankedTensorType type, double value, Location loc);
  /// An empty tensor of `type` (a destination the backward op overwrites).
  Value empty(RankedTensorType type, Location loc);
  /// Marks an op built for the backward pass.
  template <typename OpTy> OpTy backward(OpTy op) {
    op->setAttr(CkptDialect::getPhaseAttrName(),
                PhaseAttr::get(op->getContext(), Phase::Backward));
    return op;
  }

  LogicalResult differentiateGeneric(linalg::GenericOp op);
  LogicalResult differentiateAttention(AttentionOp op);
  LogicalResult differentiateSoftmax(linalg::SoftmaxOp op);
  LogicalResult differentiateOp(Operation *op);
  /// Builds the adjoint of operand `operandIndex` of `op` (an input, or the
  /// init when `operandIndex` is the init's index) as a generic.
  FailureOr<Value> buildOperandAdjoint(linalg::GenericOp op,
                                       unsigned operandIndex, Value resultAdj,
                                       ReductionKind kind);

  func::FuncOp grad;
  OpBuilder builder;
  DenseMap<Value, Value> adjoints;
};

Value GradientBuilder::empty(RankedTensorType type, Location loc) {
  return backward(tensor::EmptyOp::create(builder, loc, type.getShape(),
                                          type.getElementType()))
      .getResult();
}

Value GradientBuilder::filled(RankedTensorType type, double value,
                              Location loc) {
  Value init = empty(type, loc);
  Value scalar = backward(arith::ConstantOp::create(
      builder, loc, type.getElementType(),
      builder.getFloatAttr(type.getElementType(), value)));
  return backward(linalg::FillOp::create(builder, loc, ValueRange{scalar},
                                         ValueRange{init}))
      .getResult(0);
}

void GradientBuilder::addAdjoint(Value value, Value contribution,
                                 Location loc) {
  auto it = adjoints.find(value);
  if (it == adjoints.end()) {
    adjoints[value] = contribution;
    return;
  }
  it->second =
      backward(arith::AddFOp::create(builder, loc, it->second, contribution));
}

/// The kind of reduction the payload of `op` performs, or std::nullopt if it
/// is one the rules do not know.
std::optional<ReductionKind> classifyReduction(linalg::GenericOp op) {
  if (op.getNumReductionLoops() == 0)
    return ReductionKind::None;
  if (op.getNumDpsInits() != 1)
    return std::nullopt;
  Value acc = op.getRegionOutputArgs()[0];
  Operation *combine =
      op.getBlock()->getTerminator()->getOperand(0).getDefiningOp();
  if (!combine || combine->getNumOperands() != 2 ||
      !llvm::is_contained(combine->getOperands(), acc))
    return std::nullopt;
  if (isa<arith::AddFOp>(combine))
    return ReductionKind::Additive;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combine))
    return ReductionKind::Max;
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(combine))
    return ReductionKind::Min;
  return std::nullopt;
}

/// A read at `stride * outputDim + dilation * windowDim`, as convolutions
/// and pooling read their input.
struct WindowShift {
  unsigned outputDim;
  unsigned windowDim;
  int64_t windowSize;
  int64_t stride;
  int64_t dilation;
  /// Position of the read in the target's map.
  unsigned targetPosition;

  /// Zeros the output-indexed tensors get in front along this dimension, so
  /// that `i - dilation * w` stays in bounds.
  int64_t lowPadding() const { return dilation * (windowSize - 1); }
};

/// `d` or `d * c` (or `c * d`) with a positive constant c: (d, c).
std::optional<std::pair<unsigned, int64_t>> scaledDim(AffineExpr expr) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return std::make_pair(dim.getPosition(), int64_t{1});
  auto product = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!product || product.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  AffineExpr lhs = product.getLHS(), rhs = product.getRHS();
  if (isa<AffineConstantExpr>(lhs))
    std::swap(lhs, rhs);
  auto dim = dyn_cast<AffineDimExpr>(lhs);
  auto factor = dyn_cast<AffineConstantExpr>(rhs);
  if (!dim || !factor || factor.getValue() <= 0)
    return std::nullopt;
  return std::make_pair(dim.getPosition(), factor.getValue());
}

/// Finds the window reads that keep `targetMap` from being a projected
/// permutation, or fails if some result is neither a dimension nor a sum
/// `stride * o + dilation * w` of an output dimension and a window
/// dimension with static sizes.
FailureOr<SmallVector<WindowShift>>
findWindowShifts(AffineMap targetMap, AffineMap outMap,
                 ArrayRef<int64_t> loopRanges) {
  SmallVector<WindowShift> shifts;
  for (auto [position, result] : llvm::enumerate(targetMap.getResults())) {
    if (isa<AffineDimExpr>(result))
      continue;
    auto sum = dyn_cast<AffineBinaryOpExpr>(result);
    if (!sum || sum.getKind() != AffineExprKind::Add)
      return failure();
    std::optional<std::pair<unsigned, int64_t>> lhs = scaledDim(sum.getLHS());
    std::optional<std::pair<unsigned, int64_t>> rhs = scaledDim(sum.getRHS());
    if (!lhs || !rhs)
      return failure();
    bool lhsIsOutput = outMap.isFunctionOfDim(lhs->first);
    if (lhsIsOutput == outMap.isFunctionOfDim(rhs->first))
      return failure();
    auto [output, window] =
        lhsIsOutput ? std::make_pair(*lhs, *rhs) : std::make_pair(*rhs, *lhs);
    if (ShapedType::isDynamic(loopRanges[window.first]) ||
        ShapedType::isDynamic(loopRanges[output.first]))
      return failure();
    shifts.push_back({output.first, window.first, loopRanges[window.first],
                      output.second, window.second,
                      static_cast<unsigned>(position)});
  }
  return shifts;
}

FailureOr<Value> GradientBuilder::buildOperandAdjoint(linalg::GenericOp op,
                                                      unsigned operandIndex,
                                                      Value resultAdj,
                                                      ReductionKind kind) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  unsigned numInputs = op.getNumDpsInputs();
  OpOperand &target = op->getOpOperand(operandIndex);
  AffineMap targetMap = op.getMatchingIndexingMap(&target);
  auto targetType = cast<RankedTensorType>(target.get().getType());
  OpOperand &init = op.getDpsInitsMutable()[0];
  AffineMap outMap = op.getMatchingIndexingMap(&init);
  SmallVector<WindowShift> shifts;
  if (!targetMap.isProjectedPermutation()) {
    FailureOr<SmallVector<WindowShift>> found =
        findWindowShifts(targetMap, outMap, op.getStaticLoopRanges());
    if (failed(found))
      return op.emitOpError("reads operand #")
             << operandIndex
             << " through a map that is neither a projected permutation nor "
                "a strided, dilated window (s * o + d * w); ckpt-autodiff "
                "cannot differentiate it";
    shifts = std::move(*found);
  }

  // The payload sees the inputs and, as its accumulator, the value the
  // output held: the init for elementwise ops, the final result for
  // reductions (where only max/min look at it).
  Value outValue = kind == ReductionKind::None ? init.get() : op.getResult(0);
  SmallVector<Value> inputs(op.getDpsInputs());
  inputs.push_back(outValue);
  inputs.push_back(resultAdj);
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands())
    maps.push_back(op.getMatchingIndexingMap(input));
  maps.push_back(outMap);
  maps.push_back(outMap);
  maps.push_back(targetMap);

  unsigned numLoops = op.getNumLoops();
  if (!shifts.empty()) {
    // Iterate over the target's coordinates instead of the output's: the
    // target coordinate i = s * o + d * w becomes the loop dimension of o,
    // so the target is read at i. A tensor read at o is laid out on the
    // target's grid instead: element o at s * o, zeros in between (strides)
    // and dilation * (window size - 1) zeros in front, read at
    // i - d * w + d * (K - 1); the zeros contribute nothing.
    auto shiftOf = [&](AffineExpr expr) -> const WindowShift * {
      for (const WindowShift &shift : shifts)
        if (expr == getAffineDimExpr(shift.outputDim, ctx))
          return &shift;
      return nullptr;
    };
    bool unitStrides = llvm::all_of(
        shifts, [](const WindowShift &shift) { return shift.stride == 1; });
    SmallVector<AffineExpr> targetResults(targetMap.getResults());
    for (const WindowShift &shift : shifts)
      targetResults[shift.targetPosition] =
          getAffineDimExpr(shift.outputDim, ctx);
    targetMap = AffineMap::get(numLoops, 0, targetResults, ctx);
    for (unsigned i = 0; i + 1 < maps.size(); ++i) {
      // The payload reads the target itself where the target is.
      if (i == operandIndex) {
        maps[i] = targetMap;
        continue;
      }
      AffineMap original = maps[i];
      SmallVector<AffineExpr> results;
      SmallVector<int64_t> low, high, strides;
      bool laidOut = false;
      auto type = cast<RankedTensorType>(inputs[i].getType());
      for (auto [position, expr] : llvm::enumerate(original.getResults())) {
        const WindowShift *shift = shiftOf(expr);
        if (!shift) {
          for (const WindowShift &other : shifts)
            if (expr.isFunctionOfDim(other.outputDim))
              return op.emitOpError("reads operand #")
                     << i
                     << " through a window as well; ckpt-autodiff "
                        "differentiates one windowed operand at a time";
          results.push_back(expr);
          low.push_back(0);
          high.push_back(0);
          strides.push_back(1);
          continue;
        }
        int64_t targetSize = targetType.getDimSize(shift->targetPosition);
        int64_t outputSize = type.getDimSize(position);
        if (ShapedType::isDynamic(targetSize) ||
            ShapedType::isDynamic(outputSize))
          return op.emitOpError("reads operand #")
                 << operandIndex << " through a window of dynamic size";
        int64_t front = shift->lowPadding();
        results.push_back(
            getAffineDimExpr(shift->outputDim, ctx) -
            getAffineDimExpr(shift->windowDim, ctx) * shift->dilation + front);
        low.push_back(front);
        // The laid-out size is targetSize + front: the last target
        // coordinate minus no window offset, shifted by `front`.
        high.push_back(targetSize - 1 - (outputSize - 1) * shift->stride);
        if (high.back() < 0)
          return op.emitOpError("reads operand #")
                 << operandIndex << " through a window that runs past it";
        strides.push_back(shift->stride);
        laidOut = true;
      }
      maps[i] = AffineMap::get(numLoops, 0, results, ctx);
      if (!laidOut)
        continue;
      SmallVector<int64_t> shape(type.getShape());
      for (unsigned d = 0; d < shape.size(); ++d)
        shape[d] = low[d] + (shape[d] - 1) * strides[d] + 1 + high[d];
      auto laidOutType = RankedTensorType::get(shape, type.getElementType());
      if (unitStrides) {
        Value zero = backward(arith::ConstantOp::create(
            builder, loc, type.getElementType(),
            builder.getFloatAttr(type.getElementType(), 0.0)));
        inputs[i] = backward(
            tensor::PadOp::create(builder, loc, laidOutType, inputs[i],
                                  getAsIndexOpFoldResult(ctx, low),
                                  getAsIndexOpFoldResult(ctx, high), zero));
      } else {
        SmallVector<int64_t> sizes(type.getShape());
        inputs[i] = backward(tensor::InsertSliceOp::create(
            builder, loc, inputs[i], filled(laidOutType, 0.0, loc),
            getAsIndexOpFoldResult(ctx, low),
            getAsIndexOpFoldResult(ctx, sizes),
            getAsIndexOpFoldResult(ctx, strides)));
      }
    }
    maps.back() = targetMap;
    if (!targetMap.isProjectedPermutation())
      return op.emitOpError("reads operand #")
             << operandIndex << " through a window ckpt-autodiff cannot invert";
  }
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::reduction);
  for (AffineExpr result : targetMap.getResults())
    iterators[cast<AffineDimExpr>(result).getPosition()] =
        utils::IteratorType::parallel;

  Value zeros = filled(targetType, 0.0, loc);
  Block &forwardBody = *op.getBlock();
  LogicalResult status = success();
  auto adjointOp = linalg::GenericOp::create(
      builder, loc, TypeRange{targetType}, inputs, ValueRange{zeros}, maps,
      iterators, [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
        IRMapping primal;
        for (unsigned i = 0; i < numInputs; ++i)
          primal.map(forwardBody.getArgument(i), args[i]);
        primal.map(forwardBody.getArgument(numInputs), args[numInputs]);
        Value outputAdj = args[numInputs + 1];
        Value acc = args[numInputs + 2];

        ScalarTangents tangents(b, primal);
        Type elementType = targetType.getElementType();
        tangents.setTangent(
            forwardBody.getArgument(operandIndex),
            arith::ConstantOp::create(b, bodyLoc, elementType,
                                      b.getFloatAttr(elementType, 1.0)));
        for (Operation &inner : forwardBody.without_terminator()) {
          b.clone(inner, primal);
          if (failed(tangents.differentiate(&inner))) {
            status = failure();
            break;
          }
        }
        Value yielded = forwardBody.getTerminator()->getOperand(0);
        Value tangent;
        if (succeeded(status)) {
          if (kind == ReductionKind::None || kind == ReductionKind::Additive) {
            tangent = tangents.getTangent(yielded);
          } else {
            // max/min: the element equal to the result gets the gradient.
            Operation *combine = yielded.getDefiningOp();
            Value candidate =
                combine->getOperand(0) == forwardBody.getArgument(numInputs)
                    ? combine->getOperand(1)
                    : combine->getOperand(0);
            Value candidateTangent = tangents.getTangent(candidate);
            if (candidateTangent) {
              Value wins = arith::CmpFOp::create(
                  b, bodyLoc, arith::CmpFPredicate::OEQ,
                  primal.lookupOrDefault(candidate), args[numInputs]);
              Value zero = arith::ConstantOp::create(
                  b, bodyLoc, elementType, b.getFloatAttr(elementType, 0.0));
              tangent = arith::SelectOp::create(b, bodyLoc, wins,
                                                candidateTangent, zero);
            }
          }
        }
        Value sum = acc;
        if (tangent) {
          Value contribution =
              arith::MulFOp::create(b, bodyLoc, tangent, outputAdj);
          // Through a cast (arith.extf/truncf), the result's type is not the
          // operand's: its adjoint is the contribution cast back.
          auto from = cast<FloatType>(contribution.getType());
          auto to = cast<FloatType>(elementType);
          if (from != to && from.getWidth() == to.getWidth()) {
            // bf16 <-> f16: through f32.
            contribution =
                arith::ExtFOp::create(b, bodyLoc, b.getF32Type(), contribution);
            from = b.getF32Type();
          }
          if (from.getWidth() > to.getWidth())
            contribution =
                arith::TruncFOp::create(b, bodyLoc, to, contribution);
          else if (from.getWidth() < to.getWidth())
            contribution = arith::ExtFOp::create(b, bodyLoc, to, contribution);
          sum = arith::AddFOp::create(b, bodyLoc, acc, contribution);
        }
        linalg::YieldOp::create(b, bodyLoc, sum);
      });
  backward(adjointOp);
  if (failed(status))
    return failure();
  return adjointOp.getResult(0);
}

LogicalResult GradientBuilder::differentiateGeneric(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1)
    return op.emitOpError("has several outputs; ckpt-autodiff differentiates "
                          "linalg.generic ops with one output");
  Value resultAdj = adjoints.lookup(op.getResult(0));
  if (!resultAdj)
    return success();
  std::optional<ReductionKind> kind = classifyReduction(op);
  if (!kind)
    return op.emitOpError("has a reduction that is neither a sum nor a "
                          "max/min; ckpt-autodiff cannot differentiate it");

  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!type || !isa<FloatType>(type.getElementType()))
      continue;
    FailureOr<Value> adjoint =
        buildOperandAdjoint(op, input->getOperandNumber(), resultAdj, *kind);
    if (failed(adjoint))
      return failure();
    addAdjoint(input->get(), *adjoint, op.getLoc());
  }

  // The init's adjoint: it flows through a sum unchanged; elementwise
  // payloads that read it get the general rule; max/min reductions start
  // from a constant (checked).
  OpOperand &init = op.getDpsInitsMutable()[0];
  bool payloadReadsInit = op.payloadUsesValueFromOperand(&init);
  if (!payloadReadsInit)
    return success();
  if (*kind == ReductionKind::Additive) {
    addAdjoint(init.get(), resultAdj, op.getLoc());
    return success();
  }
  if (*kind != ReductionKind::None) {
    Operation *def = init.get().getDefiningOp();
    if (isa_and_nonnull<linalg::FillOp>(def) ||
        (isa_and_nonnull<linalg::GenericOp>(def) &&
         cast<linalg::GenericOp>(def).getNumDpsInputs() == 1 &&
         !isa<ShapedType>(def->getOperand(0).getType())))
      return success();
    return op.emitOpError("starts a max/min reduction from a computed tensor; "
                          "ckpt-autodiff supports a constant start value");
  }
  FailureOr<Value> adjoint = buildOperandAdjoint(
      op, init.getOperandNumber(), resultAdj, ReductionKind::None);
  if (failed(adjoint))
    return failure();
  addAdjoint(init.get(), *adjoint, op.getLoc());
  return success();
}

LogicalResult GradientBuilder::differentiateOp(Operation *op) {
  Location loc = op->getLoc();
  // No differentiable inputs: empty tensors, constants, random numbers
  // (a dropout mask is constant with respect to the parameters).
  if (isa<tensor::EmptyOp, arith::ConstantOp, RandomUniformOp>(op))
    return success();
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return differentiateGeneric(generic);
  if (auto attention = dyn_cast<AttentionOp>(op))
    return differentiateAttention(attention);
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
    return differentiateSoftmax(softmax);
  // Ops without float results (shapes, indices) carry no adjoint.
  bool producesFloat = llvm::any_of(op->getResultTypes(), [](Type type) {
    return isa<FloatType>(getElementTypeOrSelf(type));
  });
  if (!producesFloat)
    return success();
  Value resultAdj =
      op->getNumResults() == 1 ? adjoints.lookup(op->getResult(0)) : Value();
  if (op->getNumResults() == 1 && !resultAdj)
    return success();

  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    Value adjoint = backward(tensor::ExpandShapeOp::create(
        builder, loc, collapse.getSrcType(), resultAdj,
        collapse.getReassociationIndices()));
    addAdjoint(collapse.getSrc(), adjoint, loc);
    return success();
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    Value adjoint = backward(tensor::CollapseShapeOp::create(
        builder, loc, expand.getSrcType(), resultAdj,
        expand.getReassociationIndices()));
    addAdjoint(expand.getSrc(), adjoint, loc);
    return success();
  }
  if (auto cast = dyn_cast<tensor::CastOp>(op)) {
    Value adjoint = backward(tensor::CastOp::create(
        builder, loc, cast.getSource().getType(), resultAdj));
    addAdjoint(cast.getSource(), adjoint, loc);
    return success();
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    Value zeros = filled(slice.getSourceType(), 0.0, loc);
    Value adjoint = backward(tensor::InsertSliceOp::create(
        builder, loc, resultAdj, zeros, slice.getMixedOffsets(),
        slice.getMixedSizes(), slice.getMixedStrides()));
    addAdjoint(slice.getSource(), adjoint, loc);
    return success();
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    // The slice's adjoint is cut out of the result's; the destination keeps
    // the rest, with zeros where the slice was written.
    Value sourceAdj = backward(tensor::ExtractSliceOp::create(
        builder, loc, insert.getSourceType(), resultAdj,
        insert.getMixedOffsets(), insert.getMixedSizes(),
        insert.getMixedStrides()));
    addAdjoint(insert.getSource(), sourceAdj, loc);
    Value zeros = filled(insert.getSourceType(), 0.0, loc);
    Value destAdj = backward(tensor::InsertSliceOp::create(
        builder, loc, zeros, resultAdj, insert.getMixedOffsets(),
        insert.getMixedSizes(), insert.getMixedStrides()));
    addAdjoint(insert.getDest(), destAdj, loc);
    return success();
  }
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    // The source's adjoint is the interior of the result's; the padding value
    // is a constant (checked), so it gets none. (getConstantPaddingValue
    // also accepts any value defined outside the pad, whose gradient would
    // then be silently lost.)
    Value padValue = pad.getConstantPaddingValue();
    if (!padValue || !matchPattern(padValue, m_Constant()))
      return op->emitOpError("pads with a computed value; ckpt-autodiff "
                             "supports constant padding");
    RankedTensorType sourceType = pad.getSourceType();
    SmallVector<OpFoldResult> sizes;
    for (int64_t size : sourceType.getShape())
      sizes.push_back(builder.getIndexAttr(size));
    SmallVector<OpFoldResult> strides(sourceType.getRank(),
                                      builder.getIndexAttr(1));
    Value adjoint = backward(
        tensor::ExtractSliceOp::create(builder, loc, sourceType, resultAdj,
                                       pad.getMixedLowPad(), sizes, strides));
    addAdjoint(pad.getSource(), adjoint, loc);
    return success();
  }
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    // Each input's adjoint is its slice of the result's.
    int64_t dim = concat.getDim();
    int64_t offset = 0;
    for (Value input : concat.getInputs()) {
      auto type = cast<RankedTensorType>(input.getType());
      SmallVector<OpFoldResult> offsets(type.getRank(),
                                        builder.getIndexAttr(0));
      offsets[dim] = builder.getIndexAttr(offset);
      SmallVector<OpFoldResult> sizes;
      for (int64_t size : type.getShape())
        sizes.push_back(builder.getIndexAttr(size));
      SmallVector<OpFoldResult> strides(type.getRank(),
                                        builder.getIndexAttr(1));
      Value inputAdj = backward(tensor::ExtractSliceOp::create(
          builder, loc, type, resultAdj, offsets, sizes, strides));
      addAdjoint(input, inputAdj, loc);
      offset += type.getDimSize(dim);
    }
    return success();
  }
  if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
    auto type = cast<RankedTensorType>(extract.getTensor().getType());
    if (type.getRank() != 0)
      return op->emitOpError("extracts from a tensor of rank > 0; "
                             "ckpt-autodiff supports 0-d tensors here");
    Value init = empty(RankedTensorType::get({}, type.getElementType()), loc);
    Value adjoint =
        backward(linalg::FillOp::create(builder, loc, ValueRange{resultAdj},
                                        ValueRange{init}))
            .getResult(0);
    addAdjoint(extract.getTensor(), adjoint, loc);
    return success();
  }
  return op->emitOpError("is not supported by ckpt-autodiff");
}

/// The flash backward: one ckpt.attention_grad from the inputs, the output
/// and the log-sum-exp, which recomputes the probabilities instead of
/// keeping them.
LogicalResult GradientBuilder::differentiateAttention(AttentionOp op) {
  if (adjoints.lookup(op.getResult(1)))
    return op.emitOpError("has its log-sum-exp used by the loss; "
                          "ckpt-autodiff differentiates only its output");
  Value resultAdj = adjoints.lookup(op.getResult(0));
  if (!resultAdj)
    return success();
  Location loc = op.getLoc();
  SmallVector<Value> inits;
  for (Value input : {op.getQuery(), op.getKey(), op.getValue()})
    inits.push_back(empty(cast<RankedTensorType>(input.getType()), loc));
  auto grad = backward(AttentionGradOp::create(
      builder, loc, ValueRange(inits).getTypes(), op.getQuery(), op.getKey(),
      op.getValue(), op.getResult(0), op.getResult(1), resultAdj, inits[0],
      inits[1], inits[2], op.getKeyMask(), op.getCausalAttr(),
      op.getScaleAttr()));
  addAdjoint(op.getQuery(), grad.getResult(0), loc);
  addAdjoint(op.getKey(), grad.getResult(1), loc);
  addAdjoint(op.getValue(), grad.getResult(2), loc);
  return success();
}

/// dX = P * (dP - sum(dP * P)) along the softmax's dimension: the gradient
/// reads only the probabilities P (the row maximum and sum the forward
/// computes are not kept for it).
LogicalResult GradientBuilder::differentiateSoftmax(linalg::SoftmaxOp op) {
  Value resultAdj = adjoints.lookup(op.getResult()[0]);
  if (!resultAdj)
    return success();
  Location loc = op.getLoc();
  Value probs = op.getResult()[0];
  auto type = cast<RankedTensorType>(probs.getType());
  int64_t rank = type.getRank();
  int64_t dim = op.getDimension();
  AffineMap identity = builder.getMultiDimIdentityMap(rank);
  AffineMap reduced = identity.dropResult(dim);
  SmallVector<int64_t> reducedShape(type.getShape());
  reducedShape.erase(reducedShape.begin() + dim);
  Value zeros = filled(
      RankedTensorType::get(reducedShape, type.getElementType()), 0.0, loc);
  // One generic over the probabilities' iteration space.
  auto generic = [&](ValueRange inputs, Value init, ArrayRef<AffineMap> maps,
                     bool reduce, auto payload) {
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    if (reduce)
      iterators[dim] = utils::IteratorType::reduction;
    return backward(linalg::GenericOp::create(
                        builder, loc, init.getType(), inputs, init, maps,
                        iterators,
                        [&](OpBuilder &b, Location l, ValueRange args) {
                          linalg::YieldOp::create(b, l, payload(b, l, args));
                        }))
        .getResult(0);
  };
  Value rowSums =
      generic({probs, resultAdj}, zeros, {identity, identity, reduced}, true,
              [](OpBuilder &b, Location l, ValueRange args) -> Value {
                Value product = arith::MulFOp::create(b, l, args[0], args[1]);
                return arith::AddFOp::create(b, l, args[2], product);
              });
  Value inputAdj =
      generic({probs, resultAdj, rowSums}, empty(type, loc),
              {identity, identity, reduced, identity}, false,
              [](OpBuilder &b, Location l, ValueRange args) -> Value {
                Value centered = arith::SubFOp::create(b, l, args[1], args[2]);
                return arith::MulFOp::create(b, l, args[0], centered);
              });
  addAdjoint(op.getInput(), inputAdj, loc);
  return success();
}

LogicalResult GradientBuilder::run() {
  Block &body = grad.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  MLIRContext *ctx = grad.getContext();
  for (Operation &op : body.without_terminator())
    op.setAttr(CkptDialect::getPhaseAttrName(),
               PhaseAttr::get(ctx, Phase::Forward));

  // Seed: d loss / d loss = 1.
  builder.setInsertionPoint(ret);
  Value loss = ret.getOperand(0);
  Location loc = ret.getLoc();
  if (auto tensorType = dyn_cast<RankedTensorType>(loss.getType()))
    adjoints[loss] = filled(tensorType, 1.0, loc);
  else
    adjoints[loss] = backward(
        arith::ConstantOp::create(builder, loc, loss.getType(),
                                  builder.getFloatAttr(loss.getType(), 1.0)));

  SmallVector<Operation *> forwardOps;
  for (Operation &op : body.without_terminator())
    if (op.getAttrOfType<PhaseAttr>(CkptDialect::getPhaseAttrName())
            .getValue() == Phase::Forward)
      forwardOps.push_back(&op);
  for (Operation *op : llvm::reverse(forwardOps))
    if (failed(differentiateOp(op)))
      return failure();

  SmallVector<Value> results{loss};
  for (BlockArgument arg : grad.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !isa<FloatType>(type.getElementType()))
      continue;
    Value adjoint = adjoints.lookup(arg);
    results.push_back(adjoint ? adjoint : filled(type, 0.0, loc));
  }
  func::ReturnOp::create(builder, loc, results);
  ret.erase();
  grad.setType(FunctionType::get(ctx, grad.getArgumentTypes(),
                                 ValueRange(results).getTypes()));
  return success();
}

/// Checks that `func` can be differentiated: a body, one block, one scalar
/// float loss.
LogicalResult checkLossFunction(func::FuncOp func) {
  if (func.isExternal())
    return emitFunctionError(func) << "has no body to differentiate";
  if (!func.getBody().hasOneBlock())
    return emitFunctionError(func)
           << "has several blocks; ckpt-autodiff handles "
              "structured control flow (one block)";
  if (func.getNumResults() != 1)
    return emitFunctionError(func)
           << "must return exactly one value, the scalar loss, "
              "to be differentiated";
  Type lossType = func.getResultTypes()[0];
  auto tensorType = dyn_cast<RankedTensorType>(lossType);
  bool isScalar =
      isa<FloatType>(lossType) || (tensorType && tensorType.getRank() == 0 &&
                                   isa<FloatType>(tensorType.getElementType()));
  if (!isScalar)
    return emitFunctionError(func)
           << "returns " << lossType
           << "; the loss must be a float scalar or a 0-d float tensor";
  return success();
}

struct AutodiffPass : public mlir::ckpt::impl::AutodiffPassBase<AutodiffPass> {
  using AutodiffPassBase::AutodiffPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> targets;
    if (!functionName.empty()) {
      auto func = module.lookupSymbol<func::FuncOp>(functionName);
      if (!func) {
        emitError(module.getLoc()) << "ckpt-autodiff: no function '"
                                   << functionName << "' in the module";
        return signalPassFailure();
      }
      targets.push_back(func);
    } else {
      module.walk([&](func::FuncOp func) {
        if (func->hasAttr(CkptDialect::getDifferentiateAttrName()))
          targets.push_back(func);
      });
    }

    SymbolTable symbols(module);
    for (func::FuncOp func : targets) {
      if (failed(checkLossFunction(func)))
        return signalPassFailure();
      std::string name = (func.getSymName() + suffix).str();
      if (symbols.lookup(name)) {
        emitFunctionError(func) << "cannot be differentiated into '" << name
                                << "': a symbol with that name exists";
        return signalPassFailure();
      }
      auto grad = cast<func::FuncOp>(func->clone());
      grad.setSymName(name);
      grad->removeAttr(CkptDialect::getDifferentiateAttrName());
      symbols.insert(grad, std::next(Block::iterator(func)));
      if (raiseAttention && failed(ckpt::raiseAttention(grad)))
        return signalPassFailure();
      if (failed(normalizeForDifferentiation(grad)) ||
          failed(GradientBuilder(grad).run())) {
        return signalPassFailure();
      }
      LDBG() << "differentiated @" << func.getSymName() << " into @" << name;
    }
  }
};

} // namespace
