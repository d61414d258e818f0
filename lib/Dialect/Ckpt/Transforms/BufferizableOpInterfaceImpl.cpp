//===- BufferizableOpInterfaceImpl.cpp - bufferization of ckpt ops -------===//
//
// One-Shot Bufferize models for the ckpt region ops.
//
// `ckpt.recompute` reads its inputs and produces fresh buffers: its results
// alias nothing outside the region. Its region arguments are the saved values
// the recomputation starts from, so they are not writable: an op inside the
// region that would write into one in place gets a copy instead, and a
// yielded buffer that is (a view of) a region argument is copied too. A
// donated input is the exception: the op may write into its buffer (the
// analysis copies the input first where something later reads it), its
// region argument is writable, and a result yielded from its buffer is that
// buffer.
//
// `ckpt.checkpoint` must have been expanded by `ckpt-remat`; bufferizing it is
// an error that says so.
//
// The attention ops are in destination style: each result is written into
// its init's buffer, which the op overwrites without reading it.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/Transforms/BufferizableOpInterfaceImpl.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::ckpt;

namespace {

/// Operand answers shared by all ckpt ops: every tensor operand is read,
/// never written, and aliased by no result (region results are fresh buffers,
/// yielded values are handed to the parent).
template <typename ConcreteModel, typename ConcreteOp>
struct ReadOnlyOperandsModel
    : public BufferizableOpInterface::ExternalModel<ConcreteModel, ConcreteOp> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &opOperand,
                              const AnalysisState &state) const {
    return true;
  }

  bool bufferizesToMemoryWrite(Operation *op, OpOperand &opOperand,
                               const AnalysisState &state) const {
    return false;
  }

  AliasingValueList getAliasingValues(Operation *op, OpOperand &opOperand,
                                      const AnalysisState &state) const {
    return {};
  }
};

/// The tensor that `op` views when it is one of the tensor ops that bufferize
/// to views (slices, reshapes, casts), else null.
static Value getTensorViewSource(Operation *op) {
  if (isa_and_nonnull<tensor::ExtractSliceOp, tensor::ExpandShapeOp,
                      tensor::CollapseShapeOp, tensor::CastOp>(op))
    return op->getOperand(0);
  return Value();
}

/// The argument of `block` that `buffer` (a buffer, or a tensor not yet
/// bufferized) is (a view of), if any: through memref views, the tensor ops
/// that bufferize to views (slices, reshapes, casts) and the conversions
/// between tensors and buffers.
static BlockArgument getViewedBlockArgument(Value buffer, Block *block) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(buffer))
      return arg.getOwner() == block ? arg : BlockArgument();
    Operation *def = buffer.getDefiningOp();
    if (auto view = dyn_cast_or_null<ViewLikeOpInterface>(def)) {
      buffer = view.getViewSource();
      continue;
    }
    if (Value source = getTensorViewSource(def)) {
      buffer = source;
      continue;
    }
    if (auto toBuffer = dyn_cast_or_null<ToBufferOp>(def)) {
      buffer = toBuffer.getTensor();
      continue;
    }
    if (auto toTensor = dyn_cast_or_null<ToTensorOp>(def)) {
      buffer = toTensor.getBuffer();
      continue;
    }
    return BlockArgument();
  }
}

/// True when the yielded `buffer` of the region op `op` (whose body is
/// `block`) is (a view of) a region argument that is not donated: the result
/// must be a copy of it.
static bool yieldsSavedInput(Operation *op, Value buffer, Block *block) {
  BlockArgument arg = getViewedBlockArgument(buffer, block);
  if (!arg)
    return false;
  auto recompute = dyn_cast<RecomputeOp>(op);
  return !recompute || !isDonatedInput(recompute, arg.getArgNumber());
}

