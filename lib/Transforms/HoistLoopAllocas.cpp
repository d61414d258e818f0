//===- HoistLoopAllocas.cpp - loop-body allocas once per thread ---------===//
//
// Implements `ckpt-hoist-loop-allocas`: static allocas in loop bodies move
// to the start of their omp.parallel region or to the function's entry block
// (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir::ckpt {
#define GEN_PASS_DEF_HOISTLOOPALLOCASPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

bool isLoop(Operation *op) {
  return isa<LoopLikeOpInterface, omp::LoopNestOp, omp::WsloopOp>(op);
}

/// The block whose start runs once per thread for `alloca`: the innermost
/// enclosing omp.parallel region's entry, else the function's entry; null
/// when no loop lies between the alloca and that block.
Block *oncePerThread(memref::AllocaOp alloca, func::FuncOp function) {
  bool inLoop = false;
  for (Operation *parent = alloca->getParentOp(); parent != function;
       parent = parent->getParentOp()) {
    if (auto parallel = dyn_cast<omp::ParallelOp>(parent))
      return inLoop ? &parallel.getRegion().front() : nullptr;
    inLoop |= isLoop(parent);
  }
  return inLoop ? &function.getBody().front() : nullptr;
}

struct HoistLoopAllocasPass
    : public mlir::ckpt::impl::HoistLoopAllocasPassBase<HoistLoopAllocasPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    SmallVector<std::pair<memref::AllocaOp, Block *>> moves;
    function.walk([&](memref::AllocaOp alloca) {
      if (!alloca.getType().hasStaticShape())
        return;
      if (Block *target = oncePerThread(alloca, function))
        moves.emplace_back(alloca, target);
    });
    for (auto [alloca, target] : moves)
      alloca->moveBefore(target, target->begin());
  }
};

} // namespace
