//===- MapLinalgToGpu.cpp - linalg on memrefs to GPU loop nests -----------===//
//
// Implements `ckpt-map-linalg-to-gpu`: each linalg op becomes a block-mapped
// scf.parallel around a thread-mapped scf.parallel, ready for
// `convert-parallel-loops-to-gpu`. Elementwise work gets one thread per
// element in coalesced order; associative reductions get one block per
// output with the threads striding through the reduced elements.
//
//===----------------------------------------------------------------------===//

#include "KernelEstimate.h"

#include "ckpt/Conversion/Passes.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/ToolOutputFile.h"

#define DEBUG_TYPE "ckpt-map-linalg-to-gpu"

namespace mlir::ckpt {
#define GEN_PASS_DEF_MAPLINALGTOGPUPASS
#include "ckpt/Conversion/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

constexpr int64_t kWarpSize = 32;

/// Marks `loop` (one dimension) to run on `processor`.
void mapTo(scf::ParallelOp loop, gpu::Processor processor) {
  MLIRContext *ctx = loop.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
  (void)gpu::setMappingAttr(loop, {gpu::ParallelLoopDimMappingAttr::get(
                                      ctx, processor, identity, identity)});
}

/// Product of `sizes` (index values).
Value product(OpBuilder &b, Location loc, ArrayRef<Value> sizes) {
  if (sizes.empty())
    return arith::ConstantIndexOp::create(b, loc, 1);
  Value result = sizes.front();
  for (Value size : sizes.drop_front())
    result = arith::MulIOp::create(b, loc, result, size);
  return result;
}

/// Splits a linear index into indices over `sizes`, the last one fastest,
/// so that consecutive linear indices are consecutive in the innermost
/// dimension.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<Value> sizes) {
  SmallVector<Value> indices(sizes.size());
  Value rest = linear;
  for (int64_t i = static_cast<int64_t>(sizes.size()) - 1; i >= 0; --i) {
    if (i == 0) {
      indices[i] = rest;
      break;
    }
    indices[i] = arith::RemUIOp::create(b, loc, rest, sizes[i]);
    rest = arith::DivUIOp::create(b, loc, rest, sizes[i]);
  }
  return indices;
}

/// The indices `map` selects from the loop indices `ivs`.
SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                            ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      indices.push_back(ivs[dim.getPosition()]);
      continue;
    }
    indices.push_back(affine::AffineApplyOp::create(
        b, loc, AffineMap::get(map.getNumDims(), 0, expr), ivs));
  }
  return indices;
}

/// Loads the current value of every output at the loop point `ivs`.
SmallVector<Value> loadOutputs(OpBuilder &b, Location loc, linalg::LinalgOp op,
                               ValueRange ivs) {
  SmallVector<Value> values;
  for (OpOperand &init : op.getDpsInitsMutable())
    values.push_back(memref::LoadOp::create(
        b, loc, init.get(),
        applyMap(b, loc, op.getMatchingIndexingMap(&init), ivs)));
  return values;
}

/// Emits the payload of `op` at the loop point `ivs`, with the output block
/// arguments bound to `outputs`; returns the yielded values.
SmallVector<Value> emitPayload(OpBuilder &b, Location loc, linalg::LinalgOp op,
                               ValueRange ivs, ValueRange outputs) {
  Block *body = op.getBlock();
  IRMapping mapping;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value arg = body->getArgument(input->getOperandNumber());
    if (!isa<MemRefType>(input->get().getType())) {
      mapping.map(arg, input->get());
      continue;
    }
    if (arg.use_empty())
      continue;
    mapping.map(arg,
                memref::LoadOp::create(
                    b, loc, input->get(),
                    applyMap(b, loc, op.getMatchingIndexingMap(input), ivs)));
  }
  for (auto [i, output] : llvm::enumerate(outputs))
    mapping.map(body->getArgument(op.getNumDpsInputs() + i), output);
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
  SmallVector<Value> yielded;
  for (Value value : body->getTerminator()->getOperands())
    yielded.push_back(mapping.lookupOrDefault(value));
  return yielded;
}

void storeOutputs(OpBuilder &b, Location loc, linalg::LinalgOp op,
                  ValueRange ivs, ValueRange values) {
  for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), values))
    memref::StoreOp::create(
        b, loc, value, init.get(),
        applyMap(b, loc, op.getMatchingIndexingMap(&init), ivs));
}

