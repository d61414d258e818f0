//===- GemmCalls.h - contractions on buffers to runtime GEMM calls -*- C++
//-*-===//
//
// The rewrite ckpt-gemm-to-cublas (libckpt_cuda_runtime) and
// ckpt-gemm-to-blas (libckpt_blas_runtime) share, and the runtime-function
// declarations of the library-call rewrites (also ckpt-attention-to-cuda).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_CONVERSION_GEMMCALLS_H
#define CKPT_LIB_CONVERSION_GEMMCALLS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <functional>
#include <string>

namespace mlir::ckpt {

/// A runtime's GEMMs: `<prefix>gemm_<variant>` and
/// `<prefix>batch_gemm_<variant>`, with `variant` the name for the element
/// types of A, B and C (failure where the runtime has no GEMM for them).
struct GemmLibrary {
  std::string prefix;
  std::function<FailureOr<std::string>(Type a, Type b, Type c)> variant;
  /// i32 constants passed after A, B, C, transA and transB (the CPU
  /// runtime's thread count).
  SmallVector<int32_t> trailingArguments;
};

/// Simplifies the payload of every generic on buffers in `module` (the
/// matmul gradients of ckpt-autodiff become two-input contractions), then
/// replaces every plain contraction on memrefs with unit innermost strides
/// (one batch dimension at most, operands or product stored transposed)
/// for which `library` has a GEMM by a call to it (declared private with a
/// C interface). Fails when the module declares a callee with another type.
LogicalResult rewriteGemmsToCalls(ModuleOp module, const GemmLibrary &library);

/// The runtime function `name` of `module`: its declaration, or a new
/// private one with `type` and the C interface (`llvm.emit_c_interface`).
/// Callers check that an existing declaration has `type`.
func::FuncOp getOrDeclareRuntimeFunction(OpBuilder &builder, ModuleOp module,
                                         StringRef name, FunctionType type);

} // namespace mlir::ckpt

#endif // CKPT_LIB_CONVERSION_GEMMCALLS_H