/// True when a tensor yielded by a region may be written into the buffer of
/// `arg`: through the views and the destination-style ops that may write
/// into their inits in place (the conservative answer the analysis needs
/// before it has decided the nested ops).
static bool mayBeWrittenInto(Value value, BlockArgument arg) {
  SmallVector<Value> worklist{value};
  DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (!visited.insert(current).second)
      continue;
    if (current == arg)
      return true;
    Operation *def = current.getDefiningOp();
    if (!def)
      continue;
    if (Value source = getTensorViewSource(def)) {
      worklist.push_back(source);
    } else if (auto dps = dyn_cast<DestinationStyleOpInterface>(def)) {
      worklist.push_back(
          dps.getTiedOpOperand(cast<OpResult>(current))->get());
    } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(def)) {
      worklist.push_back(insert.getDest());
    } else if (auto forOp = dyn_cast<scf::ForOp>(def)) {
      worklist.push_back(
          forOp.getTiedLoopInit(cast<OpResult>(current))->get());
    }
  }
  return false;
}

/// Analysis answers shared by both region ops: results are new allocations
/// and region arguments (the saved inputs) are read-only.
template <typename ConcreteModel, typename ConcreteOp>
struct CkptRegionOpModel
    : public ReadOnlyOperandsModel<ConcreteModel, ConcreteOp> {
  bool bufferizesToAllocation(Operation *op, Value value) const {
    return isa<OpResult>(value);
  }

  bool isWritable(Operation *op, Value value,
                  const AnalysisState &state) const {
    // Results are fresh buffers; region arguments are the saved inputs.
    return isa<OpResult>(value);
  }

  FailureOr<BufferLikeType>
  getBufferType(Operation *op, Value value, const BufferizationOptions &options,
                const BufferizationState &state,
                SmallVector<Value> &invocationStack) const {
    auto concreteOp = cast<ConcreteOp>(op);
    if (auto arg = dyn_cast<BlockArgument>(value))
      return bufferization::getBufferType(
          concreteOp.getInputs()[arg.getArgNumber()], options, state,
          invocationStack);
    // A result is the buffer the region yields, in its layout: a view of a
    // buffer made inside the region (one of several slices of a fused
    // projection) stays a view of it, as the memory analysis counts it,
    // not a copy. A view of a region argument is copied (the result must
    // not alias a saved value), into an identity layout.
    auto result = cast<OpResult>(value);
    Value yielded = concreteOp.getYield().getValues()[result.getResultNumber()];
    bool copied = yieldsSavedInput(op, yielded, &concreteOp.getBodyBlock());
    // The yield may already be bufferized: nested ops go before their parent.
    auto memrefType = dyn_cast<BaseMemRefType>(yielded.getType());
    if (!memrefType) {
      FailureOr<BufferLikeType> yieldedType = bufferization::getBufferType(
          yielded, options, state, invocationStack);
      if (failed(yieldedType))
        return failure();
      memrefType = dyn_cast<BaseMemRefType>(*yieldedType);
      if (!memrefType)
        return yieldedType;
    }
    if (!copied && isa<MemRefType>(memrefType))
      return cast<BufferLikeType>(memrefType);
    return cast<BufferLikeType>(getMemRefTypeWithStaticIdentityLayout(
        cast<TensorType>(value.getType()), memrefType.getMemorySpace()));
  }
};

