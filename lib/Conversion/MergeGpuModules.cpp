//===- MergeGpuModules.cpp - one gpu.module for all kernels ---------------===//
//
// Implements `ckpt-merge-gpu-modules`: the kernels outlining put into one
// gpu.module each move into a single module, so that the program compiles
// to one cubin (one ptxas run, one libdevice link, one module load).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

#define DEBUG_TYPE "ckpt-merge-gpu-modules"

namespace mlir::ckpt {
#define GEN_PASS_DEF_MERGEGPUMODULESPASS
#include "ckpt/Conversion/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

/// Attributes of a gpu.module other than its name: modules merge only when
/// these agree (targets, offloading handler, data layout, ...).
DictionaryAttr getMergeKey(gpu::GPUModuleOp module) {
  NamedAttrList attributes(module->getAttrDictionary());
  attributes.erase(SymbolTable::getSymbolAttrName());
  return attributes.getDictionary(module.getContext());
}

struct MergeGpuModulesPass
    : public mlir::ckpt::impl::MergeGpuModulesPassBase<MergeGpuModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> gpuModules(
        module.getBody()->getOps<gpu::GPUModuleOp>());
    if (gpuModules.size() < 2)
      return;
    gpu::GPUModuleOp destination = gpuModules.front();
    DictionaryAttr key = getMergeKey(destination);
    SymbolTable destinationSymbols(destination);

    // (old module, old symbol) -> new symbol in `destination`.
    DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> moved;
    for (gpu::GPUModuleOp source : llvm::drop_begin(gpuModules)) {
      if (getMergeKey(source) != key)
        continue;
      StringAttr sourceName = source.getSymNameAttr();
      SymbolTable sourceSymbols(source);
      // Rename every colliding symbol while all of them still sit in the
      // source (so each rename updates every use), then move them.
      for (Operation &op : source.getBody()->getOperations()) {
        StringAttr oldName =
            op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
        if (oldName) {
          // A name taken in the destination: the source module's name (the
          // outlined kernel's unique name), with a suffix if need be.
          // Renaming in the source first keeps its internal uses right.
          StringAttr newName = oldName;
          auto isTaken = [&](StringAttr name) {
            Operation *local = sourceSymbols.lookup(name);
            return destinationSymbols.lookup(name) || (local && local != &op);
          };
          for (unsigned suffix = 0; isTaken(newName); ++suffix)
            newName = StringAttr::get(&getContext(),
                                      suffix ? sourceName.str() + "_" +
                                                   std::to_string(suffix)
                                             : sourceName.str());
          if (newName != oldName &&
              failed(sourceSymbols.rename(&op, newName))) {
            op.emitError() << "cannot rename " << oldName << " to " << newName
                           << " to merge GPU modules";
            return signalPassFailure();
          }
          moved[{sourceName, oldName}] = newName;
        }
      }
      for (Operation &op :
           llvm::make_early_inc_range(source.getBody()->getOperations())) {
        op.remove();
        destinationSymbols.insert(&op);
      }
      source.erase();
    }
    if (moved.empty())
      return;

    // Host launches refer to @module::@kernel: point them at the new place.
    StringAttr destinationName = destination.getSymNameAttr();
    module.walk([&](gpu::LaunchFuncOp launch) {
      SymbolRefAttr kernel = launch.getKernel();
      auto it =
          moved.find({kernel.getRootReference(), kernel.getLeafReference()});
      if (it != moved.end())
        launch.setKernelAttr(SymbolRefAttr::get(
            destinationName, {FlatSymbolRefAttr::get(it->second)}));
    });
  }
};

} // namespace
