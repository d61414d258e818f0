//===- RecomputeToBarrier.cpp - ckpt.recompute for downstream compilers ---===//
//
// Implements `ckpt-recompute-to-barrier`: the tensor-level lowering of
// recompute regions for compilers other than ckpt's own pipelines (IREE,
// XLA-like stacks). Their CSE would merge an inlined recomputation with the
// computation it repeats; an optimization barrier on the region's inputs
// (and results) keeps the two apart, as JAX's `prevent_cse` does.
//
//===----------------------------------------------------------------------===//

#include "RecomputeInlining.h"

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "ckpt-recompute-to-barrier"

namespace mlir::ckpt {
#define GEN_PASS_DEF_RECOMPUTETOBARRIERPASS
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// `values` through `barrier` ops, one per value (IREE's stream lowering
/// rejects a barrier mixing arguments and computed values): their results,
/// of the same types.
SmallVector<Value> throughBarrier(RewriterBase &rewriter, Location loc,
                                  OperationName barrier, ValueRange values) {
  SmallVector<Value> results;
  for (Value value : values) {
    OperationState state(loc, barrier);
    state.addOperands(value);
    state.addTypes(value.getType());
    results.push_back(rewriter.create(state)->getResult(0));
  }
  return results;
}

/// The opaque zeros of one region's key, per integer width, created at the
/// entry of the function holding the region.
class RegionKey {
public:
  RegionKey(RewriterBase &rewriter, OperationName barrier,
            FunctionOpInterface function, Location loc, int64_t index)
      : rewriter(rewriter), loc(loc) {
    Block &entry = function.getFunctionBody().front();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&entry);
    // A distinct constant per region: two recomputations of one value
    // must not be merged with each other either.
    Value constant = arith::ConstantIntOp::create(rewriter, loc, index, 64);
    OperationState state(loc, barrier);
    state.addOperands(constant);
    state.addTypes(constant.getType());
    Value opaque = rewriter.create(state)->getResult(0);
    zero64 = arith::XOrIOp::create(rewriter, loc, opaque, constant);
    insertAfter = zero64.getDefiningOp();
  }

  /// The zero as an integer of `width` bits.
  Value zero(unsigned width) {
    if (width == 64)
      return zero64;
    Value &value = zeros[width];
    if (!value) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfter(insertAfter);
      value = arith::TruncIOp::create(rewriter, loc,
                                      rewriter.getIntegerType(width), zero64);
      insertAfter = value.getDefiningOp();
    }
    return value;
  }

private:
  RewriterBase &rewriter;
  Location loc;
  Value zero64;
  Operation *insertAfter = nullptr;
  llvm::SmallDenseMap<unsigned, Value> zeros;
};

/// Floats wider than this are not keyed through their bits: IREE demotes
/// f64 to f32 by default (--iree-input-demote-f64-to-f32), which turns a
/// bitcast of f64 bits into an invalid one of f32 bits.
constexpr unsigned kMaxBitcastFloatWidth = 32;

/// The integer type of `type`'s bits: itself for integers, the integer of
/// its width for floats up to kMaxBitcastFloatWidth bits; null for others
/// (index, complex, f64).
IntegerType bitsType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer;
  if (auto floating = dyn_cast<FloatType>(type);
      floating && floating.getWidth() <= kMaxBitcastFloatWidth)
    return IntegerType::get(type.getContext(), floating.getWidth());
  return nullptr;
}

/// `value` as an integer of its bits (itself for integers).
Value asBits(OpBuilder &builder, Location loc, Value value) {
  IntegerType bits = bitsType(value.getType());
  if (bits == value.getType())
    return value;
  return arith::BitcastOp::create(builder, loc, bits, value);
}

/// `key`'s zero as a `bits` integer, ANDed with the bits of `anchor` when
/// given.
Value anchoredZero(OpBuilder &builder, Location loc, IntegerType bits,
                   RegionKey &key, Value anchor) {
  unsigned width = bits.getWidth();
  Value zero = key.zero(width);
  if (!anchor || !bitsType(anchor.getType()) ||
      bitsType(anchor.getType()).getWidth() > 64)
    return zero;
  Value anchorBits = asBits(builder, loc, anchor);
  unsigned anchorWidth = cast<IntegerType>(anchorBits.getType()).getWidth();
  if (anchorWidth > width)
    anchorBits = arith::TruncIOp::create(builder, loc, bits, anchorBits);
  else if (anchorWidth < width)
    anchorBits = arith::ExtUIOp::create(builder, loc, bits, anchorBits);
  return arith::AndIOp::create(builder, loc, zero, anchorBits);
}

