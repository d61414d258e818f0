//===- Remat.cpp - recompute activations to meet a memory budget ----------===//
//
// Implements `ckpt-remat`. A planner solver (greedy, chain-dp, ilp,
// uniform:k, auto) plans on the function's buffer graph (RematGraph.h) and
// its schedule becomes recompute regions; the `greedy-peak` solver works on
// the IR itself: at the point where the forecast peak occurs, recompute one
// buffer kept alive across it, keep the rewrite if the re-analyzed peak went
// down, repeat. It also finishes what a plan leaves above the budget (the
// plan's model and the forecast can differ).
//
//===----------------------------------------------------------------------===//

#include "CheckpointExpansion.h"
#include "FunctionSelection.h"
#include "NamedPolicies.h"
#include "RematGraph.h"

#include "ckpt/Analysis/ActivationTimeline.h"
#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Planner/Budget.h"
#include "ckpt/Planner/GraphJSON.h"
#include "ckpt/Planner/Solvers.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>
#include <limits>

#define DEBUG_TYPE "ckpt-remat"

namespace mlir::ckpt {
#define GEN_PASS_DEF_REMATPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// How many candidates each step of the solver tries (each costs one
/// bufferization analysis of the module).
constexpr size_t kCandidatesPerStep = 12;

namespace planner = ::ckpt::planner;

/// One recomputation in the result.
struct RematStep {
  /// The recomputed value: its `ckpt.name`, or the name of its op.
  std::string value;
  /// Where the value is computed first.
  std::string location;
  /// Where the recomputation is (the location of its first reader).
  std::string where;
  int64_t bytes = 0;
  int64_t flops = 0;
  double seconds = 0;
  /// For greedy-peak steps: the forecast peak before and after the step.
  std::optional<int64_t> peakBefore, peakAfter;
};

/// A forward value kept for the backward pass in the result.
struct SavedResidual {
  std::string value;
  std::string location;
  std::string type;
  int64_t bytes = 0;
  /// `must_save policy`, `not recomputable` or `kept by the solver`.
  std::string reason;
};

/// What happened to one function.
struct FunctionOutcome {
  std::string name;
  /// How the budget was set: `given`, `min` or `auto` (the knee).
  std::string budgetRule = "given";
  /// Set when greedy-peak found no step lowering the peak above the budget
  /// (no diagnostic emitted yet).
  bool stuck = false;
  /// The solver that produced the result (`greedy+greedy-peak` when
  /// greedy-peak finished a plan).
  std::string solver;
  int64_t budgetBytes = 0;
  int64_t baselinePeakBytes = 0;
  int64_t peakBytes = 0;
  /// FLOPs of the function before remat (the denominator of the overhead).
  int64_t baselineFlops = 0;
  SmallVector<RematStep> steps;
  std::vector<SavedResidual> saved;
  double solveSeconds = 0;
  /// The planner's view, when a planner solver ran: the baseline and
  /// planned peaks of its model, the planned cost against the baseline's
  /// (estimated nanoseconds) and the optimality gap when known.
  bool planned = false;
  int64_t modelBaselinePeakBytes = 0;
  int64_t modelPeakBytes = 0;
  uint64_t modelCostUnits = 0;
  uint64_t modelBaselineCostUnits = 0;
  std::optional<double> optimalityGap;
};

std::string formatLocation(Location loc) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("{0}:{1}:{2}", fileLoc.getFilename().getValue(),
                         fileLoc.getLine(), fileLoc.getColumn())
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

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

/// The `ckpt.policy` of the op computing `value` in the body of `func`, if
/// any. Ops nested in ckpt.recompute regions are recomputations already and
/// have none.
std::optional<Policy> getPolicyInBody(Value value, func::FuncOp func) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getParentOp() != func.getOperation())
    return std::nullopt;
  if (auto attr =
          def->getAttrOfType<PolicyAttr>(CkptDialect::getPolicyAttrName()))
    return attr.getValue();
  return std::nullopt;
}

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

