//===- RematOptions.h - ckpt-remat's options, defined once ------*- C++ -*-===//
//
// The options of rematerialization as a plain struct, as pass-pipeline
// option groups (`budget=...` or `remat-budget=...`), as command-line flags
// (`--remat-budget=...`) and as a table for the C API and Python: all
// expanded from RematOptions.def.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_REMAT_REMATOPTIONS_H
#define CKPT_REMAT_REMATOPTIONS_H

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace mlir::ckpt {

/// The options of `ckpt-remat` (see RematOptions.def).
struct RematOptions {
#define CKPT_REMAT_OPTION(FIELD, KEY, TYPE, DEFAULT, DESCRIPTION)              \
  TYPE FIELD = DEFAULT;
#define CKPT_REMAT_LIST_OPTION(FIELD, KEY, TYPE, DESCRIPTION)                  \
  SmallVector<TYPE> FIELD;
#include "ckpt/Remat/RematOptions.def"
};

/// Checks the options whose values form a fixed set (`report-format`); the
/// message names the option and the accepted values.
LogicalResult verifyRematOptions(const RematOptions &options,
                                 std::string &message);

/// One option, as the C API and Python list them.
struct RematOptionInfo {
  /// The key (`time-limit`).
  const char *key;
  /// `string`, `number` or `list` (of strings).
  const char *kind;
  /// The default, as text.
  const char *defaultValue;
  const char *description;
  /// False for the options tools that build one entry set themselves.
  bool inTools;
};

/// Every option, in RematOptions.def's order.
ArrayRef<RematOptionInfo> getRematOptionInfos();

/// The values of `fields`, an object with a pass option (`Option<T>`,
/// `ListOption<T>`) of each name (the pass, the pipelines' option groups).
template <typename Fields>
RematOptions collectRematOptions(const Fields &fields) {
  RematOptions options;
#define CKPT_REMAT_OPTION(FIELD, KEY, TYPE, DEFAULT, DESCRIPTION)              \
  options.FIELD = fields.FIELD;
#define CKPT_REMAT_LIST_OPTION(FIELD, KEY, TYPE, DESCRIPTION)                  \
  options.FIELD.assign(fields.FIELD.begin(), fields.FIELD.end());
#include "ckpt/Remat/RematOptions.def"
  return options;
}

/// Sets the pass options of `fields` (as for collectRematOptions) to
/// `options`.
template <typename Fields>
void assignRematOptions(Fields &fields, const RematOptions &options) {
#define CKPT_REMAT_OPTION(FIELD, KEY, TYPE, DEFAULT, DESCRIPTION)              \
  fields.FIELD = options.FIELD;
#define CKPT_REMAT_LIST_OPTION(FIELD, KEY, TYPE, DESCRIPTION)                  \
  fields.FIELD = ArrayRef<TYPE>(options.FIELD);
#include "ckpt/Remat/RematOptions.def"
}

/// The remat options as pass-pipeline options of `Owner`: with the keys of
/// the pass (`ckpt-remat-pipeline`) or prefixed with `remat-` (the lowering
/// pipelines).
template <bool Prefixed> struct RematPipelineOptionGroup {
  explicit RematPipelineOptionGroup(mlir::detail::PassOptions &owner)
      : owner(owner) {}

  /// The values as the pass takes them.
  RematOptions get() const { return collectRematOptions(*this); }

  /// Sets every value from `options`.
  void set(const RematOptions &options) { assignRematOptions(*this, options); }

private:
  mlir::detail::PassOptions &owner;

public:
#define CKPT_REMAT_OPTION(FIELD, KEY, TYPE, DEFAULT, DESCRIPTION)              \
  mlir::detail::PassOptions::Option<TYPE> FIELD{                               \
      owner, Prefixed ? "remat-" KEY : KEY, llvm::cl::desc(DESCRIPTION),       \
      llvm::cl::init(DEFAULT)};
#define CKPT_REMAT_LIST_OPTION(FIELD, KEY, TYPE, DESCRIPTION)                  \
  mlir::detail::PassOptions::ListOption<TYPE> FIELD{                           \
      owner, Prefixed ? "remat-" KEY : KEY, llvm::cl::desc(DESCRIPTION)};
#include "ckpt/Remat/RematOptions.def"
};

/// The remat options as command-line flags `--remat-KEY` of a tool that
/// builds one entry function (the pass-only options are left out), in
/// `category`.
struct RematCommandLineFlags {
  explicit RematCommandLineFlags(llvm::cl::OptionCategory &category)
      : category(category) {}

  /// The values as the pass takes them, for the function `entry`.
  RematOptions get(StringRef entry) const {
    RematOptions options;
    options.functions.push_back(entry.str());
#define CKPT_REMAT_OPTION(FIELD, KEY, TYPE, DEFAULT, DESCRIPTION)              \
  options.FIELD = FIELD;
#define CKPT_REMAT_PASS_OPTION(FIELD, KEY, TYPE, DEFAULT, DESCRIPTION)
#include "ckpt/Remat/RematOptions.def"
    return options;
  }

private:
  llvm::cl::OptionCategory &category;

public:
#define CKPT_REMAT_OPTION(FIELD, KEY, TYPE, DEFAULT, DESCRIPTION)              \
  llvm::cl::opt<TYPE> FIELD{"remat-" KEY, llvm::cl::desc(DESCRIPTION),         \
                            llvm::cl::init(DEFAULT), llvm::cl::cat(category)};
#define CKPT_REMAT_PASS_OPTION(FIELD, KEY, TYPE, DEFAULT, DESCRIPTION)
#include "ckpt/Remat/RematOptions.def"
};

} // namespace mlir::ckpt

#endif // CKPT_REMAT_REMATOPTIONS_H
