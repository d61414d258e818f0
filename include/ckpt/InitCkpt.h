//===- InitCkpt.h - register everything ckpt provides -----------*- C++ -*-===//
//
// One place for tools, plugins and bindings to register the ckpt dialect (with
// its interface models), passes and pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_INITCKPT_H
#define CKPT_INITCKPT_H

namespace mlir {
class DialectRegistry;

namespace ckpt {

/// Inserts the ckpt dialect and attaches its external interface models
/// (bufferization of the region ops).
void registerCkptDialects(DialectRegistry &registry);

/// Registers the ckpt passes and named pipelines with the global registries.
void registerCkptPassesAndPipelines();

} // namespace ckpt
} // namespace mlir

#endif // CKPT_INITCKPT_H
