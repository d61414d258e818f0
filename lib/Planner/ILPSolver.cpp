//===- ILPSolver.cpp - Stage-schedule MILP solved with CBC ----------------===//
//
// The schedule class (after Checkmate, Jain et al. 2020, with a coarser
// memory model that needs no per-edge free variables):
//   - stage t recomputes some ancestors of node t, in index order, and then
//     computes node t;
//   - a value is resident or recomputed only inside its original live range
//     (its index, its last consumer]; outputs stay resident once computed;
//   - the memory of stage t is bounded by everything resident at the start of
//     the stage plus everything computed in it.
// Variables: keep[v,t] (v resident at the start of stage t) and rec[v,t]
// (v recomputed in stage t). Zero-byte values and values that may not be
// recomputed are kept over their whole live range without variables.
// Frees are inserted as early as possible afterwards, so the real peak is at
// most the modeled one.
//
//===----------------------------------------------------------------------===//

#include "PlanSupport.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/Support/FormatVariadic.h"

#include "coin/Cbc_C_Interface.h"

#include <cmath>
#include <limits>

using namespace ckpt::planner;

namespace {

/// CBC treats DBL_MAX as infinity in row bounds.
constexpr double kUnbounded = std::numeric_limits<double>::max();

/// Column indices of keep/rec per (value, stage); -1 means "fixed".
class StageVariables {
public:
  StageVariables(const RematProblem &problem) : problem(problem) {
    unsigned n = problem.size();
    first.resize(n);
    last.resize(n);
    keepColumn.resize(n);
    recColumn.resize(n);
    for (NodeIndex v = 0; v < n; ++v) {
      first[v] = v + 1;
      last[v] = problem.isSink(v) ? v : problem.neededUntil(v);
    }
  }

  /// Stages (v, neededUntil(v)] in which v may be needed.
  unsigned firstStage(NodeIndex v) const { return first[v]; }
  unsigned lastStage(NodeIndex v) const { return last[v]; }
  bool inRange(NodeIndex v, unsigned t) const {
    return t >= first[v] && t <= last[v];
  }
  int keep(NodeIndex v, unsigned t) const {
    return inRange(v, t) && !keepColumn[v].empty() ? keepColumn[v][t - first[v]]
                                                   : -1;
  }
  int rec(NodeIndex v, unsigned t) const {
    return inRange(v, t) && !recColumn[v].empty() ? recColumn[v][t - first[v]]
                                                  : -1;
  }

  const RematProblem &problem;
  std::vector<unsigned> first, last;
  std::vector<std::vector<int>> keepColumn, recColumn;
};

/// Rows and columns accumulated before handing them to CBC in one call.
struct ModelBuilder {
  std::vector<double> objective, lower, upper;
  std::vector<std::vector<std::pair<int, double>>> columnEntries;
  std::vector<double> rowLower, rowUpper;

  int addBinary(double cost) {
    objective.push_back(cost);
    lower.push_back(0);
    upper.push_back(1);
    columnEntries.emplace_back();
    return objective.size() - 1;
  }
  void addRow(llvm::ArrayRef<std::pair<int, double>> terms, double low,
              double high) {
    int row = rowLower.size();
    rowLower.push_back(low);
    rowUpper.push_back(high);
    for (auto [column, coefficient] : terms)
      columnEntries[column].emplace_back(row, coefficient);
  }
};

} // namespace

