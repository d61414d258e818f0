//===- PlanSupport.h - Helpers shared by the solvers ----------------------===//
//
// Private to the planner library.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_PLANNER_PLANSUPPORT_H
#define CKPT_LIB_PLANNER_PLANSUPPORT_H

#include "ckpt/Planner/Solvers.h"

#include <chrono>

namespace ckpt {
namespace planner {

/// Greedy aiming at \p budgetBytes only, without solveGreedy's lower aims:
/// for the searches that call it for many budgets (the smallest feasible
/// peak, the trade-off curve), where an infeasible budget must stay cheap.
llvm::Expected<PlanResult> solveGreedyOnce(const RematProblem &problem,
                                           uint64_t budgetBytes);

/// solveILP with greedy's result at the same budget and options supplied by
/// the caller (auto has it already), or computed here when \p greedyResult
/// is null.
llvm::Expected<PlanResult> solveILPFromGreedy(const RematProblem &problem,
                                              uint64_t budgetBytes,
                                              const SolverOptions &options,
                                              const PlanResult *greedyResult);

/// Measures a solver's wall-clock time.
class SolveTimer {
public:
  SolveTimer() : start(std::chrono::steady_clock::now()) {}
  /// Seconds since construction.
  double elapsedSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }

private:
  std::chrono::steady_clock::time_point start;
};

/// Validates \p schedule and packages it: metrics come from the validator,
/// feasibility is peak <= budget. A schedule the validator rejects is an
/// internal error of \p solverName.
llvm::Expected<PlanResult> finishPlan(const RematProblem &problem,
                                      Schedule schedule, uint64_t budgetBytes,
                                      llvm::StringRef solverName,
                                      const SolveTimer &timer);

/// A result for a budget the solver could not meet.
PlanResult infeasiblePlan(llvm::StringRef solverName, const SolveTimer &timer);

/// The error of a MILP solver whose model of a graph of \p nodes nodes
/// (\p model names it) was not built within \p seconds.
llvm::Error modelNotBuiltInTime(llvm::StringRef solverName,
                                llvm::StringRef model, unsigned nodes,
                                double seconds, llvm::StringRef alternatives);

} // namespace planner
} // namespace ckpt

#endif // CKPT_LIB_PLANNER_PLANSUPPORT_H
