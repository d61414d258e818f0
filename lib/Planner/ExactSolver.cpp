//===- ExactSolver.cpp - Checkmate's MILP over program-order schedules ----===//
//
// The class (Checkmate, Jain et al., MLSys 2020), on the planner's memory
// model:
//   - stage t < n recomputes any earlier values, each at most once, in index
//     order, and then computes node t for the first time; a final stage n
//     recomputes any values and ends with every output resident;
//   - a value is resident from its computation, or from the start of a
//     stage it is kept into, until right after its last read in the stage,
//     or through the whole stage when it is kept into the next one;
//   - memory after every computation (constant bytes, every resident value,
//     the output just computed, before the inputs are freed) stays within
//     the budget, as validateSchedule measures it; a first computation
//     that writes into an input freed right after it counts without it,
//     and a computation's workspace counts while it runs.
// Every number of recomputations of every value is in the class (one per
// stage, in any of the n + 1 stages); what it fixes is the order of first
// computations (the program's, which the rewriter keeps) and the order
// within a stage (index order, a topological order). Freeing a value
// earlier than the class does never raises memory and never changes the
// cost, so frees need no choice beyond "kept into the next stage or not".
// The unit tests check the optimum against a shortest path over (resident
// set, stage, last index computed in the stage) on graphs of up to 12 nodes.
//
// Columns (all binary but the memory levels):
//   rec[t,i]   i is recomputed in stage t (t > i); node t's own first
//              computation in stage t is the constant 1;
//   keep[t,i]  i is resident when stage t starts (t > i);
//   free[t,i,k] i is freed right after step k of stage t, for i read by k
//              or i = k: allowed only when k is computed, i is not kept
//              into stage t + 1 and no later step of stage t reads i
//              (Checkmate's FREE, with its product written as one row per
//              factor: a tighter relaxation than its single hazard count);
//   mem[t,k]   bytes resident right after step k of stage t (continuous,
//              0 to the budget less the constant bytes).
// Rows: a computation needs each input computed earlier in the stage or
// kept into it; a value kept into stage t + 1 was kept into t or computed in
// t; never recomputed while kept; outputs resident at the end; the memory
// recurrence mem[t,k] >= mem[t,prev] + computed(t,k) bytes(k) - the bytes
// freed after prev. Values are recomputable up to the last stage that may
// read them (a consumer's last possible recomputation), which bounds the
// columns; a must_recompute value read in both phases is not kept past its
// last forward consumer's stage (the copy serving the forward pass never
// serves the backward pass: validateSchedule's rule, slightly strengthened).
// The objective is the recomputation cost; CBC starts from the given
// schedule (greedy's when none is given) put in the class's form.
//
//===----------------------------------------------------------------------===//

#include "MixedIntegerProgram.h"
#include "PlanSupport.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace ckpt::planner;

namespace {

/// Refuse models with more free columns than this: CBC would not get
/// through the root relaxation within any useful time limit.
constexpr size_t kMaxFreeColumns = 2'000'000;

/// The columns of the program-order model.
class ProgramOrderModel {
public:
  ProgramOrderModel(const RematProblem &problem) : problem(problem) {
    unsigned n = problem.size();
    lastStage.assign(n, 0);
    for (NodeIndex v = n; v-- > 0;) {
      unsigned last = problem.isSink(v) ? n : v;
      for (NodeIndex j : problem.successors(v))
        last = std::max(last, problem.mayRecompute(j) ? lastStage[j] : j);
      lastStage[v] = last;
    }
    rec.assign(n + 1, {});
    keep.assign(n + 2, {});
  }

  /// Column of rec[t,i], -1 when i cannot be recomputed in stage t, or
  /// kConstantOne for node t's first computation.
  int computed(unsigned t, NodeIndex i) const {
    if (i == t && t < problem.size())
      return kConstantOne;
    auto it = rec[t].find(i);
    return it == rec[t].end() ? -1 : it->second;
  }
  /// Column of keep[t,i], or -1 when i cannot be resident at stage t's
  /// start.
  int kept(unsigned t, NodeIndex i) const {
    if (t >= keep.size())
      return -1;
    auto it = keep[t].find(i);
    return it == keep[t].end() ? -1 : it->second;
  }
  /// Steps of stage t that may compute, in index order.
  llvm::SmallVector<NodeIndex> steps(unsigned t) const {
    llvm::SmallVector<NodeIndex> result;
    for (auto [i, column] : rec[t])
      result.push_back(i);
    if (t < problem.size())
      result.push_back(t);
    return result;
  }

