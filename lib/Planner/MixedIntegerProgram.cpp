//===- MixedIntegerProgram.cpp - MILP models solved with CBC --------------===//

#include "MixedIntegerProgram.h"

#include "coin/Cbc_C_Interface.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

using namespace ckpt::planner;

int MixedIntegerProgram::addColumn(double cost, double low, double high,
                                   bool integer) {
  objective.push_back(cost);
  lower.push_back(low);
  upper.push_back(high);
  isInteger.push_back(integer);
  columnEntries.emplace_back();
  return objective.size() - 1;
}

void MixedIntegerProgram::addRow(llvm::ArrayRef<std::pair<int, double>> terms,
                                 double low, double high) {
  std::map<int, double> merged;
  for (auto [column, coefficient] : terms)
    merged[column] += coefficient;
  int row = rowLower.size();
  rowLower.push_back(low);
  rowUpper.push_back(high);
  for (auto [column, coefficient] : merged)
    if (coefficient != 0)
      columnEntries[column].emplace_back(row, coefficient);
}

MemoryUnit::MemoryUnit(const RematProblem &problem) {
  uint64_t unitBytes = 0, largestBytes = 0;
  for (NodeIndex v = 0; v < problem.size(); ++v)
    if (problem.bytes(v) > 0) {
      unitBytes = std::gcd(unitBytes, problem.bytes(v));
      largestBytes = std::max(largestBytes, problem.bytes(v));
    }
  unit = std::max<uint64_t>(unitBytes, 1);
  if (largestBytes / unit > 1e5) {
    unit = largestBytes / 1e5;
    isExact = false;
  }
}

double MemoryUnit::capacity(int64_t roomBytes) const {
  if (isExact)
    return std::floor(roomBytes / unit) + 0.5;
  return roomBytes / unit * (1 - 1e-9) - 1e-3;
}

MilpSolution ckpt::planner::solveWithCbc(const MixedIntegerProgram &model,
                                         double seconds,
                                         llvm::ArrayRef<int> startColumns,
                                         llvm::ArrayRef<double> startValues) {
  int columns = model.columns();
  std::vector<CoinBigIndex> starts{0};
  std::vector<int> rowIndices;
  std::vector<double> coefficients;
  for (const auto &entries : model.columnEntries) {
    for (auto [row, coefficient] : entries) {
      rowIndices.push_back(row);
      coefficients.push_back(coefficient);
    }
    starts.push_back(rowIndices.size());
  }
  Cbc_Model *cbc = Cbc_newModel();
  Cbc_loadProblem(cbc, columns, model.rowLower.size(), starts.data(),
                  rowIndices.data(), coefficients.data(), model.lower.data(),
                  model.upper.data(), model.objective.data(),
                  model.rowLower.data(), model.rowUpper.data());
  for (int column = 0; column < columns; ++column)
    if (model.isInteger[column])
      Cbc_setInteger(cbc, column);
  Cbc_setLogLevel(cbc, 0);
  Cbc_setParameter(cbc, "preprocess", "off");
  Cbc_setParameter(cbc, "presolve", "off");
  // The time limit is wall-clock time, as the caller asked (CBC counts CPU
  // time by default, which runs slow when other processes share the cores).
  Cbc_setParameter(cbc, "timeMode", "elapsed");
  Cbc_setMaximumSeconds(cbc, std::max(0.1, seconds));
  // Costs are integers, so a gap below one unit proves optimality.
  Cbc_setAllowableGap(cbc, 0.999);
  if (!startColumns.empty())
    Cbc_setMIPStartI(cbc, startColumns.size(), startColumns.data(),
                     startValues.data());
  Cbc_solve(cbc);
  MilpSolution result;
  result.bound = Cbc_getBestPossibleObjValue(cbc);
  if (const double *solution = Cbc_bestSolution(cbc)) {
    result.values.assign(solution, solution + columns);
    result.objective = Cbc_getObjValue(cbc);
    result.isOptimal = Cbc_isProvenOptimal(cbc) ||
                       result.objective - result.bound < 1.0;
  }
  Cbc_deleteModel(cbc);
  return result;
}
