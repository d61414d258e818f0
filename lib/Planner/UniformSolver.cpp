//===- UniformSolver.cpp - checkpoint_sequential baseline -----------------===//

#include "OnDemandSimulation.h"
#include "PlanSupport.h"

#include "llvm/Support/FormatVariadic.h"

using namespace ckpt::planner;

llvm::Expected<PlanResult>
ckpt::planner::solveUniform(const RematProblem &problem, uint64_t budgetBytes,
                            unsigned interval) {
  SolveTimer timer;
  std::string name = llvm::formatv("uniform:{0}", interval).str();
  if (interval == 0)
    return llvm::createStringError("uniform checkpoint interval must be >= 1");
  bool hasBackward = problem.firstBackwardNode() < problem.size();

  OnDemandConfig config;
  config.dropAfterStage.resize(problem.size());
  unsigned forwardPosition = 0;
  for (NodeIndex v = 0; v < problem.size(); ++v) {
    const RematNode &node = problem.node(v);
    if (node.isBackward)
      continue;
    bool isCheckpoint = forwardPosition % interval == interval - 1;
    ++forwardPosition;
    if (problem.needsPhaseSplit(v)) {
      config.dropAfterStage[v] = problem.lastForwardConsumer(v);
      continue;
    }
    if (isCheckpoint || !problem.mayRecompute(v) || problem.isSink(v))
      continue;
    // Without a backward phase the segments end where the forward values'
    // last consumer in the first half of the program runs.
    if (hasBackward) {
      if (problem.firstBackwardConsumer(v))
        config.dropAfterStage[v] = problem.lastForwardConsumer(v);
    }
  }
  std::optional<std::vector<NodeIndex>> sequence =
      simulateOnDemand(problem, config);
  if (!sequence)
    return llvm::createStringError(
        name + " cannot rematerialize a value whose inputs are gone");
  return finishPlan(problem, scheduleFromComputeSequence(problem, *sequence),
                    budgetBytes, name, timer);
}
