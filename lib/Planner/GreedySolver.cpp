//===- GreedySolver.cpp - Eviction heuristic for large DAGs ---------------===//
//
// Simulates the original order under the budget; when a computation would
// not fit, evicts the resident value with the most bytes per unit of
// recompute cost, weighted toward values whose next use is far away (a
// Belady-like lookahead), and recomputes evicted values on demand.
//
// A portfolio of eviction rules is tried and the cheapest schedule kept,
// since which rule wins depends on the graph family; where none fits the
// budget, lower aims are tried (the simulation is not monotone in the
// budget). Segment checkpointing at the forward cuts (ForwardCuts.h) is
// part of the portfolio: on deep residual stacks it is what reaches the
// smallest peaks. Then, as far as a work allowance goes
// (SolverOptions::greedyWorkAllowance: all of it on graphs of a few
// thousand nodes, none left on the largest):
//   - second opinions: recompute costs that count evicted ancestors, and
//     inputs retained past their last use as the source of a larger
//     consumer (evicting the consumer then costs only its own
//     recomputation);
//   - where the budget was met only at a lower aim, a climb toward meeting
//     it at the budget itself, one change at a time, keeping changes that
//     let the simulation get further;
//   - a local search from the cheapest few schedules that changes one
//     value's treatment at a time, keeping each change that lowers the
//     cost: bar a value the schedule recomputes at great cost from
//     eviction, or raise its recompute cost in the eviction score; drop a
//     large, cheap value right after its forward use, before memory
//     pressure forces evictions elsewhere.
//
//===----------------------------------------------------------------------===//

#include "ForwardCuts.h"
#include "OnDemandSimulation.h"
#include "PlanSupport.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace ckpt::planner;

namespace {

/// How many of the cheapest distinct schedules the local search starts from.
constexpr size_t kLocalSearchStarts = 3;

/// One change to a simulation's configuration.
struct ConfigChange {
  enum class Kind { BarEviction, RaiseCost, DropEarly };
  Kind kind;
  NodeIndex node;
};

/// Where a value dropped early is freed: after its last forward consumer
/// when it also has backward ones, else after its first consumer.
NodeIndex earlyDropStage(const RematProblem &problem, NodeIndex v) {
  if (std::optional<NodeIndex> lastForward = problem.lastForwardConsumer(v))
    if (*lastForward != problem.successors(v).back())
      return *lastForward;
  return problem.successors(v).front();
}

/// The greedy solver's search over simulation configurations.
class GreedySearch {
public:
  /// \p workAllowance bounds the simulation work of the second opinion
  /// rules and the local search (SolverOptions::greedyWorkAllowance).
  GreedySearch(const RematProblem &problem, uint64_t budgetBytes,
               unsigned lowerAims, uint64_t workAllowance)
      : problem(problem), budgetBytes(budgetBytes), lowerAims(lowerAims),
        workAllowance(workAllowance), cuts(findForwardCuts(problem)) {}

  llvm::Expected<PlanResult> run();

private:
  /// The best schedule so far and the configuration that produced it.
  struct Attempt {
    OnDemandConfig config;
    PlanResult plan;
  };

  /// A simulation's outcome and, when it met the budget, its cost.
  struct Trial {
    OnDemandOutcome outcome;
    std::optional<uint64_t> cost;
  };
  /// A configuration the local search starts from.
  struct Start {
    OnDemandConfig config;
    uint64_t cost;
    std::vector<NodeIndex> sequence;
  };

  /// Simulates \p config; keeps the plan when it meets the budget and is the
  /// cheapest so far. With \p isStart, a schedule that meets the budget is
  /// also a candidate start for the local search.
  llvm::Expected<Trial> consider(const OnDemandConfig &config,
                                 bool isStart = false);
  /// The portfolio of eviction rules, at lower aims while none fits.
  llvm::Error tryRules(OnDemandConfig config);
  /// Segment checkpointing at \p config's aim: what crosses every k-th
  /// forward cut kept, the rest of the forward dropped after its forward
  /// use, eviction under pressure as usual.
  llvm::Error trySegments(const OnDemandConfig &config);
  /// Climbs from \p config (which does not meet the budget) toward a
  /// configuration that does, keeping changes that get further.
  llvm::Error reachBudget(OnDemandConfig config);
  /// Lowers the cost of \p start one change at a time.
  llvm::Error lowerCost(Start start);
  /// The changes worth trying on \p config, given the computations it led
  /// to: for the values recomputed at most cost, raised costs, then bars;
  /// then early drops of the values with most bytes per unit of cost.
  std::vector<ConfigChange>
  changesFor(const OnDemandConfig &config,
             llvm::ArrayRef<NodeIndex> sequence) const;
  /// \p config with \p change made.
  OnDemandConfig applied(OnDemandConfig config, ConfigChange change) const;
  bool workLeft() const { return work < workAllowance; }

