//===- AttentionToCuda.cpp - attention ops to fused CUDA kernel calls -----===//
//
// Implements `ckpt-attention-to-cuda`: ckpt.attention and ckpt.attention_grad
// on memrefs become calls to libckpt_cuda_runtime's fused attention
// (lib/Runtime/CUDA/Attention.cpp), each operand passed as a rank-4 (rows of
// a width) or rank-3 (rows) view.
//
//===----------------------------------------------------------------------===//

#include "GemmCalls.h"

#include "ckpt/Conversion/Passes.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::ckpt {
#define GEN_PASS_DEF_ATTENTIONTOCUDAPASS
#include "ckpt/Conversion/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// `buffer` (rank r <= rank) as a fully dynamic strided memref of `rank`:
/// the same base, offset and sizes/strides with unit leading sizes added.
Value viewOfRank(OpBuilder &builder, Location loc, Value buffer, int64_t rank) {
  auto type = cast<MemRefType>(buffer.getType());
  auto metadata =
      memref::ExtractStridedMetadataOp::create(builder, loc, buffer);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  SmallVector<OpFoldResult> sizes, strides;
  for (int64_t d = type.getRank(); d < rank; ++d) {
    sizes.push_back(one);
    strides.push_back(zero);
  }
  for (auto [size, stride] :
       llvm::zip_equal(metadata.getSizes(), metadata.getStrides())) {
    sizes.push_back(size);
    strides.push_back(stride);
  }
  SmallVector<int64_t> dynamic(rank, ShapedType::kDynamic);
  auto layout = StridedLayoutAttr::get(builder.getContext(),
                                       ShapedType::kDynamic, dynamic);
  auto viewType = MemRefType::get(dynamic, type.getElementType(), layout,
                                  type.getMemorySpace());
  return memref::ReinterpretCastOp::create(
      builder, loc, viewType, metadata.getBaseBuffer(),
      OpFoldResult(metadata.getOffset()), sizes, strides);
}

/// Replaces `op` by a call to `<base>[_masked]_f32` with its matrix
/// operands (`rows`, as rank-4 views), its row operands (`rowVectors`, as
/// rank-3 views) in operand order, then the key mask, causal and scale.
LogicalResult replaceByCall(IRRewriter &rewriter, ModuleOp module,
                            Operation *op, StringRef base, Value keyMask,
                            bool causal, double scale) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  int64_t queryRank = cast<MemRefType>(op->getOperand(0).getType()).getRank();
  SmallVector<Value> args;
  for (Value operand : op->getOperands()) {
    if (operand == keyMask)
      continue;
    // The log-sum-exp is the one operand of the query's rank minus one.
    bool rowVector =
        cast<MemRefType>(operand.getType()).getRank() == queryRank - 1;
    args.push_back(viewOfRank(rewriter, loc, operand, rowVector ? 3 : 4));
  }
  if (keyMask)
    args.push_back(viewOfRank(rewriter, loc, keyMask, 3));
  args.push_back(
      arith::ConstantIntOp::create(rewriter, loc, causal ? 1 : 0, 32));
  args.push_back(arith::ConstantFloatOp::create(
      rewriter, loc, rewriter.getF64Type(), APFloat(scale)));
  std::string name = (base + (keyMask ? "_masked" : "") + "_f32").str();
  auto type = rewriter.getFunctionType(ValueRange(args).getTypes(), {});
  func::FuncOp callee =
      getOrDeclareRuntimeFunction(rewriter, module, name, type);
  if (callee.getFunctionType() != type)
    return op->emitOpError("cannot call '")
           << name << "': it is declared with type " << callee.getFunctionType()
           << ", expected " << type;
  rewriter.replaceOpWithNewOp<func::CallOp>(op, callee, args);
  return success();
}

struct AttentionToCudaPass
    : public mlir::ckpt::impl::AttentionToCudaPassBase<AttentionToCudaPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    IRRewriter rewriter(&getContext());
    for (Operation *op : collectAttentionOps(module)) {
      if (!cast<DestinationStyleOpInterface>(op).hasPureBufferSemantics()) {
        op->emitOpError("must be on memrefs for ckpt-attention-to-cuda "
                        "(bufferize first)");
        return signalPassFailure();
      }
      if (!hasCudaAttentionKernel(op)) {
        op->emitOpError("has no fused CUDA kernel (f32, query of rank 2 to "
                        "4, head widths up to ")
            << kCudaAttentionMaxWidth
            << "); decompose it first (ckpt-decompose-attention "
               "keep-cuda-kernels)";
        return signalPassFailure();
      }
      LogicalResult replaced = failure();
      if (auto forward = dyn_cast<AttentionOp>(op))
        replaced = replaceByCall(rewriter, module, op, "ckpt_cuda_attention",
                                 forward.getKeyMask(), forward.getCausal(),
                                 forward.getScale().convertToDouble());
      else if (auto grad = dyn_cast<AttentionGradOp>(op))
        replaced = replaceByCall(
            rewriter, module, op, "ckpt_cuda_attention_grad", grad.getKeyMask(),
            grad.getCausal(), grad.getScale().convertToDouble());
      if (failed(replaced))
        return signalPassFailure();
    }
  }
};

} // namespace
