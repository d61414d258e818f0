"""Decompositions that keep the exported step inside what torch-mlir lowers
to linalg on tensors (and so inside what ckpt-opt parses).

torch-mlir lowers `aten.scatter`, `aten.embedding_dense_backward` and
`aten.max_pool2d_with_indices_backward` to its own `tm_tensor.scatter`,
which only torch-mlir's MLIR knows, and fails on the backward of grouped
convolutions (depthwise ones in MobileNet). Each has a form in core aten
ops that torch-mlir lowers to linalg:
- nll_loss_backward writes the gradient into a zero tensor at the label of
  each row (`scatter.value` with one index per row): a comparison with an
  arange and a select;
- the embedding gradient adds each row's gradient into the row of its token:
  the transposed one-hot matrix of the tokens times the gradients (a matmul,
  which ckpt treats like any other);
- the max-pool gradient: for each of the window's k*k offsets, the output
  gradient gathered onto the input grid where that offset read the maximum
  (the saved indices), summed (overlapping windows add, as the scatter-add
  does);
- the convolution backward, which torch-mlir fails on for grouped
  convolutions (depthwise ones in MobileNet) and lowers, for strided ones,
  to a per-sample filter gradient (a tensor batch times the filter's size,
  summed afterwards): the input gradient of a strided convolution
  (dilation 1) is stride x stride phase convolutions of the output
  gradient, each with the flipped filter taps that reach its input
  positions, interleaved back (no zeros multiplied), otherwise a
  convolution of the spread-out output gradient with the flipped filters
  (torch-mlir fails on transposed grouped convolutions too); the filter
  gradient is a convolution
  of the input (groups moved into the batch, the batch into the channels)
  with the output gradient as its filter, stride and dilation swapped, so
  the batch is the reduction; transposed convolutions through their
  adjoint, the convolution with the same weight.

The ops that models nobody here wrote reached (issue 51), each in core
aten ops torch-mlir lowers to linalg: the average pool's, adaptive pools',
replication padding's and weight normalization's gradients, the view
written through (as_strided_scatter), index_put (advanced-indexing
gradients: bias tables, upsampling, unfold), and cumsum (a masked ordered
reduction in place of tm_tensor.scan). docs/TorchOps.md lists them all
(`python3 -m ckpt.torch.opsdoc`); `pytorch_fallback` supplies PyTorch's own
decomposition of any other op torch-mlir fails on.
"""

import contextlib


def _scatter_value(self, dim, index, value):
    """`value` written at one index per row (nll_loss's gradient): a
    comparison with the positions and a select, no scatter."""
    import torch
    if index.shape[dim] != 1 or any(index.shape[d] != self.shape[d]
                                    for d in range(self.dim()) if d != dim):
        return NotImplemented
    shape = [1] * self.dim()
    shape[dim] = self.shape[dim]
    positions = torch.arange(self.shape[dim], device=self.device).view(shape)
    return torch.where(positions == index, torch.full_like(self, value), self)


def _embedding_dense_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq):
    """The embedding gradient as the transposed one-hot matrix of the
    tokens times the gradients (a matmul; ckpt-one-hot-products-to-scatter
    turns it into row additions)."""
    import torch
    if scale_grad_by_freq:
        return NotImplemented
    tokens = indices.reshape(-1, 1)
    one_hot = tokens == torch.arange(num_weights, device=grad.device).view(1, -1)
    if padding_idx >= 0:
        one_hot = one_hot & (tokens != padding_idx)
    return one_hot.to(grad.dtype).t() @ grad.reshape(-1, grad.shape[-1])


def _output_padding(size, out, stride, padding, dilation, kernel):
    """Output padding that makes a transposed convolution of `out` positions
    cover `size` input positions (negative: the result is cropped)."""
    return size - ((out - 1) * stride - 2 * padding + dilation * (kernel - 1) + 1)


def _spread(planes, stride):
    """`planes` (n, c, h, w) with stride - 1 zeros between neighbours:
    (n, c, (h - 1) * stride[0] + 1, (w - 1) * stride[1] + 1)."""
    import torch.nn.functional as F
    if stride[0] == 1 and stride[1] == 1:
        return planes
    n, c, h, w = planes.shape
    spread = F.pad(planes.reshape(n, c, h, 1, w, 1), (0, stride[1] - 1, 0, 0, 0, stride[0] - 1))
    spread = spread.reshape(n, c, h * stride[0], w * stride[1])
    return spread[:, :, :(h - 1) * stride[0] + 1, :(w - 1) * stride[1] + 1]


def _window_sources(size, out, stride, padding, dilation, offset):
    """For each of `size` input positions along one axis: the output
    position whose window reads it at window offset `offset` (clamped into
    range) and whether there is one."""
    import torch
    shifted = torch.arange(size) + padding - offset * dilation
    source = torch.div(shifted, stride, rounding_mode="floor")
    valid = (shifted >= 0) & (torch.remainder(shifted, stride) == 0) & (source < out)
    return source.clamp(0, out - 1), valid


def _pair(values):
    """A pooling argument of one or two values as two."""
    return tuple(values) if len(values) == 2 else (values[0],) * 2


