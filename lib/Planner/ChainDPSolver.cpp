//===- ChainDPSolver.cpp - Optimal checkpointing for training chains ------===//
//
// A training chain has forward nodes f1..fL (fi reads f(i-1)) followed by
// backward nodes gL..g1 (gi reads g(i+1) and a subset of {fi, f(i-1)}).
// The dynamic program is in the spirit of rotor (Beaumont et al., "Optimal
// checkpointing for heterogeneous chains"), written for this memory model:
//
//   opt(s, t, k, e, m): least cost to produce g(s) from f(s-1) and g(t+1),
//   where f(t) is resident iff k, within m bytes counting f(s-1), g(t+1) and
//   everything computed inside. On exit f(s-1) is still resident iff e;
//   otherwise it is freed after its last use inside. Every free thus happens
//   where scheduleFromComputeSequence puts it and the accounting is exact.
//
//   Either s == t: compute f(s) if g(s) reads it and it is not resident, then
//   g(s); or pick j in (s, t] and e' (keep f(j-1) for g(j-1) or recompute
//   it): sweep f(s)..f(j-1) keeping only the running value, solve
//   (j, t, k, e') with f(j-1) as checkpoint, then (s, j-1, e', e).
//
// Memory is measured in slots; when the sizes do not share a divisor that
// makes the grid small enough, sizes are rounded up (still valid, possibly
// not optimal, and the result then carries no optimality claim).
//
//===----------------------------------------------------------------------===//

#include "PlanSupport.h"

#include "llvm/Support/FormatVariadic.h"

#include <numeric>

using namespace ckpt::planner;

namespace {

/// The chain read off a problem: forward[i-1] = fi, backward[i-1] = gi.
struct TrainingChain {
  std::vector<NodeIndex> forward;
  std::vector<NodeIndex> backward;
  /// readsOutput[i]: gi reads fi. readsInput[i]: gi reads f(i-1).
  std::vector<bool> readsOutput, readsInput;
};

constexpr uint64_t kInfeasibleCost = std::numeric_limits<uint64_t>::max();

std::optional<TrainingChain> matchTrainingChain(const RematProblem &problem) {
  TrainingChain chain;
  for (NodeIndex v = 0; v < problem.size(); ++v)
    (problem.node(v).isBackward ? chain.backward : chain.forward).push_back(v);
  unsigned layers = chain.forward.size();
  if (layers == 0 || chain.backward.size() != layers)
    return std::nullopt;
  if (chain.forward.back() > chain.backward.front())
    return std::nullopt;
  // Original order lists gL first.
  std::reverse(chain.backward.begin(), chain.backward.end());
  chain.readsOutput.assign(layers + 1, false);
  chain.readsInput.assign(layers + 1, false);
  for (unsigned i = 1; i <= layers; ++i) {
    NodeIndex f = chain.forward[i - 1];
    auto fPreds = problem.predecessors(f);
    if (i == 1 ? !fPreds.empty()
               : (fPreds.size() != 1 || fPreds[0] != chain.forward[i - 2]))
      return std::nullopt;
    NodeIndex g = chain.backward[i - 1];
    bool readsNextGradient = false;
    for (NodeIndex u : problem.predecessors(g)) {
      if (i < layers && u == chain.backward[i])
        readsNextGradient = true;
      else if (u == f)
        chain.readsOutput[i] = true;
      else if (i > 1 && u == chain.forward[i - 2])
        chain.readsInput[i] = true;
      else
        return std::nullopt;
    }
    if (i < layers && !readsNextGradient)
      return std::nullopt;
    const RematNode &node = problem.node(f);
    if (!problem.mayRecompute(f) || node.policy == RematPolicy::MustRecompute)
      return std::nullopt;
  }
  if (!chain.readsOutput[layers])
    return std::nullopt;
  return chain;
}

class ChainProgram {
public:
  ChainProgram(const RematProblem &problem, const TrainingChain &chain,
               uint64_t budgetBytes);

