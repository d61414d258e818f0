//===- RematReport.cpp - the report of ckpt-remat -------------------------===//
//
// The JSON report extends ckpt-report's schema; the table is for people.
//
//===----------------------------------------------------------------------===//

#include "RematReport.h"
#include "GreedyPeak.h"
#include "RematGraph.h"
#include "RematSupport.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

#include <tuple>

using namespace mlir;
using namespace mlir::ckpt;

LogicalResult mlir::ckpt::collectSavedResiduals(ModuleOp module,
                                                func::FuncOp func,
                                                FunctionOutcome &outcome) {
  FailureOr<ActivationTimeline> timeline = analyzeFunction(module, func);
  if (failed(timeline))
    return failure();
  for (const TimelineBuffer &buffer : timeline->getBuffers()) {
    if (!buffer.isSavedActivation || buffer.isArgument)
      continue;
    SavedResidual saved;
    Operation *def = buffer.values.back().getDefiningOp();
    saved.value = def ? describeValue(def) : "argument";
    saved.location = formatLocation(buffer.values.back().getLoc());
    llvm::raw_string_ostream(saved.type) << buffer.root.getType();
    saved.bytes = buffer.allocationBytes;
    saved.reason = "kept by the solver";
    for (Value value : buffer.values) {
      Operation *op = value.getDefiningOp();
      if (!op)
        continue;
      if (getPolicyInBody(value, func) == Policy::MustSave) {
        saved.reason = "must_save policy";
        break;
      }
      if (!isRecomputable(op))
        saved.reason = "not recomputable";
    }
    outcome.saved.push_back(std::move(saved));
  }
  return success();
}

std::pair<int64_t, double>
mlir::ckpt::sumRecomputation(const FunctionOutcome &outcome) {
  int64_t extraFlops = 0;
  double extraSeconds = 0;
  for (const RematStep &step : outcome.steps) {
    extraFlops += step.flops;
    extraSeconds += step.seconds;
  }
  return {extraFlops, extraSeconds};
}

