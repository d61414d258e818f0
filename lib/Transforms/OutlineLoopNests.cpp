//===- OutlineLoopNests.cpp - one function per top-level loop nest --------===//
//
// Implements `ckpt-outline-loop-nests`: every loop nest at the top level of a
// function becomes a private, never-inlined function of its own, called where
// the nest was (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
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

/// The buffer `value` views: the allocation or argument of `parent` it is
/// a view of, through view-like ops; null where it comes from anything
/// else (a call, a global), which may alias any buffer.
Value getViewedBuffer(Value value, func::FuncOp parent) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  if (value.getDefiningOp<memref::AllocOp>() ||
      value.getDefiningOp<memref::AllocaOp>())
    return value;
  auto argument = dyn_cast<BlockArgument>(value);
  if (argument && argument.getOwner() == &parent.getBody().front())
    return value;
  return Value();
}

/// Whether two buffers may share memory: the same buffer, an unknown one,
/// or two arguments (a caller may pass one array twice). Distinct
/// allocations, and an allocation and an argument, do not.
bool mayShareMemory(Value first, Value second) {
  if (!first || !second || first == second)
    return true;
  return isa<BlockArgument>(first) && isa<BlockArgument>(second);
}

/// Whether `nest` may write through `buffer` (a memref it captures): any
/// use other than a load, or a view whose uses are not all loads.
bool mayWriteThrough(Value buffer, Operation *nest) {
  SmallVector<Value> worklist = {buffer};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (!nest->isAncestor(user))
        continue;
      if (isa<memref::LoadOp, memref::DimOp, memref::ExtractStridedMetadataOp,
              vector::LoadOp, vector::TransferReadOp>(user))
        continue;
      auto view = dyn_cast<ViewLikeOpInterface>(user);
      if (view && view.getViewSource() == value) {
        worklist.push_back(view->getResult(0));
        continue;
      }
      return true;
    }
  }
  return false;
}

/// Positions, in the LLVM-dialect signature of a function taking
/// `arguments`, of the pointers that may be `llvm.noalias`: those of each
/// memref whose memory no other argument reaches while either writes it.
/// A ranked memref becomes (allocated, aligned, offset, sizes, strides), an
/// unranked one (rank, descriptor), anything else one argument.
SmallVector<int64_t> getNoAliasPointers(ArrayRef<Value> arguments,
                                        Operation *nest, func::FuncOp parent) {
  SmallVector<Value> buffers;
  SmallVector<bool> written;
  for (Value argument : arguments) {
    bool isMemRef = isa<BaseMemRefType>(argument.getType());
    buffers.push_back(isMemRef ? getViewedBuffer(argument, parent) : Value());
    written.push_back(isMemRef && mayWriteThrough(argument, nest));
  }
  SmallVector<int64_t> positions;
  int64_t position = 0;
  for (auto [index, argument] : llvm::enumerate(arguments)) {
    auto type = dyn_cast<MemRefType>(argument.getType());
    if (!type) {
      position += isa<UnrankedMemRefType>(argument.getType()) ? 2 : 1;
      continue;
    }
    bool alone = llvm::all_of(llvm::enumerate(arguments), [&](auto other) {
      size_t otherIndex = other.index();
      if (otherIndex == index || !isa<BaseMemRefType>(other.value().getType()))
        return true;
      return !(written[index] || written[otherIndex]) ||
             !mayShareMemory(buffers[index], buffers[otherIndex]);
    });
    if (alone) {
      positions.push_back(position);
      positions.push_back(position + 1);
    }
    position += 3 + 2 * type.getRank();
  }
  return positions;
}

