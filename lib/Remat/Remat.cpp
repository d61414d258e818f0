//===- Remat.cpp - recompute activations to meet a memory budget ----------===//
//
// Implements `ckpt-remat`: reads the options, expands user checkpoints,
// applies named policies and, per function, sets the budget (given, `min`
// or `auto`), runs a planner solver (PlannedRemat.h) and finishes with
// greedy-peak (GreedyPeak.h) where the forecast exceeds the budget; a budget
// the heuristics miss is retried with the descent of `budget=min`. The
// report is RematReport.h's.
//
//===----------------------------------------------------------------------===//

#include "FunctionSelection.h"
#include "GreedyPeak.h"
#include "NamedPolicies.h"
#include "PlannedRemat.h"
#include "RematGraph.h"
#include "RematReport.h"
#include "RematSupport.h"

#include "ckpt/Dialect/Ckpt/Transforms/CheckpointExpansion.h"
#include "ckpt/Remat/Passes.h"
#include "llvm/Support/DebugLog.h"

#include <chrono>

#define DEBUG_TYPE "ckpt-remat"

namespace mlir::ckpt {
#define GEN_PASS_DEF_REMATPASS
#include "ckpt/Remat/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace planner = ::ckpt::planner;

namespace {

/// What one run of the pass works with, the options read.
struct RematSettings {
  planner::BudgetRequest budget;
  /// The planner solver; none for greedy-peak.
  std::optional<planner::SolverSpec> solver;
  DeviceTarget target;
  double timeLimitSeconds = 0;
  /// Where the planner problem of each function goes (empty: nowhere);
  /// the function name is appended when there are several.
  std::string graphPath;
  bool graphPerFunction = false;
  /// Whether the report collects the saved residuals.
  bool reporting = false;
  /// on-infeasible=min: a budget no schedule meets gets the smallest peak
  /// found instead of an error.
  bool applyMinimumWhenInfeasible = false;
};

/// Rematerializes one function after another.
class FunctionRematerializer {
public:
  FunctionRematerializer(ModuleOp module, const RematSettings &settings)
      : module(module), settings(settings) {}

  /// Rematerializes `func` into `outcome`; fails with a diagnostic.
  LogicalResult run(func::FuncOp func, FunctionOutcome &outcome);

private:
  LogicalResult setBudget(const ActivationTimeline &timeline,
                          FunctionOutcome &outcome);
  LogicalResult retryAsMinimum(func::FuncOp &func, func::FuncOp pristine,
                               FunctionOutcome &outcome);
  LogicalResult cheapenMinimum(func::FuncOp &func, func::FuncOp pristine,
                               FunctionOutcome &outcome);
  /// A record for planning `outcome`'s function again from the function as
  /// it came, at `budgetBytes`: its name, baseline and solver, nothing
  /// planned yet.
  FunctionOutcome startOver(const FunctionOutcome &outcome,
                            int64_t budgetBytes) const;