  /// False when the memory grid would be too large.
  bool isTractable() const { return budgetSlots != ~0u; }
  /// True when sizes are exact multiples of the slot size.
  bool isExact() const { return exact; }
  /// Least cost of the whole chain, kInfeasibleCost when none fits.
  uint64_t solve() { return opt(1, layers, false, false, budgetSlots); }
  /// The computations of the optimal schedule.
  std::vector<NodeIndex> sequence() {
    std::vector<NodeIndex> result;
    emit(1, layers, false, false, budgetSlots, result);
    return result;
  }

private:
  uint64_t opt(unsigned s, unsigned t, bool k, bool e, unsigned m);
  void emit(unsigned s, unsigned t, bool k, bool e, unsigned m,
            std::vector<NodeIndex> &out);
  size_t cell(unsigned s, unsigned t, bool k, bool e, unsigned m) const {
    return (((static_cast<size_t>(s) * (layers + 1) + t) * 2 + k) * 2 + e) *
               (budgetSlots + 1) +
           m;
  }
  /// Whether f(s-1) must stay resident through the sweep and the right part
  /// when (s, t) is split at j: the left part (s, j-1) reads it unless it is
  /// the single layer s whose g(s) needs neither f(s-1) nor a recomputed f(s).
  bool keepsInput(unsigned s, unsigned j, bool keepCheckpoint, bool e) const {
    return s >= 2 && (j - 1 > s || chain.readsInput[s] || e ||
                      (chain.readsOutput[s] && !keepCheckpoint));
  }
  /// The choices of one split: j and whether f(j-1) is kept for g(j-1).
  static uint16_t encodeChoice(unsigned j, bool keep) { return 2 * j + keep; }
  /// Slots of the forward value fi (f0 is not a node: 0).
  uint64_t a(unsigned i) const { return forwardSlots[i]; }
  /// Slots of the gradient gi (g(L+1) is not a node: 0).
  uint64_t d(unsigned i) const { return backwardSlots[i]; }

  const RematProblem &problem;
  const TrainingChain &chain;
  unsigned layers;
  unsigned budgetSlots = ~0u;
  bool exact = true;
  std::vector<uint64_t> forwardSlots, backwardSlots;
  std::vector<uint64_t> memoCost;
  std::vector<uint16_t> memoChoice;
};

} // namespace

ChainProgram::ChainProgram(const RematProblem &problem,
                           const TrainingChain &chain, uint64_t budgetBytes)
    : problem(problem), chain(chain), layers(chain.forward.size()) {
  uint64_t available = budgetBytes - problem.getConstantBytes();
  // Keep the memo table within a few million cells.
  constexpr size_t kMaxCells = 8'000'000;
  size_t cellsPerSlot = static_cast<size_t>(layers + 1) * (layers + 1) * 4;
  uint64_t maxSlots = kMaxCells / cellsPerSlot;
  if (maxSlots < 16 || layers >= 32767)
    return;
  uint64_t quantum = 0;
  for (unsigned i = 1; i <= layers; ++i) {
    quantum = std::gcd(quantum, problem.bytes(chain.forward[i - 1]));
    quantum = std::gcd(quantum, problem.bytes(chain.backward[i - 1]));
  }
  if (quantum == 0)
    quantum = 1;
  if (available / quantum > maxSlots) {
    exact = false;
    quantum = (available + maxSlots - 1) / maxSlots;
  }
  budgetSlots = available / quantum;
  auto toSlots = [&](uint64_t bytes) {
    return (bytes + quantum - 1) / quantum;
  };
  forwardSlots.assign(layers + 2, 0);
  backwardSlots.assign(layers + 2, 0);
  for (unsigned i = 1; i <= layers; ++i) {
    forwardSlots[i] = toSlots(problem.bytes(chain.forward[i - 1]));
    backwardSlots[i] = toSlots(problem.bytes(chain.backward[i - 1]));
  }
  size_t cells = cellsPerSlot * (budgetSlots + 1);
  memoCost.assign(cells, kInfeasibleCost - 1);
  memoChoice.assign(cells, 0);
}

