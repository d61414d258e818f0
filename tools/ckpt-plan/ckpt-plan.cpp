//===- ckpt-plan.cpp - Rematerialization planner on a graph file ----------===//
//
// Reads a networkx node-link JSON graph, plans rematerialization under a
// budget and prints the plan as JSON or as a table. No IR involved.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Planner/Budget.h"
#include "ckpt/Planner/GraphJSON.h"
#include "ckpt/Planner/Solvers.h"
#include "ckpt/Support/LargeStack.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace ckpt::planner;

namespace {

enum class OutputFormat { JSON, Table };

llvm::cl::OptionCategory planCategory("ckpt-plan options");

llvm::cl::opt<std::string> graphPath("graph", llvm::cl::Required,
                                     llvm::cl::desc("Graph file (networkx "
                                                    "node-link JSON)"),
                                     llvm::cl::value_desc("file"),
                                     llvm::cl::cat(planCategory));
llvm::cl::opt<std::string> budgetText(
    "budget", llvm::cl::init("1.0"),
    llvm::cl::desc("Memory budget: fraction of the baseline peak ('0.7', "
                   "'70%'), bytes ('123456', '512MiB', '2GB'), 'min' (the "
                   "smallest peak found) or 'auto' (the knee of the "
                   "memory/recompute trade-off)"),
    llvm::cl::cat(planCategory));
llvm::cl::opt<std::string>
    solverText("solver", llvm::cl::init("auto"),
               llvm::cl::desc("none, uniform:K, chain-dp, greedy, ilp or auto"),
               llvm::cl::cat(planCategory));
llvm::cl::opt<OutputFormat> outputFormat(
    "format", llvm::cl::init(OutputFormat::JSON),
    llvm::cl::desc("Output format"),
    llvm::cl::values(clEnumValN(OutputFormat::JSON, "json", "JSON object"),
                     clEnumValN(OutputFormat::Table, "table",
                                "human-readable table")),
    llvm::cl::cat(planCategory));
llvm::cl::opt<std::string>
    scheduleOutPath("schedule-out",
                    llvm::cl::desc("Also write the schedule as JSON here"),
                    llvm::cl::value_desc("file"), llvm::cl::cat(planCategory));
llvm::cl::opt<double>
    timeLimitSeconds("time-limit", llvm::cl::init(60.0),
                     llvm::cl::desc("Time limit of the ILP solver in seconds"),
                     llvm::cl::value_desc("seconds"),
                     llvm::cl::cat(planCategory));

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "ckpt-plan") << message << "\n";
  return 1;
}

void printTable(llvm::raw_ostream &os, const RematProblem &problem,
                const PlanResult &plan, uint64_t budgetBytes,
                uint64_t baselinePeak, uint64_t baselineCost) {
  double overhead = static_cast<double>(plan.costUnits) /
                        std::max<uint64_t>(1, baselineCost) -
                    1;
  os << llvm::formatv("solver            {0}\n", plan.solverName);
  os << llvm::formatv("feasible          {0}\n",
                      plan.isFeasible ? "yes" : "no");
  os << llvm::formatv("nodes             {0}\n", problem.size());
  os << llvm::formatv("budget_bytes      {0}\n", budgetBytes);
  os << llvm::formatv("baseline_peak     {0} bytes\n", baselinePeak);
  os << llvm::formatv("peak              {0} bytes ({1:P} of baseline)\n",
                      plan.peakBytes,
                      static_cast<double>(plan.peakBytes) /
                          std::max<uint64_t>(1, baselinePeak));
  os << llvm::formatv("baseline_cost     {0}\n", baselineCost);
  os << llvm::formatv("cost              {0} (overhead {1:P})\n",
                      plan.costUnits, overhead);
  os << llvm::formatv("optimal           {0}\n",
                      plan.isProvenOptimal() ? "yes" : "no");
  os << llvm::formatv("formulation       {0}\n",
                      stringifyPlanFormulation(plan.formulation));
  if (plan.optimalityGap)
    os << llvm::formatv("gap               {0:P}\n", *plan.optimalityGap);
  else
    os << "gap               unknown\n";
  if (plan.lowerBoundCostUnits)
    os << llvm::formatv("lower_bound       {0}\n", *plan.lowerBoundCostUnits);
  os << llvm::formatv("solve_time        {0:F3} s\n", plan.solveTimeSeconds);
  os << "schedule:\n";
  for (const ScheduleStep &step : plan.schedule) {
    const RematNode &node = problem.node(step.node);
    os << llvm::formatv("  {0,-8} {1,6}  {2}\n",
                        step.kind == StepKind::Compute ? "compute" : "free",
                        node.externalId, node.name);
  }
}

} // namespace

namespace {
/// The tool, run on a large stack by main.
int runTool(int argc, char **argv) {
  llvm::cl::HideUnrelatedOptions(planCategory);
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "ckpt rematerialization planner on a graph file\n");

  llvm::Expected<PlanRequest> request =
      parsePlanRequest(budgetText, solverText, timeLimitSeconds);
  if (!request)
    return fail(llvm::toString(request.takeError()));

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(graphPath, /*IsText=*/true);
  if (!file)
    return fail("cannot read graph file '" + graphPath +
                "': " + file.getError().message());
  llvm::Expected<RematProblem> problem = parseGraphJSON((*file)->getBuffer());
  if (!problem)
    return fail("in '" + graphPath +
                "': " + llvm::toString(problem.takeError()));

  uint64_t baselinePeak = baselinePeakBytes(*problem);
  uint64_t baselineCost = problem->totalComputeCostUnits();
  uint64_t budgetBytes = 0;
  llvm::Expected<PlanResult> plan =
      planRequest(*problem, *request, budgetBytes);
  if (!plan)
    return fail(llvm::toString(plan.takeError()));

  if (!scheduleOutPath.empty()) {
    std::error_code error;
    llvm::raw_fd_ostream scheduleOut(scheduleOutPath, error,
                                     llvm::sys::fs::OF_Text);
    if (error)
      return fail("cannot write schedule file '" + scheduleOutPath +
                  "': " + error.message());
    scheduleOut << llvm::formatv(
        "{0:2}\n",
        llvm::json::Value(llvm::json::Object{
            {"schedule", scheduleToJSON(*problem, plan->schedule)}}));
  }

  if (outputFormat == OutputFormat::Table) {
    printTable(llvm::outs(), *problem, *plan, budgetBytes, baselinePeak,
               baselineCost);
    return 0;
  }
  llvm::outs() << llvm::formatv("{0:2}\n",
                                planToJSON(*problem, *plan, budgetBytes));
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // Deeply nested malformed input: a diagnostic, not a stack overflow.
  return mlir::ckpt::runOnLargeStack([&] { return runTool(argc, argv); });
}
