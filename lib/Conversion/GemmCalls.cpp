//===- GemmCalls.cpp - contractions on buffers to runtime GEMM calls ------===//
//
// What ckpt-gemm-to-cublas and ckpt-gemm-to-blas share: the matcher of
// plain contractions (transposed operands and products included) and their
// rewrite into calls of a runtime's GEMMs.
//
//===----------------------------------------------------------------------===//

#include "GemmCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "ckpt-gemm-calls"

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// A contraction the runtime's GEMMs compute: which runtime function, and
/// whether A and B are stored transposed.
struct GemmMatch {
  std::string callee;
  bool transA = false;
  bool transB = false;
  /// The runtime's A is the op's second input and B its first (the op
  /// writes the product transposed, as ckpt-autodiff's matmul gradients do).
  bool swapInputs = false;
  /// Per operand of the op (inputs, then the init): the permutation of its
  /// dimensions that brings the batch dimension first, the others keeping
  /// their order (empty: it is first, or there is none). The runtime gets a
  /// transposed view (memref.transpose, no copy): a batched product whose
  /// operand is laid out (k, batch, n), as attention's are once the
  /// importer's transposes are folded into the maps, is a strided batch.
  SmallVector<SmallVector<int64_t, 3>, 3> batchFirst;
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

/// Unit stride in dimension `dim` (the innermost once the batch dimension
/// is brought first): the layout BLAS reads with a leading dimension.
bool hasUnitStride(MemRefType type, unsigned dim) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      dim >= strides.size())
    return false;
  return strides[dim] == 1;
}

/// Brings loop dimension `batchDim` first in `dims` (an operand's loop
/// dimensions in memory order), the others keeping their order; returns the
/// permutation of the operand's dimensions (empty when it was first), or
/// std::nullopt when the operand does not have that dimension.
std::optional<SmallVector<int64_t, 3>>
bringBatchFirst(SmallVector<unsigned> &dims, unsigned batchDim) {
  auto it = llvm::find(dims, batchDim);
  if (it == dims.end())
    return std::nullopt;
  int64_t position = it - dims.begin();
  if (position == 0)
    return SmallVector<int64_t, 3>();
  SmallVector<int64_t, 3> permutation = {position};
  for (int64_t index = 0, e = dims.size(); index < e; ++index)
    if (index != position)
      permutation.push_back(index);
  applyPermutationToVector(dims, permutation);
  return permutation;
}

FailureOr<GemmMatch> matchGemm(linalg::LinalgOp op,
                               const GemmLibrary &library) {
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
  if (!aType || !bType || !cType)
    return failure();

  auto aDims = dimPositions(op.getMatchingIndexingMap(aOperand));
  auto bDims = dimPositions(op.getMatchingIndexingMap(bOperand));
  auto cDims = dimPositions(op.getMatchingIndexingMap(cOperand));
  if (!aDims || !bDims || !cDims)
    return failure();
  SmallVector<unsigned> batch(dims->batch.begin(), dims->batch.end());
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  GemmMatch match;
  for (auto [operandDims, type] : llvm::zip_equal(
           std::array<SmallVector<unsigned> *, 3>{&*aDims, &*bDims, &*cDims},
           std::array<MemRefType, 3>{aType, bType, cType})) {
    SmallVector<int64_t, 3> permutation;
    if (!batch.empty()) {
      std::optional<SmallVector<int64_t, 3>> found =
          bringBatchFirst(*operandDims, batch[0]);
      if (!found)
        return failure();
      permutation = *found;
    }
    unsigned inner =
        permutation.empty() ? type.getRank() - 1 : permutation.back();
    if (!hasUnitStride(type, inner))
      return failure();
    match.batchFirst.push_back(permutation);
  }
  bool cTransposed = false;
  if (!matchOperand(*aDims, batch, m, k, match.transA) ||
      !matchOperand(*bDims, batch, k, n, match.transB) ||
      !matchOperand(*cDims, batch, m, n, cTransposed))
    return failure();
  if (cTransposed) {
    // C stored as (n, m) is the product of the inputs taken the other way
    // round: C = op(B') op(A') with B' the second input, A' the first.
    std::swap(m, n);
    match.swapInputs = true;
    if (!matchOperand(*bDims, batch, m, k, match.transA) ||
        !matchOperand(*aDims, batch, k, n, match.transB))
      return failure();
  }

  FailureOr<std::string> variant = library.variant(
      aType.getElementType(), bType.getElementType(), cType.getElementType());
  if (failed(variant))
    return failure();
  match.callee =
      library.prefix + (batch.empty() ? "gemm_" : "batch_gemm_") + *variant;
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

/// Simplifies the payload of `op`, a generic on buffers (folds such as
/// `1.0 * x`, dead ops), and drops the inputs it no longer reads.
/// Differentiated matmuls come out of ckpt-autodiff as generics that also
/// take the forward's operands and compute `out + (1.0 * a) * b` next to
/// dead products; this makes them the two-input contractions a GEMM takes,
/// and saves every other generic the loads of inputs it ignores. An input
/// that is read for its shape alone (a pooling window, which gives the
/// window loops their bounds) stays: without it the loop bounds could not
/// be derived from the operands.
void simplifyGeneric(IRRewriter &rewriter, linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics())
    return;
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  (void)applyPatternsGreedily(op.getRegion(),
                              RewritePatternSet(op.getContext()), config);
  Block *body = op.getBody();
  // Every operand starts kept; an unread input is dropped when the maps of
  // what remains still give every loop its bound.
  SmallVector<bool> kept(op->getNumOperands(), true);
  auto boundsDerivable = [&]() {
    SmallVector<AffineMap> remaining;
    for (OpOperand &operand : op->getOpOperands())
      if (kept[operand.getOperandNumber()])
        remaining.push_back(op.getMatchingIndexingMap(&operand));
    return static_cast<bool>(
        inversePermutation(concatAffineMaps(remaining, op.getContext())));
  };
  BitVector unused(body->getNumArguments());
  for (OpOperand *input : op.getDpsInputOperands()) {
    unsigned number = input->getOperandNumber();
    if (!body->getArgument(number).use_empty())
      continue;
    kept[number] = false;
    if (boundsDerivable())
      unused.set(number);
    else
      kept[number] = true;
  }
  if (unused.none())
    return;
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (unused.test(input->getOperandNumber()))
      continue;
    inputs.push_back(input->get());
    maps.push_back(op.getMatchingIndexingMap(input));
  }
  for (OpOperand &init : op.getDpsInitsMutable())
    maps.push_back(op.getMatchingIndexingMap(&init));
  rewriter.setInsertionPoint(op);
  auto simplified = linalg::GenericOp::create(
      rewriter, op.getLoc(), TypeRange(), inputs, op.getDpsInits(), maps,
      op.getIteratorTypesArray());
  simplified->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  rewriter.inlineRegionBefore(op.getRegion(), simplified.getRegion(),
                              simplified.getRegion().end());
  simplified.getBody()->eraseArguments(unused);
  rewriter.eraseOp(op);
}

} // namespace

