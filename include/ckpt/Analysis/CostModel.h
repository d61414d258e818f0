//===- CostModel.h - FLOPs, bytes and time of tensor ops --------*- C++ -*-===//
//
// What an op costs: floating-point operations, bytes read and written, and an
// estimated time on a device target by a roofline (the larger of compute time
// and memory time) plus a per-kernel launch overhead.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_ANALYSIS_COSTMODEL_H
#define CKPT_ANALYSIS_COSTMODEL_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::ckpt {

/// Published peak figures of a device. Rates are dense (no sparsity).
struct DeviceTarget {
  /// Name used in reports (`h100-sxm`, or the JSON file's `name`).
  std::string name;
  /// Peak floating-point operations per second by precision.
  double fp64FlopsPerSecond = 0;
  double fp32FlopsPerSecond = 0;
  /// TF32 tensor-core rate, used for f32 contractions when allowed.
  double tf32FlopsPerSecond = 0;
  double bf16FlopsPerSecond = 0;
  double fp16FlopsPerSecond = 0;
  /// Device memory bandwidth (HBM on GPUs, DRAM on CPUs).
  double memoryBandwidthBytesPerSecond = 0;
  /// Host link bandwidth (PCIe) for transfers and offloading.
  double hostLinkBytesPerSecond = 0;
  /// Fixed cost of launching one kernel.
  double kernelLaunchOverheadSeconds = 0;
};

/// Names of the built-in targets: `h100-sxm`, `h200`, `a100-80g`, `cpu`.
std::vector<llvm::StringRef> getBuiltinTargetNames();

/// Returns the built-in target `nameOrPath`, or reads a target from the JSON
/// file at that path:
/// `{"name": "my-gpu", "peak_flops_per_s": {"fp32": 6.7e13, "fp64": ...,
///   "tf32": ..., "bf16": ..., "fp16": ...},
///   "memory_bandwidth_bytes_per_s": 3.35e12, "host_link_bytes_per_s": 6.4e10,
///   "kernel_launch_overhead_s": 3e-6}`.
/// `fp32` and the memory bandwidth are required and positive; missing rates
/// default to the fp32 rate, a missing host link to the memory bandwidth and
/// a missing launch overhead to 0. The error names the problem.
llvm::Expected<DeviceTarget> lookupDeviceTarget(llvm::StringRef nameOrPath);

/// The cost of executing one op once.
struct OpCost {
  /// Floating-point operations (integer and index arithmetic is not counted).
  int64_t flops = 0;
  /// Bytes loaded from operands.
  int64_t bytesRead = 0;
  /// Bytes stored into results.
  int64_t bytesWritten = 0;
  /// Kernels the op launches on a device (0 for views and metadata ops).
  int64_t kernelLaunches = 0;
  /// Estimated seconds on the target.
  double estimatedSeconds = 0;

  OpCost &operator+=(const OpCost &other);
};

/// Options of the cost model.
struct CostModelOptions {
  /// Let f32 contractions run at the TF32 tensor-core rate.
  bool allowTF32 = false;
};

/// Estimates the cost of `op` on `target`:
/// - linalg ops (named or generic, on tensors or memrefs): the iteration
///   domain size times the weighted floating-point ops of the payload
///   (add/sub/mul/div/neg/min/max/compare/select/fma count 1 (fma 2),
///   sqrt/rsqrt 2, transcendental math functions such as exp, log, tanh, erf
///   8), so a matmul costs 2*M*N*K and a convolution 2 x output size x window
///   x input channels; fill, copy, transpose and broadcast cost 0 FLOPs.
///   Bytes: every input, the outputs written and the outputs read when the
///   payload uses them.
/// - elementwise arith/math ops on whole tensors: one payload op per element,
///   reading the operands and writing the result;
/// - tensor views (extract_slice, reshapes, casts) and constants cost
///   nothing; copies (insert_slice, concat, pad) move their bytes.
/// - ckpt.recompute and loops cost their bodies (loops times a static trip
///   count).
/// Time is a roofline: max(FLOPs / peak rate for the element type, bytes /
/// memory bandwidth) plus the launch overhead per kernel.
OpCost estimateOpCost(Operation *op, const DeviceTarget &target,
                      const CostModelOptions &options = {});

} // namespace mlir::ckpt

#endif // CKPT_ANALYSIS_COSTMODEL_H
