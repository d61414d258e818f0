//===- Solvers.h - Rematerialization solvers ------------------------------===//
//
// Every solver takes a problem and a budget in bytes and returns a schedule.
// planRemat is the entry point for clients: it dispatches on the solver
// name, validates the result independently and turns an unmet budget into an
// error that states the smallest feasible peak found.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_PLANNER_SOLVERS_H
#define CKPT_PLANNER_SOLVERS_H

#include "ckpt/Planner/Budget.h"
#include "ckpt/Planner/RematProblem.h"
#include "ckpt/Planner/Schedule.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {
namespace planner {

/// The available solvers.
enum class SolverKind {
  /// The baseline: no rematerialization.
  None,
  /// Keep every k-th forward node, recompute the segments in between
  /// (`torch.utils.checkpoint.checkpoint_sequential`).
  Uniform,
  /// Dynamic programming, optimal for training chains (rotor/Revolve style).
  ChainDP,
  /// Eviction heuristic for large general DAGs.
  Greedy,
  /// Mixed-integer program solved by CBC, exact within its schedule class.
  ILP,
  /// Checkmate's mixed-integer program over every schedule in program order
  /// (any number of recomputations of any value), solved by CBC.
  Exact,
  /// Picks solvers by graph size and structure and keeps the best result.
  Auto,
};

/// A solver name as written on the command line: `none`, `uniform:K`,
/// `chain-dp`, `greedy`, `ilp` or `auto`.
struct SolverSpec {
  /// Which solver.
  SolverKind kind = SolverKind::Auto;
  /// Checkpoint interval k for SolverKind::Uniform (k >= 1).
  unsigned uniformInterval = 1;

  /// Spells the spec back (`uniform:4`).
  std::string str() const;
};

/// Parses a solver name; the error lists the accepted names.
llvm::Expected<SolverSpec> parseSolverSpec(llvm::StringRef text);

/// Knobs shared by the solvers.
struct SolverOptions {
  /// Wall-clock limit for the ILP solver (and for `auto`'s use of it).
  double timeLimitSeconds = 60;
  /// `auto` runs the ILP only on graphs with at most this many nodes.
  unsigned autoILPMaxNodes = 300;
  /// `auto` runs the exact program-order MILP (after greedy and the ILP,
  /// starting from the best of them) only on graphs with at most this many
  /// nodes.
  unsigned autoExactMaxNodes = 60;
  /// The ILP lets stage t recompute only values at most this many edges
  /// upstream of what node t reads (0: any ancestor). 3 covers recomputing
  /// an attention block's scores and probabilities, or a conv block's
  /// activations, from values kept; deeper limits multiply the candidate
  /// patterns (4 gives 3.6x as many on the 8-block transformer benchmark,
  /// for the same root bound at 0.7).
  unsigned ilpRecomputeDepth = 3;
  /// The ILP adds greedy's pattern of every value to its candidates (so
  /// greedy's schedule is in its class and starts the search). Off only for
  /// tests that compare the ILP with an exhaustive search of its class.
  bool ilpIncludeGreedy = true;
  /// Copies of a value the ILP's own patterns may have: 2 (one
  /// recomputation) or 3 (two, when that adds at most 20,000 candidate
  /// patterns: small graphs such as the zoo's steps).
  unsigned ilpMaxCopies = 3;
  /// Simulation work greedy's local search may spend (stages, computations
  /// and eviction candidates scored, counted from the start of the solve;
  /// about 0.2 s per 10 million on this project's 2-core machine). 0 runs
  /// only the first eviction rules. The first rules alone take more than the
  /// default on 10,000-node graphs, which therefore get no local search.
  uint64_t greedyWorkAllowance = 10'000'000;
};

/// The schedule class a solver's optimality gap and lower bound hold for.
enum class PlanFormulation {
  /// No bound is known.
  None,
  /// Every schedule that computes nodes for the first time in program order
  /// (any recomputations; Checkmate's class, see solveExact): the class the
  /// remat rewriter can apply, so a gap of 0 here is "optimal".
  ProgramOrder,
  /// The ILP's retention patterns (see solveILP), a sub-class.
  Retention,
  /// Persistent checkpointing on training chains (see solveChainDP), a
  /// sub-class.
  PersistentChain,
};

/// The report spelling of \p formulation: `none`, `program-order`,
/// `retention`, `persistent-chain`.
llvm::StringRef stringifyPlanFormulation(PlanFormulation formulation);

/// A solver's answer.
struct PlanResult {
  /// True when the schedule meets the budget.
  bool isFeasible = false;
  /// The schedule (empty when infeasible).
  Schedule schedule;
  /// Peak bytes of the schedule, as measured by validateSchedule.
  uint64_t peakBytes = 0;
  /// Cost of the schedule, as measured by validateSchedule.
  uint64_t costUnits = 0;
  /// Wall-clock time the solver took.
  double solveTimeSeconds = 0;
  /// Relative gap (cost - bound) / cost between the schedule and the best
  /// lower bound on the cost within the solver's schedule class, when known
  /// (0 when the solver proved optimality in that class).
  std::optional<double> optimalityGap;
  /// The least cost any schedule of `formulation`'s class within the budget
  /// can have, when known (the schedule's own cost when proven optimal).
  std::optional<uint64_t> lowerBoundCostUnits;
  /// The class optimalityGap and lowerBoundCostUnits hold for.
  PlanFormulation formulation = PlanFormulation::None;
  /// The solver that produced the schedule (`auto` names its choice:
  /// `auto(ilp)`).
  std::string solverName;