  static constexpr int kConstantOne = -2;

  const RematProblem &problem;
  /// The last stage that may read each value.
  std::vector<unsigned> lastStage;
  std::vector<std::map<NodeIndex, int>> rec, keep;
  /// free[t] maps step k to the values i freed after it and their columns.
  std::vector<std::map<NodeIndex, llvm::SmallVector<std::pair<NodeIndex, int>>>>
      frees;
  /// mem[t] maps step k to its column.
  std::vector<std::map<NodeIndex, int>> memory;
};

/// Values of the model's integer columns for \p schedule, or nullopt when
/// the schedule is not in the class.
std::optional<std::vector<std::pair<int, double>>>
startOfSchedule(const ProgramOrderModel &model, const Schedule &schedule) {
  const RematProblem &problem = model.problem;
  unsigned n = problem.size();
  std::vector<std::vector<bool>> computedIn(n + 1, std::vector<bool>(n));
  std::vector<std::vector<bool>> keptInto(n + 2, std::vector<bool>(n));
  std::vector<bool> resident(n, false);
  unsigned stage = 0;
  bool stageStarted = false;
  int lastInStage = -1;
  for (const ScheduleStep &step : schedule) {
    NodeIndex v = step.node;
    if (step.kind == StepKind::Free) {
      resident[v] = false;
      continue;
    }
    if (!stageStarted) {
      for (NodeIndex i = 0; i < n; ++i)
        keptInto[stage][i] = resident[i];
      stageStarted = true;
    }
    if (static_cast<int>(v) <= lastInStage || (v > stage && stage < n) ||
        resident[v])
      return std::nullopt;
    if (v != stage && model.computed(stage, v) < 0)
      return std::nullopt;
    computedIn[stage][v] = true;
    resident[v] = true;
    lastInStage = v;
    if (v == stage) {
      ++stage;
      stageStarted = false;
      lastInStage = -1;
    }
  }
  if (stage != n)
    return std::nullopt;
  if (!stageStarted)
    for (NodeIndex i = 0; i < n; ++i)
      keptInto[n][i] = resident[i];

  std::vector<std::pair<int, double>> start;
  for (unsigned t = 0; t <= n; ++t) {
    for (auto [i, column] : model.rec[t])
      start.emplace_back(column, computedIn[t][i]);
    for (auto [i, column] : model.keep[t]) {
      if (keptInto[t][i] && model.kept(t, i) < 0)
        return std::nullopt;
      start.emplace_back(column, keptInto[t][i]);
    }
    for (const auto &[k, freed] : model.frees[t])
      for (auto [i, column] : freed) {
        bool isFree = computedIn[t][k] && !keptInto[t + 1][i];
        for (NodeIndex j : problem.successors(i))
          if (j > k && computedIn[t][j])
            isFree = false;
        start.emplace_back(column, isFree);
      }
  }
  return start;
}

/// \p schedule in the class's form: each stage's recomputations once each
/// and in index order, freed as early as possible. Never costlier; nullopt
/// when the form does not fit \p budgetBytes or the first computations are
/// out of program order.
std::optional<Schedule> inStageForm(const RematProblem &problem,
                                    const Schedule &schedule,
                                    uint64_t budgetBytes) {
  unsigned n = problem.size();
  std::vector<std::set<NodeIndex>> recomputed(n + 1);
  std::vector<bool> computed(n, false);
  unsigned stage = 0;
  for (const ScheduleStep &step : schedule) {
    if (step.kind == StepKind::Free)
      continue;
    if (!computed[step.node]) {
      if (step.node != stage)
        return std::nullopt;
      computed[step.node] = true;
      ++stage;
      continue;
    }
    recomputed[stage].insert(step.node);
  }
  std::vector<NodeIndex> sequence;
  for (unsigned t = 0; t <= n; ++t) {
    sequence.insert(sequence.end(), recomputed[t].begin(), recomputed[t].end());
    if (t < n)
      sequence.push_back(t);
  }
  Schedule form = scheduleFromComputeSequence(problem, sequence);
  llvm::Expected<ScheduleMetrics> metrics = validateSchedule(problem, form);
  if (!metrics) {
    llvm::consumeError(metrics.takeError());
    return std::nullopt;
  }
  if (metrics->peakBytes > budgetBytes)
    return std::nullopt;
  return form;
}

} // namespace

