//===- PlanSupport.cpp - Helpers shared by the solvers --------------------===//

#include "PlanSupport.h"

#include "llvm/Support/FormatVariadic.h"

using namespace ckpt::planner;

llvm::Expected<PlanResult>
ckpt::planner::finishPlan(const RematProblem &problem, Schedule schedule,
                          uint64_t budgetBytes, llvm::StringRef solverName,
                          const SolveTimer &timer) {
  llvm::Expected<ScheduleMetrics> metrics = validateSchedule(problem, schedule);
  if (!metrics)
    return llvm::createStringError("solver '" + solverName.str() +
                                   "' produced an invalid schedule: " +
                                   llvm::toString(metrics.takeError()));
  PlanResult result;
  result.isFeasible = metrics->peakBytes <= budgetBytes;
  result.schedule = std::move(schedule);
  result.peakBytes = metrics->peakBytes;
  result.costUnits = metrics->costUnits;
  result.solverName = solverName.str();
  result.solveTimeSeconds = timer.elapsedSeconds();
  return result;
}

PlanResult ckpt::planner::infeasiblePlan(llvm::StringRef solverName,
                                         const SolveTimer &timer) {
  PlanResult result;
  result.isFeasible = false;
  result.solverName = solverName.str();
  result.solveTimeSeconds = timer.elapsedSeconds();
  return result;
}

llvm::Error ckpt::planner::modelNotBuiltInTime(llvm::StringRef solverName,
                                               llvm::StringRef model,
                                               unsigned nodes, double seconds,
                                               llvm::StringRef alternatives) {
  return llvm::createStringError(
      llvm::formatv("{0}: the {1} of this {2}-node graph was not built within "
                    "the time limit ({3} s); use {4}, or a longer time limit",
                    solverName, model, nodes, seconds, alternatives)
          .str());
}