def _pool_window(kernel_size, stride, padding):
    """A 2-D pool's kernel, stride (the kernel when empty) and padding as
    pairs."""
    kernel = _pair(kernel_size)
    return kernel, _pair(stride) if stride else kernel, _pair(padding)


def _window_reads(size, out, stride, padding, dilation, offset):
    """For each of `out` windows along one axis: the input position it
    reads at window offset `offset` (clamped into range) and whether that
    position lies inside the input (not in the padding)."""
    import torch
    read = torch.arange(out) * stride - padding + offset * dilation
    return read.clamp(0, size - 1), (read >= 0) & (read < size)


def _window_offsets(kernel, row_axis, column_axis, width):
    """For each offset of a `kernel` window, row-major: its index, and the
    flat positions (row * `width` + column) a grid reads there with whether
    each lies inside; `row_axis(ki)` and `column_axis(kj)` give the
    positions along one axis and whether they are inside."""
    kh, kw = kernel
    for ki in range(kh):
        rows, rows_inside = row_axis(ki)
        for kj in range(kw):
            columns, columns_inside = column_axis(kj)
            position = (rows.view(-1, 1) * width + columns.view(1, -1)).reshape(-1)
            inside = (rows_inside.view(-1, 1) & columns_inside.view(1, -1)).reshape(-1)
            yield ki * kw + kj, position, inside


def _first_maximum_offsets(input, out_size, kernel, stride, padding, dilation):
    """For each window of a 2-D max pool: the offset (row-major in the
    window) of the element PyTorch's kernel takes for the maximum: the first
    one holding the maximum, or, where the window holds NaN, the last NaN
    (the kernel's `val > max || isnan(val)`); padding is never taken. A
    tensor of int8 (int32 beyond 127 offsets) of the pool's output shape,
    computed from the input: the int64 flat indices the forward returns are
    not read, so nothing 8 bytes per output is kept or recomputed for the
    backward."""
    import torch
    n, c, h, w = input.shape
    ho, wo = out_size
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation
    flat = input.reshape(n, c, h * w)
    reads = [(flat.index_select(2, position), inside)
             for _, position, inside in _window_offsets(
                 (kh, kw), lambda ki: _window_reads(h, ho, sh, ph, dh, ki),
                 lambda kj: _window_reads(w, wo, sw, pw, dw, kj), w)]
    lowest = torch.full((), float("-inf"), dtype=input.dtype)
    peak = None
    for values, inside in reads:
        value = torch.where(inside, values, lowest)
        peak = value if peak is None else torch.maximum(peak, value)
    dtype = torch.int8 if len(reads) < 127 else torch.int32
    none = torch.full((), -1, dtype=dtype)
    first = none
    for offset in reversed(range(len(reads))):
        values, inside = reads[offset]
        first = torch.where((values == peak) & inside, torch.full((), offset, dtype=dtype), first)
    last_nan = none
    for offset, (values, inside) in enumerate(reads):
        last_nan = torch.where(torch.isnan(values) & inside,
                               torch.full((), offset, dtype=dtype), last_nan)
    return torch.where(torch.isnan(peak), last_nan, first)


def _max_pool2d_backward(grad_output, input, kernel_size, stride, padding, dilation,
                         ceil_mode, indices):
    """The max pool's gradient: for each window offset, the output gradient
    gathered onto the input grid where that offset held the window's
    maximum, summed (no scatter). Which offset held it is found again from
    the input (_first_maximum_offsets), as PyTorch's indices would say,
    instead of reading the int64 indices."""
    import torch
    if input.dim() != 4:
        return NotImplemented
    h, w = input.shape[2:]
    (kh, kw), (sh, sw), (ph, pw) = _pool_window(kernel_size, stride, padding)
    dh, dw = _pair(dilation)
    n, c, ho, wo = grad_output.shape
    offsets = _first_maximum_offsets(input, (ho, wo), (kh, kw), (sh, sw), (ph, pw),
                                     (dh, dw)).reshape(n, c, ho * wo)
    zero = torch.zeros((), dtype=grad_output.dtype)
    grad_output = grad_output.reshape(n, c, ho * wo)
    grad = None
    # Input (y, x) is read at window offset (ki, kj) by at most one output
    # position; where that offset is the window's maximum, the output
    # gradient there comes back to (y, x). One gather and a select on the
    # input grid per offset, summed: elementwise ops that fuse into one,
    # with no intermediate grids.
    for offset, source, valid in _window_offsets(
            (kh, kw), lambda ki: _window_sources(h, ho, sh, ph, dh, ki),
            lambda kj: _window_sources(w, wo, sw, pw, dw, kj), wo):
        taken = (offsets.index_select(2, source) == offset) & valid
        part = torch.where(taken, grad_output.index_select(2, source), zero)
        grad = part if grad is None else grad + part
    grad = grad.reshape(n, c, h, w)
    return grad


def _pool_divisors(size, out, kernel, stride, padding, count_include_pad):
    """Along one axis of an average pool: the number of positions each of
    the `out` windows divides by, as PyTorch's kernel counts them (with
    `count_include_pad`, the window clipped to the padded input; without,
    to the input itself)."""
    import torch
    start = torch.arange(out) * stride - padding
    end = torch.clamp(start + kernel, max=size + padding)
    if count_include_pad:
        return end - start
    return torch.clamp(end, max=size) - torch.clamp(start, min=0)


