//===- ScheduleApplication.cpp - planner schedules as recompute regions ---===//
//
// Turns a planner schedule on a RematGraph into ckpt.recompute regions.
//
// The schedule is replayed three times: forward, to give every computation
// of a node an instance and record which instance of each predecessor it
// reads; backward, to find which values each recomputation must produce
// (those its readers use, and what they are computed from); and forward
// again, to build the regions from the original ops and then rewire them.
// Regions are then placed right before their first reader, and given the
// inputs they overwrite where nothing later reads them.
//
//===----------------------------------------------------------------------===//

#include "RematGraph.h"

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "ckpt-remat"

using namespace mlir;
using namespace mlir::ckpt;
namespace planner = ::ckpt::planner;

namespace {

/// One computation of a node in the schedule.
struct Instance {
  /// The node (index into RematGraph::nodeOps).
  unsigned node = 0;
  /// True for the first computation: the node's ops in place.
  bool isOriginal = false;
  /// For each node it reads, the instance it reads.
  DenseMap<unsigned, unsigned> reads;
  /// Values of the node's ops its readers use (recomputations only).
  llvm::SetVector<Value> needed;
  /// The recomputation region and its result for each needed value.
  RecomputeOp region;
  DenseMap<Value, Value> results;
};

class ScheduleApplier {
public:
  ScheduleApplier(const RematGraph &graph, const DeviceTarget &target)
      : graph(graph), body(func::FuncOp(graph.function).getOperation()),
        func(graph.function), target(target) {}

  FailureOr<SmallVector<AppliedRecompute>>
  apply(ArrayRef<planner::ScheduleStep> schedule);

private:
  /// The node of the top-level op holding `value`'s definition, if any.
  std::optional<unsigned> getNodeOf(Value value) const;
  /// Calls `fn(operand)` for every operand of `op` (and of ops nested in
  /// it) defined outside `op` by a node other than `node`.
  void forEachExternalRead(Operation *op, unsigned node,
                           function_ref<void(OpOperand &, unsigned)> fn);
  /// The ops of `instance`'s node needed to compute its needed values, in
  /// program order.
  SmallVector<Operation *> getNeededOps(const Instance &instance) const;
  /// The value standing for `value` in `instance`.
  Value lookup(const Instance &instance, Value value) const {
    return instance.isOriginal ? value : instance.results.lookup(value);
  }
  void buildRegion(Instance &instance, AppliedRecompute &applied);
  /// Replaces each result of `region` that reshapes another of its results
  /// (an expand_shape or collapse_shape yielded beside its source) by the
  /// same reshape made after the region: a region hands on one buffer per
  /// value, so that the one it writes into a donated input is its only
  /// result aliasing that input. Returns the region that replaces `region`.
  RecomputeOp hoistYieldedReshapes(RecomputeOp region);
  /// Donates to `region` the inputs its ops write into in place (the ties
  /// of ops that overwrite a dying input, cloned from their first
  /// computation) that nothing after the region reads: the recomputation
  /// then writes into the input's buffer, as the planner counted it.
  void donateDyingInputs(RecomputeOp region);

  const RematGraph &graph;
  Operation *body;
  func::FuncOp func;
  const DeviceTarget &target;
  SmallVector<Instance> instances;
};

std::optional<unsigned> ScheduleApplier::getNodeOf(Value value) const {
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  auto it = graph.nodeOfOp.find(getTopLevelOp(func, def));
  if (it == graph.nodeOfOp.end())
    return std::nullopt;
  return it->second;
}

void ScheduleApplier::forEachExternalRead(
    Operation *op, unsigned node,
    function_ref<void(OpOperand &, unsigned)> fn) {
  op->walk([&](Operation *inner) {
    for (OpOperand &operand : inner->getOpOperands()) {
      Operation *def = operand.get().getDefiningOp();
      if (def && op->isAncestor(def))
        continue;
      std::optional<unsigned> from = getNodeOf(operand.get());
      if (from && *from != node)
        fn(operand, *from);
    }
  });
}

SmallVector<Operation *>
ScheduleApplier::getNeededOps(const Instance &instance) const {
  DenseSet<Operation *> needed;
  SmallVector<Operation *> worklist;
  for (Value value : instance.needed)
    worklist.push_back(value.getDefiningOp());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!needed.insert(op).second)
      continue;
    op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || op->isAncestor(def) || def->getParentOp() != body)
          continue;
        auto it = graph.nodeOfOp.find(def);
        if (it != graph.nodeOfOp.end() && it->second == instance.node)
          worklist.push_back(def);
      }
    });
  }
  SmallVector<Operation *> ordered;
  for (Operation *op : graph.nodeOps[instance.node])
    if (needed.contains(op))
      ordered.push_back(op);
  return ordered;
}

