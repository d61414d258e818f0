//===- PlanSupport.cpp - Helpers shared by the solvers --------------------===//

#include "PlanSupport.h"

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
