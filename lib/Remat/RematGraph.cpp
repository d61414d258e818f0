//===- RematGraph.cpp - planner problems built from IR --------------------===//
//
// Builds a RematProblem from the activation timeline of a function: one node
// per group of top-level ops that share buffers.
//
//===----------------------------------------------------------------------===//

#include "RematGraph.h"
#include "RematSupport.h"

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ckpt;
namespace planner = ::ckpt::planner;

Operation *mlir::ckpt::getTopLevelOp(func::FuncOp func, Operation *op) {
  while (op->getParentOp() != func.getOperation())
    op = op->getParentOp();
  return op;
}

int mlir::ckpt::getPolicyStrength(Policy policy) {
  switch (policy) {
  case Policy::MustSave:
    return 4;
  case Policy::MustRecompute:
    return 3;
  case Policy::PreferSave:
    return 2;
  case Policy::PreferRecompute:
    return 1;
  }
  llvm_unreachable("unknown policy");
}

bool mlir::ckpt::isRecomputable(Operation *op) {
  // A loop over tensors (ckpt-convolution-to-gemm's chunks of images) is
  // recomputed whole when everything in it is.
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    for (Operation &inner : loop.getBody()->without_terminator())
      if (!isRecomputable(&inner))
        return false;
    return true;
  }
  // Ops with regions other than a linalg payload or a tensor.pad's padding
  // value are not recomputed: recompute regions and user checkpoints.
  if (op->getNumRegions() && !isa<linalg::LinalgOp, tensor::PadOp>(op))
    return false;
  // Assertions (bounds checks in gathers) pass again on the same values.
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getRecomputeEffects(op);
  return effects && effects->empty();
}

LogicalResult mlir::ckpt::emitMustRecomputeImpossible(Location where,
                                                      func::FuncOp func) {
  InFlightDiagnostic diag =
      emitError(where)
      << "ckpt-remat: a value with ckpt.policy must_recompute is kept "
         "across the peak of @"
      << func.getSymName() << " but cannot be recomputed";
  diag.attachNote(getFunctionDiagnosticLoc(func)) << "in this function";
  return diag;
}

