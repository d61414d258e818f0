//===- RematOptionsDoc.cpp - docs of ckpt-remat's options -----------------===//
//
// Writes the Markdown reference of the remat options (the table the C API
// and Python read, expanded from RematOptions.def) to the file named by its
// argument (standard output without one): the docs target stitches it into
// the pass reference.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Remat/RematOptions.h"

#include <cstdio>
#include <string>

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
  for (const mlir::ckpt::RematOptionInfo &info :
       mlir::ckpt::getRematOptionInfos()) {
    std::string kind = info.kind;
    std::string defaultText = *info.defaultValue
                                  ? "`" + std::string(info.defaultValue) + "`"
                                  : "(empty)";
    std::printf("| `%s` | %s | %s | %s | %s |\n", info.key,
                kind == "list" ? "list of strings" : kind.c_str(),
                defaultText.c_str(),
                info.inTools ? "pass, pipelines, tools" : "pass, pipelines",
                info.description);
  }
  return 0;
}