/// The buffers kept alive across the peak whose policy is must_recompute:
/// the solver recomputes them whatever the budget.
SmallVector<unsigned> findForcedCandidates(const ActivationTimeline &timeline) {
  unsigned peak = timeline.getPeakPoint();
  SmallVector<unsigned> forced;
  for (auto [index, buffer] : llvm::enumerate(timeline.getBuffers()))
    if (!buffer.isArgument && buffer.allocationPoint < peak &&
        buffer.lastUsePoint > peak &&
        getBufferPolicy(timeline, buffer) == Policy::MustRecompute)
      forced.push_back(static_cast<unsigned>(index));
  return forced;
}

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

/// The name a report gives the value of `op`: its `ckpt.name`, else the
/// op's name.
std::string describeValue(Operation *op) {
  if (auto attr = op->getAttrOfType<StringAttr>(CkptDialect::getNameAttrName()))
    return attr.str();
  return op->getName().getStringRef().str();
}

/// Analyzes `func` as bufferization will see it in `module`.
FailureOr<ActivationTimeline> analyzeFunction(ModuleOp module,
                                              func::FuncOp func) {
  FailureOr<std::unique_ptr<BufferizationForecast>> forecast =
      BufferizationForecast::analyze(module);
  if (failed(forecast))
    return failure();
  return ActivationTimeline::build(func, **forecast);
}

/// A copy of `func` inserted after it in its module, private, named
/// `<name>__<suffix>`.
func::FuncOp cloneNextTo(func::FuncOp func, StringRef suffix,
                         IRMapping &mapping) {
  auto clone = cast<func::FuncOp>(func->clone(mapping));
  clone.setSymName((func.getSymName() + "__" + suffix).str());
  clone.setPrivate();
  func->getBlock()->getOperations().insert(std::next(Block::iterator(func)),
                                           clone);
  return clone;
}

/// Replaces `func` by `replacement` (a clone of it), keeping the name and
/// visibility; returns the replacement.
func::FuncOp replaceFunction(func::FuncOp func, func::FuncOp replacement) {
  std::string name = func.getSymName().str();
  replacement.setVisibility(func.getVisibility());
  func.erase();
  replacement.setSymName(name);
  return replacement;
}

/// A budget as the option gives it: bytes or a fraction (resolved against
/// the baseline peak), `min` (the smallest peak the solvers find) or `auto`
/// (the knee of the trade-off curve).
struct BudgetSpec {
  enum Kind { Given, Minimum, Knee } kind = Given;
  std::optional<planner::MemoryBudget> memory;
};

struct RematPass : public mlir::ckpt::impl::RematPassBase<RematPass> {
  using RematPassBase::RematPassBase;

  void runOnOperation() override;

private:
  LogicalResult rematerialize(ModuleOp module, func::FuncOp func,
                              const BudgetSpec &budgetSpec,
                              const std::optional<planner::SolverSpec> &spec,
                              const DeviceTarget &deviceTarget,
                              FunctionOutcome &outcome);
  LogicalResult planFunction(ModuleOp module, func::FuncOp &func,
                             const ActivationTimeline &timeline,
                             const planner::SolverSpec &spec,
                             const DeviceTarget &deviceTarget, bool minimize,
                             FunctionOutcome &outcome);
  LogicalResult lowerPeakGreedily(ModuleOp module, func::FuncOp &func,
                                  const DeviceTarget &deviceTarget,
                                  bool minimize, FunctionOutcome &outcome);
  LogicalResult collectSavedResiduals(ModuleOp module, func::FuncOp func,
                                     FunctionOutcome &outcome);
  LogicalResult retryAsMinimum(ModuleOp module, func::FuncOp &func,
                               func::FuncOp pristine,
                               const std::optional<planner::SolverSpec> &spec,
                               const DeviceTarget &deviceTarget,
                               FunctionOutcome &outcome);
  LogicalResult writeGraph(const ActivationTimeline &timeline,
                           const DeviceTarget &deviceTarget);
  void writeReport(ArrayRef<FunctionOutcome> outcomes,
                   const DeviceTarget &deviceTarget);

  /// Number of functions rematerialized (graph files are per function when
  /// there are several).
  size_t numFunctions = 0;
};