  const RematProblem &problem;
  uint64_t budgetBytes;
  unsigned lowerAims;
  uint64_t workAllowance;
  SolveTimer timer;
  std::optional<Attempt> best;
  std::vector<Start> starts;
  uint64_t work = 0;
  std::vector<ForwardCut> cuts;
};

} // namespace

llvm::Expected<GreedySearch::Trial>
GreedySearch::consider(const OnDemandConfig &config, bool isStart) {
  Trial trial;
  trial.outcome = simulateOnDemandOutcome(problem, config);
  work += trial.outcome.work;
  if (!trial.outcome.metBudget)
    return trial;
  llvm::Expected<PlanResult> result = finishPlan(
      problem, scheduleFromComputeSequence(problem, trial.outcome.sequence),
      budgetBytes, "greedy", timer);
  if (!result)
    return result.takeError();
  if (!result->isFeasible) {
    trial.outcome.metBudget = false;
    return trial;
  }
  trial.cost = result->costUnits;
  if (isStart)
    starts.push_back({config, result->costUnits, trial.outcome.sequence});
  if (!best || result->costUnits < best->plan.costUnits)
    best = Attempt{config, std::move(*result)};
  return trial;
}

llvm::Error GreedySearch::tryRules(OnDemandConfig config) {
  uint64_t constantBytes = problem.getConstantBytes();
  uint64_t room = budgetBytes > constantBytes ? budgetBytes - constantBytes : 0;
  for (unsigned step = 0; step <= lowerAims && !best; ++step) {
    config.budgetBytes =
        budgetBytes - (lowerAims ? room * step / (2 * lowerAims) : 0);
    // The first rule set always runs; the others (recompute costs that
    // count evicted ancestors, sources retained for larger consumers) are
    // second opinions, tried while work allows.
    for (unsigned variant = 0; variant < 4; ++variant) {
      if (variant > 0 && !workLeft())
        break;
      config.countEvictedAncestors = variant & 1;
      config.retainSources = variant & 2;
      for (double exponent : {0.0, 0.5, 1.0, 2.0}) {
        config.distanceExponent = exponent;
        if (llvm::Expected<Trial> trial = consider(config, /*isStart=*/true);
            !trial)
          return trial.takeError();
      }
      // Segments at the budget itself: their peak barely moves with the aim.
      if (variant == 0 && step == 0)
        if (llvm::Error error = trySegments(config))
          return error;
    }
  }
  return llvm::Error::success();
}

llvm::Error GreedySearch::trySegments(const OnDemandConfig &config) {
  if (cuts.size() < 2)
    return llvm::Error::success();
  // Every cut, every other (a transformer's blocks have two), every third
  // and fourth, and about the square root of their number (Chen et al.'s
  // sqrt(n) segments).
  unsigned root = std::max<unsigned>(
      1, static_cast<unsigned>(std::lround(std::sqrt(cuts.size()))));
  std::vector<unsigned> strides{1, 2, 3, 4, root};
  llvm::sort(strides);
  strides.erase(std::unique(strides.begin(), strides.end()), strides.end());
  for (unsigned stride : strides) {
    if (stride >= cuts.size())
      break;
    OnDemandConfig segmented = config;
    segmented.countEvictedAncestors = false;
    segmented.retainSources = false;
    segmented.distanceExponent = 1.0;
    checkpointSegments(problem, cuts, stride, segmented);
    if (llvm::Expected<Trial> trial = consider(segmented, /*isStart=*/true);
        !trial)
      return trial.takeError();
  }
  return llvm::Error::success();
}

std::vector<ConfigChange>
GreedySearch::changesFor(const OnDemandConfig &config,
                         llvm::ArrayRef<NodeIndex> sequence) const {
  unsigned n = problem.size();
  std::vector<unsigned> computeCount(n, 0);
  for (NodeIndex v : sequence)
    ++computeCount[v];
  std::vector<NodeIndex> recomputed, dropped;
  for (NodeIndex v = 0; v < n; ++v) {
    bool isBarred = !config.evictionCostWeight.empty() &&
                    std::isinf(config.evictionCostWeight[v]);
    if (computeCount[v] > 1 && problem.cost(v) > 0 && !isBarred)
      recomputed.push_back(v);
    if (problem.successors(v).size() >= 2 && problem.bytes(v) > 0 &&
        problem.mayRecompute(v) && !config.dropAfterStage[v])
      dropped.push_back(v);
  }
  llvm::stable_sort(recomputed, [&](NodeIndex a, NodeIndex b) {
    return (computeCount[a] - 1) * problem.cost(a) >
           (computeCount[b] - 1) * problem.cost(b);
  });
  llvm::stable_sort(dropped, [&](NodeIndex a, NodeIndex b) {
    return problem.bytes(a) * (problem.cost(b) + 1) >
           problem.bytes(b) * (problem.cost(a) + 1);
  });
  std::vector<ConfigChange> changes;
  for (NodeIndex v : recomputed)
    changes.push_back({ConfigChange::Kind::RaiseCost, v});
  for (NodeIndex v : recomputed)
    changes.push_back({ConfigChange::Kind::BarEviction, v});
  for (NodeIndex v : dropped)
    changes.push_back({ConfigChange::Kind::DropEarly, v});
  return changes;
}

