//===- MixedIntegerProgram.cpp - MILP models solved with CBC --------------===//

#include "MixedIntegerProgram.h"

#include "coin/Cbc_C_Interface.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
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

namespace {

/// What a solve sends back from the child process: whether it has an
/// incumbent, whether that is optimal, its objective and the bound; the
/// incumbent's values follow.
struct SolveHeader {
  int32_t hasSolution = 0;
  int32_t isOptimal = 0;
  double objective = 0;
  double bound = 0;
};

/// Solves `cbc` (of `columns` columns) in this process.
MilpSolution solveHere(Cbc_Model *cbc, int columns) {
  Cbc_solve(cbc);
  MilpSolution result;
  result.bound = Cbc_getBestPossibleObjValue(cbc);
  if (const double *solution = Cbc_bestSolution(cbc)) {
    result.values.assign(solution, solution + columns);
    result.objective = Cbc_getObjValue(cbc);
    result.isOptimal =
        Cbc_isProvenOptimal(cbc) || result.objective - result.bound < 1.0;
  }
  return result;
}

/// Writes `size` bytes to `fd`, whatever the partial writes.
bool writeAll(int fd, const void *data, size_t size) {
  const char *bytes = static_cast<const char *>(data);
  while (size > 0) {
    ssize_t written = ::write(fd, bytes, size);
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0)
      return false;
    bytes += written;
    size -= written;
  }
  return true;
}

/// Reads `size` bytes from `fd` before `deadline`; false on a timeout, an
/// error or the end of the pipe.
bool readAllBefore(int fd, void *data, size_t size,
                   std::chrono::steady_clock::time_point deadline) {
  char *bytes = static_cast<char *>(data);
  while (size > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      return false;
    pollfd wait{fd, POLLIN, 0};
    int ready = ::poll(&wait, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0)
      return false;
    ssize_t got = ::read(fd, bytes, size);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return false;
    bytes += got;
    size -= got;
  }
  return true;
}

/// Solves `cbc` in a child process and takes its answer if it comes within
/// `seconds` (and half a second for the transfer); otherwise the
/// child is killed and there is no solution (the bound 0 holds: costs are
/// not negative). CBC's own limit bounds its branch and bound, not the
/// root relaxation, which takes minutes on graphs of a thousand nodes: the
/// time limit is the caller's, kept this way. Solves in this process when
/// no child can be made.
MilpSolution solveWithDeadline(Cbc_Model *cbc, int columns, double seconds) {
  int ends[2];
  if (::pipe(ends) != 0)
    return solveHere(cbc, columns);
  std::fflush(nullptr);
  pid_t child = ::fork();
  if (child < 0) {
    ::close(ends[0]);
    ::close(ends[1]);
    return solveHere(cbc, columns);
  }
  if (child == 0) {
    ::close(ends[0]);
    MilpSolution solved = solveHere(cbc, columns);
    SolveHeader header;
    header.hasSolution = !solved.values.empty();
    header.isOptimal = solved.isOptimal;
    header.objective = solved.objective;
    header.bound = solved.bound;
    bool sent = writeAll(ends[1], &header, sizeof(header)) &&
                writeAll(ends[1], solved.values.data(),
                         solved.values.size() * sizeof(double));
    ::_exit(sent ? 0 : 1);
  }
  ::close(ends[1]);
  auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(seconds + 0.5));
  MilpSolution result;
  SolveHeader header;
  bool received = readAllBefore(ends[0], &header, sizeof(header), deadline);
  if (received && header.hasSolution) {
    result.values.resize(columns);
    received = readAllBefore(ends[0], result.values.data(),
                             columns * sizeof(double), deadline);
  }
  ::close(ends[0]);
  if (!received)
    ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  if (!received)
    return MilpSolution();
  result.objective = header.objective;
  result.bound = header.bound;
  result.isOptimal = header.isOptimal;
  return result;
}

} // namespace

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
  MilpSolution result = solveWithDeadline(cbc, columns, seconds);
  Cbc_deleteModel(cbc);
  return result;
}
