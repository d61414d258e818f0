//===- RematOptions.cpp - ckpt-remat's options, defined once --------------===//

#include "ckpt/Remat/RematOptions.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::ckpt;

LogicalResult mlir::ckpt::verifyRematOptions(const RematOptions &options,
                                             std::string &message) {
  if (options.reportFormat != "json" && options.reportFormat != "table") {
    message = "ckpt-remat: unknown report format '" + options.reportFormat +
              "'; expected json or table";
    return failure();
  }
  if (options.onInfeasible != "error" && options.onInfeasible != "min") {
    message = "ckpt-remat: unknown on-infeasible '" + options.onInfeasible +
              "'; expected error or min";
    return failure();
  }
  return success();
}

namespace {

/// The kind a table row gives an option of type T.
template <typename T> constexpr const char *kindOf() {
  return std::is_same_v<T, std::string> ? "string" : "number";
}

/// A default as text: string defaults as they are, numbers as spelled.
const char *defaultText(const char *value, const char *) { return value; }
const char *defaultText(double, const char *spelled) { return spelled; }

} // namespace

ArrayRef<RematOptionInfo> mlir::ckpt::getRematOptionInfos() {
  static const RematOptionInfo infos[] = {
#define CKPT_REMAT_OPTION(FIELD, KEY, TYPE, DEFAULT, DESCRIPTION)              \
  {KEY, kindOf<TYPE>(), defaultText(DEFAULT, #DEFAULT), DESCRIPTION, true},
#define CKPT_REMAT_PASS_OPTION(FIELD, KEY, TYPE, DEFAULT, DESCRIPTION)         \
  {KEY, kindOf<TYPE>(), defaultText(DEFAULT, #DEFAULT), DESCRIPTION, false},
#define CKPT_REMAT_LIST_OPTION(FIELD, KEY, TYPE, DESCRIPTION)                  \
  {KEY, "list", "", DESCRIPTION, false},
#include "ckpt/Remat/RematOptions.def"
  };
  return infos;
}
