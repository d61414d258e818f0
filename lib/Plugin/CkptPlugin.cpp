//===- CkptPlugin.cpp - ckpt as an mlir-opt plugin ------------------------===//
//
// Lets the stock mlir-opt (and any MlirOptMain-based tool) use ckpt:
//   mlir-opt --load-dialect-plugin=CkptPlugin.so
//   --load-pass-plugin=CkptPlugin.so
//
//===----------------------------------------------------------------------===//

#include "ckpt/InitCkpt.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Ckpt", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::ckpt::registerCkptDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "CkptPasses", LLVM_VERSION_STRING,
          []() { mlir::ckpt::registerCkptPassesAndPipelines(); }};
}
