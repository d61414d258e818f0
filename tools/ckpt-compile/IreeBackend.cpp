//===- IreeBackend.cpp - ckpt-compile --backend=iree-* --------------------===//
//
// IREE plans its own memory: it packs the transients of each execution
// region into one slab by their lifetimes and fuses on its own, so a plan
// that meets a budget in ckpt's allocator does not meet it under IREE (the
// zoo's MLP at 0.6 of ckpt's peak is 0.81 of IREE's). The budget is held
// against IREE's own measurement instead: each candidate plan is compiled
// and run once, and the ckpt budget is lowered until IREE's peak fits.
//
//===----------------------------------------------------------------------===//

#include "IreeBackend.h"

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h"
#include "ckpt/Planner/Budget.h"
#include "ckpt/Remat/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace mlir::ckpt;
using namespace mlir::ckpt::tools;

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string pathIn(llvm::StringRef directory, llvm::StringRef name) {
  llvm::SmallString<128> path(directory);
  llvm::sys::path::append(path, name);
  return path.str().str();
}

/// What a failed tool printed to the file at `path`: its first `count`
/// located errors where it printed some (the operations and notes around
/// them are left out), else its last 20 lines. Each line is cut at 300
/// characters: tools echo whole signatures.
std::string diagnosticsIn(llvm::StringRef path, unsigned count = 3) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path);
  if (!file)
    return "";
  llvm::SmallVector<llvm::StringRef> lines;
  (*file)->getBuffer().rtrim().split(lines, '\n');
  llvm::SmallVector<llvm::StringRef> errors;
  for (llvm::StringRef line : lines)
    if (line.contains(" error: ") || line.starts_with("error: "))
      errors.push_back(line);
  llvm::ArrayRef<llvm::StringRef> shown = lines;
  if (!errors.empty())
    shown = llvm::ArrayRef(errors).take_front(count);
  else if (lines.size() > 20)
    shown = shown.take_back(20);
  std::string text;
  for (llvm::StringRef line : shown)
    text +=
        "\n  " + line.take_front(300).str() + (line.size() > 300 ? "..." : "");
  if (errors.size() > count)
    text += llvm::formatv("\n  ({0} more errors; --keep-temps keeps '{1}')",
                          errors.size() - count, path)
                .str();
  return text;
}

/// Runs `command` with its standard output in `outputPath` and its errors in
/// `errorPath`; fails with the errors' last lines on a non-zero exit.
llvm::Error runTool(llvm::ArrayRef<std::string> command,
                    llvm::StringRef outputPath, llvm::StringRef errorPath) {
  llvm::SmallVector<llvm::StringRef> args(command.begin(), command.end());
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(), outputPath,
                                                errorPath};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(command[0], args, std::nullopt,
                                         redirects, 0, 0, &message);
  if (status == 0)
    return llvm::Error::success();
  std::string line;
  for (llvm::StringRef arg : llvm::ArrayRef(args).drop_front())
    line += " " + arg.str();
  if (line.size() > 300)
    line = line.substr(0, 300) + " ...";
  return makeError(llvm::sys::path::filename(command[0]) + line + " failed" +
                   (message.empty() ? "" : ": " + message) +
                   diagnosticsIn(errorPath));
}

/// iree-run-module's `--input` for a tensor of `type`, all zeros: a splat,
/// or for i1 (whose splat iree-run-module 3.13 does not parse) a .npy file
/// of zeros written to `directory` as `name`.
llvm::Expected<std::string> zeroInput(RankedTensorType type,
                                      llvm::StringRef directory,
                                      llvm::StringRef name) {
  Type element = type.getElementType();
  if (!element.isIntOrFloat())
    return makeError(llvm::formatv("argument type {0} has an element type "
                                   "IREE's runtime tools cannot feed",
                                   type));
  if (!element.isInteger(1)) {
    std::string spec;
    llvm::raw_string_ostream os(spec);
    for (int64_t dim : type.getShape())
      os << dim << "x";
    os << element << "=0";
    return spec;
  }
  // NumPy's format 1.0: magic, version, header length, a header dict padded
  // with spaces to a multiple of 64 bytes (newline last), then the data.
  // As NumPy writes it: (4, 3), (4,) or ().
  std::string shape;
  for (int64_t dim : type.getShape())
    shape += (shape.empty() ? "" : ", ") + std::to_string(dim);
  if (type.getRank() == 1)
    shape += ",";
  std::string header =
      "{'descr': '|b1', 'fortran_order': False, 'shape': (" + shape + "), }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string path = pathIn(directory, name);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return makeError("cannot write '" + path + "': " + ec.message());
  os << "\x93NUMPY" << char(1) << char(0) << char(header.size() & 0xff)
     << char(header.size() >> 8) << header;
  os.write_zeros(type.getNumElements());
  return "@" + path;
}

