//===- PlannedRemat.cpp - planner schedules applied to a function ---------===//
//
// A planner solver plans on the function's buffer graph (RematGraph.h); its
// schedule becomes recompute regions in a trial copy of the function, which
// the forecast measures. Plans the forecast finds above the budget are
// redone aiming lower.
//
//===----------------------------------------------------------------------===//

#include "PlannedRemat.h"
#include "RematGraph.h"
#include "RematSupport.h"

#include "ckpt/Planner/GraphJSON.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/ToolOutputFile.h"

#include <limits>

#define DEBUG_TYPE "ckpt-remat"

using namespace mlir;
using namespace mlir::ckpt;

namespace planner = ::ckpt::planner;

LogicalResult mlir::ckpt::writeRematGraph(const ActivationTimeline &timeline,
                                          const DeviceTarget &deviceTarget,
                                          StringRef path) {
  FailureOr<RematGraph> graph = buildRematGraph(timeline, deviceTarget);
  if (failed(graph))
    return failure();
  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> file =
      openOutputFile(path, &errorMessage);
  if (!file)
    return emitError(getFunctionDiagnosticLoc(timeline.getFunction()))
           << "ckpt-remat: cannot write '" << path << "': " << errorMessage;
  planner::writeGraphJSON(*graph->problem, file->os());
  file->keep();
  return success();
}

LogicalResult mlir::ckpt::planFunction(ModuleOp module, func::FuncOp &func,
                                       const ActivationTimeline &timeline,
                                       const planner::SolverSpec &spec,
                                       const DeviceTarget &deviceTarget,
                                       double timeLimitSeconds, bool minimize,
                                       TrialFunctions &trials,
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
  options.timeLimitSeconds = timeLimitSeconds;
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
                              spec.kind == planner::SolverKind::Exact ||
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
    // error states the lowest peak found. An infeasible budget says where
    // planning succeeds.
    if (!plan && !best && spec.kind != planner::SolverKind::None &&
        spec.kind != planner::SolverKind::Uniform) {
      std::optional<uint64_t> workingBudget;
      llvm::consumeError(llvm::handleErrors(
          plan.takeError(), [&](const planner::InfeasibleBudgetError &e) {
            workingBudget = e.workingBudgetBytes;
          }));
      aim = workingBudget ? *workingBudget
                          : planner::smallestFeasiblePeakFound(problem);
      plan = planner::planRemat(problem, aim, spec, options);
    }
    if (!plan) {
      // The model's infeasibility is not final: greedy-peak continues (and
      // the budget may still be met by the descent of budget=min).
      bool infeasible = false;
      llvm::Error error = llvm::handleErrors(
          plan.takeError(),
          [&](const planner::InfeasibleBudgetError &) { infeasible = true; });
      std::string message = llvm::toString(std::move(error));
      LDBG() << "planner: " << (infeasible ? "infeasible budget" : message);
      if (spec.kind == planner::SolverKind::Auto || best || infeasible)
        break;
      emitError(getFunctionDiagnosticLoc(func))
          << "ckpt-remat: cannot plan @" << outcome.name << " with solver '"
          << spec.str() << "': " << message;
      return failure();
    }
    IRMapping mapping;
    func::FuncOp candidate =
        trials.create(func, "ckpt_plan" + std::to_string(attempt), mapping);
    RematGraph candidateGraph = remapRematGraph(*graph, candidate, mapping);
    FailureOr<SmallVector<AppliedRecompute>> applied =
        applySchedule(candidateGraph, plan->schedule, deviceTarget);
    if (failed(applied)) {
      trials.discard(candidate);
      LDBG() << "the plan's order cannot be expressed in the IR";
      // Another plan, aiming a little lower, often can be (the heuristics
      // are not monotone in the budget); a few are tried before giving up.
      // To minimize, the aim is already as low as the model goes: higher.
      ++outcome.unappliablePlans;
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
        if (auto attr =
                op->getAttrOfType<PolicyAttr>(CkptDialect::getPolicyAttrName());
            attr && attr.getValue() == Policy::MustRecompute)
          op->removeAttr(CkptDialect::getPolicyAttrName());
      RematStep step;
      step.value = describeValue(ops.back());
      step.location = formatLocation(ops.back()->getLoc());
      Operation *reader = recompute.region->getNextNode();
      while (reader && isa<RecomputeOp>(reader) &&
             llvm::none_of(recompute.region->getUsers(), [&](Operation *user) {
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
    FailureOr<ActivationTimeline> planned = trials.analyze(module, candidate);
    int64_t peak = succeeded(planned) ? planned->getPeakBytes() : INT64_MAX;
    LDBG() << "plan aiming at " << aim << " B: model peak " << plan->peakBytes
           << " B, forecast " << peak << " B";
    bool improved = peak < bestPeak;
    if (improved) {
      if (best)
        trials.discard(best);
      best = candidate;
      bestPeak = peak;
      bestSteps = std::move(steps);
      outcome.modelPeakBytes = plan->peakBytes;
      outcome.modelCostUnits = plan->costUnits;
      outcome.optimalityGap = plan->optimalityGap;
      outcome.lowerBoundCostUnits = plan->lowerBoundCostUnits;
      outcome.formulation =
          planner::stringifyPlanFormulation(plan->formulation).str();
      outcome.isProvenOptimal = plan->isProvenOptimal();
      outcome.solver = plan->solverName;
    } else {
      trials.discard(candidate);
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
    aim = peak == INT64_MAX ? 0
                            : static_cast<int64_t>(plan->peakBytes) -
                                  (peak - outcome.budgetBytes);
  }
  if (!best || (bestPeak >= outcome.peakBytes &&
                spec.kind != planner::SolverKind::Uniform)) {
    if (best)
      trials.discard(best);
    outcome.solver = "greedy-peak";
    return success();
  }
  func = trials.keep(func, best);
  outcome.peakBytes = bestPeak;
  outcome.steps = std::move(bestSteps);
  return success();
}
