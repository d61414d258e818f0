//===- GraphJSON.cpp - networkx node-link JSON reader ---------------------===//

#include "ckpt/Planner/GraphJSON.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>

using namespace ckpt::planner;
namespace json = llvm::json;

static llvm::Error jsonError(const llvm::Twine &message) {
  return llvm::createStringError(message.str());
}

/// Reads a required or optional non-negative quantity. JSON numbers written
/// with a fraction (networkx dumps Python floats) are rounded.
static llvm::Error readNonNegative(const json::Object &object,
                                   llvm::StringRef key, llvm::StringRef context,
                                   bool isRequired, uint64_t &result) {
  const json::Value *value = object.get(key);
  if (!value) {
    if (isRequired)
      return jsonError(context + ": missing field '" + key + "'");
    return llvm::Error::success();
  }
  if (std::optional<int64_t> integer = value->getAsInteger()) {
    if (*integer < 0)
      return jsonError(context + ": field '" + key + "' is negative (" +
                       llvm::Twine(*integer) + ")");
    result = *integer;
    return llvm::Error::success();
  }
  if (std::optional<uint64_t> big = value->getAsUINT64()) {
    result = *big;
    return llvm::Error::success();
  }
  if (std::optional<double> number = value->getAsNumber()) {
    if (*number < 0)
      return jsonError(context + ": field '" + key + "' is negative");
    if (!std::isfinite(*number) || *number >= 1.8e19)
      return jsonError(context + ": field '" + key + "' is out of range");
    result = static_cast<uint64_t>(std::llround(*number));
    return llvm::Error::success();
  }
  return jsonError(context + ": field '" + key + "' is not a number");
}

static llvm::Error readBool(const json::Object &object, llvm::StringRef key,
                            llvm::StringRef context, bool &result) {
  const json::Value *value = object.get(key);
  if (!value)
    return llvm::Error::success();
  std::optional<bool> flag = value->getAsBoolean();
  if (!flag)
    return jsonError(context + ": field '" + key + "' is not a boolean");
  result = *flag;
  return llvm::Error::success();
}

static llvm::Expected<int64_t> readId(const json::Object &object,
                                      llvm::StringRef key,
                                      llvm::StringRef context) {
  const json::Value *value = object.get(key);
  if (!value)
    return jsonError(context + ": missing field '" + key + "'");
  std::optional<int64_t> id = value->getAsInteger();
  if (!id)
    return jsonError(context + ": field '" + key + "' is not an integer");
  return *id;
}

