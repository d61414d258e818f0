//===- AutoSolver.cpp - Solver selection by graph size and structure ------===//
//
// chain-dp is exact and fast on training chains; the ILP is exact within its
// class but only affordable on small graphs; greedy always runs, both as the
// answer for large graphs and as a safety net when the ILP times out without
// an incumbent. The cheapest feasible schedule wins; ties go to the lower
// peak and keep the smaller optimality gap of the two.
//
//===----------------------------------------------------------------------===//

#include "PlanSupport.h"

using namespace ckpt::planner;

llvm::Expected<PlanResult>
ckpt::planner::solveAuto(const RematProblem &problem, uint64_t budgetBytes,
                         const SolverOptions &options) {
  SolveTimer timer;
  std::optional<PlanResult> best;
  auto consider = [&](llvm::Expected<PlanResult> candidate) -> llvm::Error {
    if (!candidate)
      return candidate.takeError();
    if (!candidate->isFeasible)
      return llvm::Error::success();
    bool isTie = best && candidate->costUnits == best->costUnits;
    // At equal cost the smaller known gap is kept, whichever schedule wins:
    // the ILP's proof that no schedule of its class is cheaper than its own
    // holds for greedy's schedule of the same cost too.
    std::optional<double> tiedGap;
    if (isTie) {
      tiedGap = best->optimalityGap;
      if (candidate->optimalityGap &&
          (!tiedGap || *candidate->optimalityGap < *tiedGap))
        tiedGap = candidate->optimalityGap;
    }
    bool isBetter = !best || candidate->costUnits < best->costUnits ||
                    (isTie && candidate->peakBytes < best->peakBytes);
    if (isBetter)
      best = std::move(*candidate);
    if (isTie)
      best->optimalityGap = tiedGap;
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
  std::optional<double> gap = best ? best->optimalityGap : std::nullopt;
  bool alreadyOptimal = gap && *gap == 0;
  if (!alreadyOptimal && problem.size() <= options.autoILPMaxNodes) {
    SolverOptions ilpOptions = options;
    ilpOptions.timeLimitSeconds =
        std::max(0.5, options.timeLimitSeconds - timer.elapsedSeconds());
    if (llvm::Error error = consider(solveILPFromGreedy(
            problem, budgetBytes, ilpOptions, &greedyResult)))
      return std::move(error);
  }
  if (!best)
    return infeasiblePlan("auto", timer);
  best->solverName = "auto(" + best->solverName + ")";
  best->solveTimeSeconds = timer.elapsedSeconds();
  return std::move(*best);
}
