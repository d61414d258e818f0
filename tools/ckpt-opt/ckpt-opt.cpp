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
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

/// Rewrites the shorthand `--remat-budget=B` (with optional
/// `--remat-report=F` and `--remat-target=T`) into the registered
/// `--ckpt-remat-pipeline=budget=B report=F target=T`, at the position of the
/// first of them, so it composes with other pass flags in order.
static std::vector<std::string> expandRematShorthand(int argc, char **argv) {
  std::vector<std::string> args;
  std::string budget, report, target;
  int position = -1;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    bool consumed = false;
    for (auto [flag, value] :
         {std::pair<llvm::StringRef, std::string *>{"--remat-budget=", &budget},
          {"--remat-report=", &report},
          {"--remat-target=", &target}}) {
      if (!arg.starts_with(flag))
        continue;
      *value = arg.drop_front(flag.size()).str();
      if (position < 0)
        position = args.size();
      consumed = true;
    }
    if (!consumed)
      args.push_back(argv[i]);
  }
  if (position < 0)
    return args;
  std::string pipeline = "--ckpt-remat-pipeline=budget=" + budget;
  if (!report.empty())
    pipeline += " report=" + report;
  if (!target.empty())
    pipeline += " target=" + target;
  args.insert(args.begin() + position, pipeline);
  return args;
}

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::ckpt::registerCkptPassesAndPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::ckpt::registerCkptDialects(registry);
  // gpu-module-to-binary (ckpt-gpu-pipeline) translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);

  std::vector<std::string> args = expandRematShorthand(argc, argv);
  std::vector<char *> rawArgs;
  for (std::string &arg : args)
    rawArgs.push_back(arg.data());
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      rawArgs.size(), rawArgs.data(),
      "ckpt: gradient checkpointing as a compiler pass\n"
      "(--remat-budget=B [--remat-report=F] [--remat-target=T] is short for "
      "--ckpt-remat-pipeline=budget=B ...)\n",
      registry));
}