llvm::Expected<RematProblem>
ckpt::planner::parseGraphJSON(llvm::StringRef text) {
  llvm::Expected<json::Value> root = json::parse(text);
  if (!root)
    return jsonError("malformed JSON: " + llvm::toString(root.takeError()));
  const json::Object *graph = root->getAsObject();
  if (!graph)
    return jsonError("the top-level JSON value is not an object");
  if (const json::Value *directed = graph->get("directed"))
    if (directed->getAsBoolean() != std::optional<bool>(true))
      return jsonError("the graph is not directed ('directed' must be true)");

  uint64_t constantBytes = 0;
  if (llvm::Error error = readNonNegative(*graph, "constant_bytes", "graph",
                                          /*isRequired=*/false, constantBytes))
    return std::move(error);
  if (const json::Value *graphAttrs = graph->get("graph"))
    if (const json::Object *attrs = graphAttrs->getAsObject())
      if (llvm::Error error =
              readNonNegative(*attrs, "constant_bytes", "graph",
                              /*isRequired=*/false, constantBytes))
        return std::move(error);

  const json::Array *nodeArray = graph->getArray("nodes");
  if (!nodeArray)
    return jsonError("missing array 'nodes'");
  // networkx >= 3.4 may write "edges" instead of "links".
  const json::Array *linkArray = graph->getArray("links");
  if (!linkArray)
    linkArray = graph->getArray("edges");
  if (!linkArray)
    return jsonError("missing array 'links'");

  std::vector<RematNode> nodes;
  nodes.reserve(nodeArray->size());
  llvm::DenseMap<int64_t, unsigned> indexOfId;
  // (node index, id of the input it may overwrite), resolved once every id
  // is known.
  std::vector<std::pair<unsigned, int64_t>> overwrittenIds;
  for (auto [position, value] : llvm::enumerate(*nodeArray)) {
    std::string context = llvm::formatv("node #{0}", position).str();
    const json::Object *object = value.getAsObject();
    if (!object)
      return jsonError(context + ": not an object");
    llvm::Expected<int64_t> id = readId(*object, "id", context);
    if (!id)
      return id.takeError();
    context = llvm::formatv("node {0}", *id).str();
    if (!indexOfId.try_emplace(*id, position).second)
      return jsonError(context + ": duplicate node id");

    RematNode node;
    node.externalId = *id;
    if (const json::Value *name = object->get("name")) {
      std::optional<llvm::StringRef> spelled = name->getAsString();
      if (!spelled)
        return jsonError(context + ": field 'name' is not a string");
      node.name = spelled->str();
    } else {
      node.name = llvm::formatv("node{0}", *id).str();
    }
    if (llvm::Error error =
            readNonNegative(*object, "cost_cpu", context, /*isRequired=*/true,
                            node.computeCostUnits))
      return std::move(error);
    if (llvm::Error error =
            readNonNegative(*object, "cost_ram", context, /*isRequired=*/true,
                            node.outputBytes))
      return std::move(error);
    if (llvm::Error error =
            readBool(*object, "backward", context, node.isBackward))
      return std::move(error);
    if (llvm::Error error =
            readBool(*object, "recomputable", context, node.isRecomputable))
      return std::move(error);
    if (const json::Value *policy = object->get("policy")) {
      std::optional<llvm::StringRef> spelled = policy->getAsString();
      std::optional<RematPolicy> parsed;
      if (spelled)
        parsed = parseRematPolicy(*spelled);
      if (!parsed)
        return jsonError(context +
                         ": field 'policy' must be one of default, must_save, "
                         "prefer_save, prefer_recompute, must_recompute");
      node.policy = *parsed;
    }
    if (llvm::Error error =
            readNonNegative(*object, "workspace_bytes", context,
                            /*isRequired=*/false, node.workspaceBytes))
      return std::move(error);
    if (object->get("overwrites")) {
      llvm::Expected<int64_t> input = readId(*object, "overwrites", context);
      if (!input)
        return input.takeError();
      overwrittenIds.emplace_back(nodes.size(), *input);
    }
    nodes.push_back(std::move(node));
  }
  for (auto [index, id] : overwrittenIds) {
    auto it = indexOfId.find(id);
    if (it == indexOfId.end())
      return jsonError(llvm::formatv("node {0}: field 'overwrites' names an "
                                     "unknown node id {1}",
                                     nodes[index].externalId, id)
                           .str());
    nodes[index].overwritableInput = it->second;
  }

  std::vector<std::pair<unsigned, unsigned>> edges;
  edges.reserve(linkArray->size());
  for (auto [position, value] : llvm::enumerate(*linkArray)) {
    std::string context = llvm::formatv("link #{0}", position).str();
    const json::Object *object = value.getAsObject();
    if (!object)
      return jsonError(context + ": not an object");
    llvm::Expected<int64_t> source = readId(*object, "source", context);
    if (!source)
      return source.takeError();
    llvm::Expected<int64_t> target = readId(*object, "target", context);
    if (!target)
      return target.takeError();
    auto sourceIt = indexOfId.find(*source);
    if (sourceIt == indexOfId.end())
      return jsonError(context + ": unknown source node id " +
                       llvm::Twine(*source));
    auto targetIt = indexOfId.find(*target);
    if (targetIt == indexOfId.end())
      return jsonError(context + ": unknown target node id " +
                       llvm::Twine(*target));
    edges.emplace_back(sourceIt->second, targetIt->second);
  }
  llvm::Expected<RematProblem> problem =
      RematProblem::create(std::move(nodes), edges, constantBytes);
  if (!problem)
    return problem.takeError();
  if (const json::Value *keep = graph->get("keep_rebuilt_values")) {
    std::optional<bool> flag = keep->getAsBoolean();
    if (!flag)
      return jsonError("graph: field 'keep_rebuilt_values' is not a boolean");
    problem->setKeepsRebuiltValues(*flag);
  }
  return problem;
}