LogicalResult RematPass::writeGraph(const ActivationTimeline &timeline,
                                    const DeviceTarget &deviceTarget) {
  FailureOr<RematGraph> graph = buildRematGraph(timeline, deviceTarget);
  if (failed(graph))
    return failure();
  std::string path = graphFile;
  if (numFunctions > 1)
    path += "." + timeline.getFunction().getSymName().str();
  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> file =
      openOutputFile(path, &errorMessage);
  if (!file)
    return timeline.getFunction().emitError()
           << "ckpt-remat: cannot write '" << path << "': " << errorMessage;
  planner::writeGraphJSON(*graph->problem, file->os());
  file->keep();
  return success();
}

LogicalResult RematPass::planFunction(ModuleOp module, func::FuncOp &func,
                                      const ActivationTimeline &timeline,
                                      const planner::SolverSpec &spec,
                                      const DeviceTarget &deviceTarget,
                                      bool minimize,
                                      FunctionOutcome &outcome) {
  FailureOr<RematGraph> graph = buildRematGraph(timeline, deviceTarget);
  if (failed(graph))
    return failure();
  const planner::RematProblem &problem = *graph->problem;
  outcome.planned = true;
  outcome.modelBaselinePeakBytes = graph->problemPeakBytes;
  outcome.modelBaselineCostUnits = problem.totalComputeCostUnits();
  LDBG() << "@" << outcome.name << ": " << problem.size()
         << " nodes, model baseline peak " << graph->problemPeakBytes
         << " B, forecast " << graph->timelinePeakBytes << " B";
  DenseMap<unsigned, planner::NodeIndex> problemNodeOf;
  for (planner::NodeIndex v = 0; v < problem.size(); ++v)
    problemNodeOf[problem.node(v).externalId] = v;

  planner::SolverOptions options;
  options.timeLimitSeconds = timeLimit;
  // The model and the forecast can differ (the model sees an allocation at
  // the op that fills it, and merges small reductions into the buffer they
  // are computed from); the first plan aims at the budget shifted by their
  // difference at the baseline, and each retry lowers the aim by what the
  // forecast exceeded the budget with.
  int64_t aim = outcome.budgetBytes +
                (graph->problemPeakBytes - graph->timelinePeakBytes);
  func::FuncOp best;
  int64_t bestPeak = INT64_MAX;
  SmallVector<RematStep> bestSteps;
  // uniform:k does not look at the budget; the pass checks it.
  if (spec.kind == planner::SolverKind::Uniform)
    aim = std::numeric_limits<int64_t>::max() / 2;
  // To minimize, the ILP (alone or in auto) is asked for 3% less than its
  // last plan while that lowers the forecast: greedy's smallest peak, where
  // the first plan aims, is only an upper bound on what the ILP reaches.
  bool descend = minimize && (spec.kind == planner::SolverKind::ILP ||
                              spec.kind == planner::SolverKind::Auto);
  unsigned attempts = descend ? 6 : 3;
  // Plans whose order the IR cannot express (a region input defined after
  // the region) are replaced by plans aiming elsewhere, this many times.
  constexpr unsigned kUnappliableRetries = 8;
  unsigned unappliable = 0;
  for (unsigned attempt = 0; attempt < attempts; ++attempt) {
    aim = std::max<int64_t>(aim, 1);
    llvm::Expected<planner::PlanResult> plan =
        planner::planRemat(problem, aim, spec, options);
    // Below what the model can reach, plan as low as it can: the forecast
    // may still meet the budget, greedy-peak starts from there, and the
    // error states the lowest peak found.
    if (!plan && !best && spec.kind != planner::SolverKind::None &&
        spec.kind != planner::SolverKind::Uniform) {
      llvm::consumeError(plan.takeError());
      aim = planner::smallestFeasiblePeakFound(problem);
      plan = planner::planRemat(problem, aim, spec, options);
    }
    if (!plan) {
      std::string message = llvm::toString(plan.takeError());
      LDBG() << "planner: " << message;
      // The model's infeasibility is not final: greedy-peak continues (and
      // the budget may still be met by the descent of budget=min).
      bool infeasible =
          StringRef(message).contains("is infeasible for solver");
      if (spec.kind == planner::SolverKind::Auto || best || infeasible)
        break;
      func.emitError() << "ckpt-remat: cannot plan @" << outcome.name
                       << " with solver '" << spec.str() << "': " << message;
      return failure();
    }
    IRMapping mapping;
    func::FuncOp candidate = cloneNextTo(
        func, "ckpt_plan" + std::to_string(attempt), mapping);
    RematGraph candidateGraph = remapRematGraph(*graph, candidate, mapping);
    FailureOr<SmallVector<AppliedRecompute>> applied =
        applySchedule(candidateGraph, plan->schedule, deviceTarget);
    if (failed(applied)) {
      candidate.erase();
      LDBG() << "the plan's order cannot be expressed in the IR";
      // Another plan, aiming a little lower, often can be (the heuristics
      // are not monotone in the budget); a few are tried before giving up.
      // To minimize, the aim is already as low as the model goes: higher.
      if (++unappliable > kUnappliableRetries)
        break;
      aim += (minimize ? 1 : -1) * std::max<int64_t>(aim / 50, 1);
      --attempt;
      continue;
    }
    // A must_recompute policy is fulfilled by the plan (the problem models
    // it): drop it so that greedy-peak does not act on it again.
    SmallVector<RematStep> steps;
    for (const AppliedRecompute &recompute : *applied) {
      ArrayRef<Operation *> ops = candidateGraph.nodeOps[recompute.node];
      for (Operation *op : ops)
        if (auto attr = op->getAttrOfType<PolicyAttr>(
                CkptDialect::getPolicyAttrName());
            attr && attr.getValue() == Policy::MustRecompute)
          op->removeAttr(CkptDialect::getPolicyAttrName());
      RematStep step;
      step.value = describeValue(ops.back());
      step.location = formatLocation(ops.back()->getLoc());
      Operation *reader = recompute.region->getNextNode();
      while (reader && isa<RecomputeOp>(reader) &&
             llvm::none_of(recompute.region->getUsers(),
                           [&](Operation *user) {
                             return reader->isAncestor(user);
                           }))
        reader = reader->getNextNode();
      step.where = formatLocation(reader ? reader->getLoc()
                                         : recompute.region->getLoc());
      step.bytes = static_cast<int64_t>(
          problem.bytes(problemNodeOf.lookup(recompute.node)));
      step.flops = recompute.flops;
      step.seconds = recompute.seconds;
      steps.push_back(std::move(step));
    }
    FailureOr<ActivationTimeline> planned = analyzeFunction(module, candidate);
    int64_t peak = succeeded(planned) ? planned->getPeakBytes() : INT64_MAX;
    LDBG() << "plan aiming at " << aim << " B: model peak " << plan->peakBytes
           << " B, forecast " << peak << " B";
    bool improved = peak < bestPeak;
    if (improved) {
      if (best)
        best.erase();
      best = candidate;
      bestPeak = peak;
      bestSteps = std::move(steps);
      outcome.modelPeakBytes = plan->peakBytes;
      outcome.modelCostUnits = plan->costUnits;
      outcome.optimalityGap = plan->optimalityGap;
      outcome.solver = plan->solverName;
    } else {
      candidate.erase();
    }
    if (descend) {
      if (!improved)
        break;
      aim = static_cast<int64_t>(plan->peakBytes) -
            std::max<int64_t>(1, plan->peakBytes / 32);
      continue;
    }
    if (bestPeak <= outcome.budgetBytes)
      break;
    // Aim below this plan's model peak by what the forecast exceeded.
    aim = peak == INT64_MAX
              ? 0
              : static_cast<int64_t>(plan->peakBytes) -
                    (peak - outcome.budgetBytes);
  }
  if (!best || (bestPeak >= outcome.peakBytes &&
                spec.kind != planner::SolverKind::Uniform)) {
    if (best)
      best.erase();
    outcome.solver = "greedy-peak";
    return success();
  }
  func = replaceFunction(func, best);
  outcome.peakBytes = bestPeak;
  outcome.steps = std::move(bestSteps);
  return success();
}

