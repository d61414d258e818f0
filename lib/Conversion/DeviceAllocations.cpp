//===- DeviceAllocations.cpp - host buffers to GPU buffers ----------------===//
//
// Implements `ckpt-device-allocations`: after deallocation placement, every
// heap buffer becomes a GPU allocation so that the device memory the program
// needs is what the ckpt CUDA runtime measures.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Conversion/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#define DEBUG_TYPE "ckpt-device-allocations"

namespace mlir::ckpt {
#define GEN_PASS_DEF_DEVICEALLOCATIONSPASS
#include "ckpt/Conversion/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

/// `%t0 = gpu.wait async` : a fresh token for one asynchronous GPU op.
Value createToken(OpBuilder &builder, Location loc) {
  return gpu::WaitOp::create(builder, loc,
                             gpu::AsyncTokenType::get(builder.getContext()),
                             ValueRange())
      .getAsyncToken();
}

/// Blocks the host until `token` completes.
void waitFor(OpBuilder &builder, Location loc, Value token) {
  gpu::WaitOp::create(builder, loc, Type(), ValueRange{token});
}

/// Whether host code may touch the data of the buffer `buffer` (or of a view
/// of it): anything but kernels-to-be (linalg ops, copies), the cuBLAS GEMM
/// calls, views, metadata and frees counts, the function's results first
/// (the caller reads them). Unknown uses count too: such buffers stay in
/// managed memory, which is correct everywhere, only slower.
bool hostTouches(Value buffer, bool resultsOnDevice) {
  SmallVector<Value> worklist{buffer};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      bool deviceOnly =
          isa<linalg::LinalgOp, memref::CopyOp, memref::DeallocOp,
              memref::DimOp, memref::ExtractStridedMetadataOp,
              memref::ExtractAlignedPointerAsIndexOp, bufferization::DeallocOp,
              ViewLikeOpInterface>(user);
      if (auto call = dyn_cast<func::CallOp>(user))
        deviceOnly = call.getCallee().starts_with("ckpt_cuda_");
      if (isa<func::ReturnOp>(user))
        deviceOnly = resultsOnDevice;
      if (!deviceOnly)
        return true;
      // Views (and the base buffer of metadata) alias the buffer.
      for (Value result : user->getResults())
        if (isa<BaseMemRefType>(result.getType()))
          worklist.push_back(result);
    }
  }
  return false;
}

LogicalResult convertAlloc(IRRewriter &rewriter, memref::AllocOp alloc,
                           bool hostShared) {
  MemRefType type = alloc.getType();
  if (!type.getLayout().isIdentity())
    return alloc.emitError()
           << "cannot allocate a buffer with a non-identity layout on the "
              "GPU: "
           << type;
  Location loc = alloc.getLoc();
  rewriter.setInsertionPoint(alloc);
  if (hostShared) {
    // Managed memory is allocated synchronously (the GPU runtime lowering
    // rejects an asynchronous host-shared allocation).
    auto gpuAlloc = gpu::AllocOp::create(
        rewriter, loc, type, /*asyncToken=*/Type(),
        /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
        alloc.getSymbolOperands(), /*hostShared=*/true);
    rewriter.replaceOp(alloc, gpuAlloc.getMemref());
    return success();
  }
  Value token = createToken(rewriter, loc);
  auto gpuAlloc = gpu::AllocOp::create(
      rewriter, loc, type, gpu::AsyncTokenType::get(rewriter.getContext()),
      ValueRange{token}, alloc.getDynamicSizes(), alloc.getSymbolOperands(),
      /*hostShared=*/false);
  waitFor(rewriter, loc, gpuAlloc.getAsyncToken());
  rewriter.replaceOp(alloc, gpuAlloc.getMemref());
  return success();
}

void convertDealloc(IRRewriter &rewriter, memref::DeallocOp dealloc) {
  Location loc = dealloc.getLoc();
  rewriter.setInsertionPoint(dealloc);
  Value token = createToken(rewriter, loc);
  auto gpuDealloc = gpu::DeallocOp::create(
      rewriter, loc, gpu::AsyncTokenType::get(rewriter.getContext()),
      ValueRange{token}, dealloc.getMemref());
  waitFor(rewriter, loc, gpuDealloc.getAsyncToken());
  rewriter.eraseOp(dealloc);
}

struct DeviceAllocationsPass
    : public mlir::ckpt::impl::DeviceAllocationsPassBase<
          DeviceAllocationsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    SmallVector<memref::DeallocOp> deallocs;
    bool failedGlobal = false;
    getOperation()->walk(
        [&](Operation *op) {
          if (auto alloc = dyn_cast<memref::AllocOp>(op))
            allocs.push_back(alloc);
          else if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
            deallocs.push_back(dealloc);
          else if (auto global = dyn_cast<memref::GetGlobalOp>(op);
                   global && global.getType().getRank() > 0) {
            global.emitError()
                << "constant buffer '" << global.getName()
                << "' lives in host memory that GPU kernels cannot read; "
                   "ckpt-gpu-pipeline does not support dense tensor constants "
                   "yet";
            failedGlobal = true;
          }
        });
    if (failedGlobal)
      return signalPassFailure();

    IRRewriter rewriter(&getContext());
    for (memref::AllocOp alloc : allocs)
      if (failed(convertAlloc(
              rewriter, alloc,
              hostShared && hostTouches(alloc.getResult(), resultsOnDevice))))
        return signalPassFailure();
    for (memref::DeallocOp dealloc : deallocs)
      convertDealloc(rewriter, dealloc);
  }
};

} // namespace
