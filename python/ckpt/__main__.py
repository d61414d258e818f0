"""python3 -m ckpt COMMAND ...

Commands:
  demo     train a real model with PyTorch and with ckpt at several budgets:
           peak memory, step time, losses, a picture (ckpt.demo)
  sweep    rematerialize and run a step at a range of budgets (ckpt.sweep)
"""

import sys


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command == "demo":
        from .demo import main as demo_main
        return demo_main(rest)
    if command == "sweep":
        from .sweep import main as sweep_main
        return sweep_main(rest)
    print(f"python3 -m ckpt: unknown command '{command}'\n\n{__doc__.strip()}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
