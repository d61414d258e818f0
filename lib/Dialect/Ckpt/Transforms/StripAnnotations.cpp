//===- StripAnnotations.cpp - remove ckpt discardable attributes ----------===//
//
// Implements `ckpt-strip-annotations`.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#define DEBUG_TYPE "ckpt-strip-annotations"

namespace mlir::ckpt {
#define GEN_PASS_DEF_STRIPANNOTATIONSPASS
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

struct StripAnnotationsPass
    : public mlir::ckpt::impl::StripAnnotationsPassBase<StripAnnotationsPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      CkptDialect::removeAnnotations(op);

      auto function = dyn_cast<FunctionOpInterface>(op);
      if (!function)
        return;
      for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i)
        for (NamedAttribute attr : function.getArgAttrs(i))
          if (CkptDialect::isAnnotationName(attr.getName().getValue()))
            function.removeArgAttr(i, attr.getName());
      for (unsigned i = 0, e = function.getNumResults(); i < e; ++i)
        for (NamedAttribute attr : function.getResultAttrs(i))
          if (CkptDialect::isAnnotationName(attr.getName().getValue()))
            function.removeResultAttr(i, attr.getName());
    });
  }
};

} // namespace
