//===- NamedPolicies.h - remat policies chosen by name ---------*- C++ -*-===//
//
// The `policy` option of ckpt-remat: rules that set `ckpt.policy` on classes
// of ops, in the spirit of JAX's checkpoint policies (`dots_saveable`,
// `save_only_these_names`).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_REMAT_NAMEDPOLICIES_H
#define CKPT_LIB_REMAT_NAMEDPOLICIES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::ckpt {

/// Rules parsed from `save-matmuls`, `save-names:a,b`,
/// `recompute-elementwise`, combined with `+`.
struct NamedPolicy {
  /// Contractions and convolutions (matmul, batch_matmul, conv, and generics
  /// that are such): must_save, as JAX's `dots_saveable`.
  bool saveMatmuls = false;
  /// Elementwise linalg ops (all loops parallel): prefer_recompute.
  bool recomputeElementwise = false;
  /// Values whose op carries one of these `ckpt.name`s: must_save.
  SmallVector<std::string> saveNames;

  bool empty() const {
    return !saveMatmuls && !recomputeElementwise && saveNames.empty();
  }
};

/// Parses a policy spec; the error lists the accepted forms.
llvm::Expected<NamedPolicy> parseNamedPolicy(StringRef spec);

/// Sets `ckpt.policy` on the top-level ops of `func` that `policy` selects
/// and that have no policy of their own (a user's `ckpt.policy` wins), and
/// marks them so that removeNamedPolicies can take the policy off again.
/// Fails with an error at the function when a name of `save-names` names no
/// op in it.
LogicalResult applyNamedPolicy(func::FuncOp func, const NamedPolicy &policy);

/// Removes what applyNamedPolicy set in `root` (also on clones of the ops
/// it annotated).
void removeNamedPolicies(Operation *root);

} // namespace mlir::ckpt

#endif // CKPT_LIB_REMAT_NAMEDPOLICIES_H
