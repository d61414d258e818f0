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

/// Registers the ckpt dialect's passes (recompute and random lowering,
/// annotation removal, checkpoint expansion) and the remat passes
/// (`ckpt-remat`, `ckpt-report`) alone: what another MLIR compiler embeds to
/// rematerialize in its own pipeline.
void registerCkptDialectAndRematPasses();

/// Registers every ckpt pass and named pipeline with the global registries.
void registerCkptPassesAndPipelines();

} // namespace ckpt
} // namespace mlir

#endif // CKPT_INITCKPT_H
