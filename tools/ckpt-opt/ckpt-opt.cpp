//===- ckpt-opt.cpp - the ckpt optimizer driver ---------------------------===//
//
// An mlir-opt-style driver: every upstream dialect, extension and pass, plus
// the ckpt dialect, passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "ckpt/InitCkpt.h"
#include "ckpt/Support/LargeStack.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Compiler.h"

#include <string>
#include <vector>

/// Rewrites the shorthand `--remat-budget=B` (with optional
/// `--remat-report=F`, `--remat-target=T`, `--remat-solver=S`,
/// `--remat-policy=P` and `--remat-time-limit=SECONDS`) into the registered
/// `--ckpt-remat-pipeline=budget=B report=F ...`, at the position of the
/// first of them, so it composes with other pass flags in order.
static std::vector<std::string> expandRematShorthand(int argc, char **argv) {
  std::vector<std::string> args;
  std::string budget, report, target, solver, policy, timeLimit;
  int position = -1;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    bool consumed = false;
    for (auto [flag, value] :
         {std::pair<llvm::StringRef, std::string *>{"--remat-budget=", &budget},
          {"--remat-report=", &report},
          {"--remat-target=", &target},
          {"--remat-solver=", &solver},
          {"--remat-policy=", &policy},
          {"--remat-time-limit=", &timeLimit}}) {
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
  if (!solver.empty())
    pipeline += " solver=" + solver;
  if (!policy.empty())
    pipeline += " policy=" + policy;
  if (!timeLimit.empty())
    pipeline += " time-limit=" + timeLimit;
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
  // Deeply nested malformed input: a diagnostic, not a stack overflow.
  return mlir::ckpt::runOnLargeStack([&] {
    return mlir::asMainReturnCode(mlir::MlirOptMain(
        rawArgs.size(), rawArgs.data(),
        "ckpt: gradient checkpointing as a compiler pass\n"
        "(--remat-budget=B [--remat-report=F] [--remat-target=T] "
        "[--remat-solver=S] [--remat-policy=P] [--remat-time-limit=SECONDS] is "
        "short for --ckpt-remat-pipeline=budget=B ...)\n",
        registry));
  });
}
