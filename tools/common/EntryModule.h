//===- EntryModule.h - a module and the entry a tool runs -------*- C++ -*-===//
//
// ckpt-run and ckpt-compile both read a module from a file and run or build
// one of its functions; this is the reading and the checks they share.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TOOLS_COMMON_ENTRYMODULE_H
#define CKPT_TOOLS_COMMON_ENTRYMODULE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::ckpt::tools {

/// Where ckpt-run and ckpt-compile build and run the entry.
enum class Backend { Cpu, Cuda };

/// Parses `--backend` (`cpu` or `cuda`); the error names the accepted values.
llvm::Expected<Backend> parseBackend(llvm::StringRef text);

/// Checks `--gemm` for `backend`: `codegen`, or `blas` on the CPU; the error
/// names the accepted values.
llvm::Error checkGemm(llvm::StringRef gemm, Backend backend);

/// Checks `--num-threads` for `backend`: 1 to 4096 on the CPU, 1 with CUDA;
/// the error names the accepted values.
llvm::Error checkThreads(unsigned threads, Backend backend);

/// A module read from a file and its entry function.
struct EntryModule {
  OwningOpRef<ModuleOp> module;
  func::FuncOp entry;
  /// The entry's argument and result types (statically shaped tensors).
  SmallVector<RankedTensorType> arguments, results;
};

/// Reads `path` into `context` (through `sourceMgr`, which keeps the buffer
/// for diagnostics; parse errors are reported as diagnostics) and checks
/// `entryName`: a public function with a body (the pipelines inline private
/// functions) whose arguments and results are statically shaped tensors.
/// Errors carry the message the tool prints after `error: `.
llvm::Expected<EntryModule> loadEntryModule(MLIRContext &context,
                                            llvm::SourceMgr &sourceMgr,
                                            llvm::StringRef path,
                                            llvm::StringRef entryName);

} // namespace mlir::ckpt::tools

#endif // CKPT_TOOLS_COMMON_ENTRYMODULE_H
