//===- RematProblem.h - Rematerialization problem -------------------------===//
//
// The planner's input: a DAG of tensor-producing operations in a fixed
// original order, each with its output size and compute cost. It knows
// nothing about MLIR; the Analysis layer builds it from IR and ckpt-plan
// builds it from JSON.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_PLANNER_REMATPROBLEM_H
#define CKPT_PLANNER_REMATPROBLEM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {
namespace planner {

/// Index of a node in a RematProblem; nodes are numbered in original order.
using NodeIndex = unsigned;

/// User intent for one value, in the spirit of PyTorch's selective
/// activation checkpointing policies. `MustSave` and `MustRecompute` are hard
/// constraints that no solver overrides; the `Prefer*` policies only steer
/// heuristics.
enum class RematPolicy {
  /// No preference: the solver decides.
  Default,
  /// Compute exactly once and keep until the last use.
  MustSave,
  /// Keep unless memory forces otherwise (a heuristic hint).
  PreferSave,
  /// Recompute when that saves memory (a heuristic hint).
  PreferRecompute,
  /// The copy produced for forward-phase consumers is never kept for
  /// backward-phase consumers; see RematProblem::needsPhaseSplit.
  MustRecompute,
};

/// Returns the JSON spelling of \p policy (`must_save`, ...).
llvm::StringRef stringifyRematPolicy(RematPolicy policy);

/// Parses the JSON spelling of a policy; `std::nullopt` if unknown.
std::optional<RematPolicy> parseRematPolicy(llvm::StringRef spelling);

/// One operation of the program: it produces a single tensor.
struct RematNode {
  /// Identifier from the input (the JSON node id, or an IR value number).
  int64_t externalId = 0;
  /// Human-readable name for reports.
  std::string name;
  /// Size of the produced tensor; 0 for views and aliases.
  uint64_t outputBytes = 0;
  /// Cost of one computation, in the caller's units (e.g. FLOPs or ns).
  uint64_t computeCostUnits = 0;
  /// False for ops with side effects, collectives, unseeded RNG, ...: such
  /// nodes are computed exactly once.
  bool isRecomputable = true;
  /// User policy for this value.
  RematPolicy policy = RematPolicy::Default;
  /// True for nodes of the backward pass (they consume activations).
  bool isBackward = false;
  /// An input (index into the nodes given to RematProblem::create, like the
  /// edges) whose buffer this node writes its result into when that input
  /// dies here: an elementwise op over a value of its own type read at the
  /// same element it writes. Where the schedule frees the input right after
  /// this node, computing the node adds no bytes; where it keeps the input,
  /// the node needs a buffer of its own.
  std::optional<unsigned> overwritableInput;
  /// Bytes the computation needs only while it runs (a convolution's patch
  /// chunks, a recompute region's intermediates): held at its step, on top
  /// of its output, and freed before the next.
  uint64_t workspaceBytes = 0;
};

/// A rematerialization problem: a DAG whose node order is a topological order
/// (the original program order) plus memory that is resident at every step.
///
/// Construct with RematProblem::create, which checks the graph.
class RematProblem {
public:
  /// Builds a problem from nodes in program order and edges (producer,
  /// consumer) given as indices into \p nodes. If the given order is not
  /// topological but the graph is acyclic, the nodes are reordered by a
  /// stable topological sort (ties keep their given order). Fails on cycles,
  /// out-of-range indices, self loops and contradictory policies.
  static llvm::Expected<RematProblem>
  create(std::vector<RematNode> nodes,
         llvm::ArrayRef<std::pair<unsigned, unsigned>> edges,
         uint64_t constantBytes = 0);