def _avg_pool2d_backward(grad_output, input, kernel_size, stride, padding, ceil_mode,
                         count_include_pad, divisor_override):
    """The average pool's gradient (torch-mlir lowers no avg_pool2d_backward):
    each output gradient divided by its window's divisor, then spread back
    over the window, which is the input gradient of a depthwise convolution
    with all-ones filters (the phase or spread form above, so no scatter).
    `ceil_mode` windows that hang over the input are cropped by it."""
    import torch
    if input.dim() != 4:
        return NotImplemented
    h, w = input.shape[2:]
    (kh, kw), (sh, sw), (ph, pw) = _pool_window(kernel_size, stride, padding)
    n, c, ho, wo = grad_output.shape
    if divisor_override:
        scaled = grad_output / divisor_override
    else:
        rows = _pool_divisors(h, ho, kh, sh, ph, count_include_pad)
        columns = _pool_divisors(w, wo, kw, sw, pw, count_include_pad)
        divisors = (rows.view(ho, 1) * columns.view(1, wo)).to(grad_output.dtype)
        scaled = grad_output / divisors
    ones = torch.ones((c, 1, kh, kw), dtype=grad_output.dtype)
    if (sh, sw) != (1, 1):
        return _strided_input_gradient(scaled, ones, (h, w), (sh, sw), (ph, pw), groups=c)
    return _grouped_input_gradient(scaled, ones, (h, w), (sh, sw), (ph, pw), (1, 1), c)


def _as_strided_scatter(self, src, size, stride, storage_offset=None):
    """`src` written into the elements of `self` that the strided view
    (`size`, `stride`, `storage_offset`) of it reads (functionalization's
    form of a view written through; torch-mlir lowers no
    as_strided_scatter). The positions are known while tracing: a view
    that covers `self` in order is `src` reshaped, any other a gather of
    `src` at each position's source element and a select (no scatter)."""
    import numpy
    import torch
    if not self.is_contiguous():
        return NotImplemented
    offset = storage_offset or 0
    positions = numpy.full((), offset, dtype=numpy.int64)
    for extent, step in zip(size, stride):
        positions = positions[..., None] + numpy.arange(extent, dtype=numpy.int64) * step
    positions = positions.reshape(-1)
    total = self.numel()
    if positions.size and (positions.min() < 0 or positions.max() >= total):
        return NotImplemented
    if positions.size == total and (positions == numpy.arange(total)).all():
        return src.reshape(self.shape).clone()
    source = numpy.zeros(total, dtype=numpy.int64)
    written = numpy.zeros(total, dtype=bool)
    source[positions] = numpy.arange(positions.size)  # the last write wins
    written[positions] = True
    flat = src.reshape(-1).index_select(0, torch.from_numpy(source))
    result = torch.where(torch.from_numpy(written), flat, self.reshape(-1))
    return result.reshape(self.shape)


def _index_put(self, indices, values, accumulate=False):
    """`values` put (or, with `accumulate`, added) at the positions the
    index tensors pick among `self`'s leading dimensions (the gradient of
    advanced indexing, e.g. a relative-position bias table read through an
    index buffer): the one-hot matrix of the flattened positions, transposed,
    times the values (a matmul, as the embedding gradient), then added to
    `self` or selected over it (torch-mlir lowers index_put to its own
    scatter). Positions written twice without `accumulate` are undefined in
    PyTorch too."""
    import torch
    lead = 0
    while lead < len(indices) and indices[lead] is None:
        lead += 1
    indices = list(indices[lead:])
    if not indices or any(index is None or index.dtype == torch.bool for index in indices):
        return NotImplemented
    if lead:
        # x[:, :, I, J] = v: the indexed dimensions first, then the sliced
        # ones (v has them after the broadcast index dimensions).
        order = (list(range(lead, lead + len(indices))) + list(range(lead))
                 + list(range(lead + len(indices), self.dim())))
        batch = torch.broadcast_shapes(*[index.shape for index in indices])
        values = torch.broadcast_to(values, self.shape[:lead] + batch
                                    + self.shape[lead + len(indices):])
        values = values.movedim(list(range(lead)),
                                [len(batch) + i for i in range(lead)])
        result = _index_put(self.permute(order), indices, values, accumulate)
        inverse = [order.index(d) for d in range(self.dim())]
        return result.permute(inverse).contiguous()
    leading = self.shape[:len(indices)]
    rows = 1
    for extent in leading:
        rows *= extent
    flat = None
    for index, extent in zip(torch.broadcast_tensors(*indices), leading):
        index = torch.where(index < 0, index + extent, index)
        flat = index if flat is None else flat * extent + index
    trailing = self.shape[len(indices):]
    values = torch.broadcast_to(values, flat.shape + trailing).reshape(flat.numel(), -1)
    one_hot = flat.reshape(-1, 1) == torch.arange(rows, device=self.device).view(1, -1)
    table = self.reshape(rows, -1)
    if values.dtype.is_floating_point:
        placed = one_hot.to(values.dtype).t() @ values
    else:
        placed = (one_hot.to(values.dtype).unsqueeze(-1) * values.unsqueeze(1)).sum(0)
    if accumulate:
        result = table + placed.to(table.dtype)
    else:
        result = torch.where(one_hot.any(0).view(-1, 1), placed.to(table.dtype), table)
    return result.reshape(self.shape)


