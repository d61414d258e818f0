//===- KernelEstimate.cpp - how well a mapped kernel can use the GPU ------===//

#include "KernelEstimate.h"

#include "ckpt/Analysis/TensorBytes.h"

#include "mlir/IR/AffineExpr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::ckpt;

namespace {

constexpr int64_t kSectorBytes = 32;

llvm::StringRef getMappingName(KernelMapping mapping) {
  switch (mapping) {
  case KernelMapping::Elementwise:
    return "elementwise";
  case KernelMapping::ThreadPerOutput:
    return "thread-per-output";
  case KernelMapping::BlockReduction:
    return "block-reduction";
  }
  return "unknown";
}

/// Whether some input is walked along its innermost dimension by the
/// reduction (each thread reads its own contiguous run, neighbouring threads
/// far apart), and the element size of the worst such input.
std::optional<int64_t> getUncoalescedElementBytes(linalg::LinalgOp op) {
  std::optional<int64_t> worst;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type || type.getRank() == 0)
      continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    auto innermost = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!innermost || op.getIteratorTypesArray()[innermost.getPosition()] !=
                          utils::IteratorType::reduction)
      continue;
    std::optional<int64_t> bytes = getElementBytes(type.getElementType());
    if (bytes && (!worst || *bytes < *worst))
      worst = *bytes;
  }
  return worst;
}

std::string printLocation(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    loc.print(os);
  return text;
}

} // namespace

std::optional<KernelEstimate>
mlir::ckpt::estimateKernel(linalg::LinalgOp op, KernelMapping mapping,
                           std::optional<int64_t> blocks,
                           int64_t threadsPerBlock, const DeviceTarget &target,
                           int64_t residentThreads) {
  if (!blocks)
    return std::nullopt;
  KernelEstimate estimate;
  estimate.location = printLocation(op.getLoc());
  estimate.opName = op->getName().getStringRef().str();
  estimate.mapping = mapping;
  estimate.blocks = *blocks;
  estimate.threadsPerBlock = threadsPerBlock;
  estimate.cost = estimateOpCost(op, target);
  double launch = target.kernelLaunchOverheadSeconds *
                  static_cast<double>(estimate.cost.kernelLaunches);
  estimate.rooflineSeconds =
      std::max(0.0, estimate.cost.estimatedSeconds - launch);
  double memorySeconds = static_cast<double>(estimate.cost.bytesRead +
                                             estimate.cost.bytesWritten) /
                         target.memoryBandwidthBytesPerSecond;
  bool memoryBound = memorySeconds >= estimate.rooflineSeconds * 0.999;

  double threads = static_cast<double>(*blocks) * threadsPerBlock;
  estimate.parallelFraction =
      std::min(1.0, threads / static_cast<double>(residentThreads));
  if (mapping == KernelMapping::ThreadPerOutput)
    if (std::optional<int64_t> bytes = getUncoalescedElementBytes(op))
      estimate.accessFraction =
          std::min(1.0, static_cast<double>(*bytes) / kSectorBytes);
  double fraction =
      estimate.parallelFraction * (memoryBound ? estimate.accessFraction : 1.0);
  estimate.estimatedSeconds =
      fraction > 0 ? estimate.rooflineSeconds / fraction : 0.0;
  return estimate;
}

llvm::json::Value
mlir::ckpt::kernelReportToJSON(ArrayRef<KernelEstimate> kernels,
                               const DeviceTarget &target,
                               int64_t residentThreads) {
  llvm::json::Array entries;
  double roofline = 0, estimated = 0;
  int64_t inefficient = 0;
  for (const KernelEstimate &kernel : kernels) {
    roofline += kernel.rooflineSeconds;
    estimated += kernel.estimatedSeconds;
    if (kernel.efficiency() < 0.5)
      ++inefficient;
    entries.push_back(llvm::json::Object{
        {"location", kernel.location},
        {"op", kernel.opName},
        {"mapping", getMappingName(kernel.mapping)},
        {"blocks", kernel.blocks},
        {"threads_per_block", kernel.threadsPerBlock},
        {"flops", kernel.cost.flops},
        {"bytes", kernel.cost.bytesRead + kernel.cost.bytesWritten},
        {"roofline_s", kernel.rooflineSeconds},
        {"estimated_s", kernel.estimatedSeconds},
        {"parallel_fraction", kernel.parallelFraction},
        {"access_fraction", kernel.accessFraction},
        {"efficiency", kernel.efficiency()}});
  }
  return llvm::json::Object{
      {"target", target.name},
      {"resident_threads", residentThreads},
      {"kernels", std::move(entries)},
      {"summary",
       llvm::json::Object{
           {"kernel_count", static_cast<int64_t>(kernels.size())},
           {"roofline_s", roofline},
           {"estimated_s", estimated},
           {"efficiency", estimated > 0 ? roofline / estimated : 1.0},
           {"kernels_below_half", inefficient}}}};
}