  /// Number of nodes.
  unsigned size() const { return nodes.size(); }
  /// The node at index \p v (original order).
  const RematNode &node(NodeIndex v) const { return nodes[v]; }
  /// All nodes in original order.
  llvm::ArrayRef<RematNode> getNodes() const { return nodes; }
  /// Producers of the inputs of \p v, ascending.
  llvm::ArrayRef<NodeIndex> predecessors(NodeIndex v) const { return preds[v]; }
  /// Consumers of \p v, ascending (so the last one is the last use in the
  /// original order).
  llvm::ArrayRef<NodeIndex> successors(NodeIndex v) const { return succs[v]; }
  /// True when \p v has no consumers: it is an output that must be resident
  /// when the program ends.
  bool isSink(NodeIndex v) const { return succs[v].empty(); }
  /// Bytes resident at every step (arguments, parameters).
  uint64_t getConstantBytes() const { return constantBytes; }
  /// Output size of \p v.
  uint64_t bytes(NodeIndex v) const { return nodes[v].outputBytes; }
  /// The input whose buffer \p v writes into when that input dies at \p v
  /// (RematNode::overwritableInput, as an index of this problem).
  std::optional<NodeIndex> overwritableInput(NodeIndex v) const {
    return overwritable[v];
  }
  /// True when some node may write into a dying input's buffer.
  bool hasOverwritableInputs() const { return anyOverwritable; }
  /// Bytes \p v needs only while it is computed (RematNode::workspaceBytes).
  uint64_t workspace(NodeIndex v) const { return nodes[v].workspaceBytes; }
  /// True when some node needs a workspace.
  bool hasWorkspaces() const { return anyWorkspace; }
  /// True when the program that runs the plan keeps a recomputed value
  /// until its last use (PyTorch's partition of a joint graph recomputes a
  /// forward value once in the backward): schedules should not free a
  /// value rebuilt for another rebuild before its own uses are over.
  bool keepsRebuiltValues() const { return keepRebuilt; }
  void setKeepsRebuiltValues(bool keep) { keepRebuilt = keep; }
  /// Bytes that computing \p v adds to what is resident, \p inputDies
  /// saying whether its overwritable input is freed right after it: its
  /// output (none when it writes into that input's buffer) and its
  /// workspace.
  uint64_t addedBytes(NodeIndex v, bool inputDies) const {
    return (overwritable[v] && inputDies ? 0 : bytes(v)) + workspace(v);
  }
  /// Compute cost of \p v.
  uint64_t cost(NodeIndex v) const { return nodes[v].computeCostUnits; }

  /// True when \p v may be computed more than once.
  bool mayRecompute(NodeIndex v) const {
    return nodes[v].isRecomputable && nodes[v].policy != RematPolicy::MustSave;
  }
  /// True for a must_recompute value that has consumers in both phases: its
  /// forward copy must be freed after the last forward-phase consumer and the
  /// backward-phase consumers must be served by a recomputation.
  bool needsPhaseSplit(NodeIndex v) const;
  /// Original position of the last forward-phase consumer of \p v, if any.
  std::optional<NodeIndex> lastForwardConsumer(NodeIndex v) const;
  /// Original position of the first backward-phase consumer of \p v, if any.
  std::optional<NodeIndex> firstBackwardConsumer(NodeIndex v) const;

  /// The last original position at which \p v may be needed: its last
  /// consumer, extended to the last backward use of every must_recompute
  /// descendant whose recomputation goes through \p v (that recomputation
  /// needs \p v's value then). size() for outputs.
  NodeIndex neededUntil(NodeIndex v) const { return neededUntilStage[v]; }

  /// Sum of compute costs of all nodes (the cost of the baseline schedule).
  uint64_t totalComputeCostUnits() const;
  /// Position of the first backward node in original order, or size() when
  /// the problem has no backward phase.
  NodeIndex firstBackwardNode() const;

private:
  RematProblem() = default;

  std::vector<RematNode> nodes;
  std::vector<std::vector<NodeIndex>> preds;
  std::vector<std::vector<NodeIndex>> succs;
  std::vector<NodeIndex> neededUntilStage;
  std::vector<std::optional<NodeIndex>> overwritable;
  bool anyOverwritable = false;
  bool anyWorkspace = false;
  bool keepRebuilt = false;
  uint64_t constantBytes = 0;
};

} // namespace planner
} // namespace ckpt

#endif // CKPT_PLANNER_REMATPROBLEM_H