LogicalResult RematPass::lowerPeakGreedily(ModuleOp module,
                                           func::FuncOp &func,
                                           const DeviceTarget &deviceTarget,
                                           bool minimize,
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
    SmallVector<unsigned> ranked =
        forced.empty() ? rankCandidates(*timeline, deviceTarget)
                       : SmallVector<unsigned>{forced.front()};
    if (ranked.size() > kCandidatesPerStep)
      ranked.resize(kCandidatesPerStep);
    for (unsigned index : ranked) {
      const TimelineBuffer &buffer = timeline->getBuffers()[index];
      IRMapping mapping;
      func::FuncOp candidate = cloneNextTo(
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
        candidate.erase();
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
          analyzeFunction(module, candidate);
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
        candidate.erase();
        continue;
      }
      if (best)
        best.erase();
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
    func = replaceFunction(func, best);
    outcome.steps.push_back(bestStep);
  }
}

LogicalResult
RematPass::rematerialize(ModuleOp module, func::FuncOp func,
                         const BudgetSpec &budgetSpec,
                         const std::optional<planner::SolverSpec> &spec,
                         const DeviceTarget &deviceTarget,
                         FunctionOutcome &outcome) {
  auto start = std::chrono::steady_clock::now();
  outcome.name = func.getSymName().str();
  outcome.solver = spec ? spec->str() : "greedy-peak";
  FailureOr<ActivationTimeline> timeline = analyzeFunction(module, func);
  if (failed(timeline))
    return failure();
  outcome.baselinePeakBytes = timeline->getPeakBytes();
  outcome.peakBytes = outcome.baselinePeakBytes;
  for (Operation *op : timeline->getProgramPoints())
    outcome.baselineFlops += estimateOpCost(op, deviceTarget).flops;
  switch (budgetSpec.kind) {
  case BudgetSpec::Given:
    outcome.budgetBytes =
        budgetSpec.memory->resolveBytes(outcome.baselinePeakBytes);
    break;
  case BudgetSpec::Minimum:
    // Lowered until no step helps; the report states the peak reached.
    outcome.budgetRule = "min";
    outcome.budgetBytes = 0;
    break;
  case BudgetSpec::Knee: {
    outcome.budgetRule = "auto";
    FailureOr<RematGraph> graph = buildRematGraph(*timeline, deviceTarget);
    if (failed(graph))
      return failure();
    std::vector<planner::TradeoffPoint> curve =
        planner::sweepTradeoff(*graph->problem);
    if (curve.empty()) {
      outcome.budgetBytes = outcome.baselinePeakBytes;
      break;
    }
    // The knee in the model, moved to the forecast's scale.
    outcome.budgetBytes =
        static_cast<int64_t>(planner::findKnee(curve).peakBytes) +
        (graph->timelinePeakBytes - graph->problemPeakBytes);
    outcome.budgetBytes =
        std::min(outcome.budgetBytes, outcome.baselinePeakBytes);
    break;
  }
  }
  bool minimize = budgetSpec.kind == BudgetSpec::Minimum;
  if (!graphFile.empty() && failed(writeGraph(*timeline, deviceTarget)))
    return failure();
  // Kept to start over from: the heuristics are not monotone in the budget,
  // so a budget they miss is retried with the descent of budget=min.
  OwningOpRef<func::FuncOp> pristine = func.clone();
  // uniform:k ignores the budget (but for checking it): it always applies.
  bool needed = outcome.peakBytes > outcome.budgetBytes ||
                !findForcedCandidates(*timeline).empty() ||
                (spec && spec->kind == planner::SolverKind::Uniform);
  if (needed && spec && spec->kind != planner::SolverKind::None &&
      failed(planFunction(module, func, *timeline, *spec, deviceTarget,
                          minimize, outcome)))
    return failure();
  // none and uniform:k are taken as they are; the other plans are finished
  // by greedy-peak where the forecast exceeds the budget.
  bool finishes = !spec || (spec->kind != planner::SolverKind::None &&
                            spec->kind != planner::SolverKind::Uniform);
  if (finishes) {
    size_t planned = outcome.steps.size();
    if (failed(
            lowerPeakGreedily(module, func, deviceTarget, minimize, outcome))) {
      if (!outcome.stuck)
        return failure();
      if (failed(retryAsMinimum(module, func, *pristine, spec,
                                deviceTarget, outcome)))
        return failure();
      planned = 0;
    }
    if (outcome.steps.size() > planned && planned > 0)
      outcome.solver += "+greedy-peak";
  } else if (minimize) {
    outcome.budgetBytes = outcome.peakBytes;
  } else if (outcome.peakBytes > outcome.budgetBytes) {
    func.emitError() << "ckpt-remat: solver '" << spec->str()
                     << "' reaches a peak of " << outcome.peakBytes
                     << " bytes, above the budget of " << outcome.budgetBytes
                     << " bytes (baseline " << outcome.baselinePeakBytes
                     << " bytes)";
    return failure();
  }
  outcome.solveSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!reportFile.empty())
    return collectSavedResiduals(module, func, outcome);
  return success();
}