/// The neutral element of `combiner` for `type`, or null when the op is not
/// an associative and commutative combiner this pass knows.
TypedAttr getNeutralElement(Operation *combiner, Type type) {
  Builder b(combiner->getContext());
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    if (isa<arith::AddFOp>(combiner))
      return b.getFloatAttr(type, 0.0);
    if (isa<arith::MulFOp>(combiner))
      return b.getFloatAttr(type, 1.0);
    if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combiner))
      return b.getFloatAttr(
          type, llvm::APFloat::getInf(semantics, /*Negative=*/true));
    if (isa<arith::MinimumFOp, arith::MinNumFOp>(combiner))
      return b.getFloatAttr(type, llvm::APFloat::getInf(semantics));
    return nullptr;
  }
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return nullptr;
  unsigned width = intType.getWidth();
  if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp, arith::MaxUIOp>(combiner))
    return b.getIntegerAttr(type, llvm::APInt::getZero(width));
  if (isa<arith::MulIOp>(combiner))
    return b.getIntegerAttr(type, llvm::APInt(width, 1));
  if (isa<arith::AndIOp, arith::MinUIOp>(combiner))
    return b.getIntegerAttr(type, llvm::APInt::getAllOnes(width));
  if (isa<arith::MaxSIOp>(combiner))
    return b.getIntegerAttr(type, llvm::APInt::getSignedMinValue(width));
  if (isa<arith::MinSIOp>(combiner))
    return b.getIntegerAttr(type, llvm::APInt::getSignedMaxValue(width));
  return nullptr;
}

/// A reduction the block-wide strategy can run: `out = combiner(out, f(...))`
/// with `out` used only by the combiner.
struct BlockReduction {
  Operation *combiner;
  TypedAttr neutral;
};

std::optional<BlockReduction> matchBlockReduction(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0 ||
      linalg::isaContractionOpInterface(op))
    return std::nullopt;
  Block *body = op.getBlock();
  BlockArgument out = body->getArgument(op.getNumDpsInputs());
  Value yielded = body->getTerminator()->getOperand(0);
  Operation *combiner = yielded.getDefiningOp();
  if (!combiner || combiner->getBlock() != body ||
      combiner->getNumOperands() != 2 || combiner->getNumResults() != 1 ||
      !out.hasOneUse() || out.getUses().begin()->getOwner() != combiner)
    return std::nullopt;
  TypedAttr neutral = getNeutralElement(combiner, out.getType());
  if (!neutral)
    return std::nullopt;
  return BlockReduction{combiner, neutral};
}

/// Splits the loop dimensions of `op` into parallel and reduction ones.
void splitLoops(linalg::LinalgOp op, SmallVectorImpl<unsigned> &parallel,
                SmallVectorImpl<unsigned> &reduction) {
  for (auto [i, kind] : llvm::enumerate(op.getIteratorTypesArray()))
    (kind == utils::IteratorType::parallel ? parallel : reduction).push_back(i);
}

/// Threads per block for `count` independent work items: the configured
/// number, or fewer (a whole number of warps) when the count is known and
/// small.
int64_t threadsFor(std::optional<int64_t> count, int64_t maxThreads) {
  if (!count)
    return maxThreads;
  int64_t warps = (*count + kWarpSize - 1) / kWarpSize;
  return std::clamp<int64_t>(warps * kWarpSize, kWarpSize, maxThreads);
}

std::optional<int64_t> staticProduct(linalg::LinalgOp op,
                                     ArrayRef<unsigned> dims) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t result = 1;
  for (unsigned d : dims) {
    if (ShapedType::isDynamic(ranges[d]))
      return std::nullopt;
    result *= ranges[d];
  }
  return result;
}

class KernelMapper {
public:
  KernelMapper(int64_t threadsPerBlock, int64_t blockReductionMinSize)
      : threadsPerBlock(threadsPerBlock),
        blockReductionMinSize(blockReductionMinSize) {}

  /// Estimates every mapped kernel on `target` from now on.
  void enableEstimates(const ckpt::DeviceTarget &target,
                       int64_t residentThreads) {
    estimateTarget = target;
    this->residentThreads = residentThreads;
  }
  ArrayRef<ckpt::KernelEstimate> getEstimates() const { return estimates; }