/// Bufferization of `ckpt.recompute`: a new op on buffers whose region
/// arguments are memrefs.
struct RecomputeOpInterface
    : public CkptRegionOpModel<RecomputeOpInterface, RecomputeOp> {
  /// The region may write into a donated input.
  bool bufferizesToMemoryWrite(Operation *op, OpOperand &opOperand,
                               const AnalysisState &state) const {
    return isDonatedInput(cast<RecomputeOp>(op), opOperand.getOperandNumber());
  }

  /// A donated input's buffer may come back as the results yielded from it.
  AliasingValueList getAliasingValues(Operation *op, OpOperand &opOperand,
                                      const AnalysisState &state) const {
    auto recompute = cast<RecomputeOp>(op);
    unsigned index = opOperand.getOperandNumber();
    if (!isDonatedInput(recompute, index))
      return {};
    BlockArgument arg = recompute.getRegionInputs()[index];
    AliasingValueList aliases;
    for (auto [result, yielded] :
         llvm::zip(recompute.getResults(), recompute.getYield().getValues()))
      if (isa<TensorType>(result.getType()) && mayBeWrittenInto(yielded, arg))
        aliases.addAlias({result, BufferRelation::Unknown,
                          /*isDefinite=*/true});
    return aliases;
  }

  /// Results are fresh buffers, except those that may be a donated input's.
  bool bufferizesToAllocation(Operation *op, Value value) const {
    auto result = dyn_cast<OpResult>(value);
    if (!result)
      return false;
    auto recompute = cast<RecomputeOp>(op);
    Value yielded = recompute.getYield().getValues()[result.getResultNumber()];
    return llvm::none_of(recompute.getRegionInputs(), [&](BlockArgument arg) {
      return isDonatedInput(recompute, arg.getArgNumber()) &&
             mayBeWrittenInto(yielded, arg);
    });
  }

  /// Results are fresh buffers (or donated inputs' buffers); region
  /// arguments are the saved inputs, writable only where donated.
  bool isWritable(Operation *op, Value value,
                  const AnalysisState &state) const {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return isDonatedInput(cast<RecomputeOp>(op), arg.getArgNumber());
    return true;
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto recompute = cast<RecomputeOp>(op);
    Location loc = recompute.getLoc();

    SmallVector<Value> newInputs;
    for (Value input : recompute.getInputs()) {
      if (!isa<TensorType>(input.getType())) {
        newInputs.push_back(input);
        continue;
      }
      FailureOr<Value> buffer = getBuffer(rewriter, input, options, state);
      if (failed(buffer))
        return failure();
      newInputs.push_back(*buffer);
    }

    // Nested ops (the yield included) are bufferized before their parent, so
    // the yield already carries buffers; compute the types anyway in case a
    // driver bufferizes top-down.
    SmallVector<Type> newResultTypes;
    for (OpResult result : recompute->getResults()) {
      if (!isa<TensorType>(result.getType())) {
        newResultTypes.push_back(result.getType());
        continue;
      }
      FailureOr<BufferLikeType> type =
          bufferization::getBufferType(result, options, state);
      if (failed(type))
        return failure();
      newResultTypes.push_back(*type);
    }

    rewriter.setInsertionPoint(recompute);
    auto newOp = RecomputeOp::create(rewriter, loc, newResultTypes, newInputs,
                                     recompute.getDonatedAttr());
    Block *newBlock = rewriter.createBlock(
        &newOp.getBody(), {}, ValueRange(newInputs).getTypes(),
        SmallVector<Location>(newInputs.size(), loc));

    // Old tensor arguments become to_tensor views of the new memref ones.
    rewriter.setInsertionPointToStart(newBlock);
    SmallVector<Value> argReplacements;
    for (auto [oldArg, newArg] :
         llvm::zip(recompute.getRegionInputs(), newBlock->getArguments())) {
      if (oldArg.getType() == newArg.getType()) {
        argReplacements.push_back(newArg);
        continue;
      }
      argReplacements.push_back(ToTensorOp::create(
          rewriter, loc, oldArg.getType(), newArg, /*restrict=*/true));
    }
    rewriter.mergeBlocks(&recompute.getBodyBlock(), newBlock, argReplacements);

    // Yielded tensors (if any are left) become buffers of the result types.
    YieldOp yield = newOp.getYield();
    rewriter.setInsertionPoint(yield);
    SmallVector<Value> yielded;
    for (auto [value, type] : llvm::zip(yield.getValues(), newResultTypes)) {
      if (!isa<TensorType>(value.getType())) {
        yielded.push_back(value);
        continue;
      }
      yielded.push_back(
          ToBufferOp::create(rewriter, yield.getLoc(), type, value));
    }
    rewriter.modifyOpInPlace(yield,
                             [&] { yield.getValuesMutable().assign(yielded); });

    replaceOpWithBufferizedValues(rewriter, op, newOp->getResults());
    return success();
  }
};

/// `ckpt.checkpoint` is expanded before bufferization; reaching here means
/// the remat pass did not run.
struct CheckpointOpInterface
    : public CkptRegionOpModel<CheckpointOpInterface, CheckpointOp> {
  /// Stops One-Shot Bufferize right after the analysis, before any IR is
  /// rewritten, with a message that names the missing pass.
  LogicalResult verifyAnalysis(Operation *op,
                               const AnalysisState &state) const {
    return op->emitOpError(
        "must be expanded by the ckpt-remat pass before bufferization");
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    return op->emitOpError(
        "must be expanded by the ckpt-remat pass before bufferization");
  }
};

