//===- FoldPoolingPads.cpp - pooling windows read through bounds checks ---===//
//
// Implements `ckpt-fold-pooling-pads`: a tensor.pad with an infinite value
// (the padding of a max or min pool) whose readers are all linalg.generic
// ops is folded into them: each read of the padded tensor reads the source
// where the position lies inside it, and the padding value elsewhere (see
// the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "ckpt-fold-pooling-pads"

namespace mlir::ckpt {
#define GEN_PASS_DEF_FOLDPOOLINGPADSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// The padding value of `pad` when it is a constant infinity (what max and
/// min pools pad with) and the padding is static.
std::optional<TypedAttr> getInfinitePadding(tensor::PadOp pad) {
  if (!pad.getSourceType().hasStaticShape() ||
      !pad.getResultType().hasStaticShape() ||
      llvm::is_contained(pad.getStaticLow(), ShapedType::kDynamic) ||
      llvm::is_contained(pad.getStaticHigh(), ShapedType::kDynamic))
    return std::nullopt;
  Value value = pad.getConstantPaddingValue();
  FloatAttr constant;
  if (!value || !matchPattern(value, m_Constant(&constant)) ||
      !constant.getValue().isInfinity())
    return std::nullopt;
  return TypedAttr(constant);
}

/// The linalg.generic ops on tensors that read `pad`, when they are all
/// its readers and each reads it as an input or through tensor.extract in
/// its payload (not as its output); nothing otherwise.
std::optional<SetVector<linalg::GenericOp>>
getGenericReaders(tensor::PadOp pad) {
  SetVector<linalg::GenericOp> readers;
  for (OpOperand &use : pad->getUses()) {
    Operation *user = use.getOwner();
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (generic && generic.isDpsInit(&use))
      return std::nullopt;
    if (!generic && isa<tensor::ExtractOp>(user))
      generic = user->getParentOfType<linalg::GenericOp>();
    if (!generic || !generic.hasPureTensorSemantics())
      return std::nullopt;
    readers.insert(generic);
  }
  if (readers.empty())
    return std::nullopt;
  return readers;
}

/// Reads element `indices` of the padded tensor of `pad` from its source:
/// the source's element where the position minus the low padding lies
/// inside the source, else the padding value.
Value readThroughBounds(OpBuilder &builder, Location loc, tensor::PadOp pad,
                        TypedAttr padding, ValueRange indices) {
  ArrayRef<int64_t> shape = pad.getSourceType().getShape();
  ArrayRef<int64_t> low = pad.getStaticLow();
  Value inside;
  SmallVector<Value> clamped;
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  for (auto [dim, index] : llvm::enumerate(indices)) {
    Value position = index;
    if (low[dim] != 0)
      position = arith::SubIOp::create(
          builder, loc, index,
          arith::ConstantIndexOp::create(builder, loc, low[dim]));
    if (low[dim] == 0 && pad.getResultType().getDimSize(dim) == shape[dim]) {
      clamped.push_back(position);
      continue;
    }
    Value atLeastZero = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::sge, position, zero);
    Value belowSize = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::slt, position,
        arith::ConstantIndexOp::create(builder, loc, shape[dim]));
    Value here = arith::AndIOp::create(builder, loc, atLeastZero, belowSize);
    inside = inside ? arith::AndIOp::create(builder, loc, inside, here) : here;
    clamped.push_back(
        arith::SelectOp::create(builder, loc, here, position, zero));
  }
  Value element =
      tensor::ExtractOp::create(builder, loc, pad.getSource(), clamped);
  if (!inside)
    return element;
  Value fill = arith::ConstantOp::create(builder, loc, padding);
  return arith::SelectOp::create(builder, loc, inside, element, fill);
}

/// Rewrites `generic`, which reads `pad` as inputs or through
/// tensor.extract, to read the pad's source through bounds checks.
void foldInto(RewriterBase &rewriter, linalg::GenericOp generic,
              tensor::PadOp pad, TypedAttr padding) {
  Location loc = generic.getLoc();
  // tensor.extract of the pad in the payload: in place.
  SmallVector<tensor::ExtractOp> extracts;
  generic.getRegion().walk([&](tensor::ExtractOp extract) {
    if (extract.getTensor() == pad.getResult())
      extracts.push_back(extract);
  });
  for (tensor::ExtractOp extract : extracts) {
    rewriter.setInsertionPoint(extract);
    rewriter.replaceOp(extract,
                       readThroughBounds(rewriter, extract.getLoc(), pad,
                                         padding, extract.getIndices()));
  }

  // The pad as an input: a new generic without that input, whose payload
  // computes the input's position from the loop indices.
  SmallVector<OpOperand *> padInputs;
  for (OpOperand *input : generic.getDpsInputOperands())
    if (input->get() == pad.getResult())
      padInputs.push_back(input);
  if (padInputs.empty())
    return;
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : generic.getDpsInputOperands())
    if (!llvm::is_contained(padInputs, input)) {
      inputs.push_back(input->get());
      maps.push_back(generic.getMatchingIndexingMap(input));
    }
  for (OpOperand &init : generic.getDpsInitsMutable())
    maps.push_back(generic.getMatchingIndexingMap(&init));
  rewriter.setInsertionPoint(generic);
  auto folded = linalg::GenericOp::create(
      rewriter, loc, generic.getResultTypes(), inputs, generic.getDpsInits(),
      maps, generic.getIteratorTypesArray(),
      [&](OpBuilder &builder, Location nested, ValueRange arguments) {
        IRMapping mapping;
        Block *body = generic.getBody();
        SmallVector<Value> loops;
        for (unsigned dim = 0; dim < generic.getNumLoops(); ++dim)
          loops.push_back(linalg::IndexOp::create(builder, nested, dim));
        unsigned next = 0;
        for (OpOperand &operand : generic->getOpOperands()) {
          BlockArgument argument =
              body->getArgument(operand.getOperandNumber());
          if (!llvm::is_contained(padInputs, &operand)) {
            mapping.map(argument, arguments[next++]);
            continue;
          }
          SmallVector<Value> indices;
          for (AffineExpr result :
               generic.getMatchingIndexingMap(&operand).getResults())
            indices.push_back(affine::expandAffineExpr(builder, nested, result,
                                                       loops, ValueRange()));
          mapping.map(argument, readThroughBounds(builder, nested, pad, padding,
                                                  indices));
        }
        for (Operation &op : *body)
          builder.clone(op, mapping);
      });
  CkptDialect::copyAnnotations(generic, folded);
  rewriter.replaceOp(generic, folded->getResults());
}

struct FoldPoolingPadsPass
    : public mlir::ckpt::impl::FoldPoolingPadsPassBase<FoldPoolingPadsPass> {
  void runOnOperation() override {
    SmallVector<tensor::PadOp> pads;
    getOperation()->walk([&](tensor::PadOp pad) { pads.push_back(pad); });
    IRRewriter rewriter(&getContext());
    for (tensor::PadOp pad : pads) {
      std::optional<TypedAttr> padding = getInfinitePadding(pad);
      if (!padding)
        continue;
      std::optional<SetVector<linalg::GenericOp>> readers =
          getGenericReaders(pad);
      if (!readers)
        continue;
      for (linalg::GenericOp generic : *readers)
        foldInto(rewriter, generic, pad, *padding);
      if (pad->use_empty())
        rewriter.eraseOp(pad);
    }
  }
};

} // namespace
