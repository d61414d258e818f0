//===- BooleansAsBytes.cpp - i1 memory accesses as byte accesses ----------===//
//
// Implements `ckpt-booleans-as-bytes`: on the LLVM dialect, every scalar
// `llvm.load` of an i1 becomes a load of the byte holding it and a
// truncation, every `llvm.store` of an i1 a zero extension and a byte store
// (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::ckpt {
#define GEN_PASS_DEF_BOOLEANSASBYTESPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

bool isBoolean(Type type) { return type.isInteger(1); }

struct BooleansAsBytesPass
    : public mlir::ckpt::impl::BooleansAsBytesPassBase<BooleansAsBytesPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    Type byte = IntegerType::get(context, 8);
    Type boolean = IntegerType::get(context, 1);
    getOperation().walk([&](Operation *op) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
        if (!isBoolean(load.getType()))
          return;
        // The load reads the byte; the boolean is its low bit, as the
        // stores below write it.
        load.getResult().setType(byte);
        OpBuilder builder(context);
        builder.setInsertionPointAfter(load);
        auto truncated =
            LLVM::TruncOp::create(builder, load.getLoc(), boolean, load);
        load.getResult().replaceAllUsesExcept(truncated, truncated);
        return;
      }
      if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
        if (!isBoolean(store.getValue().getType()))
          return;
        OpBuilder builder(store);
        auto extended = LLVM::ZExtOp::create(builder, store.getLoc(), byte,
                                             store.getValue());
        store.getValueMutable().assign(extended);
      }
    });
  }
};

} // namespace
