//===- ActivationTimeline.h - bytes alive at each program point -*- C++ -*-===//
//
// The memory model of ckpt: which buffers a function on tensors will allocate
// once bufferized, where each is allocated and freed, and so the bytes alive
// at every program point and the peak. It is the only memory model in the
// project: reports, the remat pass and planner problems built from IR use it.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_ANALYSIS_ACTIVATIONTIMELINE_H
#define CKPT_ANALYSIS_ACTIVATIONTIMELINE_H

#include "ckpt/Dialect/Ckpt/IR/Phases.h"

#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <optional>

namespace mlir::ckpt {

/// Half of a training step an op belongs to.
enum class StepPhase { Unknown, Forward, Backward };

/// Returns "forward", "backward" or "unknown".
StringRef stringifyStepPhase(StepPhase phase);

/// The decisions One-Shot Bufferize will take on a module, computed without
/// rewriting it: which tensor operands bufferize in place and so which tensor
/// values share a buffer. It runs the pipeline's own `one-shot-bufferize`
/// step (same options) in analysis-only mode on a clone of the module and
/// reads its in-place decisions back, so the forecast cannot drift from what
/// the pipeline does.
class BufferizationForecast {
public:
  /// Analyzes `module`. Fails (with the analysis' own diagnostics) where the
  /// pipeline's bufferization would fail.
  static FailureOr<std::unique_ptr<BufferizationForecast>>
  analyze(ModuleOp module);

  /// True when `operand` bufferizes in place: the op's aliasing results
  /// share the operand's buffer instead of a new allocation.
  bool isInPlace(OpOperand &operand) const {
    return inPlaceOperands.contains(&operand);
  }

  /// Interface queries that do not depend on decisions (which operands a
  /// result aliases, which results allocate).
  const bufferization::AnalysisState &getInterfaceState() const {
    return *interfaceState;
  }

  /// The one-shot-bufferize options of the ckpt pipelines.
  static bufferization::OneShotBufferizePassOptions getPipelineOptions();

private:
  BufferizationForecast() = default;

  bufferization::OneShotBufferizationOptions options;
  std::unique_ptr<bufferization::OneShotAnalysisState> interfaceState;
  DenseSet<OpOperand *> inPlaceOperands;
};

/// One buffer of the bufferized function: a function argument (allocated by
/// the caller) or an allocation made by the function, with every tensor value
/// that lives in it (in-place results, views, reshapes).
struct TimelineBuffer {
  /// The value whose definition allocates the buffer (or the argument).
  Value root;
  /// Tensor values stored in this buffer, `root` first.
  SmallVector<Value> values;
  /// Exact size of the root tensor.
  int64_t tensorBytes = 0;
  /// Bytes the allocation requests from the runtime (rounded up to the
  /// buffer alignment); this is what the live and peak figures add up.
  int64_t allocationBytes = 0;
  /// Program point at which the buffer is allocated (0 for arguments).
  unsigned allocationPoint = 0;
  /// Program point of the last use of any value in the buffer; the buffer
  /// is freed right after it (unless returned or an argument).
  unsigned lastUsePoint = 0;
  /// True for function arguments: live for the whole function.
  bool isArgument = false;
  /// True when a value of the buffer is returned: live to the end.
  bool isReturned = false;
  /// Phase of the first op that writes into the buffer.
  StepPhase phase = StepPhase::Unknown;
  /// True for a forward value kept for the backward pass (see
  /// ActivationTimeline::getSavedActivationBytes).
  bool isSavedActivation = false;
};

/// Bytes alive at each program point of a `func.func` on statically shaped
/// tensors, as the ckpt pipelines will allocate them.
///
/// Program points are the ops of the function's body, in order; an op with
/// regions (a loop, a recompute region) is one point, and the buffers it
/// allocates and frees inside count as transient bytes at that point. At a
/// point, the live bytes are the arguments, every buffer allocated at or
/// before it and last used at or after it (an op's operands and results are
/// alive together), and the transient bytes. Tensor constants become globals,
/// not allocations: they are counted separately.
class ActivationTimeline {
public:
  /// Builds the timeline of `func` from the bufferization forecast of its
  /// module. Emits a located error and fails on what it cannot size or model:
  /// dynamic shapes, unranked tensors, several blocks, and region ops with
  /// tensor block arguments other than scf.for and ckpt.recompute.
  static FailureOr<ActivationTimeline>
  build(func::FuncOp func, const BufferizationForecast &forecast);

  /// The analyzed function.
  func::FuncOp getFunction() const { return function; }
  /// The ops of the function body in program order.
  ArrayRef<Operation *> getProgramPoints() const { return programPoints; }
  /// Program point of `op` or of its ancestor in the function body.
  unsigned getProgramPoint(Operation *op) const;

  /// Every buffer: arguments first, then allocations in program order.
  ArrayRef<TimelineBuffer> getBuffers() const { return buffers; }
  /// The buffer holding `tensor`, or null (constants, non-tensors).
  const TimelineBuffer *getBufferOf(Value tensor) const;

  /// Bytes alive at each program point, arguments included.
  ArrayRef<int64_t> getLiveBytes() const { return liveBytes; }
  /// Bytes allocated and freed inside the op at `point` (loop bodies,
  /// recompute regions) on top of what is alive across it.
  int64_t getTransientBytes(unsigned point) const {
    return transientBytes[point];
  }
  /// The highest live bytes over all points (the arguments when the body
  /// allocates nothing).
  int64_t getPeakBytes() const { return peakBytes; }
  /// First program point where the peak is reached.
  unsigned getPeakPoint() const { return peakPoint; }
  /// Buffers alive at `point`, largest first.
  SmallVector<const TimelineBuffer *> getBuffersLiveAt(unsigned point) const;

  /// Bytes of the arguments (allocated by the caller, alive throughout).
  int64_t getArgumentBytes() const { return argumentBytes; }
  /// Bytes of tensor constants (globals, not allocations).
  int64_t getConstantBytes() const { return constantBytes; }

  /// True when the function carries phase markers (`ckpt.phase` on ops or
  /// `ckpt.tangent` on arguments).
  bool hasPhaseMarkers() const { return phaseMarkers; }
  /// Phase of the op at `point`. With markers: the op's `ckpt.phase`, else
  /// backward when it depends on a `ckpt.tangent` argument, else forward.
  /// Without markers: forward up to and including the peak point, backward
  /// after it.
  StepPhase getPhase(unsigned point) const { return phases[point]; }
  /// Bytes of the saved activations: buffers first written by forward ops
  /// and used by backward ops. Without markers, the buffers allocated before
  /// the peak point and used after it (kept across the peak).
  int64_t getSavedActivationBytes() const { return savedActivationBytes; }

private:
  ActivationTimeline() = default;

  func::FuncOp function;
  SmallVector<Operation *> programPoints;
  DenseMap<Operation *, unsigned> pointOfOp;
  SmallVector<TimelineBuffer> buffers;
  DenseMap<Value, unsigned> bufferOfValue;
  SmallVector<int64_t> liveBytes;
  SmallVector<int64_t> transientBytes;
  SmallVector<StepPhase> phases;
  int64_t peakBytes = 0;
  unsigned peakPoint = 0;
  int64_t argumentBytes = 0;
  int64_t constantBytes = 0;
  int64_t savedActivationBytes = 0;
  bool phaseMarkers = false;

  friend class TimelineBuilder;
};

} // namespace mlir::ckpt

#endif // CKPT_ANALYSIS_ACTIVATIONTIMELINE_H
