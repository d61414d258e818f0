//===- AutoSolver.cpp - Solver selection by graph size and structure ------===//
//
// chain-dp is exact and fast on training chains (persistent schedules); the
// ILP is exact within its class and affordable up to a few hundred nodes;
// the exact MILP covers every program-order schedule but only pays on small
// graphs, where it starts from the best of the others and proves (or bounds)
// them; greedy always runs, both as the answer for large graphs and as a
// safety net when the MILPs time out without an incumbent. The cheapest
// feasible schedule wins, ties go to the lower peak; the result carries the
// strongest bound found (over every program-order schedule when the exact
// model ran).
//
//===----------------------------------------------------------------------===//

#include "PlanSupport.h"

using namespace ckpt::planner;

namespace {

/// A lower bound on the cost of every schedule of a class.
struct CostBound {
  PlanFormulation formulation;
  uint64_t costUnits;
};

/// Keeps the strongest statement: a bound over every program-order schedule
/// beats a sub-class's; within a class the higher bound wins.
void noteBound(std::optional<CostBound> &bound, const PlanResult &result) {
  if (!result.lowerBoundCostUnits ||
      result.formulation == PlanFormulation::None)
    return;
  CostBound candidate{result.formulation, *result.lowerBoundCostUnits};
  bool isProgramOrder = candidate.formulation == PlanFormulation::ProgramOrder;
  if (!bound ||
      (isProgramOrder && bound->formulation != PlanFormulation::ProgramOrder) ||
      (candidate.formulation == bound->formulation &&
       candidate.costUnits > bound->costUnits))
    bound = candidate;
}

} // namespace

llvm::Expected<PlanResult>
ckpt::planner::solveAuto(const RematProblem &problem, uint64_t budgetBytes,
                         const SolverOptions &options) {
  SolveTimer timer;
  std::optional<PlanResult> best;
  std::optional<CostBound> bound;
  auto consider = [&](llvm::Expected<PlanResult> candidate) -> llvm::Error {
    if (!candidate)
      return candidate.takeError();
    if (!candidate->isFeasible)
      return llvm::Error::success();
    // A class's bound holds whichever schedule wins: no schedule of the
    // class is cheaper than it.
    noteBound(bound, *candidate);
    bool isBetter = !best || candidate->costUnits < best->costUnits ||
                    (candidate->costUnits == best->costUnits &&
                     candidate->peakBytes < best->peakBytes);
    if (isBetter)
      best = std::move(*candidate);
    return llvm::Error::success();
  };

  // The baseline answers every budget it fits, at zero overhead.
  llvm::Expected<PlanResult> baseline = solveBaseline(problem, budgetBytes);
  if (baseline && baseline->isFeasible) {
    baseline->solverName = "auto(none)";
    baseline->solveTimeSeconds = timer.elapsedSeconds();
    return baseline;
  }
  llvm::consumeError(baseline.takeError());

  if (isTrainingChain(problem))
    if (llvm::Error error = consider(solveChainDP(problem, budgetBytes)))
      return std::move(error);
  llvm::Expected<PlanResult> greedy =
      solveGreedy(problem, budgetBytes, options);
  if (!greedy)
    return greedy.takeError();
  // The ILP starts from the same greedy schedule; it is not solved twice.
  PlanResult greedyResult = *greedy;
  if (llvm::Error error = consider(std::move(greedy)))
    return std::move(error);
  bool runsExact = problem.size() <= options.autoExactMaxNodes;
  bool provenInSubClass = best && best->optimalityGap == 0.0;
  if (!provenInSubClass && problem.size() <= options.autoILPMaxNodes) {
    SolverOptions ilpOptions = options;
    double remaining = options.timeLimitSeconds - timer.elapsedSeconds();
    // The exact model gets at most a quarter of the time.
    ilpOptions.timeLimitSeconds =
        std::max(0.5, runsExact ? remaining * 3 / 4 : remaining);
    // A model too large to build within its time leaves greedy's answer.
    llvm::Expected<PlanResult> ilp =
        solveILPFromGreedy(problem, budgetBytes, ilpOptions, &greedyResult);
    if (!ilp)
      llvm::consumeError(ilp.takeError());
    else if (llvm::Error error = consider(std::move(ilp)))
      return std::move(error);
  }
  // The exact model gets a quarter of the limit at most: planning calls
  // stay fast where it cannot prove (the remat pass plans several times per
  // function). When the others found no schedule within the budget it
  // searches for a feasible one first, and a budget they miss is often
  // feasible in the class (tight budgets on small graphs).
  if (runsExact) {
    SolverOptions exactOptions = options;
    exactOptions.timeLimitSeconds = std::max(
        0.5, std::min(options.timeLimitSeconds - timer.elapsedSeconds(),
                      options.timeLimitSeconds / 4));
    // Greedy's (infeasible) result when nothing fit: solveExact would solve
    // greedy again at the same budget for its start.
    llvm::Expected<PlanResult> exact = solveExact(
        problem, budgetBytes, exactOptions, best ? &*best : &greedyResult);
    // A model too large to build leaves the other solvers' answer.
    if (!exact)
      llvm::consumeError(exact.takeError());
    else if (llvm::Error error = consider(std::move(exact)))
      return std::move(error);
  }
  if (!best)
    return infeasiblePlan("auto", timer);
  best->optimalityGap.reset();
  best->lowerBoundCostUnits.reset();
  best->formulation = PlanFormulation::None;
  if (bound) {
    uint64_t lower = std::min(bound->costUnits, best->costUnits);
    best->formulation = bound->formulation;
    best->lowerBoundCostUnits = lower;
    best->optimalityGap = static_cast<double>(best->costUnits - lower) /
                          std::max<uint64_t>(1, best->costUnits);
  }
  best->solverName = "auto(" + best->solverName + ")";
  best->solveTimeSeconds = timer.elapsedSeconds();
  return std::move(*best);
}
