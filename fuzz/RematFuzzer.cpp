//===- RematFuzzer.cpp - libFuzzer harness for parse -> remat -> lowering -===//
//
// Parses arbitrary bytes as an MLIR module; modules that verify go through
// the tensor preparation, `ckpt-remat` (greedy solver, budget 80%) and the
// bufferization stage (which runs `ckpt-lower-recompute`). Diagnostics are
// expected (most inputs are invalid); crashes and sanitizer reports are bugs.
//
//===----------------------------------------------------------------------===//

#include "ckpt/InitCkpt.h"
#include "ckpt/Pipelines/Pipelines.h"
#include "ckpt/Remat/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <algorithm>
#include <string>

using namespace mlir;

namespace {

MLIRContext &getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    ckpt::registerCkptDialects(registry);
    auto *context = new MLIRContext(registry);
    context->loadAllAvailableDialects();
    context->disableMultithreading();
    // Diagnostics of invalid inputs are the normal case: drop them.
    context->getDiagEngine().registerHandler([](Diagnostic &) {});
    ckpt::registerCkptPassesAndPipelines();
    return context;
  }();
  return *context;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &context = getContext();
  // MLIR's parser recurses once per nesting level of types and attributes
  // and overflows the stack on inputs nested thousands deep (an upstream
  // limitation, which ckpt-opt shares): skip those.
  int depth = 0, deepest = 0;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '(' || data[i] == '<' || data[i] == '[' || data[i] == '{')
      deepest = std::max(deepest, ++depth);
    else if (data[i] == ')' || data[i] == '>' || data[i] == ']' ||
             data[i] == '}')
      --depth;
  }
  if (deepest > 512)
    return 0;
  // The lexer reads to a terminating null: parse a copy that has one.
  std::string text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  if (!module || failed(verify(*module)))
    return 0;
  PassManager pm(&context);
  ckpt::buildTensorPreparationPipeline(pm, ckpt::TensorPreparationOptions());
  ckpt::RematOptions remat;
  remat.budget = "0.8";
  remat.solver = "greedy";
  pm.addPass(ckpt::createRematPass(remat));
  ckpt::buildBufferizationPipeline(pm);
  (void)pm.run(*module);
  return 0;
}