  ModuleOp module;
  const RematSettings &settings;
  TrialFunctions trials;
};

LogicalResult
FunctionRematerializer::setBudget(const ActivationTimeline &timeline,
                                  FunctionOutcome &outcome) {
  outcome.budgetRule = settings.budget.rule().str();
  switch (settings.budget.kind) {
  case planner::BudgetRequest::Kind::Memory:
    outcome.budgetBytes =
        settings.budget.memory.resolveBytes(outcome.baselinePeakBytes);
    return success();
  case planner::BudgetRequest::Kind::Minimum:
    // Lowered until no step helps; the report states the peak reached.
    outcome.budgetBytes = 0;
    return success();
  case planner::BudgetRequest::Kind::Knee: {
    FailureOr<RematGraph> graph = buildRematGraph(timeline, settings.target);
    if (failed(graph))
      return failure();
    // The knee in the model, moved to the forecast's scale.
    outcome.budgetBytes = static_cast<int64_t>(planner::resolveBudgetBytes(
                              *graph->problem, settings.budget)) +
                          (graph->timelinePeakBytes - graph->problemPeakBytes);
    outcome.budgetBytes =
        std::min(outcome.budgetBytes, outcome.baselinePeakBytes);
    return success();
  }
  }
  llvm_unreachable("unknown budget kind");
}

LogicalResult FunctionRematerializer::run(func::FuncOp func,
                                          FunctionOutcome &outcome) {
  auto start = std::chrono::steady_clock::now();
  const std::optional<planner::SolverSpec> &spec = settings.solver;
  outcome.name = func.getSymName().str();
  outcome.solver = spec ? spec->str() : "greedy-peak";
  FailureOr<ActivationTimeline> timeline = analyzeFunction(module, func);
  if (failed(timeline))
    return failure();
  outcome.baselinePeakBytes = timeline->getPeakBytes();
  outcome.peakBytes = outcome.baselinePeakBytes;
  for (Operation *op : timeline->getProgramPoints())
    outcome.baselineFlops += estimateOpCost(op, settings.target).flops;
  if (failed(setBudget(*timeline, outcome)))
    return failure();
  bool minimize = settings.budget.kind == planner::BudgetRequest::Kind::Minimum;
  if (!settings.graphPath.empty()) {
    std::string path = settings.graphPath;
    if (settings.graphPerFunction)
      path += "." + outcome.name;
    if (failed(writeRematGraph(*timeline, settings.target, path)))
      return failure();
  }
  // Kept to start over from: the heuristics are not monotone in the budget,
  // so a budget they miss is retried with the descent of budget=min.
  OwningOpRef<func::FuncOp> pristine = func.clone();
  // uniform:k ignores the budget (but for checking it): it always applies.
  bool needed = outcome.peakBytes > outcome.budgetBytes ||
                !findForcedCandidates(*timeline).empty() ||
                (spec && spec->kind == planner::SolverKind::Uniform);
  if (needed && spec && spec->kind != planner::SolverKind::None &&
      failed(planFunction(module, func, *timeline, *spec, settings.target,
                          settings.timeLimitSeconds, minimize, trials,
                          outcome)))
    return failure();
  // none and uniform:k are taken as they are; the other plans are finished
  // by greedy-peak where the forecast exceeds the budget.
  bool finishes = !spec || (spec->kind != planner::SolverKind::None &&
                            spec->kind != planner::SolverKind::Uniform);
  if (finishes) {
    size_t planned = outcome.steps.size();
    if (failed(lowerPeakGreedily(module, func, settings.target, minimize,
                                 trials, outcome))) {
      if (!outcome.stuck || failed(retryAsMinimum(func, *pristine, outcome)))
        return failure();
      planned = 0;
    }
    if (outcome.steps.size() > planned && planned > 0)
      outcome.solver += "+greedy-peak";
    if (minimize && spec && failed(cheapenMinimum(func, *pristine, outcome)))
      return failure();
  } else if (minimize) {
    outcome.budgetBytes = outcome.peakBytes;
  } else if (outcome.peakBytes > outcome.budgetBytes &&
             settings.applyMinimumWhenInfeasible) {
    emitWarning(getFunctionDiagnosticLoc(func))
        << "ckpt-remat: solver '" << spec->str() << "' reaches a peak of "
        << outcome.peakBytes << " bytes, above the budget of "
        << outcome.budgetBytes << " bytes; applied it (on-infeasible=min)";
    outcome.budgetMissed = true;
  } else if (outcome.peakBytes > outcome.budgetBytes) {
    emitError(getFunctionDiagnosticLoc(func))
        << "ckpt-remat: solver '" << spec->str() << "' reaches a peak of "
        << outcome.peakBytes << " bytes, above the budget of "
        << outcome.budgetBytes << " bytes (baseline "
        << outcome.baselinePeakBytes << " bytes)";
    outcome.failure = RematFailure{"infeasible-budget", outcome.peakBytes};
    return failure();
  }
  outcome.solveSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (settings.reporting)
    return collectSavedResiduals(module, func, outcome);
  return success();
}

FunctionOutcome
FunctionRematerializer::startOver(const FunctionOutcome &outcome,
                                  int64_t budgetBytes) const {
  FunctionOutcome fresh;
  fresh.name = outcome.name;
  fresh.solver = settings.solver ? settings.solver->str() : "greedy-peak";
  fresh.baselinePeakBytes = outcome.baselinePeakBytes;
  fresh.peakBytes = outcome.baselinePeakBytes;
  fresh.baselineFlops = outcome.baselineFlops;
  fresh.budgetBytes = budgetBytes;
  return fresh;
}

LogicalResult FunctionRematerializer::retryAsMinimum(func::FuncOp &func,
                                                     func::FuncOp pristine,
                                                     FunctionOutcome &outcome) {
  // Start over from the function as it came, lowering the peak as far as
  // the solvers go.
  func = trials.keep(func, trials.createFrom(func, pristine, "ckpt_min"));

  const std::optional<planner::SolverSpec> &spec = settings.solver;
  FunctionOutcome descent = startOver(outcome, /*budgetBytes=*/0);
  FailureOr<ActivationTimeline> fromScratch = analyzeFunction(module, func);
  if (failed(fromScratch))
    return failure();
  if (spec && failed(planFunction(module, func, *fromScratch, *spec,
                                  settings.target, settings.timeLimitSeconds,
                                  /*minimize=*/true, trials, descent)))
    return failure();
  size_t planned = descent.steps.size();
  if (failed(lowerPeakGreedily(module, func, settings.target,
                               /*minimize=*/true, trials, descent)))
    return failure();
  if (descent.steps.size() > planned && planned > 0)
    descent.solver += "+greedy-peak";
  int64_t smallest = std::min(outcome.peakBytes, descent.peakBytes);
  if (descent.peakBytes > outcome.budgetBytes &&
      settings.applyMinimumWhenInfeasible) {
    emitWarning(getFunctionDiagnosticLoc(func))
        << "ckpt-remat: budget of " << outcome.budgetBytes
        << " bytes is below the smallest peak found, " << descent.peakBytes
        << " bytes (baseline " << outcome.baselinePeakBytes
        << " bytes); applied that peak (on-infeasible=min)";
    descent.budgetMissed = true;
  } else if (descent.peakBytes > outcome.budgetBytes) {
    emitError(getFunctionDiagnosticLoc(func))
        << "ckpt-remat: budget of " << outcome.budgetBytes
        << " bytes is below the smallest peak found, " << smallest
        << " bytes (baseline " << outcome.baselinePeakBytes << " bytes)";
    outcome.failure = RematFailure{"infeasible-budget", smallest};
    return failure();
  }
  descent.budgetBytes = outcome.budgetBytes;
  descent.budgetRule = outcome.budgetRule;
  descent.solver += " (descent)";
  outcome = std::move(descent);
  return success();
}

LogicalResult FunctionRematerializer::cheapenMinimum(func::FuncOp &func,
                                                     func::FuncOp pristine,
                                                     FunctionOutcome &outcome) {
  // budget=min is lexicographic: the smallest peak found, then the least
  // recomputation at it. The descent reaches its peak through plans aimed
  // ever lower and greedy-peak's steps, which can cost more than a plan made
  // for that peak; the planner is asked again from the function as it
  // came, at a budget a little above the peak found (its model and the
  // forecast differ by about that), and a plan with the same forecast peak,
  // for less, replaces the result. (Not one with a lower peak: a budget at
  // the reported minimum must stay reachable by the given-budget path,
  // which plans as this descent did.)
  const int64_t peak = outcome.peakBytes;
  double seconds = sumRecomputation(outcome).second;
  for (int64_t perMille : {5, 10, 20}) {
    func::FuncOp attempt = trials.createFrom(
        func, pristine, "ckpt_cheaper" + std::to_string(perMille));
    FunctionOutcome cheaper = startOver(outcome, peak + peak * perMille / 1000);
    FailureOr<ActivationTimeline> timeline = analyzeFunction(module, attempt);
    if (failed(timeline)) {
      trials.discard(attempt);
      return failure();
    }
    if (failed(planFunction(module, attempt, *timeline, *settings.solver,
                            settings.target, settings.timeLimitSeconds,
                            /*minimize=*/false, trials, cheaper))) {
      trials.discard(attempt);
      return failure();
    }
    double cheaperSeconds = sumRecomputation(cheaper).second;
    if (cheaper.peakBytes != peak || cheaper.steps.empty() ||
        cheaperSeconds >= seconds) {
      trials.discard(attempt);
      continue;
    }
    LDBG() << "budget=min: " << cheaper.solver << " at " << cheaper.budgetBytes
           << " B reaches " << cheaper.peakBytes << " B for " << cheaperSeconds
           << " s instead of " << seconds << " s";
    func = trials.keep(func, attempt);
    cheaper.budgetBytes = cheaper.peakBytes;
    cheaper.budgetRule = outcome.budgetRule;
    outcome = std::move(cheaper);
    seconds = cheaperSeconds;
  }
  return success();
}

struct RematPass : public mlir::ckpt::impl::RematPassBase<RematPass> {
  RematPass() = default;
  RematPass(const RematPass &other) : RematPassBase(other) {}
  explicit RematPass(const RematOptions &options) {
    assignRematOptions(*this, options);
  }

