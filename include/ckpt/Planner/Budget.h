//===- Budget.h - Memory budget grammar -------------------------*- C++ -*-===//
//
// The budget grammar shared by ckpt-plan, the remat pass, the C API and
// Python: bytes, a fraction or percentage of the baseline peak, `min` or
// `auto`.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_PLANNER_BUDGET_H
#define CKPT_PLANNER_BUDGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace ckpt {
namespace planner {

/// A memory budget as the user wrote it: either a fraction of the baseline
/// (un-rematerialized) peak or an absolute byte count.
class MemoryBudget {
public:
  /// A budget of \p fraction × baseline peak; \p fraction is in (0, 1].
  static MemoryBudget fractionOfBaseline(double fraction);
  /// A budget of exactly \p bytes.
  static MemoryBudget absoluteBytes(uint64_t bytes);

  /// True for a fraction of the baseline peak.
  bool isFraction() const { return fraction > 0; }
  /// The fraction, valid when isFraction().
  double getFraction() const { return fraction; }
  /// The byte count, valid when !isFraction().
  uint64_t getBytes() const { return bytes; }

  /// The budget in bytes for a problem whose baseline peak is
  /// \p baselinePeakBytes (a fraction is rounded down).
  uint64_t resolveBytes(uint64_t baselinePeakBytes) const;

  /// Spells the budget back in the grammar (`70%`, `536870912B`).
  std::string str() const;

private:
  double fraction = 0;
  uint64_t bytes = 0;
};

/// Parses a budget:
///   - a number with a decimal point is a fraction of the baseline peak in
///     (0, 1]: `0.7`, `1.0`, `.5`;
///   - a number followed by `%` is a percentage in (0, 100]: `70%`, `12.5%`;
///   - an integer with an optional unit is bytes: `123456`, `123456B`,
///     `512KiB`, `512MiB`, `2GiB` (powers of 1024), `512KB`, `512MB`, `2GB`
///     (powers of 1000).
/// Surrounding blanks are ignored. Anything else, a fraction outside (0, 1],
/// zero bytes or a byte count that overflows 64 bits is an error whose
/// message lists the accepted forms.
llvm::Expected<MemoryBudget> parseMemoryBudget(llvm::StringRef text);

/// A budget as every ckpt tool takes it: a memory budget (bytes or a
/// fraction), `min` (the smallest peak the solvers find) or `auto` (the knee
/// of the memory/recompute trade-off).
struct BudgetRequest {
  enum class Kind { Memory, Minimum, Knee };
  Kind kind = Kind::Memory;
  /// The budget, for Kind::Memory.
  MemoryBudget memory;

  /// How the budget is set, as reports spell it: `given`, `min` or `auto`.
  llvm::StringRef rule() const;
};

/// Parses parseMemoryBudget's grammar, `min` or `auto` (blanks around them
/// ignored); the error lists every accepted form.
llvm::Expected<BudgetRequest> parseBudgetRequest(llvm::StringRef text);

} // namespace planner
} // namespace ckpt

#endif // CKPT_PLANNER_BUDGET_H
