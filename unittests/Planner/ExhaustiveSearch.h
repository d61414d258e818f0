//===- ExhaustiveSearch.h - Reference optima for small problems -----------===//
//
// Test oracles, deliberately written independently of the solvers: a search
// over all schedules, and a search over the ILP's retention class.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_UNITTESTS_PLANNER_EXHAUSTIVESEARCH_H
#define CKPT_UNITTESTS_PLANNER_EXHAUSTIVESEARCH_H

#include "ckpt/Planner/RematProblem.h"

#include <cstdint>
#include <optional>
#include <random>
#include <utility>
#include <vector>

namespace ckpt {
namespace planner {
namespace testing {

/// Least cost over all valid schedules (any order, any number of
/// recomputations) with peak <= budget, by Dijkstra over (resident set,
/// computed-at-least-once set). Problems of at most 10 nodes with default
/// policies. With \p keepOriginalOrder, nodes are computed for the first
/// time in original order (recomputations are still free to go anywhere),
/// as when a rewriter keeps the program order and only inserts recomputes.
std::optional<uint64_t> unrestrictedOptimalCost(const RematProblem &problem,
                                                uint64_t budgetBytes,
                                                bool keepOriginalOrder = false);

/// Least cost with peak <= budget over solveExact's class, by Dijkstra over
/// (resident set, stage, last index computed in the stage): stage t
/// computes earlier values in increasing index order and ends with node t's
/// first computation, a final stage computes any values in increasing index
/// order and ends with every output resident; any value may be freed at any
/// time (a computation may write into its overwritable input, freed right
/// after it; a computation holds its workspace too). Problems of at most 12 nodes; must_recompute is not
/// modeled.
std::optional<uint64_t> programOrderOptimalCost(const RematProblem &problem,
                                                uint64_t budgetBytes);

/// The optima of solveILP's schedule class without a depth limit and
/// without greedy's patterns: first computations in original order; stage
/// s recomputes, in index order, values whose only recomputation is in s;
/// every value is freed right after its last read before its next
/// computation (right after its computation when nothing reads it before
/// then). Enumerates
/// every choice of recomputation stage per value once (validating each
/// schedule) and answers every budget from the resulting frontier.
/// Problems of at most 10 nodes (8 in practice: about n! schedules).
class RetentionClassSearch {
public:
  explicit RetentionClassSearch(const RematProblem &problem);
  /// Least cost with peak <= \p budgetBytes, or nullopt when none fits.
  std::optional<uint64_t> optimalCost(uint64_t budgetBytes) const;

private:
  /// (peak, least cost at that peak or below), peaks ascending, costs
  /// strictly descending.
  std::vector<std::pair<uint64_t, uint64_t>> frontier;
};

/// A random DAG in topological order: node v > 0 reads 1-2 earlier nodes; the
/// second half is marked backward; sizes and costs in [1, 9].
RematProblem randomDAG(unsigned nodeCount, std::mt19937 &rng);

/// randomDAG where half the nodes may write into their first input
/// (RematNode::overwritableInput), with that input's size, and a third need
/// a workspace of 1-9 bytes (the last node always).
RematProblem randomOverwritingDAG(unsigned nodeCount, std::mt19937 &rng);

/// A random training chain of \p layers layers (see solveChainDP) with sizes
/// and costs in [1, 9] and random derivative inputs.
RematProblem randomTrainingChain(unsigned layers, std::mt19937 &rng);

/// A random DAG with random policies, non-recomputable nodes, zero-byte
/// views and constant bytes, for validity sweeps.
RematProblem randomPolicyDAG(unsigned nodeCount, std::mt19937 &rng);

} // namespace testing
} // namespace planner
} // namespace ckpt

#endif // CKPT_UNITTESTS_PLANNER_EXHAUSTIVESEARCH_H
