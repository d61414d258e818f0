//===- PlanRequestTest.cpp - budget requests and infeasibility as data ----===//

#include "ExhaustiveSearch.h"

#include "ckpt/Planner/Solvers.h"

#include "gtest/gtest.h"

#include <random>

using namespace ckpt::planner;
using ckpt::planner::testing::randomTrainingChain;

namespace {

TEST(PlanRequestTest, BudgetRequestsTakeMinAndAuto) {
  llvm::Expected<BudgetRequest> minimum = parseBudgetRequest(" min ");
  ASSERT_TRUE(static_cast<bool>(minimum));
  EXPECT_EQ(minimum->kind, BudgetRequest::Kind::Minimum);
  EXPECT_EQ(minimum->rule(), "min");
  llvm::Expected<BudgetRequest> knee = parseBudgetRequest("auto");
  ASSERT_TRUE(static_cast<bool>(knee));
  EXPECT_EQ(knee->rule(), "auto");
  llvm::Expected<BudgetRequest> given = parseBudgetRequest("50%");
  ASSERT_TRUE(static_cast<bool>(given));
  EXPECT_EQ(given->rule(), "given");
  EXPECT_EQ(given->memory.resolveBytes(1000), 500u);
  llvm::Expected<BudgetRequest> bad = parseBudgetRequest("minimal");
  ASSERT_FALSE(static_cast<bool>(bad));
  std::string message = llvm::toString(bad.takeError());
  EXPECT_NE(message.find("invalid budget 'minimal'"), std::string::npos);
  EXPECT_NE(message.find("or 'min'"), std::string::npos);
}

TEST(PlanRequestTest, RequestsCheckEveryField) {
  EXPECT_TRUE(static_cast<bool>(parsePlanRequest("0.5", "greedy", 1)));
  for (auto [budget, solver, limit, expected] :
       {std::make_tuple("zero", "greedy", 1.0, "invalid budget"),
        std::make_tuple("0.5", "annealing", 1.0, "unknown solver"),
        std::make_tuple("0.5", "greedy", 0.0, "--time-limit must be")}) {
    llvm::Expected<PlanRequest> request =
        parsePlanRequest(budget, solver, limit);
    ASSERT_FALSE(static_cast<bool>(request)) << budget << " " << solver;
    EXPECT_NE(llvm::toString(request.takeError()).find(expected),
              std::string::npos);
  }
}

// `min` resolves to a budget greedy meets and planRequest plans there; a
// budget below it is an InfeasibleBudgetError whose figures are the data the
// message states, so callers never read the message.
TEST(PlanRequestTest, MinimumIsFeasibleAndBelowItIsInfeasibleAsData) {
  std::mt19937 rng(7);
  for (unsigned trial = 0; trial < 20; ++trial) {
    RematProblem problem = randomTrainingChain(2 + trial % 6, rng);
    llvm::Expected<PlanRequest> request = parsePlanRequest("min", "greedy", 1);
    ASSERT_TRUE(static_cast<bool>(request));
    uint64_t budgetBytes = 0;
    llvm::Expected<PlanResult> plan =
        planRequest(problem, *request, budgetBytes);
    ASSERT_TRUE(static_cast<bool>(plan)) << llvm::toString(plan.takeError());
    EXPECT_EQ(budgetBytes, smallestFeasiblePeakFound(problem));
    EXPECT_LE(plan->peakBytes, budgetBytes);

    uint64_t below = problem.getConstantBytes();
    llvm::Expected<PlanResult> infeasible =
        planRemat(problem, below, SolverSpec{SolverKind::Greedy});
    ASSERT_FALSE(static_cast<bool>(infeasible));
    bool sawData = false;
    llvm::Error rest = llvm::handleErrors(
        infeasible.takeError(), [&](const InfeasibleBudgetError &error) {
          sawData = true;
          EXPECT_EQ(error.budgetBytes, below);
          EXPECT_EQ(error.solverName, "greedy");
          EXPECT_EQ(error.workingBudgetBytes, budgetBytes);
          EXPECT_LE(error.smallestPeakBytes, error.workingBudgetBytes);
          EXPECT_EQ(error.baselinePeakBytes, baselinePeakBytes(problem));
          std::string message;
          llvm::raw_string_ostream os(message);
          error.log(os);
          EXPECT_NE(message.find("is infeasible for solver 'greedy'"),
                    std::string::npos);
        });
    EXPECT_FALSE(static_cast<bool>(rest));
    EXPECT_TRUE(sawData);
  }
}

} // namespace
