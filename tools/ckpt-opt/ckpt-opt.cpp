//===- ckpt-opt.cpp - the ckpt optimizer driver ---------------------------===//
//
// An mlir-opt-style driver: every upstream dialect, extension and pass, plus
// the ckpt dialect, passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "ckpt/InitCkpt.h"
#include "ckpt/Remat/RematOptions.h"
#include "ckpt/Support/LargeStack.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Compiler.h"

#include <string>
#include <vector>

/// Rewrites the shorthand `--remat-KEY=VALUE` (every key of
/// RematOptions.def: `--remat-budget=B`, `--remat-solver=S`, ...) into the
/// registered `--ckpt-remat-pipeline=KEY=VALUE ...`, at the position of the
/// first of them, so it composes with other pass flags in order. Diagnostics
/// print no IR unless `--mlir-print-op-on-diagnostic` asks for it.
static std::vector<std::string> expandRematShorthand(int argc, char **argv) {
  std::vector<std::string> args;
  std::vector<std::string> rematWords;
  int position = -1;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    bool consumed = false;
    for (const mlir::ckpt::RematOptionInfo &info :
         mlir::ckpt::getRematOptionInfos()) {
      std::string flag = std::string("--remat-") + info.key + "=";
      if (!arg.starts_with(flag))
        continue;
      rematWords.push_back(info.key +
                           ("=" + arg.drop_front(flag.size())).str());
      if (position < 0)
        position = args.size();
      consumed = true;
      break;
    }
    if (!consumed)
      args.push_back(argv[i]);
    if (i == 0)
      args.push_back("--mlir-print-op-on-diagnostic=false");
  }
  if (position < 0)
    return args;
  args.insert(args.begin() + position,
              "--ckpt-remat-pipeline=" + llvm::join(rematWords, " "));
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
        "(--remat-KEY=VALUE for any option KEY of ckpt-remat-pipeline, e.g. "
        "--remat-budget=0.5 --remat-solver=greedy, is short for "
        "--ckpt-remat-pipeline=\"KEY=VALUE ...\")\n",
        registry));
  });
}
