//===- RematSupport.cpp - what the remat passes share
//----------------------===//

#include "RematSupport.h"

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::ckpt;

std::string mlir::ckpt::formatLocation(Location loc) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("{0}:{1}:{2}", fileLoc.getFilename().getValue(),
                         fileLoc.getLine(), fileLoc.getColumn())
        .str();
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return formatLocation(callSite.getCallee()) + " (inlined at " +
           formatLocation(callSite.getCaller()) + ")";
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return nameLoc.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      return formatLocation(fused.getLocations().front());
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

std::string mlir::ckpt::describeValue(Operation *op) {
  if (auto attr = op->getAttrOfType<StringAttr>(CkptDialect::getNameAttrName()))
    return attr.str();
  return op->getName().getStringRef().str();
}

OpOperand *mlir::ckpt::getOverwrittenInput(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInits() != 1)
    return nullptr;
  OpOperand *init = generic.getDpsInitOperand(0);
  for (OpOperand *input : generic.getDpsInputOperands())
    if (input->get() == init->get() &&
        generic.getMatchingIndexingMap(input) ==
            generic.getMatchingIndexingMap(init))
      return input;
  return nullptr;
}

FailureOr<ActivationTimeline> mlir::ckpt::analyzeFunction(ModuleOp module,
                                                          func::FuncOp func) {
  FailureOr<std::unique_ptr<BufferizationForecast>> forecast =
      BufferizationForecast::analyze(module);
  if (failed(forecast))
    return failure();
  return ActivationTimeline::build(func, **forecast);
}

TrialFunctions::~TrialFunctions() {
  for (Operation *trial : live)
    trial->erase();
}

func::FuncOp TrialFunctions::insertTrial(func::FuncOp func, func::FuncOp clone,
                                         StringRef suffix) {
  clone.setSymName((func.getSymName() + "__" + suffix).str());
  clone.setPrivate();
  func->getBlock()->getOperations().insert(std::next(Block::iterator(func)),
                                           clone);
  live.insert(clone);
  return clone;
}

func::FuncOp TrialFunctions::create(func::FuncOp func, StringRef suffix,
                                    IRMapping &mapping) {
  return insertTrial(func, cast<func::FuncOp>(func->clone(mapping)), suffix);
}

func::FuncOp TrialFunctions::createFrom(func::FuncOp func, func::FuncOp body,
                                        StringRef suffix) {
  auto clone = cast<func::FuncOp>(func->cloneWithoutRegions());
  IRMapping mapping;
  body.getBody().cloneInto(&clone.getBody(), mapping);
  return insertTrial(func, clone, suffix);
}

void TrialFunctions::discard(func::FuncOp trial) {
  live.erase(trial);
  trial.erase();
}

func::FuncOp TrialFunctions::keep(func::FuncOp original, func::FuncOp trial) {
  live.erase(trial);
  live.erase(original);
  std::string name = original.getSymName().str();
  trial.setVisibility(original.getVisibility());
  original.erase();
  trial.setSymName(name);
  return trial;
}

void mlir::ckpt::eraseUnusedOps(func::FuncOp func) {
  IRRewriter rewriter(func.getContext());
  (void)runRegionDCE(rewriter, func.getBody());
}

FailureOr<ActivationTimeline> TrialFunctions::analyze(ModuleOp module,
                                                      func::FuncOp trial) {
  eraseUnusedOps(trial);
  ScopedDiagnosticHandler dropped(module.getContext(),
                                  [](Diagnostic &) { return success(); });
  return analyzeFunction(module, trial);
}
