//===- GreedySolver.cpp - Eviction heuristic for large DAGs ---------------===//
//
// Simulates the original order under the budget; when a computation would
// not fit, evicts the resident value with the most bytes per unit of
// recompute cost, weighted toward values whose next use is far away (a
// Belady-like lookahead), and recomputes evicted values on demand. A few
// lookahead weights are tried and the cheapest schedule is kept, since which
// weight wins depends on the graph family; where none fits the budget,
// lower aims are tried (the simulation is not monotone in the budget).
//
//===----------------------------------------------------------------------===//

#include "OnDemandSimulation.h"
#include "PlanSupport.h"

using namespace ckpt::planner;

/// Greedy at \p budgetBytes, then at up to \p lowerAims lower aims (down to
/// half the room above the constant bytes) while none fits.
static llvm::Expected<PlanResult> solveGreedyAiming(const RematProblem &problem,
                                                    uint64_t budgetBytes,
                                                    unsigned lowerAims) {
  SolveTimer timer;
  OnDemandConfig config;
  config.budgetBytes = budgetBytes;
  config.evictUnderPressure = true;
  config.dropAfterStage.resize(problem.size());
  for (NodeIndex v = 0; v < problem.size(); ++v)
    if (problem.needsPhaseSplit(v))
      config.dropAfterStage[v] = problem.lastForwardConsumer(v);

  std::optional<PlanResult> best;
  // The simulation is not monotone in the budget: where it gets stuck at the
  // budget, it may succeed aiming a little lower (any schedule under a lower
  // aim meets the budget too), so a few lower aims are tried in turn.
  uint64_t constantBytes = problem.getConstantBytes();
  uint64_t room = budgetBytes > constantBytes ? budgetBytes - constantBytes : 0;
  for (unsigned step = 0; step <= lowerAims && !best; ++step) {
    config.budgetBytes =
        budgetBytes - (lowerAims ? room * step / (2 * lowerAims) : 0);
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
      if (result->isFeasible &&
          (!best || result->costUnits < best->costUnits))
        best = std::move(*result);
    }
  }
  if (!best)
    return infeasiblePlan("greedy", timer);
  best->solveTimeSeconds = timer.elapsedSeconds();
  return std::move(*best);
}

llvm::Expected<PlanResult>
ckpt::planner::solveGreedy(const RematProblem &problem, uint64_t budgetBytes) {
  return solveGreedyAiming(problem, budgetBytes, /*lowerAims=*/8);
}

llvm::Expected<PlanResult>
ckpt::planner::solveGreedyOnce(const RematProblem &problem,
                               uint64_t budgetBytes) {
  return solveGreedyAiming(problem, budgetBytes, /*lowerAims=*/0);
}
