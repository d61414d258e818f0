//===- OutlineLoopNests.cpp - one function per top-level loop nest --------===//
//
// Implements `ckpt-outline-loop-nests`: every loop nest at the top level of a
// function becomes a private, never-inlined function of its own, called where
// the nest was (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::ckpt {
#define GEN_PASS_DEF_OUTLINELOOPNESTSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

/// Whether `op`, directly in a function's body, is a nest to outline: it has
/// regions and no results, and is not isolated from above (a function-like
/// op of its own).
bool isOutlinableNest(Operation &op) {
  return op.getNumRegions() > 0 && op.getNumResults() == 0 &&
         !op.hasTrait<OpTrait::IsIsolatedFromAbove>() &&
         !op.hasTrait<OpTrait::IsTerminator>();
}

/// Constants are cloned into the outlined function rather than passed: the
/// loop bounds and steps stay constants there.
bool isClonedConstant(Value value) {
  Operation *def = value.getDefiningOp();
  return def && def->hasTrait<OpTrait::ConstantLike>() &&
         def->getNumOperands() == 0 && def->getNumRegions() == 0;
}

/// Moves `nest` into a new function `name` (inserted before `parent`) and
/// calls it in its place.
void outline(Operation *nest, func::FuncOp parent, StringRef name,
             SymbolTable &symbols) {
  llvm::SetVector<Value> captured;
  for (Value operand : nest->getOperands())
    captured.insert(operand);
  getUsedValuesDefinedAbove(nest->getRegions(), captured);
  SmallVector<Value> arguments, constants;
  for (Value value : captured)
    (isClonedConstant(value) ? constants : arguments).push_back(value);

  OpBuilder builder(parent);
  Location loc = nest->getLoc();
  auto type = builder.getFunctionType(ValueRange(arguments).getTypes(), {});
  auto callee = func::FuncOp::create(builder, loc, name, type);
  callee.setPrivate();
  MLIRContext *context = builder.getContext();
  callee->setAttr("llvm.linkage",
                  LLVM::LinkageAttr::get(context, LLVM::Linkage::Internal));
  callee->setAttr("passthrough",
                  builder.getArrayAttr({builder.getStringAttr("noinline")}));
  symbols.insert(callee);

  Block *body = callee.addEntryBlock();
  builder.setInsertionPointToStart(body);
  IRMapping mapping;
  for (auto [value, argument] : llvm::zip(arguments, body->getArguments()))
    mapping.map(value, argument);
  for (Value constant : constants)
    mapping.map(constant,
                builder.clone(*constant.getDefiningOp())->getResult(0));
  builder.clone(*nest, mapping);
  func::ReturnOp::create(builder, loc);

  builder.setInsertionPoint(nest);
  func::CallOp::create(builder, loc, callee, arguments);
  nest->erase();
}

struct OutlineLoopNestsPass
    : public mlir::ckpt::impl::OutlineLoopNestsPassBase<OutlineLoopNestsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp function : functions) {
      if (function.isExternal())
        continue;
      SmallVector<Operation *> nests;
      unsigned otherWork = 0;
      for (Block &block : function.getBody())
        for (Operation &op : block) {
          if (isOutlinableNest(op))
            nests.push_back(&op);
          else if (!op.hasTrait<OpTrait::ConstantLike>() &&
                   !op.hasTrait<OpTrait::IsTerminator>())
            ++otherWork;
        }
      // A function that is one nest already (an outlined one) stays: the
      // pass is idempotent.
      if (nests.size() == 1 && otherWork == 0)
        continue;
      for (auto [index, nest] : llvm::enumerate(nests))
        outline(nest, function,
                (function.getSymName() + "__nest" + Twine(index)).str(),
                symbols);
    }
  }
};

} // namespace
