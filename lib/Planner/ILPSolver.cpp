//===- ILPSolver.cpp - Checkmate-style stage MILP solved with CBC ---------===//
//
// The formulation follows Checkmate (Jain et al., MLSys 2020), with frees
// inside a stage and the usual reductions:
//   - stage t < n computes node t for the first time, after recomputing (in
//     index order) some of t's ancestors; nothing else is computed in stage
//     t (Checkmate allows any earlier node; restricting to ancestors of t
//     keeps the model near O(n^2) columns, and the unit tests measure what
//     it costs against all schedules), and by default only nodes a few edges
//     upstream of t's inputs (SolverOptions::ilpRecomputeDepth: the full
//     model's root LP is too slow for CBC on 200-node graphs) plus what
//     greedy recomputes in stage t; a final stage n
//     recomputes outputs that were dropped (and what they need) and ends with
//     every output resident, as if a virtual node read all outputs;
//   - R[t,i]: i is recomputed in stage t (i an ancestor of t that may be
//     recomputed); S[t,i]: i is resident entering stage t;
//   - FREE[t,i,k]: i is freed right after step k of stage t, where k reads i;
//     allowed when no later step of the stage reads i and i is not kept into
//     stage t+1; values nobody reads in a stage are dropped between stages;
//   - U[t,j] bounds the bytes resident after the j-th step of stage t, by the
//     recurrence U[t,j] >= U[t,j-1] + bytes of step j - bytes freed after
//     step j-1, and is capped by the budget;
//   - zero-byte values are resident from their computation on (they cost no
//     choice); a must_recompute value with consumers in both
//     phases is not resident entering the stage after its last forward
//     consumer (see RematProblem::needsPhaseSplit); values that may not be
//     recomputed have no R columns.
// Every model solution is a schedule: the stage computations in order, with
// frees inserted as early as possible, which never holds a value longer than
// the model does; the validator then measures it. Greedy's schedule, which
// has the stage form, is handed to CBC as the starting incumbent.
//
//===----------------------------------------------------------------------===//

#include "PlanSupport.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include "coin/Cbc_C_Interface.h"

#include <cmath>
#include <limits>
#include <numeric>

using namespace ckpt::planner;

namespace {

/// CBC treats DBL_MAX as infinity in row bounds.
constexpr double kUnbounded = std::numeric_limits<double>::max();

/// Refuse models beyond this many columns: CBC would not finish anyway.
constexpr size_t kMaxColumns = 4'000'000;

/// Rows and columns accumulated before handing them to CBC in one call.
struct ModelBuilder {
  std::vector<double> objective, lower, upper;
  std::vector<bool> isInteger;
  std::vector<std::vector<std::pair<int, double>>> columnEntries;
  std::vector<double> rowLower, rowUpper;

  int addColumn(double cost, double low, double high, bool integer) {
    objective.push_back(cost);
    lower.push_back(low);
    upper.push_back(high);
    isInteger.push_back(integer);
    columnEntries.emplace_back();
    return objective.size() - 1;
  }
  int addBinary(double cost) { return addColumn(cost, 0, 1, true); }
  void addRow(llvm::ArrayRef<std::pair<int, double>> terms, double low,
              double high) {
    int row = rowLower.size();
    rowLower.push_back(low);
    rowUpper.push_back(high);
    for (auto [column, coefficient] : terms)
      columnEntries[column].emplace_back(row, coefficient);
  }
};

/// One recomputation candidate of a stage: node i and its R column.
struct StageStep {
  NodeIndex node;
  int recColumn;
};

/// A free candidate: value i after step k of stage t.
struct FreeCandidate {
  NodeIndex value;
  NodeIndex afterStep;
  int column;
};

/// The columns of the stage model.
class StageModel {
public:
  explicit StageModel(const RematProblem &problem);

  /// Number of stages: one per node and the final one.
  unsigned stageCount() const { return problem.size() + 1; }
  /// What the last step of stage \p t reads: node t's inputs, or every
  /// output for the final stage.
  llvm::ArrayRef<NodeIndex> stageInputs(unsigned t) const {
    return t < problem.size() ? problem.predecessors(t)
                              : llvm::ArrayRef(outputs);
  }
  /// Bytes of the value stage \p t computes last (0 for the final stage).
  uint64_t stageBytes(unsigned t) const {
    return t < problem.size() ? problem.bytes(t) : 0;
  }
  /// True for values resident from their computation on, without columns.
  bool isFixed(NodeIndex v) const { return fixed[v]; }
  /// S[t,v], or -1 when v has no column at stage t.
  int resident(NodeIndex v, unsigned t) const {
    if (fixed[v] || t <= v || t > problem.size())
      return -1;
    return residentColumn[v][t - v - 1];
  }
  /// R[t,v], or -1 when v may not be recomputed in stage t.
  int recompute(unsigned t, NodeIndex v) const {
    auto it = llvm::lower_bound(
        steps[t], v,
        [](const StageStep &step, NodeIndex node) { return step.node < node; });
    return it != steps[t].end() && it->node == v ? it->recColumn : -1;
  }

