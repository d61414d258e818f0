"""ckpt.torch.decompositions against PyTorch's own kernels in float64, as
property tests over random shapes: every convolution form the backward
decomposition produces (grouped, depthwise, strided, padded, dilated; the
input and the weight gradient), the average pool's gradient, the
functionalized view write (as_strided_scatter), index_put with and
without accumulation and the running sum. Each is what the exported step
computes in place of an op torch-mlir cannot lower, so an error here is a
wrong gradient in every model that uses it."""

import random

import pytest

from torch_required import torch  # noqa: E402 (skips or fails here)

import torch.nn.functional as F

from ckpt.torch import decompositions


def _convolution_cases(count, seed):
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        groups = rng.choice([1, 1, 2, 3, 4, 8])
        depthwise = rng.random() < 0.3
        c_group = 1 if depthwise else rng.choice([1, 2, 3, 16])
        o_group = rng.choice([1, 2]) if depthwise else rng.choice([1, 2, 3, 16])
        kh, kw = rng.choice([1, 2, 3, 4, 5]), rng.choice([1, 2, 3, 4, 5])
        stride = (rng.choice([1, 2, 3]), rng.choice([1, 2, 3]))
        dilation = rng.choice([(1, 1), (1, 1), (2, 1), (2, 2)])
        padding = (rng.randint(0, kh), rng.randint(0, kw))
        h = rng.randint((kh - 1) * dilation[0] + 1, 13)
        w = rng.randint((kw - 1) * dilation[1] + 1, 13)
        if any(2 * p >= (k - 1) * d + 1 + e for p, k, d, e in
               zip(padding, (kh, kw), dilation, (h, w))):
            continue  # windows entirely in the padding: no output position
        cases.append((rng.choice([1, 2, 3]), groups, c_group, o_group, (kh, kw), stride,
                      padding, dilation, (h, w)))
    return cases


