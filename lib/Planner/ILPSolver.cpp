//===- ILPSolver.cpp - Retention-pattern MILP solved with CBC -------------===//
//
// A schedule of the class is described value by value, in the spirit of
// Moccasin's retention intervals (Bartan et al., ICML 2023):
//   - stage t < n computes node t for the first time, after recomputing
//     some values in index order; a final stage n recomputes outputs that
//     were dropped and ends with every output resident (as if a virtual node
//     read them);
//   - an instance of value v is one computation of v and the stages it is
//     resident for: computed in stage `start` (its own stage for the first
//     instance, a recomputation otherwise), freed right after its last read
//     in stage `end`; instances of a value do not overlap;
//   - a pattern is the list of v's instances; the model picks one pattern
//     per value among candidates: keep (one instance), or the first
//     instance and one recomputation (two instances: Moccasin's bound of
//     two intervals), or two recomputations when that adds few candidates
//     (SolverOptions::ilpMaxCopies), plus greedy's own pattern whatever its
//     instance count, so that greedy's schedule is always in the class.
// Candidates: v may be recomputed in stage s > its first read when s reads
// v or recomputes a consumer of v (its "needs") and v lies within
// SolverOptions::ilpRecomputeDepth edges upstream of what stage s's node
// reads; instances end at needs. Without a depth limit (0), v may be
// recomputed in any later stage and its first copy freed right after its
// computation: then the class is exactly what the unit tests enumerate.
// Every original read is covered by construction.
//
// Columns: x[v,p] (binary, pattern p chosen; cost = recomputations x cost),
// a[v,t] (binary, v resident in stage t, defined from x by a recurrence over
// instance starts and ends, so each x appears in O(1) rows; integer, so the
// memory rows are knapsacks CBC branches and cuts on: declared continuous,
// the transformer at 0.9 was not proven in 60 s, integer in 5 s), st[v,t]
// (v recomputed in stage t), live[v,t,k] (a value whose instance ends in
// stage t is still needed at recomputation step k), all binary; and k[g]
// (integer), the number of values of a group of interchangeable values
// (same cost, same bytes) that are recomputed.
//
// Why the counts: values of the same cost and size are interchangeable in
// the memory rows up to where they live, as the attention values of a
// transformer's identical blocks are. At the transformer benchmark at 0.8,
// the root LP recomputes a fraction of one block's attention
// probabilities; branching on that block moves the fraction to another
// one, and CBC did not close the gap (0.13%) in 160 s. k[g] is integral in
// every integer solution (a sum of binaries, one non-keep pattern per
// value), so it cuts off nothing, and branching on it decides how many of
// the blocks recompute at once. With the counts and the st, ending and live
// columns declared binary, that case is proven in 17 s; either change alone
// did not prove it in 60 s.
// Rows:
//   - one pattern per value;
//   - availability: for every range [a, b] of v's recomputation stages and
//     input u, recomputing v somewhere in [a, b] needs u resident in some
//     stage of [a, b]: sum st[v, a..b] <= a[u,a] + (patterns of u starting
//     an instance in (a, b] without covering a). The range form is what
//     makes the LP tight: per stage, half a recomputation of u could serve
//     two half recomputations of v in different stages (on the 8-block
//     transformer benchmark at 0.7 the root bound goes from 2,774 to
//     14,293 with the ranges; the optimum is 14,910). Values recomputable
//     in many stages get ranges of a few stages only;
//   - memory after every recomputation step and at every node, exact for
//     the class: a value is freed after its last read in the stage its
//     instance ends in (the live columns say whether a later step of the
//     stage still reads it). A node writing into an overwritable input
//     whose instance ends at the node adds no bytes there, and so does a
//     recomputation writing into an input whose instance ends at it; a
//     step's workspace takes room from its row.
// Solved with CBC (no preprocessing: it would substitute the coverage
// recurrences back into dense memory rows) from greedy's schedule.
//
//===----------------------------------------------------------------------===//

#include "MixedIntegerProgram.h"
#include "PlanSupport.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

using namespace ckpt::planner;

