//===- OnDemandSimulation.h - Recompute-on-demand schedule builder --------===//
//
// Private to the planner library. Simulates the original order, computing
// every missing input on demand (recursively), dropping values by rule or by
// eviction under a budget. The uniform and greedy solvers are configurations
// of it.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_PLANNER_ONDEMANDSIMULATION_H
#define CKPT_LIB_PLANNER_ONDEMANDSIMULATION_H

#include "ckpt/Planner/RematProblem.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace ckpt {
namespace planner {

/// How the simulation decides what to drop.
struct OnDemandConfig {
  /// Memory limit checked before every computation; when exceeded, values are
  /// evicted if evictUnderPressure is set, otherwise the simulation fails.
  uint64_t budgetBytes = std::numeric_limits<uint64_t>::max();
  /// Evict resident values to make room when the budget would be exceeded.
  bool evictUnderPressure = false;
  /// Eviction prefers bytes / recompute cost, weighted by
  /// (distance to next use + 1) ^ distanceExponent.
  double distanceExponent = 1.0;
  /// Per-node multipliers of the recompute cost in the eviction score (empty:
  /// all 1); infinity never evicts the node under pressure. The greedy
  /// solver's local search sets them from the schedules it tries.
  std::vector<double> evictionCostWeight;
  /// Count in a value's recompute cost every non-resident ancestor its
  /// recomputation would rebuild (up to a bounded number of them), instead
  /// of only its non-resident inputs.
  bool countEvictedAncestors = false;
  /// When a value's last use passes and the consumer just computed from it
  /// is larger, still needed and recomputable, keep the value as that
  /// consumer's source: evicting the consumer then costs only its own
  /// recomputation. A retained value is evicted like any other and freed
  /// once its consumer has no uses left.
  bool retainSources = false;
  /// For each node, the stage after which its value is dropped even without
  /// memory pressure (when it can still be rematerialized later); nullopt
  /// keeps it until its last use.
  std::vector<std::optional<NodeIndex>> dropAfterStage;
  /// For each node (empty: none), a stage before which its value is not
  /// freed when its uses are over: a checkpoint the backward recomputes a
  /// segment from. It is not evicted while kept without uses.
  std::vector<std::optional<NodeIndex>> keepUntilStage;
};

/// What a simulation did.
struct OnDemandOutcome {
  /// The computations in order; partial when the budget was not met.
  std::vector<NodeIndex> sequence;
  /// True when every stage ran within the budget.
  bool metBudget = false;
  /// Stages completed (problem size when the budget was met): how far a
  /// failed simulation got.
  NodeIndex stagesDone = 0;
  /// Stages, computations and eviction candidates scored: a deterministic
  /// measure of the running time, for callers that ration simulations.
  uint64_t work = 0;
};

/// Simulates the original order under \p config.
OnDemandOutcome simulateOnDemandOutcome(const RematProblem &problem,
                                        const OnDemandConfig &config);

/// Returns the computations in order, or nullopt when the budget cannot be
/// met. The caller inserts the frees with scheduleFromComputeSequence, which
/// only frees earlier than the simulation assumed, so the budget still holds.
std::optional<std::vector<NodeIndex>>
simulateOnDemand(const RematProblem &problem, const OnDemandConfig &config);

} // namespace planner
} // namespace ckpt

#endif // CKPT_LIB_PLANNER_ONDEMANDSIMULATION_H
