//===- TensorBytes.cpp - sizes of tensors as bufferization allocates them -===//

#include "ckpt/Analysis/TensorBytes.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

std::optional<int64_t> mlir::ckpt::getElementBytes(Type elementType) {
  if (elementType.isIndex())
    return 8;
  if (auto complex = dyn_cast<ComplexType>(elementType)) {
    std::optional<int64_t> part = getElementBytes(complex.getElementType());
    return part ? std::optional<int64_t>(2 * *part) : std::nullopt;
  }
  if (elementType.isIntOrFloat())
    return (elementType.getIntOrFloatBitWidth() + 7) / 8;
  return std::nullopt;
}

std::optional<int64_t> mlir::ckpt::getStaticBytes(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  std::optional<int64_t> elementBytes =
      getElementBytes(shaped.getElementType());
  if (!elementBytes)
    return std::nullopt;
  return shaped.getNumElements() * *elementBytes;
}
