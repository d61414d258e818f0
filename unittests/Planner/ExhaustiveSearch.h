//===- ExhaustiveSearch.h - Reference optima for small problems -----------===//
//
// Test oracles, deliberately written independently of the solvers: a search
// over all schedules, and a search over the ILP's stage-schedule class.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_UNITTESTS_PLANNER_EXHAUSTIVESEARCH_H
#define CKPT_UNITTESTS_PLANNER_EXHAUSTIVESEARCH_H

#include "ckpt/Planner/RematProblem.h"

#include <cstdint>
#include <optional>
#include <random>

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

/// Least cost within the stage class of solveILP (stage t recomputes some
/// ancestors of t in index order, then computes t; frees after the last read
/// inside a stage), by dynamic programming over the set of values resident at
/// each stage start, enumerating every set of recomputations and of values
/// held into the next stage; a final stage may recompute outputs. With
/// \p recomputeDepth > 0 a stage recomputes only nodes at most that many
/// edges upstream of its node (SolverOptions::ilpRecomputeDepth). Problems of
/// at most 10 nodes.
std::optional<uint64_t> stageClassOptimalCost(const RematProblem &problem,
                                              uint64_t budgetBytes,
                                              unsigned recomputeDepth = 0);

/// A random DAG in topological order: node v > 0 reads 1-2 earlier nodes; the
/// second half is marked backward; sizes and costs in [1, 9].
RematProblem randomDAG(unsigned nodeCount, std::mt19937 &rng);

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