  void map(IRRewriter &rewriter, linalg::LinalgOp op) {
    SmallVector<unsigned> parallel, reduction;
    splitLoops(op, parallel, reduction);
    std::optional<int64_t> reducedCount = staticProduct(op, reduction);
    std::optional<BlockReduction> blockReduction = matchBlockReduction(op);
    bool bigReduction = !reducedCount || *reducedCount >= blockReductionMinSize;
    if (blockReduction && bigReduction) {
      LDBG() << "block reduction: " << *op;
      int64_t threads = threadsFor(reducedCount, threadsPerBlock);
      recordEstimate(op, ckpt::KernelMapping::BlockReduction,
                     staticProduct(op, parallel), threads);
      mapBlockReduction(rewriter, op, parallel, reduction, *blockReduction);
    } else {
      LDBG() << "thread per output element: " << *op;
      std::optional<int64_t> outputs = staticProduct(op, parallel);
      int64_t threads = threadsFor(outputs, threadsPerBlock);
      std::optional<int64_t> blocks;
      if (outputs)
        blocks = (*outputs + threads - 1) / threads;
      recordEstimate(op,
                     reduction.empty() ? ckpt::KernelMapping::Elementwise
                                       : ckpt::KernelMapping::ThreadPerOutput,
                     blocks, threads);
      mapThreadPerElement(rewriter, op, parallel, reduction);
    }
    rewriter.eraseOp(op);
  }

private:
  void recordEstimate(linalg::LinalgOp op, ckpt::KernelMapping mapping,
                      std::optional<int64_t> blocks, int64_t threads) {
    if (!estimateTarget)
      return;
    if (std::optional<ckpt::KernelEstimate> estimate = ckpt::estimateKernel(
            op, mapping, blocks, threads, *estimateTarget, residentThreads))
      estimates.push_back(std::move(*estimate));
  }

  /// Sizes of the loop dimensions, as index values before `op`.
  SmallVector<Value> loopSizes(OpBuilder &b, linalg::LinalgOp op) {
    SmallVector<Value> sizes;
    for (Range range : op.createLoopRanges(b, op.getLoc()))
      sizes.push_back(
          getValueOrCreateConstantIndexOp(b, op.getLoc(), range.size));
    return sizes;
  }

  static SmallVector<Value> select(ArrayRef<Value> values,
                                   ArrayRef<unsigned> dims) {
    SmallVector<Value> result;
    for (unsigned d : dims)
      result.push_back(values[d]);
    return result;
  }

