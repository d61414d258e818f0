//===- Ckpt.cpp - C API of ckpt -------------------------------------------===//
//
// Implements include/ckpt-c/Ckpt.h over the C++ API. MLIR objects cross the
// boundary through MLIR's own wrap/unwrap (header-only), so the caller's
// MLIR C API library and this one share libMLIR.so's objects.
//
//===----------------------------------------------------------------------===//

#include "ckpt-c/Ckpt.h"

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/InitCkpt.h"
#include "ckpt/Pipelines/Pipelines.h"
#include "ckpt/Planner/Budget.h"
#include "ckpt/Planner/GraphJSON.h"
#include "ckpt/Planner/Solvers.h"
#include "ckpt/Remat/RematOptions.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <mutex>

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Ckpt, ckpt, mlir::ckpt::CkptDialect)

namespace {

void deliver(MlirStringCallback callback, llvm::StringRef text,
             void *userData) {
  if (callback)
    callback(wrap(text), userData);
}

/// Runs the remat pipeline on `module` with `optionsText`; on success
/// `report` holds the JSON report. Errors are emitted as diagnostics on the
/// module.
LogicalResult runRemat(ModuleOp module, llvm::StringRef optionsText,
                       std::string &report) {
  ckptRegisterPasses();
  mlir::ckpt::RematPipelineOptions options;
  std::string optionErrors;
  {
    llvm::raw_string_ostream errorStream(optionErrors);
    if (failed(options.parseFromString(optionsText, errorStream)))
      return emitError(module.getLoc())
             << "ckpt: cannot parse the remat options '" << optionsText << "'"
             << (optionErrors.empty() ? "" : ": ") << optionErrors;
  }
  if (options.remat.budget.empty())
    return emitError(module.getLoc())
           << "ckpt: the remat options need a budget (e.g. 'budget=0.5')";

  // The pass writes its report to a file: the caller's, or a temporary one.
  llvm::SmallString<128> temporary;
  std::string reportPath = options.remat.report;
  if (reportPath.empty()) {
    if (llvm::sys::fs::createTemporaryFile("ckpt-capi-report", "json",
                                           temporary))
      return emitError(module.getLoc())
             << "ckpt: cannot create a temporary file for the report";
    reportPath = temporary.str().str();
    options.remat.report = reportPath;
  }
  llvm::scope_exit cleanup([&] {
    if (!temporary.empty())
      llvm::sys::fs::remove(temporary);
  });

  PassManager pm(module.getContext());
  mlir::ckpt::buildRematPipeline(pm, options);
  if (failed(pm.run(module)))
    return failure();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(reportPath);
  if (!buffer)
    return emitError(module.getLoc())
           << "ckpt: cannot read the remat report '" << reportPath << "'";
  report = (*buffer)->getBuffer().str();
  return success();
}

} // namespace

void ckptRegisterDialects(MlirDialectRegistry registry) {
  DialectRegistry &cppRegistry = *unwrap(registry);
  registerAllDialects(cppRegistry);
  registerAllExtensions(cppRegistry);
  registerAllToLLVMIRTranslations(cppRegistry);
  mlir::ckpt::registerCkptDialects(cppRegistry);
}

void ckptRegisterPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] { mlir::ckpt::registerCkptPassesAndPipelines(); });
}

void ckptRegisterRematPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] { mlir::ckpt::registerCkptDialectAndRematPasses(); });
}

intptr_t ckptGetNumRematOptions(void) {
  return static_cast<intptr_t>(mlir::ckpt::getRematOptionInfos().size());
}

CkptRematOption ckptGetRematOption(intptr_t index) {
  const mlir::ckpt::RematOptionInfo &info =
      mlir::ckpt::getRematOptionInfos()[index];
  return {wrap(llvm::StringRef(info.key)), wrap(llvm::StringRef(info.kind)),
          wrap(llvm::StringRef(info.defaultValue)),
          wrap(llvm::StringRef(info.description)), info.inTools};
}

MlirLogicalResult ckptRematModule(MlirModule module, MlirStringRef options,
                                  MlirStringCallback report, void *userData) {
  std::string text;
  if (failed(runRemat(unwrap(module), unwrap(options), text)))
    return mlirLogicalResultFailure();
  deliver(report, text, userData);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult ckptRematText(MlirStringRef moduleText, MlirStringRef options,
                                MlirStringCallback output,
                                MlirStringCallback report,
                                MlirStringCallback diagnostics,
                                void *userData) {
  DialectRegistry registry;
  ckptRegisterDialects(wrap(&registry));
  MLIRContext context(registry);
  context.allowUnregisteredDialects(false);
  // Diagnostics are the located message and its notes, not the IR.
  context.printOpOnDiagnostic(false);

  // Every diagnostic, as `file:line:col: error: message`, for the caller.
  std::string diagnosticText;
  llvm::raw_string_ostream diagnosticStream(diagnosticText);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(unwrap(moduleText), "<input>"),
      llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagnosticStream);

  auto fail = [&] {
    deliver(diagnostics, diagnosticText, userData);
    return mlirLogicalResultFailure();
  };
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail();
  std::string reportText;
  if (failed(runRemat(*module, unwrap(options), reportText)))
    return fail();
  std::string printed;
  llvm::raw_string_ostream printedStream(printed);
  module->print(printedStream);
  deliver(output, printed, userData);
  deliver(report, reportText, userData);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult ckptPlanGraph(MlirStringRef graphJSON, MlirStringRef budget,
                                MlirStringRef solver, double timeLimitSeconds,
                                MlirStringCallback result,
                                MlirStringCallback error, void *userData) {
  using namespace ::ckpt::planner;
  auto fail = [&](const llvm::Twine &message) {
    deliver(error, message.str(), userData);
    return mlirLogicalResultFailure();
  };
  llvm::Expected<PlanRequest> request =
      parsePlanRequest(unwrap(budget), unwrap(solver), timeLimitSeconds);
  if (!request)
    return fail(llvm::toString(request.takeError()));
  llvm::Expected<RematProblem> problem = parseGraphJSON(unwrap(graphJSON));
  if (!problem)
    return fail("in the graph: " + llvm::toString(problem.takeError()));
  uint64_t budgetBytes = 0;
  llvm::Expected<PlanResult> plan =
      planRequest(*problem, *request, budgetBytes);
  if (!plan)
    return fail(llvm::toString(plan.takeError()));
  deliver(
      result,
      llvm::formatv("{0:2}", planToJSON(*problem, *plan, budgetBytes)).str(),
      userData);
  return mlirLogicalResultSuccess();
}
