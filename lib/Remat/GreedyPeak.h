//===- GreedyPeak.h - the greedy-peak remat solver on the IR -----*- C++
//-*-===//
//
// `solver=greedy-peak` of ckpt-remat, also the finish of every planned
// remat: at the point where the forecast peak occurs, recompute one buffer
// kept alive across it, keep the rewrite if the re-analyzed peak went down,
// repeat.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_REMAT_GREEDYPEAK_H
#define CKPT_LIB_REMAT_GREEDYPEAK_H

#include "RematOutcome.h"
#include "RematSupport.h"

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

namespace mlir::ckpt {

/// The `ckpt.policy` of the op computing `value` in the body of `func`, if
/// any. Ops nested in ckpt.recompute regions are recomputations already and
/// have none.
std::optional<Policy> getPolicyInBody(Value value, func::FuncOp func);

/// The buffers kept alive across the peak whose policy is must_recompute:
/// the solver recomputes them whatever the budget.
SmallVector<unsigned> findForcedCandidates(const ActivationTimeline &timeline);

/// Lowers the forecast peak of `func` (replaced by the rewritten function)
/// step by step until it meets `outcome.budgetBytes` and no must_recompute
/// buffer is kept across the peak. Each step tries the buffers kept alive
/// across the peak in score order and keeps the first that lowers the peak,
/// else the first that narrows the plateau of points at the peak. To
/// `minimize`, it goes on until no step helps and sets the budget to the
/// peak reached. Fails with `outcome.stuck` set (and no diagnostic) when no
/// step helps above the budget; with a diagnostic when a must_recompute
/// value cannot be recomputed.
LogicalResult lowerPeakGreedily(ModuleOp module, func::FuncOp &func,
                                const DeviceTarget &target, bool minimize,
                                TrialFunctions &trials,
                                FunctionOutcome &outcome);

} // namespace mlir::ckpt

#endif // CKPT_LIB_REMAT_GREEDYPEAK_H