/// A new private function `name` (inserted before `parent`) taking
/// `arguments`, internal to the module, with `constants` cloned at its
/// start and `noAlias` as its noalias pointers; `mapping` maps the values
/// given to its arguments and clones. Its body ends in a return, before
/// which the caller clones the outlined ops.
func::FuncOp createOutlinedFunction(func::FuncOp parent, StringRef name,
                                    Location loc, ArrayRef<Value> arguments,
                                    ArrayRef<Value> constants,
                                    ArrayRef<int64_t> noAlias, bool noInline,
                                    SymbolTable &symbols, IRMapping &mapping) {
  OpBuilder builder(parent);
  auto type = builder.getFunctionType(ValueRange(arguments).getTypes(), {});
  auto callee = func::FuncOp::create(builder, loc, name, type);
  callee.setPrivate();
  MLIRContext *context = builder.getContext();
  callee->setAttr("llvm.linkage",
                  LLVM::LinkageAttr::get(context, LLVM::Linkage::Internal));
  if (noInline)
    callee->setAttr("passthrough",
                    builder.getArrayAttr({builder.getStringAttr("noinline")}));
  if (!noAlias.empty())
    callee->setAttr(ckpt::CkptDialect::getNoAliasPointersAttrName(),
                    builder.getDenseI64ArrayAttr(noAlias));
  symbols.insert(callee);

  Block *body = callee.addEntryBlock();
  builder.setInsertionPointToStart(body);
  for (auto [value, argument] : llvm::zip(arguments, body->getArguments()))
    mapping.map(value, argument);
  for (Value constant : constants)
    mapping.map(constant,
                builder.clone(*constant.getDefiningOp())->getResult(0));
  func::ReturnOp::create(builder, loc);
  return callee;
}

/// Splits `captured` into the values passed as arguments (appended to
/// `arguments`) and the constants cloned instead.
void splitCaptured(const llvm::SetVector<Value> &captured,
                   SmallVectorImpl<Value> &arguments,
                   SmallVectorImpl<Value> &constants) {
  for (Value value : captured)
    (isClonedConstant(value) ? constants : arguments).push_back(value);
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
  splitCaptured(captured, arguments, constants);

  Location loc = nest->getLoc();
  IRMapping mapping;
  func::FuncOp callee =
      createOutlinedFunction(parent, name, loc, arguments, constants,
                             getNoAliasPointers(arguments, nest, parent),
                             /*noInline=*/true, symbols, mapping);
  OpBuilder builder(callee.getBody().front().getTerminator());
  builder.clone(*nest, mapping);

  builder.setInsertionPoint(nest);
  func::CallOp::create(builder, loc, callee, arguments);
  nest->erase();
}

/// Moves the body of `loop` (an OpenMP worksharing loop's nest) into a new
/// function `name` taking the loop's induction variables and the values the
/// body captures, and calls it there. The translation to LLVM IR outlines
/// an `omp.parallel` region into a function that receives its buffers
/// through a structure, which tells LLVM nothing about their aliasing: the
/// body gets the noalias pointers of `parent` (the step function, where the
/// buffers are known) as its own arguments, so that its loops vectorize as
/// those of a sequential nest do. The function is not kept from inlining:
/// LLVM's inliner turns noalias arguments into scoped alias metadata.
void outlineParallelBody(omp::LoopNestOp loop, func::FuncOp parent,
                         StringRef name, SymbolTable &symbols) {
  Block &block = loop.getRegion().front();
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(loop.getRegion(), captured);
  SmallVector<Value> arguments(block.getArguments().begin(),
                               block.getArguments().end());
  SmallVector<Value> constants;
  splitCaptured(captured, arguments, constants);

  Location loc = loop.getLoc();
  IRMapping mapping;
  func::FuncOp callee =
      createOutlinedFunction(parent, name, loc, arguments, constants,
                             getNoAliasPointers(arguments, loop, parent),
                             /*noInline=*/false, symbols, mapping);
  OpBuilder builder(callee.getBody().front().getTerminator());
  for (Operation &op : block.without_terminator())
    builder.clone(op, mapping);

  SmallVector<Operation *> moved = llvm::map_to_vector(
      block.without_terminator(), [](Operation &op) { return &op; });
  for (Operation *op : llvm::reverse(moved))
    op->erase();
  builder.setInsertionPoint(block.getTerminator());
  func::CallOp::create(builder, loc, callee, arguments);
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
      for (auto [index, nest] : llvm::enumerate(nests)) {
        std::string name =
            (function.getSymName() + "__nest" + Twine(index)).str();
        SmallVector<omp::LoopNestOp> parallelLoops;
        nest->walk(
            [&](omp::LoopNestOp loop) { parallelLoops.push_back(loop); });
        for (auto [bodyIndex, loop] : llvm::enumerate(parallelLoops))
          outlineParallelBody(loop, function,
                              (name + "_body" + Twine(bodyIndex)).str(),
                              symbols);
        outline(nest, function, name, symbols);
      }
    }
  }
};

} // namespace
