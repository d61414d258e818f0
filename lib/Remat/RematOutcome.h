//===- RematOutcome.h - what ckpt-remat did to one function ------*- C++
//-*-===//
//
// The record the remat solvers fill in and the report prints.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_REMAT_REMATOUTCOME_H
#define CKPT_LIB_REMAT_REMATOUTCOME_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::ckpt {

/// One recomputation in the result.
struct RematStep {
  /// The recomputed value: its `ckpt.name`, or the name of its op.
  std::string value;
  /// Where the value is computed first.
  std::string location;
  /// Where the recomputation is (the location of its first reader).
  std::string where;
  int64_t bytes = 0;
  int64_t flops = 0;
  double seconds = 0;
  /// For greedy-peak steps: the forecast peak before and after the step.
  std::optional<int64_t> peakBefore, peakAfter;
};

/// A forward value kept for the backward pass in the result.
struct SavedResidual {
  std::string value;
  std::string location;
  std::string type;
  int64_t bytes = 0;
  /// `must_save policy`, `not recomputable` or `kept by the solver`.
  std::string reason;
};

/// Why a function could not be rematerialized, as data (the report's
/// `error` object).
struct RematFailure {
  /// `infeasible-budget`: no schedule found meets the budget.
  std::string kind;
  /// The smallest peak found (for infeasible-budget).
  int64_t smallestPeakBytes = 0;
};

/// What happened to one function.
struct FunctionOutcome {
  std::string name;
  /// How the budget was set: `given`, `min` or `auto` (the knee).
  std::string budgetRule = "given";
  /// Set when greedy-peak found no step lowering the peak above the budget
  /// (no diagnostic emitted yet).
  bool stuck = false;
  /// The solver that produced the result (`greedy+greedy-peak` when
  /// greedy-peak finished a plan).
  std::string solver;
  int64_t budgetBytes = 0;
  int64_t baselinePeakBytes = 0;
  int64_t peakBytes = 0;
  /// FLOPs of the function before remat (the denominator of the overhead).
  int64_t baselineFlops = 0;
  SmallVector<RematStep> steps;
  std::vector<SavedResidual> saved;
  double solveSeconds = 0;
  /// The planner's view, when a planner solver ran: the baseline and
  /// planned peaks of its model, the planned cost against the baseline's
  /// (estimated nanoseconds), the optimality gap and lower bound on the
  /// cost when known, the class they hold for, and whether the plan is
  /// proven optimal over every program-order schedule.
  bool planned = false;
  int64_t modelBaselinePeakBytes = 0;
  int64_t modelPeakBytes = 0;
  uint64_t modelCostUnits = 0;
  uint64_t modelBaselineCostUnits = 0;
  std::optional<double> optimalityGap;
  std::optional<uint64_t> lowerBoundCostUnits;
  std::string formulation = "none";
  bool isProvenOptimal = false;
  /// Planner schedules the IR could not take (applySchedule failed), each
  /// followed by a plan aiming a little lower.
  unsigned unappliablePlans = 0;
  /// Set when no schedule met the budget and on-infeasible=min applied the
  /// smallest peak found instead (peakBytes > budgetBytes).
  bool budgetMissed = false;
  /// Set when the function could not be rematerialized.
  std::optional<RematFailure> failure;
};

} // namespace mlir::ckpt

#endif // CKPT_LIB_REMAT_REMATOUTCOME_H
