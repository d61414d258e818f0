//===- GraphJSONTest.cpp - networkx node-link reader ----------------------===//

#include "ckpt/Planner/GraphJSON.h"

#include "gtest/gtest.h"

using namespace ckpt::planner;

namespace {

TEST(GraphJSONTest, ReadsNodesLinksPoliciesAndConstantBytes) {
  const char *text = R"JSON({
    "directed": true, "constant_bytes": 7,
    "nodes": [
      {"id": 5, "name": "conv1", "backward": false, "cost_cpu": 385,
       "cost_ram": 3288334336},
      {"id": 9, "name": "relu", "cost_cpu": 2.6, "cost_ram": 0,
       "policy": "prefer_recompute", "recomputable": false},
      {"id": 3, "name": "d_conv1", "backward": true, "cost_cpu": 1,
       "cost_ram": 8}],
    "links": [{"source": 5, "target": 9}, {"source": 9, "target": 3},
              {"source": 5, "target": 3}]})JSON";
  llvm::Expected<RematProblem> problem = parseGraphJSON(text);
  ASSERT_TRUE(static_cast<bool>(problem))
      << llvm::toString(problem.takeError());
  ASSERT_EQ(problem->size(), 3u);
  EXPECT_EQ(problem->getConstantBytes(), 7u);
  EXPECT_EQ(problem->node(0).externalId, 5);
  EXPECT_EQ(problem->node(0).outputBytes, 3288334336ull);
  EXPECT_EQ(problem->node(1).computeCostUnits, 3u);
  EXPECT_EQ(problem->node(1).policy, RematPolicy::PreferRecompute);
  EXPECT_FALSE(problem->node(1).isRecomputable);
  EXPECT_TRUE(problem->node(2).isBackward);
  EXPECT_EQ(problem->predecessors(2).size(), 2u);
  EXPECT_TRUE(problem->isSink(2));
}

TEST(GraphJSONTest, ReadsAndWritesOverwrittenInputs) {
  const char *text = R"JSON({
    "nodes": [{"id": 4, "cost_cpu": 1, "cost_ram": 8},
              {"id": 2, "cost_cpu": 1, "cost_ram": 8, "overwrites": 4}],
    "links": [{"source": 4, "target": 2}]})JSON";
  llvm::Expected<RematProblem> problem = parseGraphJSON(text);
  ASSERT_TRUE(static_cast<bool>(problem))
      << llvm::toString(problem.takeError());
  EXPECT_EQ(problem->overwritableInput(1), std::optional<NodeIndex>(0));
  EXPECT_FALSE(problem->overwritableInput(0).has_value());
  std::string written;
  llvm::raw_string_ostream os(written);
  writeGraphJSON(*problem, os);
  EXPECT_NE(written.find("\"overwrites\": 4"), std::string::npos) << written;
  llvm::Expected<RematProblem> again = parseGraphJSON(written);
  ASSERT_TRUE(static_cast<bool>(again));
  EXPECT_EQ(again->overwritableInput(1), std::optional<NodeIndex>(0));

  llvm::Expected<RematProblem> unknown = parseGraphJSON(R"JSON({
    "nodes": [{"id": 4, "cost_cpu": 1, "cost_ram": 8},
              {"id": 2, "cost_cpu": 1, "cost_ram": 8, "overwrites": 7}],
    "links": [{"source": 4, "target": 2}]})JSON");
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_NE(llvm::toString(unknown.takeError())
                .find("node 2: field 'overwrites' names an unknown node id 7"),
            std::string::npos);
}

TEST(GraphJSONTest, ReadsAndWritesKeptRebuiltValues) {
  const char *text = R"JSON({"keep_rebuilt_values": true,
    "nodes": [{"id": 0, "cost_cpu": 1, "cost_ram": 8}], "links": []})JSON";
  llvm::Expected<RematProblem> problem = parseGraphJSON(text);
  ASSERT_TRUE(static_cast<bool>(problem))
      << llvm::toString(problem.takeError());
  EXPECT_TRUE(problem->keepsRebuiltValues());
  std::string written;
  llvm::raw_string_ostream os(written);
  writeGraphJSON(*problem, os);
  llvm::Expected<RematProblem> again = parseGraphJSON(written);
  ASSERT_TRUE(static_cast<bool>(again));
  EXPECT_TRUE(again->keepsRebuiltValues());

  llvm::Expected<RematProblem> plain = parseGraphJSON(
      R"JSON({"nodes": [{"id": 0, "cost_cpu": 1, "cost_ram": 8}],
              "links": []})JSON");
  ASSERT_TRUE(static_cast<bool>(plain));
  EXPECT_FALSE(plain->keepsRebuiltValues());
  llvm::Expected<RematProblem> wrong = parseGraphJSON(
      R"JSON({"keep_rebuilt_values": 1, "nodes": [], "links": []})JSON");
  ASSERT_FALSE(static_cast<bool>(wrong));
  EXPECT_EQ(llvm::toString(wrong.takeError()),
            "graph: field 'keep_rebuilt_values' is not a boolean");
}

TEST(GraphJSONTest, NamesTheOffendingElement) {
  auto errorOf = [](const char *text) {
    llvm::Expected<RematProblem> problem = parseGraphJSON(text);
    if (problem)
      return std::string();
    return llvm::toString(problem.takeError());
  };
  EXPECT_EQ(errorOf(R"({"nodes": [{"id": 1, "cost_cpu": 1}], "links": []})"),
            "node 1: missing field 'cost_ram'");
  EXPECT_EQ(errorOf(R"({"nodes": [{"id": 1, "cost_cpu": 1, "cost_ram": -2}],
                       "links": []})"),
            "node 1: field 'cost_ram' is negative (-2)");
  EXPECT_EQ(errorOf(R"({"nodes": [{"id": 1, "cost_cpu": 1, "cost_ram": 2}],
                       "links": [{"source": 1, "target": 4}]})"),
            "link #0: unknown target node id 4");
  EXPECT_EQ(errorOf(R"({"directed": false, "nodes": [], "links": []})"),
            "the graph is not directed ('directed' must be true)");
  EXPECT_EQ(errorOf(R"({"nodes": []})"), "missing array 'links'");
  EXPECT_EQ(errorOf(R"([1, 2])"), "the top-level JSON value is not an object");
  EXPECT_EQ(errorOf(R"({"nodes": [{"id": "a", "cost_cpu": 1, "cost_ram": 2}],
                       "links": []})"),
            "node #0: field 'id' is not an integer");
}

} // namespace
