//===- Schedule.cpp - Schedule validation and construction ----------------===//

#include "ckpt/Planner/Schedule.h"

#include "llvm/Support/FormatVariadic.h"

#include <numeric>

using namespace ckpt::planner;

bool ckpt::planner::inputFreedRightAfter(const RematProblem &problem,
                                         llvm::ArrayRef<ScheduleStep> schedule,
                                         size_t stepIndex) {
  std::optional<NodeIndex> input =
      problem.overwritableInput(schedule[stepIndex].node);
  if (!input)
    return false;
  for (size_t next = stepIndex + 1;
       next < schedule.size() && schedule[next].kind == StepKind::Free; ++next)
    if (schedule[next].node == *input)
      return true;
  return false;
}

static std::string describe(const RematProblem &problem, NodeIndex v) {
  const RematNode &node = problem.node(v);
  return llvm::formatv("'{0}' (id {1})", node.name, node.externalId).str();
}

llvm::Expected<ScheduleMetrics>
ckpt::planner::validateSchedule(const RematProblem &problem,
                                llvm::ArrayRef<ScheduleStep> schedule) {
  unsigned n = problem.size();
  std::vector<bool> resident(n, false);
  std::vector<unsigned> computeCount(n, 0);
  // A must_recompute copy becomes stale once its last forward-phase consumer
  // has been computed for the first time; reading it afterwards would mean the
  // forward copy was kept for the backward phase.
  std::vector<bool> staleCopy(n, false);
  ScheduleMetrics metrics;
  uint64_t residentBytes = problem.getConstantBytes();

  auto fail = [&](unsigned stepIndex, const std::string &why) {
    return llvm::createStringError(
        llvm::formatv("invalid schedule at step {0}: {1}", stepIndex, why)
            .str());
  };

  for (auto [stepIndex, step] : llvm::enumerate(schedule)) {
    NodeIndex v = step.node;
    if (v >= n)
      return fail(stepIndex, llvm::formatv("node index {0} out of range", v));
    if (step.kind == StepKind::Free) {
      if (!resident[v])
        return fail(stepIndex,
                    "free of non-resident value " + describe(problem, v));
      resident[v] = false;
      residentBytes -= problem.bytes(v);
      continue;
    }
    if (resident[v])
      return fail(stepIndex,
                  "compute of already resident value " + describe(problem, v));
    for (NodeIndex u : problem.predecessors(v)) {
      if (!resident[u])
        return fail(stepIndex, "compute of " + describe(problem, v) +
                                   " needs non-resident input " +
                                   describe(problem, u));
      if (staleCopy[u])
        return fail(stepIndex, "must_recompute value " + describe(problem, u) +
                                   " kept past its last forward use feeds " +
                                   describe(problem, v));
    }
    if (computeCount[v] > 0 && !problem.mayRecompute(v))
      return fail(stepIndex, describe(problem, v) +
                                 " may not be recomputed (must_save or not "
                                 "recomputable)");
    bool isFirstComputation = computeCount[v] == 0;
    ++computeCount[v];
    if (!isFirstComputation)
      ++metrics.recomputeCount;
    staleCopy[v] = false;
    resident[v] = true;
    residentBytes += problem.bytes(v);
    metrics.peakBytes = std::max(
        metrics.peakBytes,
        residentBytes - problem.bytes(v) +
            problem.addedBytes(
                v, inputFreedRightAfter(problem, schedule, stepIndex)));
    metrics.costUnits += problem.cost(v);
    if (isFirstComputation)
      for (NodeIndex u : problem.predecessors(v))
        if (problem.needsPhaseSplit(u) && problem.lastForwardConsumer(u) == v)
          staleCopy[u] = true;
  }
  for (NodeIndex v = 0; v < n; ++v) {
    if (computeCount[v] == 0)
      return llvm::createStringError(
          "invalid schedule: " + describe(problem, v) + " is never computed");
    if (problem.isSink(v) && !resident[v])
      return llvm::createStringError("invalid schedule: output " +
                                     describe(problem, v) +
                                     " is not resident at the end");
  }
  // An empty problem still holds its constant bytes.
  metrics.peakBytes = std::max(metrics.peakBytes, problem.getConstantBytes());
  return metrics;
}

Schedule ckpt::planner::scheduleFromComputeSequence(
    const RematProblem &problem, llvm::ArrayRef<NodeIndex> computeSequence) {
  unsigned n = problem.size();
  unsigned length = computeSequence.size();
  // lastUse[i]: position of the last computation that reads the copy made at
  // position i; a copy nobody reads dies where it is made.
  std::vector<unsigned> lastUse(length);
  std::vector<unsigned> currentCopy(n, ~0u);
  std::vector<unsigned> finalCopy(n, ~0u);
  for (unsigned pos = 0; pos < length; ++pos) {
    NodeIndex v = computeSequence[pos];
    for (NodeIndex u : problem.predecessors(v))
      if (currentCopy[u] != ~0u)
        lastUse[currentCopy[u]] = pos;
    currentCopy[v] = pos;
    lastUse[pos] = pos;
    finalCopy[v] = pos;
  }
  std::vector<std::vector<unsigned>> freedAfter(length);
  for (unsigned pos = 0; pos < length; ++pos) {
    NodeIndex v = computeSequence[pos];
    if (problem.isSink(v) && finalCopy[v] == pos)
      continue;
    freedAfter[lastUse[pos]].push_back(v);
  }
  Schedule schedule;
  schedule.reserve(2 * length);
  for (unsigned pos = 0; pos < length; ++pos) {
    schedule.push_back({StepKind::Compute, computeSequence[pos]});
    for (NodeIndex v : freedAfter[pos])
      schedule.push_back({StepKind::Free, v});
  }
  return schedule;
}

Schedule ckpt::planner::baselineSchedule(const RematProblem &problem) {
  std::vector<NodeIndex> order(problem.size());
  std::iota(order.begin(), order.end(), 0);
  return scheduleFromComputeSequence(problem, order);
}

uint64_t ckpt::planner::baselinePeakBytes(const RematProblem &problem) {
  llvm::Expected<ScheduleMetrics> metrics =
      validateSchedule(problem, baselineSchedule(problem));
  // The baseline respects every rule by construction; must_recompute values
  // with consumers in both phases are the exception, and their baseline peak
  // is still the un-rematerialized one.
  if (!metrics) {
    llvm::consumeError(metrics.takeError());
    uint64_t resident = problem.getConstantBytes(), peak = resident;
    Schedule baseline = baselineSchedule(problem);
    for (auto [index, step] : llvm::enumerate(baseline)) {
      if (step.kind == StepKind::Free) {
        resident -= problem.bytes(step.node);
        continue;
      }
      peak = std::max(
          peak, resident + problem.addedBytes(step.node, inputFreedRightAfter(
                                                             problem, baseline,
                                                             index)));
      resident += problem.bytes(step.node);
    }
    return peak;
  }
  return metrics->peakBytes;
}