/// Bufferization of `ckpt.yield`: yields buffers of exactly the parent's
/// result types, each a buffer the region owns.
struct YieldOpInterface
    : public ReadOnlyOperandsModel<YieldOpInterface, YieldOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto yield = cast<YieldOp>(op);
    Operation *parent = yield->getParentOp();
    Block *block = yield->getBlock();
    SmallVector<Value> newValues;
    for (OpOperand &operand : yield->getOpOperands()) {
      Value value = operand.get();
      if (!isa<TensorType>(value.getType())) {
        newValues.push_back(value);
        continue;
      }
      FailureOr<Value> buffer = getBuffer(rewriter, value, options, state);
      if (failed(buffer))
        return failure();
      FailureOr<BufferLikeType> resultType = bufferization::getBufferType(
          parent->getResult(operand.getOperandNumber()), options, state);
      if (failed(resultType))
        return failure();
      auto memrefType = dyn_cast<MemRefType>(*resultType);
      if (!memrefType)
        return yield.emitOpError("cannot yield a value of buffer type ")
               << *resultType;
      rewriter.setInsertionPoint(yield);
      Value owned = *buffer;
      if (yieldsSavedInput(parent, owned, block)) {
        // Yielding a region input would make the result alias a saved value;
        // the recomputed value must be a buffer of its own (a donated input's
        // buffer is the region's to hand on).
        FailureOr<Value> copy =
            options.createAlloc(rewriter, yield.getLoc(), memrefType, {});
        if (failed(copy) || failed(options.createMemCpy(
                                rewriter, yield.getLoc(), owned, *copy)))
          return failure();
        owned = *copy;
      } else if (owned.getType() != memrefType) {
        FailureOr<Value> cast =
            castOrReallocMemRefValue(rewriter, owned, memrefType, options);
        if (failed(cast))
          return failure();
        owned = *cast;
      }
      newValues.push_back(owned);
    }
    replaceOpWithNewBufferizedOp<YieldOp>(rewriter, op, newValues);
    return success();
  }
};

/// Bufferization of the attention ops: the same op on the buffers of its
/// operands, results in place in the inits' buffers. The inits are only
/// written (every element), so a buffer whose tensor value is still needed
/// elsewhere gets a copy only where One-Shot Analysis requires one.
template <typename AttentionOpTy>
struct AttentionOpInterface
    : public DstBufferizableOpInterfaceExternalModel<
          AttentionOpInterface<AttentionOpTy>, AttentionOpTy> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &opOperand,
                              const AnalysisState &state) const {
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&opOperand);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto dstOp = cast<DestinationStyleOpInterface>(op);
    if (dstOp.hasPureBufferSemantics())
      return success();
    SmallVector<Value> operands;
    SmallVector<Value> inits;
    for (OpOperand &operand : op->getOpOperands()) {
      FailureOr<Value> buffer =
          getBuffer(rewriter, operand.get(), options, state);
      if (failed(buffer))
        return failure();
      operands.push_back(*buffer);
      if (dstOp.isDpsInit(&operand))
        inits.push_back(*buffer);
    }
    rewriter.setInsertionPoint(op);
    SmallVector<NamedAttribute> discardable(op->getDiscardableAttrs());
    OperationState bufferized(op->getLoc(), op->getName(), operands,
                              TypeRange{}, discardable);
    bufferized.propertiesAttr = op->getPropertiesAsAttribute();
    rewriter.create(bufferized);
    replaceOpWithBufferizedValues(rewriter, op, inits);
    return success();
  }
};

} // namespace

void mlir::ckpt::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, CkptDialect *dialect) {
    RecomputeOp::attachInterface<RecomputeOpInterface>(*ctx);
    CheckpointOp::attachInterface<CheckpointOpInterface>(*ctx);
    YieldOp::attachInterface<YieldOpInterface>(*ctx);
    AttentionOp::attachInterface<AttentionOpInterface<AttentionOp>>(*ctx);
    AttentionGradOp::attachInterface<AttentionOpInterface<AttentionGradOp>>(
        *ctx);
    ctx->loadDialect<memref::MemRefDialect,
                     bufferization::BufferizationDialect>();
  });
}
