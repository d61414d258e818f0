"""torch for the PyTorch frontend's tests: `from torch_required import
torch`. scripts/test.sh sets CKPT_REQUIRE_TORCH=1, so a missing torch or
torch-mlir fails the suite (an ImportError) instead of skipping the module
that imports this one, as it does elsewhere."""

import os

import pytest

if os.environ.get("CKPT_REQUIRE_TORCH") == "1":
    import torch
    import torch_mlir  # noqa: F401
else:
    torch = pytest.importorskip("torch")
    pytest.importorskip("torch_mlir")

__all__ = ["torch"]
