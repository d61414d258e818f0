//===- CkptModule.cpp - the ckpt._ckpt Python extension -------------------===//
//
// A nanobind module over ckpt's C API (include/ckpt-c/Ckpt.h): text in, text
// out, so Python needs no MLIR bindings (Debian ships none). Failures raise
// ckpt.CkptError carrying the diagnostics. It calls only C functions, so it
// is built with C++ exceptions although LLVM and MLIR are not.
//
//===----------------------------------------------------------------------===//

#include "ckpt-c/Ckpt.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <tuple>
#include <vector>

namespace nb = nanobind;

namespace {

/// MlirStringCallback appending to a std::string.
void append(MlirStringRef text, void *userData) {
  static_cast<std::string *>(userData)->append(text.data, text.length);
}

MlirStringRef toRef(const std::string &text) {
  return mlirStringRefCreate(text.data(), text.size());
}

/// Collects the three outputs of ckptRematText.
struct RematOutputs {
  std::string module, report, diagnostics;
};

void appendModule(MlirStringRef text, void *userData) {
  append(text, &static_cast<RematOutputs *>(userData)->module);
}
void appendReport(MlirStringRef text, void *userData) {
  append(text, &static_cast<RematOutputs *>(userData)->report);
}
void appendDiagnostics(MlirStringRef text, void *userData) {
  append(text, &static_cast<RematOutputs *>(userData)->diagnostics);
}

} // namespace

NB_MODULE(_ckpt, m) {
  m.doc() = "ckpt's C API (remat on MLIR text, the planner on graph JSON)";
  // Never released: the module lives until the interpreter ends.
  static PyObject *errorType = PyErr_NewExceptionWithDoc(
      "ckpt._ckpt.CkptError",
      "A ckpt operation failed; the message holds its diagnostics.",
      PyExc_RuntimeError, nullptr);
  m.attr("CkptError") = nb::handle(errorType);

  m.def(
      "remat_text",
      [](const std::string &module, const std::string &options) {
        RematOutputs outputs;
        MlirLogicalResult result =
            ckptRematText(toRef(module), toRef(options), appendModule,
                          appendReport, appendDiagnostics, &outputs);
        if (mlirLogicalResultIsFailure(result)) {
          PyErr_SetString(errorType, outputs.diagnostics.c_str());
          throw nb::python_error();
        }
        return std::make_tuple(outputs.module, outputs.report);
      },
      nb::arg("module"), nb::arg("options"),
      "Rematerializes MLIR text with ckpt-remat-pipeline options "
      "('budget=0.5 solver=greedy'); returns (module text, JSON report).");

  m.def(
      "remat_options",
      [] {
        std::vector<std::tuple<std::string, std::string, std::string,
                               std::string, bool>>
            options;
        for (intptr_t i = 0, e = ckptGetNumRematOptions(); i < e; ++i) {
          CkptRematOption option = ckptGetRematOption(i);
          auto text = [](MlirStringRef ref) {
            return std::string(ref.data, ref.length);
          };
          options.emplace_back(text(option.key), text(option.kind),
                               text(option.defaultValue),
                               text(option.description), option.inTools);
        }
        return options;
      },
      "ckpt-remat's options, as (key, kind, default, description, in_tools) "
      "tuples: the one list (RematOptions.def) the pass, the pipelines, the "
      "tools and this API share.");
  m.def(
      "plan_graph",
      [](const std::string &graph, const std::string &budget,
         const std::string &solver, double timeLimit) {
        // Exactly one of the callbacks is called: the result or the error.
        std::string result;
        MlirLogicalResult status =
            ckptPlanGraph(toRef(graph), toRef(budget), toRef(solver), timeLimit,
                          append, append, &result);
        if (mlirLogicalResultIsFailure(status)) {
          PyErr_SetString(errorType, result.c_str());
          throw nb::python_error();
        }
        return result;
      },
      nb::arg("graph"), nb::arg("budget"), nb::arg("solver"),
      nb::arg("time_limit"),
      "Plans a ckpt-plan graph (JSON text); returns ckpt-plan's JSON.");
}
