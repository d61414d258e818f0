//===- GreedySolver.cpp - Eviction heuristic for large DAGs ---------------===//
//
// Simulates the original order under the budget; when a computation would
// not fit, evicts the resident value with the most bytes per unit of
// recompute cost, weighted toward values whose next use is far away (a
// Belady-like lookahead), and recomputes evicted values on demand. A few
// lookahead weights are tried and the cheapest schedule is kept, since which
// weight wins depends on the graph family.
//
//===----------------------------------------------------------------------===//

#include "OnDemandSimulation.h"
#include "PlanSupport.h"

using namespace ckpt::planner;

llvm::Expected<PlanResult>
ckpt::planner::solveGreedy(const RematProblem &problem, uint64_t budgetBytes) {
  SolveTimer timer;
  OnDemandConfig config;
  config.budgetBytes = budgetBytes;
  config.evictUnderPressure = true;
  config.dropAfterStage.resize(problem.size());
  for (NodeIndex v = 0; v < problem.size(); ++v)
    if (problem.needsPhaseSplit(v))
      config.dropAfterStage[v] = problem.lastForwardConsumer(v);

  std::optional<PlanResult> best;
  for (double exponent : {0.0, 0.5, 1.0, 2.0}) {
    config.distanceExponent = exponent;
    std::optional<std::vector<NodeIndex>> sequence =
        simulateOnDemand(problem, config);
    if (!sequence)
      continue;
    llvm::Expected<PlanResult> result =
        finishPlan(problem, scheduleFromComputeSequence(problem, *sequence),
                   budgetBytes, "greedy", timer);
    if (!result)
      return result.takeError();
    if (result->isFeasible && (!best || result->costUnits < best->costUnits))
      best = std::move(*result);
  }
  if (!best)
    return infeasiblePlan("greedy", timer);
  best->solveTimeSeconds = timer.elapsedSeconds();
  return std::move(*best);
}