/// `value` with a zero XORed into its bits: `key`'s zero, ANDed with the
/// bits of `anchor` when given (an element of the tensor the recomputation
/// is anchored to). The same bits, computed from values no folder can see
/// through. Wider floats get that zero added as a negative zero instead
/// (x + -0.0 is x for every x but a signaling NaN, which it quiets).
/// `value` itself when its type has neither form.
Value keyed(OpBuilder &builder, Location loc, Value value, RegionKey &key,
            Value anchor = {}) {
  if (auto floating = dyn_cast<FloatType>(value.getType());
      floating && !bitsType(floating)) {
    Value zero = anchoredZero(builder, loc, builder.getI64Type(), key, anchor);
    Value negativeZero = arith::NegFOp::create(
        builder, loc, arith::UIToFPOp::create(builder, loc, floating, zero));
    return arith::AddFOp::create(builder, loc, value, negativeZero);
  }
  IntegerType bits = bitsType(value.getType());
  if (!bits || bits.getWidth() > 64)
    return value;
  Value zero = anchoredZero(builder, loc, bits, key, anchor);
  Value mixed =
      arith::XOrIOp::create(builder, loc, asBits(builder, loc, value), zero);
  if (bits == value.getType())
    return mixed;
  return arith::BitcastOp::create(builder, loc, value.getType(), mixed);
}

/// True for a tensor whose elements have an integer form: what keys can
/// be anchored to.
bool isAnchorable(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor && bitsType(tensor.getElementType()) &&
         bitsType(tensor.getElementType()).getWidth() <= 64;
}

/// The tensor the recomputation is anchored to: the last value computed
/// before `recompute` in its block (the point of the backward pass where
/// the plan recomputes). Reading one element of it in the recomputation's
/// first ops keeps a downstream scheduler from hoisting the recomputation
/// to where its inputs are ready (IREE does), which would keep the
/// recomputed values alive as long as the originals. Null at a block's
/// start.
Value findAnchor(RecomputeOp recompute) {
  for (Operation *op = recompute->getPrevNode(); op; op = op->getPrevNode()) {
    if (isa<tensor::EmptyOp>(op) || op->hasTrait<OpTrait::ConstantLike>())
      continue;
    for (Value result : llvm::reverse(op->getResults()))
      if (isAnchorable(result))
        return result;
  }
  return {};
}

/// True for an elementwise linalg.generic (all loops parallel) that reads
/// at least one tensor (not a fill): the ops whose yielded bits the key is
/// XORed into.
bool isKeyable(linalg::GenericOp generic) {
  return generic.getNumReductionLoops() == 0 && generic.getNumResults() > 0 &&
         generic.getNumDpsInputs() > 0;
}

/// The first element of `tensor` as a rank-0 tensor (a view). Ops read it
/// through the scalar broadcast map `(d...) -> ()`: IREE 3.13 computes
/// wrong values when it fuses the producer of an operand read through a
/// constant-index map, such as `(d0, d1) -> (0, 0)`, into the reader.
Value firstElement(RewriterBase &rewriter, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (type.getRank() == 0)
    return tensor;
  SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> ones(type.getRank(), rewriter.getIndexAttr(1));
  auto scalar = RankedTensorType::get({}, type.getElementType());
  return tensor::ExtractSliceOp::create(rewriter, loc, scalar, tensor, offsets,
                                        ones, ones);
}

/// `generic` with `anchor` as one more input, its first element read
/// everywhere; returns the new op (its block's new argument follows
/// the other inputs').
linalg::GenericOp addAnchorInput(RewriterBase &rewriter,
                                 linalg::GenericOp generic, Value anchor) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(generic);
  Value element = firstElement(rewriter, generic.getLoc(), anchor);
  auto anchorType = cast<RankedTensorType>(element.getType());
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  unsigned inputs = generic.getNumDpsInputs();
  maps.insert(maps.begin() + inputs,
              AffineMap::get(generic.getNumLoops(), 0, rewriter.getContext()));
  SmallVector<Value> ins(generic.getDpsInputs());
  ins.push_back(element);
  auto anchored = linalg::GenericOp::create(
      rewriter, generic.getLoc(), generic.getResultTypes(), ins,
      generic.getDpsInits(), maps, generic.getIteratorTypesArray());
  anchored->setDiscardableAttrs(generic->getDiscardableAttrDictionary());
  rewriter.inlineRegionBefore(generic.getRegion(), anchored.getRegion(),
                              anchored.getRegion().end());
  anchored.getBody()->insertArgument(inputs, anchorType.getElementType(),
                                     generic.getLoc());
  rewriter.replaceOp(generic, anchored.getResults());
  return anchored;
}

