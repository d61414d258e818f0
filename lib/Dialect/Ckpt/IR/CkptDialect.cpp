//===- CkptDialect.cpp - ckpt dialect ---------------------------*- C++ -*-===//
//
// Dialect registration and verification of the ckpt discardable attributes.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ckpt;

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.cpp.inc"
#include "ckpt/Dialect/Ckpt/IR/CkptEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.cpp.inc"

void CkptDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ckpt/Dialect/Ckpt/IR/CkptOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ckpt/Dialect/Ckpt/IR/CkptAttrs.cpp.inc"
      >();
}

void CkptDialect::copyAnnotations(Operation *from, Operation *to) {
  for (NamedAttribute attr : from->getDiscardableAttrs())
    if (isAnnotationName(attr.getName().getValue()) &&
        !to->hasAttr(attr.getName()))
      to->setDiscardableAttr(attr.getName(), attr.getValue());
}

void CkptDialect::removeAnnotations(Operation *op) {
  SmallVector<StringAttr> names;
  for (NamedAttribute attr : op->getDiscardableAttrs())
    if (isAnnotationName(attr.getName().getValue()))
      names.push_back(attr.getName());
  for (StringAttr name : names)
    op->removeDiscardableAttr(name);
}

LogicalResult CkptDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  if (name == getPolicyAttrName()) {
    if (!isa<PolicyAttr>(value))
      return op->emitError()
             << "'" << name
             << "' must be a #ckpt.policy<must_save|prefer_save|"
                "prefer_recompute|must_recompute> attribute";
    if (op->getNumResults() == 0)
      return op->emitError()
             << "'" << name << "' on an op without results has no effect";
    return success();
  }
  if (name == getNameAttrName()) {
    auto str = dyn_cast<StringAttr>(value);
    if (!str || str.getValue().empty())
      return op->emitError() << "'" << name << "' must be a non-empty string";
    return success();
  }
  if (name == getPhaseAttrName()) {
    if (!isa<PhaseAttr>(value))
      return op->emitError()
             << "'" << name
             << "' must be a #ckpt.phase<forward|backward> attribute";
    return success();
  }
  if (name == getDifferentiateAttrName() ||
      name == getResultsPreallocatedAttrName()) {
    if (!isa<UnitAttr>(value))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    if (!isa<FunctionOpInterface>(op))
      return op->emitError() << "'" << name << "' is only valid on functions";
    return success();
  }
  if (name == getNoAliasPointersAttrName()) {
    if (!isa<DenseI64ArrayAttr>(value))
      return op->emitError()
             << "'" << name << "' must be an array<i64: ...> attribute";
    if (!isa<FunctionOpInterface>(op))
      return op->emitError() << "'" << name << "' is only valid on functions";
    return success();
  }
  if (name == getTangentAttrName())
    return op->emitError() << "'" << name
                           << "' is a function argument attribute, not an "
                              "operation attribute";
  return op->emitError() << "unknown ckpt attribute '" << name << "'";
}

LogicalResult CkptDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != getTangentAttrName() && name != getNameAttrName())
    return op->emitError() << "'" << name
                           << "' is not a ckpt argument attribute (expected '"
                           << getTangentAttrName() << "' or '"
                           << getNameAttrName() << "')";
  if (!isa<FunctionOpInterface>(op))
    return op->emitError() << "'" << name
                           << "' is only valid on function arguments";
  auto function = cast<FunctionOpInterface>(op);
  Type argType = function.getArgumentTypes()[argIndex];
  if (name == getNameAttrName()) {
    auto str = dyn_cast<StringAttr>(attr.getValue());
    if (!str || str.getValue().empty())
      return op->emitError() << "'" << name << "' on argument #" << argIndex
                             << " must be a non-empty string";
    return success();
  }
  if (!isa<UnitAttr>(attr.getValue()))
    return op->emitError() << "'" << name << "' on argument #" << argIndex
                           << " must be a unit attribute";
  auto shaped = dyn_cast<ShapedType>(argType);
  if (!isa<FloatType>(argType) &&
      !(shaped && isa<FloatType>(shaped.getElementType())))
    return op->emitError() << "'" << name << "' on argument #" << argIndex
                           << " requires a floating-point argument (a "
                              "cotangent), got "
                           << argType;
  return success();
}

LogicalResult CkptDialect::verifyRegionResultAttribute(Operation *op,
                                                       unsigned regionIndex,
                                                       unsigned resultIndex,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != getNameAttrName())
    return op->emitError() << "'" << name
                           << "' is not a ckpt result attribute (expected '"
                           << getNameAttrName() << "')";
  auto str = dyn_cast<StringAttr>(attr.getValue());
  if (!str || str.getValue().empty())
    return op->emitError() << "'" << name << "' on result #" << resultIndex
                           << " must be a non-empty string";
  return success();
}