/// One candidate build: the module, its ckpt plan and IREE's peak.
struct Attempt {
  /// The ckpt budget it was planned at; empty for the no-remat build.
  std::string ckptBudget;
  std::string vmfb;
  /// DEVICE_LOCAL peak of one run, as iree-run-module reports it; none where
  /// the target's device is not on this machine.
  std::optional<int64_t> peakBytes;
  /// ckpt-remat's report of the plan (empty without remat).
  llvm::json::Object report;
  /// How ckpt's planner counted the results: allocated before the call
  /// (IREE's way) or where they are computed.
  bool resultsPreallocated = true;
};

/// The first function's entry of a ckpt-remat report, or null.
const llvm::json::Object *firstFunction(const llvm::json::Object &report) {
  const llvm::json::Array *functions = report.getArray("functions");
  if (!functions || functions->empty())
    return nullptr;
  return (*functions)[0].getAsObject();
}

/// Builds and measures candidates for one request.
class IreeBuilder {
public:
  /// `requirePeak`: a build whose peak cannot be measured is an error (else
  /// it is kept unmeasured where the device is not on this machine).
  IreeBuilder(const IreeToolchain &toolchain, const IreeBuildRequest &request,
              bool requirePeak)
      : toolchain(toolchain), request(request), requirePeak(requirePeak) {}

  /// Plans the entry at ckpt budget `ckptBudget` (none: no remat), compiles
  /// it as `name`.vmfb and measures its peak. A budget ckpt-remat finds
  /// infeasible yields std::nullopt; other failures are errors.
  llvm::Expected<std::optional<Attempt>>
  attempt(llvm::StringRef name, llvm::StringRef ckptBudget,
          bool resultsPreallocated = true);

  /// The most candidates planned at a fraction, per planner model.
  unsigned maxAttempts() const { return request.maxAttempts; }

  /// Every attempt made, in order.
  std::vector<Attempt> attempts;

  /// Why the first unmeasured build could not be measured (empty: none).
  std::string unmeasuredReason;

private:
  llvm::Expected<bool> lowerForIree(ModuleOp module, llvm::StringRef ckptBudget,
                                    llvm::StringRef reportPath);
  llvm::Expected<int64_t> measurePeak(llvm::StringRef vmfb,
                                      llvm::StringRef name);

  const IreeToolchain &toolchain;
  const IreeBuildRequest &request;
  bool requirePeak;
};

/// Runs ckpt-remat (when `ckptBudget` is set), ckpt-strip-annotations and
/// ckpt-recompute-to-barrier on `module`. False when ckpt-remat found the
/// budget infeasible.
llvm::Expected<bool> IreeBuilder::lowerForIree(ModuleOp module,
                                               llvm::StringRef ckptBudget,
                                               llvm::StringRef reportPath) {
  MLIRContext *context = module.getContext();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diagnostic) {
    if (diagnostic.getSeverity() == DiagnosticSeverity::Error)
      diagnostics += "\n  " + diagnostic.str();
    return success();
  });
  PassManager pm(context);
  if (!ckptBudget.empty()) {
    RematOptions remat = request.remat;
    remat.budget = ckptBudget.str();
    remat.report = reportPath.str();
    remat.functions = {request.entry};
    pm.addPass(createRematPass(remat));
  }
  pm.addPass(createStripAnnotationsPass());
  // A barrier on a tensor would end IREE's execution region (each region's
  // transients are one slab): only the regions' keys go through one.
  RecomputeToBarrierPassOptions barrier;
  barrier.barrierOn = "key";
  pm.addPass(createRecomputeToBarrierPass(barrier));
  if (succeeded(pm.run(module)))
    return true;
  if (!ckptBudget.empty()) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFile(reportPath);
    if (file) {
      llvm::Expected<llvm::json::Value> report =
          llvm::json::parse((*file)->getBuffer());
      if (!report) {
        llvm::consumeError(report.takeError());
      } else if (const llvm::json::Object *function =
                     firstFunction(*report->getAsObject())) {
        const llvm::json::Object *error = function->getObject("error");
        if (error && error->getString("kind") == "infeasible-budget")
          return false;
      }
    }
  }
  return makeError("preparing '@" + request.entry + "' for IREE failed" +
                   diagnostics);
}

