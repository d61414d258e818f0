//===- IreeBackend.h - ckpt-compile --backend=iree-* ------------*- C++ -*-===//
//
// Builds a training step with one of IREE's backends (CPU, CUDA): ckpt's
// tensor preparation and rematerialization, the recomputations behind
// optimization barriers (ckpt-recompute-to-barrier), then iree-compile. A
// memory budget means IREE's memory: the DEVICE_LOCAL peak iree-run-module
// reports on the target's device, measured for each candidate build.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TOOLS_CKPTCOMPILE_IREEBACKEND_H
#define CKPT_TOOLS_CKPTCOMPILE_IREEBACKEND_H

#include "ckpt/Remat/RematOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir::ckpt::tools {

/// IREE's command-line tools.
struct IreeToolchain {
  /// iree-compile.
  std::string compile;
  /// iree-run-module.
  std::string runModule;
};

/// Finds iree-compile and iree-run-module: `compilePath` and `runPath` when
/// they are given, else on the PATH. The error says how to install them.
llvm::Expected<IreeToolchain> findIreeToolchain(llvm::StringRef compilePath,
                                                llvm::StringRef runPath);

/// One of IREE's targets: how iree-compile builds for it and where
/// iree-run-module measures its peak.
struct IreeTarget {
  /// ckpt-compile's name of it (`--backend=`): iree-cpu, iree-cuda.
  std::string backend;
  /// iree-compile's target flags, as ckpt pins them.
  std::vector<std::string> compileFlags;
  /// iree-run-module's `--device=`.
  std::string device;
};

/// IREE's CPU backend on this machine's CPU, run on `local-sync` (one
/// thread).
IreeTarget getIreeCpuTarget();

/// IREE's CUDA backend for the NVIDIA architecture `arch` (`sm_80`: IREE
/// embeds PTX, which the driver compiles for newer GPUs), run on `cuda`.
IreeTarget getIreeCudaTarget(llvm::StringRef arch);

/// What to build.
struct IreeBuildRequest {
  /// The target.
  IreeTarget target;
  /// The module, holding the entry and what it calls, after ckpt's tensor
  /// preparation (ckpt-tensor-prep); left unchanged.
  mutable ModuleOp prepared;
  /// The entry function.
  std::string entry;
  /// The entry's argument types (statically shaped tensors).
  std::vector<RankedTensorType> arguments;
  /// The remat options; `budget` (empty: no remat) is a fraction of IREE's
  /// own no-remat peak, bytes of IREE's peak, `min` or `auto`.
  RematOptions remat;
  /// Where the candidate builds go (kept with the tool's --keep-temps).
  std::string workDirectory;
  /// Where the chosen module is written (a .vmfb).
  std::string output;
  /// The most candidates planned at a fraction of ckpt's peak, per planner
  /// model (besides the no-remat build and the smallest-peak plans).
  unsigned maxAttempts = 4;
};

/// Builds `request.entry` for `request.target`. Without a budget, the
/// module is compiled as is, and its peak measured where the target's device
/// is there (a CUDA module compiled on a machine without a GPU is reported
/// unmeasured). With a memory budget, candidates are planned
/// with ckpt-remat at decreasing ckpt budgets, each compiled and its
/// DEVICE_LOCAL peak measured with iree-run-module (inputs of zeros; the
/// peak depends on the shapes only), until one is within the budget; the
/// step's ckpt budget follows a secant over (ckpt budget, IREE peak), then
/// the smallest-peak plan (`min`) is tried. The planner first counts the
/// results as IREE allocates them (before the call), then, where that
/// misses, as ckpt's runtimes do (where computed): the two plan differently
/// and IREE's fusion and packing favour either on different programs. When
/// no candidate is within the budget, it is infeasible under IREE and the
/// error names IREE's reachable minimum (the smallest peak measured). Returns
/// the report: ckpt-remat's report of the chosen plan (when one was made) with
/// an `iree` object (IREE's baseline peak, the budget, the measured peak,
/// ckpt's forecast, every attempt). For an infeasible budget, `report` (when
/// not null) receives the same object with the error, as ckpt-remat reports
/// one. A memory budget needs the device: without it, the error says so.
llvm::Expected<llvm::json::Object>
buildWithIree(const IreeToolchain &toolchain, const IreeBuildRequest &request,
              llvm::json::Object *failureReport = nullptr);

} // namespace mlir::ckpt::tools

#endif // CKPT_TOOLS_CKPTCOMPILE_IREEBACKEND_H
