//===- ckpt-opt.cpp - the ckpt optimizer driver ---------------------------===//
//
// An mlir-opt-style driver: every upstream dialect, extension and pass, plus
// the ckpt dialect, passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "ckpt/InitCkpt.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::ckpt::registerCkptPassesAndPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::ckpt::registerCkptDialects(registry);
  // gpu-module-to-binary (ckpt-gpu-pipeline) translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "ckpt: gradient checkpointing as a compiler pass\n",
      registry));
}
