//===- CkptBase.td - ckpt dialect definition ---------------*- tablegen -*-===//
//
// The ckpt dialect: gradient checkpointing (rematerialization) as IR.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTBASE_TD
#define CKPT_DIALECT_CKPT_IR_CKPTBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Ckpt_Dialect : Dialect {
  let name = "ckpt";
  let cppNamespace = "::mlir::ckpt";
  let summary = "Gradient checkpointing: recompute regions, user checkpoints, policies";
  let description = [{
    The `ckpt` dialect expresses gradient checkpointing (activation
    rematerialization) in a differentiated training step. A training step keeps
    every forward activation alive until the backward pass uses it; the ops of
    this dialect let a compiler (or a user) state instead that a value is
    recomputed where it is needed:

    * `ckpt.recompute` holds an explicit clone of forward computation placed
      right before its use in the backward pass. It is written by the
      `ckpt-remat` pass and survives canonicalization and CSE until
      `ckpt-lower-recompute` inlines it after bufferization.
    * `ckpt.checkpoint` is the user annotation that marks a forward region
      whose internal values are not kept but recomputed (the
      `torch.utils.checkpoint` equivalent).

    Discardable attributes steer the analyses and the planner:

    * `ckpt.policy = #ckpt.policy<must_save|prefer_save|prefer_recompute|must_recompute>`
      on any op: the user's wish for the values it produces. `must_*` is
      never overridden by the planner.
    * `ckpt.name = "attn_out"` on any op: a name for its values in reports and
      by-name policies.
    * `ckpt.phase = #ckpt.phase<forward|backward>` on any op: which half of the
      training step the op belongs to (written by autodiff and frontends).
    * `ckpt.tangent` (unit) on a function argument: the argument is a backward
      seed (a cotangent), as in joint graphs that take cotangents as inputs.
    * `ckpt.differentiate` (unit) on a function returning a scalar loss: the
      function `ckpt-autodiff` differentiates.
    * `ckpt.results_preallocated` (unit) on a function: its caller allocates
      the buffers of its results before the call (IREE allocates a step's
      results up front), so the memory analysis and the planner count them
      from the function's entry instead of from where they are computed.
    * `ckpt.noalias_pointers = array<i64: ...>` on a function (written by
      `ckpt-outline-loop-nests`, consumed by `ckpt-apply-noalias-pointers`):
      positions, in its LLVM-dialect signature, of the pointer arguments that
      are `llvm.noalias`.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the discardable attribute holding a `PolicyAttr`.
    static constexpr ::llvm::StringLiteral getPolicyAttrName() { return "ckpt.policy"; }
    /// Name of the discardable attribute naming an op's values (a string).
    static constexpr ::llvm::StringLiteral getNameAttrName() { return "ckpt.name"; }
    /// Name of the discardable attribute holding a `PhaseAttr`.
    static constexpr ::llvm::StringLiteral getPhaseAttrName() { return "ckpt.phase"; }
    /// Name of the unit argument attribute marking a backward seed.
    static constexpr ::llvm::StringLiteral getTangentAttrName() { return "ckpt.tangent"; }
    /// Name of the unit attribute marking a function for ckpt-autodiff.
    static constexpr ::llvm::StringLiteral getDifferentiateAttrName() { return "ckpt.differentiate"; }
    /// Name of the unit attribute marking a function whose results are
    /// allocated by its caller before the call.
    static constexpr ::llvm::StringLiteral getResultsPreallocatedAttrName() { return "ckpt.results_preallocated"; }
    /// Name of the function attribute (a DenseI64ArrayAttr) listing the
    /// positions of its noalias pointer arguments in its LLVM signature.
    static constexpr ::llvm::StringLiteral getNoAliasPointersAttrName() { return "ckpt.noalias_pointers"; }
    /// True for the names of the ckpt discardable attributes (`ckpt.*`).
    static bool isAnnotationName(::llvm::StringRef name) { return name.starts_with("ckpt."); }
    /// Copies the ckpt discardable attributes of `from` onto `to`, keeping
    /// those `to` already has.
    static void copyAnnotations(::mlir::Operation *from, ::mlir::Operation *to);
    /// Removes the ckpt discardable attributes of `op` (not of nested ops).
    static void removeAnnotations(::mlir::Operation *op);
  }];
}

class Ckpt_Op<string mnemonic, list<Trait> traits = []>
    : Op<Ckpt_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Enums and attributes
//===----------------------------------------------------------------------===//

def Ckpt_Policy : I32EnumAttr<"Policy", "what to do with an op's values", [
    I32EnumAttrCase<"MustSave", 0, "must_save">,
    I32EnumAttrCase<"PreferSave", 1, "prefer_save">,
    I32EnumAttrCase<"PreferRecompute", 2, "prefer_recompute">,
    I32EnumAttrCase<"MustRecompute", 3, "must_recompute">
  ]> {
  let cppNamespace = "::mlir::ckpt";
  let genSpecializedAttr = 0;
}

def Ckpt_PolicyAttr : EnumAttr<Ckpt_Dialect, Ckpt_Policy, "policy"> {
  let summary = "checkpointing policy for the values an op produces";
  let assemblyFormat = "`<` $value `>`";
}

def Ckpt_Phase : I32EnumAttr<"Phase", "half of a training step", [
    I32EnumAttrCase<"Forward", 0, "forward">,
    I32EnumAttrCase<"Backward", 1, "backward">
  ]> {
  let cppNamespace = "::mlir::ckpt";
  let genSpecializedAttr = 0;
}

def Ckpt_PhaseAttr : EnumAttr<Ckpt_Dialect, Ckpt_Phase, "phase"> {
  let summary = "training-step phase (forward or backward) of an op";
  let assemblyFormat = "`<` $value `>`";
}

#endif // CKPT_DIALECT_CKPT_IR_CKPTBASE_TD
