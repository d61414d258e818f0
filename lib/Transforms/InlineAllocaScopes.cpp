//===- InlineAllocaScopes.cpp - drop alloca scopes that scope nothing -----===//
//
// Implements `ckpt-inline-alloca-scopes`: memref.alloca_scope ops that hold
// no alloca are inlined into their parent (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::ckpt {
#define GEN_PASS_DEF_INLINEALLOCASCOPESPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

struct InlineAllocaScopesPass
    : public mlir::ckpt::impl::InlineAllocaScopesPassBase<
          InlineAllocaScopesPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation()->walk([&](memref::AllocaScopeOp scope) {
      bool allocates =
          scope.getBodyRegion()
              .walk([](memref::AllocaOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
      if (!allocates)
        scopes.push_back(scope);
    });
    for (memref::AllocaScopeOp scope : scopes) {
      Block &body = scope.getBodyRegion().front();
      auto terminator = cast<memref::AllocaScopeReturnOp>(body.getTerminator());
      scope->replaceAllUsesWith(terminator.getResults());
      terminator.erase();
      scope->getBlock()->getOperations().splice(scope->getIterator(),
                                                body.getOperations());
      scope.erase();
    }
  }
};

} // namespace