def _cumsum(self, dim, dtype=None):
    """The running sum along `dim` (torch-mlir lowers cumsum to its own
    tm_tensor.scan) as a masked reduction: element i sums x[j] for j <= i,
    in order of j, with zeros for the rest: a sequential scan in the
    element type (PyTorch's CPU kernel accumulates float32 in float64, so
    float results differ from eager's in the last bits). Its work is quadratic in the scanned length
    (position ids, masks: short rows). Integral and boolean inputs sum in
    int64, as torch.cumsum does."""
    import torch
    if self.dim() == 0:
        return NotImplemented
    if dtype is None and (self.dtype == torch.bool or not self.dtype.is_floating_point
                          and not self.dtype.is_complex):
        dtype = torch.int64
    x = self.to(dtype) if dtype is not None else self
    _, _, prefixes = _prefix_rows(x, dim, 0)
    return prefixes.sum(-1).movedim(-1, dim)


def _prefix_rows(self, dim, fill):
    """`self` with `dim` moved last and every row repeated as a square:
    element [..., i, j] is x[..., j] for j <= i and `fill` after (the
    prefixes a running reduction reduces; quadratic in the row's length,
    like the running sum's)."""
    import torch
    x = self.movedim(dim, -1)
    n = x.shape[-1]
    positions = torch.arange(n, device=self.device)
    earlier = positions.view(n, 1) >= positions.view(1, n)
    fill = torch.full((), fill, dtype=x.dtype, device=self.device)
    return x, earlier, torch.where(earlier, x.unsqueeze(-2), fill)


def _logcumsumexp(self, dim):
    """log(cumsum(exp(x))) along `dim` (torch-mlir lowers it to its own
    tm_tensor.scan): the log-sum-exp of each prefix, shifted by the prefix's
    maximum, so no exponential overflows or underflows where the running
    value is representable (a subtraction first would lose the early terms
    under a later large one). Its gradient is the prefix's softmax, as
    PyTorch's."""
    import torch
    if self.dim() == 0 or not self.dtype.is_floating_point:
        return NotImplemented
    _, _, prefixes = _prefix_rows(self, dim, float("-inf"))
    return torch.logsumexp(prefixes, dim=-1).movedim(-1, dim)


def _running_extreme(self, dim, largest):
    """cummax (`largest`) or cummin along `dim`: each prefix's extreme and
    the index PyTorch's kernel returns (the last position holding it; with
    NaNs, the last NaN). The values are picked at those indices by a
    comparison, so the gradient goes to that one element, as PyTorch's
    scatter does, not spread over ties as a max's gradient would be (and
    no gather, whose gradient would be a scatter_add)."""
    import torch
    if self.dim() == 0:
        return NotImplemented
    fill = float("-inf") if largest else float("inf")
    if not self.dtype.is_floating_point:
        info = torch.iinfo(self.dtype) if self.dtype != torch.bool else None
        if info is None:
            return NotImplemented
        fill = info.min if largest else info.max
    x, earlier, prefixes = _prefix_rows(self.detach(), dim, fill)
    extreme = (torch.amax if largest else torch.amin)(prefixes, dim=-1, keepdim=True)
    holds = prefixes == extreme
    if self.dtype.is_floating_point:
        holds = holds | (torch.isnan(prefixes) & torch.isnan(extreme))
    positions = torch.arange(x.shape[-1], device=self.device).expand_as(prefixes)
    minus_one = torch.full((), -1, dtype=positions.dtype, device=self.device)
    indices = torch.where(earlier & holds, positions, minus_one).amax(dim=-1)
    picked = positions == indices.unsqueeze(-1)
    zero = torch.zeros((), dtype=self.dtype, device=self.device)
    values = torch.where(picked, self.movedim(dim, -1).unsqueeze(-2), zero).sum(-1)
    return values.movedim(-1, dim), indices.movedim(-1, dim)


def _scatter_add(self, dim, index, src):
    """`src` added into `self` at `index` along `dim` (torch-mlir lowers
    scatter_add to its own tm_tensor.scatter; it is the gradient of gather
    and of take_along_dim): each element of the result adds the sources
    whose index names it, compared against every position of `dim` (work
    quadratic in that extent). Where `index` is smaller than `self` in
    another dimension, PyTorch's own decomposition is used."""
    import torch
    if self.dim() == 0 or index.shape != src.shape or any(
            index.shape[d] != self.shape[d] for d in range(self.dim()) if d != dim % self.dim()):
        return NotImplemented
    target = self.movedim(dim, -1)
    n = target.shape[-1]
    positions = torch.arange(n, device=self.device)
    named = index.movedim(dim, -1).unsqueeze(-1) == positions
    zero = torch.zeros((), dtype=src.dtype, device=self.device)
    added = torch.where(named, src.movedim(dim, -1).unsqueeze(-1), zero).sum(-2)
    return (target + added.to(target.dtype)).movedim(-1, dim)


