//===- CoarsenParallelLoops.cpp - parallel loops worth a thread team ------===//
//
// Implements `ckpt-coarsen-parallel-loops`: of the scf.parallel loops the
// linalg lowering makes, only outermost ones with enough work stay
// parallel, over their leading dimensions; everything else becomes scf.for
// (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "ckpt-coarsen-parallel-loops"

namespace mlir::ckpt {
#define GEN_PASS_DEF_COARSENPARALLELLOOPSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

/// A trip count taken as unbounded: a dynamic loop is assumed big enough.
constexpr int64_t kUnknownTrips = int64_t(1) << 40;

/// Saturating multiplication of non-negative counts.
int64_t times(int64_t a, int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  if (a > kUnknownTrips / b)
    return kUnknownTrips;
  return a * b;
}

/// The number of iterations of a loop dimension, or kUnknownTrips.
int64_t tripCount(Value lower, Value upper, Value step) {
  std::optional<int64_t> lb = getConstantIntValue(lower);
  std::optional<int64_t> ub = getConstantIntValue(upper);
  std::optional<int64_t> st = getConstantIntValue(step);
  if (!lb || !ub || !st || *st <= 0)
    return kUnknownTrips;
  return *ub > *lb ? (*ub - *lb + *st - 1) / *st : 0;
}

/// The trip counts of each dimension of `loop`.
SmallVector<int64_t> tripCounts(scf::ParallelOp loop) {
  SmallVector<int64_t> trips;
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep()))
    trips.push_back(tripCount(lb, ub, step));
  return trips;
}

/// The operations `block` executes, with the bodies of nested loops counted
/// once per iteration: the work a thread would share out.
int64_t workOf(Block &block) {
  int64_t work = 0;
  for (Operation &op : block) {
    int64_t trips = 1;
    if (auto loop = dyn_cast<scf::ForOp>(op))
      trips =
          tripCount(loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
    else if (auto loop = dyn_cast<scf::ParallelOp>(op))
      for (int64_t count : tripCounts(loop))
        trips = times(trips, count);
    int64_t body = 1;
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        body += workOf(nested);
    work = std::min(kUnknownTrips, work + times(trips, body));
  }
  return work;
}

/// Whether running iterations of `loop`'s body concurrently would touch
/// state shared beyond the buffers it indexes: the allocation ledger of the
/// ckpt runtime (allocations, frees) or an arbitrary callee.
bool touchesSharedState(scf::ParallelOp loop) {
  WalkResult result = loop.getBody()->walk([](Operation *op) {
    if (isa<memref::AllocOp, memref::DeallocOp, memref::ReallocOp, func::CallOp,
            func::CallIndirectOp, LLVM::CallOp>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Replaces `loop` by an scf.parallel over its first `keep` dimensions (none
/// when `keep` is 0) around a nest of scf.for over the others, with the
/// same body.
void keepLeadingDimensions(scf::ParallelOp loop, unsigned keep) {
  unsigned rank = loop.getNumLoops();
  if (keep == rank)
    return;
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  auto lbs = llvm::to_vector(loop.getLowerBound());
  auto ubs = llvm::to_vector(loop.getUpperBound());
  auto steps = llvm::to_vector(loop.getStep());
  SmallVector<Value> ivs;
  Block *innermost = nullptr;
  auto buildFors = [&](OpBuilder &nested, Location nestedLoc) {
    scf::LoopNest nest = scf::buildLoopNest(
        nested, nestedLoc, ArrayRef(lbs).drop_front(keep),
        ArrayRef(ubs).drop_front(keep), ArrayRef(steps).drop_front(keep),
        [&](OpBuilder &, Location, ValueRange forIvs) {
          ivs.append(forIvs.begin(), forIvs.end());
        });
    innermost = nest.loops.back().getBody();
  };
  Operation *replacement = nullptr;
  if (keep == 0) {
    buildFors(builder, loc);
  } else {
    auto outer = scf::ParallelOp::create(
        builder, loc, ArrayRef(lbs).take_front(keep),
        ArrayRef(ubs).take_front(keep), ArrayRef(steps).take_front(keep),
        [&](OpBuilder &nested, Location nestedLoc, ValueRange outerIvs) {
          ivs.append(outerIvs.begin(), outerIvs.end());
          buildFors(nested, nestedLoc);
        });
    replacement = outer;
  }
  // The parallel IVs first (their body is built first), then the loops'.
  for (auto [old, iv] : llvm::zip(loop.getInductionVars(), ivs))
    old.replaceAllUsesWith(iv);
  Block *body = loop.getBody();
  Operation *terminator = innermost->getTerminator();
  for (Operation &op : llvm::make_early_inc_range(body->without_terminator()))
    op.moveBefore(terminator);
  if (replacement)
    replacement->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  loop.erase();
}

struct CoarsenParallelLoopsPass
    : public mlir::ckpt::impl::CoarsenParallelLoopsPassBase<
          CoarsenParallelLoopsPass> {
  using CoarsenParallelLoopsPassBase::CoarsenParallelLoopsPassBase;

  void runOnOperation() override {
    if (threads < 1 || minWork < 0) {
      getOperation()->emitError()
          << "ckpt-coarsen-parallel-loops: num-threads must be at least 1 and "
             "min-work at least 0, got num-threads="
          << threads.getValue() << " min-work=" << minWork.getValue();
      return signalPassFailure();
    }
    // Outer loops first: when one stays parallel, the loops inside it
    // become sequential; when it does not, they are looked at in turn.
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk<WalkOrder::PreOrder>(
        [&](scf::ParallelOp loop) { loops.push_back(loop); });
    for (scf::ParallelOp loop : loops) {
      // Reductions across iterations are convert-scf-to-openmp's to lower.
      if (loop.getNumResults() != 0)
        continue;
      SmallVector<int64_t> trips = tripCounts(loop);
      int64_t work = 1;
      for (int64_t count : trips)
        work = times(work, count);
      work = times(work, workOf(*loop.getBody()));
      bool nested = loop->getParentOfType<scf::ParallelOp>() != nullptr;
      if (threads == 1 || nested || work < minWork ||
          touchesSharedState(loop)) {
        LDBG() << "sequential (work " << work << "): " << loop.getLoc();
        keepLeadingDimensions(loop, 0);
        continue;
      }
      // The fewest leading dimensions that give every thread a few blocks;
      // the inner ones stay loops for the vectorizer.
      unsigned keep = 0;
      int64_t blocks = 1;
      while (keep < trips.size() && blocks < 4 * threads)
        blocks = times(blocks, trips[keep++]);
      LDBG() << "parallel over " << keep << " dimension(s) (work " << work
             << "): " << loop.getLoc();
      keepLeadingDimensions(loop, keep);
    }
  }
};

} // namespace
