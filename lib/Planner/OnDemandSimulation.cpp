//===- OnDemandSimulation.cpp - Recompute-on-demand schedule builder ------===//

#include "OnDemandSimulation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cmath>

using namespace ckpt::planner;

namespace {

class OnDemandSimulation {
public:
  OnDemandSimulation(const RematProblem &problem, const OnDemandConfig &config)
      : problem(problem), config(config), n(problem.size()), resident(n, false),
        residentSlot(n, ~0u), remainingUses(n), lastUse(n), pinStamp(n, 0),
        pendingReads(n, 0), fullyRecomputable(n), staleCopy(n, false),
        visitStamp(n, 0), rematStamp(n, 0), rematAnswer(n, false),
        retainedFor(n, kNone) {
    for (NodeIndex v = 0; v < n; ++v) {
      remainingUses[v] = problem.successors(v).size();
      lastUse[v] = problem.neededUntil(v);
      bool ok = problem.mayRecompute(v);
      for (NodeIndex u : problem.predecessors(v))
        ok = ok && fullyRecomputable[u];
      fullyRecomputable[v] = ok;
    }
    residentBytes = problem.getConstantBytes();
  }

  OnDemandOutcome run();

private:
  /// Computes every non-resident value that \p target needs, then target.
  bool materialize(NodeIndex target, unsigned stage);
  bool makeRoom(uint64_t bytesNeeded, unsigned stage);
  /// Cost of recomputing \p v now: its own cost plus what rebuilding its
  /// missing inputs costs (see OnDemandConfig::countEvictedAncestors).
  double rematerializationCost(NodeIndex v);
  /// \p x ^ config.distanceExponent, without pow for the usual exponents
  /// (pow dominated the eviction scan on large graphs).
  double distanceWeight(double x) const {
    double exponent = config.distanceExponent;
    if (exponent == 0)
      return 1;
    if (exponent == 0.5)
      return std::sqrt(x);
    if (exponent == 1)
      return x;
    if (exponent == 2)
      return x * x;
    return std::pow(x, exponent);
  }
  void compute(NodeIndex v);
  void release(NodeIndex v);
  /// True when \p v can be recomputed at any point up to stage \p until:
  /// every input is recomputable from scratch or is a value that is never
  /// evicted and stays resident long enough.
  bool canRematerializeUntil(NodeIndex v, unsigned until, unsigned depth);
  /// A value without remaining consumers may still be needed to recompute a
  /// must_recompute value; one that cannot itself be recomputed then stays.
  /// A checkpoint (OnDemandConfig::keepUntilStage) lives until its stage.
  bool isDead(NodeIndex v, unsigned stage) const {
    if (!config.keepUntilStage.empty() && config.keepUntilStage[v] &&
        stage < *config.keepUntilStage[v])
      return false;
    return problem.mayRecompute(v) || stage >= lastUse[v];
  }
  /// True when \p u, whose last use is \p stage, should stay as the source
  /// of the consumer computed there (OnDemandConfig::retainSources).
  bool shouldRetainSource(NodeIndex u, NodeIndex stage) const;
  /// True when \p v is retained for a consumer that still has uses.
  bool isRetained(NodeIndex v) const {
    return retainedFor[v] != kNone && remainingUses[retainedFor[v]] > 0;
  }

  const RematProblem &problem;
  const OnDemandConfig &config;
  unsigned n;
  std::vector<bool> resident;
  std::vector<unsigned> residentSlot;
  std::vector<NodeIndex> residentList;
  std::vector<unsigned> remainingUses;
  std::vector<unsigned> lastUse;
  std::vector<unsigned> pinStamp;
  std::vector<unsigned> pendingReads;
  unsigned currentPin = 0;
  std::vector<bool> fullyRecomputable;
  /// A must_recompute copy past its last forward use; it must be recomputed
  /// before any further use.
  std::vector<bool> staleCopy;
  /// Marks of rematerializationCost's walk (currentVisit: this walk's).
  std::vector<unsigned> visitStamp;
  static constexpr NodeIndex kNone = ~0u;
  /// For a value kept past its last use as a source (retainSources), the
  /// consumer it is kept for; kNone otherwise.
  std::vector<NodeIndex> retainedFor;
  unsigned currentVisit = 0;
  /// Answers of canRematerializeUntil within one query (currentQuery: this
  /// query's): the residency it reads does not change during a query, and
  /// without them a DAG's many paths to the same ancestors are walked again
  /// and again (exponentially: a 528-node ResNet-18 joint graph ran past 10
  /// minutes).
  std::vector<unsigned> rematStamp;
  std::vector<bool> rematAnswer;
  unsigned currentQuery = 0;
  uint64_t residentBytes = 0;
  /// Stages, computations and eviction candidates scored (OnDemandOutcome).
  uint64_t work = 0;
  std::vector<NodeIndex> sequence;
};

} // namespace

void OnDemandSimulation::compute(NodeIndex v) {
  resident[v] = true;
  staleCopy[v] = false;
  residentSlot[v] = residentList.size();
  residentList.push_back(v);
  residentBytes += problem.bytes(v);
  sequence.push_back(v);
  ++work;
}