void ScheduleApplier::buildRegion(Instance &instance,
                                  AppliedRecompute &applied) {
  SmallVector<Operation *> ops = getNeededOps(instance);
  // Region inputs: what the ops read from other nodes (the instances the
  // schedule says) and from outside any node (arguments, scalars);
  // constants and empty tensors outside nodes are cloned instead.
  llvm::SetVector<Value> inputs;
  SmallVector<std::pair<Value, Value>> reads;
  llvm::SetVector<Operation *> constants;
  DenseSet<Operation *> inNode(ops.begin(), ops.end());
  for (Operation *op : ops)
    op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def && (inNode.contains(def) || op->isAncestor(def)))
          continue;
        if (auto arg = dyn_cast<BlockArgument>(operand);
            arg && op->isAncestor(arg.getOwner()->getParentOp()))
          continue;
        if (def && def->getParentOp() == func.getOperation() &&
            !graph.nodeOfOp.count(def) &&
            (matchPattern(operand, m_Constant()) ||
             isa<tensor::EmptyOp>(def))) {
          constants.insert(def);
          continue;
        }
        Value source = operand;
        if (std::optional<unsigned> from = getNodeOf(operand);
            from && *from != instance.node)
          source = lookup(instances[instance.reads.lookup(*from)], operand);
        inputs.insert(source);
        reads.emplace_back(operand, source);
      }
    });

  OpBuilder builder(func.getBody().front().getTerminator());
  Location loc = instance.needed.front().getLoc();
  SmallVector<Type> resultTypes;
  for (Value value : instance.needed)
    resultTypes.push_back(value.getType());
  auto region =
      RecomputeOp::create(builder, loc, resultTypes, inputs.getArrayRef());
  Block *block = builder.createBlock(
      &region.getBody(), {}, ValueRange(inputs.getArrayRef()).getTypes(),
      SmallVector<Location>(inputs.size(), loc));
  IRMapping mapping;
  for (Operation *constant : constants)
    mapping.map(constant->getResults(), builder.clone(*constant)->getResults());
  DenseMap<Value, BlockArgument> argumentOf;
  for (auto [input, argument] : llvm::zip(inputs, block->getArguments()))
    argumentOf[input] = argument;
  for (auto [operand, source] : reads)
    mapping.map(operand, argumentOf.lookup(source));
  for (Operation *op : ops) {
    builder.clone(*op, mapping);
    OpCost cost = estimateOpCost(op, target);
    applied.flops += cost.flops;
    applied.seconds += cost.estimatedSeconds;
  }
  SmallVector<Value> yielded;
  for (Value value : instance.needed)
    yielded.push_back(mapping.lookup(value));
  YieldOp::create(builder, loc, yielded);
  instance.region = region;
  for (auto [value, result] : llvm::zip(instance.needed, region.getResults()))
    instance.results[value] = result;
  applied.region = region;
}