llvm::Expected<PlanResult>
ckpt::planner::solveILP(const RematProblem &problem, uint64_t budgetBytes,
                        const SolverOptions &options) {
  SolveTimer timer;
  unsigned n = problem.size();
  if (problem.getConstantBytes() > budgetBytes)
    return infeasiblePlan("ilp", timer);

  // ancestors[t]: nodes with a path to t.
  std::vector<llvm::BitVector> ancestors(n, llvm::BitVector(n));
  for (NodeIndex t = 0; t < n; ++t)
    for (NodeIndex u : problem.predecessors(t)) {
      ancestors[t].set(u);
      ancestors[t] |= ancestors[u];
    }

  StageVariables vars(problem);
  ModelBuilder model;
  // Bytes that are resident in stage t no matter what: values without
  // variables over their live range, outputs computed earlier.
  std::vector<double> fixedStageBytes(n, problem.getConstantBytes());
  for (NodeIndex v = 0; v < n; ++v) {
    fixedStageBytes[v] += problem.bytes(v);
    bool isFixed = !problem.mayRecompute(v) || problem.isSink(v) ||
                   (problem.bytes(v) == 0 && !problem.needsPhaseSplit(v));
    if (isFixed) {
      unsigned end = problem.isSink(v) ? n - 1 : vars.lastStage(v);
      for (unsigned t = v + 1; t <= end; ++t)
        fixedStageBytes[t] += problem.bytes(v);
      continue;
    }
    unsigned width = vars.lastStage(v) - vars.firstStage(v) + 1;
    vars.keepColumn[v].assign(width, -1);
    vars.recColumn[v].assign(width, -1);
    for (unsigned t = vars.firstStage(v); t <= vars.lastStage(v); ++t) {
      vars.keepColumn[v][t - vars.firstStage(v)] = model.addBinary(0);
      if (ancestors[t].test(v))
        vars.recColumn[v][t - vars.firstStage(v)] =
            model.addBinary(problem.cost(v));
    }
  }

  // Availability of an input u at stage t: kept or recomputed there, unless
  // u is fixed resident.
  auto availabilityTerms = [&](NodeIndex u, unsigned t,
                               std::vector<std::pair<int, double>> &terms) {
    if (vars.keepColumn[u].empty())
      return problem.isSink(u) || vars.inRange(u, t);
    int keep = vars.keep(u, t), rec = vars.rec(u, t);
    if (keep >= 0)
      terms.emplace_back(keep, 1);
    if (rec >= 0)
      terms.emplace_back(rec, 1);
    return false;
  };

  std::vector<std::pair<int, double>> terms;
  for (NodeIndex t = 0; t < n; ++t) {
    for (NodeIndex u : problem.predecessors(t)) {
      terms.clear();
      if (availabilityTerms(u, t, terms))
        continue;
      model.addRow(terms, 1, kUnbounded);
    }
  }
  for (NodeIndex v = 0; v < n; ++v) {
    if (vars.keepColumn[v].empty())
      continue;
    for (unsigned t = vars.firstStage(v); t <= vars.lastStage(v); ++t) {
      int rec = vars.rec(v, t);
      if (rec >= 0)
        for (NodeIndex u : problem.predecessors(v)) {
          terms.clear();
          if (availabilityTerms(u, t, terms))
            continue;
          // rec[v,t] <= keep[u,t] + rec[u,t]; an input outside its live
          // range is unavailable, which forbids the recomputation.
          terms.emplace_back(rec, -1);
          model.addRow(terms, 0, kUnbounded);
        }
      if (t > vars.firstStage(v)) {
        // keep[v,t] <= keep[v,t-1] + rec[v,t-1].
        terms.clear();
        terms.emplace_back(vars.keep(v, t), -1);
        terms.emplace_back(vars.keep(v, t - 1), 1);
        if (int prevRec = vars.rec(v, t - 1); prevRec >= 0)
          terms.emplace_back(prevRec, 1);
        model.addRow(terms, 0, kUnbounded);
      }
    }
    if (problem.needsPhaseSplit(v)) {
      unsigned dropStage = *problem.lastForwardConsumer(v) + 1;
      if (int keep = vars.keep(v, dropStage); keep >= 0)
        model.upper[keep] = 0;
    }
  }
  bool memoryImpossible = false;
  for (NodeIndex t = 0; t < n; ++t) {
    terms.clear();
    double variableBytes = 0;
    for (NodeIndex v = 0; v < t; ++v) {
      if (vars.keepColumn[v].empty() || !vars.inRange(v, t))
        continue;
      double bytes = problem.bytes(v);
      terms.emplace_back(vars.keep(v, t), bytes);
      variableBytes += bytes;
      if (int rec = vars.rec(v, t); rec >= 0) {
        terms.emplace_back(rec, bytes);
        variableBytes += bytes;
      }
    }
    double room = static_cast<double>(budgetBytes) - fixedStageBytes[t];
    if (room < 0)
      memoryImpossible = true;
    else if (variableBytes > room)
      model.addRow(terms, -kUnbounded, room);
  }
  if (memoryImpossible)
    return infeasiblePlan("ilp", timer);

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

  std::vector<std::vector<NodeIndex>> stageRecomputes(n);
  double objective = 0, bound = 0;
  bool isOptimal = false;
  if (columns > 0) {
    Cbc_Model *cbc = Cbc_newModel();
    Cbc_loadProblem(cbc, columns, model.rowLower.size(), starts.data(),
                    rowIndices.data(), values.data(), model.lower.data(),
                    model.upper.data(), model.objective.data(),
                    model.rowLower.data(), model.rowUpper.data());
    for (int column = 0; column < columns; ++column)
      Cbc_setInteger(cbc, column);
    Cbc_setLogLevel(cbc, 0);
    Cbc_setMaximumSeconds(
        cbc, std::max(0.1, options.timeLimitSeconds - timer.elapsedSeconds()));
    // Costs are integers, so a gap below one unit proves optimality.
    Cbc_setAllowableGap(cbc, 0.999);
    Cbc_solve(cbc);
    const double *solution = Cbc_bestSolution(cbc);
    if (!solution) {
      Cbc_deleteModel(cbc);
      return infeasiblePlan("ilp", timer);
    }
    for (NodeIndex v = 0; v < n; ++v) {
      if (vars.recColumn[v].empty())
        continue;
      for (unsigned t = vars.firstStage(v); t <= vars.lastStage(v); ++t)
        if (int rec = vars.rec(v, t); rec >= 0 && solution[rec] > 0.5) {
          // A zero-cost value may be both kept and recomputed; keeping wins.
          int keep = vars.keep(v, t);
          if (keep < 0 || solution[keep] < 0.5)
            stageRecomputes[t].push_back(v);
        }
    }
    objective = Cbc_getObjValue(cbc);
    bound = Cbc_getBestPossibleObjValue(cbc);
    isOptimal = Cbc_isProvenOptimal(cbc) || objective - bound < 1.0;
    Cbc_deleteModel(cbc);
  } else {
    isOptimal = true;
  }

  std::vector<NodeIndex> sequence;
  for (NodeIndex t = 0; t < n; ++t) {
    llvm::sort(stageRecomputes[t]);
    sequence.insert(sequence.end(), stageRecomputes[t].begin(),
                    stageRecomputes[t].end());
    sequence.push_back(t);
  }
  llvm::Expected<PlanResult> result =
      finishPlan(problem, scheduleFromComputeSequence(problem, sequence),
                 budgetBytes, "ilp", timer);
  if (!result)
    return result.takeError();
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