LogicalResult RematPass::retryAsMinimum(
    ModuleOp module, func::FuncOp &func, func::FuncOp pristine,
    const std::optional<planner::SolverSpec> &spec,
    const DeviceTarget &deviceTarget, FunctionOutcome &outcome) {
  // Start over from the function as it came, lowering the peak as far as
  // the solvers go.
  IRMapping mapping;
  func::FuncOp fresh = cloneNextTo(func, "ckpt_min", mapping);
  fresh.getBody().getBlocks().clear();
  IRMapping bodyMapping;
  pristine.getBody().cloneInto(&fresh.getBody(), bodyMapping);
  func = replaceFunction(func, fresh);

  FunctionOutcome descent;
  descent.name = outcome.name;
  descent.solver = spec ? spec->str() : "greedy-peak";
  descent.baselinePeakBytes = outcome.baselinePeakBytes;
  descent.peakBytes = outcome.baselinePeakBytes;
  descent.baselineFlops = outcome.baselineFlops;
  descent.budgetBytes = 0;
  FailureOr<ActivationTimeline> fromScratch = analyzeFunction(module, func);
  if (failed(fromScratch))
    return failure();
  if (spec && failed(planFunction(module, func, *fromScratch, *spec,
                                  deviceTarget, /*minimize=*/true, descent)))
    return failure();
  size_t planned = descent.steps.size();
  if (failed(lowerPeakGreedily(module, func, deviceTarget, /*minimize=*/true,
                               descent)))
    return failure();
  if (descent.steps.size() > planned && planned > 0)
    descent.solver += "+greedy-peak";
  int64_t smallest = std::min(outcome.peakBytes, descent.peakBytes);
  if (descent.peakBytes > outcome.budgetBytes) {
    func.emitError() << "ckpt-remat: budget of " << outcome.budgetBytes
                     << " bytes is below the smallest peak found, " << smallest
                     << " bytes (baseline " << outcome.baselinePeakBytes
                     << " bytes)";
    return failure();
  }
  descent.budgetBytes = outcome.budgetBytes;
  descent.budgetRule = outcome.budgetRule;
  descent.solver += " (descent)";
  outcome = std::move(descent);
  return success();
}

