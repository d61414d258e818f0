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
  /// For each node, the stage after which its value is dropped even without
  /// memory pressure (when it can still be rematerialized later); nullopt
  /// keeps it until its last use.
  std::vector<std::optional<NodeIndex>> dropAfterStage;
};

/// Returns the computations in order, or nullopt when the budget cannot be
/// met. The caller inserts the frees with scheduleFromComputeSequence, which
/// only frees earlier than the simulation assumed, so the budget still holds.
std::optional<std::vector<NodeIndex>>
simulateOnDemand(const RematProblem &problem, const OnDemandConfig &config);

} // namespace planner
} // namespace ckpt

#endif // CKPT_LIB_PLANNER_ONDEMANDSIMULATION_H