  /// True when no schedule in program order within the budget is cheaper:
  /// proven over PlanFormulation::ProgramOrder, not over a sub-class.
  bool isProvenOptimal() const {
    return formulation == PlanFormulation::ProgramOrder && optimalityGap &&
           *optimalityGap == 0;
  }
};

/// The baseline schedule; feasible iff its peak fits \p budgetBytes.
llvm::Expected<PlanResult> solveBaseline(const RematProblem &problem,
                                         uint64_t budgetBytes);

/// Keeps every \p interval-th forward node (and every node that may not be
/// recomputed), frees the other forward values after their last forward use
/// and recomputes them on demand in the backward phase. Problems without
/// backward nodes treat all nodes as forward. Ignores the budget except to
/// report feasibility.
llvm::Expected<PlanResult> solveUniform(const RematProblem &problem,
                                        uint64_t budgetBytes,
                                        unsigned interval);

/// Optimal persistent-checkpointing dynamic program for training chains:
/// forward nodes f1..fL forming a path, then backward nodes gL..g1 forming a
/// path, where gi reads only g(i+1), fi and f(i-1). Costs and sizes may differ
/// per layer. Fails with an error on any other structure or on must_* and
/// non-recomputable nodes.
llvm::Expected<PlanResult> solveChainDP(const RematProblem &problem,
                                        uint64_t budgetBytes);

/// True when \p problem has the training-chain structure solveChainDP needs.
bool isTrainingChain(const RematProblem &problem);

/// Simulates the original order and, whenever the next computation would
/// exceed the budget, evicts resident values that are not needed right now,
/// preferring many bytes per unit of recompute cost and distant next uses;
/// evicted values are recomputed on demand. Each rule runs in about
/// O(n log n + n·r) for r resident values. Then, within
/// options.greedyWorkAllowance, second-opinion rules (costs that count
/// evicted ancestors, inputs retained as sources of larger consumers) and a
/// local search over per-value changes to the rules (bar a value from
/// eviction, raise its recompute cost, drop it right after its forward use)
/// that keeps every change lowering the cost. Never costlier than the first
/// rules alone.
llvm::Expected<PlanResult> solveGreedy(const RematProblem &problem,
                                       uint64_t budgetBytes,
                                       const SolverOptions &options = {});

/// Retention-pattern MILP over stage schedules (Moccasin-style intervals,
/// solved with CBC): stage t recomputes some values in index order and then
/// computes node t for the first time, and a final stage may recompute
/// outputs; every value is kept, or freed and recomputed once (twice on
/// small graphs, see options.ilpMaxCopies), each copy freed right after its
/// last read; a
/// value is recomputed in stage t only where stage t reads it or recomputes
/// one of its consumers, within \p options.ilpRecomputeDepth edges of what
/// node t reads. Greedy's schedule is added to the class (its patterns may
/// have more instances) and starts the search (unless
/// options.ilpIncludeGreedy is off). Memory is exact for the class after
/// every computation. Solved under \p options.timeLimitSeconds; returns the
/// incumbent and its gap (0 when proven optimal in the class).
llvm::Expected<PlanResult> solveILP(const RematProblem &problem,
                                    uint64_t budgetBytes,
                                    const SolverOptions &options);

/// Checkmate's MILP (Jain et al., MLSys 2020) over every schedule whose first
/// computations are in program order, with any number of recomputations of
/// any value (one per stage, stages in index order), on validateSchedule's
/// memory model, solved with CBC under options.timeLimitSeconds from
/// \p incumbent's schedule (greedy's when null) put in the class's form
/// (each stage's recomputations once, in index order) when that form fits. Returns the incumbent
/// CBC ends with, the lower bound on the cost over the class and the gap
/// (0 when proven optimal). Fails on graphs whose model would be too large
/// to solve (thousands of nodes).
llvm::Expected<PlanResult> solveExact(const RematProblem &problem,
                                      uint64_t budgetBytes,
                                      const SolverOptions &options,
                                      const PlanResult *incumbent = nullptr);

/// Runs chain-dp on training chains, the ILP on graphs up to
/// options.autoILPMaxNodes nodes, greedy everywhere, and on graphs up to
/// options.autoExactMaxNodes nodes the exact MILP from the best of them;
/// returns the cheapest valid schedule within the budget with the
/// strongest bound found.
llvm::Expected<PlanResult> solveAuto(const RematProblem &problem,
                                     uint64_t budgetBytes,
                                     const SolverOptions &options);

/// What planRemat fails with when the solver cannot meet the budget: the
/// smallest feasible peak found travels as data (the remat pass plans there
/// instead, the difftest reads the kind), the message is for people.
class InfeasibleBudgetError : public llvm::ErrorInfo<InfeasibleBudgetError> {
public:
  static char ID;

