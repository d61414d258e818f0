"""Where ckpt's command-line tools are, and their console scripts.

An installed package (`pip install .`) carries ckpt-opt, ckpt-plan, ckpt-run
and ckpt-compile in ckpt/bin, and pip puts a script of each name on the
PATH that runs that executable. In a source checkout the tools are in the
build directory's bin/.
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_PACKAGE_BIN = os.path.join(_HERE, "bin")
_REPOSITORY_BUILD = os.path.join(os.path.dirname(os.path.dirname(_HERE)), "build")


def find_tool(name, build=None):
    """The path of tool `name`: in `build`/bin when `build` is given, else in
    CKPT_BUILD_DIR's bin/ when that is set, else in the installed package,
    else in the source checkout's build/bin. Raises FileNotFoundError naming
    where it looked."""
    build = build or os.environ.get("CKPT_BUILD_DIR")
    folders = ([os.path.join(build, "bin")] if build else
               [_PACKAGE_BIN, os.path.join(_REPOSITORY_BUILD, "bin")])
    for folder in folders:
        path = os.path.join(folder, name)
        if os.access(path, os.X_OK):
            return path
    raise FileNotFoundError(
        f"no {name} in {' or '.join(folders)}: build ckpt (bash scripts/build.sh), "
        "install it (pip install .) or set CKPT_BUILD_DIR")


def _run(name):
    try:
        path = find_tool(name)
    except FileNotFoundError as error:
        print(f"{name}: error: {error}", file=sys.stderr)
        sys.exit(1)
    os.execv(path, [path] + sys.argv[1:])


def ckpt_opt():
    _run("ckpt-opt")


def ckpt_plan():
    _run("ckpt-plan")


def ckpt_run():
    _run("ckpt-run")


def ckpt_compile():
    _run("ckpt-compile")