  /// One thread per point of the parallel iteration space; reduction
  /// dimensions (if any) run sequentially in that thread.
  void mapThreadPerElement(IRRewriter &rewriter, linalg::LinalgOp op,
                           ArrayRef<unsigned> parallel,
                           ArrayRef<unsigned> reduction) {
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    SmallVector<Value> sizes = loopSizes(rewriter, op);
    SmallVector<Value> parallelSizes = select(sizes, parallel);
    SmallVector<Value> reductionSizes = select(sizes, reduction);
    Value total = product(rewriter, loc, parallelSizes);
    int64_t threads = threadsFor(staticProduct(op, parallel), threadsPerBlock);
    Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value threadCount = arith::ConstantIndexOp::create(rewriter, loc, threads);
    Value blocks =
        arith::CeilDivUIOp::create(rewriter, loc, total, threadCount);

    auto grid = scf::ParallelOp::create(rewriter, loc, c0, blocks, c1);
    mapTo(grid, gpu::Processor::BlockX);
    rewriter.setInsertionPointToStart(grid.getBody());
    auto block = scf::ParallelOp::create(rewriter, loc, c0, threadCount, c1);
    mapTo(block, gpu::Processor::ThreadX);
    rewriter.setInsertionPointToStart(block.getBody());
    Value linear = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, grid.getInductionVars()[0],
                              threadCount),
        block.getInductionVars()[0]);
    Value inBounds = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, linear, total);
    auto guard = scf::IfOp::create(rewriter, loc, inBounds,
                                   /*withElseRegion=*/false);
    rewriter.setInsertionPointToStart(guard.thenBlock());

    SmallVector<Value> ivs(sizes.size());
    for (auto [d, iv] :
         llvm::zip(parallel, delinearize(rewriter, loc, linear, parallelSizes)))
      ivs[d] = iv;

    if (reduction.empty()) {
      SmallVector<Value> outputs;
      Block *body = op.getBlock();
      for (OpOperand &init : op.getDpsInitsMutable()) {
        // Outputs the payload never reads are not loaded.
        BlockArgument arg = body->getArgument(init.getOperandNumber());
        outputs.push_back(
            arg.use_empty()
                ? Value(arith::ConstantOp::create(
                      rewriter, loc, rewriter.getZeroAttr(arg.getType())))
                : Value(memref::LoadOp::create(
                      rewriter, loc, init.get(),
                      applyMap(rewriter, loc, op.getMatchingIndexingMap(&init),
                               ivs))));
      }
      storeOutputs(rewriter, loc, op, ivs,
                   emitPayload(rewriter, loc, op, ivs, outputs));
      return;
    }

    // Sequential reduction over the linearized reduction dimensions.
    SmallVector<Value> initial = loadOutputs(rewriter, loc, op, ivs);
    Value reducedTotal = product(rewriter, loc, reductionSizes);
    auto loop =
        scf::ForOp::create(rewriter, loc, c0, reducedTotal, c1, initial);
    rewriter.setInsertionPointToStart(loop.getBody());
    for (auto [d, iv] :
         llvm::zip(reduction, delinearize(rewriter, loc, loop.getInductionVar(),
                                          reductionSizes)))
      ivs[d] = iv;
    scf::YieldOp::create(
        rewriter, loc,
        emitPayload(rewriter, loc, op, ivs, loop.getRegionIterArgs()));
    rewriter.setInsertionPointAfter(loop);
    storeOutputs(rewriter, loc, op, ivs, loop.getResults());
  }

  /// One block per output element; its threads take every `threads`-th
  /// reduced element, accumulate privately and combine block-wide.
  void mapBlockReduction(IRRewriter &rewriter, linalg::LinalgOp op,
                         ArrayRef<unsigned> parallel,
                         ArrayRef<unsigned> reduction,
                         const BlockReduction &match) {
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    SmallVector<Value> sizes = loopSizes(rewriter, op);
    SmallVector<Value> parallelSizes = select(sizes, parallel);
    SmallVector<Value> reductionSizes = select(sizes, reduction);
    Value outputs = product(rewriter, loc, parallelSizes);
    Value reducedTotal = product(rewriter, loc, reductionSizes);
    int64_t threads = threadsFor(staticProduct(op, reduction), threadsPerBlock);
    Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value threadCount = arith::ConstantIndexOp::create(rewriter, loc, threads);
    Value neutral = arith::ConstantOp::create(rewriter, loc, match.neutral);

    auto grid = scf::ParallelOp::create(rewriter, loc, c0, outputs, c1);
    mapTo(grid, gpu::Processor::BlockX);
    rewriter.setInsertionPointToStart(grid.getBody());
    SmallVector<Value> ivs(sizes.size());
    for (auto [d, iv] : llvm::zip(
             parallel, delinearize(rewriter, loc, grid.getInductionVars()[0],
                                   parallelSizes)))
      ivs[d] = iv;
    // Every thread of the block reads the output before the block-wide
    // combination and stores the same final value after it. Reading after
    // it would race: a thread could read what a faster one already stored
    // and add the block's sum twice. The combination waits for every thread
    // of the block, so all reads precede every store.
    SmallVector<Value> initial = loadOutputs(rewriter, loc, op, ivs);

    auto block = scf::ParallelOp::create(rewriter, loc, c0, threadCount, c1,
                                         ValueRange{neutral});
    mapTo(block, gpu::Processor::ThreadX);
    rewriter.setInsertionPointToStart(block.getBody());
    auto strided =
        scf::ForOp::create(rewriter, loc, block.getInductionVars()[0],
                           reducedTotal, threadCount, ValueRange{neutral});
    rewriter.setInsertionPointToStart(strided.getBody());
    SmallVector<Value> pointIvs = ivs;
    for (auto [d, iv] : llvm::zip(
             reduction, delinearize(rewriter, loc, strided.getInductionVar(),
                                    reductionSizes)))
      pointIvs[d] = iv;
    scf::YieldOp::create(
        rewriter, loc,
        emitPayload(rewriter, loc, op, pointIvs, strided.getRegionIterArgs()));

    // Block-wide combination of the per-thread partial results.
    rewriter.setInsertionPointAfter(strided);
    auto reduce =
        scf::ReduceOp::create(rewriter, loc, ValueRange{strided.getResult(0)});
    Block &combineBlock = reduce.getReductions()[0].front();
    rewriter.setInsertionPointToStart(&combineBlock);
    Value combined =
        combine(rewriter, loc, match.combiner, combineBlock.getArgument(0),
                combineBlock.getArgument(1));
    scf::ReduceReturnOp::create(rewriter, loc, combined);

    // Every thread of the block computes and stores the same final value.
    rewriter.setInsertionPointAfter(block);
    Value result =
        combine(rewriter, loc, match.combiner, initial[0], block.getResult(0));
    storeOutputs(rewriter, loc, op, ivs, ValueRange{result});
  }

  /// Clones `combiner` on (`lhs`, `rhs`).
  static Value combine(OpBuilder &b, Location loc, Operation *combiner,
                       Value lhs, Value rhs) {
    IRMapping mapping;
    mapping.map(combiner->getOperand(0), lhs);
    mapping.map(combiner->getOperand(1), rhs);
    return b.clone(*combiner, mapping)->getResult(0);
  }

  int64_t threadsPerBlock;
  int64_t blockReductionMinSize;
  std::optional<ckpt::DeviceTarget> estimateTarget;
  int64_t residentThreads = 0;
  SmallVector<ckpt::KernelEstimate> estimates;
};

