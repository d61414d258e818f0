//===- LargeStack.h - run a tool's work on a large stack --------*- C++ -*-===//
//
// MLIR's parser (and LLVM's JSON parser) recurse once per nesting level of
// the input; on the default 8 MiB stack a few ten thousand levels crash the
// process. ckpt's tools run their work on a thread with a 1 GiB stack
// (reserved, and touched only as deep as the input goes), which takes
// malformed inputs nested hundreds of thousands deep to a diagnostic instead.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_SUPPORT_LARGESTACK_H
#define CKPT_SUPPORT_LARGESTACK_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/thread.h"

#include <optional>

namespace mlir::ckpt {

/// Stack size of the thread `runOnLargeStack` uses.
inline constexpr unsigned kLargeStackBytes = 1u << 30;

/// Runs `body` on a thread with a 1 GiB stack and returns its result. Under
/// AddressSanitizer `body` runs on the calling thread instead: ASan fails to
/// unmap such a thread's stack at exit.
inline int runOnLargeStack(llvm::function_ref<int()> body) {
#if LLVM_ADDRESS_SANITIZER_BUILD
  return body();
#else
  int status = 0;
  llvm::thread worker(std::optional<unsigned>(kLargeStackBytes),
                      [&] { status = body(); });
  worker.join();
  return status;
#endif
}

} // namespace mlir::ckpt

#endif // CKPT_SUPPORT_LARGESTACK_H