@pytest.mark.parametrize("case", _convolution_cases(120, seed=51))
def test_convolution_backward_equals_autograd(case):
    """Both gradients of the (grouped, depthwise, strided, padded, dilated)
    convolution decomposition equal autograd's in float64."""
    n, groups, c_group, o_group, kernel, stride, padding, dilation, size = case
    generator = torch.Generator().manual_seed(hash(case) % 2**31)
    x = torch.randn(n, groups * c_group, *size, dtype=torch.float64, generator=generator,
                    requires_grad=True)
    weight = torch.randn(groups * o_group, c_group, *kernel, dtype=torch.float64,
                         generator=generator, requires_grad=True)
    y = F.conv2d(x, weight, stride=stride, padding=padding, dilation=dilation, groups=groups)
    dy = torch.randn(y.shape, dtype=torch.float64, generator=generator)
    want_x, want_w = torch.autograd.grad(y, (x, weight), dy)
    got_x, got_w, got_b = decompositions._grouped_convolution_backward(
        dy, x.detach(), weight.detach(), None, list(stride), list(padding), list(dilation),
        False, [0, 0], groups, [True, True, True])
    torch.testing.assert_close(got_x, want_x, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(got_w, want_w, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(got_b, dy.sum(dim=(0, 2, 3)), rtol=1e-12, atol=1e-12)


def _pool_cases(count, seed):
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        kernel = (rng.randint(1, 4), rng.randint(1, 4))
        stride = (rng.randint(1, 3), rng.randint(1, 3))
        padding = (rng.randint(0, kernel[0] // 2), rng.randint(0, kernel[1] // 2))
        size = (rng.randint(kernel[0], 12), rng.randint(kernel[1], 12))
        cases.append((kernel, stride, padding, size, rng.random() < 0.5, rng.random() < 0.5,
                      rng.choice([None, None, 3])))
    return cases


@pytest.mark.parametrize("case", _pool_cases(60, seed=7))
def test_average_pool_backward_equals_autograd(case):
    """avg_pool2d's gradient (ceil mode, padding counted or not, a divisor
    override) as the input gradient of an all-ones depthwise convolution."""
    kernel, stride, padding, size, ceil_mode, count_include_pad, divisor = case
    x = torch.randn(2, 3, *size, dtype=torch.float64, requires_grad=True)
    y = F.avg_pool2d(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor)
    dy = torch.randn_like(y)
    want, = torch.autograd.grad(y, x, dy)
    got = decompositions._avg_pool2d_backward(dy, x.detach(), list(kernel), list(stride),
                                              list(padding), ceil_mode, count_include_pad,
                                              divisor)
    torch.testing.assert_close(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("size,stride,offset", [([2, 3], [6, 1], 0), ([5, 6], [6, 1], 0),
                                                ([3, 2], [1, 6], 7), ([4], [7], 1),
                                                ([2, 2, 2], [12, 3, 1], 4)])
def test_as_strided_scatter_equals_pytorch(size, stride, offset):
    x = torch.randn(5, 6, dtype=torch.float64)
    src = torch.randn(size, dtype=torch.float64)
    want = torch.as_strided_scatter(x, src, size, stride, offset)
    assert torch.equal(decompositions._as_strided_scatter(x, src, size, stride, offset), want)


def test_index_put_equals_pytorch():
    """Accumulated (repeated and negative indices, two index tensors
    broadcast, a scalar value) and plain puts."""
    table = torch.randn(7, 3, dtype=torch.float64)
    index = torch.tensor([1, 3, 1, -1])
    values = torch.randn(4, 3, dtype=torch.float64)
    torch.testing.assert_close(decompositions._index_put(table, [index], values, True),
                               torch.index_put(table, (index,), values, True))
    distinct = torch.tensor([0, 2, 5])
    values = torch.randn(3, 3, dtype=torch.float64)
    assert torch.equal(decompositions._index_put(table, [distinct], values, False),
                       torch.index_put(table, (distinct,), values, False))
    grid = torch.randn(4, 5, 2, dtype=torch.float64)
    rows, columns = torch.tensor([[0, 3], [1, 1]]), torch.tensor([4, 2])
    values = torch.randn(2, 2, 2, dtype=torch.float64)
    torch.testing.assert_close(decompositions._index_put(grid, [rows, columns], values, True),
                               torch.index_put(grid, (rows, columns), values, True))
    scalar = torch.tensor(2.0, dtype=torch.float64)
    torch.testing.assert_close(decompositions._index_put(grid, [rows, columns], scalar, True),
                               torch.index_put(grid, (rows, columns), scalar, True))


@pytest.mark.parametrize("shape,dim,dtype", [((3, 17), 1, torch.float64),
                                             ((4, 5, 6), 0, torch.float64),
                                             ((2, 9), 1, torch.int64),
                                             ((3, 4), -1, torch.bool)])
def test_cumsum_equals_pytorch(shape, dim, dtype):
    x = torch.randn(shape, dtype=torch.float64)
    if dtype == torch.int64:
        x = torch.randint(-3, 4, shape)
    elif dtype == torch.bool:
        x = x > 0
    want = torch.cumsum(x, dim)
    got = decompositions._cumsum(x, dim)
    assert got.dtype == want.dtype
    torch.testing.assert_close(got, want, rtol=1e-13, atol=1e-13)


def test_index_put_with_sliced_leading_dimensions_equals_pytorch():
    """x[:, :, I, J] += v (the upsampling and unfold gradients)."""
    table = torch.randn(2, 3, 5, 4, dtype=torch.float64)
    rows, columns = torch.tensor([0, 2, 2]), torch.tensor([1, 3, 1])
    values = torch.randn(2, 3, 3, dtype=torch.float64)
    torch.testing.assert_close(
        decompositions._index_put(table, [None, None, rows, columns], values, True),
        torch.ops.aten.index_put(table, [None, None, rows, columns], values, True))
    values = torch.randn(2, 3, 3, 4, dtype=torch.float64)
    torch.testing.assert_close(decompositions._index_put(table, [None, None, rows], values, True),
                               torch.ops.aten.index_put(table, [None, None, rows], values, True))


@pytest.mark.parametrize("size,out", [((7, 9), (3, 4)), ((6, 6), (3, 3)), ((5, 8), (5, 3)),
                                      ((4, 4), (1, 1))])
def test_adaptive_pool_backward_equals_autograd(size, out):
    x = torch.randn(2, 3, *size, dtype=torch.float64, requires_grad=True)
    y = F.adaptive_avg_pool2d(x, out)
    dy = torch.randn_like(y)
    torch.testing.assert_close(decompositions._adaptive_avg_pool2d_backward(dy, x.detach()),
                               torch.autograd.grad(y, x, dy)[0])
    y, indices = F.adaptive_max_pool2d(x, out, return_indices=True)
    torch.testing.assert_close(
        decompositions._adaptive_max_pool2d_backward(dy, x.detach(), indices),
        torch.autograd.grad(y, x, dy)[0])


@pytest.mark.parametrize("window", [(3, 2, 1, 1, False), (3, 2, 0, 1, True), (2, 3, 1, 2, False),
                                    (3, 1, 1, 1, False), (2, 2, 0, 1, False), (3, 3, 0, 1, True),
                                    (1, 2, 0, 1, False)])
@pytest.mark.parametrize("values", ["random", "relu", "ties", "nan", "-inf"])
def test_max_pool_backward_routes_like_pytorch(window, values):
    """The max pool's gradient finds each window's maximum again from the
    input (not from the int64 indices): every output gradient goes to the
    element PyTorch's indices name, with ties (ReLU zeros, rounded values:
    the first maximum), NaN (the last NaN) and windows of -inf and padding.
    Integral output gradients make every sum exact, so the comparison is
    bit for bit."""
    kernel, stride, padding, dilation, ceil_mode = window
    torch.manual_seed(5)
    x = torch.randn(2, 3, 9, 11, dtype=torch.float64)
    if values == "relu":
        x = torch.relu(x - 0.5)
    elif values == "ties":
        x = torch.round(x)
    elif values == "nan":
        x[0, 0, 2, 3] = x[1, 2, 4, 4] = x[1, 2, 4, 5] = float("nan")
    elif values == "-inf":
        x[:, :, :4, :4] = float("-inf")
    x.requires_grad_()
    y, indices = F.max_pool2d(x, kernel, stride, padding, dilation, ceil_mode=ceil_mode,
                              return_indices=True)
    dy = torch.randint(-8, 9, y.shape, dtype=torch.float64)
    want = torch.autograd.grad(y, x, dy)[0]
    got = decompositions._max_pool2d_backward(dy, x.detach(), [kernel] * 2, [stride] * 2,
                                              [padding] * 2, [dilation] * 2, ceil_mode, indices)
    assert torch.equal(got, want)


def test_replication_pad_backward_equals_autograd():
    x = torch.randn(2, 3, 5, 6, dtype=torch.float64, requires_grad=True)
    y = F.pad(x, (1, 2, 3, 0), mode="replicate")
    dy = torch.randn_like(y)
    torch.testing.assert_close(
        decompositions._replication_pad2d_backward(dy, x.detach(), [1, 2, 3, 0]),
        torch.autograd.grad(y, x, dy)[0])


@pytest.mark.parametrize("groups,stride,padding,output_padding,dilation",
                         [(1, 2, 1, 1, 1), (2, 2, 1, 0, 1), (1, 1, 0, 0, 1), (4, 3, 2, 1, 1),
                          (2, 2, 1, 1, 2)])
def test_transposed_convolution_backward_equals_autograd(groups, stride, padding,
                                                         output_padding, dilation):
    x = torch.randn(2, 4, 5, 5, dtype=torch.float64, requires_grad=True)
    weight = torch.randn(4, 8 // groups, 3, 3, dtype=torch.float64, requires_grad=True)
    y = F.conv_transpose2d(x, weight, stride=stride, padding=padding,
                           output_padding=output_padding, groups=groups, dilation=dilation)
    dy = torch.randn_like(y)
    want_x, want_w = torch.autograd.grad(y, (x, weight), dy)
    got_x, got_w, got_b = decompositions._grouped_convolution_backward(
        dy, x.detach(), weight.detach(), None, [stride] * 2, [padding] * 2, [dilation] * 2,
        True, [output_padding] * 2, groups, [True, True, True])
    torch.testing.assert_close(got_x, want_x)
    torch.testing.assert_close(got_w, want_w)
    torch.testing.assert_close(got_b, dy.sum(dim=(0, 2, 3)))


@pytest.mark.parametrize("dim", [0, 2])
def test_weight_norm_backward_equals_autograd(dim):
    v = torch.randn(4, 3, 5, dtype=torch.float64, requires_grad=True)
    shape = [1, 1, 1]
    shape[dim] = v.shape[dim]
    g = torch.randn(shape, dtype=torch.float64, requires_grad=True)
    w, norms = torch._weight_norm_interface(v, g, dim)
    dw = torch.randn_like(w)
    want = torch.autograd.grad(w, (v, g), dw)
    got = decompositions._weight_norm_backward(dw, v.detach(), g.detach(), norms.detach(), dim)
    for a, b in zip(got, want):
        torch.testing.assert_close(a, b)


def test_pytorch_fallback_finds_decompositions():
    """The export's fallback for ops torch-mlir cannot lower: PyTorch's own
    decomposition where it has one, None where not."""
    fallback = decompositions.pytorch_fallback("aten.reflection_pad2d_backward.default")
    assert list(fallback) == [torch.ops.aten.reflection_pad2d_backward.default]
    assert decompositions.pytorch_fallback("aten.polygamma.default") is None
    assert decompositions.pytorch_fallback(None) is None
    assert decompositions.pytorch_fallback("aten.no_such_op.default") is None


def test_ops_document_is_up_to_date():
    """docs/TorchOps.md is what `python3 -m ckpt.torch.opsdoc` writes."""
    from pathlib import Path

    from ckpt.torch import opsdoc
    path = Path(__file__).resolve().parents[2] / "docs" / "TorchOps.md"
    assert path.read_text() == opsdoc.document(), \
        "regenerate: python3 -m ckpt.torch.opsdoc --output docs/TorchOps.md"


@pytest.mark.parametrize("pad", [[0, 0, -1, 0], [1, -2, 0, 3], [-1, -1, -1, -1],
                                 [0, 0, 0, -1, 1, 0], [-3, 0]])
def test_negative_constant_pad_equals_pytorch(pad):
    """Pads with negative amounts (a pad's gradient, F.pad cropping) as a
    slice and a non-negative pad."""
    x = torch.randn(2, 5, 6, dtype=torch.float64)
    assert torch.equal(decompositions._constant_pad_nd(x, pad, 0.5),
                       torch.constant_pad_nd(x, pad, 0.5))
    assert decompositions._constant_pad_nd(x, [1, 2], 0.5) is NotImplemented


@pytest.mark.parametrize("shifts,dims", [([2], [1]), ([-3, 1], [2, 0]), ([5], [1]), ([0], [2]),
                                         ([9], [-1])])
def test_roll_equals_pytorch(shifts, dims):
    x = torch.randn(3, 5, 7, dtype=torch.float64)
    assert torch.equal(decompositions._roll(x, shifts, dims), torch.roll(x, shifts, dims))


@pytest.mark.parametrize("offset,dim1,dim2", [(0, -2, -1), (1, 1, 3), (-2, 1, 2), (0, 0, 2)])
def test_diagonal_scatter_equals_pytorch(offset, dim1, dim2):
    x = torch.randn(2, 5, 4, 6, dtype=torch.float64)
    src = torch.diagonal(torch.randn_like(x), offset, dim1, dim2)
    assert torch.equal(decompositions._diagonal_scatter(x, src, offset, dim1, dim2),
                       torch.diagonal_scatter(x, src, offset, dim1, dim2))


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_running_extremes_equal_pytorch(largest, dim):
    """cummax/cummin: values, the index PyTorch returns (the last position
    holding the extreme: ties from a ReLU's zeros; with a NaN, the last
    NaN) and the gradient, which goes to that one element."""
    generator = torch.Generator().manual_seed(5)
    x = torch.relu(torch.randn(5, 7, 6, dtype=torch.float64, generator=generator))
    x[1, 2, 3] = float("nan")
    x[3, 4, 1] = float("nan")
    x[2, 5, 2] = float("inf")
    x.requires_grad_(True)
    op, mine = ((torch.cummax, decompositions._cummax) if largest
                else (torch.cummin, decompositions._cummin))
    want = op(x, dim)
    got = mine(x, dim)
    torch.testing.assert_close(got[0], want.values, equal_nan=True, rtol=0, atol=0)
    assert torch.equal(got[1], want.indices)
    finite = torch.isfinite(want.values)
    weights = torch.randn(want.values.shape, dtype=torch.float64, generator=generator)
    want_grad, = torch.autograd.grad((want.values[finite] * weights[finite]).sum(), x)
    got_grad, = torch.autograd.grad((got[0][finite] * weights[finite]).sum(), x)
    # The same terms per element, added in another order.
    torch.testing.assert_close(got_grad, want_grad, rtol=1e-14, atol=1e-14)


def test_logcumsumexp_equals_pytorch_over_wide_ranges():
    """No term is lost under a later large one, nor overflows."""
    generator = torch.Generator().manual_seed(9)
    x = (torch.randn(4, 50, dtype=torch.float64, generator=generator) * 300).requires_grad_()
    want = torch.logcumsumexp(x, 1)
    got = decompositions._logcumsumexp(x, 1)
    torch.testing.assert_close(got, want, rtol=1e-12, atol=1e-12)
    weights = torch.randn(want.shape, dtype=torch.float64, generator=generator)
    want_grad, = torch.autograd.grad((want * weights).sum(), x)
    got_grad, = torch.autograd.grad((got * weights).sum(), x)
    torch.testing.assert_close(got_grad, want_grad, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dim", [0, 1, 2])
def test_scatter_add_equals_pytorch(dim):
    """Repeated indices add up; an index smaller than the target elsewhere
    is left to PyTorch's decomposition."""
    generator = torch.Generator().manual_seed(dim)
    target = torch.randn(4, 5, 6, dtype=torch.float64, generator=generator)
    index = torch.randint(0, target.shape[dim], target.shape, generator=generator)
    source = torch.randn(target.shape, dtype=torch.float64, generator=generator)
    torch.testing.assert_close(decompositions._scatter_add(target, dim, index, source),
                               target.scatter_add(dim, index, source), rtol=1e-12, atol=1e-12)
    smaller = index.narrow((dim + 1) % 3, 0, 2)
    assert decompositions._scatter_add(target, dim, smaller,
                                       source.narrow((dim + 1) % 3, 0, 2)) is NotImplemented


@pytest.mark.parametrize("mode,padding,align", [("bilinear", "zeros", False),
                                                ("bilinear", "border", True),
                                                ("nearest", "reflection", False),
                                                ("bicubic", "zeros", True)])
def test_grid_sample_above_autograd_equals_pytorch(mode, padding, align):
    """Inside decompositions.above_autograd, grid_sample is PyTorch's
    decomposition of its forward, and its gradients (input and grid) are
    that decomposition's, equal to grid_sample's own."""
    generator = torch.Generator().manual_seed(11)
    x = torch.randn(2, 3, 7, 6, dtype=torch.float64, generator=generator, requires_grad=True)
    grid = (torch.rand(2, 5, 4, 2, dtype=torch.float64, generator=generator) * 2.4 - 1.2)
    grid.requires_grad_(True)
    weights = torch.randn(2, 3, 5, 4, dtype=torch.float64, generator=generator)
    want = F.grid_sample(x, grid, mode=mode, padding_mode=padding, align_corners=align)
    want_grads = torch.autograd.grad((want * weights).sum(), (x, grid), allow_unused=True)
    with decompositions.above_autograd():
        got = F.grid_sample(x, grid, mode=mode, padding_mode=padding, align_corners=align)
    got_grads = torch.autograd.grad((got * weights).sum(), (x, grid), allow_unused=True)
    torch.testing.assert_close(got, want, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(got_grads[0], want_grads[0], rtol=1e-10, atol=1e-12)
    if mode != "nearest":  # nearest's grid gradient is zero in both
        torch.testing.assert_close(got_grads[1], want_grads[1], rtol=1e-8, atol=1e-10)
