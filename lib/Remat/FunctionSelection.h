//===- FunctionSelection.h - the functions a pass works on ------*- C++ -*-===//

#ifndef CKPT_LIB_REMAT_FUNCTIONSELECTION_H
#define CKPT_LIB_REMAT_FUNCTIONSELECTION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::ckpt {

/// The functions with a body in `module`, in module order, restricted to
/// `names` unless it is empty (the `functions=` option of the passes). A name
/// without such a function is an error on the module, prefixed by
/// `passName`: "<passName>: no function '<name>' with a body in the module".
FailureOr<SmallVector<func::FuncOp>>
selectFunctions(ModuleOp module, ArrayRef<std::string> names,
                StringRef passName);

} // namespace mlir::ckpt

#endif // CKPT_LIB_REMAT_FUNCTIONSELECTION_H