FailureOr<SmallVector<AppliedRecompute>>
ScheduleApplier::apply(ArrayRef<planner::ScheduleStep> schedule) {
  const planner::RematProblem &problem = *graph.problem;
  unsigned numNodes = graph.nodeOps.size();

  // 1. Forward replay: instances and what each reads.
  SmallVector<std::optional<unsigned>> current(numNodes);
  for (const planner::ScheduleStep &step : schedule) {
    if (step.kind != planner::StepKind::Compute)
      continue;
    Instance instance;
    instance.node = problem.node(step.node).externalId;
    instance.isOriginal = !current[instance.node];
    for (planner::NodeIndex pred : problem.predecessors(step.node)) {
      unsigned predNode = problem.node(pred).externalId;
      if (!current[predNode])
        return failure();
      instance.reads[predNode] = *current[predNode];
    }
    current[instance.node] = instances.size();
    instances.push_back(std::move(instance));
  }
  if (llvm::any_of(current, [](auto i) { return !i; }))
    return failure();

  // 2. Backward: what each recomputation must produce. Originals produce
  // everything; the terminator reads the last computation of each node.
  Operation *terminator = func.getBody().front().getTerminator();
  for (OpOperand &operand : terminator->getOpOperands())
    if (std::optional<unsigned> node = getNodeOf(operand.get()))
      instances[*current[*node]].needed.insert(operand.get());
  for (Instance &instance : llvm::reverse(instances)) {
    SmallVector<Operation *> ops =
        instance.isOriginal
            ? SmallVector<Operation *>(graph.nodeOps[instance.node])
            : getNeededOps(instance);
    for (Operation *op : ops)
      forEachExternalRead(
          op, instance.node, [&](OpOperand &operand, unsigned from) {
            auto it = instance.reads.find(from);
            // A read the problem has no edge for cannot happen: edges come
            // from these reads.
            assert(it != instance.reads.end() && "read without an edge");
            instances[it->second].needed.insert(operand.get());
          });
  }

  // 3. Forward: build the recomputations, then rewire the originals. A
  // region clones a node's original ops as they read the original values
  // (and maps each read to the instance the schedule says): rewired first,
  // an original op would read an earlier recomputation's region, which a
  // later recomputation of its node would then read too, as if it were an
  // argument, keeping that earlier copy alive in between.
  SmallVector<AppliedRecompute> applied;
  for (Instance &instance : instances) {
    if (instance.isOriginal || instance.needed.empty())
      continue;
    AppliedRecompute recompute;
    recompute.node = instance.node;
    buildRegion(instance, recompute);
    applied.push_back(recompute);
  }
  for (Instance &instance : instances) {
    if (!instance.isOriginal)
      continue;
    for (Operation *op : graph.nodeOps[instance.node])
      forEachExternalRead(
          op, instance.node, [&](OpOperand &operand, unsigned from) {
            operand.set(
                lookup(instances[instance.reads.lookup(from)], operand.get()));
          });
  }
  for (OpOperand &operand : terminator->getOpOperands())
    if (std::optional<unsigned> node = getNodeOf(operand.get()))
      operand.set(lookup(instances[*current[*node]], operand.get()));

  // A recomputation nobody reads (its readers were served by another
  // instance) computes nothing the program uses: it is dropped, latest
  // first, so that what only it read is dropped too.
  for (size_t i = applied.size(); i-- > 0;) {
    if (!applied[i].region->use_empty())
      continue;
    applied[i].region->erase();
    applied.erase(applied.begin() + i);
  }

  // 4. Place the regions. The schedule computes a node (all its ops) after
  // the recomputations before it, so a region goes before the first op of
  // the node of its first reader, not just before the reader: an
  // allocation made by an earlier op of that node (a zero-filled
  // accumulator) would otherwise be alive during the recomputation. Where an
  // input is defined later than that, right before the reader. Anchors are
  // found from the last region back (readers come later), the moves made in
  // schedule order, so regions before the same op keep that order.
  DenseMap<Operation *, Operation *> anchorOf;
  DenseSet<Operation *> regions;
  for (AppliedRecompute &recompute : applied)
    regions.insert(recompute.region);
  auto isBefore = [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  };
  // (Inputs from other regions are fine: those are placed before their
  // readers.)
  auto definedBefore = [&](Operation *region, Operation *anchor) {
    return llvm::all_of(region->getOperands(), [&](Value input) {
      Operation *def = input.getDefiningOp();
      return !def || regions.contains(def) ||
             def->getBlock() != anchor->getBlock() || isBefore(def, anchor);
    });
  };
  for (AppliedRecompute &recompute : llvm::reverse(applied)) {
    Operation *anchor = nullptr;
    for (Operation *reader : recompute.region->getUsers()) {
      Operation *user = getTopLevelOp(func, reader);
      Operation *candidate = user;
      if (auto it = anchorOf.find(user); it != anchorOf.end()) {
        candidate = it->second;
      } else if (auto node = graph.nodeOfOp.find(user);
                 node != graph.nodeOfOp.end()) {
        Operation *first = graph.nodeOps[node->second].front();
        if (definedBefore(recompute.region, first))
          candidate = first;
      }
      if (!anchor || isBefore(candidate, anchor))
        anchor = candidate;
    }
    assert(anchor && "every region left has a reader");
    anchorOf[recompute.region] = anchor;
  }
  for (AppliedRecompute &recompute : applied)
    recompute.region->moveBefore(anchorOf.lookup(recompute.region));

  // The first computations must be in an order the IR has: every region's
  // inputs must be defined before it.
  DominanceInfo dominance(func);
  for (AppliedRecompute &recompute : applied)
    for (Value input : recompute.region->getOperands())
      if (!dominance.properlyDominates(input, recompute.region)) {
        LDBG() << "schedule needs a value before its definition";
        return failure();
      }
  for (AppliedRecompute &recompute : applied) {
    recompute.region = hoistYieldedReshapes(cast<RecomputeOp>(recompute.region));
    donateDyingInputs(cast<RecomputeOp>(recompute.region));
  }
  return applied;
}