llvm::Expected<PlanResult>
ckpt::planner::solveExact(const RematProblem &problem, uint64_t budgetBytes,
                          const SolverOptions &options,
                          const PlanResult *incumbent) {
  SolveTimer timer;
  unsigned n = problem.size();
  if (problem.getConstantBytes() > budgetBytes)
    return infeasiblePlan("exact", timer);

  ProgramOrderModel columns(problem);
  MixedIntegerProgram model;
  // rec and keep.
  for (NodeIndex i = 0; i < n; ++i) {
    for (unsigned t = i + 1; t <= columns.lastStage[i]; ++t) {
      if (problem.mayRecompute(i))
        columns.rec[t][i] = model.addBinary(problem.cost(i));
      columns.keep[t][i] = model.addBinary(0);
    }
  }
  // A must_recompute value read in both phases: its first copy ends in the
  // stage of its last forward consumer.
  for (NodeIndex i = 0; i < n; ++i)
    if (problem.needsPhaseSplit(i))
      if (int column = columns.kept(*problem.lastForwardConsumer(i) + 1, i);
          column >= 0)
        model.upper[column] = 0;

  // free columns.
  size_t freeCount = 0;
  for (unsigned t = 0; t <= n; ++t)
    for (NodeIndex k : columns.steps(t))
      freeCount += problem.predecessors(k).size() + 1;
  if (freeCount > kMaxFreeColumns)
    return llvm::createStringError(llvm::formatv(
        "exact: the program-order model of this {0}-node graph would have {1} "
        "free columns (at most {2}); use ilp or greedy",
        n, freeCount, kMaxFreeColumns));
  // The model is not built past the time limit (a 700-node graph's took
  // seconds).
  auto notBuiltInTime = [&] {
    return modelNotBuiltInTime("exact", "program-order model", n,
                               options.timeLimitSeconds, "ilp or greedy");
  };
  columns.frees.assign(n + 1, {});
  columns.memory.assign(n + 1, {});
  for (unsigned t = 0; t <= n; ++t) {
    if (timer.elapsedSeconds() > options.timeLimitSeconds)
      return notBuiltInTime();
    llvm::SmallVector<NodeIndex> steps = columns.steps(t);
    for (NodeIndex k : steps) {
      int computedK = columns.computed(t, k);
      llvm::SmallVector<NodeIndex, 4> candidates(
          problem.predecessors(k).begin(), problem.predecessors(k).end());
      candidates.push_back(k);
      for (NodeIndex i : candidates) {
        if (t == n && problem.isSink(i))
          continue;
        // Freed after k only when no later step of the stage can read i;
        // a later first computation that reads i rules it out for good.
        llvm::SmallVector<int, 4> laterReads;
        bool readLater = false;
        for (NodeIndex j : problem.successors(i)) {
          if (j <= k)
            continue;
          int column = columns.computed(t, j);
          if (column == ProgramOrderModel::kConstantOne)
            readLater = true;
          else if (column >= 0)
            laterReads.push_back(column);
        }
        if (readLater)
          continue;
        int free = model.addBinary(0);
        columns.frees[t][k].emplace_back(i, free);
        if (computedK >= 0)
          model.addRow({{free, 1}, {computedK, -1}}, -kUnboundedRow, 0);
        if (int keptNext = columns.kept(t + 1, i); keptNext >= 0)
          model.addRow({{free, 1}, {keptNext, 1}}, -kUnboundedRow, 1);
        for (int column : laterReads)
          model.addRow({{free, 1}, {column, 1}}, -kUnboundedRow, 1);
      }
    }
  }

  // A value is freed at most once per stage, and only when resident.
  for (unsigned t = 0; t <= n; ++t) {
    std::map<NodeIndex, std::vector<std::pair<int, double>>> freedIn;
    for (const auto &[k, freed] : columns.frees[t])
      for (auto [i, column] : freed)
        freedIn[i].emplace_back(column, 1);
    for (auto &[i, terms] : freedIn) {
      double high = 0;
      int computedNow = columns.computed(t, i);
      if (computedNow == ProgramOrderModel::kConstantOne)
        high = 1;
      else if (computedNow >= 0)
        terms.emplace_back(computedNow, -1);
      if (int keptNow = columns.kept(t, i); keptNow >= 0)
        terms.emplace_back(keptNow, -1);
      model.addRow(terms, -kUnboundedRow, high);
    }
  }

  // Dependencies, retention and no recomputation of a kept value.
  for (unsigned t = 0; t <= n; ++t)
    for (NodeIndex k : columns.steps(t)) {
      int computedK = columns.computed(t, k);
      for (NodeIndex i : problem.predecessors(k)) {
        std::vector<std::pair<int, double>> terms;
        double high = 0;
        if (computedK == ProgramOrderModel::kConstantOne)
          high = -1;
        else
          terms.emplace_back(computedK, 1);
        if (int column = columns.computed(t, i); column >= 0)
          terms.emplace_back(column, -1);
        if (int column = columns.kept(t, i); column >= 0)
          terms.emplace_back(column, -1);
        if (terms.empty() && high < 0)
          return llvm::createStringError(llvm::formatv(
              "exact: node {0} reads node {1}, which cannot be resident in "
              "its stage (internal error)",
              k, i));
        model.addRow(terms, -kUnboundedRow, high);
      }
    }
  for (NodeIndex i = 0; i < n; ++i)
    for (unsigned t = i + 1; t <= columns.lastStage[i]; ++t) {
      int keepNext = columns.kept(t + 1, i);
      int keepNow = columns.kept(t, i);
      int computedNow = columns.computed(t, i);
      if (keepNext >= 0) {
        std::vector<std::pair<int, double>> terms{{keepNext, 1}, {keepNow, -1}};
        if (computedNow >= 0)
          terms.emplace_back(computedNow, -1);
        model.addRow(terms, -kUnboundedRow, 0);
      }
      if (computedNow >= 0)
        model.addRow({{computedNow, 1}, {keepNow, 1}}, -kUnboundedRow, 1);
    }
  for (NodeIndex i = 0; i < n; ++i)
    if (problem.isSink(i)) {
      std::vector<std::pair<int, double>> terms;
      if (int column = columns.computed(n, i); column >= 0)
        terms.emplace_back(column, 1);
      if (int column = columns.kept(n, i); column >= 0)
        terms.emplace_back(column, 1);
      model.addRow(terms, 1, kUnboundedRow);
    }

  // Memory.
  MemoryUnit unit(problem);
  int64_t room = static_cast<int64_t>(budgetBytes) -
                 static_cast<int64_t>(problem.getConstantBytes());
  double capacity = unit.capacity(room);
  for (unsigned t = 0; t <= n; ++t) {
    if (timer.elapsedSeconds() > options.timeLimitSeconds)
      return notBuiltInTime();
    std::optional<NodeIndex> previous;
    for (NodeIndex k : columns.steps(t)) {
      // A computation (first or recomputation) that writes into an input
      // freed right after it adds no bytes: its level may exceed the
      // capacity by that input, as long as the input is freed there (a free
      // after k implies k is computed).
      int overwrittenFree = -1;
      double overwritten = 0;
      auto freedAfterK = columns.frees[t].find(k);
      if (std::optional<NodeIndex> u = problem.overwritableInput(k);
          u && freedAfterK != columns.frees[t].end())
        for (auto [i, column] : freedAfterK->second)
          if (i == *u) {
            overwrittenFree = column;
            overwritten = unit.weight(problem.bytes(*u));
          }
      int level =
          model.addColumn(0, 0, capacity + overwritten, /*integer=*/false);
      // The step's workspace is held while it runs, on top of the level.
      double workspace = unit.weight(problem.workspace(k));
      if (overwrittenFree >= 0 || workspace > 0) {
        std::vector<std::pair<int, double>> row{{level, 1}};
        double high = capacity;
        if (overwrittenFree >= 0)
          row.emplace_back(overwrittenFree, -overwritten);
        if (int computed = columns.computed(t, k);
            computed == ProgramOrderModel::kConstantOne)
          high -= workspace;
        else if (computed >= 0 && workspace > 0)
          row.emplace_back(computed, workspace);
        model.addRow(row, -kUnboundedRow, high);
      }
      columns.memory[t][k] = level;
      // level - previous level - computed(t,k) bytes(k) + freed >= 0.
      std::vector<std::pair<int, double>> terms{{level, 1}};
      double low = 0;
      int computedK = columns.computed(t, k);
      if (computedK == ProgramOrderModel::kConstantOne)
        low += unit.weight(problem.bytes(k));
      else
        terms.emplace_back(computedK, -unit.weight(problem.bytes(k)));
      if (previous) {
        terms.emplace_back(columns.memory[t][*previous], -1);
        for (auto [i, column] : columns.frees[t][*previous])
          terms.emplace_back(column, unit.weight(problem.bytes(i)));
      } else {
        for (auto [i, column] : columns.keep[t])
          terms.emplace_back(column, -unit.weight(problem.bytes(i)));
      }
      model.addRow(terms, low, kUnboundedRow);
      previous = k;
    }
  }

  // The start: the incumbent, else greedy's schedule, in the class's form.
  std::optional<PlanResult> greedy;
  if (!incumbent) {
    if (llvm::Expected<PlanResult> solved =
            solveGreedy(problem, budgetBytes, options))
      greedy = std::move(*solved);
    else
      llvm::consumeError(solved.takeError());
    if (greedy)
      incumbent = &*greedy;
  }
  std::vector<int> startColumns;
  std::vector<double> startValues;
  if (incumbent && incumbent->isFeasible)
    if (std::optional<Schedule> form =
            inStageForm(problem, incumbent->schedule, budgetBytes))
      if (auto start = startOfSchedule(columns, *form))
        for (auto [column, value] : *start) {
          startColumns.push_back(column);
          startValues.push_back(value);
        }

  // Without a start in the class's form (the others found no schedule
  // within the budget, or one the class cannot express), a feasible
  // schedule first: the model without its objective is solved to its first
  // integer point, which CBC reaches far sooner than one it must also
  // improve (3/4 of the time: without it nothing is found); the model then
  // starts from it.
  if (startColumns.empty()) {
    MixedIntegerProgram feasibility = model;
    std::fill(feasibility.objective.begin(), feasibility.objective.end(), 0.0);
    MilpSolution found = solveWithCbc(
        feasibility,
        (options.timeLimitSeconds - timer.elapsedSeconds()) * 3 / 4, {}, {});
    for (auto [column, value] : llvm::enumerate(found.values)) {
      startColumns.push_back(column);
      startValues.push_back(value);
    }
  }

  MilpSolution solved =
      solveWithCbc(model, options.timeLimitSeconds - timer.elapsedSeconds(),
                   startColumns, startValues);
  Schedule schedule;
  if (!solved.values.empty()) {
    std::vector<NodeIndex> sequence;
    for (unsigned t = 0; t <= n; ++t)
      for (NodeIndex k : columns.steps(t)) {
        int column = columns.computed(t, k);
        if (column == ProgramOrderModel::kConstantOne ||
            solved.values[column] > 0.5)
          sequence.push_back(k);
      }
    schedule = scheduleFromComputeSequence(problem, sequence);
  } else if (incumbent && incumbent->isFeasible) {
    schedule = incumbent->schedule;
  } else {
    return infeasiblePlan("exact", timer);
  }

  llvm::Expected<PlanResult> result =
      finishPlan(problem, std::move(schedule), budgetBytes, "exact", timer);
  if (!result)
    return result.takeError();
  if (!result->isFeasible)
    return llvm::createStringError(
        llvm::formatv("exact: the model's schedule peaks at {0} bytes, above "
                      "the budget of {1} bytes (memory model and validator "
                      "disagree)",
                      result->peakBytes, budgetBytes)
            .str());
  uint64_t baselineCost = problem.totalComputeCostUnits();
  uint64_t extra = result->costUnits - baselineCost;
  // Costs are integers: the bound rounds up.
  uint64_t boundExtra =
      static_cast<uint64_t>(std::max(0.0, std::ceil(solved.bound - 1e-6)));
  if (!solved.values.empty() && solved.isOptimal)
    boundExtra = extra;
  boundExtra = std::min(boundExtra, extra);
  result->formulation = PlanFormulation::ProgramOrder;
  result->lowerBoundCostUnits = baselineCost + boundExtra;
  result->optimalityGap = static_cast<double>(extra - boundExtra) /
                          std::max(1.0, static_cast<double>(result->costUnits));
  return result;
}
