//===- ReadOnlyArguments.cpp - the caller's tensors are never written -----===//
//
// Implements `ckpt-read-only-arguments`: every tensor argument of a public
// function is marked `bufferization.writable = false` (see the pass
// description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#define DEBUG_TYPE "ckpt-read-only-arguments"

namespace mlir::ckpt {
#define GEN_PASS_DEF_READONLYARGUMENTSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

struct ReadOnlyArgumentsPass
    : public mlir::ckpt::impl::ReadOnlyArgumentsPassBase<
          ReadOnlyArgumentsPass> {
  void runOnOperation() override {
    auto writable = StringAttr::get(
        &getContext(), bufferization::BufferizationDialect::kWritableAttrName);
    auto readOnly = BoolAttr::get(&getContext(), false);
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      if (function.isExternal() || !function.isPublic())
        continue;
      for (BlockArgument argument : function.getArguments())
        if (isa<TensorType>(argument.getType()) &&
            !function.getArgAttr(argument.getArgNumber(), writable))
          function.setArgAttr(argument.getArgNumber(), writable, readOnly);
    }
  }
};

} // namespace