def _cummax(self, dim):
    """The running maximum and its index (torch-mlir lowers no cummax): each
    prefix's maximum, the last position holding it (with NaNs, the last
    NaN), and the value picked at that position by a comparison, so its
    gradient goes to that one element as PyTorch's does."""
    return _running_extreme(self, dim, largest=True)


def _cummin(self, dim):
    """The running minimum and its index, as cummax's."""
    return _running_extreme(self, dim, largest=False)


def _weight_norm_backward(grad_w, saved_v, saved_g, saved_norms, dim):
    """The gradients of weight normalization w = g * v / ||v|| (norms over
    every dimension but `dim`; wav2vec2's positional convolution), which
    torch-mlir does not lower: grad_g = sum(grad_w * v) / ||v|| and
    grad_v = g / ||v|| * (grad_w - v * sum(grad_w * v) / ||v||^2)."""
    dims = [d for d in range(saved_v.dim()) if d != dim % saved_v.dim()]
    dot = (grad_w * saved_v).sum(dim=dims, keepdim=True)
    grad_g = (dot / saved_norms).reshape(saved_g.shape)
    grad_v = saved_g / saved_norms * (grad_w - saved_v * (dot / (saved_norms * saved_norms)))
    return grad_v, grad_g


def _spread_back(grad, rows, columns):
    """`grad` (n, c, ho, wo) sent back to an (h, w) grid through constant
    0/1 or weight matrices rows (ho, h) and columns (wo, w) that say which
    input positions each output position read: rowsᵀ · grad · columns per
    plane, two matmuls."""
    import torch
    rows = torch.as_tensor(rows, dtype=grad.dtype)
    columns = torch.as_tensor(columns, dtype=grad.dtype)
    n, c, ho, wo = grad.shape
    spread = (grad.reshape(n * c * ho, wo) @ columns).reshape(n * c, ho, -1)
    spread = rows.t().unsqueeze(0).expand(n * c, -1, -1) @ spread
    return spread.reshape(n, c, rows.shape[1], columns.shape[1])


