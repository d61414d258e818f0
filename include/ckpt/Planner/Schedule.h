//===- Schedule.h - Compute/free schedules and their validator ------------===//
//
// A schedule is the planner's output: a sequence of `compute v` and `free v`
// steps. The validator replays it and measures peak bytes and cost without
// trusting anything a solver claims.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_PLANNER_SCHEDULE_H
#define CKPT_PLANNER_SCHEDULE_H

#include "ckpt/Planner/RematProblem.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace ckpt {
namespace planner {

/// What a schedule step does.
enum class StepKind {
  /// Compute the node's output (its inputs must be resident).
  Compute,
  /// Release the node's output.
  Free,
};

/// One step of a schedule.
struct ScheduleStep {
  /// Compute or free.
  StepKind kind;
  /// The node computed or freed.
  NodeIndex node;

  bool operator==(const ScheduleStep &other) const {
    return kind == other.kind && node == other.node;
  }
};

/// A sequence of steps.
using Schedule = std::vector<ScheduleStep>;

/// What the validator measured on a valid schedule.
struct ScheduleMetrics {
  /// Maximum over compute steps of constant bytes plus resident outputs,
  /// including the output being computed (unless the computation writes
  /// into an input freed right after it: inputFreedRightAfter).
  uint64_t peakBytes = 0;
  /// Sum of compute costs over all compute steps.
  uint64_t costUnits = 0;
  /// Number of compute steps beyond the first computation of each node.
  unsigned recomputeCount = 0;
};

/// True when the compute step at \p stepIndex of \p schedule has an
/// overwritable input (RematProblem::overwritableInput) that the frees right
/// after it release. The computation, first or a recomputation, then writes
/// into that input's buffer and adds no bytes (a recomputation's region is
/// given the input's buffer: `ckpt.recompute`'s `donated` inputs).
bool inputFreedRightAfter(const RematProblem &problem,
                          llvm::ArrayRef<ScheduleStep> schedule,
                          size_t stepIndex);

/// Replays \p schedule on \p problem and returns its peak and cost, or an
/// error naming the first violated rule: a compute whose inputs are not
/// resident, a compute of a resident value, a free of a non-resident value,
/// a node never computed, an output not resident at the end, a
/// non-recomputable or must_save node computed twice, or a must_recompute
/// copy that serves both a forward-phase consumer's first computation and a
/// backward-phase consumer.
llvm::Expected<ScheduleMetrics>
validateSchedule(const RematProblem &problem,
                 llvm::ArrayRef<ScheduleStep> schedule);

/// Turns a sequence of computations into a schedule by inserting each free
/// as early as possible: a value is freed right after its last use before
/// its next computation, outputs are never freed after their final
/// computation. Inputs of a computation are freed after it, so they count in
/// its step.
Schedule scheduleFromComputeSequence(const RematProblem &problem,
                                     llvm::ArrayRef<NodeIndex> computeSequence);

/// The baseline: every node computed once in original order, each non-output
/// value freed after its last use.
Schedule baselineSchedule(const RematProblem &problem);

/// Peak bytes of the baseline schedule.
uint64_t baselinePeakBytes(const RematProblem &problem);

} // namespace planner
} // namespace ckpt

#endif // CKPT_PLANNER_SCHEDULE_H