LogicalResult RematPass::collectSavedResiduals(ModuleOp module,
                                               func::FuncOp func,
                                               FunctionOutcome &outcome) {
  FailureOr<ActivationTimeline> timeline = analyzeFunction(module, func);
  if (failed(timeline))
    return failure();
  for (const TimelineBuffer &buffer : timeline->getBuffers()) {
    if (!buffer.isSavedActivation || buffer.isArgument)
      continue;
    SavedResidual saved;
    Operation *def = buffer.values.back().getDefiningOp();
    saved.value = def ? describeValue(def) : "argument";
    saved.location = formatLocation(buffer.values.back().getLoc());
    llvm::raw_string_ostream(saved.type) << buffer.root.getType();
    saved.bytes = buffer.allocationBytes;
    saved.reason = "kept by the solver";
    for (Value value : buffer.values) {
      Operation *op = value.getDefiningOp();
      if (!op)
        continue;
      if (getPolicyInBody(value, func) == Policy::MustSave) {
        saved.reason = "must_save policy";
        break;
      }
      if (!isRecomputable(op))
        saved.reason = "not recomputable";
    }
    outcome.saved.push_back(std::move(saved));
  }
  return success();
}

/// The report as text: a summary line per function, then its saved
/// residuals and its recomputations.
void writeTable(raw_ostream &os, ArrayRef<FunctionOutcome> outcomes,
                const DeviceTarget &deviceTarget) {
  for (const FunctionOutcome &outcome : outcomes) {
    int64_t extraFlops = 0;
    double extraSeconds = 0;
    for (const RematStep &step : outcome.steps) {
      extraFlops += step.flops;
      extraSeconds += step.seconds;
    }
    os << llvm::formatv(
        "@{0}: solver {1}, budget {2} B ({3}), peak {4} -> {5} B ({6:P}), "
        "{7} recomputations, +{8} FLOPs, +{9:e2} s on {10}, solved in "
        "{11:f2} s\n",
        outcome.name, outcome.solver, outcome.budgetBytes, outcome.budgetRule,
        outcome.baselinePeakBytes, outcome.peakBytes,
        static_cast<double>(outcome.peakBytes) /
            std::max<int64_t>(1, outcome.baselinePeakBytes),
        outcome.steps.size(), extraFlops, extraSeconds, deviceTarget.name,
        outcome.solveSeconds);
    os << llvm::formatv("  {0,-6} {1,-24} {2,-28} {3,-28} {4,10} {5,12}\n",
                        "", "value", "computed at", "recomputed before / kept",
                        "bytes", "FLOPs");
    for (const RematStep &step : outcome.steps)
      os << llvm::formatv("  {0,-6} {1,-24} {2,-28} {3,-28} {4,10} {5,12}\n",
                          "recomp", step.value, step.location, step.where,
                          step.bytes, step.flops);
    for (const SavedResidual &saved : outcome.saved)
      os << llvm::formatv("  {0,-6} {1,-24} {2,-28} {3,-28} {4,10} {5,12}\n",
                          "saved", saved.value, saved.location,
                          saved.reason, saved.bytes, "");
  }
}