llvm::Expected<int64_t> IreeBuilder::measurePeak(llvm::StringRef vmfb,
                                                 llvm::StringRef name) {
  std::vector<std::string> command = {
      toolchain.runModule,      "--device=" + request.target.device,
      "--module=" + vmfb.str(), "--function=" + request.entry,
      "--print_statistics",     "--output_max_element_count=0"};
  for (auto [index, type] : llvm::enumerate(request.arguments)) {
    llvm::Expected<std::string> input = zeroInput(
        type, request.workDirectory, "zeros" + std::to_string(index) + ".npy");
    if (!input)
      return input.takeError();
    command.push_back("--input=" + *input);
  }
  std::string output = pathIn(request.workDirectory, name.str() + ".run.txt");
  std::string errors = pathIn(request.workDirectory, name.str() + ".run.err");
  if (llvm::Error error = runTool(command, output, errors))
    return std::move(error);
  // The statistics go to standard output or error, depending on the version.
  for (llvm::StringRef path : {output, errors}) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFile(path);
    if (!file)
      continue;
    llvm::SmallVector<llvm::StringRef> match;
    if (llvm::Regex("DEVICE_LOCAL:[ \t]*([0-9]+)B peak")
            .match((*file)->getBuffer(), &match)) {
      int64_t peak = 0;
      if (!match[1].getAsInteger(10, peak))
        return peak;
    }
  }
  return makeError("iree-run-module printed no DEVICE_LOCAL peak for '" + vmfb +
                   "'");
}

llvm::Expected<std::optional<Attempt>>
IreeBuilder::attempt(llvm::StringRef name, llvm::StringRef ckptBudget,
                     bool resultsPreallocated) {
  Attempt result;
  result.ckptBudget = ckptBudget.str();
  result.resultsPreallocated = resultsPreallocated;
  std::string reportPath =
      pathIn(request.workDirectory, name.str() + ".report.json");
  OwningOpRef<ModuleOp> module = request.prepared.clone();
  if (Operation *entry = module->lookupSymbol(request.entry)) {
    StringRef attr = CkptDialect::getResultsPreallocatedAttrName();
    if (resultsPreallocated)
      entry->setAttr(attr, UnitAttr::get(module->getContext()));
    else
      entry->removeAttr(attr);
  }
  llvm::Expected<bool> lowered = lowerForIree(*module, ckptBudget, reportPath);
  if (!lowered)
    return lowered.takeError();
  if (!*lowered)
    return std::nullopt;
  if (!ckptBudget.empty()) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFile(reportPath);
    if (!file)
      return makeError("ckpt-remat wrote no report to '" + reportPath + "'");
    llvm::Expected<llvm::json::Value> report =
        llvm::json::parse((*file)->getBuffer());
    if (!report)
      return report.takeError();
    if (llvm::json::Object *object = report->getAsObject())
      result.report = std::move(*object);
  }

  std::string source = pathIn(request.workDirectory, name.str() + ".mlir");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(source, ec);
    if (ec)
      return makeError("cannot write '" + source + "': " + ec.message());
    module->print(os);
  }
  result.vmfb = pathIn(request.workDirectory, name.str() + ".vmfb");
  std::vector<std::string> command = {toolchain.compile};
  command.insert(command.end(), request.target.compileFlags.begin(),
                 request.target.compileFlags.end());
  // Located errors, not the failing operation's IR.
  command.push_back("--mlir-print-op-on-diagnostic=false");
  command.insert(command.end(), {source, "-o", result.vmfb});
  if (llvm::Error error =
          runTool(command, pathIn(request.workDirectory, name.str() + ".out"),
                  pathIn(request.workDirectory, name.str() + ".err")))
    return std::move(error);
  llvm::Expected<int64_t> peak = measurePeak(result.vmfb, name);
  if (peak) {
    result.peakBytes = *peak;
  } else if (requirePeak && request.target.device != "local-sync") {
    return makeError("budget '" + request.remat.budget +
                     "' is IREE's measured peak, and measuring it on "
                     "'--device=" +
                     request.target.device +
                     "' failed (build where that device is, or plan on "
                     "ckpt's model with --remat-budget=min or auto): " +
                     llvm::toString(peak.takeError()));
  } else if (requirePeak || request.target.device == "local-sync") {
    return peak.takeError();
  } else if (unmeasuredReason.empty()) {
    unmeasuredReason = llvm::toString(peak.takeError());
  } else {
    llvm::consumeError(peak.takeError());
  }
  attempts.push_back(result);
  return result;
}

