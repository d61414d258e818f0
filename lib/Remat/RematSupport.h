//===- RematSupport.h - what the remat passes share --------------*- C++
//-*-===//
//
// Descriptions of values and locations for the reports, the forecast of one
// function, and the owner of the trial copies of a function that the remat
// solvers rewrite and measure before keeping one.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_REMAT_REMATSUPPORT_H
#define CKPT_LIB_REMAT_REMATSUPPORT_H

#include "ckpt/Analysis/ActivationTimeline.h"
#include "ckpt/Support/FunctionDiagnostics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

#include <string>

namespace mlir::ckpt {

/// `file:line:col` for file locations (callee and call site for inlined
/// code, the first of fused ones, the name of named ones), the printed
/// location otherwise. The one formatter of ckpt-report and ckpt-remat.
std::string formatLocation(Location loc);

/// The name a report gives the value of `op`: its `ckpt.name`, else the
/// op's name.
std::string describeValue(Operation *op);

/// Erases the ops of `func`'s body (nested regions included) whose results
/// nobody uses and that have no side effects, transitively (upstream's
/// region DCE).
void eraseUnusedOps(func::FuncOp func);

/// The input of an elementwise op that the op writes its result into: the
/// init of a `linalg.generic` that is also one of its inputs, with the same
/// indexing map (what ckpt-overwrite-dying-inputs makes). Null otherwise.
OpOperand *getOverwrittenInput(Operation *op);

/// Analyzes `func` as bufferization will see it in `module`.
FailureOr<ActivationTimeline> analyzeFunction(ModuleOp module,
                                              func::FuncOp func);

/// The trial copies of functions that the remat solvers rewrite, analyze
/// and then keep or drop. A trial is a private copy inserted after its
/// original, named `<name>__<suffix>`; it is erased unless kept, at the
/// latest when the owner goes away, so that no trial outlives the pass.
/// Diagnostics raised while a trial is analyzed are the trial's (a
/// candidate the analysis rejects is just not taken): they are dropped.
class TrialFunctions {
public:
  TrialFunctions() = default;
  TrialFunctions(const TrialFunctions &) = delete;
  TrialFunctions &operator=(const TrialFunctions &) = delete;
  ~TrialFunctions();

  /// A new trial copy of `func`; `mapping` maps `func`'s values to it.
  func::FuncOp create(func::FuncOp func, StringRef suffix, IRMapping &mapping);
  /// A new trial whose body is a copy of `body`'s, with `func`'s signature.
  func::FuncOp createFrom(func::FuncOp func, func::FuncOp body,
                          StringRef suffix);
  /// Erases `trial` (also one that `keep` made the kept function).
  void discard(func::FuncOp trial);
  /// Replaces `original` by `trial`, which takes its name and visibility and
  /// is no longer a trial; returns it.
  func::FuncOp keep(func::FuncOp original, func::FuncOp trial);
  /// The forecast of `trial` as the pipeline will bufferize it: the ops the
  /// rewrite left unused (an original view whose readers now read a
  /// recomputation) are erased first, as the pipeline's cleanup erases
  /// them, since a use by a dead op would keep its operand alive in the
  /// forecast. Diagnostics of a failed analysis are dropped.
  FailureOr<ActivationTimeline> analyze(ModuleOp module, func::FuncOp trial);

private:
  /// Names `clone` (a copy of `func`) as a trial, makes it private, puts it
  /// after `func` and owns it.
  func::FuncOp insertTrial(func::FuncOp func, func::FuncOp clone,
                           StringRef suffix);

  llvm::SmallPtrSet<Operation *, 4> live;
};

} // namespace mlir::ckpt

#endif // CKPT_LIB_REMAT_REMATSUPPORT_H
