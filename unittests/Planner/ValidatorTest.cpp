//===- ValidatorTest.cpp - Schedule validator -----------------------------===//

#include "ckpt/Planner/Schedule.h"

#include "gtest/gtest.h"

using namespace ckpt::planner;

namespace {

/// a -> b -> c, a -> c; c is the output. Sizes 10, 20, 30; costs 1, 2, 3.
RematProblem triangle(RematPolicy policyOfA = RematPolicy::Default,
                      bool isARecomputable = true) {
  std::vector<RematNode> nodes(3);
  const char *names[] = {"a", "b", "c"};
  for (unsigned v = 0; v < 3; ++v) {
    nodes[v].externalId = v;
    nodes[v].name = names[v];
    nodes[v].outputBytes = 10 * (v + 1);
    nodes[v].computeCostUnits = v + 1;
  }
  nodes[0].policy = policyOfA;
  nodes[0].isRecomputable = isARecomputable;
  llvm::Expected<RematProblem> problem =
      RematProblem::create(nodes, {{0, 1}, {1, 2}, {0, 2}}, 5);
  EXPECT_TRUE(static_cast<bool>(problem));
  return std::move(*problem);
}

ScheduleStep compute(NodeIndex v) { return {StepKind::Compute, v}; }
ScheduleStep release(NodeIndex v) { return {StepKind::Free, v}; }

std::string errorOf(const RematProblem &problem, const Schedule &schedule) {
  llvm::Expected<ScheduleMetrics> metrics = validateSchedule(problem, schedule);
  if (metrics)
    return "";
  return llvm::toString(metrics.takeError());
}

TEST(ValidatorTest, MeasuresBaselinePeakAndCost) {
  RematProblem problem = triangle();
  Schedule baseline = baselineSchedule(problem);
  Schedule expected = {compute(0), compute(1), compute(2), release(0),
                       release(1)};
  EXPECT_EQ(baseline, expected);
  llvm::Expected<ScheduleMetrics> metrics = validateSchedule(problem, baseline);
  ASSERT_TRUE(static_cast<bool>(metrics));
  // Constant 5 + a 10 + b 20 + c 30 while c is computed.
  EXPECT_EQ(metrics->peakBytes, 65u);
  EXPECT_EQ(metrics->costUnits, 6u);
  EXPECT_EQ(metrics->recomputeCount, 0u);
  EXPECT_EQ(baselinePeakBytes(problem), 65u);
}

TEST(ValidatorTest, CountsRecomputationInCostNotPeak) {
  RematProblem problem = triangle();
  Schedule schedule = {compute(0), compute(1), release(0), compute(0),
                       compute(2), release(0), release(1)};
  llvm::Expected<ScheduleMetrics> metrics = validateSchedule(problem, schedule);
  ASSERT_TRUE(static_cast<bool>(metrics));
  EXPECT_EQ(metrics->peakBytes, 65u);
  EXPECT_EQ(metrics->costUnits, 7u);
  EXPECT_EQ(metrics->recomputeCount, 1u);
}

TEST(ValidatorTest, RejectsEachBrokenRule) {
  RematProblem problem = triangle();
  EXPECT_NE(errorOf(problem, {compute(1)}).find("needs non-resident input 'a'"),
            std::string::npos);
  EXPECT_NE(errorOf(problem, {compute(0), compute(0)}).find("already resident"),
            std::string::npos);
  EXPECT_NE(errorOf(problem, {release(0)}).find("free of non-resident"),
            std::string::npos);
  EXPECT_NE(errorOf(problem, {compute(0), compute(1)}).find("never computed"),
            std::string::npos);
  EXPECT_NE(errorOf(problem, {compute(0), compute(1), compute(2), release(2)})
                .find("output 'c' (id 2) is not resident"),
            std::string::npos);
  EXPECT_NE(errorOf(problem, {{StepKind::Compute, 7}}).find("out of range"),
            std::string::npos);
}

TEST(ValidatorTest, EnforcesComputeOnceNodes) {
  Schedule twice = {compute(0), compute(1), release(0), compute(0), compute(2)};
  EXPECT_EQ(errorOf(triangle(), twice), "");
  EXPECT_NE(errorOf(triangle(RematPolicy::MustSave), twice)
                .find("may not be "
                      "recomputed"),
            std::string::npos);
  EXPECT_NE(errorOf(triangle(RematPolicy::Default, false), twice)
                .find("may not be recomputed"),
            std::string::npos);
}

TEST(ValidatorTest, EnforcesMustRecomputeAcrossPhases) {
  // x -> m (must_recompute) -> y (forward) -> dy (backward), m -> dy.
  std::vector<RematNode> nodes(4);
  for (unsigned v = 0; v < 4; ++v) {
    nodes[v].externalId = v;
    nodes[v].name = "n" + std::to_string(v);
    nodes[v].outputBytes = 1;
    nodes[v].computeCostUnits = 1;
  }
  nodes[1].policy = RematPolicy::MustRecompute;
  nodes[3].isBackward = true;
  llvm::Expected<RematProblem> problem =
      RematProblem::create(nodes, {{0, 1}, {1, 2}, {2, 3}, {1, 3}});
  ASSERT_TRUE(static_cast<bool>(problem));
  EXPECT_TRUE(problem->needsPhaseSplit(1));
  EXPECT_EQ(problem->neededUntil(0), 3u);
  Schedule kept = {compute(0), compute(1), compute(2), compute(3)};
  EXPECT_NE(errorOf(*problem, kept).find("kept past its last forward use"),
            std::string::npos);
  Schedule recomputed = {compute(0), compute(1), compute(2),
                         release(1), compute(1), compute(3)};
  EXPECT_EQ(errorOf(*problem, recomputed), "");
}

TEST(RematProblemTest, SortsTopologicallyAndRejectsCycles) {
  std::vector<RematNode> nodes(3);
  for (unsigned v = 0; v < 3; ++v) {
    nodes[v].externalId = 10 + v;
    nodes[v].name = "n" + std::to_string(v);
  }
  // Given order 0, 1, 2 but 2 feeds 1: the stable order is 0, 2, 1.
  llvm::Expected<RematProblem> problem =
      RematProblem::create(nodes, {{0, 2}, {2, 1}});
  ASSERT_TRUE(static_cast<bool>(problem));
  EXPECT_EQ(problem->node(1).externalId, 12);
  EXPECT_EQ(problem->node(2).externalId, 11);

  llvm::Expected<RematProblem> cyclic =
      RematProblem::create(nodes, {{0, 1}, {1, 2}, {2, 1}});
  ASSERT_FALSE(static_cast<bool>(cyclic));
  EXPECT_NE(llvm::toString(cyclic.takeError()).find("cycle"),
            std::string::npos);
  llvm::Expected<RematProblem> selfLoop = RematProblem::create(nodes, {{1, 1}});
  ASSERT_FALSE(static_cast<bool>(selfLoop));
  llvm::consumeError(selfLoop.takeError());
}

/// x -> y -> z, y may write into x (same size 8), z reads y; constant 1.
RematProblem overwritingChain() {
  std::vector<RematNode> nodes(3);
  const char *names[] = {"x", "y", "z"};
  for (unsigned v = 0; v < 3; ++v) {
    nodes[v].externalId = v;
    nodes[v].name = names[v];
    nodes[v].outputBytes = v == 2 ? 4 : 8;
    nodes[v].computeCostUnits = 1;
  }
  nodes[1].overwritableInput = 0;
  llvm::Expected<RematProblem> problem =
      RematProblem::create(nodes, {{0, 1}, {1, 2}}, 1);
  EXPECT_TRUE(static_cast<bool>(problem)) << llvm::toString(problem.takeError());
  return std::move(*problem);
}

uint64_t peakOf(const RematProblem &problem, const Schedule &schedule) {
  llvm::Expected<ScheduleMetrics> metrics = validateSchedule(problem, schedule);
  EXPECT_TRUE(static_cast<bool>(metrics)) << llvm::toString(metrics.takeError());
  return metrics ? metrics->peakBytes : 0;
}

TEST(ValidatorTest, ComputationWritesIntoAnInputFreedRightAfterIt) {
  RematProblem problem = overwritingChain();
  EXPECT_EQ(problem.overwritableInput(1), std::optional<NodeIndex>(0));
  // y takes x's buffer: 1 + 8 while y is computed, 1 + 8 + 4 at z.
  EXPECT_EQ(peakOf(problem, baselineSchedule(problem)), 13u);
  EXPECT_EQ(baselinePeakBytes(problem), 13u);
  // x kept past y: y needs a buffer of its own.
  EXPECT_EQ(peakOf(problem, {compute(0), compute(1), compute(2), release(0),
                             release(1)}),
            21u);
  // A recomputation of y writes into x as well where x is freed right after
  // it (its region is given x's buffer)...
  EXPECT_EQ(peakOf(problem, {compute(0), compute(1), release(0), release(1),
                             compute(0), compute(1), release(0), compute(2),
                             release(1)}),
            13u);
  // ... and needs a buffer of its own where x stays.
  EXPECT_EQ(peakOf(problem, {compute(0), compute(1), release(0), release(1),
                             compute(0), compute(1), compute(2), release(0),
                             release(1)}),
            21u);
}

TEST(ValidatorTest, RejectsAnOverwrittenInputOfAnotherSize) {
  std::vector<RematNode> nodes(2);
  nodes[0].name = "x";
  nodes[0].outputBytes = 8;
  nodes[1].name = "y";
  nodes[1].outputBytes = 4;
  nodes[1].externalId = 1;
  nodes[1].overwritableInput = 0;
  llvm::Expected<RematProblem> problem = RematProblem::create(nodes, {{0, 1}});
  ASSERT_FALSE(static_cast<bool>(problem));
  EXPECT_NE(llvm::toString(problem.takeError())
                .find("not one of its inputs of the same size"),
            std::string::npos);
  nodes[1].outputBytes = 8;
  llvm::Expected<RematProblem> unread = RematProblem::create(nodes, {});
  EXPECT_FALSE(static_cast<bool>(unread));
  llvm::consumeError(unread.takeError());
}

} // namespace
