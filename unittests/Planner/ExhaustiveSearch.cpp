//===- ExhaustiveSearch.cpp - Reference optima for small problems ---------===//

#include "ExhaustiveSearch.h"

#include "ckpt/Planner/Schedule.h"

#include "llvm/Support/ErrorHandling.h"

#include <climits>

#include <map>
#include <queue>
#include <unordered_map>

using namespace ckpt::planner;
using namespace ckpt::planner::testing;

std::optional<uint64_t> ckpt::planner::testing::unrestrictedOptimalCost(
    const RematProblem &problem, uint64_t budgetBytes, bool keepOriginalOrder) {
  unsigned n = problem.size();
  if (n > 10)
    llvm::report_fatal_error("exhaustive search limited to 10 nodes");
  uint32_t all = (1u << n) - 1, sinks = 0;
  for (NodeIndex v = 0; v < n; ++v)
    if (problem.isSink(v))
      sinks |= 1u << v;
  auto bytesOf = [&](uint32_t mask) {
    uint64_t total = problem.getConstantBytes();
    for (NodeIndex v = 0; v < n; ++v)
      if (mask & (1u << v))
        total += problem.bytes(v);
    return total;
  };
  // State: resident mask in the low half, computed mask in the high half.
  using State = uint32_t;
  std::unordered_map<State, uint64_t> best;
  using Entry = std::pair<uint64_t, State>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  best[0] = 0;
  queue.push({0, 0});
  while (!queue.empty()) {
    auto [cost, state] = queue.top();
    queue.pop();
    if (best[state] < cost)
      continue;
    uint32_t resident = state & 0x3ff, computed = state >> 10;
    if (computed == all && (resident & sinks) == sinks)
      return cost;
    auto relax = [&](State next, uint64_t nextCost) {
      auto it = best.find(next);
      if (it == best.end() || nextCost < it->second) {
        best[next] = nextCost;
        queue.push({nextCost, next});
      }
    };
    for (NodeIndex v = 0; v < n; ++v) {
      uint32_t bit = 1u << v;
      if (resident & bit) {
        relax((computed << 10) | (resident & ~bit), cost);
        continue;
      }
      if ((computed & bit) && !problem.mayRecompute(v))
        continue;
      // First computations in original order: computed is then a prefix.
      if (keepOriginalOrder && !(computed & bit) && computed != bit - 1)
        continue;
      bool ready = true;
      for (NodeIndex u : problem.predecessors(v))
        ready = ready && (resident & (1u << u));
      if (!ready || bytesOf(resident | bit) > budgetBytes)
        continue;
      relax(((computed | bit) << 10) | resident | bit, cost + problem.cost(v));
    }
  }
  return std::nullopt;
}

std::optional<uint64_t>
ckpt::planner::testing::programOrderOptimalCost(const RematProblem &problem,
                                                uint64_t budgetBytes) {
  unsigned n = problem.size();
  if (n > 12)
    llvm::report_fatal_error("program-order search limited to 12 nodes");
  uint32_t sinks = 0;
  for (NodeIndex v = 0; v < n; ++v)
    if (problem.isSink(v))
      sinks |= 1u << v;
  auto bytesOf = [&](uint32_t mask) {
    uint64_t total = problem.getConstantBytes();
    for (NodeIndex v = 0; v < n; ++v)
      if (mask & (1u << v))
        total += problem.bytes(v);
    return total;
  };
  // State: resident mask, stage (0..n), next index the stage may compute.
  auto encode = [&](uint32_t resident, unsigned stage, unsigned next) {
    return (static_cast<size_t>(stage) * (n + 1) + next) << n | resident;
  };
  std::vector<uint64_t> best(encode(0, n + 1, 0), UINT64_MAX);
  using Entry = std::pair<uint64_t, size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  best[encode(0, 0, 0)] = 0;
  queue.push({0, encode(0, 0, 0)});
  uint32_t residentMask = (1u << n) - 1;
  while (!queue.empty()) {
    auto [cost, state] = queue.top();
    queue.pop();
    if (best[state] < cost)
      continue;
    uint32_t resident = state & residentMask;
    unsigned next = (state >> n) % (n + 1);
    unsigned stage = (state >> n) / (n + 1);
    if (stage == n && (resident & sinks) == sinks)
      return cost;
    auto relax = [&](size_t target, uint64_t targetCost) {
      if (targetCost < best[target]) {
        best[target] = targetCost;
        queue.push({targetCost, target});
      }
    };
    for (NodeIndex v = 0; v < n; ++v) {
      uint32_t bit = 1u << v;
      if (resident & bit) {
        relax(encode(resident & ~bit, stage, next), cost);
        continue;
      }
      bool isFirst = v == stage;
      if (v < next || v > stage || (!isFirst && !problem.mayRecompute(v)))
        continue;
      bool ready = true;
      for (NodeIndex u : problem.predecessors(v))
        ready = ready && (resident & (1u << u));
      if (!ready)
        continue;
      // A computation (first or recomputation) may write into its
      // overwritable input, freed right after it: the input's bytes hold the
      // output.
      uint64_t workspace = problem.workspace(v);
      if (std::optional<NodeIndex> u = problem.overwritableInput(v);
          u && bytesOf(resident) + workspace <= budgetBytes) {
        uint32_t after = (resident | bit) & ~(1u << *u);
        relax(isFirst ? encode(after, stage + 1, 0)
                      : encode(after, stage, v + 1),
              cost + problem.cost(v));
      }
      if (bytesOf(resident | bit) + workspace > budgetBytes)
        continue;
      relax(isFirst ? encode(resident | bit, stage + 1, 0)
                    : encode(resident | bit, stage, v + 1),
            cost + problem.cost(v));
    }
  }
  return std::nullopt;
}