  InfeasibleBudgetError(uint64_t budgetBytes, std::string solverName,
                        uint64_t smallestPeakBytes, uint64_t workingBudgetBytes,
                        uint64_t baselinePeakBytes)
      : budgetBytes(budgetBytes), solverName(std::move(solverName)),
        smallestPeakBytes(smallestPeakBytes),
        workingBudgetBytes(workingBudgetBytes),
        baselinePeakBytes(baselinePeakBytes) {}

  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

  /// The budget asked for.
  uint64_t budgetBytes;
  /// The solver that could not meet it (SolverSpec::str()).
  std::string solverName;
  /// The smallest peak a schedule was found for (smallestFeasiblePeakFound,
  /// or the solver's own lower peak).
  uint64_t smallestPeakBytes;
  /// The smallest budget greedy was seen to meet
  /// (smallestFeasiblePeakFound): planning at it succeeds.
  uint64_t workingBudgetBytes;
  /// The peak without rematerialization.
  uint64_t baselinePeakBytes;
};

/// Runs \p spec on \p problem and validates its schedule independently:
/// peak and cost in the result are the validator's. A budget no solver run
/// could meet is an InfeasibleBudgetError.
llvm::Expected<PlanResult> planRemat(const RematProblem &problem,
                                     uint64_t budgetBytes,
                                     const SolverSpec &spec,
                                     const SolverOptions &options = {});

/// Smallest budget the greedy solver is seen to meet, found by bisection on
/// the budget (greedy is not monotone in it: the answer is a budget greedy
/// met, so planning at it succeeds); an upper bound on the smallest
/// feasible peak.
uint64_t smallestFeasiblePeakFound(const RematProblem &problem);

/// A planning request in the planner's grammars, as ckpt-plan and the C API
/// take it: a budget, a solver and the ILP's time limit.
struct PlanRequest {
  BudgetRequest budget;
  SolverSpec solver;
  SolverOptions options;
};

/// Parses \p budget (parseBudgetRequest) and \p solver (parseSolverSpec)
/// and checks that \p timeLimitSeconds is positive (`--time-limit must be a
/// positive number of seconds`); the error is the first one found.
llvm::Expected<PlanRequest> parsePlanRequest(llvm::StringRef budget,
                                             llvm::StringRef solver,
                                             double timeLimitSeconds);

/// Resolves \p request's budget on \p problem (into \p budgetBytes) and
/// plans there with planRemat.
llvm::Expected<PlanResult> planRequest(const RematProblem &problem,
                                       const PlanRequest &request,
                                       uint64_t &budgetBytes);

/// The budget \p request stands for on \p problem, in bytes: a memory
/// budget resolved against the baseline peak, `min` as
/// smallestFeasiblePeakFound, `auto` as the peak at the knee of
/// sweepTradeoff (the baseline peak when the curve is empty).
uint64_t resolveBudgetBytes(const RematProblem &problem,
                            const BudgetRequest &request);

/// One point of a problem's memory/recompute trade-off.
struct TradeoffPoint {
  /// The budget asked for, as a fraction of the baseline peak.
  double budgetFraction = 1;
  /// Peak and cost of the schedule found.
  uint64_t peakBytes = 0;
  uint64_t costUnits = 0;
};

/// The trade-off curve as the greedy solver sees it: one point per budget
/// fraction 1, 0.95, ..., 0.05 of the baseline peak that it can meet, and
/// one at the smallest feasible peak it finds; peaks descending, repeated
/// peaks dropped.
std::vector<TradeoffPoint> sweepTradeoff(const RematProblem &problem);

/// The knee of a trade-off curve (Kneedle-style): with memory saved and
/// extra cost each scaled to [0, 1] over the curve, the point where saved
/// memory minus extra cost is largest, i.e. where the curve bends from
/// cheap savings to expensive ones. Ties go to the larger peak. The first
/// point when the curve is flat. \p curve must not be empty.
TradeoffPoint findKnee(llvm::ArrayRef<TradeoffPoint> curve);

} // namespace planner
} // namespace ckpt

#endif // CKPT_PLANNER_SOLVERS_H
