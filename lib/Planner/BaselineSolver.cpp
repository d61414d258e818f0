//===- BaselineSolver.cpp - The `none` solver -----------------------------===//

#include "PlanSupport.h"

using namespace ckpt::planner;

llvm::Expected<PlanResult>
ckpt::planner::solveBaseline(const RematProblem &problem,
                             uint64_t budgetBytes) {
  SolveTimer timer;
  for (NodeIndex v = 0; v < problem.size(); ++v)
    if (problem.needsPhaseSplit(v))
      return llvm::createStringError(
          "solver 'none' cannot honor must_recompute on '" +
          problem.node(v).name + "'; choose a rematerializing solver");
  llvm::Expected<PlanResult> result = finishPlan(
      problem, baselineSchedule(problem), budgetBytes, "none", timer);
  if (result) {
    // No recomputation: no schedule of any class costs less.
    result->optimalityGap = 0;
    result->lowerBoundCostUnits = result->costUnits;
    result->formulation = PlanFormulation::ProgramOrder;
  }
  return result;
}