RetentionClassSearch::RetentionClassSearch(const RematProblem &problem) {
  unsigned n = problem.size();
  if (n > 10)
    llvm::report_fatal_error("exhaustive search limited to 10 nodes");
  // Choices per value: no recomputation, or one in any later stage.
  std::vector<std::vector<unsigned>> choices(n);
  for (NodeIndex v = 0; v < n; ++v) {
    choices[v].push_back(UINT_MAX);
    if (!problem.mayRecompute(v))
      continue;
    for (unsigned s = v + 1; s <= n; ++s)
      choices[v].push_back(s);
  }
  std::vector<unsigned> chosen(n, 0);
  std::map<uint64_t, uint64_t> cheapestAtPeak;
  while (true) {
    // Stage s recomputes its values in index order, then computes node s.
    std::vector<NodeIndex> sequence;
    for (unsigned s = 0; s <= n; ++s) {
      for (NodeIndex v = 0; v < n; ++v)
        if (choices[v][chosen[v]] == s)
          sequence.push_back(v);
      if (s < n)
        sequence.push_back(s);
    }
    llvm::Expected<ScheduleMetrics> metrics = validateSchedule(
        problem, scheduleFromComputeSequence(problem, sequence));
    if (!metrics)
      llvm::report_fatal_error(metrics.takeError());
    auto [it, inserted] =
        cheapestAtPeak.try_emplace(metrics->peakBytes, metrics->costUnits);
    if (!inserted)
      it->second = std::min(it->second, metrics->costUnits);
    NodeIndex v = 0;
    while (v < n && ++chosen[v] == choices[v].size())
      chosen[v++] = 0;
    if (v == n)
      break;
  }
  for (auto [peak, cost] : cheapestAtPeak)
    if (frontier.empty() || cost < frontier.back().second)
      frontier.emplace_back(peak, cost);
}

std::optional<uint64_t>
RetentionClassSearch::optimalCost(uint64_t budgetBytes) const {
  std::optional<uint64_t> best;
  for (auto [peak, cost] : frontier)
    if (peak <= budgetBytes)
      best = cost;
  return best;
}

static RematProblem
createOrDie(std::vector<RematNode> nodes,
            std::vector<std::pair<unsigned, unsigned>> edges,
            uint64_t constantBytes) {
  llvm::Expected<RematProblem> problem =
      RematProblem::create(std::move(nodes), edges, constantBytes);
  if (!problem)
    llvm::report_fatal_error(problem.takeError());
  return std::move(*problem);
}

/// randomDAG, and with \p overwrites randomOverwritingDAG (the extra draws
/// come after randomDAG's, so its graphs stay the same).
static RematProblem randomDAGOf(unsigned nodeCount, std::mt19937 &rng,
                                bool overwrites) {
  std::uniform_int_distribution<int> value(1, 9);
  std::vector<RematNode> nodes(nodeCount);
  std::vector<std::pair<unsigned, unsigned>> edges;
  for (unsigned v = 0; v < nodeCount; ++v) {
    nodes[v].externalId = v;
    nodes[v].name = "n" + std::to_string(v);
    nodes[v].outputBytes = value(rng);
    nodes[v].computeCostUnits = value(rng);
    nodes[v].isBackward = v >= nodeCount / 2;
    if (v == 0)
      continue;
    unsigned inputs = 1 + rng() % std::min(2u, v);
    for (unsigned k = 0; k < inputs; ++k)
      edges.emplace_back(rng() % v, v);
    if (!overwrites)
      continue;
    // A third of the nodes need a workspace, and the last one.
    if (rng() % 3 == 0 || v + 1 == nodeCount)
      nodes[v].workspaceBytes = value(rng);
    // Half the nodes may write into their first input (then as large).
    if (rng() % 2) {
      unsigned input = edges[edges.size() - inputs].first;
      nodes[v].outputBytes = nodes[input].outputBytes;
      nodes[v].overwritableInput = input;
    }
  }
  return createOrDie(std::move(nodes), edges, 0);
}

