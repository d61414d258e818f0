//===- RematProblem.cpp - Rematerialization problem -----------------------===//

#include "ckpt/Planner/RematProblem.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <queue>

using namespace ckpt::planner;

llvm::StringRef ckpt::planner::stringifyRematPolicy(RematPolicy policy) {
  switch (policy) {
  case RematPolicy::Default:
    return "default";
  case RematPolicy::MustSave:
    return "must_save";
  case RematPolicy::PreferSave:
    return "prefer_save";
  case RematPolicy::PreferRecompute:
    return "prefer_recompute";
  case RematPolicy::MustRecompute:
    return "must_recompute";
  }
  llvm_unreachable("unknown policy");
}

std::optional<RematPolicy>
ckpt::planner::parseRematPolicy(llvm::StringRef spelling) {
  return llvm::StringSwitch<std::optional<RematPolicy>>(spelling)
      .Case("default", RematPolicy::Default)
      .Case("must_save", RematPolicy::MustSave)
      .Case("prefer_save", RematPolicy::PreferSave)
      .Case("prefer_recompute", RematPolicy::PreferRecompute)
      .Case("must_recompute", RematPolicy::MustRecompute)
      .Default(std::nullopt);
}

llvm::Expected<RematProblem>
RematProblem::create(std::vector<RematNode> nodes,
                     llvm::ArrayRef<std::pair<unsigned, unsigned>> edges,
                     uint64_t constantBytes) {
  unsigned n = nodes.size();
  std::vector<std::vector<unsigned>> givenSuccs(n);
  std::vector<unsigned> inDegree(n, 0);
  for (auto [from, to] : edges) {
    if (from >= n || to >= n)
      return llvm::createStringError(
          llvm::formatv("edge ({0}, {1}) refers to a node index out of range "
                        "[0, {2})",
                        from, to, n)
              .str());
    if (from == to)
      return llvm::createStringError(
          llvm::formatv("node '{0}' (id {1}) depends on itself",
                        nodes[from].name, nodes[from].externalId)
              .str());
    givenSuccs[from].push_back(to);
  }
  // Duplicate edges (an op reading a value twice) are one dependence.
  for (auto &list : givenSuccs) {
    llvm::sort(list);
    list.erase(std::unique(list.begin(), list.end()), list.end());
    for (unsigned to : list)
      ++inDegree[to];
  }

  // Stable topological sort: among ready nodes, the earliest in the given
  // order goes first, so a topological input order is kept as is.
  std::priority_queue<unsigned, std::vector<unsigned>, std::greater<unsigned>>
      ready;
  for (unsigned v = 0; v < n; ++v)
    if (inDegree[v] == 0)
      ready.push(v);
  std::vector<unsigned> order;
  order.reserve(n);
  while (!ready.empty()) {
    unsigned v = ready.top();
    ready.pop();
    order.push_back(v);
    for (unsigned to : givenSuccs[v])
      if (--inDegree[to] == 0)
        ready.push(to);
  }
  if (order.size() != n) {
    for (unsigned v = 0; v < n; ++v)
      if (inDegree[v] != 0)
        return llvm::createStringError(
            llvm::formatv("graph has a cycle through node '{0}' (id {1})",
                          nodes[v].name, nodes[v].externalId)
                .str());
  }

  std::vector<unsigned> positionOf(n);
  for (unsigned pos = 0; pos < n; ++pos)
    positionOf[order[pos]] = pos;

  RematProblem problem;
  problem.constantBytes = constantBytes;
  problem.nodes.resize(n);
  problem.preds.resize(n);
  problem.succs.resize(n);
  for (unsigned pos = 0; pos < n; ++pos)
    problem.nodes[pos] = std::move(nodes[order[pos]]);
  for (unsigned from = 0; from < n; ++from)
    for (unsigned to : givenSuccs[from]) {
      problem.succs[positionOf[from]].push_back(positionOf[to]);
      problem.preds[positionOf[to]].push_back(positionOf[from]);
    }
  for (unsigned v = 0; v < n; ++v) {
    llvm::sort(problem.succs[v]);
    llvm::sort(problem.preds[v]);
  }
  // An overwritable input is read by the node and holds as many bytes: the
  // node's result takes its buffer whole.
  problem.overwritable.assign(n, std::nullopt);
  for (unsigned v = 0; v < n; ++v) {
    const RematNode &node = problem.nodes[v];
    problem.anyWorkspace |= node.workspaceBytes > 0;
    if (!node.overwritableInput)
      continue;
    unsigned given = *node.overwritableInput;
    if (given >= n)
      return llvm::createStringError(
          llvm::formatv("node '{0}' (id {1}) overwrites a node index out of "
                        "range [0, {2})",
                        node.name, node.externalId, n)
              .str());
    NodeIndex u = positionOf[given];
    if (!llvm::is_contained(problem.preds[v], u) ||
        problem.nodes[u].outputBytes != node.outputBytes)
      return llvm::createStringError(
          llvm::formatv("node '{0}' (id {1}) overwrites '{2}' (id {3}), which "
                        "is not one of its inputs of the same size",
                        node.name, node.externalId, problem.nodes[u].name,
                        problem.nodes[u].externalId)
              .str());
    problem.overwritable[v] = u;
    problem.anyOverwritable = true;
  }

  problem.neededUntilStage.resize(n);
  for (unsigned v = 0; v < n; ++v)
    problem.neededUntilStage[v] =
        problem.isSink(v) ? n : problem.succs[v].back();
  // A must_recompute value is rebuilt for its backward consumers, so its
  // inputs (and, through recomputable inputs, theirs) are needed until then.
  for (unsigned w = 0; w < n; ++w) {
    if (!problem.needsPhaseSplit(w))
      continue;
    NodeIndex until = problem.succs[w].back();
    std::vector<NodeIndex> worklist{w};
    while (!worklist.empty()) {
      NodeIndex v = worklist.back();
      worklist.pop_back();
      for (NodeIndex u : problem.preds[v]) {
        if (problem.neededUntilStage[u] >= until)
          continue;
        problem.neededUntilStage[u] = until;
        if (problem.mayRecompute(u))
          worklist.push_back(u);
      }
    }
  }

  for (unsigned v = 0; v < n; ++v) {
    const RematNode &node = problem.nodes[v];
    if (!problem.needsPhaseSplit(v))
      continue;
    if (!node.isRecomputable)
      return llvm::createStringError(
          llvm::formatv("node '{0}' (id {1}) is must_recompute but not "
                        "recomputable",
                        node.name, node.externalId)
              .str());
    if (*problem.firstBackwardConsumer(v) < *problem.lastForwardConsumer(v))
      return llvm::createStringError(
          llvm::formatv("node '{0}' (id {1}) is must_recompute but a "
                        "backward consumer precedes a forward consumer",
                        node.name, node.externalId)
              .str());
  }
  return problem;
}

bool RematProblem::needsPhaseSplit(NodeIndex v) const {
  return nodes[v].policy == RematPolicy::MustRecompute &&
         lastForwardConsumer(v) && firstBackwardConsumer(v);
}

std::optional<NodeIndex> RematProblem::lastForwardConsumer(NodeIndex v) const {
  for (auto it = succs[v].rbegin(); it != succs[v].rend(); ++it)
    if (!nodes[*it].isBackward)
      return *it;
  return std::nullopt;
}

std::optional<NodeIndex>
RematProblem::firstBackwardConsumer(NodeIndex v) const {
  for (NodeIndex s : succs[v])
    if (nodes[s].isBackward)
      return s;
  return std::nullopt;
}

uint64_t RematProblem::totalComputeCostUnits() const {
  uint64_t total = 0;
  for (const RematNode &node : nodes)
    total += node.computeCostUnits;
  return total;
}

NodeIndex RematProblem::firstBackwardNode() const {
  for (NodeIndex v = 0; v < size(); ++v)
    if (nodes[v].isBackward)
      return v;
  return size();
}