  const RematProblem &problem;
  std::vector<NodeIndex> outputs;
  std::vector<bool> fixed;
  std::vector<std::vector<int>> residentColumn;
  /// Recomputation candidates of each stage, ascending.
  std::vector<std::vector<StageStep>> steps;
  std::vector<std::vector<FreeCandidate>> frees;
};

} // namespace

StageModel::StageModel(const RematProblem &problem) : problem(problem) {
  unsigned n = problem.size();
  fixed.resize(n);
  residentColumn.resize(n);
  steps.resize(n + 1);
  frees.resize(n + 1);
  for (NodeIndex v = 0; v < n; ++v) {
    fixed[v] = problem.bytes(v) == 0 && !problem.needsPhaseSplit(v);
    if (problem.isSink(v))
      outputs.push_back(v);
  }
}

/// Builds the compute sequence of greedy's schedule per stage, or nullopt
/// when it does not have the stage form the model needs.
static std::optional<std::vector<double>>
startFromSchedule(const StageModel &model, llvm::ArrayRef<ScheduleStep> steps,
                  size_t columns) {
  const RematProblem &problem = model.problem;
  unsigned n = problem.size();
  std::vector<double> values(columns, 0);
  std::vector<bool> resident(n, false), computed(n, false);
  unsigned stage = 0;
  bool stageOpen = false;
  NodeIndex lastStep = 0;
  bool lastWasRecompute = false;
  auto openStage = [&]() {
    if (stageOpen)
      return true;
    stageOpen = true;
    for (NodeIndex v = 0; v < n; ++v) {
      if (!resident[v] || model.isFixed(v))
        continue;
      int column = model.resident(v, stage);
      if (column < 0)
        return false;
      values[column] = 1;
    }
    return true;
  };
  for (const ScheduleStep &step : steps) {
    NodeIndex v = step.node;
    if (step.kind == StepKind::Free) {
      resident[v] = false;
      if (!lastWasRecompute || model.isFixed(v))
        continue;
      for (const FreeCandidate &free : model.frees[stage])
        if (free.value == v && free.afterStep == lastStep)
          values[free.column] = 1;
      continue;
    }
    if (stage > n || !openStage())
      return std::nullopt;
    resident[v] = true;
    lastStep = v;
    if (!computed[v]) {
      if (v != stage)
        return std::nullopt;
      computed[v] = true;
      ++stage;
      stageOpen = false;
      lastWasRecompute = false;
      continue;
    }
    int column = model.recompute(stage, v);
    if (column < 0)
      return std::nullopt;
    values[column] = 1;
    lastWasRecompute = true;
  }
  if (stage != n || !openStage())
    return std::nullopt;
  return values;
}

