/* Exercises the C API (include/ckpt-c/Ckpt.h) as an embedding compiler
 * would: its own MLIR context (MLIR's C API), ckpt's dialects and passes,
 * remat on a module with the report read back, the text-level entry point,
 * the planner, and every error path (failure + diagnostic, no crash).
 * Usage: capi STEP.mlir GRAPH.json */
#include "ckpt-c/Ckpt.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print(MlirStringRef text, void *userData) {
  fprintf((FILE *)userData, "%.*s", (int)text.length, text.data);
}

/* Counts what a callback received, to show that a callback was not called. */
static int calls;
static void count(MlirStringRef text, void *userData) {
  (void)text, (void)userData;
  ++calls;
}

static MlirLogicalResult onDiagnostic(MlirDiagnostic diagnostic, void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, print, stdout);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static char *readFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(2);
  }
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc(size + 1);
  if (fread(text, 1, size, file) != (size_t)size)
    exit(2);
  text[size] = 0;
  fclose(file);
  return text;
}

static MlirStringRef str(const char *text) { return mlirStringRefCreateFromCString(text); }

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  char *step = readFile(argv[1]);
  char *graph = readFile(argv[2]);

  MlirStringRef ns = mlirDialectHandleGetNamespace(mlirGetDialectHandle__ckpt__());
  printf("dialect: %.*s\n", (int)ns.length, ns.data);

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  ckptRegisterDialects(registry);
  ckptRegisterPasses();
  ckptRegisterPasses(); /* idempotent */
  ckptRegisterRematPasses();

  /* The one list of remat options (RematOptions.def). */
  printf("remat options:");
  for (intptr_t i = 0, e = ckptGetNumRematOptions(); i < e; ++i) {
    CkptRematOption option = ckptGetRematOption(i);
    printf(" %.*s%s", (int)option.key.length, option.key.data,
           option.inTools ? "" : "(pass)");
  }
  printf("\n");
  CkptRematOption limit = ckptGetRematOption(3);
  printf("%.*s: %.*s, default %.*s\n", (int)limit.key.length, limit.key.data,
         (int)limit.kind.length, limit.kind.data, (int)limit.defaultValue.length,
         limit.defaultValue.data);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirContextAttachDiagnosticHandler(context, onDiagnostic, NULL, NULL);

  /* Remat on a module the caller owns; the report comes back as JSON. */
  MlirModule module = mlirModuleCreateParse(context, str(step));
  if (mlirModuleIsNull(module))
    return 1;
  printf("== remat module\n");
  MlirLogicalResult result =
      ckptRematModule(module, str("budget=0.9 solver=greedy"), print, stdout);
  printf("\nresult: %s\n", mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  mlirOperationPrint(mlirModuleGetOperation(module), print, stdout);
  printf("\n");

  printf("== bad options\n");
  calls = 0;
  result = ckptRematModule(module, str("budget=banana"), count, NULL);
  printf("result: %s, report calls: %d\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure", calls);
  result = ckptRematModule(module, str("solver=greedy"), count, NULL);
  printf("result: %s\n", mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  result = ckptRematModule(module, str("budget=0.5 colour=blue"), count, NULL);
  printf("result: %s\n", mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  mlirModuleDestroy(module);

  /* Text in, text out, in a context of its own. */
  printf("== remat text\n");
  calls = 0;
  result = ckptRematText(str(step), str("budget=min solver=greedy"), count, count,
                         print, stdout);
  printf("result: %s, callbacks: %d\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure", calls);
  calls = 0;
  result = ckptRematText(str("func.func @f( {"), str("budget=0.5"), count, count, print,
                         stdout);
  printf("result: %s, output calls: %d\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure", calls);

  /* The planner. */
  printf("== plan\n");
  result = ckptPlanGraph(str(graph), str("80%"), str("chain-dp"), 5.0, print, print, stdout);
  printf("\nresult: %s\n", mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  result = ckptPlanGraph(str(graph), str("70 parsecs"), str("auto"), 5.0, print, print, stdout);
  printf("\nresult: %s\n", mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  result = ckptPlanGraph(str("{\"nodes\": 3}"), str("0.5"), str("auto"), 5.0, print, print, stdout);
  printf("\nresult: %s\n", mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  result = ckptPlanGraph(str(graph), str("0.5"), str("simulated-annealing"), 5.0, print, print,
                         stdout);
  printf("\nresult: %s\n", mlirLogicalResultIsSuccess(result) ? "success" : "failure");

  mlirContextDestroy(context);
  mlirDialectRegistryDestroy(registry);
  free(step);
  free(graph);
  return 0;
}
