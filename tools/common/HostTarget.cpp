//===- HostTarget.cpp - the machine the tools compile for -----------------===//

#include "HostTarget.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
mlir::ckpt::tools::createHostTargetMachine(
    std::optional<llvm::Reloc::Model> relocation) {
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> builder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no host target: " +
                                       llvm::toString(builder.takeError()));
  if (relocation)
    builder->setRelocationModel(*relocation);
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      builder->createTargetMachine();
  if (!machine)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no target machine: " +
                                       llvm::toString(machine.takeError()));
  return machine;
}