/// ckpt-remat's forecast peak of an attempt's plan (0 without one).
int64_t forecastOf(const Attempt &attempt) {
  const llvm::json::Object *function = firstFunction(attempt.report);
  if (!function)
    return 0;
  return function->getInteger("peak_bytes").value_or(0);
}

/// The `iree` object of the report.
llvm::json::Object describe(const IreeBuildRequest &request,
                            const IreeBuilder &builder,
                            std::optional<int64_t> baselinePeak,
                            std::optional<int64_t> budgetBytes,
                            const Attempt *chosen) {
  llvm::json::Array flags;
  for (const std::string &flag : request.target.compileFlags)
    flags.push_back(flag);
  llvm::json::Array attempts;
  for (const Attempt &attempt : builder.attempts) {
    llvm::json::Object entry;
    if (attempt.peakBytes)
      entry["peak_bytes"] = *attempt.peakBytes;
    if (!attempt.ckptBudget.empty()) {
      entry["ckpt_budget"] = attempt.ckptBudget;
      entry["forecast_peak_bytes"] = forecastOf(attempt);
      entry["results"] =
          attempt.resultsPreallocated ? "preallocated" : "on-demand";
    }
    attempts.push_back(std::move(entry));
  }
  // The entry's arguments, as ckpt.inputs generates them.
  llvm::json::Array arguments;
  for (RankedTensorType type : request.arguments) {
    std::string element;
    llvm::raw_string_ostream os(element);
    os << type.getElementType();
    arguments.push_back(llvm::json::Object{
        {"shape", llvm::json::Array(type.getShape())}, {"dtype", element}});
  }
  llvm::json::Object iree{
      {"backend", request.target.backend},
      {"entry", request.entry},
      {"arguments", std::move(arguments)},
      {"compile_flags", std::move(flags)},
      {"measured_by", "iree-run-module --device=" + request.target.device +
                          " --print_statistics (DEVICE_LOCAL)"},
      {"measured", builder.unmeasuredReason.empty()},
      {"attempts", std::move(attempts)}};
  if (!builder.unmeasuredReason.empty())
    iree["unmeasured_reason"] = builder.unmeasuredReason;
  if (baselinePeak)
    iree["baseline_peak_bytes"] = *baselinePeak;
  if (budgetBytes)
    iree["budget_bytes"] = *budgetBytes;
  if (chosen) {
    if (chosen->peakBytes)
      iree["peak_bytes"] = *chosen->peakBytes;
    if (chosen->peakBytes && baselinePeak)
      iree["peak_ratio"] = double(*chosen->peakBytes) / double(*baselinePeak);
    if (!chosen->ckptBudget.empty()) {
      iree["ckpt_budget"] = chosen->ckptBudget;
      iree["forecast_peak_bytes"] = forecastOf(*chosen);
    }
  }
  return iree;
}

/// The next ckpt budget (a fraction of ckpt's own peak) to try, from the
/// last two (ckpt fraction, IREE peak) points: the secant through them aimed
/// a little below `target`, and always below the last fraction.
double nextFraction(double f0, int64_t p0, double f1, int64_t p1,
                    int64_t target) {
  double aim = 0.98 * double(target);
  double next = f1 * aim / double(p1);
  if (f0 != f1 && p0 > p1) {
    double slope = double(p0 - p1) / (f0 - f1);
    next = f1 - (double(p1) - aim) / slope;
  }
  return std::min(next, 0.97 * f1);
}

