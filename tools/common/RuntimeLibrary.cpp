//===- RuntimeLibrary.cpp - where the tools find ckpt's runtimes ----------===//

#include "RuntimeLibrary.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

std::string
mlir::ckpt::tools::locateRuntimeLibrary(llvm::StringRef configuredPath) {
  static int anchor;
  std::string executable =
      llvm::sys::fs::getMainExecutable("ckpt", static_cast<void *>(&anchor));
  if (executable.empty())
    return configuredPath.str();
  llvm::SmallString<256> candidate(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(executable)));
  llvm::sys::path::append(candidate, "lib",
                          llvm::sys::path::filename(configuredPath));
  if (llvm::sys::fs::exists(candidate))
    return candidate.str().str();
  return configuredPath.str();
}
