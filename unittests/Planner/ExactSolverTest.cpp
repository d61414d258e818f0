//===- ExactSolverTest.cpp - The program-order MILP against brute force ---===//

#include "ExhaustiveSearch.h"

#include "ckpt/Planner/Solvers.h"

#include "gtest/gtest.h"

#include <cstdio>

using namespace ckpt::planner;
using namespace ckpt::planner::testing;

namespace {

/// The smallest peak any schedule can have: a computation's inputs and
/// output resident at once.
uint64_t workingSetBytes(const RematProblem &problem) {
  uint64_t low = problem.getConstantBytes();
  for (NodeIndex v = 0; v < problem.size(); ++v) {
    uint64_t working = problem.getConstantBytes() + problem.bytes(v) +
                       problem.workspace(v);
    for (NodeIndex u : problem.predecessors(v))
      working += problem.bytes(u);
    low = std::max(low, working);
  }
  return low;
}

/// \p count budgets from the working set to the baseline peak.
std::vector<uint64_t> budgetsOf(const RematProblem &problem, unsigned count) {
  uint64_t low = workingSetBytes(problem), high = baselinePeakBytes(problem);
  std::vector<uint64_t> budgets;
  for (unsigned step = 0; step < count; ++step)
    budgets.push_back(low + (high - low) * step / (count - 1));
  return budgets;
}

std::optional<uint64_t> costOf(const PlanResult &result) {
  return result.isFeasible ? std::optional<uint64_t>(result.costUnits)
                           : std::nullopt;
}

/// The solvers' options in these tests: 30 s each.
SolverOptions testOptions() {
  SolverOptions options;
  options.timeLimitSeconds = 30;
  return options;
}

/// How a failure names its case.
std::string describeCase(unsigned trial, uint64_t budget) {
  return "trial " + std::to_string(trial) + " budget " + std::to_string(budget);
}

/// The exact MILP's plan for \p budget, whose cost (or infeasibility) must
/// be the brute force's over the class; nullopt when it failed to solve or
/// disagrees (the failure is recorded).
std::optional<PlanResult>
solveExactAgainstBruteForce(const RematProblem &problem, uint64_t budget,
                            const std::string &where) {
  llvm::Expected<PlanResult> exact =
      solveExact(problem, budget, testOptions());
  if (!exact) {
    ADD_FAILURE() << where << ": " << llvm::toString(exact.takeError());
    return std::nullopt;
  }
  std::optional<uint64_t> brute = programOrderOptimalCost(problem, budget);
  if (costOf(*exact) != brute) {
    ADD_FAILURE() << where << ": exact " << exact->costUnits << " (feasible "
                  << exact->isFeasible << "), brute force "
                  << (brute ? std::to_string(*brute) : "infeasible");
    return std::nullopt;
  }
  return std::move(*exact);
}

} // namespace

/// On random DAGs of 8 to 12 nodes at five budgets each, the exact MILP's
/// cost equals the shortest path over its class, it proves it
/// (isProvenOptimal, lower bound = cost), and it is never below the best
/// schedule in program order with any order within a stage (10 nodes and
/// fewer) nor above the ILP's.
TEST(ExactTest, MatchesProgramOrderBruteForce) {
  std::mt19937 rng(7);
  unsigned compared = 0, feasible = 0, belowILP = 0;
  for (unsigned trial = 0; trial < 10; ++trial) {
    RematProblem problem = randomDAG(8 + trial % 5, rng);
    for (uint64_t budget : budgetsOf(problem, 5)) {
      std::string where = describeCase(trial, budget);
      std::optional<PlanResult> exact =
          solveExactAgainstBruteForce(problem, budget, where);
      ASSERT_TRUE(exact.has_value()) << where;
      ++compared;
      if (!exact->isFeasible)
        continue;
      ++feasible;
      EXPECT_LE(exact->peakBytes, budget) << where;
      EXPECT_TRUE(exact->isProvenOptimal()) << where;
      EXPECT_EQ(exact->lowerBoundCostUnits,
                std::optional<uint64_t>(exact->costUnits))
          << where;
      if (problem.size() <= 10) {
        std::optional<uint64_t> anyOrder = unrestrictedOptimalCost(
            problem, budget, /*keepOriginalOrder=*/true);
        ASSERT_TRUE(anyOrder.has_value()) << where;
        EXPECT_GE(exact->costUnits, *anyOrder) << where;
      }
      llvm::Expected<PlanResult> ilp = solveILP(problem, budget, testOptions());
      ASSERT_TRUE(static_cast<bool>(ilp));
      if (ilp->isFeasible) {
        EXPECT_LE(exact->costUnits, ilp->costUnits) << where;
        belowILP += exact->costUnits < ilp->costUnits;
      }
    }
  }
  std::printf("exact: %u of %u feasible cases cheaper than the ILP's class\n",
              belowILP, feasible);
  EXPECT_EQ(compared, 50u);
  EXPECT_GT(feasible, 20u);
}

