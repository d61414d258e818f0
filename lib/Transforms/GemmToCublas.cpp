//===- GemmToCublas.cpp - matmul-like linalg ops to cuBLAS calls ----------===//
//
// Implements `ckpt-gemm-to-cublas`: plain contractions on memrefs become
// calls to the GEMMs of libckpt_cuda_runtime (cuBLAS); everything else is
// left to ckpt-map-linalg-to-gpu.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "ckpt-gemm-to-cublas"

namespace mlir::ckpt {
#define GEN_PASS_DEF_GEMMTOCUBLASPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

/// A contraction the runtime's GEMMs compute: which runtime function, and
/// whether A and B are stored transposed.
struct GemmMatch {
  std::string callee;
  bool transA = false;
  bool transB = false;
};

/// Loop-dimension positions of the results of `map` (all plain dimensions).
std::optional<SmallVector<unsigned>> dimPositions(AffineMap map) {
  SmallVector<unsigned> dims;
  for (AffineExpr expr : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return std::nullopt;
    dims.push_back(dim.getPosition());
  }
  return dims;
}

/// Whether an operand indexed by `dims` is (batch..., first, second) or
/// (batch..., second, first); sets `transposed` accordingly.
bool matchOperand(ArrayRef<unsigned> dims, ArrayRef<unsigned> batch,
                  unsigned first, unsigned second, bool &transposed) {
  if (dims.size() != batch.size() + 2 || dims.take_front(batch.size()) != batch)
    return false;
  ArrayRef<unsigned> matrix = dims.drop_front(batch.size());
  transposed = matrix[0] == second && matrix[1] == first;
  return transposed || (matrix[0] == first && matrix[1] == second);
}

/// Unit innermost stride: the layout cuBLAS reads with a leading dimension.
bool hasUnitInnerStride(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty())
    return false;
  return strides.back() == 1;
}

FailureOr<std::string> calleeFor(linalg::LinalgOp op, Type a, Type b, Type c,
                                 bool batched, bool allowTF32) {
  std::string prefix = batched ? "ckpt_cuda_batch_gemm_" : "ckpt_cuda_gemm_";
  if (a.isF32() && b.isF32() && c.isF32())
    return prefix + (allowTF32 ? "tf32" : "f32");
  if (a.isBF16() && b.isBF16() && c.isF32())
    return prefix + "bf16_f32";
  if (a.isBF16() && b.isBF16() && c.isBF16())
    return prefix + "bf16";
  return failure();
}

FailureOr<GemmMatch> matchGemm(linalg::LinalgOp op, bool allowTF32) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return failure();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->batch.size() > 1 || dims->m.size() != 1 ||
      dims->n.size() != 1 || dims->k.size() != 1 ||
      op.getNumLoops() != 3 + dims->batch.size())
    return failure();

  OpOperand *aOperand = op.getDpsInputOperand(0);
  OpOperand *bOperand = op.getDpsInputOperand(1);
  OpOperand *cOperand = op.getDpsInitOperand(0);
  auto aType = dyn_cast<MemRefType>(aOperand->get().getType());
  auto bType = dyn_cast<MemRefType>(bOperand->get().getType());
  auto cType = dyn_cast<MemRefType>(cOperand->get().getType());
  if (!aType || !bType || !cType || !hasUnitInnerStride(aType) ||
      !hasUnitInnerStride(bType) || !hasUnitInnerStride(cType))
    return failure();

  auto aDims = dimPositions(op.getMatchingIndexingMap(aOperand));
  auto bDims = dimPositions(op.getMatchingIndexingMap(bOperand));
  auto cDims = dimPositions(op.getMatchingIndexingMap(cOperand));
  if (!aDims || !bDims || !cDims)
    return failure();
  SmallVector<unsigned> batch(dims->batch.begin(), dims->batch.end());
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  GemmMatch match;
  bool cTransposed = false;
  if (!matchOperand(*aDims, batch, m, k, match.transA) ||
      !matchOperand(*bDims, batch, k, n, match.transB) ||
      !matchOperand(*cDims, batch, m, n, cTransposed) || cTransposed)
    return failure();

  FailureOr<std::string> callee =
      calleeFor(op, aType.getElementType(), bType.getElementType(),
                cType.getElementType(), !batch.empty(), allowTF32);
  if (failed(callee))
    return failure();
  match.callee = *callee;
  return match;
}

/// `memref<?x?xT, strided<[?, ?], offset: ?>>` of `rank`: the one argument
/// type of each runtime GEMM, whatever the static shape and layout.
MemRefType dynamicStridedType(MemRefType type) {
  int64_t rank = type.getRank();
  SmallVector<int64_t> dynamic(rank, ShapedType::kDynamic);
  auto layout =
      StridedLayoutAttr::get(type.getContext(), ShapedType::kDynamic, dynamic);
  return MemRefType::get(dynamic, type.getElementType(), layout,
                         type.getMemorySpace());
}

/// Declares `name` (private, C interface) in `module` unless it exists.
func::FuncOp getOrDeclare(OpBuilder &builder, ModuleOp module, StringRef name,
                          FunctionType type) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto decl = func::FuncOp::create(builder, module.getLoc(), name, type);
  decl.setPrivate();
  decl->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                builder.getUnitAttr());
  return decl;
}

struct GemmToCublasPass
    : public mlir::ckpt::impl::GemmToCublasPassBase<GemmToCublasPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<linalg::LinalgOp, GemmMatch>> gemms;
    module.walk([&](linalg::LinalgOp op) {
      FailureOr<GemmMatch> match = matchGemm(op, allowTF32);
      if (succeeded(match))
        gemms.emplace_back(op, *match);
      else
        LDBG() << "left to the code generator: " << *op;
    });

    IRRewriter rewriter(&getContext());
    for (auto &[op, match] : gemms) {
      Location loc = op.getLoc();
      rewriter.setInsertionPoint(op);
      SmallVector<Value> args;
      for (Value operand : op->getOperands()) {
        auto type = cast<MemRefType>(operand.getType());
        args.push_back(memref::CastOp::create(
            rewriter, loc, dynamicStridedType(type), operand));
      }
      args.push_back(arith::ConstantIntOp::create(rewriter, loc, match.transA,
                                                  /*width=*/32));
      args.push_back(arith::ConstantIntOp::create(rewriter, loc, match.transB,
                                                  /*width=*/32));
      auto type = rewriter.getFunctionType(ValueRange(args).getTypes(), {});
      func::FuncOp callee = getOrDeclare(rewriter, module, match.callee, type);
      if (callee.getFunctionType() != type) {
        callee.emitError() << "'" << match.callee << "' is declared with type "
                           << callee.getFunctionType() << ", expected " << type;
        return signalPassFailure();
      }
      rewriter.replaceOpWithNewOp<func::CallOp>(op, callee, args);
    }
  }
};

} // namespace