def _adaptive_windows(size, out):
    """The 0/1 matrix (out, size) of PyTorch's adaptive pooling windows:
    output i reads floor(i * size / out) up to ceil((i + 1) * size / out)."""
    import numpy
    windows = numpy.zeros((out, size))
    for i in range(out):
        windows[i, (i * size) // out:-((-(i + 1) * size) // out)] = 1
    return windows


def _adaptive_avg_pool2d_backward(grad_output, input):
    """The adaptive average pool's gradient: each output gradient divided
    by its window's size and spread over the window (torch-mlir lowers no
    _adaptive_avg_pool2d_backward)."""
    if input.dim() != 4:
        return NotImplemented
    h, w = input.shape[2:]
    ho, wo = grad_output.shape[2:]
    rows, columns = _adaptive_windows(h, ho), _adaptive_windows(w, wo)
    rows = rows / rows.sum(1, keepdims=True)
    columns = columns / columns.sum(1, keepdims=True)
    return _spread_back(grad_output, rows, columns)


def _adaptive_max_pool2d_backward(grad_output, input, indices):
    """The adaptive max pool's gradient: each output gradient added at the
    input position its window's maximum came from (the saved flat index),
    as a comparison with the positions and a reduction over the outputs."""
    import torch
    if input.dim() != 4:
        return NotImplemented
    n, c, h, w = input.shape
    positions = torch.arange(h * w, device=grad_output.device)
    taken = indices.reshape(n, c, -1, 1) == positions
    zero = torch.zeros((), dtype=grad_output.dtype)
    grad = torch.where(taken, grad_output.reshape(n, c, -1, 1), zero).sum(2)
    return grad.reshape(n, c, h, w)


def _replication_pad2d_backward(grad_output, input, padding):
    """The edge-replicating pad's gradient: every padded position's
    gradient added to the edge element it copies."""
    import numpy
    if input.dim() != 4:
        return NotImplemented
    left, right, top, bottom = padding
    h, w = input.shape[2:]

    def sources(size, low, high):
        matrix = numpy.zeros((size + low + high, size))
        matrix[numpy.arange(size + low + high),
               numpy.clip(numpy.arange(size + low + high) - low, 0, size - 1)] = 1
        return matrix
    return _spread_back(grad_output, sources(h, top, bottom), sources(w, left, right))


def _constant_pad_nd(self, pad, value=0):
    """A pad with negative amounts (what autograd writes for the gradient
    of a pad, and F.pad's cropping) as a slice of the cropped sides, then
    the pad of the rest: torch-mlir lowers it to a tensor.pad with negative
    low or high sizes, which is not a valid pad."""
    import torch.nn.functional as F
    if all(amount >= 0 for amount in pad):
        return NotImplemented
    cropped = self
    for index in range(0, len(pad), 2):
        dim = self.dim() - 1 - index // 2
        low, high = pad[index], pad[index + 1]
        start, stop = max(0, -low), cropped.shape[dim] - max(0, -high)
        cropped = cropped.narrow(dim, start, max(0, stop - start))
    rest = [max(0, amount) for amount in pad]
    if not any(rest):
        return cropped.clone()
    return F.pad(cropped, rest, value=value)


def _roll(self, shifts, dims=()):
    """A roll along given dimensions as the concatenation of two slices
    per dimension, of static sizes (torch-mlir's roll casts both slices to
    a dynamic size before its concatenation, which the memory analysis
    cannot size; shifted-window attention rolls its feature maps)."""
    import torch
    shifts = list(shifts) if isinstance(shifts, (list, tuple)) else [shifts]
    dims = list(dims) if isinstance(dims, (list, tuple)) else [dims]
    if len(dims) != len(shifts) or self.dim() == 0:
        return NotImplemented
    result = self
    for shift, dim in zip(shifts, dims):
        size = result.shape[dim]
        shift = shift % size if size else 0
        if shift:
            result = torch.cat([result.narrow(dim, size - shift, shift),
                                result.narrow(dim, 0, size - shift)], dim)
    return result if result is not self else self.clone()


def _diagonal_scatter(self, src, offset=0, dim1=0, dim2=1):
    """`src` written on a diagonal of `self` (the gradient of
    torch.diagonal; torch-mlir lowers no diagonal_scatter): the diagonal's
    positions are known while tracing, so `src` is placed on the
    (dim1, dim2) plane through two one-hot matrices (each position gets at
    most one element: exact) and selected over `self`."""
    import numpy
    import torch
    moved = self.movedim((dim1, dim2), (-2, -1))
    rows, columns = moved.shape[-2:]
    length = src.shape[-1]
    first_row, first_column = max(0, -offset), max(0, offset)
    row_of = numpy.zeros((length, rows))
    column_of = numpy.zeros((length, columns))
    row_of[numpy.arange(length), numpy.arange(length) + first_row] = 1
    column_of[numpy.arange(length), numpy.arange(length) + first_column] = 1
    on_diagonal = torch.from_numpy((row_of.T @ column_of) > 0)
    row_of = torch.as_tensor(row_of, dtype=src.dtype)
    column_of = torch.as_tensor(column_of, dtype=src.dtype)
    placed = (src.unsqueeze(-1) * row_of).transpose(-1, -2) @ column_of
    return torch.where(on_diagonal, placed, moved).movedim((-2, -1), (dim1, dim2))


def _phase_taps(kernel, stride, padding, phase):
    """Along one axis of a strided convolution: the first kernel tap and the
    number of taps that reach input positions t = phase (mod stride), and
    the output position q0 whose window reads t = phase at that first tap.
    Position t = o * stride + i - padding, so tap i reaches t exactly when
    i = t + padding (mod stride)."""
    first = (phase + padding) % stride
    taps = len(range(first, kernel, stride))
    return first, taps, (phase + padding - first) // stride


def _window(planes, axis, start, length):
    """`length` positions of `planes` along `axis` from `start` (which may
    lie outside it: zeros there)."""
    import torch.nn.functional as F
    extent = planes.shape[axis]
    low, high = max(0, -start), max(0, start + length - extent)
    kept = planes.narrow(axis, max(0, start), max(0, min(extent, start + length) - max(0, start)))
    if low or high:
        pads = [0, 0, 0, 0]
        pads[2 * (3 - axis)] = low
        pads[2 * (3 - axis) + 1] = high
        kept = F.pad(kept, pads)
    return kept


def _swap_filter_channels(weight, groups):
    """The filters of the convolution that maps an output gradient back to
    the input channels: in and out channels swapped within each group,
    the kernel flipped."""
    c_out, c_group, kh, kw = weight.shape
    if groups == 1:
        return weight.transpose(0, 1).flip([2, 3])
    o_group = c_out // groups
    swapped = weight.reshape(groups, o_group, c_group, kh, kw).transpose(1, 2)
    return swapped.reshape(groups * c_group, o_group, kh, kw).flip([2, 3])


def _strided_input_gradient(grad_output, weight, size, stride, padding, groups=1):
    """The input gradient of a strided convolution (dilation 1, any groups)
    without the zeros a spread output gradient multiplies: the input
    positions split into stride[0] x stride[1] phases by their remainder,
    and each phase is a stride-1 convolution of the output gradient with the
    kernel taps that reach it (flipped, in and out channels swapped within
    each group). Every product computed is one the gradient needs; the
    phases are interleaved back into the input grid."""
    import torch
    aten = torch.ops.aten
    n = grad_output.shape[0]
    c = weight.shape[1] * groups
    cells = [-(-extent // step) for extent, step in zip(size, stride)]
    rows = []
    for phase_h in range(stride[0]):
        row = []
        first_h, taps_h, q0_h = _phase_taps(weight.shape[2], stride[0], padding[0], phase_h)
        length_h = len(range(phase_h, size[0], stride[0]))
        for phase_w in range(stride[1]):
            first_w, taps_w, q0_w = _phase_taps(weight.shape[3], stride[1], padding[1], phase_w)
            length_w = len(range(phase_w, size[1], stride[1]))
            if taps_h == 0 or taps_w == 0 or length_h == 0 or length_w == 0:
                part = grad_output.new_zeros((n, c, cells[0], cells[1]))
            else:
                # g[j] = sum_m dy[q0 + j - m] w[first + stride * m]: a
                # correlation of dy from q0 - (taps - 1) with the taps
                # reversed.
                window = _window(grad_output, 2, q0_h - (taps_h - 1), length_h + taps_h - 1)
                window = _window(window, 3, q0_w - (taps_w - 1), length_w + taps_w - 1)
                taps = _swap_filter_channels(
                    weight[:, :, first_h::stride[0], first_w::stride[1]], groups)
                part = aten.convolution(window, taps, None, [1, 1], [0, 0], [1, 1], False,
                                        [0, 0], groups)
                part = _window(_window(part, 2, 0, cells[0]), 3, 0, cells[1])
            row.append(part)
        rows.append(torch.stack(row, dim=-1))
    grid = torch.stack(rows, dim=3)
    grid = grid.reshape(n, c, cells[0] * stride[0], cells[1] * stride[1])
    return grid[:, :, :size[0], :size[1]]


def _grouped_input_gradient(grad_output, weight, size, stride, padding, dilation, groups):
    """The input gradient of a (grouped) convolution as a convolution
    (torch-mlir fails on transposed grouped ones): the output gradient with
    stride - 1 zeros between its elements, padded by dilation * (k - 1) -
    padding, convolved with the filters flipped and their in and out
    channels swapped within each group."""
    import torch
    import torch.nn.functional as F
    aten = torch.ops.aten
    kh, kw = weight.shape[2:]
    spread = _spread(grad_output, stride)
    pads = []
    for dim, (kernel, extent) in reversed(list(enumerate(((kh, size[0]), (kw, size[1]))))):
        low = dilation[dim] * (kernel - 1) - padding[dim]
        high = low + _output_padding(extent, grad_output.shape[2 + dim], stride[dim],
                                     padding[dim], dilation[dim], kernel)
        pads += [low, high]
    spread = F.pad(spread, pads)
    return aten.convolution(spread, _swap_filter_channels(weight, groups), None, [1, 1],
                            [0, 0], dilation, False, [0, 0], groups)


def _input_and_weight_gradients(input, weight, output_mask, input_gradient,
                                weight_gradient):
    """A convolution's input and weight gradients (None where `output_mask`
    does not ask for them), traced in the order that frees memory sooner.
    Both read the output gradient; the weight gradient also reads the
    forward's input, and is often its last reader (a pool's output, whose
    own gradient does not read it). Run first, it lets that input die
    before the input gradient's result is allocated, at the price of
    holding the weight gradient that much earlier where the input lives on
    (a ReLU's output, read again by its gradient): first where the input is
    the larger of the two."""
    weight_first = input.numel() >= weight.numel()
    grad_input = grad_weight = None
    if output_mask[1] and weight_first:
        grad_weight = weight_gradient()
    if output_mask[0]:
        grad_input = input_gradient()
    if output_mask[1] and not weight_first:
        grad_weight = weight_gradient()
    return grad_input, grad_weight


def _transposed_convolution_backward(grad_output, input, weight, stride, padding, dilation,
                                     groups, output_mask):
    """The gradients of a transposed convolution, the adjoint of the
    convolution with the same weight: its input gradient is that
    convolution of the output gradient, and its weight gradient that
    convolution's weight gradient with the roles of input and output
    gradient exchanged."""
    import torch
    aten = torch.ops.aten
    grad_bias = None

    def input_gradient():
        return aten.convolution(grad_output, weight, None, stride, padding, dilation, False,
                                [0, 0], groups)

    def weight_gradient():
        return _grouped_convolution_backward(
            input, grad_output, weight, None, stride, padding, dilation, False, [0, 0], groups,
            [False, True, False])[1]

    grad_input, grad_weight = _input_and_weight_gradients(input, weight, output_mask,
                                                          input_gradient, weight_gradient)
    if output_mask[2]:
        grad_bias = grad_output.sum(dim=(0, 2, 3))
    return grad_input, grad_weight, grad_bias


def _grouped_convolution_backward(grad_output, input, weight, bias_sizes, stride, padding,
                                  dilation, transposed, output_padding, groups, output_mask):
    """Both gradients of any 2-D convolution as convolutions: the input
    gradient as stride x stride phase convolutions (strided, dilation 1) or
    a convolution of the spread output gradient with the flipped filters,
    the weight gradient as a convolution over the batch (groups into the
    batch); transposed convolutions through their adjoint."""
    import torch
    aten = torch.ops.aten
    if input.dim() != 4:
        return NotImplemented
    if transposed:
        return _transposed_convolution_backward(grad_output, input, weight, stride, padding,
                                                dilation, groups, output_mask)
    n, _, h, w = input.shape
    c_out, c_group, kh, kw = weight.shape
    o_group = c_out // groups
    ho, wo = grad_output.shape[2:]
    grad_bias = None

    def weight_gradient():
        # Without groups, plain transposes: a reshape of the forward's input
        # would be a view of it, which the remat pass then cannot free early.
        if groups == 1:
            x = input.transpose(0, 1)
            dy = grad_output.transpose(0, 1)
        else:
            x = input.reshape(n, groups, c_group, h, w).permute(2, 1, 0, 3, 4)
            x = x.reshape(c_group, groups * n, h, w)
            dy = grad_output.reshape(n, groups, o_group, ho, wo).permute(1, 2, 0, 3, 4)
            dy = dy.reshape(groups * o_group, n, ho, wo)
        grad = aten.convolution(x, dy, None, dilation, padding, stride, False, [0, 0], groups)
        return grad[:, :, :kh, :kw].permute(1, 0, 2, 3).contiguous()

    def input_gradient():
        if tuple(dilation) == (1, 1) and tuple(stride) != (1, 1):
            return _strided_input_gradient(grad_output, weight, (h, w), stride, padding, groups)
        return _grouped_input_gradient(grad_output, weight, (h, w), stride, padding, dilation,
                                       groups)

    grad_input, grad_weight = _input_and_weight_gradients(input, weight, output_mask,
                                                          input_gradient, weight_gradient)
    if output_mask[2]:
        grad_bias = grad_output.sum(dim=(0, 2, 3))
    return grad_input, grad_weight, grad_bias


def _without_autocast(decomposition):
    """`decomposition` run with autocast off: it computes the op it replaces
    in the dtypes that op was given. Ops of the forward are traced inside
    the caller's autocast region, and a decomposition's own matmuls would
    otherwise be cast again (the embedding gradient's one-hot matmul came out
    bf16; eager's embedding_dense_backward sums in the gradient's dtype)."""
    import functools

    import torch

    @functools.wraps(decomposition)
    def run(*args, **kwargs):
        with torch._C._DisableAutocast():
            return decomposition(*args, **kwargs)
    return run


def scatter_free_decompositions():
    """The decompositions above, keyed by the aten overloads they replace."""
    import torch
    aten = torch.ops.aten
    table = {aten.scatter.value: _scatter_value,
             aten.embedding_dense_backward.default: _embedding_dense_backward,
             aten.max_pool2d_with_indices_backward.default: _max_pool2d_backward,
             aten.avg_pool2d_backward.default: _avg_pool2d_backward,
             aten.as_strided_scatter.default: _as_strided_scatter,
             aten.index_put.default: _index_put,
             aten.cumsum.default: _cumsum,
             aten.logcumsumexp.default: _logcumsumexp,
             aten.scatter_add.default: _scatter_add,
             aten.cummax.default: _cummax,
             aten.cummin.default: _cummin,
             aten.diagonal_scatter.default: _diagonal_scatter,
             aten.roll.default: _roll,
             aten.constant_pad_nd.default: _constant_pad_nd,
             aten._adaptive_avg_pool2d_backward.default: _adaptive_avg_pool2d_backward,
             aten.adaptive_max_pool2d_backward.default: _adaptive_max_pool2d_backward,
             aten.replication_pad2d_backward.default: _replication_pad2d_backward,
             aten._weight_norm_interface_backward.default: _weight_norm_backward,
             aten.convolution_backward.default: _grouped_convolution_backward}
    return {op: _without_autocast(decomposition) for op, decomposition in table.items()}


def export_decompositions():
    """torch-mlir's decomposition table with the ones above on top."""
    from torch_mlir.extras.fx_decomp_util import get_decomposition_table
    return {**get_decomposition_table(), **scatter_free_decompositions()}


@contextlib.contextmanager
def above_autograd():
    """A context in which ops whose gradient torch-mlir cannot lower are
    replaced, before autograd sees them, by PyTorch's decompositions of
    their forward (torch._decomp), so that the backward is the gradient of
    ops it lowers: grid_sample (2-D) becomes gathers, and its gradient
    index_put additions."""
    import torch
    from torch._decomp import decomposition_table

    import torch.nn.functional as F

    grid_sampler_2d = decomposition_table[torch.ops.aten.grid_sampler_2d.default]
    modes = {"bilinear": 0, "nearest": 1, "bicubic": 2}
    paddings = {"zeros": 0, "border": 1, "reflection": 2}

    def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
        return grid_sampler_2d(input, grid, modes[mode], paddings[padding_mode],
                               bool(align_corners))

    class Mode(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if args and getattr(args[0], "ndim", 0) == 4:
                if func is F.grid_sample and kwargs.get("mode", args[2] if len(args) > 2
                                                        else "bilinear") in modes:
                    return grid_sample(*args, **kwargs)
                if func in (torch.grid_sampler, torch.grid_sampler_2d):
                    return grid_sampler_2d(*args, **kwargs)
            return func(*args, **kwargs)

    with Mode():
        yield


def pytorch_fallback(op_name):
    """PyTorch's own decomposition (torch._decomp) of an aten op that
    torch-mlir could not lower (`aten.avg_pool3d_backward.default`), as a
    one-entry table, or None. The export adds it and traces again, so ops
    leave the table only when they are actually needed."""
    import torch
    from torch._decomp import decomposition_table
    if not op_name or not op_name.startswith("aten."):
        return None
    name, _, overload = op_name[len("aten."):].rpartition(".")
    packet = getattr(torch.ops.aten, name, None)
    op = getattr(packet, overload, None) if packet is not None else None
    if op is not None and op in decomposition_table:
        return {op: decomposition_table[op]}
    return None