/// Keys the recomputation in `body`: every elementwise linalg.generic XORs
/// the key into what it yields; a reduction none of whose operands comes
/// from a keyed op gets its init keyed by an elementwise copy. The ops that
/// start the recomputation (none of their operands computed in it by a
/// keyed op) also read `anchor` (when given) into the key. Ops that no key
/// reaches are left as they are (views, fills merged with their originals
/// cost nothing).
void keyRecomputation(RewriterBase &rewriter, Block &body, RegionKey &key,
                      Value anchor) {
  DenseSet<Operation *> reached;
  auto isReached = [&](Operation *op) {
    return llvm::any_of(op->getOperands(), [&](Value operand) {
      Operation *producer = operand.getDefiningOp();
      return producer && reached.contains(producer);
    });
  };
  for (Operation &op : llvm::make_early_inc_range(body)) {
    auto generic = dyn_cast<linalg::GenericOp>(op);
    // Fills are left as they are: downstream compilers fold them into the
    // contractions they initialize, and a keyed fill is no longer one.
    if (!generic || generic.getNumResults() == 0 ||
        generic.getNumDpsInputs() == 0) {
      if (isReached(&op))
        reached.insert(&op);
      continue;
    }
    bool root = !isReached(generic);
    if (isKeyable(generic)) {
      Value anchorElement;
      if (root && anchor) {
        generic = addAnchorInput(rewriter, generic, anchor);
        anchorElement =
            generic.getBody()->getArgument(generic.getNumDpsInputs() - 1);
      }
      Operation *yield = generic.getBody()->getTerminator();
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(yield);
      for (OpOperand &operand : yield->getOpOperands())
        operand.set(keyed(rewriter, yield->getLoc(), operand.get(), key,
                          anchorElement));
      reached.insert(generic);
      continue;
    }
    if (!root) {
      reached.insert(generic);
      continue;
    }
    // A reduction on values from outside: its smallest input goes through
    // a keyed elementwise copy. (Keying its init instead would hide the
    // zero fill from the downstream compiler, which then compiles the
    // contraction differently: other bits.)
    OpOperand *input = nullptr;
    for (OpOperand *candidate : generic.getDpsInputOperands()) {
      auto type = dyn_cast<RankedTensorType>(candidate->get().getType());
      if (!type || !type.hasStaticShape() || !bitsType(type.getElementType()))
        continue;
      if (!input ||
          type.getNumElements() <
              cast<RankedTensorType>(input->get().getType()).getNumElements())
        input = candidate;
    }
    if (!input)
      continue;
    auto type = cast<RankedTensorType>(input->get().getType());
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(generic);
    Location loc = generic.getLoc();
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
    AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
    SmallVector<Value> ins = {input->get()};
    SmallVector<AffineMap> maps = {identity};
    if (anchor) {
      ins.push_back(firstElement(rewriter, loc, anchor));
      maps.push_back(AffineMap::get(type.getRank(), 0, rewriter.getContext()));
    }
    maps.push_back(identity);
    SmallVector<utils::IteratorType> parallel(type.getRank(),
                                              utils::IteratorType::parallel);
    auto copy = linalg::GenericOp::create(
        rewriter, loc, type, ins, ValueRange{empty}, maps, parallel,
        [&](OpBuilder &builder, Location nested, ValueRange args) {
          linalg::YieldOp::create(
              builder, nested,
              keyed(builder, nested, args[0], key, anchor ? args[1] : Value()));
        });
    input->set(copy.getResult(0));
    reached.insert(generic);
  }
}