namespace {

/// Constant-like top-level ops are not nodes: they hold no buffer and are
/// cloned where needed.
bool isConstantLike(Operation *op) {
  return op->getNumResults() == 1 && op->getNumRegions() == 0 &&
         matchPattern(op->getResult(0), m_Constant());
}

planner::RematPolicy toPlannerPolicy(Policy policy) {
  switch (policy) {
  case Policy::MustSave:
    return planner::RematPolicy::MustSave;
  case Policy::MustRecompute:
    return planner::RematPolicy::MustRecompute;
  case Policy::PreferSave:
    return planner::RematPolicy::PreferSave;
  case Policy::PreferRecompute:
    return planner::RematPolicy::PreferRecompute;
  }
  llvm_unreachable("unknown policy");
}

std::string describeNode(ArrayRef<Operation *> ops) {
  for (Operation *op : llvm::reverse(ops))
    if (auto name =
            op->getAttrOfType<StringAttr>(CkptDialect::getNameAttrName()))
      return name.str();
  Operation *last = ops.back();
  std::string text = last->getName().getStringRef().str();
  if (auto loc = dyn_cast<FileLineColLoc>(last->getLoc()))
    text += llvm::formatv("@{0}:{1}", loc.getLine(), loc.getColumn()).str();
  return text;
}

/// Merges the groups that read each other's values in a cycle: a value read
/// from a buffer before an op of the buffer's group overwrites it in place
/// with something computed from that read (`x - mean(x)` in place of `x`).
/// Each strongly connected component of the group graph becomes one group,
/// which makes the graph acyclic.
void mergeCycles(func::FuncOp func, ArrayRef<Operation *> points,
                 llvm::EquivalenceClasses<Operation *> &groups) {
  // Group graph on leaders.
  DenseMap<Operation *, unsigned> indexOf;
  SmallVector<Operation *> leaders;
  for (Operation *op : points) {
    if (!groups.contains(op))
      continue;
    Operation *leader = groups.getLeaderValue(op);
    if (indexOf.try_emplace(leader, leaders.size()).second)
      leaders.push_back(leader);
  }
  SmallVector<SmallVector<unsigned>> successors(leaders.size());
  for (Operation *op : points) {
    if (!groups.contains(op))
      continue;
    unsigned to = indexOf.lookup(groups.getLeaderValue(op));
    op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || op->isAncestor(def))
          continue;
        def = getTopLevelOp(func, def);
        if (!groups.contains(def))
          continue;
        unsigned from = indexOf.lookup(groups.getLeaderValue(def));
        if (from != to)
          successors[from].push_back(to);
      }
    });
  }

  // Tarjan's algorithm, iteratively (training graphs are deep).
  unsigned numNodes = leaders.size(), counter = 0;
  SmallVector<unsigned> order(numNodes, ~0u), low(numNodes, 0);
  SmallVector<bool> onStack(numNodes, false);
  SmallVector<unsigned> stack;
  SmallVector<std::pair<unsigned, unsigned>> frames;
  for (unsigned root = 0; root < numNodes; ++root) {
    if (order[root] != ~0u)
      continue;
    frames.push_back({root, 0});
    while (!frames.empty()) {
      auto &[node, next] = frames.back();
      if (next == 0 && order[node] == ~0u) {
        order[node] = low[node] = counter++;
        stack.push_back(node);
        onStack[node] = true;
      }
      if (next < successors[node].size()) {
        unsigned succ = successors[node][next++];
        if (order[succ] == ~0u)
          frames.push_back({succ, 0});
        else if (onStack[succ])
          low[node] = std::min(low[node], order[succ]);
        continue;
      }
      unsigned done = node;
      frames.pop_back();
      if (!frames.empty())
        low[frames.back().first] =
            std::min(low[frames.back().first], low[done]);
      if (low[done] != order[done])
        continue;
      unsigned member;
      do {
        member = stack.pop_back_val();
        onStack[member] = false;
        groups.unionSets(leaders[done], leaders[member]);
      } while (member != done);
    }
  }
}

} // namespace

