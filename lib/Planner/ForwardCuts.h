//===- ForwardCuts.h - Where the forward pass narrows ---------------------===//
//
// Private to the planner library. A forward cut is a point of the forward
// pass where the values later forward computations still read are fewest
// in bytes: a transformer's residual stream between blocks, a CNN's block
// outputs. Keeping only what crosses some of the cuts and dropping every
// other forward value after its forward use is segment checkpointing
// (`torch.utils.checkpoint` per block), found on the graph instead of being
// written by hand; the on-demand simulation then recomputes each segment
// when the backward first needs it.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_PLANNER_FORWARDCUTS_H
#define CKPT_LIB_PLANNER_FORWARDCUTS_H

#include "OnDemandSimulation.h"

#include "ckpt/Planner/RematProblem.h"

#include <optional>
#include <vector>

namespace ckpt {
namespace planner {

/// The forward values crossing one cut.
struct ForwardCut {
  /// The last forward node before the cut.
  NodeIndex position = 0;
  /// Forward values computed at or before position and read by a forward
  /// node after it.
  std::vector<NodeIndex> crossing;
};

/// The forward cuts of \p problem in program order: the positions where the
/// bytes crossing the cut are a local minimum (the last position of a run
/// of equal minima).
std::vector<ForwardCut> findForwardCuts(const RematProblem &problem);

/// Sets \p config up for segment checkpointing at every \p stride-th cut
/// of \p cuts, counted from the last one: what crosses those cuts is kept
/// until the backward has read the last value of the segment that follows
/// (OnDemandConfig::keepUntilStage), and every other recomputable forward
/// value that the backward reads is dropped after its last forward consumer
/// (OnDemandConfig::dropAfterStage; drops already set stay).
void checkpointSegments(const RematProblem &problem,
                        const std::vector<ForwardCut> &cuts, unsigned stride,
                        OnDemandConfig &config);

} // namespace planner
} // namespace ckpt

#endif // CKPT_LIB_PLANNER_FORWARDCUTS_H