void RematPass::writeReport(ArrayRef<FunctionOutcome> outcomes,
                            const DeviceTarget &deviceTarget) {
  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> file =
      openOutputFile(reportFile, &errorMessage);
  if (!file) {
    getOperation().emitError()
        << "ckpt-remat: cannot write '" << reportFile << "': " << errorMessage;
    return signalPassFailure();
  }
  if (reportFormat == "table") {
    writeTable(file->os(), outcomes, deviceTarget);
    file->keep();
    return;
  }
  llvm::json::OStream json(file->os(), /*IndentSize=*/2);
  json.object([&] {
    json.attribute("target", deviceTarget.name);
    json.attributeArray("functions", [&] {
      for (const FunctionOutcome &outcome : outcomes)
        json.object([&] {
          int64_t extraFlops = 0;
          double extraSeconds = 0;
          for (const RematStep &step : outcome.steps) {
            extraFlops += step.flops;
            extraSeconds += step.seconds;
          }
          json.attribute("name", outcome.name);
          json.attribute("solver", outcome.solver);
          json.attribute("budget_rule", outcome.budgetRule);
          json.attribute("budget_bytes", outcome.budgetBytes);
          json.attribute("baseline_peak_bytes", outcome.baselinePeakBytes);
          json.attribute("peak_bytes", outcome.peakBytes);
          json.attribute("recompute_count",
                         static_cast<int64_t>(outcome.steps.size()));
          json.attribute("baseline_flops", outcome.baselineFlops);
          json.attribute("extra_flops", extraFlops);
          json.attribute("extra_time_s", extraSeconds);
          json.attribute("solve_time_s", outcome.solveSeconds);
          if (outcome.planned)
            json.attributeObject("planner_model", [&] {
              json.attribute("baseline_peak_bytes",
                             outcome.modelBaselinePeakBytes);
              json.attribute("peak_bytes", outcome.modelPeakBytes);
              json.attribute("baseline_cost_ns",
                             static_cast<int64_t>(
                                 outcome.modelBaselineCostUnits));
              json.attribute("cost_ns",
                             static_cast<int64_t>(outcome.modelCostUnits));
              if (outcome.optimalityGap)
                json.attribute("optimality_gap", *outcome.optimalityGap);
            });
          json.attributeArray("recomputed", [&] {
            for (const RematStep &step : outcome.steps)
              json.object([&] {
                json.attribute("value", step.value);
                json.attribute("location", step.location);
                json.attribute("where", step.where);
                json.attribute("bytes", step.bytes);
                json.attribute("flops", step.flops);
                if (step.peakBefore)
                  json.attribute("peak_before_bytes", *step.peakBefore);
                if (step.peakAfter)
                  json.attribute("peak_after_bytes", *step.peakAfter);
              });
          });
          json.attributeArray("saved", [&] {
            for (const SavedResidual &saved : outcome.saved)
              json.object([&] {
                json.attribute("value", saved.value);
                json.attribute("location", saved.location);
                json.attribute("type", saved.type);
                json.attribute("bytes", saved.bytes);
                json.attribute("reason", saved.reason);
              });
          });
        });
    });
  });
  file->os() << "\n";
  file->keep();
}

