//===- EntryModule.cpp - a module and the entry a tool runs ---------------===//

#include "EntryModule.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

llvm::Expected<ckpt::tools::Backend>
ckpt::tools::parseBackend(llvm::StringRef text) {
  if (text == "cpu")
    return Backend::Cpu;
  if (text == "cuda")
    return Backend::Cuda;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "--backend=" + text +
                                     " is not one of cpu, cuda");
}

llvm::Error ckpt::tools::checkGemm(llvm::StringRef gemm, Backend backend) {
  if (gemm == "codegen" || (gemm == "blas" && backend == Backend::Cpu))
    return llvm::Error::success();
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "--gemm=" + gemm + ": expected codegen, or blas with --backend=cpu");
}

llvm::Error ckpt::tools::checkThreads(unsigned threads, Backend backend) {
  if (backend == Backend::Cuda && threads != 1)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--num-threads is for --backend=cpu");
  if (threads < 1 || threads > 4096)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--num-threads=" + llvm::Twine(threads) +
                                       ": expected 1 to 4096");
  return llvm::Error::success();
}

llvm::Expected<ckpt::tools::EntryModule>
ckpt::tools::loadEntryModule(MLIRContext &context, llvm::SourceMgr &sourceMgr,
                             llvm::StringRef path, llvm::StringRef entryName) {
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &errorMessage);
  if (!file)
    return error(errorMessage);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  EntryModule loaded;
  loaded.module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!loaded.module)
    return error("cannot parse '" + path + "'");

  loaded.entry = loaded.module->lookupSymbol<func::FuncOp>(entryName);
  if (!loaded.entry || loaded.entry.isExternal())
    return error("no function '@" + entryName + "' with a body in '" + path +
                 "'");
  if (!loaded.entry.isPublic())
    return error("'@" + entryName +
                 "' is private; the pipeline inlines private functions, so "
                 "the entry must be public");
  auto collect = [&](TypeRange types, llvm::StringRef role,
                     SmallVectorImpl<RankedTensorType> &into) -> llvm::Error {
    for (Type type : types) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !tensor.hasStaticShape())
        return error(llvm::formatv("{0} type {1} of '@{2}' is not a "
                                   "statically shaped tensor",
                                   role, type, entryName));
      into.push_back(tensor);
    }
    return llvm::Error::success();
  };
  if (llvm::Error failure = collect(loaded.entry.getArgumentTypes(), "argument",
                                    loaded.arguments))
    return std::move(failure);
  if (llvm::Error failure =
          collect(loaded.entry.getResultTypes(), "result", loaded.results))
    return std::move(failure);
  return std::move(loaded);
}
