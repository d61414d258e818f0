//===- ForwardCutsTest.cpp - Segment checkpointing on residual stacks -----===//
//
// The forward cuts of a residual stack are its block boundaries, and the
// smallest peak the planner finds is at most per-block checkpointing's,
// worked out by hand below.
//
//===----------------------------------------------------------------------===//

#include "ForwardCuts.h"

#include "ckpt/Planner/Solvers.h"

#include "gtest/gtest.h"

using namespace ckpt::planner;

namespace {

/// Sizes of the residual stack's values.
constexpr uint64_t kStream = 2;   // x_i, c_i, the residual stream, and d_i
constexpr uint64_t kInside = 16;  // a_i and b_i, an MLP's inner values
constexpr uint64_t kGradient = 1; // a parameter gradient

/// Node indices of the stack built by residualStack().
struct StackNodes {
  std::vector<unsigned> x, a, b, c;
};

/// \p blocks pre-norm MLP blocks, x_{i+1} = x_i + c_i with n_i = norm(x_i)
/// (cheap), a_i = n_i W1 (a matmul: costly), b_i = gelu(a_i) (cheap),
/// c_i = b_i W2 (costly), a loss on x_L, and the backward as an autodiff
/// pass emits it: db_i = d_{i+1} W2^T, dW2_i from b_i and d_{i+1}, da_i from
/// db_i and a_i, dW1_i from n_i and da_i, d_i = d_{i+1} + da_i W1^T (the
/// norm's own gradient left out). The backward reads no stream x_i.
RematProblem residualStack(unsigned blocks, StackNodes &ids) {
  std::vector<RematNode> nodes;
  std::vector<std::pair<unsigned, unsigned>> edges;
  auto add = [&](const char *name, uint64_t bytes, uint64_t cost, bool backward,
                 std::initializer_list<unsigned> inputs) {
    RematNode node;
    node.externalId = nodes.size();
    node.name = name;
    node.outputBytes = bytes;
    node.computeCostUnits = cost;
    node.isBackward = backward;
    nodes.push_back(node);
    for (unsigned input : inputs)
      edges.push_back({input, static_cast<unsigned>(nodes.size() - 1)});
    return static_cast<unsigned>(nodes.size() - 1);
  };
  constexpr uint64_t matmul = 100, elementwise = 1;
  std::vector<unsigned> &a = ids.a, &b = ids.b, &c = ids.c, n;
  ids.x.push_back(add("x0", kStream, elementwise, false, {}));
  for (unsigned i = 0; i < blocks; ++i) {
    n.push_back(add("n", kStream, elementwise, false, {ids.x[i]}));
    a.push_back(add("a", kInside, matmul, false, {n[i]}));
    b.push_back(add("b", kInside, elementwise, false, {a[i]}));
    c.push_back(add("c", kStream, matmul, false, {b[i]}));
    ids.x.push_back(add("x", kStream, elementwise, false, {ids.x[i], c[i]}));
  }
  unsigned loss = add("loss", 1, elementwise, false, {ids.x[blocks]});
  unsigned d = add("dloss", kStream, elementwise, true, {ids.x[blocks], loss});
  for (unsigned i = blocks; i-- > 0;) {
    unsigned db = add("db", kInside, matmul, true, {d});
    add("dW2", kGradient, matmul, true, {b[i], d});
    unsigned da = add("da", kInside, elementwise, true, {db, a[i]});
    add("dW1", kGradient, matmul, true, {n[i], da});
    d = add("d", kStream, matmul, true, {d, da});
  }
  llvm::Expected<RematProblem> problem = RematProblem::create(nodes, edges);
  EXPECT_TRUE(static_cast<bool>(problem))
      << llvm::toString(problem.takeError());
  return std::move(*problem);
}

TEST(ForwardCutsTest, CutsAreTheBlockBoundaries) {
  StackNodes ids;
  RematProblem problem = residualStack(6, ids);
  std::vector<ForwardCut> cuts = findForwardCuts(problem);
  // x_0 .. x_5 cross alone (x_6 only reaches the loss, the last position).
  std::vector<NodeIndex> crossing;
  for (const ForwardCut &cut : cuts) {
    if (cut.crossing.empty())
      continue;
    ASSERT_EQ(cut.crossing.size(), 1u) << "at node " << cut.position;
    crossing.push_back(cut.crossing.front());
  }
  std::vector<NodeIndex> expected(ids.x.begin(), ids.x.end());
  expected.pop_back();
  EXPECT_EQ(crossing, expected);
}

TEST(ForwardCutsTest, SegmentsRecomputeEachBlockOnceFromItsInput) {
  constexpr unsigned blocks = 6;
  StackNodes ids;
  RematProblem problem = residualStack(blocks, ids);
  std::vector<ForwardCut> cuts = findForwardCuts(problem);
  for (unsigned stride : {1u, 2u, 3u}) {
    OnDemandConfig config;
    checkpointSegments(problem, cuts, stride, config);
    std::optional<std::vector<NodeIndex>> sequence =
        simulateOnDemand(problem, config);
    ASSERT_TRUE(sequence.has_value()) << "stride " << stride;
    std::vector<unsigned> computed(problem.size(), 0);
    for (NodeIndex v : *sequence)
      ++computed[v];
    // The cuts are x_0..x_{L-1} and the loss (nothing crosses it): kept
    // streams are computed once, the others (x_L, read by the loss's
    // gradient, among them) once more when the backward reaches them, and
    // c_i with x_{i+1}; a block's a_i and b_i, read by the backward, once
    // more each.
    auto isKept = [&](unsigned i) {
      return i < blocks && (blocks - i) % stride == 0;
    };
    for (unsigned i = 0; i <= blocks; ++i)
      EXPECT_EQ(computed[ids.x[i]], isKept(i) ? 1u : 2u)
          << "x" << i << " stride " << stride;
    for (unsigned i = 0; i < blocks; ++i) {
      EXPECT_EQ(computed[ids.a[i]], 2u) << "a" << i << " stride " << stride;
      EXPECT_EQ(computed[ids.b[i]], 2u) << "b" << i << " stride " << stride;
      EXPECT_EQ(computed[ids.c[i]], isKept(i + 1) ? 1u : 2u)
          << "c" << i << " stride " << stride;
    }
    llvm::Expected<ScheduleMetrics> metrics = validateSchedule(
        problem, scheduleFromComputeSequence(problem, *sequence));
    ASSERT_TRUE(static_cast<bool>(metrics))
        << llvm::toString(metrics.takeError());
    EXPECT_LT(metrics->peakBytes, baselinePeakBytes(problem));
  }
}

TEST(ForwardCutsTest, SmallestPeakIsAtMostPerBlockCheckpointing) {
  for (unsigned blocks : {4u, 8u, 16u}) {
    StackNodes ids;
    RematProblem problem = residualStack(blocks, ids);
    // Keeping x_0..x_L and recomputing one block at a time: during block
    // i's backward at most the streams x_0..x_i, the parameter gradients
    // computed so far, the block's a_i and b_i (recomputed), db_i and da_i,
    // and four of n_i, d_{i+1}, d_i, c_i.
    uint64_t perBlock = (blocks + 1) * kStream + 2 * blocks * kGradient +
                        4 * kInside + 4 * kStream;
    // Keeping everything holds every block's inner values.
    EXPECT_GT(baselinePeakBytes(problem), 2 * blocks * kInside);
    uint64_t smallest = smallestFeasiblePeakFound(problem);
    EXPECT_LE(smallest, perBlock) << blocks << " blocks";
    llvm::Expected<PlanResult> plan =
        planRemat(problem, smallest, {SolverKind::Greedy, 1});
    ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
    EXPECT_LE(plan->peakBytes, smallest);
  }
}

} // namespace
