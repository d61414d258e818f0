//===- PlannedRemat.h - planner schedules applied to a function --*- C++
//-*-===//
//
// The planner solvers of ckpt-remat (auto, greedy, chain-dp, ilp,
// uniform:K, none) on a function's buffer graph, their schedules applied as
// recompute regions and measured by the forecast.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_REMAT_PLANNEDREMAT_H
#define CKPT_LIB_REMAT_PLANNEDREMAT_H

#include "RematOutcome.h"
#include "RematSupport.h"

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Planner/Solvers.h"

namespace mlir::ckpt {

/// Plans `func` (analyzed as `timeline`) for `outcome.budgetBytes` with
/// `spec` and replaces it by the best rewritten trial whose forecast peak is
/// below the baseline. The first plan aims at the budget shifted by the
/// difference between the planner's model and the forecast; if the forecast
/// exceeds the budget the plan is redone aiming lower (to `minimize`, the
/// ILP and auto are asked for less while the forecast goes down). Below
/// what the model can reach it plans at the smallest peak found, for
/// greedy-peak to finish. Leaves `func` as it is (solver `greedy-peak`)
/// when no plan lowers the peak; fails with a diagnostic when the solver
/// cannot plan at all.
LogicalResult planFunction(ModuleOp module, func::FuncOp &func,
                           const ActivationTimeline &timeline,
                           const ::ckpt::planner::SolverSpec &spec,
                           const DeviceTarget &target, double timeLimitSeconds,
                           bool minimize, TrialFunctions &trials,
                           FunctionOutcome &outcome);

/// Writes the planner problem of `timeline`'s function to `path` as
/// ckpt-plan's graph JSON.
LogicalResult writeRematGraph(const ActivationTimeline &timeline,
                              const DeviceTarget &target, StringRef path);

} // namespace mlir::ckpt

#endif // CKPT_LIB_REMAT_PLANNEDREMAT_H
