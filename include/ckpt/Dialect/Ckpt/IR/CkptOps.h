//===- CkptOps.h - ckpt dialect operations ----------------------*- C++ -*-===//
//
// Operations of the ckpt dialect: the region ops (ckpt.recompute,
// ckpt.checkpoint, ckpt.yield), ckpt.random_uniform and the attention ops.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTOPS_H
#define CKPT_DIALECT_CKPT_IR_CKPTOPS_H

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ckpt {
class YieldOp;

/// The memory effects of \p op and of the ops nested in it, leaving out
/// assertions (cf.assert, as importers put bounds checks into gathers):
/// executed again on the same values, an assertion passes again, so it does
/// not keep an op from being recomputed. std::nullopt when some op's
/// effects are unknown.
std::optional<SmallVector<MemoryEffects::EffectInstance>>
getRecomputeEffects(Operation *op);

/// The ckpt.attention and ckpt.attention_grad ops under `root`, in walk
/// order.
SmallVector<Operation *> collectAttentionOps(Operation *root);

/// Fails with "op on <type> is not <done> yet (f32 and f64 are)" when the
/// attention op `op` computes in another element type than f32 or f64 (what
/// its lowerings handle so far).
LogicalResult checkAttentionElementType(Operation *op, StringRef done);

/// The widest head (channels per head of the query and key, or of the value)
/// the fused CUDA attention kernels of libckpt_cuda_runtime take.
constexpr int64_t kCudaAttentionMaxWidth = 256;

/// Whether the fused CUDA attention kernels take the attention op `op`: f32,
/// the query of rank 2 to 4 (at most two leading dimensions) and head widths
/// up to kCudaAttentionMaxWidth (a dynamic width is checked at run time).
bool hasCudaAttentionKernel(Operation *op);

namespace detail {
/// Parses the shared assembly format of the ckpt region ops:
/// `(%arg = %operand : type, ...) -> (types) { body } attributes {...}`.
ParseResult parseRegionOp(OpAsmParser &parser, OperationState &result);
/// Prints the shared assembly format of the ckpt region ops.
void printRegionOp(OpAsmPrinter &p, Operation *op);
/// Verifies a ckpt region op: block arguments match the inputs, the yield
/// matches the results, and the body only holds ops that can be executed a
/// second time without changing the program.
LogicalResult verifyRegionOp(Operation *op);
} // namespace detail
} // namespace mlir::ckpt

#define GET_OP_CLASSES
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h.inc"

namespace mlir::ckpt {
/// True when input \p index of \p op is donated: the region may write into
/// its buffer (RecomputeOp's `donated`).
bool isDonatedInput(RecomputeOp op, unsigned index);
} // namespace mlir::ckpt

#endif // CKPT_DIALECT_CKPT_IR_CKPTOPS_H
