//===- GreedyPeak.cpp - the greedy-peak remat solver on the IR ------------===//
//
// Works on the IR itself, in the spirit of XLA's rematerialization: at the
// point where the forecast peak occurs, recompute one buffer kept alive
// across it, keep the rewrite if the re-analyzed peak went down, repeat.
//
//===----------------------------------------------------------------------===//

#include "GreedyPeak.h"
#include "RematGraph.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "ckpt-remat"

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// How many candidates each step of the solver tries (each costs one
/// bufferization analysis of the module).
constexpr size_t kCandidatesPerStep = 12;

/// Recomputes the values of one buffer that are used after `peakPoint`:
/// for each, the ops of the buffer that computed it (the in-place chain and
/// views, found by following operands inside the buffer) are cloned into a
/// ckpt.recompute region right before the value's first use after the peak,
/// and those uses are rewired to the clone. Fails when nothing is used after
/// the peak or some op cannot be recomputed.
LogicalResult recomputeAfterPeak(func::FuncOp func, ArrayRef<Value> values,
                                 unsigned peakPoint,
                                 ArrayRef<Operation *> programPoints,
                                 const DeviceTarget &target, RematStep &step) {
  DenseMap<Operation *, unsigned> pointOf;
  for (auto [point, op] : llvm::enumerate(programPoints))
    pointOf[op] = point;
  DenseSet<Value> inBuffer(values.begin(), values.end());

  bool rewrote = false;
  for (Value value : values) {
    SmallVector<OpOperand *> laterUses;
    Operation *firstLaterUser = nullptr;
    for (OpOperand &use : value.getUses()) {
      Operation *user = getTopLevelOp(func, use.getOwner());
      if (pointOf.lookup(user) <= peakPoint)
        continue;
      laterUses.push_back(&use);
      if (!firstLaterUser || pointOf[user] < pointOf[firstLaterUser])
        firstLaterUser = user;
    }
    if (laterUses.empty())
      continue;
    Operation *def = value.getDefiningOp();
    if (!def || def->getParentOp() != func.getOperation())
      return failure();

    // The ops of the buffer that computed `value`.
    llvm::SetVector<Operation *> chain;
    SmallVector<Operation *> worklist{def};
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (!chain.insert(op))
        continue;
      if (!isRecomputable(op))
        return failure();
      for (Value operand : op->getOperands())
        if (inBuffer.contains(operand))
          if (Operation *producer = operand.getDefiningOp())
            worklist.push_back(producer);
    }
    SmallVector<Operation *> ordered(chain.begin(), chain.end());
    llvm::sort(ordered, [&](Operation *a, Operation *b) {
      return pointOf.lookup(a) < pointOf.lookup(b);
    });

    // What the clone reads from outside: region inputs, except constants,
    // which are cloned into the region.
    llvm::SetVector<Value> inputs;
    llvm::SetVector<Operation *> constants;
    for (Operation *op : ordered)
      op->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands()) {
          Operation *producer = operand.getDefiningOp();
          if (producer &&
              (chain.contains(producer) || op->isAncestor(producer)))
            continue;
          // Arguments of the op's own payload are not inputs.
          if (auto arg = dyn_cast<BlockArgument>(operand);
              arg && op->isAncestor(arg.getOwner()->getParentOp()))
            continue;
          // Constants and empty tensors carry no data: clone them.
          if (producer &&
              (matchPattern(operand, m_Constant()) ||
               isa<tensor::EmptyOp>(producer)) &&
              producer->getParentOp() == func.getOperation())
            constants.insert(producer);
          else
            inputs.insert(operand);
        }
      });

    if (step.where.empty())
      step.where = formatLocation(firstLaterUser->getLoc());
    OpBuilder builder(firstLaterUser);
    Location loc = value.getLoc();
    auto recompute = RecomputeOp::create(builder, loc, value.getType(),
                                         inputs.getArrayRef());
    Block *block = builder.createBlock(
        &recompute.getBody(), {}, ValueRange(inputs.getArrayRef()).getTypes(),
        SmallVector<Location>(inputs.size(), loc));
    IRMapping mapping;
    for (auto [input, arg] : llvm::zip(inputs, block->getArguments()))
      mapping.map(input, arg);
    for (Operation *constant : constants)
      builder.clone(*constant, mapping);
    for (Operation *op : ordered) {
      builder.clone(*op, mapping);
      step.flops += estimateOpCost(op, target).flops;
      step.seconds += estimateOpCost(op, target).estimatedSeconds;
    }
    YieldOp::create(builder, loc, mapping.lookup(value));
    for (OpOperand *use : laterUses)
      use->set(recompute.getResult(0));
    rewrote = true;
  }
  return success(rewrote);
}

