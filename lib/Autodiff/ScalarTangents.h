//===- ScalarTangents.h - forward-mode derivatives of scalar code -*- C++
//-*-===//
//
// Differentiates the scalar payload of a linalg op: given the tangent of one
// block argument (1) and zero for the others, builds the tangent of every
// value computed by the payload. Used by ckpt-autodiff to build the body of
// each adjoint op.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_AUTODIFF_SCALARTANGENTS_H
#define CKPT_LIB_AUTODIFF_SCALARTANGENTS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::ckpt {

/// Forward-mode differentiation of straight-line scalar code. Values of the
/// original payload are mapped (through `primal`) to their clones in the
/// block being built; tangents are built next to them. A missing tangent
/// means zero.
class ScalarTangents {
public:
  ScalarTangents(OpBuilder &builder, const IRMapping &primal)
      : builder(builder), primal(primal) {}

  /// Declares the tangent of an original value (typically a block argument).
  void setTangent(Value original, Value tangent) {
    tangents[original] = tangent;
  }

  /// The tangent of an original value, or null when it is zero.
  Value getTangent(Value original) const { return tangents.lookup(original); }

  /// Builds the tangents of the results of `op` (an original payload op) at
  /// the builder's insertion point. Fails, with an error naming the op, for
  /// float-valued ops without a derivative rule.
  LogicalResult differentiate(Operation *op);

private:
  /// The clone of an original value.
  /// Values defined outside the payload (captured constants) are their own
  /// primal.
  Value p(Value original) const { return primal.lookupOrDefault(original); }
  Value constant(Type type, double value, Location loc);

  OpBuilder &builder;
  const IRMapping &primal;
  DenseMap<Value, Value> tangents;
};

} // namespace mlir::ckpt

#endif // CKPT_LIB_AUTODIFF_SCALARTANGENTS_H