void RematPass::runOnOperation() {
  ModuleOp module = getOperation();

  FailureOr<SmallVector<func::FuncOp>> functions =
      selectFunctions(module, functionNames, "ckpt-remat");
  if (failed(functions))
    return signalPassFailure();

  // User checkpoints first (also without a budget): the analysis cannot size
  // an unexpanded ckpt.checkpoint, as bufferization cannot.
  unsigned expanded = 0;
  for (func::FuncOp func : *functions)
    expanded += expandCheckpoints(func);
  if (budget.empty() && expanded)
    return;

  if (reportFormat != "json" && reportFormat != "table") {
    module.emitError() << "ckpt-remat: unknown report format '"
                       << reportFormat << "'; expected json or table";
    return signalPassFailure();
  }
  BudgetSpec budgetSpec;
  StringRef trimmedBudget = StringRef(budget).trim();
  if (trimmedBudget == "min") {
    budgetSpec.kind = BudgetSpec::Minimum;
  } else if (trimmedBudget == "auto") {
    budgetSpec.kind = BudgetSpec::Knee;
  } else {
    llvm::Expected<planner::MemoryBudget> memory =
        planner::parseMemoryBudget(budget);
    if (!memory) {
      module.emitError() << "ckpt-remat: "
                         << llvm::toString(memory.takeError())
                         << "; or 'min' (the smallest peak found) or 'auto' "
                            "(the knee of the memory/recompute trade-off)";
      return signalPassFailure();
    }
    budgetSpec.memory = *memory;
  }
  std::optional<planner::SolverSpec> spec;
  if (solver != "greedy-peak") {
    llvm::Expected<planner::SolverSpec> parsed =
        planner::parseSolverSpec(solver);
    if (!parsed) {
      module.emitError() << "ckpt-remat: "
                         << llvm::toString(parsed.takeError())
                         << ", greedy-peak";
      return signalPassFailure();
    }
    spec = *parsed;
  }
  llvm::Expected<DeviceTarget> deviceTarget = lookupDeviceTarget(target);
  if (!deviceTarget) {
    module.emitError() << "ckpt-remat: "
                       << llvm::toString(deviceTarget.takeError());
    return signalPassFailure();
  }
  llvm::Expected<NamedPolicy> namedPolicy = parseNamedPolicy(policy);
  if (!namedPolicy) {
    module.emitError() << "ckpt-remat: "
                       << llvm::toString(namedPolicy.takeError());
    return signalPassFailure();
  }
  for (func::FuncOp func : *functions)
    if (failed(applyNamedPolicy(func, *namedPolicy)))
      return signalPassFailure();

  // Each function is replaced by its rewritten clone; the others stay.
  numFunctions = functions->size();
  std::vector<FunctionOutcome> outcomes;
  for (func::FuncOp func : *functions) {
    FunctionOutcome outcome;
    if (failed(rematerialize(module, func, budgetSpec, spec, *deviceTarget,
                             outcome)))
      return signalPassFailure();
    outcomes.push_back(std::move(outcome));
  }
  removeNamedPolicies(module);
  if (!reportFile.empty())
    writeReport(outcomes, *deviceTarget);
}

} // namespace
