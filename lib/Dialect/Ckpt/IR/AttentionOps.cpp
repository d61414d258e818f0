//===- AttentionOps.cpp - ckpt.attention and ckpt.attention_grad ---------===//
//
// Verifiers and memory effects of the attention ops.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// Checks the operand shapes shared by both ops: `[..., Sq, D]` queries,
/// `[..., Sk, D]` keys, `[..., Sk, Dv]` values, `[..., Sq, Dv]` outputs,
/// `[..., Sq]` log-sum-exps and `[..., Sk]` i1 key masks, one float element
/// type for all but the log-sum-exp (f32 for bf16/f16, else the same type)
/// and the mask.
class AttentionShapes {
public:
  explicit AttentionShapes(Operation *op) : op(op) {}

  LogicalResult check(Value query, Value key, Value value, Value out, Value lse,
                      Value keyMask, double scale) {
    auto queryType = cast<ShapedType>(query.getType());
    elementType = queryType.getElementType();
    isTensorOp = isa<TensorType>(queryType);
    if (!isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(elementType))
      return op->emitOpError("needs f16, bf16, f32 or f64 elements, got ")
             << elementType;
    if (queryType.getRank() < 2)
      return op->emitOpError("needs a query of rank >= 2 ([..., Sq, D]), "
                             "got ")
             << queryType;
    int64_t rank = queryType.getRank();
    // Sizes read from the key and the value only where their rank is the
    // query's (a rank mismatch is reported by checkOperand).
    auto sizeOf = [&](Value operand, int64_t dim) {
      auto type = cast<ShapedType>(operand.getType());
      return type.getRank() == rank ? type.getDimSize(dim)
                                    : ShapedType::kDynamic;
    };
    int64_t sq = queryType.getDimSize(rank - 2);
    int64_t d = queryType.getDimSize(rank - 1);
    int64_t sk = sizeOf(key, rank - 2);
    int64_t dv = sizeOf(value, rank - 1);
    SmallVector<int64_t> batch(queryType.getShape().drop_back(2));
    auto expect = [&](ArrayRef<int64_t> tail) {
      SmallVector<int64_t> shape(batch);
      shape.append(tail.begin(), tail.end());
      return shape;
    };
    if (failed(checkOperand(query, "query", expect({sq, d}), elementType)) ||
        failed(checkOperand(key, "key", expect({sk, d}), elementType)) ||
        failed(checkOperand(value, "value", expect({sk, dv}), elementType)) ||
        failed(checkOperand(out, "out", expect({sq, dv}), elementType)) ||
        failed(checkOperand(lse, "lse", expect({sq}), getLseElementType())))
      return failure();
    if (keyMask && failed(checkOperand(keyMask, "key_mask", expect({sk}),
                                       IntegerType::get(op->getContext(), 1))))
      return failure();
    if (!std::isfinite(scale) || scale == 0.0)
      return op->emitOpError("needs a finite, nonzero scale, got ") << scale;
    return success();
  }

  /// Checks that `operand` has `shape` (dynamic sizes match anything) and
  /// `element`, and is a tensor or memref like the query.
  LogicalResult checkOperand(Value operand, StringRef name,
                             ArrayRef<int64_t> shape, Type element) {
    auto type = cast<ShapedType>(operand.getType());
    if (isa<TensorType>(type) != isTensor())
      return op->emitOpError("mixes tensors and memrefs: '")
             << name << "' is " << type;
    if (type.getElementType() != element)
      return op->emitOpError("needs '")
             << name << "' of element type " << element << ", got " << type;
    if (type.getRank() != static_cast<int64_t>(shape.size()))
      return op->emitOpError("needs '")
             << name << "' of rank " << shape.size() << ", got " << type;
    bool matches = true;
    for (size_t i = 0; matches && i < shape.size(); ++i)
      matches = ShapedType::isDynamic(shape[i]) || type.isDynamicDim(i) ||
                type.getDimSize(i) == shape[i];
    if (!matches) {
      InFlightDiagnostic diag = op->emitOpError("needs '")
                                << name << "' of shape [";
      llvm::interleaveComma(shape, diag, [&](int64_t size) {
        if (ShapedType::isDynamic(size))
          diag << "?";
        else
          diag << size;
      });
      return diag << "], got " << type;
    }
    return success();
  }

  Type getLseElementType() const {
    if (isa<Float16Type, BFloat16Type>(elementType))
      return Float32Type::get(op->getContext());
    return elementType;
  }

  bool isTensor() const { return isTensorOp; }

private:
  Operation *op;
  /// The query's element type and kind (read by check).
  Type elementType;
  bool isTensorOp = true;
};

/// Reads of every memref input and writes of every memref init; nothing on
/// tensors.
void addBufferEffects(
    DestinationStyleOpInterface op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    if (op.isDpsInit(&operand))
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

} // namespace

SmallVector<Operation *> mlir::ckpt::collectAttentionOps(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<AttentionOp, AttentionGradOp>(op))
      ops.push_back(op);
  });
  return ops;
}

LogicalResult mlir::ckpt::checkAttentionElementType(Operation *op,
                                                    StringRef done) {
  Type element = cast<ShapedType>(op->getOperand(0).getType()).getElementType();
  if (isa<Float32Type, Float64Type>(element))
    return success();
  return op->emitOpError("on ")
         << element << " is not " << done << " yet (f32 and f64 are)";
}

bool mlir::ckpt::hasCudaAttentionKernel(Operation *op) {
  auto query = cast<ShapedType>(op->getOperand(0).getType());
  auto value = cast<ShapedType>(op->getOperand(2).getType());
  if (!query.getElementType().isF32() || query.getRank() < 2 ||
      query.getRank() > 4)
    return false;
  auto fits = [](int64_t width) {
    return ShapedType::isDynamic(width) || width <= kCudaAttentionMaxWidth;
  };
  return fits(query.getShape().back()) && fits(value.getShape().back());
}

LogicalResult AttentionOp::verify() {
  AttentionShapes shapes(*this);
  return shapes.check(getQuery(), getKey(), getValue(), getOut(), getLse(),
                      getKeyMask(), getScale().convertToDouble());
}

void AttentionOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addBufferEffects(*this, effects);
}

LogicalResult AttentionGradOp::verify() {
  AttentionShapes shapes(*this);
  if (failed(shapes.check(getQuery(), getKey(), getValue(), getOut(), getLse(),
                          getKeyMask(), getScale().convertToDouble())))
    return failure();
  auto sameAs = [&](Value operand, StringRef name, Value like) {
    auto type = cast<ShapedType>(like.getType());
    return shapes.checkOperand(operand, name, type.getShape(),
                               type.getElementType());
  };
  return success(succeeded(sameAs(getGradOut(), "grad_out", getOut())) &&
                 succeeded(sameAs(getGradQuery(), "grad_query", getQuery())) &&
                 succeeded(sameAs(getGradKey(), "grad_key", getKey())) &&
                 succeeded(sameAs(getGradValue(), "grad_value", getValue())));
}

void AttentionGradOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addBufferEffects(*this, effects);
}
