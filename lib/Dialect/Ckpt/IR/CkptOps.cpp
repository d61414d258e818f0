//===- CkptOps.cpp - ckpt dialect operations --------------------*- C++ -*-===//
//
// Assembly format, verifiers and memory effects of the ckpt region ops.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::ckpt;

//===----------------------------------------------------------------------===//
// Shared assembly format:
//   (%arg = %operand : type, ...) -> (result types) { body } attributes {...}
//===----------------------------------------------------------------------===//

ParseResult mlir::ckpt::detail::parseRegionOp(OpAsmParser &parser,
                                              OperationState &result) {
  SmallVector<OpAsmParser::Argument> regionArgs;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> operandTypes;
  auto parseBinding = [&]() -> ParseResult {
    OpAsmParser::Argument arg;
    OpAsmParser::UnresolvedOperand operand;
    if (parser.parseArgument(arg) || parser.parseEqual() ||
        parser.parseOperand(operand) || parser.parseColonType(arg.type))
      return failure();
    regionArgs.push_back(arg);
    operands.push_back(operand);
    operandTypes.push_back(arg.type);
    return success();
  };
  llvm::SMLoc operandsLoc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                     parseBinding) ||
      parser.parseOptionalArrowTypeList(result.types) ||
      parser.resolveOperands(operands, operandTypes, operandsLoc,
                             result.operands))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, regionArgs, /*enableNameShadowing=*/false) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return success();
}