/// How many program points reach the peak: it goes down when a
/// recomputation lowers one of several points at the same peak, so the
/// solver makes progress on plateaus where the peak cannot move in one step.
int64_t getPointsAtPeak(const ActivationTimeline &timeline) {
  return llvm::count(timeline.getLiveBytes(), timeline.getPeakBytes());
}

} // namespace

/// The `ckpt.policy` of the op computing `value` in the body of `func`, if
/// any. Ops nested in ckpt.recompute regions are recomputations already and
/// have none.
std::optional<Policy> mlir::ckpt::getPolicyInBody(Value value,
                                                  func::FuncOp func) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getParentOp() != func.getOperation())
    return std::nullopt;
  if (auto attr =
          def->getAttrOfType<PolicyAttr>(CkptDialect::getPolicyAttrName()))
    return attr.getValue();
  return std::nullopt;
}

namespace {

/// The `ckpt.policy` that governs recomputing a buffer at the peak: the
/// strongest (must_save, then must_recompute, then prefer_save, then
/// prefer_recompute) of its values used after the peak, i.e. the values the
/// recomputation would replace (`getPolicyInBody`). Values of the buffer
/// used only before the peak (an earlier tenant of a buffer reused in place)
/// have no say.
std::optional<Policy> getBufferPolicy(const ActivationTimeline &timeline,
                                      const TimelineBuffer &buffer) {
  unsigned peak = timeline.getPeakPoint();
  std::optional<Policy> strongest;
  for (Value v : buffer.values) {
    std::optional<Policy> policy = getPolicyInBody(v, timeline.getFunction());
    if (!policy || llvm::none_of(v.getUsers(), [&](Operation *user) {
          return timeline.getProgramPoint(user) > peak;
        }))
      continue;
    if (!strongest ||
        getPolicyStrength(*policy) > getPolicyStrength(*strongest))
      strongest = policy;
  }
  return strongest;
}

} // namespace

/// The buffers kept alive across the peak whose policy is must_recompute:
/// the solver recomputes them whatever the budget.
SmallVector<unsigned>
mlir::ckpt::findForcedCandidates(const ActivationTimeline &timeline) {
  unsigned peak = timeline.getPeakPoint();
  SmallVector<unsigned> forced;
  for (auto [index, buffer] : llvm::enumerate(timeline.getBuffers()))
    if (!buffer.isArgument && buffer.allocationPoint < peak &&
        buffer.lastUsePoint > peak &&
        getBufferPolicy(timeline, buffer) == Policy::MustRecompute)
      forced.push_back(static_cast<unsigned>(index));
  return forced;
}

namespace {

/// The buffers kept alive across the peak, most profitable first: bytes
/// freed at the peak per FLOP of recomputation. User policies come first:
/// must_save buffers are never candidates, must_recompute and
/// prefer_recompute ones are tried before the others, prefer_save ones last.
SmallVector<unsigned> rankCandidates(const ActivationTimeline &timeline,
                                     const DeviceTarget &target) {
  unsigned peak = timeline.getPeakPoint();
  struct Candidate {
    int tier;
    double score;
    unsigned index;
  };
  SmallVector<Candidate> scored;
  for (auto [index, buffer] : llvm::enumerate(timeline.getBuffers())) {
    if (buffer.isArgument || buffer.allocationPoint >= peak ||
        buffer.lastUsePoint <= peak)
      continue;
    std::optional<Policy> policy = getBufferPolicy(timeline, buffer);
    if (policy == Policy::MustSave)
      continue;
    int tier = 1;
    if (policy == Policy::MustRecompute || policy == Policy::PreferRecompute)
      tier = 0;
    else if (policy == Policy::PreferSave)
      tier = 2;
    int64_t flops = 0;
    for (Value v : buffer.values)
      if (Operation *def = v.getDefiningOp())
        flops += estimateOpCost(def, target).flops;
    scored.push_back(
        {tier, static_cast<double>(buffer.allocationBytes) / (flops + 1.0),
         static_cast<unsigned>(index)});
  }
  // Policy tier, then best score; ties in buffer order, for reproducible
  // plans.
  std::sort(scored.begin(), scored.end(),
            [](const Candidate &a, const Candidate &b) {
              if (a.tier != b.tier)
                return a.tier < b.tier;
              if (a.score != b.score)
                return a.score > b.score;
              return a.index < b.index;
            });
  SmallVector<unsigned> order;
  for (const Candidate &candidate : scored)
    order.push_back(candidate.index);
  return order;
}

} // namespace

