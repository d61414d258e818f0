//===- StridedCopiesToLinalg.cpp - strided copies as loops ----------------===//
//
// Implements `ckpt-strided-copies-to-linalg`: a memref.copy that is not one
// contiguous block becomes a linalg.copy (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/Builders.h"

namespace mlir::ckpt {
#define GEN_PASS_DEF_STRIDEDCOPIESTOLINALGPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

/// Whether the LLVM lowering copies `type` with one memcpy.
bool isOneBlock(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref::isStaticShapeAndContiguousRowMajor(memref);
}

struct StridedCopiesToLinalgPass
    : public mlir::ckpt::impl::StridedCopiesToLinalgPassBase<
          StridedCopiesToLinalgPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (!source || !target || source.getRank() == 0)
        return;
      if (!isOneBlock(source) || !isOneBlock(target))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder builder(copy);
      auto linalgCopy = linalg::CopyOp::create(builder, copy.getLoc(),
                                               ValueRange{copy.getSource()},
                                               ValueRange{copy.getTarget()});
      linalgCopy->setDiscardableAttrs(copy->getDiscardableAttrDictionary());
      copy.erase();
    }
  }
};

} // namespace