OnDemandConfig GreedySearch::applied(OnDemandConfig config,
                                     ConfigChange change) const {
  switch (change.kind) {
  case ConfigChange::Kind::BarEviction:
    config.evictionCostWeight.resize(problem.size(), 1.0);
    config.evictionCostWeight[change.node] =
        std::numeric_limits<double>::infinity();
    break;
  case ConfigChange::Kind::RaiseCost:
    config.evictionCostWeight.resize(problem.size(), 1.0);
    config.evictionCostWeight[change.node] *= 4;
    break;
  case ConfigChange::Kind::DropEarly:
    config.dropAfterStage[change.node] = earlyDropStage(problem, change.node);
    break;
  }
  return config;
}

llvm::Error GreedySearch::reachBudget(OnDemandConfig config) {
  config.budgetBytes = budgetBytes;
  llvm::Expected<Trial> current = consider(config, /*isStart=*/true);
  if (!current)
    return current.takeError();
  while (!current->outcome.metBudget && workLeft()) {
    bool progressed = false;
    for (ConfigChange change : changesFor(config, current->outcome.sequence)) {
      if (!workLeft())
        break;
      OnDemandConfig changed = applied(config, change);
      llvm::Expected<Trial> trial = consider(changed, /*isStart=*/true);
      if (!trial)
        return trial.takeError();
      if (trial->outcome.metBudget ||
          trial->outcome.stagesDone > current->outcome.stagesDone) {
        config = std::move(changed);
        *current = std::move(*trial);
        progressed = true;
        break;
      }
    }
    if (!progressed)
      break;
  }
  return llvm::Error::success();
}

llvm::Error GreedySearch::lowerCost(Start start) {
  OnDemandConfig config = std::move(start.config);
  uint64_t cost = start.cost;
  std::vector<NodeIndex> sequence = std::move(start.sequence);
  bool improved = true;
  while (improved && workLeft()) {
    improved = false;
    for (ConfigChange change : changesFor(config, sequence)) {
      if (!workLeft())
        break;
      OnDemandConfig changed = applied(config, change);
      llvm::Expected<Trial> trial = consider(changed);
      if (!trial)
        return trial.takeError();
      // A change may help only at the budget itself where the configuration
      // aims lower.
      if ((!trial->cost || *trial->cost >= cost) &&
          changed.budgetBytes != budgetBytes) {
        changed.budgetBytes = budgetBytes;
        trial = consider(changed);
        if (!trial)
          return trial.takeError();
      }
      if (trial->cost && *trial->cost < cost) {
        config = std::move(changed);
        cost = *trial->cost;
        sequence = std::move(trial->outcome.sequence);
        improved = true;
        break;
      }
    }
  }
  return llvm::Error::success();
}

llvm::Expected<PlanResult> GreedySearch::run() {
  OnDemandConfig config;
  config.budgetBytes = budgetBytes;
  config.evictUnderPressure = true;
  config.dropAfterStage.resize(problem.size());
  for (NodeIndex v = 0; v < problem.size(); ++v)
    if (problem.needsPhaseSplit(v))
      config.dropAfterStage[v] = problem.lastForwardConsumer(v);

  if (llvm::Error error = tryRules(config))
    return std::move(error);
  if (workLeft() && (!best || best->config.budgetBytes != budgetBytes))
    if (llvm::Error error = reachBudget(best ? best->config : config))
      return std::move(error);
  if (!best)
    return infeasiblePlan("greedy", timer);
  // The local search climbs from the cheapest few distinct starts: which
  // start leads to the cheapest schedule varies by graph.
  llvm::stable_sort(
      starts, [](const Start &a, const Start &b) { return a.cost < b.cost; });
  std::vector<Start> distinct;
  for (Start &start : starts)
    if (distinct.size() < kLocalSearchStarts &&
        (distinct.empty() || distinct.back().cost != start.cost))
      distinct.push_back(std::move(start));
  for (Start &start : distinct)
    if (llvm::Error error = lowerCost(std::move(start)))
      return std::move(error);

  best->plan.solveTimeSeconds = timer.elapsedSeconds();
  return std::move(best->plan);
}

llvm::Expected<PlanResult>
ckpt::planner::solveGreedy(const RematProblem &problem, uint64_t budgetBytes,
                           const SolverOptions &options) {
  return GreedySearch(problem, budgetBytes, /*lowerAims=*/8,
                      options.greedyWorkAllowance)
      .run();
}

llvm::Expected<PlanResult>
ckpt::planner::solveGreedyOnce(const RematProblem &problem,
                               uint64_t budgetBytes) {
  return GreedySearch(problem, budgetBytes, /*lowerAims=*/0,
                      /*workAllowance=*/0)
      .run();
}
