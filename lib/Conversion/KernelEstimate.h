//===- KernelEstimate.h - how well a mapped kernel can use the GPU -*- C++
//-*-===//
//
// ckpt-map-linalg-to-gpu maps each linalg op to a kernel in one of three
// ways. These helpers estimate, before anything runs, what fraction of the
// roofline time (the cost model's FLOPs and bytes at the target's peak rates)
// the chosen mapping can reach, so that naive kernels are visible: too few
// threads to fill the GPU, or threads that each walk their own contiguous
// row so that a warp's loads are 32 different memory sectors.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_CONVERSION_KERNELESTIMATE_H
#define CKPT_LIB_CONVERSION_KERNELESTIMATE_H

#include "ckpt/Analysis/CostModel.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "llvm/Support/JSON.h"

namespace mlir::ckpt {

/// How ckpt-map-linalg-to-gpu runs an op.
enum class KernelMapping {
  /// One thread per output element, no reduction.
  Elementwise,
  /// One thread per output element, reducing sequentially.
  ThreadPerOutput,
  /// One block per output element, threads striding through the reduction.
  BlockReduction,
};

/// The estimate for one kernel.
struct KernelEstimate {
  std::string location;
  std::string opName;
  KernelMapping mapping = KernelMapping::Elementwise;
  int64_t blocks = 0;
  int64_t threadsPerBlock = 0;
  OpCost cost;
  /// Roofline seconds without the launch overhead.
  double rooflineSeconds = 0;
  /// Roofline seconds divided by the mapping's parallel and access
  /// efficiencies.
  double estimatedSeconds = 0;
  /// Fraction of the GPU's resident threads the launch fills (at most 1).
  double parallelFraction = 1;
  /// Fraction of each memory sector fetched that the kernel uses (1 for
  /// coalesced accesses).
  double accessFraction = 1;
  /// rooflineSeconds / estimatedSeconds.
  double efficiency() const {
    return estimatedSeconds > 0 ? rooflineSeconds / estimatedSeconds : 1.0;
  }
};

/// Estimates the kernel `op` becomes under `mapping` with `blocks` blocks of
/// `threadsPerBlock` threads (std::nullopt when the sizes are not static).
/// `residentThreads`: threads the GPU runs at once (SMs x threads per SM).
/// A thread-per-output kernel whose reduction runs along an operand's
/// innermost dimension reads that operand uncoalesced: its memory time is
/// divided by (element bytes / 32-byte sector).
std::optional<KernelEstimate>
estimateKernel(linalg::LinalgOp op, KernelMapping mapping,
               std::optional<int64_t> blocks, int64_t threadsPerBlock,
               const DeviceTarget &target, int64_t residentThreads);

/// The kernel report as JSON: target, per-kernel estimates and a summary
/// (kernel count, summed roofline and estimated seconds, their ratio, the
/// kernels below 50% efficiency).
llvm::json::Value kernelReportToJSON(ArrayRef<KernelEstimate> kernels,
                                     const DeviceTarget &target,
                                     int64_t residentThreads);

} // namespace mlir::ckpt

#endif // CKPT_LIB_CONVERSION_KERNELESTIMATE_H
