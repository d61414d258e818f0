//===- MemoryReport.cpp - peak memory, activations, FLOPs and time -------===//
//
// Implements `ckpt-report`: runs the memory analysis and the cost model on
// every function and writes a table or JSON. The remat report extends this
// schema.
//
//===----------------------------------------------------------------------===//

#include "FunctionSelection.h"
#include "RematSupport.h"

#include "ckpt/Analysis/ActivationTimeline.h"
#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Remat/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

#define DEBUG_TYPE "ckpt-report"

namespace mlir::ckpt {
#define GEN_PASS_DEF_REPORTPASS
#include "ckpt/Remat/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// The user's name for a value (`ckpt.name`), else a description.
std::string describeValue(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp())) {
      if (auto name = func.getArgAttrOfType<StringAttr>(
              arg.getArgNumber(), CkptDialect::getNameAttrName()))
        return name.str();
      return "%arg" + std::to_string(arg.getArgNumber());
    }
    return "region argument #" + std::to_string(arg.getArgNumber());
  }
  Operation *op = value.getDefiningOp();
  if (auto name = op->getAttrOfType<StringAttr>(CkptDialect::getNameAttrName()))
    return name.str();
  std::string text = op->getName().getStringRef().str();
  if (op->getNumResults() > 1)
    text += "#" + std::to_string(cast<OpResult>(value).getResultNumber());
  return text;
}

/// The value that names a buffer in reports: the first one the user named
/// with ckpt.name, else the first value written into it (not the empty
/// tensor reserving it), else the value whose definition allocates it.
Value getNamingValue(const TimelineBuffer &buffer,
                     const ActivationTimeline &timeline) {
  Value firstWritten;
  unsigned firstPoint = 0;
  for (Value v : buffer.values) {
    Operation *def = v.getDefiningOp();
    if (!def)
      continue;
    if (def->hasAttr(CkptDialect::getNameAttrName()))
      return v;
    unsigned point = timeline.getProgramPoint(def);
    if (!isa<tensor::EmptyOp>(def) && (!firstWritten || point < firstPoint)) {
      firstWritten = v;
      firstPoint = point;
    }
  }
  return firstWritten ? firstWritten : buffer.root;
}

std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// Everything reported for one function.
struct FunctionReport {
  std::string name;
  const ActivationTimeline *timeline;
  OpCost forward, backward;
};

void writeJSON(llvm::raw_ostream &os, ArrayRef<FunctionReport> reports,
               const DeviceTarget &target, unsigned topValues) {
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("target", target.name);
    json.attributeArray("functions", [&] {
      for (const FunctionReport &report : reports) {
        const ActivationTimeline &timeline = *report.timeline;
        Operation *peakOp =
            timeline.getProgramPoints()[timeline.getPeakPoint()];
        json.object([&] {
          json.attribute("name", report.name);
          json.attribute("argument_bytes", timeline.getArgumentBytes());
          json.attribute("peak_bytes", timeline.getPeakBytes());
          json.attributeObject("peak_op", [&] {
            json.attribute("name", peakOp->getName().getStringRef());
            json.attribute("location", formatLocation(peakOp->getLoc()));
            json.attribute("program_point", timeline.getPeakPoint());
          });
          json.attributeArray("live_at_peak", [&] {
            unsigned listed = 0;
            for (const TimelineBuffer *buffer :
                 timeline.getBuffersLiveAt(timeline.getPeakPoint())) {
              if (listed++ == topValues)
                break;
              json.object([&] {
                Value named = getNamingValue(*buffer, timeline);
                json.attribute("name", describeValue(named));
                json.attribute("location", formatLocation(named.getLoc()));
                json.attribute("type", printType(buffer->root.getType()));
                json.attribute("bytes", buffer->allocationBytes);
                json.attribute("kind",
                               buffer->isArgument ? "argument" : "allocation");
              });
            }
          });
          json.attribute("saved_activation_bytes",
                         timeline.getSavedActivationBytes());
          json.attribute("constant_bytes", timeline.getConstantBytes());
          json.attribute("phase_markers", timeline.hasPhaseMarkers());
          json.attributeObject("flops", [&] {
            json.attribute("forward", report.forward.flops);
            json.attribute("backward", report.backward.flops);
            json.attribute("total",
                           report.forward.flops + report.backward.flops);
          });
          json.attribute("bytes_moved", report.forward.bytesRead +
                                            report.forward.bytesWritten +
                                            report.backward.bytesRead +
                                            report.backward.bytesWritten);
          json.attribute("kernel_launches", report.forward.kernelLaunches +
                                                report.backward.kernelLaunches);
          json.attribute("estimated_time_s",
                         report.forward.estimatedSeconds +
                             report.backward.estimatedSeconds);
        });
      }
    });
  });
  os << "\n";
}