llvm::Expected<PlanResult>
ckpt::planner::solveILP(const RematProblem &problem, uint64_t budgetBytes,
                        const SolverOptions &options) {
  SolveTimer timer;
  unsigned n = problem.size();
  if (problem.getConstantBytes() > budgetBytes)
    return infeasiblePlan("ilp", timer);

  StageModel vars(problem);
  unsigned stages = vars.stageCount();
  // ancestors[t]: nodes with a path to t; every node leads to an output, so
  // the final stage may recompute anything.
  std::vector<llvm::BitVector> ancestors(stages, llvm::BitVector(n));
  for (unsigned t = 0; t < stages; ++t)
    for (NodeIndex u : vars.stageInputs(t)) {
      ancestors[t].set(u);
      ancestors[t] |= ancestors[u];
    }

  // Greedy's recomputations stay in the model whatever their depth, so its
  // schedule is always a starting incumbent when it meets the budget.
  std::optional<Schedule> greedySchedule;
  std::vector<llvm::BitVector> greedyRecomputes(stages, llvm::BitVector(n));
  if (llvm::Expected<PlanResult> greedy = solveGreedy(problem, budgetBytes)) {
    if (greedy->isFeasible) {
      greedySchedule = std::move(greedy->schedule);
      std::vector<bool> computed(n, false);
      unsigned stage = 0;
      for (const ScheduleStep &step : *greedySchedule) {
        if (step.kind != StepKind::Compute)
          continue;
        if (!computed[step.node]) {
          computed[step.node] = true;
          ++stage;
        } else if (stage < stages && ancestors[stage].test(step.node)) {
          greedyRecomputes[stage].set(step.node);
        }
      }
    }
  } else {
    llvm::consumeError(greedy.takeError());
  }
  // Stage t recomputes only nodes within options.ilpRecomputeDepth edges
  // upstream of what its last step reads.
  if (unsigned depth = options.ilpRecomputeDepth; depth > 0)
    for (unsigned t = 0; t < stages; ++t) {
      llvm::BitVector near(n);
      std::vector<NodeIndex> frontier(vars.stageInputs(t).begin(),
                                      vars.stageInputs(t).end());
      for (NodeIndex u : frontier)
        near.set(u);
      for (unsigned hops = 1; hops < depth && !frontier.empty(); ++hops) {
        std::vector<NodeIndex> next;
        for (NodeIndex v : frontier)
          for (NodeIndex u : problem.predecessors(v))
            if (!near.test(u)) {
              near.set(u);
              next.push_back(u);
            }
        frontier = std::move(next);
      }
      near |= greedyRecomputes[t];
      ancestors[t] &= near;
    }
  ModelBuilder model;
  size_t estimatedColumns = 0;
  for (unsigned t = 0; t < stages; ++t)
    estimatedColumns += 2 * ancestors[t].count() + t;
  if (estimatedColumns > kMaxColumns)
    return llvm::createStringError(
        llvm::formatv("ilp: a graph of {0} nodes needs about {1} columns, "
                      "more than the {2} CBC can handle here; use greedy or "
                      "auto",
                      n, estimatedColumns, kMaxColumns)
            .str());

  // S columns.
  for (NodeIndex v = 0; v < n; ++v) {
    if (vars.isFixed(v))
      continue;
    unsigned first = v + 1, last = n;
    vars.residentColumn[v].resize(last - first + 1);
    for (unsigned t = first; t <= last; ++t)
      vars.residentColumn[v][t - first] = model.addBinary(0);
    if (problem.needsPhaseSplit(v)) {
      // The forward copy is stale once the last forward consumer ran.
      if (int column = vars.resident(v, *problem.lastForwardConsumer(v) + 1);
          column >= 0)
        model.upper[column] = 0;
    }
  }
  // R columns.
  for (unsigned t = 0; t < stages; ++t)
    for (NodeIndex v : ancestors[t].set_bits())
      if (!vars.isFixed(v) && problem.mayRecompute(v))
        vars.steps[t].push_back({v, model.addBinary(problem.cost(v))});

  std::vector<std::pair<int, double>> terms;
  // S[t+1,v] <= S[t,v] + R[t,v].
  for (NodeIndex v = 0; v < n; ++v)
    for (unsigned t = v + 1; t < n; ++t) {
      int next = vars.resident(v, t + 1);
      if (next < 0)
        continue;
      terms.assign({{next, -1}, {vars.resident(v, t), 1}});
      if (int rec = vars.recompute(t, v); rec >= 0)
        terms.emplace_back(rec, 1);
      model.addRow(terms, 0, kUnbounded);
    }

  // Inputs are available: R[t,k] <= S[t,u] + R[t,u] for each input u of a
  // step k; node t itself always runs.
  auto addAvailability = [&](unsigned t, llvm::ArrayRef<NodeIndex> inputs,
                             int kColumn) {
    for (NodeIndex u : inputs) {
      if (vars.isFixed(u))
        continue;
      terms.clear();
      if (int column = vars.resident(u, t); column >= 0)
        terms.emplace_back(column, 1);
      if (int column = vars.recompute(t, u); column >= 0)
        terms.emplace_back(column, 1);
      if (kColumn >= 0) {
        terms.emplace_back(kColumn, -1);
        model.addRow(terms, 0, kUnbounded);
      } else {
        model.addRow(terms, 1, kUnbounded);
      }
    }
  };
  for (unsigned t = 0; t < stages; ++t) {
    for (const StageStep &step : vars.steps[t])
      addAvailability(t, problem.predecessors(step.node), step.recColumn);
    addAvailability(t, vars.stageInputs(t), -1);
  }

  // Free candidates: value u after step k of stage t, where k reads u, u is
  // not read by node t (so it is needed at the end of the stage) and u holds
  // bytes.
  for (unsigned t = 0; t < stages; ++t) {
    llvm::ArrayRef<NodeIndex> finalInputs = vars.stageInputs(t);
    for (const StageStep &step : vars.steps[t])
      for (NodeIndex u : problem.predecessors(step.node)) {
        if (vars.isFixed(u) || problem.bytes(u) == 0 ||
            llvm::is_contained(finalInputs, u))
          continue;
        int column = model.addBinary(0);
        vars.frees[t].push_back({u, step.node, column});
        // FREE[t,u,k] <= R[t,k].
        model.addRow({{column, -1}, {step.recColumn, 1}}, 0, kUnbounded);
      }
    // Per value u: sum_k FREE[t,u,k] + S[t+1,u] <= 1, and a step j reading u
    // runs only if u was not freed before it:
    // sum_{k<j} FREE[t,u,k] + R[t,j] <= 1.
    std::vector<FreeCandidate> byValue = vars.frees[t];
    llvm::sort(byValue, [](const FreeCandidate &a, const FreeCandidate &b) {
      return std::tie(a.value, a.afterStep) < std::tie(b.value, b.afterStep);
    });
    for (size_t begin = 0; begin < byValue.size();) {
      NodeIndex u = byValue[begin].value;
      size_t end = begin;
      while (end < byValue.size() && byValue[end].value == u)
        ++end;
      terms.clear();
      for (size_t i = begin; i < end; ++i)
        terms.emplace_back(byValue[i].column, 1);
      if (int next = vars.resident(u, t + 1); next >= 0)
        terms.emplace_back(next, 1);
      if (terms.size() > 1)
        model.addRow(terms, -kUnbounded, 1);
      for (size_t j = begin + 1; j < end; ++j) {
        terms.clear();
        for (size_t i = begin; i < j; ++i)
          terms.emplace_back(byValue[i].column, 1);
        terms.emplace_back(vars.recompute(t, byValue[j].afterStep), 1);
        model.addRow(terms, -kUnbounded, 1);
      }
      begin = end;
    }
  }

  // Memory unit: the gcd of the variable sizes keeps every row integral, so
  // the budget is met exactly; with a very wide range of sizes fall back to
  // a scaled unit and a conservative margin (the validator has the last
  // word).
  uint64_t unitBytes = 0, largestBytes = 0;
  for (NodeIndex v = 0; v < n; ++v)
    if (!vars.isFixed(v) && problem.bytes(v) > 0) {
      unitBytes = std::gcd(unitBytes, problem.bytes(v));
      largestBytes = std::max(largestBytes, problem.bytes(v));
    }
  bool exactUnits = true;
  double unit = std::max<uint64_t>(unitBytes, 1);
  if (largestBytes / unit > 1e5) {
    unit = largestBytes / 1e5;
    exactUnits = false;
  }
  auto capacity = [&](int64_t roomBytes) {
    if (exactUnits)
      return std::floor(roomBytes / unit) + 0.5;
    return roomBytes / unit * (1 - 1e-9) - 1e-3;
  };

  for (unsigned t = 0; t < stages; ++t) {
    int64_t room = static_cast<int64_t>(budgetBytes) -
                   static_cast<int64_t>(problem.getConstantBytes());
    int64_t lastRoom = room - static_cast<int64_t>(vars.stageBytes(t));
    if (lastRoom < 0)
      return infeasiblePlan("ilp", timer);
    // Step 0: everything resident entering the stage, plus the first step.
    terms.clear();
    double heldBytes = 0;
    for (NodeIndex v = 0; v < t; ++v)
      if (int column = vars.resident(v, t); column >= 0) {
        terms.emplace_back(column, problem.bytes(v) / unit);
        heldBytes += problem.bytes(v);
      }
    if (vars.steps[t].empty()) {
      if (heldBytes > lastRoom)
        model.addRow(terms, -kUnbounded, capacity(lastRoom));
      continue;
    }
    std::vector<std::vector<std::pair<int, double>>> freedAfter(n + 1);
    for (const FreeCandidate &free : vars.frees[t])
      freedAfter[free.afterStep].emplace_back(free.column,
                                              problem.bytes(free.value) / unit);
    int previous = -1;
    NodeIndex previousNode = 0;
    auto addStep = [&](NodeIndex k, int recColumn, int64_t stepRoom) {
      int column = model.addColumn(0, 0, capacity(stepRoom), false);
      // U[t,j] - U[t,j-1] - bytes(k) R[t,k] + freed after j-1 >= 0.
      llvm::SmallVector<std::pair<int, double>> row{{column, 1}};
      if (previous < 0) {
        for (auto [held, coefficient] : terms)
          row.emplace_back(held, -coefficient);
      } else {
        row.emplace_back(previous, -1);
        for (auto [free, coefficient] : freedAfter[previousNode])
          row.emplace_back(free, coefficient);
      }
      if (recColumn >= 0 && problem.bytes(k) > 0)
        row.emplace_back(recColumn, -(problem.bytes(k) / unit));
      model.addRow(row, 0, kUnbounded);
      previous = column;
      previousNode = k;
    };
    for (const StageStep &step : vars.steps[t])
      addStep(step.node, step.recColumn, room);
    addStep(t, -1, lastRoom);
  }

  int columns = model.objective.size();
  std::vector<CoinBigIndex> starts{0};
  std::vector<int> rowIndices;
  std::vector<double> values;
  for (auto &entries : model.columnEntries) {
    for (auto [row, coefficient] : entries) {
      rowIndices.push_back(row);
      values.push_back(coefficient);
    }
    starts.push_back(rowIndices.size());
  }

  // Greedy's schedule, when it fits the budget, is the starting incumbent.
  std::optional<std::vector<double>> start;
  if (greedySchedule)
    start = startFromSchedule(vars, *greedySchedule, columns);

  std::vector<std::vector<NodeIndex>> stageRecomputes(stages);
  double objective = 0, bound = 0;
  bool isOptimal = false;
  if (columns > 0) {
    Cbc_Model *cbc = Cbc_newModel();
    Cbc_loadProblem(cbc, columns, model.rowLower.size(), starts.data(),
                    rowIndices.data(), values.data(), model.lower.data(),
                    model.upper.data(), model.objective.data(),
                    model.rowLower.data(), model.rowUpper.data());
    for (int column = 0; column < columns; ++column)
      if (model.isInteger[column])
        Cbc_setInteger(cbc, column);
    Cbc_setLogLevel(cbc, 0);
    Cbc_setMaximumSeconds(
        cbc, std::max(0.1, options.timeLimitSeconds - timer.elapsedSeconds()));
    // Costs are integers, so a gap below one unit proves optimality.
    Cbc_setAllowableGap(cbc, 0.999);
    if (start) {
      std::vector<int> startColumns;
      std::vector<double> startValues;
      for (int column = 0; column < columns; ++column)
        if ((*start)[column] > 0.5) {
          startColumns.push_back(column);
          startValues.push_back(1);
        }
      Cbc_setMIPStartI(cbc, startColumns.size(), startColumns.data(),
                       startValues.data());
    }
    Cbc_solve(cbc);
    const double *solution = Cbc_bestSolution(cbc);
    if (!solution) {
      Cbc_deleteModel(cbc);
      return infeasiblePlan("ilp", timer);
    }
    for (unsigned t = 0; t < stages; ++t)
      for (const StageStep &step : vars.steps[t]) {
        if (solution[step.recColumn] < 0.5)
          continue;
        // Recomputing a resident value gains nothing; keeping it wins.
        int held = vars.resident(step.node, t);
        if (held < 0 || solution[held] < 0.5)
          stageRecomputes[t].push_back(step.node);
      }
    objective = Cbc_getObjValue(cbc);
    bound = Cbc_getBestPossibleObjValue(cbc);
    isOptimal = Cbc_isProvenOptimal(cbc) || objective - bound < 1.0;
    Cbc_deleteModel(cbc);
  } else {
    isOptimal = true;
  }

  std::vector<NodeIndex> sequence;
  for (unsigned t = 0; t < stages; ++t) {
    sequence.insert(sequence.end(), stageRecomputes[t].begin(),
                    stageRecomputes[t].end());
    if (t < n)
      sequence.push_back(t);
  }
  llvm::Expected<PlanResult> result =
      finishPlan(problem, scheduleFromComputeSequence(problem, sequence),
                 budgetBytes, "ilp", timer);
  if (!result)
    return result.takeError();
  if (!result->isFeasible)
    return llvm::createStringError(
        llvm::formatv("ilp: the model's schedule peaks at {0} bytes, above "
                      "the budget of {1} bytes (memory model and validator "
                      "disagree)",
                      result->peakBytes, budgetBytes)
            .str());
  if (isOptimal) {
    result->optimalityGap = 0;
  } else {
    double recomputeCost = result->costUnits -
                           static_cast<double>(problem.totalComputeCostUnits());
    result->optimalityGap =
        std::max(0.0, recomputeCost - std::max(0.0, bound)) /
        std::max(1.0, static_cast<double>(result->costUnits));
  }
  return result;
}