uint64_t ChainProgram::opt(unsigned s, unsigned t, bool k, bool e, unsigned m) {
  size_t index = cell(s, t, k, e, m);
  // kInfeasibleCost - 1 marks "not computed yet".
  if (memoCost[index] != kInfeasibleCost - 1)
    return memoCost[index];
  uint64_t best = kInfeasibleCost;
  uint16_t bestChoice = 0;
  uint64_t outsideGradient = d(t + 1);
  if (s == t) {
    bool computeOutput = chain.readsOutput[s] && !k;
    bool inputResident = s >= 2 && (chain.readsInput[s] || e);
    uint64_t peak = (inputResident ? a(s - 1) : 0) + outsideGradient +
                    (chain.readsOutput[s] ? a(s) : 0) + d(s);
    if (computeOutput)
      peak = std::max(peak, a(s - 1) + outsideGradient + a(s));
    if (peak <= m)
      best = (computeOutput ? problem.cost(chain.forward[s - 1]) : 0) +
             problem.cost(chain.backward[s - 1]);
  } else {
    uint64_t resident = outsideGradient + (k ? a(t) : 0);
    uint64_t sweepCost = 0;
    for (unsigned j = s + 1; j <= t; ++j) {
      unsigned i = j - 1;
      sweepCost += problem.cost(chain.forward[i - 1]);
      // Peak of the sweep: computing fi reads f(i-1); f(s-1) is counted in
      // full, which only matters for j - 1 > s where it is kept anyway.
      uint64_t sweepPeak = resident + a(s - 1) + a(s);
      for (unsigned step = s + 1; step <= i; ++step)
        sweepPeak =
            std::max(sweepPeak, resident + a(s - 1) + a(step - 1) + a(step));
      if (sweepPeak > m)
        break;
      for (bool keepCheckpoint : {false, true}) {
        // Keeping f(j-1) only helps when g(j-1) reads it.
        if (keepCheckpoint && !chain.readsOutput[j - 1])
          continue;
        uint64_t inputSlots =
            keepsInput(s, j, keepCheckpoint, e) ? a(s - 1) : 0;
        if (inputSlots > m)
          continue;
        uint64_t right = opt(j, t, k, keepCheckpoint, m - inputSlots);
        if (right == kInfeasibleCost)
          continue;
        uint64_t left = opt(s, j - 1, keepCheckpoint, e, m);
        if (left == kInfeasibleCost)
          continue;
        uint64_t total = sweepCost + right + left;
        if (total < best) {
          best = total;
          bestChoice = encodeChoice(j, keepCheckpoint);
        }
      }
    }
  }
  memoCost[index] = best;
  memoChoice[index] = bestChoice;
  return best;
}

void ChainProgram::emit(unsigned s, unsigned t, bool k, bool e, unsigned m,
                        std::vector<NodeIndex> &out) {
  opt(s, t, k, e, m);
  uint16_t choice = memoChoice[cell(s, t, k, e, m)];
  unsigned j = choice / 2;
  bool keepCheckpoint = choice % 2;
  if (j == 0) {
    if (chain.readsOutput[s] && !k)
      out.push_back(chain.forward[s - 1]);
    out.push_back(chain.backward[s - 1]);
    return;
  }
  for (unsigned i = s; i < j; ++i)
    out.push_back(chain.forward[i - 1]);
  uint64_t inputSlots = keepsInput(s, j, keepCheckpoint, e) ? a(s - 1) : 0;
  emit(j, t, k, keepCheckpoint, m - inputSlots, out);
  emit(s, j - 1, keepCheckpoint, e, m, out);
}

bool ckpt::planner::isTrainingChain(const RematProblem &problem) {
  return matchTrainingChain(problem).has_value();
}

llvm::Expected<PlanResult>
ckpt::planner::solveChainDP(const RematProblem &problem, uint64_t budgetBytes) {
  SolveTimer timer;
  std::optional<TrainingChain> chain = matchTrainingChain(problem);
  if (!chain)
    return llvm::createStringError(
        "chain-dp needs a training chain (forward path f1..fL of recomputable "
        "nodes without must_* policies, then backward path gL..g1 where gi "
        "reads only g(i+1), fi and f(i-1)); use greedy or ilp for this graph");
  if (budgetBytes < problem.getConstantBytes())
    return infeasiblePlan("chain-dp", timer);
  ChainProgram program(problem, *chain, budgetBytes);
  if (!program.isTractable())
    return llvm::createStringError(
        llvm::formatv("chain-dp: a chain of {0} layers is too long for its "
                      "memory grid; use greedy",
                      chain->forward.size())
            .str());
  if (program.solve() == kInfeasibleCost)
    return infeasiblePlan("chain-dp", timer);
  llvm::Expected<PlanResult> result = finishPlan(
      problem, scheduleFromComputeSequence(problem, program.sequence()),
      budgetBytes, "chain-dp", timer);
  // The chain's memory grid counts every computation with its own buffer
  // and no workspace: with inputs a node may write into it is an upper
  // bound, with workspaces a lower one (the validator then says whether the
  // plan fits), and it proves nothing.
  if (result && program.isExact() && !problem.hasOverwritableInputs() &&
      !problem.hasWorkspaces()) {
    result->optimalityGap = 0;
    result->lowerBoundCostUnits = result->costUnits;
    result->formulation = PlanFormulation::PersistentChain;
  }
  return result;
}
