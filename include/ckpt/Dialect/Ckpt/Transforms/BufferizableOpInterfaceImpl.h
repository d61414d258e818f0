//===- BufferizableOpInterfaceImpl.h - bufferization of ckpt ops -*- C++
//-*-===//

#ifndef CKPT_DIALECT_CKPT_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define CKPT_DIALECT_CKPT_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;

namespace ckpt {
/// Attaches the `BufferizableOpInterface` models of `ckpt.recompute`,
/// `ckpt.checkpoint` and `ckpt.yield` to the ckpt dialect when it is loaded.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace ckpt
} // namespace mlir

#endif // CKPT_DIALECT_CKPT_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
