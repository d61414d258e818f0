"""ckpt: gradient checkpointing as a compiler transformation (Python side).

`ckpt.models` generates the model zoo as MLIR (linalg on tensors).
"""