  void runOnOperation() override;

  /// The options, one member each (RematOptions.def).
#define CKPT_REMAT_OPTION(FIELD, KEY, TYPE, DEFAULT, DESCRIPTION)              \
  Option<TYPE> FIELD{*this, KEY, llvm::cl::desc(DESCRIPTION),                  \
                     llvm::cl::init(DEFAULT)};
#define CKPT_REMAT_LIST_OPTION(FIELD, KEY, TYPE, DESCRIPTION)                  \
  ListOption<TYPE> FIELD{*this, KEY, llvm::cl::desc(DESCRIPTION)};
#include "ckpt/Remat/RematOptions.def"

private:
  /// Reads the options into `settings`; fails with a diagnostic at `loc`.
  LogicalResult readSettings(Location loc, RematSettings &settings);
};

LogicalResult RematPass::readSettings(Location loc, RematSettings &settings) {
  std::string message;
  if (failed(verifyRematOptions(collectRematOptions(*this), message)))
    return emitError(loc) << message;
  llvm::Expected<planner::BudgetRequest> request =
      planner::parseBudgetRequest(budget);
  if (!request)
    return emitError(loc) << "ckpt-remat: "
                          << llvm::toString(request.takeError());
  settings.budget = *request;
  if (solver != "greedy-peak") {
    llvm::Expected<planner::SolverSpec> parsed =
        planner::parseSolverSpec(solver);
    if (!parsed)
      return emitError(loc)
             << "ckpt-remat: " << llvm::toString(parsed.takeError())
             << ", greedy-peak";
    settings.solver = *parsed;
  }
  llvm::Expected<DeviceTarget> deviceTarget = lookupDeviceTarget(target);
  if (!deviceTarget)
    return emitError(loc) << "ckpt-remat: "
                          << llvm::toString(deviceTarget.takeError());
  settings.target = *deviceTarget;
  settings.timeLimitSeconds = timeLimit;
  settings.graphPath = graph;
  settings.reporting = !report.empty();
  settings.applyMinimumWhenInfeasible = onInfeasible == "min";
  return success();
}

void RematPass::runOnOperation() {
  ModuleOp module = getOperation();

  FailureOr<SmallVector<func::FuncOp>> functionsToRemat =
      selectFunctions(module, functions, "ckpt-remat");
  if (failed(functionsToRemat))
    return signalPassFailure();

  // User checkpoints first (also without a budget): the analysis cannot size
  // an unexpanded ckpt.checkpoint, as bufferization cannot.
  unsigned expanded = 0;
  for (func::FuncOp func : *functionsToRemat)
    expanded += expandCheckpoints(func);
  if (budget.empty() && expanded)
    return;

  RematSettings settings;
  if (failed(readSettings(module.getLoc(), settings)))
    return signalPassFailure();
  llvm::Expected<NamedPolicy> namedPolicy = parseNamedPolicy(policy);
  if (!namedPolicy) {
    emitError(module.getLoc())
        << "ckpt-remat: " << llvm::toString(namedPolicy.takeError());
    return signalPassFailure();
  }
  for (func::FuncOp func : *functionsToRemat)
    if (failed(applyNamedPolicy(func, *namedPolicy)))
      return signalPassFailure();

  // Each function is replaced by its rewritten clone; the others stay.
  settings.graphPerFunction = functionsToRemat->size() > 1;
  std::vector<FunctionOutcome> outcomes;
  bool failedAny = false;
  {
    FunctionRematerializer rematerializer(module, settings);
    for (func::FuncOp func : *functionsToRemat) {
      FunctionOutcome outcome;
      failedAny = failed(rematerializer.run(func, outcome));
      // An infeasible budget is reported as data; any other failure has
      // only its diagnostic.
      if (failedAny && !outcome.failure)
        return signalPassFailure();
      outcomes.push_back(std::move(outcome));
      if (failedAny)
        break;
    }
  }
  removeNamedPolicies(module);
  if (!report.empty() &&
      failed(writeRematReport(report, reportFormat, outcomes, settings.target,
                              module.getLoc())))
    return signalPassFailure();
  if (failedAny)
    return signalPassFailure();
}

} // namespace

std::unique_ptr<Pass> mlir::ckpt::createRematPass(const RematOptions &options) {
  return std::make_unique<RematPass>(options);
}