namespace {

/// Refuse models beyond this many candidate patterns: CBC would not finish.
constexpr size_t kMaxPatterns = 500'000;

/// Patterns with a third copy are added when there are at most this many.
constexpr size_t kMaxThirdCopyPatterns = 20'000;

/// Availability rows cover every range of a value's recomputation stages
/// when it has at most this many, and ranges of at most kShortRangeStarts
/// stages otherwise. The long ranges matter (the transformer benchmark at
/// 0.6 is proven in 38 s with every range, not in 60 s when values with
/// more than 12 stages get short ranges only), but values recomputable in
/// dozens of stages (random DAGs) would take gigabytes of rows.
constexpr size_t kAllRangesStarts = 24;
constexpr size_t kShortRangeStarts = 4;

/// One computation of a value and the stages it is resident for.
struct Instance {
  unsigned start, end;
  bool operator==(const Instance &other) const {
    return start == other.start && end == other.end;
  }
};

/// A candidate for how one value is held: its instances in stage order.
struct Pattern {
  llvm::SmallVector<Instance, 2> instances;
  int column = -1;

  /// The instance resident in stage \p t, if any.
  const Instance *covering(unsigned t) const {
    for (const Instance &instance : instances)
      if (instance.start <= t && t <= instance.end)
        return &instance;
    return nullptr;
  }
  unsigned lastStage() const { return instances.back().end; }
};

/// Appends \p pattern to \p patterns unless an equal one is there.
void appendIfNew(std::vector<Pattern> &patterns, Pattern pattern) {
  if (llvm::none_of(patterns, [&](const Pattern &existing) {
        return existing.instances == pattern.instances;
      }))
    patterns.push_back(std::move(pattern));
}

/// Candidate patterns and the columns of the model, per value.
struct ValueModel {
  /// False for values resident from their computation on without columns
  /// (zero bytes and no phase split).
  bool isModeled = false;
  std::vector<Pattern> patterns;
  /// a[v,t] for t in (v, lastStage]; index t - v - 1.
  std::vector<int> residentColumn;
  /// st[v,t] for the stages that start a recomputation of v.
  std::map<unsigned, int> startColumn;
  unsigned lastStage = 0;

  int resident(NodeIndex v, unsigned t) const {
    if (!isModeled || t <= v || t > lastStage)
      return -1;
    return residentColumn[t - v - 1];
  }
  int start(unsigned t) const {
    auto it = startColumn.find(t);
    return it == startColumn.end() ? -1 : it->second;
  }
};

/// The patterns of a schedule that computes nodes for the first time in
/// original order, or nullopt when it has no stage form (a value recomputed
/// while resident).
std::optional<std::vector<Pattern>>
patternsOfSchedule(const RematProblem &problem, const Schedule &schedule) {
  unsigned n = problem.size();
  std::vector<Pattern> patterns(n);
  unsigned stage = 0;
  std::vector<bool> resident(n, false);
  for (const ScheduleStep &step : schedule) {
    NodeIndex v = step.node;
    if (step.kind == StepKind::Free) {
      resident[v] = false;
      continue;
    }
    if (resident[v])
      return std::nullopt;
    for (NodeIndex u : problem.predecessors(v))
      if (!patterns[u].instances.empty())
        patterns[u].instances.back().end =
            std::max(patterns[u].instances.back().end, stage);
    if (patterns[v].instances.empty() && v != stage)
      return std::nullopt;
    patterns[v].instances.push_back({stage, stage});
    resident[v] = true;
    if (v == stage && stage < n)
      ++stage;
  }
  for (NodeIndex v = 0; v < n; ++v) {
    if (patterns[v].instances.empty())
      return std::nullopt;
    if (problem.isSink(v))
      patterns[v].instances.back().end = n;
  }
  return patterns;
}

} // namespace