struct MapLinalgToGpuPass
    : public mlir::ckpt::impl::MapLinalgToGpuPassBase<MapLinalgToGpuPass> {
  using Base::Base;

  void runOnOperation() override {
    if (threadsPerBlock == 0 || threadsPerBlock % kWarpSize != 0 ||
        threadsPerBlock > 1024) {
      emitError(getOperation()->getLoc())
          << "threads-per-block must be a multiple of 32 between 32 and "
             "1024, got "
          << static_cast<unsigned>(threadsPerBlock);
      return signalPassFailure();
    }
    // Attention has no kernel mapping yet: ckpt-gpu-pipeline decomposes it
    // into linalg before bufferization.
    WalkResult attention = getOperation()->walk([](Operation *op) {
      if (!isa<ckpt::AttentionOp, ckpt::AttentionGradOp>(op))
        return WalkResult::advance();
      op->emitOpError("has no GPU kernel yet; decompose it into linalg "
                      "first (ckpt-decompose-attention, as ckpt-gpu-pipeline "
                      "does)");
      return WalkResult::interrupt();
    });
    if (attention.wasInterrupted())
      return signalPassFailure();
    IRRewriter rewriter(&getContext());

    // Copies become linalg.copy so that one mapping handles them.
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }

    SmallVector<linalg::LinalgOp> ops;
    bool onTensors = false;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!op.hasPureBufferSemantics()) {
        op->emitError("expected a linalg op on memrefs (run bufferization "
                      "first)");
        onTensors = true;
        return;
      }
      ops.push_back(op);
    });
    if (onTensors)
      return signalPassFailure();
    KernelMapper mapper(threadsPerBlock, blockReductionMinSize);
    std::optional<ckpt::DeviceTarget> target;
    if (!report.empty()) {
      llvm::Expected<ckpt::DeviceTarget> found =
          ckpt::lookupDeviceTarget(reportTarget);
      if (!found) {
        emitError(getOperation()->getLoc())
            << "ckpt-map-linalg-to-gpu: report-target: "
            << llvm::toString(found.takeError());
        return signalPassFailure();
      }
      if (residentThreads <= 0) {
        emitError(getOperation()->getLoc())
            << "ckpt-map-linalg-to-gpu: resident-threads must be positive";
        return signalPassFailure();
      }
      target = *found;
      mapper.enableEstimates(*target, residentThreads);
    }
    for (linalg::LinalgOp op : ops)
      mapper.map(rewriter, op);
    if (!target)
      return;
    std::string errorMessage;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(report, &errorMessage);
    if (!file) {
      emitError(getOperation()->getLoc())
          << "ckpt-map-linalg-to-gpu: " << errorMessage;
      return signalPassFailure();
    }
    file->os() << llvm::formatv(
        "{0:2}\n", ckpt::kernelReportToJSON(mapper.getEstimates(), *target,
                                            residentThreads));
    file->keep();
  }
};

} // namespace
