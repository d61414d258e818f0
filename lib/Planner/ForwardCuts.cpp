//===- ForwardCuts.cpp - Where the forward pass narrows -------------------===//

#include "ForwardCuts.h"

#include "llvm/ADT/STLExtras.h"

using namespace ckpt::planner;

std::vector<ForwardCut>
ckpt::planner::findForwardCuts(const RematProblem &problem) {
  unsigned n = problem.size();
  // Bytes crossing the point after each node: a forward value crosses from
  // its own position to its last forward consumer's.
  std::vector<int64_t> delta(n + 1, 0);
  std::vector<NodeIndex> forward;
  std::vector<std::optional<NodeIndex>> lastForward(n);
  for (NodeIndex v = 0; v < n; ++v) {
    if (problem.node(v).isBackward)
      continue;
    forward.push_back(v);
    lastForward[v] = problem.lastForwardConsumer(v);
    if (!lastForward[v])
      continue;
    delta[v] += problem.bytes(v);
    delta[*lastForward[v]] -= problem.bytes(v);
  }
  std::vector<uint64_t> crossingBytes(n, 0);
  int64_t running = 0;
  for (NodeIndex v = 0; v < n; ++v) {
    running += delta[v];
    crossingBytes[v] = running;
  }

  // Local minima over the forward positions; of a run of equal values, the
  // last position, and only when the run is lower than what precedes it.
  std::vector<NodeIndex> positions;
  std::optional<uint64_t> before;
  for (size_t i = 0; i < forward.size(); ++i) {
    uint64_t here = crossingBytes[forward[i]];
    bool lowerAfter =
        i + 1 == forward.size() || here < crossingBytes[forward[i + 1]];
    bool runEnds =
        i + 1 == forward.size() || here != crossingBytes[forward[i + 1]];
    if (lowerAfter && (!before || here < *before))
      positions.push_back(forward[i]);
    if (runEnds)
      before = here;
  }

  // What crosses each cut, in one sweep.
  std::vector<ForwardCut> cuts;
  std::vector<NodeIndex> active;
  size_t next = 0;
  for (NodeIndex v : forward) {
    if (lastForward[v])
      active.push_back(v);
    if (next == positions.size() || positions[next] != v)
      continue;
    ++next;
    ForwardCut cut;
    cut.position = v;
    llvm::erase_if(active, [&](NodeIndex u) { return *lastForward[u] <= v; });
    cut.crossing = active;
    cuts.push_back(std::move(cut));
  }
  return cuts;
}

void ckpt::planner::checkpointSegments(const RematProblem &problem,
                                       const std::vector<ForwardCut> &cuts,
                                       unsigned stride,
                                       OnDemandConfig &config) {
  unsigned n = problem.size();
  config.dropAfterStage.resize(n);
  config.keepUntilStage.assign(n, std::nullopt);
  std::vector<bool> kept(n, false);
  // The last stage reading a forward value: the latest a recomputation
  // from a checkpoint before it can happen.
  auto lastBackwardUse = [&](NodeIndex v) -> std::optional<NodeIndex> {
    if (!problem.firstBackwardConsumer(v))
      return std::nullopt;
    return problem.successors(v).back();
  };
  std::optional<NodeIndex> segmentEnd;
  for (size_t j = cuts.size(); j-- > 0;) {
    if ((cuts.size() - 1 - j) % stride != 0)
      continue;
    // The segment after cut j ends at the next kept cut (or the forward's
    // end).
    std::optional<NodeIndex> until;
    NodeIndex end = segmentEnd ? *segmentEnd : n;
    for (NodeIndex w = cuts[j].position + 1; w < n && w <= end; ++w)
      if (!problem.node(w).isBackward)
        if (std::optional<NodeIndex> use = lastBackwardUse(w))
          until = until ? std::max(*until, *use) : *use;
    for (NodeIndex v : cuts[j].crossing) {
      kept[v] = true;
      if (until &&
          (!config.keepUntilStage[v] || *config.keepUntilStage[v] < *until))
        config.keepUntilStage[v] = until;
    }
    segmentEnd = cuts[j].position;
  }
  for (NodeIndex v = 0; v < n; ++v) {
    if (kept[v] || config.dropAfterStage[v] || problem.node(v).isBackward ||
        !problem.mayRecompute(v) || !problem.firstBackwardConsumer(v))
      continue;
    if (std::optional<NodeIndex> last = problem.lastForwardConsumer(v))
      config.dropAfterStage[v] = last;
  }
}