/// Adds k[g] = number of recomputed values, for each group of at least two
/// modeled values with the same cost and bytes and recomputation patterns
/// (see the file comment: CBC branches on these counts).
static void addInterchangeableCounts(const RematProblem &problem,
                                     llvm::ArrayRef<ValueModel> values,
                                     MixedIntegerProgram &model) {
  std::map<std::pair<uint64_t, uint64_t>, std::vector<NodeIndex>> groups;
  for (NodeIndex v = 0; v < values.size(); ++v)
    if (values[v].isModeled && values[v].patterns.size() > 1)
      groups[{problem.cost(v), problem.bytes(v)}].push_back(v);
  for (const auto &[signature, members] : groups) {
    if (members.size() < 2)
      continue;
    int count = model.addColumn(0, 0, members.size(), /*integer=*/true);
    std::vector<std::pair<int, double>> terms{{count, 1}};
    for (NodeIndex v : members)
      for (const Pattern &pattern : values[v].patterns)
        if (pattern.instances.size() > 1)
          terms.emplace_back(pattern.column, -1);
    model.addRow(terms, 0, 0);
  }
}

llvm::Expected<PlanResult>
ckpt::planner::solveILP(const RematProblem &problem, uint64_t budgetBytes,
                        const SolverOptions &options) {
  return solveILPFromGreedy(problem, budgetBytes, options, nullptr);
}