void OnDemandSimulation::release(NodeIndex v) {
  if (!resident[v])
    return;
  resident[v] = false;
  retainedFor[v] = kNone;
  residentBytes -= problem.bytes(v);
  unsigned slot = residentSlot[v];
  NodeIndex moved = residentList.back();
  residentList[slot] = moved;
  residentSlot[moved] = slot;
  residentList.pop_back();
  residentSlot[v] = ~0u;
}

bool OnDemandSimulation::canRematerializeUntil(NodeIndex v, unsigned until,
                                               unsigned depth) {
  if (!problem.mayRecompute(v))
    return false;
  if (fullyRecomputable[v])
    return true;
  // Deep chains of partially recomputable values are rare; refusing them
  // only keeps a value resident.
  if (depth > 64)
    return false;
  if (depth == 0)
    ++currentQuery;
  else if (rematStamp[v] == currentQuery)
    return rematAnswer[v];
  bool answer = true;
  for (NodeIndex u : problem.predecessors(v)) {
    if (fullyRecomputable[u])
      continue;
    if (!problem.mayRecompute(u)) {
      if (!resident[u] || lastUse[u] < until) {
        answer = false;
        break;
      }
      continue;
    }
    if (!canRematerializeUntil(u, until, depth + 1)) {
      answer = false;
      break;
    }
  }
  rematStamp[v] = currentQuery;
  rematAnswer[v] = answer;
  return answer;
}

double OnDemandSimulation::rematerializationCost(NodeIndex v) {
  double rematCost = problem.cost(v);
  if (!config.countEvictedAncestors) {
    for (NodeIndex u : problem.predecessors(v))
      if (!resident[u])
        rematCost += problem.cost(u);
    return rematCost;
  }
  // Walk the missing ancestors; the walk is bounded so that eviction stays
  // cheap on long chains of evicted values (beyond the bound, the estimate
  // is low, which only makes the value look cheaper to evict).
  constexpr unsigned kMaxVisited = 32;
  ++currentVisit;
  llvm::SmallVector<NodeIndex, 16> worklist{v};
  visitStamp[v] = currentVisit;
  unsigned visited = 0;
  while (!worklist.empty() && visited < kMaxVisited) {
    NodeIndex w = worklist.pop_back_val();
    for (NodeIndex u : problem.predecessors(w)) {
      if (resident[u] || visitStamp[u] == currentVisit)
        continue;
      visitStamp[u] = currentVisit;
      rematCost += problem.cost(u);
      worklist.push_back(u);
      ++visited;
    }
  }
  return rematCost;
}

bool OnDemandSimulation::shouldRetainSource(NodeIndex u,
                                            NodeIndex stage) const {
  if (!config.retainSources || !problem.mayRecompute(u) ||
      problem.needsPhaseSplit(u) || !resident[stage] || problem.isSink(stage) ||
      !problem.mayRecompute(stage) || problem.needsPhaseSplit(stage) ||
      problem.bytes(u) >= problem.bytes(stage))
    return false;
  // The consumer's other inputs must be resident for the source to make its
  // recomputation cheap.
  for (NodeIndex p : problem.predecessors(stage))
    if (p != u && !resident[p])
      return false;
  return true;
}

bool OnDemandSimulation::makeRoom(uint64_t bytesNeeded, unsigned stage) {
  uint64_t budget = config.budgetBytes;
  while (residentBytes + bytesNeeded > budget) {
    if (!config.evictUnderPressure)
      return false;
    NodeIndex best = ~0u;
    double bestScore = -1;
    work += residentList.size();
    for (NodeIndex v : residentList) {
      // A retained source is scored by its consumer's next use.
      NodeIndex user =
          config.retainSources && isRetained(v) ? retainedFor[v] : v;
      if (pinStamp[v] == currentPin || problem.bytes(v) == 0 ||
          problem.isSink(v) || remainingUses[user] == 0)
        continue;
      if (!problem.mayRecompute(v))
        continue;
      double weight = config.evictionCostWeight.empty()
                          ? 1.0
                          : config.evictionCostWeight[v];
      if (std::isinf(weight))
        continue;
      double rematCost = rematerializationCost(v) * weight;
      switch (problem.node(v).policy) {
      case RematPolicy::PreferSave:
        rematCost = rematCost * 4 + 1;
        break;
      case RematPolicy::PreferRecompute:
        rematCost /= 4;
        break;
      default:
        break;
      }
      auto consumers = problem.successors(user);
      NodeIndex nextUse = consumers[consumers.size() - remainingUses[user]];
      double distance = nextUse > stage ? nextUse - stage : 0;
      double score =
          problem.bytes(v) * distanceWeight(distance + 1) / (rematCost + 1e-9);
      if (score > bestScore && canRematerializeUntil(v, lastUse[user], 0)) {
        bestScore = score;
        best = v;
      }
    }
    if (best == ~0u)
      return false;
    release(best);
  }
  return true;
}