void ckpt::planner::writeGraphJSON(const RematProblem &problem,
                                   llvm::raw_ostream &os) {
  json::OStream out(os, /*IndentSize=*/1);
  out.object([&] {
    out.attribute("directed", true);
    out.attribute("constant_bytes",
                  static_cast<int64_t>(problem.getConstantBytes()));
    if (problem.keepsRebuiltValues())
      out.attribute("keep_rebuilt_values", true);
    out.attributeArray("nodes", [&] {
      for (auto [index, node] : llvm::enumerate(problem.getNodes()))
        out.object([&] {
          out.attribute("id", node.externalId);
          out.attribute("name", node.name);
          out.attribute("cost_cpu",
                        static_cast<int64_t>(node.computeCostUnits));
          out.attribute("cost_ram", static_cast<int64_t>(node.outputBytes));
          out.attribute("backward", node.isBackward);
          out.attribute("recomputable", node.isRecomputable);
          out.attribute("policy", stringifyRematPolicy(node.policy));
          if (std::optional<NodeIndex> input =
                  problem.overwritableInput(index))
            out.attribute("overwrites", problem.node(*input).externalId);
          if (node.workspaceBytes)
            out.attribute("workspace_bytes",
                          static_cast<int64_t>(node.workspaceBytes));
        });
    });
    out.attributeArray("links", [&] {
      for (NodeIndex v = 0; v < problem.size(); ++v)
        for (NodeIndex u : problem.predecessors(v))
          out.object([&] {
            out.attribute("source", problem.node(u).externalId);
            out.attribute("target", problem.node(v).externalId);
          });
    });
  });
  os << "\n";
}

llvm::json::Array ckpt::planner::scheduleToJSON(const RematProblem &problem,
                                                const Schedule &schedule) {
  llvm::json::Array steps;
  for (const ScheduleStep &step : schedule)
    steps.push_back(llvm::json::Object{
        {"op", step.kind == StepKind::Compute ? "compute" : "free"},
        {"node", problem.node(step.node).externalId}});
  return steps;
}

llvm::json::Value ckpt::planner::planToJSON(const RematProblem &problem,
                                            const PlanResult &plan,
                                            uint64_t budgetBytes) {
  uint64_t baselinePeak = baselinePeakBytes(problem);
  uint64_t baselineCost = problem.totalComputeCostUnits();
  llvm::json::Object output{
      {"feasible", plan.isFeasible},
      {"solver", plan.solverName},
      {"num_nodes", static_cast<int64_t>(problem.size())},
      {"budget_bytes", budgetBytes},
      {"baseline_peak_bytes", baselinePeak},
      {"baseline_cost", baselineCost},
      {"peak_bytes", plan.peakBytes},
      {"cost", plan.costUnits},
      {"overhead", static_cast<double>(plan.costUnits) /
                           std::max<uint64_t>(1, baselineCost) -
                       1},
      {"solve_time_s", plan.solveTimeSeconds},
      {"schedule", scheduleToJSON(problem, plan.schedule)},
  };
  output["optimal"] = plan.isProvenOptimal();
  output["formulation"] = stringifyPlanFormulation(plan.formulation).str();
  if (plan.optimalityGap)
    output["gap"] = *plan.optimalityGap;
  if (plan.lowerBoundCostUnits)
    output["lower_bound"] = *plan.lowerBoundCostUnits;
  return output;
}
