//===- RematReport.h - the report of ckpt-remat -----------------*- C++ -*-===//
//
// Per function: the solver, the budget and how it was set, the peaks before
// and after, every recomputation, the saved residuals, the extra FLOPs and
// time, the planner model's view, the solve time, and why a function failed.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_REMAT_REMATREPORT_H
#define CKPT_LIB_REMAT_REMATREPORT_H

#include "RematOutcome.h"

#include "ckpt/Analysis/CostModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <utility>

namespace mlir::ckpt {

/// Fills `outcome.saved` with the forward values `func` keeps for the
/// backward pass after remat, each with why it is kept.
LogicalResult collectSavedResiduals(ModuleOp module, func::FuncOp func,
                                    FunctionOutcome &outcome);

/// The extra FLOPs and estimated seconds of `outcome`'s recomputations.
std::pair<int64_t, double> sumRecomputation(const FunctionOutcome &outcome);

/// Writes the report of `outcomes` to `path` ('-': standard output) as
/// `format` (`json` or `table`); an error at `loc` when the file cannot be
/// written.
LogicalResult writeRematReport(StringRef path, StringRef format,
                               ArrayRef<FunctionOutcome> outcomes,
                               const DeviceTarget &target, Location loc);

} // namespace mlir::ckpt

#endif // CKPT_LIB_REMAT_REMATREPORT_H