void mlir::ckpt::detail::printRegionOp(OpAsmPrinter &p, Operation *op) {
  Region &body = op->getRegion(0);
  p << "(";
  llvm::interleaveComma(
      llvm::zip(body.getArguments(), op->getOperands()), p, [&](auto binding) {
        auto [arg, operand] = binding;
        p << arg << " = " << operand << " : " << operand.getType();
      });
  p << ")";
  p.printOptionalArrowTypeList(op->getResultTypes());
  p << " ";
  p.printRegion(body, /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
  p.printOptionalAttrDictWithKeyword(op->getAttrs());
}

//===----------------------------------------------------------------------===//
// Shared verification
//===----------------------------------------------------------------------===//

/// Returns true when `type` is a tensor (resp. memref) type.
static bool isTensor(Type type) { return isa<TensorType>(type); }
static bool isBuffer(Type type) { return isa<BaseMemRefType>(type); }

/// Follows view-like ops (subviews, casts, reshapes) back to the value whose
/// memory they view.
static Value getViewRoot(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

std::optional<SmallVector<MemoryEffects::EffectInstance>>
mlir::ckpt::getRecomputeEffects(Operation *op) {
  SmallVector<MemoryEffects::EffectInstance> effects;
  SmallVector<Operation *> worklist{op};
  while (!worklist.empty()) {
    Operation *current = worklist.pop_back_val();
    if (isa<cf::AssertOp>(current))
      continue;
    bool recursive = current->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
    if (auto interface = dyn_cast<MemoryEffectOpInterface>(current))
      interface.getEffects(effects);
    else if (!recursive)
      return std::nullopt;
    if (!recursive)
      continue;
    for (Region &region : current->getRegions())
      for (Block &block : region)
        for (Operation &inner : block)
          worklist.push_back(&inner);
  }
  return effects;
}

// On tensors the body may only hold ops whose only memory effect is
// allocation; on buffers, additionally reads anywhere and writes into buffers
// the region owns.
LogicalResult mlir::ckpt::detail::verifyRegionOp(Operation *op) {
  Block &block = op->getRegion(0).front();
  if (block.getNumArguments() != op->getNumOperands())
    return op->emitOpError("has ")
           << op->getNumOperands() << " inputs but its region has "
           << block.getNumArguments() << " arguments";
  for (auto [index, pair] : llvm::enumerate(
           llvm::zip(op->getOperandTypes(), block.getArgumentTypes()))) {
    auto [operandType, argType] = pair;
    if (operandType != argType)
      return op->emitOpError("input #")
             << index << " has type " << operandType
             << " but the region argument has type " << argType;
  }

  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return op->emitOpError("region must end with 'ckpt.yield'");
  if (yield.getValues().size() != op->getNumResults())
    return yield.emitOpError("yields ")
           << yield.getValues().size() << " values but the parent has "
           << op->getNumResults() << " results";
  for (auto [index, pair] : llvm::enumerate(
           llvm::zip(yield.getValues().getTypes(), op->getResultTypes()))) {
    auto [yieldedType, resultType] = pair;
    if (yieldedType != resultType)
      return yield.emitOpError("value #")
             << index << " has type " << yieldedType
             << " but the parent's result has type " << resultType;
  }

  bool bufferForm = llvm::any_of(op->getOperandTypes(), isBuffer) ||
                    llvm::any_of(op->getResultTypes(), isBuffer);
  bool tensorForm = llvm::any_of(op->getOperandTypes(), isTensor) ||
                    llvm::any_of(op->getResultTypes(), isTensor);
  if (bufferForm && tensorForm)
    return op->emitOpError(
        "mixes tensor and memref inputs/results; it must be entirely on "
        "tensors (before bufferization) or on memrefs (after)");

  for (Operation &inner : block.without_terminator()) {
    // A nested recompute region verifies its own body.
    if (isa<RecomputeOp>(inner))
      continue;
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getRecomputeEffects(&inner);
    if (!effects) {
      InFlightDiagnostic diag =
          inner.emitOpError("has unknown memory effects and cannot be "
                            "recomputed inside '")
          << op->getName() << "'";
      diag.attachNote(op->getLoc()) << "enclosing region";
      return diag;
    }
    for (const MemoryEffects::EffectInstance &effect : *effects) {
      if (isa<MemoryEffects::Allocate>(effect.getEffect()))
        continue;
      if (bufferForm && isa<MemoryEffects::Read>(effect.getEffect()))
        continue;
      if (bufferForm && isa<MemoryEffects::Write>(effect.getEffect()) &&
          effect.getValue()) {
        auto root = dyn_cast<BlockArgument>(getViewRoot(effect.getValue()));
        if (!root || root.getOwner() != &block)
          continue;
        if (auto recompute = dyn_cast<RecomputeOp>(op);
            recompute && isDonatedInput(recompute, root.getArgNumber()))
          continue;
        InFlightDiagnostic diag =
            inner.emitOpError("writes into region input #")
            << root.getArgNumber() << " of '" << op->getName()
            << "'; recomputation must leave the values it starts from "
               "unchanged";
        diag.attachNote(op->getLoc()) << "enclosing region";
        return diag;
      }
      InFlightDiagnostic diag =
          inner.emitOpError("has a memory effect other than allocation and "
                            "cannot be recomputed inside '")
          << op->getName() << "'";
      diag.attachNote(op->getLoc()) << "enclosing region";
      return diag;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// RecomputeOp
//===----------------------------------------------------------------------===//

LogicalResult RecomputeOp::verify() {
  if (getNumResults() == 0)
    return emitOpError("must recompute at least one value");
  if (std::optional<ArrayRef<int64_t>> donated = getDonated()) {
    int64_t previous = -1;
    for (int64_t index : *donated) {
      if (index <= previous || index >= static_cast<int64_t>(getNumOperands()))
        return emitOpError("donated inputs must be increasing positions in "
                           "[0, ")
               << getNumOperands() << "), got " << index;
      if (!isa<TensorType, BaseMemRefType>(getOperand(index).getType()))
        return emitOpError("donates input #")
               << index << " of type " << getOperand(index).getType()
               << ", which has no buffer";
      previous = index;
    }
  }
  return success();
}

bool mlir::ckpt::isDonatedInput(RecomputeOp op, unsigned index) {
  std::optional<ArrayRef<int64_t>> donated = op.getDonated();
  return donated && llvm::is_contained(*donated, index);
}

void RecomputeOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // Each recomputed value is a fresh allocation: this keeps CSE from merging
  // the clone with its original or with another clone, and lets DCE remove
  // the op once its results are unused.
  for (OpResult result : getOperation()->getResults())
    effects.emplace_back(MemoryEffects::Allocate::get(), result,
                         SideEffects::DefaultResource::get());
  for (OpOperand &input : getInputsMutable()) {
    if (!isBuffer(input.get().getType()))
      continue;
    effects.emplace_back(MemoryEffects::Read::get(), &input,
                         SideEffects::DefaultResource::get());
    // The region may write into a donated input's buffer.
    if (isDonatedInput(*this, input.getOperandNumber()))
      effects.emplace_back(MemoryEffects::Write::get(), &input,
                           SideEffects::DefaultResource::get());
  }
}

//===----------------------------------------------------------------------===//
// CheckpointOp
//===----------------------------------------------------------------------===//

LogicalResult CheckpointOp::verify() {
  if (getNumResults() == 0)
    return emitOpError("must produce at least one value");
  auto isBufferValue = [](Value v) { return isBuffer(v.getType()); };
  if (llvm::any_of(getOperands(), isBufferValue) ||
      llvm::any_of(getResults(), isBufferValue))
    return emitOpError("works on tensors only; expand it with ckpt-remat "
                       "before bufferization");
  return success();
}

//===----------------------------------------------------------------------===//
// RandomUniformOp
//===----------------------------------------------------------------------===//

LogicalResult RandomUniformOp::verify() {
  if (!getType().hasStaticShape())
    return emitOpError("needs a statically shaped result, got ") << getType();
  return success();
}

#define GET_OP_CLASSES
#include "ckpt/Dialect/Ckpt/IR/CkptOps.cpp.inc"
