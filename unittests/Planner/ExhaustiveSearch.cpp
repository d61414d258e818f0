//===- ExhaustiveSearch.cpp - Reference optima for small problems ---------===//

#include "ExhaustiveSearch.h"

#include "llvm/Support/ErrorHandling.h"

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
ckpt::planner::testing::stageClassOptimalCost(const RematProblem &problem,
                                              uint64_t budgetBytes,
                                              unsigned recomputeDepth) {
  unsigned n = problem.size();
  if (n > 10)
    llvm::report_fatal_error("exhaustive search limited to 10 nodes");
  // The class, as documented on solveILP: stage t < n recomputes, in index
  // order, some ancestors of t that may be recomputed and are not held, then
  // computes t; a final stage n recomputes outputs that were not held (and
  // what they need) and ends with every output resident. Zero-byte values
  // (other than must_recompute ones with consumers in both phases) are held
  // from their computation on; any other value may be held into stage t+1
  // if it was held in or computed in stage t, except a must_recompute copy
  // past its last forward consumer. Inside a stage, a value is freed right
  // after the step that reads it last in the stage unless it is held into
  // the next stage or read by t; values nobody reads in the stage stay
  // until its end. Memory is checked after every computation.
  std::vector<NodeIndex> outputs;
  for (NodeIndex v = 0; v < n; ++v)
    if (problem.isSink(v))
      outputs.push_back(v);
  // Stage n's target is a virtual node that reads every output.
  auto inputsOf = [&](NodeIndex x) {
    return x < n ? problem.predecessors(x) : llvm::ArrayRef(outputs);
  };
  std::vector<uint32_t> ancestors(n + 1, 0);
  for (NodeIndex t = 0; t <= n; ++t)
    for (NodeIndex u : inputsOf(t))
      ancestors[t] |= (1u << u) | ancestors[u];
  // With a depth limit, stage t may recompute only nodes at distance at most
  // recomputeDepth from t (its inputs are at distance 1).
  if (recomputeDepth > 0)
    for (NodeIndex t = 0; t <= n; ++t) {
      uint32_t withinReach = 0, ring = 0;
      for (NodeIndex u : inputsOf(t))
        ring |= 1u << u;
      for (unsigned distance = 1; distance <= recomputeDepth; ++distance) {
        withinReach |= ring;
        uint32_t next = 0;
        for (NodeIndex v = 0; v < n; ++v)
          if (ring & (1u << v))
            for (NodeIndex u : problem.predecessors(v))
              next |= 1u << u;
        ring = next & ~withinReach;
      }
      ancestors[t] &= withinReach;
    }
  auto isHeldAlways = [&](NodeIndex v) {
    return problem.bytes(v) == 0 && !problem.needsPhaseSplit(v);
  };
  auto bytesOf = [&](uint32_t mask) {
    uint64_t total = 0;
    for (NodeIndex v = 0; v < n; ++v)
      if (mask & (1u << v))
        total += problem.bytes(v);
    return total;
  };

  std::map<uint32_t, uint64_t> current{{0, 0}};
  for (unsigned t = 0; t <= n; ++t) {
    uint32_t alwaysHeld = 0, candidates = 0, nextAllowed = 0;
    for (NodeIndex v = 0; v < n; ++v) {
      if (isHeldAlways(v)) {
        if (v < t)
          alwaysHeld |= 1u << v;
        continue;
      }
      if (v < t && (ancestors[t] & (1u << v)) && problem.mayRecompute(v))
        candidates |= 1u << v;
      bool staleNext =
          problem.needsPhaseSplit(v) && *problem.lastForwardConsumer(v) == t;
      if (v <= t && !staleNext)
        nextAllowed |= 1u << v;
    }
    uint64_t constantBytes = problem.getConstantBytes();
    std::map<uint32_t, uint64_t> next;
    for (auto [held, cost] : current) {
      uint32_t recomputable = candidates & ~held;
      for (uint32_t rec = recomputable;; rec = (rec - 1) & recomputable) {
        uint32_t stepsMask = rec | (1u << t);
        uint32_t available = held | rec | alwaysHeld;
        bool ok = true;
        for (NodeIndex x = 0; ok && x <= t; ++x)
          if (stepsMask & (1u << x))
            for (NodeIndex u : inputsOf(x))
              ok = ok && (available & (1u << u));
        uint64_t stageCost = cost;
        for (NodeIndex v = 0; v < n; ++v)
          if (rec & (1u << v))
            stageCost += problem.cost(v);
        uint32_t keepable = (held | rec | (1u << t)) & nextAllowed;
        for (uint32_t keep = keepable; ok; keep = (keep - 1) & keepable) {
          // Replay the stage with this choice of values held into t+1.
          uint32_t live = held;
          bool fits = true;
          for (NodeIndex x = 0; fits && x <= t; ++x) {
            if (!(stepsMask & (1u << x)))
              continue;
            live |= 1u << x;
            fits = constantBytes + bytesOf(live) <= budgetBytes;
            for (NodeIndex u : inputsOf(x)) {
              bool readLater = false;
              for (NodeIndex y = x + 1; y <= t; ++y)
                if (stepsMask & (1u << y))
                  for (NodeIndex w : inputsOf(y))
                    readLater = readLater || w == u;
              if (!readLater && !(keep & (1u << u)))
                live &= ~(1u << u);
            }
          }
          if (fits) {
            auto [it, inserted] = next.try_emplace(keep, stageCost);
            if (!inserted)
              it->second = std::min(it->second, stageCost);
          }
          if (keep == 0)
            break;
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
