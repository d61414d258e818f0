//===- Tradeoff.cpp - memory/recompute trade-off curve and its knee -------===//

#include "PlanSupport.h"

#include <algorithm>

using namespace ckpt::planner;

std::vector<TradeoffPoint>
ckpt::planner::sweepTradeoff(const RematProblem &problem) {
  uint64_t baseline = baselinePeakBytes(problem);
  std::vector<TradeoffPoint> curve;
  auto add = [&](double fraction, uint64_t budget) {
    llvm::Expected<PlanResult> result = solveGreedyOnce(problem, budget);
    if (!result) {
      llvm::consumeError(result.takeError());
      return;
    }
    if (!result->isFeasible)
      return;
    if (!curve.empty() && curve.back().peakBytes <= result->peakBytes)
      return;
    curve.push_back({fraction, result->peakBytes, result->costUnits});
  };
  for (int step = 20; step >= 1; --step) {
    double fraction = step / 20.0;
    add(fraction, static_cast<uint64_t>(fraction * baseline));
  }
  uint64_t smallest = smallestFeasiblePeakFound(problem);
  add(static_cast<double>(smallest) / std::max<uint64_t>(1, baseline),
      smallest);
  return curve;
}

TradeoffPoint ckpt::planner::findKnee(llvm::ArrayRef<TradeoffPoint> curve) {
  const TradeoffPoint &first = curve.front();
  uint64_t lowestPeak = first.peakBytes, highestCost = first.costUnits;
  for (const TradeoffPoint &point : curve) {
    lowestPeak = std::min(lowestPeak, point.peakBytes);
    highestCost = std::max(highestCost, point.costUnits);
  }
  double memoryRange = static_cast<double>(first.peakBytes - lowestPeak);
  double costRange = static_cast<double>(highestCost - first.costUnits);
  if (memoryRange == 0)
    return first;
  TradeoffPoint knee = first;
  double best = 0;
  for (const TradeoffPoint &point : curve) {
    double saved = (first.peakBytes - point.peakBytes) / memoryRange;
    double extra =
        costRange > 0
            ? (static_cast<double>(point.costUnits) - first.costUnits) /
                  costRange
            : 0;
    if (saved - extra > best) {
      best = saved - extra;
      knee = point;
    }
  }
  return knee;
}
