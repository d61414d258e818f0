//===- HostTarget.h - the machine the tools compile for ---------*- C++ -*-===//
//
// ckpt-run's JIT and ckpt-compile's objects are optimized and generated for
// the host's CPU and features, so that LLVM's vectorizers see its vector
// widths.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TOOLS_COMMON_HOSTTARGET_H
#define CKPT_TOOLS_COMMON_HOSTTARGET_H

#include "llvm/Support/CodeGen.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <optional>

namespace mlir::ckpt::tools {

/// A target machine for the host's CPU and features at the default
/// optimization level, with `relocation` when given; the error says whether
/// the host target or its machine is missing.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine(std::optional<llvm::Reloc::Model> relocation = {});

} // namespace mlir::ckpt::tools

#endif // CKPT_TOOLS_COMMON_HOSTTARGET_H