LogicalResult mlir::ckpt::lowerPeakGreedily(ModuleOp module, func::FuncOp &func,
                                            const DeviceTarget &deviceTarget,
                                            bool minimize,
                                            TrialFunctions &trials,
                                            FunctionOutcome &outcome) {
  std::string name = func.getSymName().str();
  unsigned trial = 0;
  while (true) {
    FailureOr<ActivationTimeline> timeline = analyzeFunction(module, func);
    if (failed(timeline))
      return failure();
    outcome.peakBytes = timeline->getPeakBytes();
    // must_recompute buffers kept across the peak are recomputed even when
    // the budget is met, one per step, whatever it does to the peak.
    SmallVector<unsigned> forced = findForcedCandidates(*timeline);
    if (outcome.peakBytes <= outcome.budgetBytes && forced.empty())
      return success();

    // In score order, keep the first candidate that lowers the peak; failing
    // that, the first that keeps it and lowers the number of points at it.
    int64_t pointsAtPeak = getPointsAtPeak(*timeline);
    func::FuncOp best;
    RematStep bestStep;
    int64_t bestPeak = 0;
    SmallVector<unsigned> ranked = forced.empty()
                                       ? rankCandidates(*timeline, deviceTarget)
                                       : SmallVector<unsigned>{forced.front()};
    if (ranked.size() > kCandidatesPerStep)
      ranked.resize(kCandidatesPerStep);
    for (unsigned index : ranked) {
      const TimelineBuffer &buffer = timeline->getBuffers()[index];
      IRMapping mapping;
      func::FuncOp candidate = trials.create(
          func, "ckpt_remat_trial" + std::to_string(trial++), mapping);
      SmallVector<Value> values;
      for (Value v : buffer.values)
        values.push_back(mapping.lookupOrDefault(v));
      SmallVector<Operation *> points;
      for (Operation &op : candidate.getBody().front())
        points.push_back(&op);
      RematStep step;
      Value named = buffer.values.back();
      step.value = named.getDefiningOp() ? describeValue(named.getDefiningOp())
                                         : std::string("argument");
      step.location = formatLocation(named.getLoc());
      step.bytes = buffer.allocationBytes;
      step.peakBefore = timeline->getPeakBytes();
      if (failed(recomputeAfterPeak(candidate, values, timeline->getPeakPoint(),
                                    points, deviceTarget, step))) {
        trials.discard(candidate);
        if (!forced.empty()) {
          Location where = named.getLoc();
          for (Value v : buffer.values)
            if (getPolicyInBody(v, func) == Policy::MustRecompute)
              where = v.getLoc();
          return emitMustRecomputeImpossible(where, func);
        }
        continue;
      }
      // A must_recompute policy is fulfilled once its value's uses after the
      // peak read a recomputation; the policy is consumed so that a later,
      // earlier peak does not recompute the value again for its nearby uses.
      if (!forced.empty())
        for (Value v : values)
          if (getPolicyInBody(v, candidate) == Policy::MustRecompute)
            v.getDefiningOp()->removeAttr(CkptDialect::getPolicyAttrName());
      // Bufferization decides again on the rewritten function, so the new
      // peak is the forecast itself.
      FailureOr<ActivationTimeline> trialTimeline =
          trials.analyze(module, candidate);
      int64_t trialPeak =
          succeeded(trialTimeline) ? trialTimeline->getPeakBytes() : INT64_MAX;
      int64_t trialWidth = succeeded(trialTimeline)
                               ? getPointsAtPeak(*trialTimeline)
                               : INT64_MAX;
      bool acceptable =
          forced.empty()
              ? std::make_pair(trialPeak, trialWidth) <
                    std::make_pair(timeline->getPeakBytes(), pointsAtPeak)
              : succeeded(trialTimeline);
      // A lower peak beats a narrower plateau; among equals, the first.
      bool better = !best || (trialPeak < timeline->getPeakBytes() &&
                              bestPeak >= timeline->getPeakBytes());
      if (!acceptable || !better) {
        trials.discard(candidate);
        continue;
      }
      if (best)
        trials.discard(best);
      best = candidate;
      step.peakAfter = trialPeak;
      bestStep = step;
      bestPeak = trialPeak;
      if (trialPeak < timeline->getPeakBytes())
        break;
    }
    if (!best && minimize) {
      outcome.budgetBytes = outcome.peakBytes;
      return success();
    }
    if (!best) {
      outcome.stuck = true;
      return failure();
    }
    LDBG() << "@" << name << ": recomputing " << bestStep.value
           << " lowers the peak from " << *bestStep.peakBefore << " to "
           << *bestStep.peakAfter;
    func = trials.keep(func, best);
    outcome.steps.push_back(bestStep);
  }
}
