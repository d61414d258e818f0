//===- ApplyNoAliasPointers.cpp - llvm.noalias on recorded pointers -------===//
//
// Implements `ckpt-apply-noalias-pointers`: the pointer arguments an
// `llvm.func` lists in `ckpt.noalias_pointers` (recorded before the
// conversion to the LLVM dialect, which drops `llvm.noalias` from memref
// arguments it expands into descriptors) are marked `llvm.noalias`.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::ckpt {
#define GEN_PASS_DEF_APPLYNOALIASPOINTERSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

struct ApplyNoAliasPointersPass
    : public mlir::ckpt::impl::ApplyNoAliasPointersPassBase<
          ApplyNoAliasPointersPass> {
  void runOnOperation() override {
    bool failedAny = false;
    getOperation().walk([&](LLVM::LLVMFuncOp function) {
      auto positions = function->getAttrOfType<DenseI64ArrayAttr>(
          ckpt::CkptDialect::getNoAliasPointersAttrName());
      if (!positions)
        return;
      function->removeAttr(ckpt::CkptDialect::getNoAliasPointersAttrName());
      unsigned numArguments = function.getNumArguments();
      for (int64_t position : positions.asArrayRef()) {
        if (position < 0 || position >= numArguments ||
            !isa<LLVM::LLVMPointerType>(
                function.getArgumentTypes()[position])) {
          function.emitError()
              << ckpt::CkptDialect::getNoAliasPointersAttrName()
              << " names argument " << position
              << ", which is not a pointer argument";
          failedAny = true;
          return;
        }
        function.setArgAttr(position, LLVM::LLVMDialect::getNoAliasAttrName(),
                            UnitAttr::get(function.getContext()));
      }
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
