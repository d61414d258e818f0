"""Command line of the model zoo: prints a model as MLIR.

  python3 -m ckpt.models mlp --layers 8 --batch 32 --hidden 64
  python3 -m ckpt.models transformer --layers 12 --seq 1024 --d 768 --heads 12
  python3 -m ckpt.models resnet --blocks 8 --batch 8 --size 32 --channels 64
  python3 -m ckpt.models unet --levels 4 --size 128 --channels 32
  python3 -m ckpt.models transformer --tiny --dtype f64
  python3 -m ckpt.models attention --batch 4 --heads 12 --seq 1024 --width 64 --causal
"""

import argparse
import sys

from . import MODELS

# Sizes small enough to execute (and gradient-check) on the CI machine.
TINY = {
    "mlp": dict(layers=3, batch=4, hidden=6),
    "transformer": dict(layers=1, seq=4, d=8, heads=2),
    "resnet": dict(blocks=1, batch=1, size=4, channels=2, in_channels=1),
    "unet": dict(levels=2, batch=1, size=4, channels=2, in_channels=1),
    "attention": dict(batch=1, heads=2, seq=5, keys=0, width=3, value_width=0),
}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m ckpt.models",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="model", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--dtype", choices=["f32", "f64"], default="f32")
    common.add_argument("--name", default="loss", help="function name")
    common.add_argument("--tiny", action="store_true",
                        help="sizes small enough to execute in tests")
    p = sub.add_parser("mlp", parents=[common])
    p.add_argument("--layers", type=int, default=8)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--dropout", type=float, default=0.0,
                   help="dropout rate after each hidden layer (0: none)")
    p = sub.add_parser("transformer", parents=[common])
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--seq", type=int, default=16)
    p.add_argument("--d", type=int, default=32)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--vocab", type=int, default=0,
                   help="vocabulary size: token embedding, tied output "
                        "projection and cross-entropy loss (0: regression "
                        "on embedded inputs)")
    p.add_argument("--batch", type=int, default=1,
                   help="sequences per step (regression head only)")
    p.add_argument("--tokens-as-constants", action="store_true",
                   help="bake a fixed token sequence into the function "
                        "instead of i64 arguments (for gradient checks)")
    p = sub.add_parser("resnet", parents=[common])
    p.add_argument("--blocks", type=int, default=4)
    p.add_argument("--batch", type=int, default=2)
    p.add_argument("--size", type=int, default=16)
    p.add_argument("--channels", type=int, default=8)
    p.add_argument("--in-channels", type=int, default=3)
    p = sub.add_parser("unet", parents=[common])
    p.add_argument("--levels", type=int, default=3)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--size", type=int, default=32)
    p.add_argument("--channels", type=int, default=8)
    p.add_argument("--in-channels", type=int, default=3)
    p = sub.add_parser("attention", parents=[common])
    p.add_argument("--batch", type=int, default=2)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--seq", type=int, default=64)
    p.add_argument("--keys", type=int, default=0, help="key count (0: --seq)")
    p.add_argument("--width", type=int, default=32, help="query/key width per head")
    p.add_argument("--value-width", type=int, default=0,
                   help="value width per head (0: --width)")
    p.add_argument("--causal", action="store_true")
    p.add_argument("--masked", action="store_true",
                   help="a key padding mask argument (i1)")
    args = parser.parse_args(argv)

    sizes = {k: v for k, v in vars(args).items()
             if k not in ("model", "dtype", "name", "tiny")}
    if args.tiny:
        # Tiny sizes; options that are not sizes are kept.
        sizes = dict(TINY[args.model],
                     **{k: v for k, v in sizes.items()
                        if k in ("vocab", "tokens_as_constants", "dropout",
                                 "causal", "masked")})
    for key, value in sizes.items():
        if key in ("vocab", "tokens_as_constants", "keys", "value_width",
                   "causal", "masked"):
            if value < 0:
                parser.error(f"--{key} must not be negative")
            continue
        if key != "dropout" and value <= 0:
            parser.error(f"--{key} must be positive")
    generator = MODELS[args.model]
    try:
        text = generator(dtype=args.dtype, name=args.name, **sizes)
    except ValueError as error:
        parser.error(str(error))
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