LogicalResult mlir::ckpt::rewriteGemmsToCalls(ModuleOp module,
                                              const GemmLibrary &library) {
  IRRewriter rewriter(module.getContext());
  SmallVector<linalg::GenericOp> generics;
  module.walk([&](linalg::GenericOp op) { generics.push_back(op); });
  for (linalg::GenericOp op : generics)
    simplifyGeneric(rewriter, op);

  SmallVector<std::pair<linalg::LinalgOp, GemmMatch>> gemms;
  module.walk([&](linalg::LinalgOp op) {
    FailureOr<GemmMatch> match = matchGemm(op, library);
    if (succeeded(match))
      gemms.emplace_back(op, *match);
    else
      LDBG() << "left to the code generator: " << *op;
  });

  for (auto &[op, match] : gemms) {
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    SmallVector<Value> operands = op->getOperands();
    for (auto [operand, permutation] :
         llvm::zip_equal(operands, match.batchFirst))
      if (!permutation.empty())
        operand = memref::TransposeOp::create(
            rewriter, loc, operand,
            AffineMapAttr::get(AffineMap::getPermutationMap(
                permutation, rewriter.getContext())));
    if (match.swapInputs)
      std::swap(operands[0], operands[1]);
    SmallVector<Value> args;
    for (Value operand : operands) {
      auto type = cast<MemRefType>(operand.getType());
      args.push_back(memref::CastOp::create(rewriter, loc,
                                            dynamicStridedType(type), operand));
    }
    args.push_back(arith::ConstantIntOp::create(rewriter, loc, match.transA,
                                                /*width=*/32));
    args.push_back(arith::ConstantIntOp::create(rewriter, loc, match.transB,
                                                /*width=*/32));
    for (int32_t value : library.trailingArguments)
      args.push_back(
          arith::ConstantIntOp::create(rewriter, loc, value, /*width=*/32));
    auto type = rewriter.getFunctionType(ValueRange(args).getTypes(), {});
    func::FuncOp callee =
        getOrDeclareRuntimeFunction(rewriter, module, match.callee, type);
    if (callee.getFunctionType() != type) {
      return callee.emitError()
             << "'" << match.callee << "' is declared with type "
             << callee.getFunctionType() << ", expected " << type;
    }
    rewriter.replaceOpWithNewOp<func::CallOp>(op, callee, args);
  }
  return success();
}

func::FuncOp mlir::ckpt::getOrDeclareRuntimeFunction(OpBuilder &builder,
                                                     ModuleOp module,
                                                     StringRef name,
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