FailureOr<RematGraph>
mlir::ckpt::buildRematGraph(const ActivationTimeline &timeline,
                            const DeviceTarget &target) {
  func::FuncOp func = timeline.getFunction();
  ArrayRef<Operation *> points = timeline.getProgramPoints();

  // Group the top-level ops: the ops defining the values of one allocated
  // buffer belong together. (Views of arguments stay apart: the caller owns
  // the buffer.) A value defined inside a loop's body that is a view of a
  // buffer from outside it (a chunk of the images a convolution's loop
  // multiplies) only reads that buffer: tensors leave a loop through its
  // results alone, so a loop that writes into a buffer has a result in it.
  // Grouping the loop with what it reads would join unrelated buffers,
  // from the forward to the backward, into one node.
  llvm::EquivalenceClasses<Operation *> groups;
  for (Operation *op : points)
    if (!op->hasTrait<OpTrait::IsTerminator>() && !isConstantLike(op))
      groups.insert(op);
  // An op that writes into an input dying there (ckpt-overwrite-dying-
  // inputs) starts a tenancy of the buffer of its own: it is a node of its
  // own that overwrites the input's node, not a part of it.
  DenseMap<Operation *, Operation *> overwrittenDefOf;
  for (const TimelineBuffer &buffer : timeline.getBuffers()) {
    if (buffer.isArgument)
      continue;
    SmallVector<Operation *> defs;
    for (Value value : buffer.values) {
      Operation *def = value.getDefiningOp();
      if (!def)
        continue;
      Operation *topLevel = getTopLevelOp(func, def);
      if (topLevel != def && buffer.root.getDefiningOp() &&
          getTopLevelOp(func, buffer.root.getDefiningOp()) != topLevel)
        continue;
      def = topLevel;
      if (groups.contains(def))
        defs.push_back(def);
    }
    llvm::stable_sort(defs, [&](Operation *a, Operation *b) {
      return timeline.getProgramPoint(a) < timeline.getProgramPoint(b);
    });
    defs.erase(std::unique(defs.begin(), defs.end()), defs.end());
    Operation *leader = nullptr;
    for (Operation *def : defs) {
      if (OpOperand *input = getOverwrittenInput(def); leader && input) {
        if (Operation *inputDef = input->get().getDefiningOp())
          overwrittenDefOf[def] = getTopLevelOp(func, inputDef);
        leader = def;
        continue;
      }
      if (leader)
        groups.unionSets(leader, def);
      else
        leader = def;
    }
  }

  mergeCycles(func, points, groups);

  // Nodes in the order of their last op that computes something: every
  // value a node reads is defined before that op, so this order is
  // topological except where a node reads an early tenant of a buffer that
  // a later op overwrites in place (the problem then reorders). A reshape
  // or slice of the node's own buffer later on (the backward's view of a
  // forward value) computes nothing and reads only the node: placing the
  // node there would keep what the node's computation reads alive until
  // the backward in the planner's model, which the program does not.
  RematGraph graph;
  graph.function = func;
  // Each group's position: its last op that is not a view of the group's
  // own buffer, or its last op (a group of views alone: of arguments).
  auto isBufferView = [&](Operation *op) {
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
             tensor::ExtractSliceOp, tensor::CastOp>(op))
      return false;
    Operation *source = op->getOperand(0).getDefiningOp();
    return source && source->getParentOp() == func.getOperation() &&
           groups.contains(source) && groups.isEquivalent(source, op);
  };
  DenseMap<Operation *, std::pair<int64_t, int64_t>> positionOfLeader;
  for (auto [index, op] : llvm::enumerate(points)) {
    if (!groups.contains(op))
      continue;
    auto &[lastComputing, last] =
        positionOfLeader.try_emplace(groups.getLeaderValue(op), -1, -1)
            .first->second;
    last = index;
    if (!isBufferView(op))
      lastComputing = index;
  }
  SmallVector<std::pair<int64_t, Operation *>> placed;
  for (auto &[leader, position] : positionOfLeader)
    placed.emplace_back(position.first >= 0 ? position.first : position.second,
                        leader);
  llvm::sort(placed, llvm::less_first());
  DenseMap<Operation *, unsigned> nodeOfLeader;
  for (auto [position, leader] : placed) {
    nodeOfLeader[leader] = graph.nodeOps.size();
    graph.nodeOps.emplace_back();
  }
  unsigned numNodes = graph.nodeOps.size();
  for (Operation *op : points) {
    if (!groups.contains(op))
      continue;
    unsigned node = nodeOfLeader.lookup(groups.getLeaderValue(op));
    graph.nodeOps[node].push_back(op);
    graph.nodeOfOp[op] = node;
  }

  // Bytes: the allocations rooted in the node. Results the caller
  // allocates before the call are alive throughout, like the arguments.
  bool resultsPreallocated =
      func->hasAttr(CkptDialect::getResultsPreallocatedAttrName());
  uint64_t residentBytes = timeline.getArgumentBytes();
  SmallVector<uint64_t> bytes(numNodes, 0);
  for (const TimelineBuffer &buffer : timeline.getBuffers()) {
    if (buffer.isArgument)
      continue;
    if (resultsPreallocated && buffer.isReturned) {
      residentBytes += buffer.allocationBytes;
      continue;
    }
    Operation *def = buffer.root.getDefiningOp();
    if (!def)
      continue;
    auto it = graph.nodeOfOp.find(getTopLevelOp(func, def));
    if (it != graph.nodeOfOp.end())
      bytes[it->second] += buffer.allocationBytes;
    // Each later tenant holds the buffer too, once its input has died.
    for (Value value : buffer.values)
      if (Operation *tenant = value.getDefiningOp();
          tenant && overwrittenDefOf.count(tenant) &&
          (it == graph.nodeOfOp.end() ||
           graph.nodeOfOp.lookup(tenant) != it->second))
        bytes[graph.nodeOfOp.lookup(tenant)] += buffer.allocationBytes;
  }

  std::vector<planner::RematNode> nodes;
  std::vector<std::pair<unsigned, unsigned>> edges;
  for (unsigned index = 0; index < numNodes; ++index) {
    ArrayRef<Operation *> ops = graph.nodeOps[index];
    planner::RematNode node;
    node.externalId = index;
    node.name = describeNode(ops);
    node.outputBytes = bytes[index];
    double seconds = 0;
    std::optional<Policy> policy;
    // The last op carrying the strongest policy.
    Operation *policyOp = nullptr;
    for (Operation *op : ops) {
      seconds += estimateOpCost(op, target).estimatedSeconds;
      if (!isRecomputable(op))
        node.isRecomputable = false;
      if (auto attr =
              op->getAttrOfType<PolicyAttr>(CkptDialect::getPolicyAttrName()))
        if (!policy ||
            getPolicyStrength(attr.getValue()) >= getPolicyStrength(*policy)) {
          policy = attr.getValue();
          policyOp = op;
        }
      // Edges from the nodes whose values the op reads (also inside its
      // regions).
      op->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands()) {
          Operation *def = operand.getDefiningOp();
          if (!def || op->isAncestor(def))
            continue;
          auto it = graph.nodeOfOp.find(getTopLevelOp(func, def));
          if (it != graph.nodeOfOp.end() && it->second != index)
            edges.emplace_back(it->second, index);
        }
      });
    }
    if (policy == Policy::MustRecompute && !node.isRecomputable)
      return emitMustRecomputeImpossible(policyOp->getLoc(), func);
    if (policy)
      node.policy = toPlannerPolicy(*policy);
    node.computeCostUnits =
        std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(seconds * 1e9)));
    // What the node's loops and regions allocate and free inside (a
    // convolution's patch chunks): held while its op runs.
    for (Operation *op : ops)
      node.workspaceBytes = std::max<uint64_t>(
          node.workspaceBytes,
          timeline.getTransientBytes(timeline.getProgramPoint(op)));
    node.isBackward = timeline.getPhase(timeline.getProgramPoint(ops.back())) ==
                      StepPhase::Backward;
    nodes.push_back(std::move(node));
  }
  // A tenant overwrites its input's node where the two hold the same bytes
  // (the input's node may hold other buffers too: then the tenant is
  // counted with a buffer of its own, an overestimate).
  for (auto [tenant, inputDef] : overwrittenDefOf) {
    auto tenantNode = graph.nodeOfOp.find(tenant);
    auto inputNode = graph.nodeOfOp.find(inputDef);
    if (tenantNode == graph.nodeOfOp.end() ||
        inputNode == graph.nodeOfOp.end() ||
        tenantNode->second == inputNode->second ||
        bytes[tenantNode->second] != bytes[inputNode->second])
      continue;
    nodes[tenantNode->second].overwritableInput = inputNode->second;
  }
  llvm::sort(edges);
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());

  llvm::Expected<planner::RematProblem> problem =
      planner::RematProblem::create(std::move(nodes), edges, residentBytes);
  if (!problem) {
    emitError(getFunctionDiagnosticLoc(func))
        << "ckpt-remat: cannot plan @" << func.getSymName() << ": "
        << llvm::toString(problem.takeError());
    return failure();
  }
  graph.problem.emplace(std::move(*problem));
  graph.timelinePeakBytes = timeline.getPeakBytes();
  graph.problemPeakBytes =
      static_cast<int64_t>(planner::baselinePeakBytes(*graph.problem));
  return graph;
}

RematGraph mlir::ckpt::remapRematGraph(const RematGraph &graph,
                                       func::FuncOp clone,
                                       const IRMapping &mapping) {
  RematGraph remapped;
  remapped.function = clone;
  remapped.problem = graph.problem;
  remapped.timelinePeakBytes = graph.timelinePeakBytes;
  remapped.problemPeakBytes = graph.problemPeakBytes;
  for (ArrayRef<Operation *> ops : graph.nodeOps) {
    remapped.nodeOps.emplace_back();
    for (Operation *op : ops) {
      Operation *copy = mapping.lookup(op);
      remapped.nodeOps.back().push_back(copy);
      remapped.nodeOfOp[copy] = remapped.nodeOps.size() - 1;
    }
  }
  return remapped;
}
