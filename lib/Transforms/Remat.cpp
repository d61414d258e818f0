//===- Remat.cpp - recompute activations to meet a memory budget ----------===//
//
// Implements `ckpt-remat` with the `greedy-peak` solver: at the point where
// the forecast peak occurs, recompute one buffer kept alive across it, keep
// the rewrite if the re-analyzed peak went down, repeat.
//
//===----------------------------------------------------------------------===//

#include "CheckpointExpansion.h"
#include "FunctionSelection.h"

#include "ckpt/Analysis/ActivationTimeline.h"
#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Planner/Budget.h"
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

/// One recomputation the solver kept.
struct RematStep {
  std::string value;
  std::string location;
  int64_t bytes = 0;
  int64_t flops = 0;
  double seconds = 0;
  int64_t peakBefore = 0;
  int64_t peakAfter = 0;
};

/// What happened to one function.
struct FunctionOutcome {
  std::string name;
  int64_t budgetBytes = 0;
  int64_t baselinePeakBytes = 0;
  int64_t peakBytes = 0;
  SmallVector<RematStep> steps;
  double solveSeconds = 0;
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

/// True when `op` can be executed a second time without changing the
/// program: no memory effects (linalg on tensors, tensor and arith ops,
/// ckpt.random_uniform), no regions other than a linalg payload.
bool isRecomputable(Operation *op) {
  if (op->getNumRegions() && !isa<linalg::LinalgOp>(op))
    return false;
  return isMemoryEffectFree(op);
}

/// The top-level op of `func` that holds `op`.
Operation *getTopLevelOp(func::FuncOp func, Operation *op) {
  while (op->getParentOp() != func.getOperation())
    op = op->getParentOp();
  return op;
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
  auto strength = [](Policy policy) {
    switch (policy) {
    case Policy::MustSave:
      return 4;
    case Policy::MustRecompute:
      return 3;
    case Policy::PreferSave:
      return 2;
    case Policy::PreferRecompute:
      return 1;
    }
    llvm_unreachable("unknown policy");
  };
  std::optional<Policy> strongest;
  for (Value v : buffer.values) {
    std::optional<Policy> policy = getPolicyInBody(v, timeline.getFunction());
    if (!policy || llvm::none_of(v.getUsers(), [&](Operation *user) {
          return timeline.getProgramPoint(user) > peak;
        }))
      continue;
    if (!strongest || strength(*policy) > strength(*strongest))
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

struct RematPass : public mlir::ckpt::impl::RematPassBase<RematPass> {
  using RematPassBase::RematPassBase;

  void runOnOperation() override;

private:
  LogicalResult rematerialize(ModuleOp module, func::FuncOp func,
                              const ::ckpt::planner::MemoryBudget &memory,
                              const DeviceTarget &deviceTarget,
                              FunctionOutcome &outcome);
  void writeReport(ArrayRef<FunctionOutcome> outcomes,
                   const DeviceTarget &deviceTarget);
};

LogicalResult
RematPass::rematerialize(ModuleOp module, func::FuncOp func,
                         const ::ckpt::planner::MemoryBudget &memory,
                         const DeviceTarget &deviceTarget,
                         FunctionOutcome &outcome) {
  auto start = std::chrono::steady_clock::now();
  std::string name = func.getSymName().str();
  outcome.name = name;
  bool first = true;
  unsigned trial = 0;
  while (true) {
    FailureOr<std::unique_ptr<BufferizationForecast>> forecast =
        BufferizationForecast::analyze(module);
    if (failed(forecast))
      return failure();
    FailureOr<ActivationTimeline> timeline =
        ActivationTimeline::build(func, **forecast);
    if (failed(timeline))
      return failure();
    if (first) {
      outcome.baselinePeakBytes = timeline->getPeakBytes();
      outcome.budgetBytes = memory.resolveBytes(outcome.baselinePeakBytes);
      first = false;
    }
    outcome.peakBytes = timeline->getPeakBytes();
    // must_recompute buffers kept across the peak are recomputed even when
    // the budget is met, one per step, whatever it does to the peak.
    SmallVector<unsigned> forced = findForcedCandidates(*timeline);
    if (outcome.peakBytes <= outcome.budgetBytes && forced.empty())
      break;

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
      auto candidate = cast<func::FuncOp>(func->clone(mapping));
      candidate.setSymName(name + "__ckpt_remat_trial" +
                           std::to_string(trial++));
      candidate.setPrivate();
      module.getBody()->getOperations().insert(std::next(Block::iterator(func)),
                                               candidate);
      SmallVector<Value> values;
      for (Value v : buffer.values)
        values.push_back(mapping.lookupOrDefault(v));
      SmallVector<Operation *> points;
      for (Operation &op : candidate.getBody().front())
        points.push_back(&op);
      RematStep step;
      Value named = buffer.values.back();
      step.value = named.getDefiningOp()
                       ? named.getDefiningOp()->getName().getStringRef().str()
                       : std::string("argument");
      if (Operation *def = named.getDefiningOp())
        if (auto attr =
                def->getAttrOfType<StringAttr>(CkptDialect::getNameAttrName()))
          step.value = attr.str();
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
          InFlightDiagnostic diag =
              emitError(where)
              << "ckpt-remat: a value with ckpt.policy must_recompute is kept "
                 "across the peak of @"
              << name << " but cannot be recomputed";
          diag.attachNote(func.getLoc()) << "in this function";
          return failure();
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
      FailureOr<std::unique_ptr<BufferizationForecast>> trialForecast =
          BufferizationForecast::analyze(module);
      FailureOr<ActivationTimeline> trialTimeline =
          succeeded(trialForecast)
              ? ActivationTimeline::build(candidate, **trialForecast)
              : FailureOr<ActivationTimeline>(failure());
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
    bool improved = static_cast<bool>(best);
    if (improved) {
      LDBG() << "@" << name << ": recomputing " << bestStep.value
             << " lowers the peak from " << bestStep.peakBefore << " to "
             << bestStep.peakAfter;
      best.setVisibility(func.getVisibility());
      func.erase();
      best.setSymName(name);
      func = best;
      outcome.steps.push_back(bestStep);
    }
    if (!improved) {
      func.emitError() << "ckpt-remat: budget of " << outcome.budgetBytes
                       << " bytes is below the smallest peak found, "
                       << outcome.peakBytes << " bytes (baseline "
                       << outcome.baselinePeakBytes << " bytes)";
      return failure();
    }
  }
  outcome.solveSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return success();
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
          json.attribute("solver", "greedy-peak");
          json.attribute("budget_bytes", outcome.budgetBytes);
          json.attribute("baseline_peak_bytes", outcome.baselinePeakBytes);
          json.attribute("peak_bytes", outcome.peakBytes);
          json.attribute("recompute_count",
                         static_cast<int64_t>(outcome.steps.size()));
          json.attribute("extra_flops", extraFlops);
          json.attribute("extra_time_s", extraSeconds);
          json.attribute("solve_time_s", outcome.solveSeconds);
          json.attributeArray("recomputed", [&] {
            for (const RematStep &step : outcome.steps)
              json.object([&] {
                json.attribute("value", step.value);
                json.attribute("location", step.location);
                json.attribute("bytes", step.bytes);
                json.attribute("flops", step.flops);
                json.attribute("peak_before_bytes", step.peakBefore);
                json.attribute("peak_after_bytes", step.peakAfter);
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

  llvm::Expected<::ckpt::planner::MemoryBudget> memory =
      ::ckpt::planner::parseMemoryBudget(budget);
  if (!memory) {
    module.emitError() << "ckpt-remat: " << llvm::toString(memory.takeError());
    return signalPassFailure();
  }
  llvm::Expected<DeviceTarget> deviceTarget = lookupDeviceTarget(target);
  if (!deviceTarget) {
    module.emitError() << "ckpt-remat: "
                       << llvm::toString(deviceTarget.takeError());
    return signalPassFailure();
  }

  // Each function is replaced by its rewritten clone; the others stay.
  SmallVector<FunctionOutcome> outcomes;
  for (func::FuncOp func : *functions) {
    FunctionOutcome outcome;
    if (failed(rematerialize(module, func, *memory, *deviceTarget, outcome)))
      return signalPassFailure();
    outcomes.push_back(std::move(outcome));
  }
  if (!reportFile.empty())
    writeReport(outcomes, *deviceTarget);
}

} // namespace