namespace {

/// The report as text: a summary line per function, then its saved
/// residuals and its recomputations.
void writeTable(raw_ostream &os, ArrayRef<FunctionOutcome> outcomes,
                const DeviceTarget &deviceTarget) {
  for (const FunctionOutcome &outcome : outcomes) {
    if (outcome.failure) {
      os << llvm::formatv("@{0}: {1}, budget {2} B ({3}), baseline {4} B, "
                          "smallest peak found {5} B\n",
                          outcome.name, outcome.failure->kind,
                          outcome.budgetBytes, outcome.budgetRule,
                          outcome.baselinePeakBytes,
                          outcome.failure->smallestPeakBytes);
      continue;
    }
    int64_t extraFlops;
    double extraSeconds;
    std::tie(extraFlops, extraSeconds) = sumRecomputation(outcome);
    os << llvm::formatv(
        "@{0}: solver {1}, budget {2} B ({3}), peak {4} -> {5} B ({6:P}), "
        "{7} recomputations, +{8} FLOPs, +{9:e2} s on {10}, solved in "
        "{11:f2} s\n",
        outcome.name, outcome.solver, outcome.budgetBytes, outcome.budgetRule,
        outcome.baselinePeakBytes, outcome.peakBytes,
        static_cast<double>(outcome.peakBytes) /
            std::max<int64_t>(1, outcome.baselinePeakBytes),
        outcome.steps.size(), extraFlops, extraSeconds, deviceTarget.name,
        outcome.solveSeconds);
    if (outcome.budgetMissed)
      os << "  budget missed: the smallest peak found was applied "
            "(on-infeasible=min)\n";
    os << llvm::formatv("  {0,-6} {1,-24} {2,-28} {3,-28} {4,10} {5,12}\n", "",
                        "value", "computed at", "recomputed before / kept",
                        "bytes", "FLOPs");
    for (const RematStep &step : outcome.steps)
      os << llvm::formatv("  {0,-6} {1,-24} {2,-28} {3,-28} {4,10} {5,12}\n",
                          "recomp", step.value, step.location, step.where,
                          step.bytes, step.flops);
    for (const SavedResidual &saved : outcome.saved)
      os << llvm::formatv("  {0,-6} {1,-24} {2,-28} {3,-28} {4,10} {5,12}\n",
                          "saved", saved.value, saved.location, saved.reason,
                          saved.bytes, "");
  }
}

/// The report as JSON.
void writeJSON(raw_ostream &os, ArrayRef<FunctionOutcome> outcomes,
               const DeviceTarget &deviceTarget) {
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("target", deviceTarget.name);
    json.attributeArray("functions", [&] {
      for (const FunctionOutcome &outcome : outcomes)
        json.object([&] {
          json.attribute("name", outcome.name);
          if (outcome.failure) {
            json.attribute("budget_rule", outcome.budgetRule);
            json.attribute("budget_bytes", outcome.budgetBytes);
            json.attribute("baseline_peak_bytes", outcome.baselinePeakBytes);
            json.attributeObject("error", [&] {
              json.attribute("kind", outcome.failure->kind);
              json.attribute("smallest_peak_bytes",
                             outcome.failure->smallestPeakBytes);
            });
            return;
          }
          int64_t extraFlops;
          double extraSeconds;
          std::tie(extraFlops, extraSeconds) = sumRecomputation(outcome);
          json.attribute("solver", outcome.solver);
          json.attribute("budget_rule", outcome.budgetRule);
          json.attribute("budget_bytes", outcome.budgetBytes);
          json.attribute("baseline_peak_bytes", outcome.baselinePeakBytes);
          json.attribute("peak_bytes", outcome.peakBytes);
          json.attribute("budget_met", !outcome.budgetMissed);
          json.attribute("recompute_count",
                         static_cast<int64_t>(outcome.steps.size()));
          json.attribute("baseline_flops", outcome.baselineFlops);
          json.attribute("extra_flops", extraFlops);
          json.attribute("extra_time_s", extraSeconds);
          json.attribute("solve_time_s", outcome.solveSeconds);
          if (outcome.planned)
            json.attributeObject("planner_model", [&] {
              json.attribute("baseline_peak_bytes",
                             outcome.modelBaselinePeakBytes);
              json.attribute("peak_bytes", outcome.modelPeakBytes);
              json.attribute(
                  "baseline_cost_ns",
                  static_cast<int64_t>(outcome.modelBaselineCostUnits));
              json.attribute("cost_ns",
                             static_cast<int64_t>(outcome.modelCostUnits));
              json.attribute("optimal", outcome.isProvenOptimal);
              json.attribute("formulation", outcome.formulation);
              json.attribute("unappliable_plans",
                             static_cast<int64_t>(outcome.unappliablePlans));
              if (outcome.optimalityGap)
                json.attribute("gap", *outcome.optimalityGap);
              if (outcome.lowerBoundCostUnits)
                json.attribute(
                    "lower_bound_ns",
                    static_cast<int64_t>(*outcome.lowerBoundCostUnits));
            });
          json.attributeArray("recomputed", [&] {
            for (const RematStep &step : outcome.steps)
              json.object([&] {
                json.attribute("value", step.value);
                json.attribute("location", step.location);
                json.attribute("where", step.where);
                json.attribute("bytes", step.bytes);
                json.attribute("flops", step.flops);
                if (step.peakBefore)
                  json.attribute("peak_before_bytes", *step.peakBefore);
                if (step.peakAfter)
                  json.attribute("peak_after_bytes", *step.peakAfter);
              });
          });
          json.attributeArray("saved", [&] {
            for (const SavedResidual &saved : outcome.saved)
              json.object([&] {
                json.attribute("value", saved.value);
                json.attribute("location", saved.location);
                json.attribute("type", saved.type);
                json.attribute("bytes", saved.bytes);
                json.attribute("reason", saved.reason);
              });
          });
        });
    });
  });
  os << "\n";
}

} // namespace

LogicalResult mlir::ckpt::writeRematReport(StringRef path, StringRef format,
                                           ArrayRef<FunctionOutcome> outcomes,
                                           const DeviceTarget &target,
                                           Location loc) {
  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> file =
      openOutputFile(path, &errorMessage);
  if (!file)
    return emitError(loc) << "ckpt-remat: cannot write '" << path
                          << "': " << errorMessage;
  if (format == "table")
    writeTable(file->os(), outcomes, target);
  else
    writeJSON(file->os(), outcomes, target);
  file->keep();
  return success();
}
