//===- ExhaustiveSearch.cpp - Reference optima for small problems ---------===//

#include "ExhaustiveSearch.h"

#include "llvm/Support/ErrorHandling.h"

#include <map>
#include <queue>
#include <unordered_map>

using namespace ckpt::planner;
using namespace ckpt::planner::testing;

std::optional<uint64_t>
ckpt::planner::testing::unrestrictedOptimalCost(const RematProblem &problem,
                                                uint64_t budgetBytes) {
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
ckpt::planner::testing::stageClassOptimalCost(const RematProblem &problem,
                                              uint64_t budgetBytes) {
  unsigned n = problem.size();
  if (n > 10)
    llvm::report_fatal_error("exhaustive search limited to 10 nodes");
  // The class, as documented on solveILP: a value is held or recomputed only
  // in stages (v, neededUntil(v)]; values that may not be recomputed and
  // outputs are always held there (outputs to the end); stage t recomputes
  // only ancestors of t; memory of a stage counts everything held at its
  // start, everything recomputed in it and node t.
  std::vector<uint32_t> ancestors(n, 0);
  for (NodeIndex t = 0; t < n; ++t)
    for (NodeIndex u : problem.predecessors(t))
      ancestors[t] |= (1u << u) | ancestors[u];
  auto isFixed = [&](NodeIndex v) {
    return !problem.mayRecompute(v) || problem.isSink(v) ||
           (problem.bytes(v) == 0 && !problem.needsPhaseSplit(v));
  };
  auto inRange = [&](NodeIndex v, unsigned t) {
    if (t <= v)
      return false;
    if (problem.isSink(v))
      return true;
    return t <= problem.neededUntil(v);
  };
  auto bytesOf = [&](uint32_t mask) {
    uint64_t total = 0;
    for (NodeIndex v = 0; v < n; ++v)
      if (mask & (1u << v))
        total += problem.bytes(v);
    return total;
  };

  std::map<uint32_t, uint64_t> current{{0, 0}};
  for (unsigned t = 0; t < n; ++t) {
    uint32_t fixedHeld = 0, candidates = 0, nextAllowed = 0;
    for (NodeIndex v = 0; v < n; ++v) {
      if (isFixed(v) && inRange(v, t))
        fixedHeld |= 1u << v;
      if (!isFixed(v) && inRange(v, t) && (ancestors[t] & (1u << v)))
        candidates |= 1u << v;
      if (!isFixed(v) && inRange(v, t + 1))
        nextAllowed |= 1u << v;
    }
    for (NodeIndex v = 0; v < n; ++v)
      if (problem.needsPhaseSplit(v) &&
          t + 1 == *problem.lastForwardConsumer(v) + 1)
        nextAllowed &= ~(1u << v);
    uint64_t fixedBytes =
        problem.getConstantBytes() + problem.bytes(t) + bytesOf(fixedHeld);
    std::map<uint32_t, uint64_t> next;
    for (auto [held, cost] : current) {
      uint32_t recomputable = candidates & ~held;
      // Enumerate every subset of the recomputation candidates.
      for (uint32_t rec = recomputable;; rec = (rec - 1) & recomputable) {
        uint32_t available = held | rec | fixedHeld;
        bool ok = fixedBytes + bytesOf(held | rec) <= budgetBytes;
        for (NodeIndex x = 0; ok && x <= t; ++x) {
          if (x != t && !(rec & (1u << x)))
            continue;
          for (NodeIndex u : problem.predecessors(x))
            ok = ok && (available & (1u << u));
        }
        if (ok) {
          uint64_t stageCost = cost;
          for (NodeIndex v = 0; v < n; ++v)
            if (rec & (1u << v))
              stageCost += problem.cost(v);
          uint32_t keepable = (held | rec | (1u << t)) & nextAllowed;
          for (uint32_t keep = keepable;; keep = (keep - 1) & keepable) {
            auto [it, inserted] = next.try_emplace(keep, stageCost);
            if (!inserted)
              it->second = std::min(it->second, stageCost);
            if (keep == 0)
              break;
          }
        }
        if (rec == 0)
          break;
      }
    }
    current = std::move(next);
    if (current.empty())
      return std::nullopt;
  }
  uint64_t best = UINT64_MAX;
  for (auto [held, cost] : current)
    best = std::min(best, cost);
  return best + problem.totalComputeCostUnits();
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

RematProblem ckpt::planner::testing::randomDAG(unsigned nodeCount,
                                               std::mt19937 &rng) {
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
  }
  return createOrDie(std::move(nodes), edges, 0);
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
