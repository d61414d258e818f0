//===- GraphJSON.h - networkx node-link JSON reader -----------------------===//

#ifndef CKPT_PLANNER_GRAPHJSON_H
#define CKPT_PLANNER_GRAPHJSON_H

#include "ckpt/Planner/RematProblem.h"
#include "ckpt/Planner/Solvers.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace ckpt {
namespace planner {

/// Reads a problem from networkx node-link JSON:
/// `{"directed": true, "nodes": [{"id": 0, "name": "conv1", "backward": false,
///   "cost_cpu": 385, "cost_ram": 3288334336}, ...],
///   "links": [{"source": 0, "target": 1}, ...]}`.
/// `cost_cpu` is the compute cost, `cost_ram` the output bytes. Optional node
/// fields: `policy` (`must_save`, `prefer_save`, `prefer_recompute`,
/// `must_recompute`, `default`), `recomputable` (bool), `name`, `backward`
/// (default false), `overwrites` (the id of an input of the same size whose
/// buffer the node writes into when the input dies there:
/// RematNode::overwritableInput), `workspace_bytes` (held only while the
/// node is computed). Optional graph fields: `constant_bytes`,
/// `keep_rebuilt_values` (bool: RematProblem::keepsRebuiltValues). Node
/// order in the file is the original order. Errors name the offending node
/// or link.
llvm::Expected<RematProblem> parseGraphJSON(llvm::StringRef text);

/// Writes \p problem in the format parseGraphJSON reads (every field, nodes
/// in original order, ids from RematNode::externalId), so that problems
/// built from IR can be replayed with ckpt-plan.
void writeGraphJSON(const RematProblem &problem, llvm::raw_ostream &os);

/// The steps of \p schedule as JSON: `[{"op": "compute"|"free", "node":
/// <externalId>}, ...]`.
llvm::json::Array scheduleToJSON(const RematProblem &problem,
                                 const Schedule &schedule);

/// A plan as `ckpt-plan` prints it: `{"feasible", "solver", "num_nodes",
/// "budget_bytes", "baseline_peak_bytes", "baseline_cost", "peak_bytes",
/// "cost", "overhead", "solve_time_s", "schedule", ["optimality_gap"]}`.
llvm::json::Value planToJSON(const RematProblem &problem,
                             const PlanResult &plan, uint64_t budgetBytes);

} // namespace planner
} // namespace ckpt

#endif // CKPT_PLANNER_GRAPHJSON_H