void writeTable(llvm::raw_ostream &os, ArrayRef<FunctionReport> reports,
                const DeviceTarget &target, unsigned topValues) {
  for (const FunctionReport &report : reports) {
    const ActivationTimeline &timeline = *report.timeline;
    Operation *peakOp = timeline.getProgramPoints()[timeline.getPeakPoint()];
    os << "function @" << report.name << "\n";
    os << llvm::formatv(
        "  peak                {0,14} B  at point {1} ({2}, {3})\n",
        timeline.getPeakBytes(), timeline.getPeakPoint(), peakOp->getName(),
        formatLocation(peakOp->getLoc()));
    os << llvm::formatv("  arguments           {0,14} B\n",
                        timeline.getArgumentBytes());
    os << llvm::formatv("  saved activations   {0,14} B{1}\n",
                        timeline.getSavedActivationBytes(),
                        timeline.hasPhaseMarkers()
                            ? ""
                            : "  (no phase markers: values alive across "
                              "the peak)");
    os << llvm::formatv("  constants           {0,14} B\n",
                        timeline.getConstantBytes());
    os << llvm::formatv("  FLOPs               {0,14}  (forward {1}, "
                        "backward {2})\n",
                        report.forward.flops + report.backward.flops,
                        report.forward.flops, report.backward.flops);
    os << llvm::formatv("  estimated time      {0,14:e3} s  on {1}\n",
                        report.forward.estimatedSeconds +
                            report.backward.estimatedSeconds,
                        target.name);
    os << "  largest buffers alive at the peak:\n";
    unsigned listed = 0;
    for (const TimelineBuffer *buffer :
         timeline.getBuffersLiveAt(timeline.getPeakPoint())) {
      if (listed++ == topValues)
        break;
      Value named = getNamingValue(*buffer, timeline);
      os << llvm::formatv(
          "    {0,14} B  {1,-10} {2}  {3}  ({4})\n", buffer->allocationBytes,
          buffer->isArgument ? "argument" : "allocation", describeValue(named),
          printType(buffer->root.getType()), formatLocation(named.getLoc()));
    }
  }
}

struct ReportPass : public mlir::ckpt::impl::ReportPassBase<ReportPass> {
  using ReportPassBase::ReportPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (format != "table" && format != "json") {
      emitError(module.getLoc()) << "ckpt-report: unknown format '" << format
                                 << "': expected 'table' or 'json'";
      return signalPassFailure();
    }
    llvm::Expected<DeviceTarget> deviceTarget = lookupDeviceTarget(target);
    if (!deviceTarget) {
      emitError(module.getLoc())
          << "ckpt-report: " << llvm::toString(deviceTarget.takeError());
      return signalPassFailure();
    }

    FailureOr<std::unique_ptr<BufferizationForecast>> forecast =
        BufferizationForecast::analyze(module);
    if (failed(forecast))
      return signalPassFailure();

    FailureOr<SmallVector<func::FuncOp>> functions =
        selectFunctions(module, functionNames, "ckpt-report");
    if (failed(functions))
      return signalPassFailure();
    std::vector<ActivationTimeline> timelines;
    for (func::FuncOp func : *functions) {
      FailureOr<ActivationTimeline> timeline =
          ActivationTimeline::build(func, **forecast);
      if (failed(timeline))
        return signalPassFailure();
      timelines.push_back(std::move(*timeline));
    }

    SmallVector<FunctionReport> reports;
    for (auto [func, timeline] : llvm::zip(*functions, timelines)) {
      FunctionReport report{func.getSymName().str(), &timeline, {}, {}};
      for (auto [point, op] : llvm::enumerate(timeline.getProgramPoints())) {
        OpCost cost = estimateOpCost(op, *deviceTarget, {allowTF32});
        if (timeline.getPhase(point) == StepPhase::Backward)
          report.backward += cost;
        else
          report.forward += cost;
      }
      reports.push_back(report);
    }

    std::string errorMessage;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(output, &errorMessage);
    if (!file) {
      emitError(module.getLoc())
          << "ckpt-report: cannot write '" << output << "': " << errorMessage;
      return signalPassFailure();
    }
    if (format == "json")
      writeJSON(file->os(), reports, *deviceTarget, topValues);
    else
      writeTable(file->os(), reports, *deviceTarget, topValues);
    file->keep();
    markAllAnalysesPreserved();
  }
};

} // namespace
