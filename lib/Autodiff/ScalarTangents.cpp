//===- ScalarTangents.cpp - forward-mode derivatives of scalar code -------===//

#include "ScalarTangents.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ckpt;

Value ScalarTangents::constant(Type type, double value, Location loc) {
  return arith::ConstantOp::create(builder, loc, type,
                                   builder.getFloatAttr(type, value));
}

LogicalResult ScalarTangents::differentiate(Operation *op) {
  // Ops without float results carry no tangent (integer and index code,
  // comparisons); the constants of a payload have none either.
  if (op->getNumResults() != 1 || !isa<FloatType>(op->getResult(0).getType()) ||
      isa<arith::ConstantOp>(op))
    return success();
  bool anyTangent = llvm::any_of(op->getOperands(), [&](Value operand) {
    return static_cast<bool>(getTangent(operand));
  });
  if (!anyTangent)
    return success();

  Location loc = op->getLoc();
  Value result = op->getResult(0);
  Type type = result.getType();
  // Helpers on tangents, where null means zero.
  auto add = [&](Value a, Value b) -> Value {
    if (!a)
      return b;
    if (!b)
      return a;
    return arith::AddFOp::create(builder, loc, a, b);
  };
  auto mul = [&](Value a, Value b) -> Value {
    if (!a || !b)
      return Value();
    return arith::MulFOp::create(builder, loc, a, b);
  };
  auto neg = [&](Value a) -> Value {
    return a ? arith::NegFOp::create(builder, loc, a).getResult() : Value();
  };
  auto zeroIfNull = [&](Value a) -> Value {
    return a ? a : constant(type, 0.0, loc);
  };
  auto select = [&](Value cond, Value a, Value b) -> Value {
    if (!a && !b)
      return Value();
    return arith::SelectOp::create(builder, loc, cond, zeroIfNull(a),
                                   zeroIfNull(b));
  };
  auto t = [&](unsigned i) { return getTangent(op->getOperand(i)); };
  auto x = [&](unsigned i) { return p(op->getOperand(i)); };
  Value r = p(result);

  bool handled = true;
  Value tangent =
      llvm::TypeSwitch<Operation *, Value>(op)
          .Case<arith::AddFOp>([&](auto) { return add(t(0), t(1)); })
          .Case<arith::SubFOp>([&](auto) { return add(t(0), neg(t(1))); })
          .Case<arith::NegFOp>([&](auto) { return neg(t(0)); })
          .Case<arith::MulFOp>(
              [&](auto) { return add(mul(t(0), x(1)), mul(x(0), t(1))); })
          .Case<arith::DivFOp>([&](auto) {
            // d(a/b) = da/b - (a/b) db/b
            Value first = t(0) ? arith::DivFOp::create(builder, loc, t(0), x(1))
                                     .getResult()
                               : Value();
            Value second;
            if (t(1))
              second =
                  neg(arith::DivFOp::create(builder, loc, mul(r, t(1)), x(1)));
            return add(first, second);
          })
          .Case<arith::MaximumFOp, arith::MaxNumFOp>([&](auto) {
            Value aWins = arith::CmpFOp::create(
                builder, loc, arith::CmpFPredicate::OGE, x(0), x(1));
            return select(aWins, t(0), t(1));
          })
          .Case<arith::MinimumFOp, arith::MinNumFOp>([&](auto) {
            Value aWins = arith::CmpFOp::create(
                builder, loc, arith::CmpFPredicate::OLE, x(0), x(1));
            return select(aWins, t(0), t(1));
          })
          .Case<arith::SelectOp>(
              [&](arith::SelectOp) { return select(x(0), t(1), t(2)); })
          .Case<arith::ExtFOp>([&](auto) {
            return arith::ExtFOp::create(builder, loc, type, t(0)).getResult();
          })
          .Case<arith::TruncFOp>([&](auto) {
            return arith::TruncFOp::create(builder, loc, type, t(0))
                .getResult();
          })
          .Case<math::ExpOp>([&](auto) { return mul(r, t(0)); })
          .Case<math::LogOp>([&](auto) {
            return arith::DivFOp::create(builder, loc, t(0), x(0)).getResult();
          })
          .Case<math::TanhOp>([&](auto) {
            // d tanh = (1 - tanh^2) dx
            Value one = constant(type, 1.0, loc);
            Value square = arith::MulFOp::create(builder, loc, r, r);
            Value slope = arith::SubFOp::create(builder, loc, one, square);
            return mul(slope, t(0));
          })
          .Case<math::SqrtOp>([&](auto) {
            // d sqrt = dx / (2 sqrt x)
            Value twice = arith::AddFOp::create(builder, loc, r, r);
            return arith::DivFOp::create(builder, loc, t(0), twice).getResult();
          })
          .Case<math::RsqrtOp>([&](auto) {
            // d x^-1/2 = -1/2 x^-3/2 dx = -1/2 r^3 dx
            Value cube = arith::MulFOp::create(
                builder, loc, arith::MulFOp::create(builder, loc, r, r), r);
            Value slope = arith::MulFOp::create(
                builder, loc, constant(type, -0.5, loc), cube);
            return mul(slope, t(0));
          })
          .Case<math::ErfOp>([&](auto) {
            // d erf = 2/sqrt(pi) exp(-x^2) dx
            Value square = arith::MulFOp::create(builder, loc, x(0), x(0));
            Value gauss = math::ExpOp::create(
                builder, loc, arith::NegFOp::create(builder, loc, square));
            Value slope = arith::MulFOp::create(
                builder, loc, constant(type, 2.0 / std::sqrt(M_PI), loc),
                gauss);
            return mul(slope, t(0));
          })
          .Default([&](Operation *) {
            handled = false;
            return Value();
          });
  if (!handled)
    return op->emitOpError("has no derivative rule in ckpt-autodiff");
  if (tangent)
    setTangent(result, tangent);
  return success();
}