/// Plans with ckpt's model of the results `preallocated` (or not) at
/// decreasing ckpt budgets, from the fraction IREE's budget is of IREE's
/// baseline, then at `min`, until IREE's measured peak is within `target`.
/// When only `min` fits, two bisection steps between it and the last ckpt
/// budget that missed look for a plan that fits with less recomputation.
/// Returns the index of the attempt that fits (in `builder.attempts`), or
/// std::nullopt.
llvm::Expected<std::optional<size_t>> searchBudget(IreeBuilder &builder,
                                                   int64_t baselinePeak,
                                                   int64_t target,
                                                   bool preallocated) {
  std::string prefix = preallocated ? "remat-preallocated" : "remat-on-demand";
  double fraction = double(target) / double(baselinePeak);
  double lastFraction = 1.0;
  int64_t lastPeak = baselinePeak;
  unsigned limit = builder.maxAttempts();
  for (unsigned index = 0; index < limit && fraction > 1e-4; ++index) {
    std::string ckptBudget = llvm::formatv("{0:F4}", fraction).str();
    llvm::Expected<std::optional<Attempt>> planned = builder.attempt(
        prefix + std::to_string(index), ckptBudget, preallocated);
    if (!planned)
      return planned.takeError();
    if (!*planned)
      break;
    int64_t peak = *(*planned)->peakBytes;
    if (peak <= target)
      return builder.attempts.size() - 1;
    double next = nextFraction(lastFraction, lastPeak, fraction, peak, target);
    lastFraction = fraction;
    lastPeak = peak;
    fraction = next;
  }
  llvm::Expected<std::optional<Attempt>> smallest =
      builder.attempt(prefix + "-min", "min", preallocated);
  if (!smallest)
    return smallest.takeError();
  if (!*smallest || *(*smallest)->peakBytes > target)
    return std::nullopt;
  // `min` recomputes the most: between the last ckpt budget that missed and
  // the fraction `min` reached, a cheaper plan may fit.
  size_t best = builder.attempts.size() - 1;
  const llvm::json::Object *function = firstFunction((*smallest)->report);
  std::optional<int64_t> reached =
      function ? function->getInteger("peak_bytes") : std::nullopt;
  std::optional<int64_t> ckptBaseline =
      function ? function->getInteger("baseline_peak_bytes") : std::nullopt;
  if (!reached || !ckptBaseline || *ckptBaseline <= 0)
    return best;
  double low = double(*reached) / double(*ckptBaseline);
  double high = lastFraction;
  for (unsigned step = 0; step < 2 && high - low > 0.01; ++step) {
    double middle = (low + high) / 2;
    llvm::Expected<std::optional<Attempt>> planned =
        builder.attempt(prefix + "-refine" + std::to_string(step),
                        llvm::formatv("{0:F4}", middle).str(), preallocated);
    if (!planned)
      return planned.takeError();
    if (*planned && *(*planned)->peakBytes <= target) {
      best = builder.attempts.size() - 1;
      low = middle;
    } else {
      high = middle;
    }
  }
  return best;
}

} // namespace

mlir::ckpt::tools::IreeTarget mlir::ckpt::tools::getIreeCpuTarget() {
  return {"iree-cpu",
          {"--iree-hal-target-device=local",
           "--iree-hal-local-target-device-backends=llvm-cpu",
           "--iree-llvmcpu-target-cpu=host"},
          "local-sync"};
}

mlir::ckpt::tools::IreeTarget
mlir::ckpt::tools::getIreeCudaTarget(llvm::StringRef arch) {
  return {"iree-cuda",
          {"--iree-hal-target-device=cuda", "--iree-cuda-target=" + arch.str()},
          "cuda"};
}

llvm::Expected<IreeToolchain>
mlir::ckpt::tools::findIreeToolchain(llvm::StringRef compilePath,
                                     llvm::StringRef runPath) {
  auto find = [](llvm::StringRef given,
                 llvm::StringRef name) -> llvm::Expected<std::string> {
    if (!given.empty()) {
      if (llvm::sys::fs::can_execute(given))
        return given.str();
      return makeError("'" + given + "' (--" + name + ") is not executable");
    }
    llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(name);
    if (found)
      return *found;
    return makeError("cannot find " + name +
                     " on the PATH: install IREE's tools (python3 -m pip "
                     "install iree-base-compiler==3.13.0 "
                     "iree-base-runtime==3.13.0) or pass --" +
                     name + "=PATH");
  };
  IreeToolchain toolchain;
  llvm::Expected<std::string> compile = find(compilePath, "iree-compile");
  if (!compile)
    return compile.takeError();
  llvm::Expected<std::string> run = find(runPath, "iree-run-module");
  if (!run)
    return run.takeError();
  toolchain.compile = *compile;
  toolchain.runModule = *run;
  return toolchain;
}

