//===- NamedPolicies.cpp - remat policies chosen by name ------------------===//

#include "NamedPolicies.h"
#include "RematSupport.h"

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::ckpt;

/// Marks a `ckpt.policy` that a named policy set (not a ckpt dialect
/// attribute: it never outlives the pass).
static constexpr llvm::StringLiteral kMarker = "__ckpt_named_policy";

llvm::Expected<NamedPolicy> mlir::ckpt::parseNamedPolicy(StringRef spec) {
  NamedPolicy policy;
  SmallVector<StringRef> rules;
  spec.split(rules, '+', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef rule : rules) {
    rule = rule.trim();
    if (rule == "save-matmuls") {
      policy.saveMatmuls = true;
    } else if (rule == "recompute-elementwise") {
      policy.recomputeElementwise = true;
    } else if (rule.consume_front("save-names:")) {
      SmallVector<StringRef> names;
      rule.split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
      if (names.empty())
        return llvm::createStringError("remat policy 'save-names:' needs at "
                                       "least one name");
      for (StringRef name : names)
        policy.saveNames.push_back(name.trim().str());
    } else {
      return llvm::createStringError(
          "unknown remat policy '" + rule.str() +
          "'; expected save-matmuls, recompute-elementwise or "
          "save-names:NAME[,NAME...], combined with '+'");
    }
  }
  return policy;
}

LogicalResult mlir::ckpt::applyNamedPolicy(func::FuncOp func,
                                           const NamedPolicy &policy) {
  MLIRContext *context = func.getContext();
  llvm::StringSet<> wanted;
  for (const std::string &name : policy.saveNames)
    wanted.insert(name);
  llvm::StringSet<> found;
  for (Operation &op : func.getBody().front()) {
    std::optional<Policy> chosen;
    if (auto name =
            op.getAttrOfType<StringAttr>(CkptDialect::getNameAttrName());
        name && wanted.contains(name.getValue())) {
      found.insert(name.getValue());
      chosen = Policy::MustSave;
    }
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op); linalgOp && !chosen) {
      if (policy.saveMatmuls && (linalg::isaContractionOpInterface(linalgOp) ||
                                 linalg::isaConvolutionOpInterface(linalgOp)))
        chosen = Policy::MustSave;
      else if (policy.recomputeElementwise && linalg::isElementwise(linalgOp))
        chosen = Policy::PreferRecompute;
    }
    if (!chosen || op.hasAttr(CkptDialect::getPolicyAttrName()))
      continue;
    op.setAttr(CkptDialect::getPolicyAttrName(),
               PolicyAttr::get(context, *chosen));
    op.setAttr(kMarker, UnitAttr::get(context));
  }
  for (const std::string &name : policy.saveNames)
    if (!found.contains(name))
      return emitError(getFunctionDiagnosticLoc(func))
             << "ckpt-remat: policy save-names: no op of @" << func.getSymName()
             << " has ckpt.name \"" << name << "\"";
  return success();
}

void mlir::ckpt::removeNamedPolicies(Operation *root) {
  root->walk([](Operation *op) {
    if (!op->hasAttr(kMarker))
      return;
    op->removeAttr(kMarker);
    op->removeAttr(CkptDialect::getPolicyAttrName());
  });
}
