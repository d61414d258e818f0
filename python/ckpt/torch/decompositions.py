"""Decompositions that keep scatters out of the exported step.

torch-mlir lowers `aten.scatter` and `aten.embedding_dense_backward` to its
own `tm_tensor.scatter`, which only torch-mlir's MLIR knows. The two places
they appear in training steps have scatter-free forms in core aten ops:
- nll_loss_backward writes the gradient into a zero tensor at the label of
  each row (`scatter.value` with one index per row): a comparison with an
  arange and a select;
- the embedding gradient adds each row's gradient into the row of its token:
  the transposed one-hot matrix of the tokens times the gradients (a matmul,
  which ckpt treats like any other).
"""


def _scatter_value(self, dim, index, value):
    import torch
    if index.shape[dim] != 1 or any(index.shape[d] != self.shape[d]
                                    for d in range(self.dim()) if d != dim):
        return NotImplemented
    shape = [1] * self.dim()
    shape[dim] = self.shape[dim]
    positions = torch.arange(self.shape[dim], device=self.device).view(shape)
    return torch.where(positions == index, torch.full_like(self, value), self)


def _embedding_dense_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq):
    import torch
    if scale_grad_by_freq:
        return NotImplemented
    tokens = indices.reshape(-1, 1)
    one_hot = tokens == torch.arange(num_weights, device=grad.device).view(1, -1)
    if padding_idx >= 0:
        one_hot = one_hot & (tokens != padding_idx)
    return one_hot.to(grad.dtype).t() @ grad.reshape(-1, grad.shape[-1])


def scatter_free_decompositions():
    """The decompositions above, keyed by the aten overloads they replace."""
    import torch
    aten = torch.ops.aten
    return {aten.scatter.value: _scatter_value,
            aten.embedding_dense_backward.default: _embedding_dense_backward}