bool OnDemandSimulation::materialize(NodeIndex target, unsigned stage) {
  // Collect the non-resident (or stale) ancestors target needs. Indices are a
  // topological order, so sorting them gives a valid computation order.
  std::vector<NodeIndex> missing;
  std::vector<NodeIndex> worklist{target};
  ++currentPin;
  pinStamp[target] = currentPin;
  while (!worklist.empty()) {
    NodeIndex v = worklist.back();
    worklist.pop_back();
    missing.push_back(v);
    for (NodeIndex u : problem.predecessors(v)) {
      if (pinStamp[u] == currentPin)
        continue;
      pinStamp[u] = currentPin;
      if (resident[u] && !staleCopy[u])
        continue;
      if (!problem.mayRecompute(u))
        return false;
      // A stale must_recompute copy is freed and recomputed.
      release(u);
      worklist.push_back(u);
    }
  }
  llvm::sort(missing);
  // Values read only by this rebuild die after their last reader here, as
  // scheduleFromComputeSequence will free them; tracking that keeps the
  // simulated memory close to the real one.
  for (NodeIndex v : missing)
    for (NodeIndex u : problem.predecessors(v))
      ++pendingReads[u];
  bool ok = true;
  for (NodeIndex v : missing) {
    // A node writes into an overwritable input released right after it:
    // the stage's node (its first computation) when run() releases the
    // input after it, a rebuild when this is the input's last read here and
    // nothing later needs it (the loop below releases it).
    bool inputDies = false;
    if (std::optional<NodeIndex> u = problem.overwritableInput(v);
        u && resident[*u]) {
      if (v == target)
        inputDies = isDead(*u, stage) && remainingUses[*u] == 1 &&
                    !shouldRetainSource(*u, stage);
      else
        inputDies = pendingReads[*u] == 1 && remainingUses[*u] == 0 &&
                    !problem.isSink(*u) && isDead(*u, stage);
    }
    if (!makeRoom(problem.addedBytes(v, inputDies), stage)) {
      ok = false;
      break;
    }
    compute(v);
    for (NodeIndex u : problem.predecessors(v)) {
      if (--pendingReads[u] != 0)
        continue;
      if (v != target && remainingUses[u] == 0 && !problem.isSink(u) &&
          isDead(u, stage))
        release(u);
      else if (u != target && !problem.keepsRebuiltValues())
        // The rest of this rebuild does not read it: it may make room for
        // the steps after (a rebuilt ReLU that served a pooling's rebuild,
        // needed again much later), unless the program running the plan
        // keeps what it rebuilds.
        pinStamp[u] = 0;
    }
  }
  for (NodeIndex v : missing)
    for (NodeIndex u : problem.predecessors(v))
      pendingReads[u] = 0;
  return ok;
}

OnDemandOutcome OnDemandSimulation::run() {
  OnDemandOutcome outcome;
  for (unsigned stage = 0; stage < n; ++stage) {
    ++work;
    if (!materialize(stage, stage) ||
        problem.getConstantBytes() > config.budgetBytes) {
      outcome.stagesDone = stage;
      outcome.work = work;
      outcome.sequence = std::move(sequence);
      return outcome;
    }
    for (NodeIndex u : problem.predecessors(stage)) {
      --remainingUses[u];
      if (remainingUses[u] == 0 && isDead(u, stage)) {
        if (shouldRetainSource(u, stage))
          retainedFor[u] = stage;
        else
          release(u);
      } else if (problem.needsPhaseSplit(u) &&
                 problem.lastForwardConsumer(u) == stage)
        staleCopy[u] = true;
    }
    // Values recomputed only to rebuild others die with the stage.
    for (size_t i = 0; i < residentList.size();) {
      NodeIndex v = residentList[i];
      if (remainingUses[v] == 0 && !problem.isSink(v) && isDead(v, stage) &&
          !isRetained(v)) {
        release(v);
        continue;
      }
      ++i;
    }
    for (NodeIndex u : problem.predecessors(stage)) {
      if (!resident[u] || config.dropAfterStage.empty())
        continue;
      std::optional<NodeIndex> dropStage = config.dropAfterStage[u];
      if (dropStage && *dropStage == stage &&
          canRematerializeUntil(u, lastUse[u], 0))
        release(u);
    }
    for (NodeIndex u : problem.predecessors(stage))
      if (staleCopy[u])
        release(u);
  }
  outcome.metBudget = true;
  outcome.stagesDone = n;
  outcome.work = work;
  outcome.sequence = std::move(sequence);
  return outcome;
}

OnDemandOutcome
ckpt::planner::simulateOnDemandOutcome(const RematProblem &problem,
                                       const OnDemandConfig &config) {
  return OnDemandSimulation(problem, config).run();
}

std::optional<std::vector<NodeIndex>>
ckpt::planner::simulateOnDemand(const RematProblem &problem,
                                const OnDemandConfig &config) {
  OnDemandOutcome outcome = simulateOnDemandOutcome(problem, config);
  if (!outcome.metBudget)
    return std::nullopt;
  return std::move(outcome.sequence);
}
