//===- ActivationTimeline.cpp - bytes alive at each program point ---------===//
//
// Buffers come from One-Shot Analysis: a tensor result that bufferizes in
// place joins the buffer of the operand it aliases (DPS destinations, views,
// reshapes, loop-carried values); any other tensor result is a new
// allocation at its op. Deallocation frees each buffer right after the last
// use of any value in it (the ckpt pipelines run optimize-allocation-liveness),
// so a buffer is alive from its allocation point to its last use point.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Analysis/ActivationTimeline.h"

#include "ckpt/Analysis/TensorBytes.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "ckpt/Support/FunctionDiagnostics.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::ckpt;
using namespace mlir::bufferization;

StringRef mlir::ckpt::stringifyStepPhase(StepPhase phase) {
  switch (phase) {
  case StepPhase::Forward:
    return "forward";
  case StepPhase::Backward:
    return "backward";
  case StepPhase::Unknown:
    break;
  }
  return "unknown";
}

//===----------------------------------------------------------------------===//
// BufferizationForecast
//===----------------------------------------------------------------------===//

OneShotBufferizePassOptions BufferizationForecast::getPipelineOptions() {
  OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  options.functionBoundaryTypeConversion = LayoutMapOption::IdentityLayoutMap;
  return options;
}

FailureOr<std::unique_ptr<BufferizationForecast>>
BufferizationForecast::analyze(ModuleOp module) {
  std::unique_ptr<BufferizationForecast> forecast(new BufferizationForecast());
  forecast->options.bufferizeFunctionBoundaries = true;
  forecast->interfaceState =
      std::make_unique<OneShotAnalysisState>(module, forecast->options);

  // The pipeline's own pass, in analysis-only mode, on a clone: it annotates
  // every op with its in-place decision per operand.
  IRMapping mapping;
  OwningOpRef<ModuleOp> clone = cast<ModuleOp>(module->clone(mapping));
  OneShotBufferizePassOptions passOptions = getPipelineOptions();
  passOptions.testAnalysisOnly = true;
  PassManager pm(module.getContext(), ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  pm.addPass(createOneShotBufferizePass(passOptions));
  if (failed(pm.run(*clone)))
    return failure();

  constexpr StringLiteral kInPlaceAttr = "__inplace_operands_attr__";
  module.walk([&](Operation *op) {
    Operation *analyzed = mapping.lookupOrNull(op);
    if (!analyzed)
      return;
    auto decisions = analyzed->getAttrOfType<ArrayAttr>(kInPlaceAttr);
    if (!decisions)
      return;
    for (auto [operand, decision] : llvm::zip(op->getOpOperands(), decisions))
      if (auto text = dyn_cast<StringAttr>(decision);
          text && text.getValue() == "true")
        forecast->inPlaceOperands.insert(&operand);
  });
  return forecast;
}

//===----------------------------------------------------------------------===//
// TimelineBuilder
//===----------------------------------------------------------------------===//

namespace mlir::ckpt {

/// Builds an ActivationTimeline; one instance per function.
class TimelineBuilder {
public:
  TimelineBuilder(ActivationTimeline &timeline,
                  const BufferizationForecast &forecast)
      : timeline(timeline), forecast(forecast),
        state(forecast.getInterfaceState()) {}

  LogicalResult run(func::FuncOp func);

private:
  LogicalResult checkShapes(func::FuncOp func);
  LogicalResult groupValuesIntoBuffers(func::FuncOp func);
  void createBuffers(func::FuncOp func);
  int64_t getPeakOfBlock(Block *block);
  void computeLiveBytes();
  void classifyPhases(func::FuncOp func);
  void markSavedActivations();

  /// Joins the buffers of two tensor values.
  void join(Value a, Value b) { classes.unionSets(a, b); }
  /// Bytes of a statically shaped tensor value (checked by checkShapes).
  static int64_t bytesOf(Value v) { return *getStaticBytes(v.getType()); }

  ActivationTimeline &timeline;
  const BufferizationForecast &forecast;
  const AnalysisState &state;
  llvm::EquivalenceClasses<Value> classes;
  /// Values whose definition allocates, in walk order; arguments first.
  llvm::SetVector<Value> roots;
  /// Buffers allocated and freed inside a region op, by the block holding
  /// their root.
  DenseMap<Block *, SmallVector<TimelineBuffer>> nestedBuffers;
};

} // namespace mlir::ckpt

LogicalResult TimelineBuilder::checkShapes(func::FuncOp func) {
  auto check = [&](Value value) -> LogicalResult {
    if (!isa<TensorType>(value.getType()))
      return success();
    if (getStaticBytes(value.getType()))
      return success();
    return emitError(value.getLoc())
           << "cannot size " << value.getType()
           << " for the memory analysis: it needs statically shaped tensors "
              "(a dynamic dimension or an unranked tensor has no size before "
              "run time)";
  };
  for (BlockArgument arg : func.getArguments())
    if (failed(check(arg)))
      return failure();
  WalkResult result = func.walk([&](Operation *op) {
    for (Value v : op->getResults())
      if (failed(check(v)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(check(arg)))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult TimelineBuilder::groupValuesIntoBuffers(func::FuncOp func) {
  for (BlockArgument arg : func.getArguments())
    if (isa<TensorType>(arg.getType())) {
      classes.insert(arg);
      roots.insert(arg);
    }

  WalkResult result =
      func.walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
        if (op == func.getOperation())
          return WalkResult::advance();
        // Region arguments alias what enters the region.
        if (auto forOp = dyn_cast<scf::ForOp>(op)) {
          for (BlockArgument iterArg : forOp.getRegionIterArgs()) {
            if (!isa<TensorType>(iterArg.getType()))
              continue;
            OpOperand *init = forOp.getTiedLoopInit(iterArg);
            classes.insert(iterArg);
            if (forecast.isInPlace(*init))
              join(iterArg, init->get());
            else
              roots.insert(iterArg); // A copy of the init, made at the loop.
          }
        } else if (auto recompute = dyn_cast<RecomputeOp>(op)) {
          for (auto [arg, input] : llvm::zip(recompute.getRegionInputs(),
                                             recompute.getInputsMutable())) {
            if (!isa<TensorType>(arg.getType()))
              continue;
            classes.insert(arg);
            // A donated input the analysis copies: the region writes into
            // the copy, made at the region.
            if (isDonatedInput(recompute, arg.getArgNumber()) &&
                !forecast.isInPlace(input))
              roots.insert(arg);
            else
              join(arg, input.get());
          }
          // Results: the buffers the region yields (below).
          for (OpResult result : op->getResults())
            if (isa<TensorType>(result.getType())) {
              classes.insert(result);
              roots.insert(result);
            }
          return WalkResult::advance();
        } else {
          for (Region &region : op->getRegions())
            for (Block &block : region)
              for (BlockArgument arg : block.getArguments())
                if (isa<TensorType>(arg.getType()))
                  return op->emitOpError(
                      "has tensor region arguments, which the "
                      "memory analysis does not model (it "
                      "handles scf.for and ckpt.recompute)");
        }

        for (OpResult result : op->getResults()) {
          if (!isa<TensorType>(result.getType()))
            continue;
          classes.insert(result);
          if (matchPattern(result, m_Constant())) {
            // Tensor constants become read-only globals.
            continue;
          }
          bool aliasesOperand = false;
          for (const AliasingOpOperand &alias :
               state.getAliasingOpOperands(result)) {
            if (!forecast.isInPlace(*alias.opOperand))
              continue;
            join(result, alias.opOperand->get());
            aliasesOperand = true;
          }
          if (!aliasesOperand)
            roots.insert(result);
        }
        return WalkResult::advance();
      });
  if (result.wasInterrupted())
    return failure();

  // A recompute region hands the buffer it yields to its parent, unless it
  // yields (a view of) one of its inputs that is not donated: bufferization
  // then copies it into a fresh result buffer. (A donated input's buffer, or
  // the copy the analysis made of it, is handed on.) Inner regions first, so
  // that their results are already attached when an outer region yields
  // them.
  SmallVector<RecomputeOp> recomputes;
  func.walk([&](RecomputeOp op) { recomputes.push_back(op); });
  for (RecomputeOp recompute : recomputes) {
    for (auto [resultValue, yieldedValue] :
         llvm::zip(recompute.getResults(), recompute.getYield().getValues())) {
      Value result = resultValue, yielded = yieldedValue;
      if (!isa<TensorType>(result.getType()))
        continue;
      bool yieldsInput =
          llvm::any_of(recompute.getRegionInputs(), [&](BlockArgument arg) {
            return !isDonatedInput(recompute, arg.getArgNumber()) &&
                   classes.isEquivalent(arg, yielded);
          });
      if (yieldsInput)
        continue;
      roots.remove(result);
      join(result, yielded);
    }
  }
  return success();
}

unsigned ActivationTimeline::getProgramPoint(Operation *op) const {
  func::FuncOp func = function;
  Operation *body = func.getOperation();
  while (op->getParentOp() != body)
    op = op->getParentOp();
  return pointOfOp.lookup(op);
}

void TimelineBuilder::createBuffers(func::FuncOp func) {
  Block &body = func.getBody().front();
  unsigned endPoint = timeline.programPoints.size() - 1;

  for (Value root : roots) {
    SmallVector<Value> members;
    members.push_back(root);
    for (Value member : classes.members(root))
      if (member != root)
        members.push_back(member);

    auto isConstant = [](Value v) { return matchPattern(v, m_Constant()); };
    // An empty tensor that nothing writes into in place is erased by
    // bufferization: its users allocate their own buffers.
    if (members.size() == 1 &&
        isa_and_nonnull<tensor::EmptyOp>(root.getDefiningOp()))
      continue;
    if (llvm::any_of(members, isConstant))
      continue;

    TimelineBuffer buffer;
    buffer.root = root;
    buffer.values = members;
    buffer.tensorBytes = bytesOf(root);
    buffer.allocationBytes = getAllocationBytes(buffer.tensorBytes);
    auto arg = dyn_cast<BlockArgument>(root);
    buffer.isArgument = arg && arg.getOwner() == &body;

    Operation *owner =
        arg ? arg.getOwner()->getParentOp() : root.getDefiningOp();
    bool nested = !buffer.isArgument && owner->getBlock() != &body;
    // A nested buffer that no top-level value shares is allocated and freed
    // inside its region op.
    bool escapes = llvm::any_of(members, [&](Value v) {
      if (auto a = dyn_cast<BlockArgument>(v))
        return a.getOwner() == &body;
      return v.getDefiningOp()->getBlock() == &body;
    });

    if (nested && !escapes) {
      Block *block = arg ? arg.getOwner() : owner->getBlock();
      auto positionIn = [&](Operation *op) {
        while (op->getBlock() != block)
          op = op->getParentOp();
        return op;
      };
      Operation *first = arg ? &block->front() : owner;
      Operation *last = first;
      for (Value v : members)
        for (OpOperand &use : v.getUses()) {
          Operation *user = positionIn(use.getOwner());
          if (last->isBeforeInBlock(user))
            last = user;
        }
      // Intervals inside nested blocks are kept as op positions encoded in
      // allocationPoint/lastUsePoint relative to the block.
      unsigned index = 0;
      DenseMap<Operation *, unsigned> positions;
      for (Operation &op : *block)
        positions[&op] = index++;
      buffer.allocationPoint = positions[first];
      buffer.lastUsePoint = positions[last];
      nestedBuffers[block].push_back(std::move(buffer));
      continue;
    }

    buffer.allocationPoint =
        buffer.isArgument ? 0 : timeline.getProgramPoint(owner);
    buffer.lastUsePoint = buffer.allocationPoint;
    for (Value v : members)
      for (OpOperand &use : v.getUses()) {
        unsigned point = timeline.getProgramPoint(use.getOwner());
        buffer.lastUsePoint = std::max(buffer.lastUsePoint, point);
        if (isa<func::ReturnOp>(use.getOwner()))
          buffer.isReturned = true;
      }
    if (buffer.isArgument)
      buffer.lastUsePoint = endPoint;
    // The caller allocates the results before the call (IREE does).
    if (buffer.isReturned && !buffer.isArgument &&
        timeline.function->hasAttr(
            CkptDialect::getResultsPreallocatedAttrName()))
      buffer.allocationPoint = 0;

    unsigned index = timeline.buffers.size();
    for (Value v : members)
      timeline.bufferOfValue[v] = index;
    timeline.buffers.push_back(std::move(buffer));
  }
}

int64_t TimelineBuilder::getPeakOfBlock(Block *block) {
  SmallVector<int64_t> live(block->getOperations().size(), 0);
  auto it = nestedBuffers.find(block);
  if (it != nestedBuffers.end())
    for (const TimelineBuffer &buffer : it->second)
      for (unsigned p = buffer.allocationPoint; p <= buffer.lastUsePoint; ++p)
        live[p] += buffer.allocationBytes;
  int64_t peak = 0;
  for (auto [index, op] : llvm::enumerate(block->getOperations())) {
    int64_t inner = 0;
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        inner = std::max(inner, getPeakOfBlock(&nested));
    peak = std::max(peak, live[index] + inner);
  }
  return peak;
}

void TimelineBuilder::computeLiveBytes() {
  unsigned numPoints = timeline.programPoints.size();
  timeline.liveBytes.assign(numPoints, 0);
  timeline.transientBytes.assign(numPoints, 0);
  for (auto [point, op] : llvm::enumerate(timeline.programPoints))
    for (Region &region : op->getRegions())
      for (Block &block : region)
        timeline.transientBytes[point] =
            std::max(timeline.transientBytes[point], getPeakOfBlock(&block));

  for (const TimelineBuffer &buffer : timeline.buffers) {
    if (buffer.isArgument) {
      timeline.argumentBytes += buffer.allocationBytes;
      continue;
    }
    for (unsigned p = buffer.allocationPoint; p <= buffer.lastUsePoint; ++p)
      timeline.liveBytes[p] += buffer.allocationBytes;
  }
  timeline.peakBytes = timeline.argumentBytes;
  timeline.peakPoint = 0;
  for (unsigned p = 0; p < numPoints; ++p) {
    timeline.liveBytes[p] +=
        timeline.argumentBytes + timeline.transientBytes[p];
    if (timeline.liveBytes[p] > timeline.peakBytes) {
      timeline.peakBytes = timeline.liveBytes[p];
      timeline.peakPoint = p;
    }
  }
}

void TimelineBuilder::classifyPhases(func::FuncOp func) {
  unsigned numPoints = timeline.programPoints.size();
  timeline.phases.assign(numPoints, StepPhase::Unknown);

  std::optional<DenseSet<Operation *>> backwardOps = findBackwardOps(func);
  timeline.phaseMarkers = backwardOps.has_value();
  for (auto [point, op] : llvm::enumerate(timeline.programPoints)) {
    bool backward =
        backwardOps ? backwardOps->contains(op) : point > timeline.peakPoint;
    timeline.phases[point] =
        backward ? StepPhase::Backward : StepPhase::Forward;
  }
}

void TimelineBuilder::markSavedActivations() {
  unsigned peak = timeline.peakPoint;
  for (TimelineBuffer &buffer : timeline.buffers) {
    if (buffer.isArgument)
      continue;
    // The phase of a buffer is that of the first op writing into it, not of
    // the empty tensor that reserves it (which has no operands to tell).
    unsigned firstWrite = timeline.programPoints.size();
    for (Value v : buffer.values)
      if (Operation *def = v.getDefiningOp(); def && !isa<tensor::EmptyOp>(def))
        firstWrite = std::min(firstWrite, timeline.getProgramPoint(def));
    if (firstWrite == timeline.programPoints.size())
      firstWrite = buffer.allocationPoint;
    buffer.phase = timeline.phases[firstWrite];

    if (!timeline.phaseMarkers) {
      // Without markers: the values kept across the peak.
      buffer.isSavedActivation =
          buffer.allocationPoint < peak && buffer.lastUsePoint > peak;
    } else if (buffer.phase == StepPhase::Forward) {
      buffer.isSavedActivation = llvm::any_of(buffer.values, [&](Value v) {
        return llvm::any_of(v.getUses(), [&](OpOperand &use) {
          return timeline.phases[timeline.getProgramPoint(use.getOwner())] ==
                 StepPhase::Backward;
        });
      });
    }
    if (buffer.isSavedActivation)
      timeline.savedActivationBytes += buffer.allocationBytes;
  }
}

LogicalResult TimelineBuilder::run(func::FuncOp func) {
  timeline.function = func;
  if (func.isExternal())
    return emitFunctionError(func) << "has no body to analyze";
  if (!func.getBody().hasOneBlock())
    return emitFunctionError(func)
           << "has several blocks; the memory analysis handles structured "
              "control flow (one block per function)";
  if (failed(checkShapes(func)))
    return failure();

  for (Operation &op : func.getBody().front()) {
    timeline.pointOfOp[&op] = timeline.programPoints.size();
    timeline.programPoints.push_back(&op);
  }
  func.walk([&](arith::ConstantOp constant) {
    if (isa<TensorType>(constant.getType()))
      timeline.constantBytes += bytesOf(constant.getResult());
  });

  if (failed(groupValuesIntoBuffers(func)))
    return failure();
  createBuffers(func);
  computeLiveBytes();
  classifyPhases(func);
  markSavedActivations();
  return success();
}

//===----------------------------------------------------------------------===//
// ActivationTimeline
//===----------------------------------------------------------------------===//

FailureOr<ActivationTimeline>
ActivationTimeline::build(func::FuncOp func,
                          const BufferizationForecast &forecast) {
  ActivationTimeline timeline;
  TimelineBuilder builder(timeline, forecast);
  if (failed(builder.run(func)))
    return failure();
  return timeline;
}

const TimelineBuffer *ActivationTimeline::getBufferOf(Value tensor) const {
  auto it = bufferOfValue.find(tensor);
  return it == bufferOfValue.end() ? nullptr : &buffers[it->second];
}

SmallVector<const TimelineBuffer *>
ActivationTimeline::getBuffersLiveAt(unsigned point) const {
  SmallVector<const TimelineBuffer *> live;
  for (const TimelineBuffer &buffer : buffers)
    if (buffer.isArgument ||
        (buffer.allocationPoint <= point && point <= buffer.lastUsePoint))
      live.push_back(&buffer);
  // Largest first; ties in buffer order (arguments, then allocation order).
  std::sort(live.begin(), live.end(),
            [](const TimelineBuffer *a, const TimelineBuffer *b) {
              if (a->allocationBytes != b->allocationBytes)
                return a->allocationBytes > b->allocationBytes;
              return a < b;
            });
  return live;
}