llvm::Expected<PlanResult> ckpt::planner::solveILPFromGreedy(
    const RematProblem &problem, uint64_t budgetBytes,
    const SolverOptions &options, const PlanResult *greedyResult) {
  SolveTimer timer;
  unsigned n = problem.size();
  if (problem.getConstantBytes() > budgetBytes)
    return infeasiblePlan("ilp", timer);
  // Does the last step of stage t (node t, or the final stage) read v?
  auto stageReads = [&](NodeIndex v, unsigned t) {
    return t < n ? llvm::is_contained(problem.predecessors(t), v)
                 : problem.isSink(v);
  };

  // Greedy's schedule: the starting incumbent, and its patterns are
  // candidates whatever their shape.
  std::optional<std::vector<Pattern>> greedyPatterns;
  std::optional<Schedule> greedySchedule;
  if (options.ilpIncludeGreedy) {
    std::optional<PlanResult> solved;
    if (!greedyResult) {
      if (llvm::Expected<PlanResult> result =
              solveGreedy(problem, budgetBytes, options)) {
        solved = std::move(*result);
        greedyResult = &*solved;
      } else {
        llvm::consumeError(result.takeError());
      }
    }
    if (greedyResult && greedyResult->isFeasible) {
      greedyPatterns = patternsOfSchedule(problem, greedyResult->schedule);
      greedySchedule = greedyResult->schedule;
    }
  }

  // near[t]: values within the depth limit upstream of what stage t reads.
  std::vector<llvm::BitVector> near(n + 1, llvm::BitVector(n));
  for (unsigned t = 0; t <= n; ++t) {
    std::vector<NodeIndex> frontier;
    for (NodeIndex v = 0; v < n; ++v)
      if (stageReads(v, t)) {
        near[t].set(v);
        frontier.push_back(v);
      }
    unsigned depth = options.ilpRecomputeDepth;
    for (unsigned hops = 1; (depth == 0 || hops < depth) && !frontier.empty();
         ++hops) {
      std::vector<NodeIndex> next;
      for (NodeIndex v : frontier)
        for (NodeIndex u : problem.predecessors(v))
          if (!near[t].test(u)) {
            near[t].set(u);
            next.push_back(u);
          }
      frontier = std::move(next);
    }
  }

  bool unlimited = options.ilpRecomputeDepth == 0;
  // Needs and recomputation stages, consumers first.
  std::vector<ValueModel> values(n);
  std::vector<std::set<unsigned>> recomputeStages(n);
  std::vector<std::vector<Pattern>> thirdCopyPatterns(n);
  // Third-copy patterns enumerated so far (they are enumerated while they
  // can all be kept).
  size_t thirdCopyTotal = 0;
  size_t patternCount = 0;
  for (NodeIndex v = n; v-- > 0;) {
    ValueModel &value = values[v];
    value.isModeled = problem.bytes(v) > 0 || problem.needsPhaseSplit(v);
    if (!value.isModeled)
      continue;
    std::vector<unsigned> reads(problem.successors(v).begin(),
                                problem.successors(v).end());
    if (problem.isSink(v))
      reads.push_back(n);
    std::set<unsigned> needs(reads.begin(), reads.end());
    for (NodeIndex w : problem.successors(v))
      needs.insert(recomputeStages[w].begin(), recomputeStages[w].end());
    if (problem.mayRecompute(v)) {
      // Without a depth limit any later stage (recomputing v where its
      // inputs are last read can free them earlier); with one, stages after
      // v's first read that read v or recompute a consumer of it.
      if (unlimited) {
        for (unsigned s = v + 1; s <= n; ++s)
          recomputeStages[v].insert(s);
      } else {
        for (unsigned s : needs)
          if (s > reads.front() && near[s].test(v))
            recomputeStages[v].insert(s);
      }
      if (greedyPatterns)
        for (const Instance &instance :
             llvm::drop_begin((*greedyPatterns)[v].instances)) {
          recomputeStages[v].insert(instance.start);
          needs.insert(instance.start);
        }
    }
    // Patterns: keep, or free after e1 and recompute in s until e2.
    unsigned lastRead = reads.back();
    std::optional<NodeIndex> lastForward;
    if (problem.needsPhaseSplit(v))
      lastForward = problem.lastForwardConsumer(v);
    auto nextRead = [&](unsigned stage) {
      auto it = llvm::upper_bound(reads, stage);
      return it == reads.end() ? n + 1 : *it;
    };
    if (!lastForward)
      for (unsigned e : needs)
        if (e >= lastRead)
          value.patterns.push_back({{{v, e}}});
    // Without a depth limit, the first instance may also be freed right
    // after its computation (e1 = v), v being recomputed before its first
    // read.
    std::vector<unsigned> firstEnds;
    if (unlimited)
      firstEnds.push_back(v);
    firstEnds.insert(firstEnds.end(), needs.begin(), needs.end());
    for (unsigned e1 : firstEnds) {
      // A phase-split value's first copy serves exactly the forward reads.
      if (lastForward && e1 != *lastForward)
        continue;
      unsigned limit = nextRead(e1);
      for (unsigned s : recomputeStages[v]) {
        if (s <= e1 || s > limit)
          continue;
        for (unsigned e2 : needs)
          if (e2 >= std::max(lastRead, s))
            value.patterns.push_back({{{v, e1}, {s, e2}}});
      }
    }
    // Three copies (two recomputations), added below if the model stays
    // small: chains under tight budgets recompute early layers once per
    // backward segment.
    // Enumerated only while they may all be kept (kMaxThirdCopyPatterns
    // in all): on large graphs the enumeration alone took minutes.
    if (!lastForward && thirdCopyTotal <= kMaxThirdCopyPatterns)
      for (unsigned e1 : firstEnds)
        for (unsigned s2 : recomputeStages[v]) {
          if (s2 <= e1 || s2 > nextRead(e1))
            continue;
          for (unsigned e2 : needs) {
            if (e2 < s2 || e2 >= lastRead)
              continue;
            for (unsigned s3 : recomputeStages[v]) {
              if (s3 <= e2 || s3 > nextRead(e2))
                continue;
              for (unsigned e3 : needs)
                if (e3 >= std::max(lastRead, s3) &&
                    ++thirdCopyTotal <= kMaxThirdCopyPatterns)
                  thirdCopyPatterns[v].push_back(
                      {{{v, e1}, {s2, e2}, {s3, e3}}});
            }
          }
        }
    if (greedyPatterns)
      appendIfNew(value.patterns, (*greedyPatterns)[v]);
    patternCount += value.patterns.size();
    if (patternCount > kMaxPatterns)
      return llvm::createStringError(
          llvm::formatv("ilp: a graph of {0} nodes needs more than {1} "
                        "candidate patterns, more than CBC can handle here; "
                        "use greedy or auto, or a smaller recompute depth",
                        n, kMaxPatterns)
              .str());
    if (value.patterns.empty())
      return infeasiblePlan("ilp", timer);
    if (timer.elapsedSeconds() > options.timeLimitSeconds)
      return modelNotBuiltInTime("ilp", "retention model", n,
                                 options.timeLimitSeconds, "greedy or auto");
  }
  if (options.ilpMaxCopies >= 3 && thirdCopyTotal <= kMaxThirdCopyPatterns)
    for (NodeIndex v = 0; v < n; ++v)
      for (Pattern &pattern : thirdCopyPatterns[v])
        appendIfNew(values[v].patterns, std::move(pattern));

  MixedIntegerProgram model;
  std::vector<std::pair<int, double>> terms;
  // The values each stage may recompute, ascending: its recomputation steps.
  std::vector<std::vector<NodeIndex>> recomputedIn(n + 1);
  // Pattern, coverage and start columns, and the rows defining them.
  for (NodeIndex v = 0; v < n; ++v) {
    ValueModel &value = values[v];
    if (!value.isModeled)
      continue;
    std::map<unsigned, std::vector<int>> startsAt, endsAt;
    terms.clear();
    for (Pattern &pattern : value.patterns) {
      pattern.column = model.addBinary(double(problem.cost(v)) *
                                       (pattern.instances.size() - 1));
      terms.emplace_back(pattern.column, 1);
      value.lastStage = std::max(value.lastStage, pattern.lastStage());
      for (const Instance &instance : pattern.instances) {
        if (instance.start != v)
          startsAt[instance.start].push_back(pattern.column);
        endsAt[instance.end].push_back(pattern.column);
      }
    }
    model.addRow(terms, 1, 1);
    // a[v,t] = a[v,t-1] - (instances ending in t-1) + (starting in t), with
    // a[v,v] = 1.
    for (unsigned t = v + 1; t <= value.lastStage; ++t) {
      int column = model.addBinary(0);
      value.residentColumn.push_back(column);
      terms.assign({{column, 1}});
      if (t > v + 1)
        terms.emplace_back(value.residentColumn[t - v - 2], -1);
      if (auto it = endsAt.find(t - 1); it != endsAt.end())
        for (int ending : it->second)
          terms.emplace_back(ending, 1);
      if (auto it = startsAt.find(t); it != startsAt.end())
        for (int starting : it->second)
          terms.emplace_back(starting, -1);
      double constant = t == v + 1 ? 1 : 0;
      model.addRow(terms, constant, constant);
    }
    for (auto &[t, columns] : startsAt) {
      int column = model.addBinary(0);
      value.startColumn[t] = column;
      recomputedIn[t].push_back(v);
      terms.assign({{column, 1}});
      for (int starting : columns)
        terms.emplace_back(starting, -1);
      model.addRow(terms, 0, 0);
    }
  }

  // Availability over ranges of recomputation stages: recomputing v in
  // [first, last] needs u resident in first or a pattern of u that is not
  // and starts an instance in (first, last].
  for (NodeIndex v = 0; v < n; ++v) {
    const ValueModel &value = values[v];
    std::vector<std::pair<unsigned, int>> starts(value.startColumn.begin(),
                                                 value.startColumn.end());
    for (NodeIndex u : problem.predecessors(v)) {
      const ValueModel &input = values[u];
      if (!input.isModeled)
        continue;
      for (size_t i = 0; i < starts.size(); ++i) {
        unsigned first = starts[i].first;
        terms.clear();
        if (int column = input.resident(u, first); column >= 0)
          terms.emplace_back(column, 1);
        // Patterns of u not resident in first, by their next start.
        std::vector<std::pair<unsigned, int>> later;
        for (const Pattern &pattern : input.patterns) {
          if (pattern.covering(first))
            continue;
          for (const Instance &instance : pattern.instances)
            if (instance.start > first) {
              later.emplace_back(instance.start, pattern.column);
              break;
            }
        }
        llvm::sort(later);
        auto nextStart = later.begin();
        size_t end = starts.size() <= kAllRangesStarts
                         ? starts.size()
                         : std::min(starts.size(), i + kShortRangeStarts);
        for (size_t j = i; j < end; ++j) {
          terms.emplace_back(starts[j].second, -1);
          // Such patterns whose next instance starts in (the previous
          // range's end, this range's end].
          for (;
               nextStart != later.end() && nextStart->first <= starts[j].first;
               ++nextStart)
            terms.emplace_back(nextStart->second, 1);
          model.addRow(terms, 0, kUnboundedRow);
        }
      }
    }
  }

  MemoryUnit unit(problem);
  auto capacity = [&](int64_t roomBytes) { return unit.capacity(roomBytes); };
  int64_t room = static_cast<int64_t>(budgetBytes) -
                 static_cast<int64_t>(problem.getConstantBytes());

  // Memory rows.
  std::vector<std::vector<NodeIndex>> covering(n + 1);
  for (NodeIndex v = 0; v < n; ++v)
    if (values[v].isModeled && problem.bytes(v) > 0)
      for (unsigned t = v + 1; t <= values[v].lastStage; ++t)
        covering[t].push_back(v);
  // Ending columns: patterns whose instance resident in stage t ends there,
  // having entered the stage (fresh = false) or been recomputed in it;
  // defined once so memory rows stay sparse.
  std::map<std::tuple<NodeIndex, unsigned, bool>, int> endingColumns;
  auto ending = [&](NodeIndex v, unsigned t, bool fresh) {
    auto [it, inserted] = endingColumns.try_emplace({v, t, fresh}, -1);
    if (!inserted)
      return it->second;
    std::vector<std::pair<int, double>> definition;
    for (const Pattern &pattern : values[v].patterns)
      if (const Instance *instance = pattern.covering(t);
          instance && instance->end == t && (instance->start == t) == fresh)
        definition.emplace_back(pattern.column, -1);
    if (definition.empty())
      return -1;
    int column = model.addBinary(0);
    definition.emplace_back(column, 1);
    model.addRow(definition, 0, 0);
    return it->second = column;
  };
  for (unsigned t = 0; t <= n; ++t) {
    // At node t, after the stage's recomputations: values whose instance
    // ends here and that node t does not read are gone.
    if (t < n) {
      int64_t nodeRoom = room - static_cast<int64_t>(problem.bytes(t) +
                                                    problem.workspace(t));
      if (nodeRoom < 0)
        return infeasiblePlan("ilp", timer);
      terms.clear();
      for (NodeIndex v : covering[t]) {
        double weight = unit.weight(problem.bytes(v));
        terms.emplace_back(values[v].resident(v, t), weight);
        // Node t writes into its overwritable input when the input's
        // instance ends here (freed right after node t, its last read).
        if (!stageReads(v, t) || problem.overwritableInput(t) == v)
          for (bool fresh : {false, true})
            if (int column = ending(v, t, fresh); column >= 0)
              terms.emplace_back(column, -weight);
      }
      if (!terms.empty())
        model.addRow(terms, -kUnboundedRow, capacity(nodeRoom));
    }
    // After each recomputation step k of the stage.
    for (NodeIndex k : recomputedIn[t]) {
      terms.clear();
      for (NodeIndex v : covering[t]) {
        double weight = unit.weight(problem.bytes(v));
        terms.emplace_back(values[v].resident(v, t), weight);
        if (v > k)
          if (int start = values[v].start(t); start >= 0)
            terms.emplace_back(start, -weight);
        if (stageReads(v, t))
          continue;
        llvm::SmallVector<int, 2> endings;
        for (bool fresh : {false, true})
          if (!fresh || v < k)
            if (int column = ending(v, t, fresh); column >= 0)
              endings.push_back(column);
        if (endings.empty())
          continue;
        for (int column : endings)
          terms.emplace_back(column, -weight);
        // Still needed when a later step of the stage reads it; step k
        // itself does not hold it when k writes into it (its instance
        // ending here, k's recomputation takes its buffer).
        int live = -1;
        for (NodeIndex j : problem.successors(v)) {
          int readerStart = values[j].start(t);
          if (j < k || readerStart < 0 ||
              (j == k && problem.overwritableInput(k) == v))
            continue;
          if (live < 0)
            live = model.addBinary(0);
          std::vector<std::pair<int, double>> liveRow{{live, 1},
                                                      {readerStart, -1}};
          for (int column : endings)
            liveRow.emplace_back(column, -1);
          model.addRow(liveRow, -1, kUnboundedRow);
        }
        if (live >= 0)
          terms.emplace_back(live, weight);
      }
      // The step's workspace, when the stage does recompute k.
      if (problem.workspace(k) > 0)
        if (int start = values[k].start(t); start >= 0)
          terms.emplace_back(start, unit.weight(problem.workspace(k)));
      if (!terms.empty())
        model.addRow(terms, -kUnboundedRow, capacity(room));
    }
  }

  addInterchangeableCounts(problem, values, model);

  std::vector<std::vector<NodeIndex>> stageRecomputes(n + 1);
  double bound = 0;
  bool isOptimal = false;
  std::vector<int> startColumns;
  std::vector<double> startValues;
  if (greedyPatterns) {
    // Greedy's patterns and the coverage they imply.
    for (NodeIndex v = 0; v < n; ++v) {
      const ValueModel &value = values[v];
      if (!value.isModeled)
        continue;
      const Pattern &greedy = (*greedyPatterns)[v];
      for (const Pattern &pattern : value.patterns) {
        startColumns.push_back(pattern.column);
        startValues.push_back(pattern.instances == greedy.instances);
      }
      for (unsigned t = v + 1; t <= value.lastStage; ++t) {
        startColumns.push_back(value.resident(v, t));
        startValues.push_back(greedy.covering(t) != nullptr);
      }
    }
  }
  MilpSolution solved =
      solveWithCbc(model, options.timeLimitSeconds - timer.elapsedSeconds(),
                   startColumns, startValues);
  bound = solved.bound;
  Schedule schedule;
  if (!solved.values.empty()) {
    const std::vector<double> &solution = solved.values;
    for (NodeIndex v = 0; v < n; ++v)
      for (const Pattern &pattern : values[v].patterns)
        if (solution[pattern.column] > 0.5)
          for (const Instance &instance : llvm::drop_begin(pattern.instances))
            stageRecomputes[instance.start].push_back(v);
    isOptimal = solved.isOptimal;
    std::vector<NodeIndex> sequence;
    for (unsigned t = 0; t <= n; ++t) {
      sequence.insert(sequence.end(), stageRecomputes[t].begin(),
                      stageRecomputes[t].end());
      if (t < n)
        sequence.push_back(t);
    }
    schedule = scheduleFromComputeSequence(problem, sequence);
  } else if (greedySchedule) {
    // Out of time before CBC took greedy's start (large models): greedy's
    // schedule is in the class, so it is the incumbent.
    schedule = std::move(*greedySchedule);
  } else {
    return infeasiblePlan("ilp", timer);
  }

  llvm::Expected<PlanResult> result =
      finishPlan(problem, std::move(schedule), budgetBytes, "ilp", timer);
  if (!result)
    return result.takeError();
  if (!result->isFeasible)
    return llvm::createStringError(
        llvm::formatv("ilp: the model's schedule peaks at {0} bytes, above "
                      "the budget of {1} bytes (memory model and validator "
                      "disagree)",
                      result->peakBytes, budgetBytes)
            .str());
  result->formulation = PlanFormulation::Retention;
  if (isOptimal) {
    result->optimalityGap = 0;
    result->lowerBoundCostUnits = result->costUnits;
  } else {
    uint64_t baselineCost = problem.totalComputeCostUnits();
    double recomputeCost =
        result->costUnits - static_cast<double>(baselineCost);
    double boundExtra = std::min(recomputeCost, std::max(0.0, bound));
    result->optimalityGap =
        (recomputeCost - boundExtra) /
        std::max(1.0, static_cast<double>(result->costUnits));
    result->lowerBoundCostUnits =
        baselineCost + static_cast<uint64_t>(std::ceil(boundExtra - 1e-6));
  }
  return result;
}
