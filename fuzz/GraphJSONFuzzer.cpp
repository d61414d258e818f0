//===- GraphJSONFuzzer.cpp - libFuzzer harness for the planner's input ----===//
//
// Feeds arbitrary bytes to the graph JSON reader; problems it accepts (up to
// 64 nodes) are planned by the baseline and the greedy solver at 70% of the
// baseline peak, and every schedule is replayed by the validator. Any crash,
// sanitizer report or schedule the validator rejects is a bug.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Planner/GraphJSON.h"
#include "ckpt/Planner/Solvers.h"

#include <cstdlib>

using namespace ckpt::planner;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<RematProblem> problem = parseGraphJSON(text);
  if (!problem) {
    llvm::consumeError(problem.takeError());
    return 0;
  }
  if (problem->size() > 64)
    return 0;
  uint64_t baseline = baselinePeakBytes(*problem);
  // The baseline schedule is valid unless a must_recompute value serves
  // both phases (the validator rejects that by design).
  bool splitsPhases = false;
  for (NodeIndex v = 0; v < problem->size(); ++v)
    splitsPhases |= problem->needsPhaseSplit(v);
  llvm::Expected<ScheduleMetrics> replay =
      validateSchedule(*problem, baselineSchedule(*problem));
  if (!replay) {
    llvm::consumeError(replay.takeError());
    if (!splitsPhases)
      std::abort();
  } else if (replay->peakBytes != baseline) {
    std::abort();
  }
  for (SolverKind kind : {SolverKind::Greedy, SolverKind::Uniform}) {
    SolverSpec spec;
    spec.kind = kind;
    spec.uniformInterval = 2;
    llvm::Expected<PlanResult> plan =
        planRemat(*problem, baseline / 10 * 7 + 1, spec);
    if (!plan) {
      // Infeasible budgets and unsupported structures are errors, not bugs.
      llvm::consumeError(plan.takeError());
      continue;
    }
    llvm::Expected<ScheduleMetrics> metrics =
        validateSchedule(*problem, plan->schedule);
    if (!metrics || metrics->peakBytes != plan->peakBytes)
      std::abort();
  }
  return 0;
}
