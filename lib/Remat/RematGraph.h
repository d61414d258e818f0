//===- RematGraph.h - planner problems built from IR -----------*- C++ -*-===//
//
// The bridge between a function on tensors and the planner library: the
// function's buffers become the nodes of a RematProblem, and a planner
// schedule becomes ckpt.recompute regions in the function.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_REMAT_REMATGRAPH_H
#define CKPT_LIB_REMAT_REMATGRAPH_H

#include "ckpt/Analysis/ActivationTimeline.h"
#include "ckpt/Analysis/CostModel.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Planner/RematProblem.h"
#include "ckpt/Planner/Schedule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::ckpt {

/// A function seen as a planner problem. A node is a group of top-level ops
/// that bufferization ties together: the ops writing into one buffer (an
/// allocation, the in-place chain on it and views of it) and the results of
/// one op. Its bytes are the allocations it makes, its cost the estimated
/// time of its ops on the target (in nanoseconds, at least 1), and it is
/// recomputable when all its ops are free of memory effects. Constants are
/// not nodes: they are cloned wherever they are needed. Function arguments
/// are the problem's constant bytes.
struct RematGraph {
  /// The function.
  func::FuncOp function;
  /// The planner problem; its node v stands for
  /// `nodeOps[problem->node(v).externalId]` (the problem may reorder).
  std::optional<::ckpt::planner::RematProblem> problem;
  /// The top-level ops of each node, in program order.
  SmallVector<SmallVector<Operation *>> nodeOps;
  /// The node of each top-level op that belongs to one.
  DenseMap<Operation *, unsigned> nodeOfOp;
  /// The peak the memory analysis forecasts for the function, and the peak
  /// of the problem's baseline schedule (equal when the analysis' program
  /// order is the problem's; they differ when an allocation is separated
  /// from the op that fills it, which the problem sees at that op).
  int64_t timelinePeakBytes = 0;
  int64_t problemPeakBytes = 0;
};

/// Builds the planner problem of `timeline`'s function. The policies of
/// nodes come from `ckpt.policy` on their ops (the strongest wins). Fails
/// with a located error when the planner rejects the graph.
FailureOr<RematGraph> buildRematGraph(const ActivationTimeline &timeline,
                                      const DeviceTarget &target);

/// `graph` for `clone`, a copy of `graph.function` made with `mapping`.
RematGraph remapRematGraph(const RematGraph &graph, func::FuncOp clone,
                           const IRMapping &mapping);

/// One recomputation made by applySchedule.
struct AppliedRecompute {
  /// The node recomputed.
  unsigned node = 0;
  /// The region that recomputes it.
  Operation *region = nullptr;
  /// Floating-point operations and estimated seconds of the cloned ops.
  int64_t flops = 0;
  double seconds = 0;
};

/// Rewrites `graph.function` to follow `schedule`: the first computation
/// of a node is its ops where they are; every later one becomes a
/// `ckpt.recompute` region cloning the node's ops that its readers need,
/// placed right before the first of those readers, which are rewired to it.
/// Every reader reads the computation the schedule made last before it.
/// Fails, leaving the function unusable (apply it to a clone), when the
/// schedule's first computations do not follow an order the IR can express.
FailureOr<SmallVector<AppliedRecompute>>
applySchedule(const RematGraph &graph,
              ArrayRef<::ckpt::planner::ScheduleStep> schedule,
              const DeviceTarget &target);

/// The op of `func`'s body that holds `op` (`op` itself when top-level).
Operation *getTopLevelOp(func::FuncOp func, Operation *op);

/// How strongly a `ckpt.policy` binds, to pick one where several apply:
/// must_save, then must_recompute, then prefer_save, then prefer_recompute.
int getPolicyStrength(Policy policy);

/// True when `op` can be executed a second time without changing the
/// program: no memory effects but assertions (linalg on tensors, tensor and
/// arith ops, ckpt.random_uniform, cf.assert bounds checks in payloads), no
/// regions other than a linalg payload or a tensor.pad's padding value.
bool isRecomputable(Operation *op);

/// Reports at `where` that a value of `func` with ckpt.policy must_recompute
/// cannot be recomputed, with a note at the function.
LogicalResult emitMustRecomputeImpossible(Location where, func::FuncOp func);

} // namespace mlir::ckpt

#endif // CKPT_LIB_REMAT_REMATGRAPH_H
