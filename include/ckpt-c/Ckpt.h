/*===- Ckpt.h - C API of ckpt -------------------------------------*- C -*-===*\
|*                                                                            *|
|* The C API other MLIR-based compilers and language bindings use: register  *|
|* the ckpt dialect and passes, rematerialize a module to a memory budget    *|
|* and read the report, plan a graph file. In the style of MLIR's C API      *|
|* (mlir-c/): MLIR objects come from the caller's MLIR C API; strings are    *|
|* MlirStringRef in and MlirStringCallback out; failures are                 *|
|* MlirLogicalResult with the diagnostic text delivered to the caller.       *|
|*                                                                            *|
|* Library: libCkptCAPI.so (links libMLIR.so; the caller's process must use  *|
|* that same libMLIR for the MLIR objects it passes in).                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CKPT_C_CKPT_H
#define CKPT_C_CKPT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The ckpt dialect's handle (`mlirGetDialectHandle__ckpt__`), for
 * mlirDialectHandleInsertDialect / mlirDialectHandleLoadDialect. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Ckpt, ckpt);

/** Inserts the ckpt dialect with its interface models, and every upstream
 * dialect and extension ckpt's passes and pipelines create ops of, into
 * `registry`. */
MLIR_CAPI_EXPORTED void ckptRegisterDialects(MlirDialectRegistry registry);

/** Registers ckpt's passes (`ckpt-remat`, `ckpt-autodiff`, ...) and
 * pipelines (`ckpt-remat-pipeline`, `ckpt-cpu-pipeline`,
 * `ckpt-gpu-pipeline`, ...) with MLIR's global registry, so that textual
 * pass pipelines can name them. Idempotent. */
MLIR_CAPI_EXPORTED void ckptRegisterPasses(void);

/** Registers the ckpt dialect's passes (`ckpt-lower-recompute`,
 * `ckpt-expand-checkpoints`, ...) and the remat passes (`ckpt-remat`,
 * `ckpt-report`) alone, for another MLIR compiler that rematerializes in its
 * own pipeline. Idempotent. */
MLIR_CAPI_EXPORTED void ckptRegisterRematPasses(void);

/** One option of `ckpt-remat` (include/ckpt/Remat/RematOptions.def): the
 * options of ckptRematModule and ckptRematText, the `remat-` options of the
 * lowering pipelines and the tools' `--remat-` flags. */
typedef struct {
  /** The key (`budget`, `time-limit`, ...). */
  MlirStringRef key;
  /** `string`, `number` or `list` (of strings). */
  MlirStringRef kind;
  /** The default, as text. */
  MlirStringRef defaultValue;
  MlirStringRef description;
  /** False for the options tools that build one entry function set
   * themselves (`functions`, `report-format`). */
  bool inTools;
} CkptRematOption;

/** The number of remat options. */
MLIR_CAPI_EXPORTED intptr_t ckptGetNumRematOptions(void);

/** Remat option `index` (0 <= index < ckptGetNumRematOptions()); the strings
 * are static. */
MLIR_CAPI_EXPORTED CkptRematOption ckptGetRematOption(intptr_t index);

/** Rematerializes `module` in place: `ckpt-remat-pipeline` (the tensor
 * preparation, then ckpt-remat) with `options` in pass-pipeline syntax, e.g.
 * "budget=0.5 solver=greedy" or "budget=2GiB policy=save-matmuls" (the
 * keys of ckptGetRematOption). On success `report` receives
 * the JSON report (see docs/UserGuide.md). On failure the diagnostics go to
 * the context's diagnostic handlers (mlirContextAttachDiagnosticHandler)
 * and `report` is not called. The module's context must have ckpt's
 * dialects (ckptRegisterDialects). */
MLIR_CAPI_EXPORTED MlirLogicalResult ckptRematModule(MlirModule module,
                                                     MlirStringRef options,
                                                     MlirStringCallback report,
                                                     void *userData);

/** The same on text, in a context of its own with every dialect: parses
 * `moduleText`, rematerializes it and prints it to `output`, the report to
 * `report`. On failure `diagnostics` receives every diagnostic as
 * `file:line:col: error: message` lines (no other callback is called). Needs
 * nothing of the caller's MLIR. */
MLIR_CAPI_EXPORTED MlirLogicalResult ckptRematText(
    MlirStringRef moduleText, MlirStringRef options, MlirStringCallback output,
    MlirStringCallback report, MlirStringCallback diagnostics, void *userData);

/** Plans a remat problem given as networkx node-link JSON (the graph files
 * of ckpt-plan) for `budget` (`0.7`, `70%`, `512MiB`, ...) with `solver`
 * (`auto`, `greedy`, `chain-dp`, `ilp`, `uniform:K`, `none`) and a time
 * limit in seconds; `result` receives the JSON ckpt-plan prints (feasible,
 * peak, cost, schedule, ...). On failure `error` receives the message. */
MLIR_CAPI_EXPORTED MlirLogicalResult ckptPlanGraph(
    MlirStringRef graphJSON, MlirStringRef budget, MlirStringRef solver,
    double timeLimitSeconds, MlirStringCallback result,
    MlirStringCallback error, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* CKPT_C_CKPT_H */
