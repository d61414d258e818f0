//===- MixedIntegerProgram.h - MILP models solved with CBC ----------------===//
//
// Private to the planner library: the column-wise model the ILP solvers
// build, the memory unit their knapsack rows are written in, and one call
// that hands a model to CBC with a time limit and a starting solution.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_PLANNER_MIXEDINTEGERPROGRAM_H
#define CKPT_LIB_PLANNER_MIXEDINTEGERPROGRAM_H

#include "ckpt/Planner/RematProblem.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace ckpt {
namespace planner {

/// CBC treats DBL_MAX as infinity in row bounds.
constexpr double kUnboundedRow = std::numeric_limits<double>::max();

/// Rows and columns accumulated before handing them to CBC in one call.
struct MixedIntegerProgram {
  std::vector<double> objective, lower, upper;
  std::vector<bool> isInteger;
  std::vector<std::vector<std::pair<int, double>>> columnEntries;
  std::vector<double> rowLower, rowUpper;

  /// Adds a column and returns its index.
  int addColumn(double cost, double low, double high, bool integer);
  /// Adds a binary column.
  int addBinary(double cost) { return addColumn(cost, 0, 1, true); }
  /// Adds the row low <= sum(terms) <= high; repeated columns are summed and
  /// zero terms dropped.
  void addRow(llvm::ArrayRef<std::pair<int, double>> terms, double low,
              double high);
  /// Number of columns.
  int columns() const { return objective.size(); }
};

/// The unit memory rows are written in: the gcd of the problem's value sizes
/// keeps every row integral, so the budget is met exactly; with a very wide
/// range of sizes a scaled unit and a conservative margin (the validator has
/// the last word).
class MemoryUnit {
public:
  explicit MemoryUnit(const RematProblem &problem);
  /// \p bytes in the unit.
  double weight(uint64_t bytes) const { return bytes / unit; }
  /// The right-hand side of a row that allows \p roomBytes.
  double capacity(int64_t roomBytes) const;

private:
  double unit = 1;
  bool isExact = true;
};

/// What CBC returned.
struct MilpSolution {
  /// The incumbent's column values; empty when CBC found none.
  std::vector<double> values;
  /// The incumbent's objective.
  double objective = 0;
  /// CBC's best bound on the objective.
  double bound = 0;
  /// The incumbent is optimal: proven, or within one unit of the bound (the
  /// objectives are integral).
  bool isOptimal = false;
};

/// Solves \p model with CBC within \p seconds of wall-clock time from the
/// partial start \p startColumns = \p startValues (may be empty), without
/// CLP's presolve (it trips assertions of Debian's build on some of these
/// models) and without CBC's preprocessing (it substitutes the retention
/// ILP's recurrences back into dense rows, and Debian's build crashes in
/// CglPreProcess::postProcess on some of the exact model's instances).
MilpSolution solveWithCbc(const MixedIntegerProgram &model, double seconds,
                          llvm::ArrayRef<int> startColumns,
                          llvm::ArrayRef<double> startValues);

} // namespace planner
} // namespace ckpt

#endif // CKPT_LIB_PLANNER_MIXEDINTEGERPROGRAM_H