RematProblem ckpt::planner::testing::randomDAG(unsigned nodeCount,
                                               std::mt19937 &rng) {
  return randomDAGOf(nodeCount, rng, /*overwrites=*/false);
}

RematProblem
ckpt::planner::testing::randomOverwritingDAG(unsigned nodeCount,
                                             std::mt19937 &rng) {
  return randomDAGOf(nodeCount, rng, /*overwrites=*/true);
}

RematProblem ckpt::planner::testing::randomTrainingChain(unsigned layers,
                                                         std::mt19937 &rng) {
  std::uniform_int_distribution<int> value(1, 9);
  std::vector<RematNode> nodes(2 * layers);
  std::vector<std::pair<unsigned, unsigned>> edges;
  // Index of fi is i-1, of gi is 2L-i.
  auto f = [&](unsigned i) { return i - 1; };
  auto g = [&](unsigned i) { return 2 * layers - i; };
  for (unsigned v = 0; v < 2 * layers; ++v) {
    nodes[v].externalId = v;
    nodes[v].name = "n" + std::to_string(v);
    nodes[v].outputBytes = value(rng);
    nodes[v].computeCostUnits = value(rng);
    nodes[v].isBackward = v >= layers;
  }
  for (unsigned i = 1; i <= layers; ++i) {
    if (i > 1)
      edges.emplace_back(f(i - 1), f(i));
    if (i < layers)
      edges.emplace_back(g(i + 1), g(i));
    bool readsOutput = i == layers || rng() % 2;
    bool readsInput = i > 1 && (rng() % 2 || (!readsOutput && i < layers));
    if (readsOutput)
      edges.emplace_back(f(i), g(i));
    if (readsInput)
      edges.emplace_back(f(i - 1), g(i));
  }
  return createOrDie(std::move(nodes), edges, 0);
}

RematProblem ckpt::planner::testing::randomPolicyDAG(unsigned nodeCount,
                                                     std::mt19937 &rng) {
  std::uniform_int_distribution<int> value(0, 20);
  std::vector<RematNode> nodes(nodeCount);
  std::vector<std::pair<unsigned, unsigned>> edges;
  for (unsigned v = 0; v < nodeCount; ++v) {
    RematNode &node = nodes[v];
    node.externalId = 100 + v;
    node.name = "n" + std::to_string(v);
    node.outputBytes = rng() % 8 == 0 ? 0 : value(rng) * 16;
    node.computeCostUnits = value(rng);
    node.isBackward = v >= nodeCount / 2;
    node.isRecomputable = rng() % 10 != 0;
    switch (rng() % 10) {
    case 0:
      node.policy = RematPolicy::MustSave;
      break;
    case 1:
      node.policy = RematPolicy::PreferSave;
      break;
    case 2:
      node.policy = RematPolicy::PreferRecompute;
      break;
    case 3:
      if (node.isRecomputable)
        node.policy = RematPolicy::MustRecompute;
      break;
    default:
      break;
    }
    if (v == 0)
      continue;
    unsigned inputs = 1 + rng() % std::min(3u, v);
    for (unsigned k = 0; k < inputs; ++k) {
      // Mostly local edges with a few long skips, like real training graphs.
      unsigned distance =
          rng() % 4 == 0 ? 1 + rng() % v : 1 + rng() % std::min(3u, v);
      edges.emplace_back(v - distance, v);
    }
  }
  llvm::Expected<RematProblem> problem =
      RematProblem::create(nodes, edges, (rng() % 3) * 32);
  if (problem)
    return std::move(*problem);
  // A must_recompute value whose backward consumer precedes a forward one is
  // rejected by design; drop the policies in that rare case.
  llvm::consumeError(problem.takeError());
  for (RematNode &node : nodes)
    if (node.policy == RematPolicy::MustRecompute)
      node.policy = RematPolicy::Default;
  return createOrDie(std::move(nodes), edges, 0);
}
