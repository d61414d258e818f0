"""Model zoo: forward models and losses as linalg-on-tensors MLIR.

Each generator returns the text of a module holding one public function (by
default `@loss`) that takes the inputs, targets and parameters as ranked f32
or f64 tensors and returns a scalar loss as a 0-d tensor, marked
`ckpt.differentiate` so that `ckpt-opt --ckpt-autodiff` turns it into a
training step. Run `python3 -m ckpt.models --help` for the command line.
"""

from .attention import attention
from .convnet import resnet, unet
from .mlp import mlp
from .transformer import transformer

MODELS = {"mlp": mlp, "transformer": transformer, "resnet": resnet, "unet": unet,
          "attention": attention}

__all__ = ["MODELS", "attention", "mlp", "resnet", "transformer", "unet"]