RecomputeOp ScheduleApplier::hoistYieldedReshapes(RecomputeOp region) {
  Block &block = region.getBodyBlock();
  ValueRange yielded = region.getYield().getValues();
  // Reshapes of another yielded value, in the order the region makes them.
  SmallVector<std::pair<Operation *, unsigned>> reshapes;
  for (auto [index, value] : llvm::enumerate(yielded)) {
    Operation *def = value.getDefiningOp();
    if (!isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def) ||
        def->getBlock() != &block ||
        !llvm::is_contained(yielded, def->getOperand(0)))
      continue;
    reshapes.emplace_back(def, index);
  }
  if (reshapes.empty())
    return region;
  llvm::sort(reshapes, [](auto a, auto b) {
    return a.first->isBeforeInBlock(b.first);
  });

  // Outside, after the region: each reshape of the result (or of the
  // reshape already made outside) that stands for its source.
  DenseMap<Value, Value> outside;
  for (auto [value, result] : llvm::zip(yielded, region.getResults()))
    outside.try_emplace(value, result);
  OpBuilder builder(region->getBlock(), std::next(region->getIterator()));
  llvm::BitVector hoisted(yielded.size());
  for (auto [reshape, index] : reshapes) {
    IRMapping mapping;
    mapping.map(reshape->getOperand(0),
                outside.lookup(reshape->getOperand(0)));
    Value made = builder.clone(*reshape, mapping)->getResult(0);
    region.getResult(index).replaceAllUsesWith(made);
    outside[yielded[index]] = made;
    hoisted.set(index);
  }

  // The region without those results.
  SmallVector<Value> kept;
  SmallVector<Type> keptTypes;
  SmallVector<Value> keptResults;
  for (auto [index, value] : llvm::enumerate(yielded))
    if (!hoisted.test(index)) {
      kept.push_back(value);
      keptTypes.push_back(value.getType());
      keptResults.push_back(region.getResult(index));
    }
  builder.setInsertionPoint(region);
  auto smaller = RecomputeOp::create(builder, region.getLoc(), keptTypes,
                                     region.getInputs(),
                                     region.getDonatedAttr());
  smaller->setDiscardableAttrs(region->getDiscardableAttrDictionary());
  smaller.getBody().takeBody(region.getBody());
  YieldOp yield = smaller.getYield();
  yield.getValuesMutable().assign(kept);
  for (auto [old, now] : llvm::zip(keptResults, smaller.getResults()))
    old.replaceAllUsesWith(now);
  region->erase();
  // The reshapes left inside yield nothing now.
  for (auto [reshape, index] : llvm::reverse(reshapes))
    if (reshape->use_empty())
      reshape->erase();
  return smaller;
}

void ScheduleApplier::donateDyingInputs(RecomputeOp region) {
  SmallVector<int64_t> donated;
  for (auto [index, input] : llvm::enumerate(region.getInputs())) {
    BlockArgument arg = region.getRegionInputs()[index];
    if (!isa<RankedTensorType>(input.getType()) || isa<BlockArgument>(input))
      continue;
    bool overwritten = llvm::any_of(arg.getUses(), [&](OpOperand &use) {
      auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
      return dps && dps->getBlock() == &region.getBodyBlock() &&
             dps.isDpsInit(&use);
    });
    bool readLater = llvm::any_of(input.getUsers(), [&](Operation *user) {
      Operation *top = getTopLevelOp(func, user);
      return top != region && !top->isBeforeInBlock(region);
    });
    if (overwritten && !readLater)
      donated.push_back(index);
  }
  if (!donated.empty())
    region.setDonated(donated);
}

} // namespace

FailureOr<SmallVector<AppliedRecompute>>
mlir::ckpt::applySchedule(const RematGraph &graph,
                          ArrayRef<planner::ScheduleStep> schedule,
                          const DeviceTarget &target) {
  return ScheduleApplier(graph, target).apply(schedule);
}
