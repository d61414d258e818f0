//===- RuntimeLibrary.h - where the tools find ckpt's runtimes --*- C++ -*-===//
//
// ckpt-run and ckpt-compile use the runtime libraries built with them. In a
// build tree and in an installed package (`pip install .` puts the tools in
// ckpt/bin and the libraries in ckpt/lib) the libraries sit in ../lib next
// to the tool, so that is where they are looked for first; the path the
// build configured is the fallback.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TOOLS_COMMON_RUNTIMELIBRARY_H
#define CKPT_TOOLS_COMMON_RUNTIMELIBRARY_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::ckpt::tools {

/// The runtime library named like `configuredPath` (its file name) in the
/// `lib` folder beside the running tool's `bin` folder when it exists there,
/// else `configuredPath` itself.
std::string locateRuntimeLibrary(llvm::StringRef configuredPath);

} // namespace mlir::ckpt::tools

#endif // CKPT_TOOLS_COMMON_RUNTIMELIBRARY_H