/// From an incumbent in the class (the ILP's schedule) the MILP returns the
/// same optimum; from a schedule outside it (greedy's, which may recompute
/// out of index order) it still answers.
TEST(ExactTest, StartsFromAnIncumbent) {
  std::mt19937 rng(19);
  for (unsigned trial = 0; trial < 2; ++trial) {
    RematProblem problem = randomDAG(10 + trial % 3, rng);
    for (uint64_t budget : budgetsOf(problem, 4)) {
      SolverOptions options;
      options.timeLimitSeconds = 30;
      llvm::Expected<PlanResult> cold = solveExact(problem, budget, options);
      ASSERT_TRUE(static_cast<bool>(cold));
      for (auto solve : {solveILP, solveGreedy}) {
        llvm::Expected<PlanResult> start = solve(problem, budget, options);
        ASSERT_TRUE(static_cast<bool>(start));
        llvm::Expected<PlanResult> warm =
            solveExact(problem, budget, options, &*start);
        ASSERT_TRUE(static_cast<bool>(warm));
        EXPECT_EQ(costOf(*warm), costOf(*cold));
      }
    }
  }
}

/// Policies, non-recomputable nodes, views and constant bytes: every answer
/// is a valid schedule within the budget (finishPlan validates it), never
/// costlier than the ILP's, and must_recompute is honored.
TEST(ExactTest, HonorsPolicies) {
  std::mt19937 rng(23);
  unsigned feasible = 0;
  for (unsigned trial = 0; trial < 20; ++trial) {
    RematProblem problem = randomPolicyDAG(6 + trial % 10, rng);
    for (uint64_t budget : budgetsOf(problem, 4)) {
      SolverOptions options;
      options.timeLimitSeconds = 30;
      llvm::Expected<PlanResult> ilp = solveILP(problem, budget, options);
      llvm::Expected<PlanResult> exact = solveExact(problem, budget, options);
      ASSERT_TRUE(static_cast<bool>(exact)) << llvm::toString(exact.takeError());
      ASSERT_TRUE(static_cast<bool>(ilp)) << llvm::toString(ilp.takeError());
      if (!exact->isFeasible)
        continue;
      ++feasible;
      EXPECT_LE(exact->peakBytes, budget);
      if (ilp->isFeasible && ilp->optimalityGap == 0.0)
        EXPECT_LE(exact->costUnits, ilp->costUnits) << "trial " << trial;
    }
  }
  EXPECT_GT(feasible, 40u);
}

/// auto on small graphs ends with the exact model: what it calls optimal is
/// the brute-force optimum, and it always states a program-order bound.
TEST(ExactTest, AutoIsOptimalOnlyWhenProvenOverTheClass) {
  std::mt19937 rng(31);
  unsigned proven = 0;
  for (unsigned trial = 0; trial < 8; ++trial) {
    RematProblem problem = randomDAG(8 + trial % 5, rng);
    for (uint64_t budget : budgetsOf(problem, 5)) {
      SolverOptions options;
      options.timeLimitSeconds = 30;
      llvm::Expected<PlanResult> automatic =
          solveAuto(problem, budget, options);
      ASSERT_TRUE(static_cast<bool>(automatic));
      if (!automatic->isFeasible)
        continue;
      EXPECT_EQ(automatic->formulation, PlanFormulation::ProgramOrder);
      ASSERT_TRUE(automatic->lowerBoundCostUnits.has_value());
      EXPECT_LE(*automatic->lowerBoundCostUnits, automatic->costUnits);
      if (automatic->isProvenOptimal()) {
        ++proven;
        EXPECT_EQ(costOf(*automatic), programOrderOptimalCost(problem, budget))
            << automatic->solverName;
      }
    }
  }
  EXPECT_GT(proven, 20u);
}

