//===- RematOptionsDoc.cpp - docs of ckpt-remat's options -----------------===//
//
// Writes the Markdown reference of RematOptions.def to the file named by
// its argument (standard output without one): the docs target stitches it
// into the pass reference.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <string>

namespace {

/// A C++ type as the reference names it.
std::string typeName(const std::string &type) {
  if (type == "std::string")
    return "string";
  if (type == "double")
    return "number";
  return type;
}

void row(const char *key, const char *type, const char *defaultValue,
         const char *where, const char *description) {
  std::string defaultText =
      *defaultValue ? "`" + std::string(defaultValue) + "`" : "(empty)";
  std::printf("| `%s` | %s | %s | %s | %s |\n", key, typeName(type).c_str(),
              defaultText.c_str(), where, description);
}

const char *defaultText(const char *value, const char *) { return value; }
const char *defaultText(double, const char *spelled) { return spelled; }

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && !std::freopen(argv[1], "w", stdout)) {
    std::perror(argv[1]);
    return 1;
  }
  std::printf(
      "## ckpt-remat options\n\n"
      "Defined once in `include/ckpt/Remat/RematOptions.def`: keys of "
      "`ckpt-remat` and `ckpt-remat-pipeline`, `remat-KEY` in "
      "`ckpt-cpu-pipeline` and `ckpt-gpu-pipeline`, `--remat-KEY` in "
      "`ckpt-opt`, `ckpt-run` and `ckpt-compile` (where the column says "
      "tools), keywords of `ckpt.remat` (`-` written `_`).\n\n"
      "| key | type | default | where | description |\n"
      "|---|---|---|---|---|\n");
#define CKPT_REMAT_OPTION(FIELD, KEY, TYPE, DEFAULT, DESCRIPTION)              \
  row(KEY, #TYPE, defaultText(DEFAULT, #DEFAULT), "pass, pipelines, tools",    \
      DESCRIPTION);
#define CKPT_REMAT_PASS_OPTION(FIELD, KEY, TYPE, DEFAULT, DESCRIPTION)         \
  row(KEY, #TYPE, defaultText(DEFAULT, #DEFAULT), "pass, pipelines",           \
      DESCRIPTION);
#define CKPT_REMAT_LIST_OPTION(FIELD, KEY, TYPE, DESCRIPTION)                  \
  row(KEY, ("list of " + typeName(#TYPE) + "s").c_str(), "",                   \
      "pass, pipelines", DESCRIPTION);
#include "ckpt/Remat/RematOptions.def"
  return 0;
}