llvm::Expected<llvm::json::Object>
mlir::ckpt::tools::buildWithIree(const IreeToolchain &toolchain,
                                 const IreeBuildRequest &request,
                                 llvm::json::Object *failureReport) {
  // The barrier op belongs to IREE's dialect, which ckpt does not load.
  request.prepared.getContext()->allowUnregisteredDialects();
  std::optional<::ckpt::planner::BudgetRequest> budget;
  if (!request.remat.budget.empty()) {
    llvm::Expected<::ckpt::planner::BudgetRequest> parsed =
        ::ckpt::planner::parseBudgetRequest(request.remat.budget);
    if (!parsed)
      return parsed.takeError();
    budget = *parsed;
  }
  bool memoryBudget =
      budget && budget->kind == ::ckpt::planner::BudgetRequest::Kind::Memory;
  IreeBuilder builder(toolchain, request, /*requirePeak=*/memoryBudget);
  auto choose = [&](const Attempt &chosen, std::optional<int64_t> budgetBytes,
                    std::optional<int64_t> baselinePeak)
      -> llvm::Expected<llvm::json::Object> {
    if (std::error_code ec =
            llvm::sys::fs::copy_file(chosen.vmfb, request.output))
      return makeError("cannot write '" + request.output +
                       "': " + ec.message());
    llvm::json::Object report = chosen.report;
    report["iree"] =
        describe(request, builder, baselinePeak, budgetBytes, &chosen);
    return report;
  };

  llvm::Expected<std::optional<Attempt>> baseline =
      builder.attempt("baseline", "");
  if (!baseline)
    return baseline.takeError();
  Attempt base = **baseline;
  if (!budget)
    return choose(base, std::nullopt, base.peakBytes);

  // `min` and `auto` are ckpt's own notions: one plan, IREE's peak reported.
  if (!memoryBudget) {
    llvm::Expected<std::optional<Attempt>> planned =
        builder.attempt("remat", request.remat.budget);
    if (!planned)
      return planned.takeError();
    if (!*planned)
      return makeError("ckpt-remat found no plan at budget '" +
                       request.remat.budget + "'");
    return choose(**planned, std::nullopt, base.peakBytes);
  }

  int64_t basePeak = *base.peakBytes;
  int64_t target = budget->memory.resolveBytes(basePeak);
  if (basePeak <= target)
    return choose(base, target, basePeak);

  // IREE allocates the step's results before it runs, and the planner
  // first counts them so; where that model misses, the plans of ckpt's own
  // model (results allocated where computed) are tried too.
  for (bool preallocated : {true, false}) {
    llvm::Expected<std::optional<size_t>> found =
        searchBudget(builder, basePeak, target, preallocated);
    if (!found)
      return found.takeError();
    if (*found)
      return choose(builder.attempts[**found], target, basePeak);
  }
  int64_t reachable = basePeak;
  for (const Attempt &attempt : builder.attempts)
    reachable = std::min(reachable, *attempt.peakBytes);
  std::string message = llvm::formatv(
      "budget {0} ({1} B of IREE's DEVICE_LOCAL peak, {2} B without remat) "
      "is infeasible under IREE: the smallest peak reached is {3} B ({4:F3} "
      "of IREE's baseline)",
      request.remat.budget, target, basePeak, reachable,
      double(reachable) / double(basePeak));
  if (failureReport) {
    llvm::json::Object error{{"kind", "infeasible-budget"},
                             {"reason", message},
                             {"smallest_peak_bytes", reachable},
                             {"budget_bytes", target}};
    llvm::json::Array functions;
    functions.push_back(llvm::json::Object{{"name", request.entry},
                                           {"error", std::move(error)}});
    *failureReport = llvm::json::Object{
        {"functions", std::move(functions)},
        {"iree", describe(request, builder, basePeak, target, nullptr)}};
  }
  return makeError(message);
}