/// Anchors every value `function` only returns to the next elementwise
/// linalg.generic after its producer (which then reads one element of it
/// into `key`): a downstream scheduler that sinks such values' producers to
/// the function's end (IREE does) keeps their inputs alive to the end.
void anchorReturnedValues(RewriterBase &rewriter, OperationName barrier,
                          FunctionOpInterface function, int64_t keyIndex) {
  Block &body = function.getFunctionBody().front();
  Operation *terminator = body.getTerminator();
  std::optional<RegionKey> key;
  // The op anchored to is replaced by a new one in its place: the walk
  // reaches it (and anchors what it returns in turn).
  for (Operation *op = &body.front(); op != terminator;
       op = op->getNextNode()) {
    if (!isa<linalg::GenericOp>(op) || op->getNumResults() == 0 ||
        !isAnchorable(op->getResult(0)) ||
        !llvm::all_of(op->getUsers(),
                      [&](Operation *user) { return user == terminator; }))
      continue;
    linalg::GenericOp next;
    for (Operation *later = op->getNextNode(); later && !next;
         later = later->getNextNode()) {
      auto generic = dyn_cast<linalg::GenericOp>(later);
      if (generic && isKeyable(generic))
        next = generic;
    }
    if (!next)
      continue;
    if (!key)
      key.emplace(rewriter, barrier, function, function.getLoc(), keyIndex);
    next = addAnchorInput(rewriter, next, op->getResult(0));
    Value element = next.getBody()->getArgument(next.getNumDpsInputs() - 1);
    Operation *yield = next.getBody()->getTerminator();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(yield);
    for (OpOperand &operand : yield->getOpOperands())
      operand.set(
          keyed(rewriter, yield->getLoc(), operand.get(), *key, element));
  }
}

struct RecomputeToBarrierPass
    : public mlir::ckpt::impl::RecomputeToBarrierPassBase<
          RecomputeToBarrierPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    StringRef name = barrier;
    if (!name.contains('.') || name.starts_with(".") || name.ends_with(".")) {
      emitError(module.getLoc())
          << "ckpt-recompute-to-barrier: barrier must name an op as "
             "'dialect.op' (such as util.optimization_barrier), got '"
          << name << "'";
      return signalPassFailure();
    }
    if (failed(checkCheckpointsExpanded(
            module, "must be expanded (ckpt-expand-checkpoints or "
                    "ckpt-remat) before ckpt-recompute-to-barrier")))
      return signalPassFailure();
    OperationName barrierName(name, context);
    // The barrier's dialect is the downstream compiler's: where it is not
    // loaded, the op is created unregistered and printed in generic form,
    // which that compiler parses.
    if (!barrierName.isRegistered())
      context->allowUnregisteredDialects();

    if (barrierOn != "values" && barrierOn != "key") {
      emitError(module.getLoc())
          << "ckpt-recompute-to-barrier: barrier-on must be 'values' or "
             "'key', got '"
          << barrierOn << "'";
      return signalPassFailure();
    }

    // Post-order: inner regions are lowered before the regions holding them.
    SmallVector<RecomputeOp> regions;
    module.walk([&](RecomputeOp op) { regions.push_back(op); });
    IRRewriter rewriter(context);
    for (auto [index, recompute] : llvm::enumerate(regions)) {
      LDBG() << "recompute at " << recompute.getLoc();
      if (barrierOn == "key") {
        RegionKey key(rewriter, barrierName,
                      recompute->getParentOfType<FunctionOpInterface>(),
                      recompute.getLoc(), index);
        keyRecomputation(rewriter, recompute.getBodyBlock(), key,
                         findAnchor(recompute));
        rewriter.setInsertionPoint(recompute);
        SmallVector<Value> yielded =
            inlineRecomputeBody(rewriter, recompute, recompute.getInputs());
        rewriter.replaceOp(recompute, yielded);
        continue;
      }
      rewriter.setInsertionPoint(recompute);
      SmallVector<Value> inputs = throughBarrier(
          rewriter, recompute.getLoc(), barrierName, recompute.getInputs());
      SmallVector<Value> yielded =
          inlineRecomputeBody(rewriter, recompute, inputs);
      if (barrierResults)
        yielded =
            throughBarrier(rewriter, recompute.getLoc(), barrierName, yielded);
      rewriter.replaceOp(recompute, yielded);
    }
    if (barrierOn == "key")
      for (auto function : module.getOps<FunctionOpInterface>()) {
        if (function.isExternal())
          continue;
        anchorReturnedValues(rewriter, barrierName, function, regions.size());
      }
  }
};

} // namespace
