//===- FunctionSelection.cpp - the functions a pass works on --------------===//

#include "FunctionSelection.h"

using namespace mlir;

FailureOr<SmallVector<func::FuncOp>>
mlir::ckpt::selectFunctions(ModuleOp module, ArrayRef<std::string> names,
                            StringRef passName) {
  for (const std::string &name : names) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func || func.isExternal())
      return emitError(module.getLoc()) << passName << ": no function '" << name
                                        << "' with a body in the module";
  }
  SmallVector<func::FuncOp> selected;
  for (func::FuncOp func : module.getOps<func::FuncOp>())
    if (!func.isExternal() &&
        (names.empty() || llvm::is_contained(names, func.getSymName())))
      selected.push_back(func);
  return selected;
}
