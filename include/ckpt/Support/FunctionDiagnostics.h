//===- FunctionDiagnostics.h - diagnostics about a whole function -*- C++ -*-===//
//
// A diagnostic about a whole function (its budget cannot be met, it cannot
// be differentiated, ...) is placed at the function's file and line without
// a column: tools then print no source line, which for a real model's
// training step is the signature holding every parameter, kilobytes long.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SUPPORT_FUNCTIONDIAGNOSTICS_H
#define CKPT_SUPPORT_FUNCTIONDIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::ckpt {

/// The function's file and line without a column, or its location when it
/// has no file location.
inline Location getFunctionDiagnosticLoc(FunctionOpInterface func) {
  if (auto fileLoc = func->getLoc()->findInstanceOf<FileLineColLoc>())
    return FileLineColLoc::get(fileLoc.getFilename(), fileLoc.getLine(),
                               /*column=*/0);
  return func->getLoc();
}

/// An error about `func` as `emitOpError` words it (`'func.func' op ...`),
/// at getFunctionDiagnosticLoc.
inline InFlightDiagnostic emitFunctionError(FunctionOpInterface func) {
  InFlightDiagnostic diag = emitError(getFunctionDiagnosticLoc(func));
  diag << "'" << func->getName() << "' op ";
  return diag;
}

} // namespace mlir::ckpt

#endif // CKPT_SUPPORT_FUNCTIONDIAGNOSTICS_H