/// With the exact model off (graphs above autoExactMaxNodes), auto's bound
/// is a sub-class's and it never claims optimality.
TEST(ExactTest, AutoWithoutTheExactModelClaimsNoOptimum) {
  std::mt19937 rng(37);
  for (unsigned trial = 0; trial < 10; ++trial) {
    RematProblem problem = randomDAG(10, rng);
    SolverOptions options;
    options.autoExactMaxNodes = 0;
    uint64_t budget = baselinePeakBytes(problem) * 8 / 10;
    llvm::Expected<PlanResult> automatic = solveAuto(problem, budget, options);
    ASSERT_TRUE(static_cast<bool>(automatic));
    if (automatic->isFeasible)
      EXPECT_FALSE(automatic->isProvenOptimal());
  }
}

/// \p problem without its overwritable inputs.
RematProblem withoutOverwrites(const RematProblem &problem) {
  std::vector<RematNode> nodes(problem.getNodes().begin(),
                               problem.getNodes().end());
  std::vector<std::pair<unsigned, unsigned>> edges;
  for (NodeIndex v = 0; v < problem.size(); ++v) {
    nodes[v].overwritableInput.reset();
    for (NodeIndex u : problem.predecessors(v))
      edges.emplace_back(u, v);
  }
  return std::move(
      *RematProblem::create(nodes, edges, problem.getConstantBytes()));
}

/// Nodes that may write into a dying input (RematNode::overwritableInput)
/// and nodes with workspaces: the exact MILP equals the brute force that
/// models both, greedy and the ILP stay valid and within the budget, and
/// the overwrites meet budgets that no schedule meets without them.
TEST(ExactTest, MatchesBruteForceWithOverwritesAndWorkspaces) {
  std::mt19937 rng(41);
  unsigned feasible = 0, onlyWithOverwrites = 0;
  for (unsigned trial = 0; trial < 7; ++trial) {
    RematProblem problem = randomOverwritingDAG(8 + trial % 5, rng);
    ASSERT_TRUE(problem.hasOverwritableInputs());
    ASSERT_TRUE(problem.hasWorkspaces());
    RematProblem plain = withoutOverwrites(problem);
    std::vector<uint64_t> budgets = budgetsOf(problem, 5);
    budgets.push_back(budgets.front() - 1);
    budgets.push_back(budgets.front() - 2);
    for (uint64_t budget : budgets) {
      std::string where = describeCase(trial, budget);
      std::optional<PlanResult> exact =
          solveExactAgainstBruteForce(problem, budget, where);
      ASSERT_TRUE(exact.has_value()) << where;
      if (!exact->isFeasible)
        continue;
      ++feasible;
      onlyWithOverwrites += !programOrderOptimalCost(plain, budget);
      EXPECT_LE(exact->peakBytes, budget) << where;
      EXPECT_TRUE(exact->isProvenOptimal()) << where;
      for (auto solve : {solveGreedy, solveILP}) {
        llvm::Expected<PlanResult> other = solve(problem, budget, testOptions());
        ASSERT_TRUE(static_cast<bool>(other))
            << llvm::toString(other.takeError());
        if (!other->isFeasible)
          continue;
        EXPECT_LE(other->peakBytes, budget) << where;
        EXPECT_GE(other->costUnits, exact->costUnits) << where;
      }
    }
  }
  std::printf("overwrites: %u feasible cases, %u only with overwrites\n",
              feasible, onlyWithOverwrites);
  EXPECT_GT(feasible, 15u);
  EXPECT_GT(onlyWithOverwrites, 0u);
}
