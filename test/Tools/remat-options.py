"""Checks every tool's --help against the one list of remat options,
include/ckpt/Remat/RematOptions.def (read here with a regular expression,
independently of the C++ that expands it):

- ckpt-opt: `--ckpt-remat` and `--ckpt-remat-pipeline` have exactly the
  listed keys, `--ckpt-cpu-pipeline` and `--ckpt-gpu-pipeline` exactly the
  listed keys prefixed `remat-`;
- ckpt-run and ckpt-compile: exactly the tool options as `--remat-KEY`, and
  none of LLVM's own options (their --help lists their own options only).

Usage: remat-options.py DEF_FILE BIN_DIR
"""

import re
import subprocess
import sys

OPTION = re.compile(r'CKPT_REMAT_(OPTION|PASS_OPTION|LIST_OPTION)\(\s*\w+,\s*"([a-z-]+)"')


def help_text(*command):
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def section(text, name):
    """The option lines of one pass or pipeline in mlir-opt's --help."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if re.match(rf"\s+--{name}\s", l))
    indent = len(lines[start]) - len(lines[start].lstrip())
    body = []
    for line in lines[start + 1:]:
        if len(line) - len(line.lstrip()) <= indent:
            break
        body.append(line)
    return body


def keys_in(lines, prefix=""):
    return {m.group(1) for l in lines if (m := re.match(r"\s+--" + prefix + r"([a-z-]+)=", l))}


def main():
    definition, bin_dir = sys.argv[1], sys.argv[2]
    found = [(m.group(1), m.group(2)) for m in OPTION.finditer(open(definition).read())
             if not m.group(0).startswith("CKPT_REMAT_OPTION(FIELD")]
    every = {key for _, key in found}
    tools = {key for kind, key in found if kind == "OPTION"}
    failures = []

    def expect(where, got, want):
        if got != want:
            failures.append(f"{where}: missing {sorted(want - got)}, unexpected {sorted(got - want)}")

    opt = help_text(f"{bin_dir}/ckpt-opt", "--help")
    expect("ckpt-opt --ckpt-remat", keys_in(section(opt, "ckpt-remat")), every)
    expect("ckpt-opt --ckpt-remat-pipeline", keys_in(section(opt, "ckpt-remat-pipeline")), every)
    for pipeline in ("ckpt-cpu-pipeline", "ckpt-gpu-pipeline"):
        expect(f"ckpt-opt --{pipeline}", keys_in(section(opt, pipeline), "remat-"), every)
    for tool in ("ckpt-run", "ckpt-compile"):
        text = help_text(f"{bin_dir}/{tool}", "--help")
        expect(f"{tool} --help", keys_in(text.splitlines(), "remat-"), tools)
        for foreign in ("General options:", "--aarch64-use-aa", "--amdgpu-dpp-combine"):
            if foreign in text:
                failures.append(f"{tool} --help lists {foreign}, not an option of its own")
    print(f"remat options: {len(every)} in the list, {len(tools)} in the tools")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
