//===- InitCkpt.cpp - register everything ckpt provides -------------------===//

#include "ckpt/InitCkpt.h"

#include "ckpt/Autodiff/Passes.h"
#include "ckpt/Conversion/Passes.h"
#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Dialect/Ckpt/Transforms/BufferizableOpInterfaceImpl.h"
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h"
#include "ckpt/Pipelines/Pipelines.h"
#include "ckpt/Remat/Passes.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::ckpt::registerCkptDialects(DialectRegistry &registry) {
  registry.insert<CkptDialect>();
  registerBufferizableOpInterfaceExternalModels(registry);
}

void mlir::ckpt::registerCkptDialectAndRematPasses() {
  registerCkptDialectPasses();
  registerCkptRematPasses();
}

void mlir::ckpt::registerCkptPassesAndPipelines() {
  registerCkptDialectAndRematPasses();
  registerCkptTransformsPasses();
  registerCkptAutodiffPasses();
  registerCkptConversionPasses();
  registerCkptPipelines();
}
