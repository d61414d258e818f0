//===- TensorBytes.h - sizes of tensors as bufferization allocates them ---===//

#ifndef CKPT_ANALYSIS_TENSORBYTES_H
#define CKPT_ANALYSIS_TENSORBYTES_H

#include "mlir/IR/Types.h"

#include <cstdint>
#include <optional>

namespace mlir::ckpt {

/// Alignment (in bytes) of every buffer the ckpt pipelines allocate: the
/// default of One-Shot Bufferize. With aligned allocation the runtime is asked
/// for the size rounded up to it.
constexpr int64_t kBufferAlignmentBytes = 64;

/// Bytes of one element as bufferization lays it out: sub-byte types such as
/// i1 take a whole byte, `index` takes 8, complex types twice their element.
/// std::nullopt for element types without a memory layout.
std::optional<int64_t> getElementBytes(Type elementType);

/// Bytes of a statically shaped tensor or memref (shape x element bytes).
/// std::nullopt for dynamic shapes, unranked types and non-shaped types.
std::optional<int64_t> getStaticBytes(Type shapedType);

/// `bytes` rounded up to kBufferAlignmentBytes: what an allocation of that
/// many bytes requests from the runtime.
inline int64_t getAllocationBytes(int64_t bytes) {
  return (bytes + kBufferAlignmentBytes - 1) / kBufferAlignmentBytes *
         kBufferAlignmentBytes;
}

} // namespace mlir::ckpt

#endif // CKPT_ANALYSIS_TENSORBYTES_H
