"""Builds 2-D convolutions (NCHW/FCHW and NHWC/HWCF; strides, dilations,
one image, a bias as the initial value, f32 and f64, whole batches and chunks
of images) with ckpt-compile
--emit=lib, once with --gemm=codegen (loops) and once with --gemm=blas
(ckpt-convolution-to-gemm: im2col and an OpenBLAS GEMM), calls both on
random inputs and compares every element with a numpy reference. Prints
one line per case and `convolutions_match=yes|no`.

Usage: convolution-blas.py WORK_DIR CKPT_COMPILE
"""

import os
import subprocess
import sys

import numpy

from ckpt.aot import CompiledStep

# (layout, n, c, h, w, f, kernel, stride, dilation, dtype, bias)
CASES = [
    ("nchw", 2, 3, 9, 9, 4, 3, 1, 1, "f32", False),
    ("nchw", 3, 4, 11, 10, 5, 3, 2, 1, "f32", True),
    ("nchw", 2, 3, 13, 13, 4, 3, 2, 3, "f64", False),
    ("nchw", 1, 6, 8, 8, 3, 1, 1, 1, "f32", True),
    ("nchw", 1, 2, 7, 9, 3, 2, 1, 2, "f64", False),
    ("nhwc", 2, 3, 9, 9, 4, 3, 2, 1, "f32", True),
    ("nhwc", 1, 5, 6, 7, 2, 1, 1, 1, "f64", False),
    # Larger images, a bias and a fill.
    ("nchw", 2, 3, 10, 10, 4, 3, 1, 1, "f32", True),
    ("nchw", 3, 2, 12, 12, 3, 3, 1, 1, "f64", False),
    # Patch matrices above ckpt-convolution-to-gemm's patch-bytes (2 MiB):
    # built and multiplied in chunks of images.
    ("nchw", 64, 128, 6, 6, 8, 3, 1, 1, "f32", True),
    ("nhwc", 64, 128, 6, 6, 8, 3, 1, 1, "f32", False),
    # Weight-gradient shapes (a 3x3 output window, the kernel an output
    # gradient's grid): chunks of input channels, added into one product,
    # with a bias and with a fill, f32 and f64.
    ("nchw", 4, 64, 18, 18, 8, 16, 1, 1, "f32", True),
    ("nchw", 4, 64, 18, 18, 8, 16, 1, 1, "f64", False),
    # Only a window of the output read (ckpt-shrink-sliced-convolutions): a
    # strided convolution's weight gradient, 3x3 of the 4x4 positions.
    ("nchw", 3, 4, 9, 9, 5, 4, 1, 2, "f32", False, 3),
    ("nchw", 2, 4, 9, 9, 5, 4, 1, 2, "f64", True, 2),
    # Output grids of 256 positions or more: one image at a time into its
    # block of the output as laid out (no transposes), a bias and a fill,
    # strided, f32 and f64.
    ("nchw", 2, 3, 18, 18, 4, 3, 1, 1, "f32", True),
    ("nchw", 3, 2, 35, 35, 4, 3, 2, 1, "f64", False),
    # A weight gradient as importers write it: input and filters are (1, 0,
    # 2, 3) transposes of the arguments (images and channels swapped), read
    # where they are; with a 16x16 kernel (an output gradient's grid) one
    # image at a time, its filters a block of the argument.
    ("swapped", 3, 4, 20, 20, 5, 16, 1, 1, "f32", False),
    ("swapped", 2, 3, 33, 33, 4, 16, 1, 2, "f64", True),
    ("swapped", 2, 3, 9, 9, 4, 3, 1, 1, "f32", False),
    # Inputs read through a zero pad of rows and columns (layout suffix
    # -padLH: L before, H after), as importers write padded convolutions;
    # with a transposed input (a weight gradient's), strided, dilated, taps
    # that read only padding.
    ("nchw-pad11", 2, 3, 9, 9, 4, 3, 1, 1, "f32", True),
    ("nchw-pad11", 3, 2, 16, 16, 4, 3, 1, 1, "f64", False),
    ("nchw-pad02", 2, 3, 8, 9, 4, 3, 2, 1, "f32", False),
    ("nchw-pad22", 2, 2, 7, 7, 3, 3, 3, 2, "f64", True),
    ("nchw-pad33", 2, 3, 16, 16, 4, 7, 2, 1, "f32", False),
    ("swapped-pad11", 3, 4, 14, 14, 5, 16, 1, 1, "f32", False),
    ("swapped-pad11", 2, 3, 9, 9, 4, 3, 1, 1, "f64", False),
    # The same transposes as generalized ops (linalg.generic copies); a 1x1
    # output (the kernel is the whole image: a 1x1 convolution's weight
    # gradient) one image at a time however small the grid.
    ("gswapped", 3, 4, 8, 8, 5, 8, 1, 1, "f32", False),
    ("gswapped", 2, 6, 5, 7, 3, 5, 1, 1, "f64", True),
    ("gswapped", 2, 3, 12, 12, 4, 3, 1, 1, "f32", False),
    # Only the filters swapped (a 1x1 convolution's input gradient: the
    # forward filters with their channel dimensions exchanged), read
    # transposed by the product where they are; and a 3x3 one copied.
    ("wswapped", 3, 8, 6, 6, 5, 1, 1, 1, "f32", True),
    ("wswapped", 2, 4, 17, 17, 6, 1, 1, 1, "f64", False),
    ("wswapped", 2, 4, 9, 9, 3, 3, 1, 1, "f32", False),
    # Depthwise (f = c, one filter per channel): loops with the output
    # columns innermost (ckpt-interchange-window-loops), stride 1 and 2.
    ("depthwise", 2, 6, 12, 12, 6, 3, 1, 1, "f32", False),
    ("depthwise", 3, 4, 11, 13, 4, 3, 2, 1, "f64", True),
]


def window(case):
    """The output positions read per spatial dimension (all when None)."""
    return case[11] if len(case) > 11 else None


def padding(layout):
    """The rows' and columns' zero padding (before, after) a layout's
    -padLH suffix names, and the layout without it."""
    base, _, pad = layout.partition("-pad")
    return base, ((int(pad[0]), int(pad[1])) if pad else (0, 0))


def shapes(case, whole=False):
    """Input, filter and output shapes; the output the window read unless
    `whole`."""
    layout, n, c, h, w, f, k, s, d = case[:9]
    layout, (low, high) = padding(layout)
    if low or high:
        h, w = h + low + high, w + low + high
        x, wt, y = shapes((layout, n, c, h, w, f, k, s, d) + tuple(case[9:]), whole)
        return (x[:2] + (x[2] - low - high, x[3] - low - high)), wt, y
    oh, ow = (h - d * (k - 1) - 1) // s + 1, (w - d * (k - 1) - 1) // s + 1
    if window(case) is not None and not whole:
        oh, ow = window(case), window(case)
    if layout == "nchw":
        return (n, c, h, w), (f, c, k, k), (n, f, oh, ow)
    if layout in ("swapped", "gswapped"):
        # The arguments, stored with their first two dimensions swapped.
        return (c, n, h, w), (c, f, k, k), (n, f, oh, ow)
    if layout == "wswapped":
        return (n, c, h, w), (c, f, k, k), (n, f, oh, ow)
    if layout == "depthwise":
        return (n, c, h, w), (c, k, k), (n, c, oh, ow)
    return (n, h, w, c), (k, k, c, f), (n, oh, ow, f)


def tensor(shape, dtype):
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"


def module(case, name):
    layout, (low, high) = padding(case[0])
    s, d, dtype, bias = case[7:11]
    x, w, y = shapes(case, whole=True)
    kept = shapes(case)[2]
    op = {"nchw": "linalg.conv_2d_nchw_fchw", "nhwc": "linalg.conv_2d_nhwc_hwcf",
          "swapped": "linalg.conv_2d_nchw_fchw", "gswapped": "linalg.conv_2d_nchw_fchw",
          "wswapped": "linalg.conv_2d_nchw_fchw",
          "depthwise": "linalg.depthwise_conv_2d_nchw_chw"}[layout]
    args = f"%x: {tensor(x, dtype)}, %w: {tensor(w, dtype)}"
    init = "%b"
    body = ""
    operands = "%x, %w"
    if layout in ("swapped", "gswapped", "wswapped"):
        swap = lambda shape: (shape[1], shape[0]) + tuple(shape[2:])  # noqa: E731
        swapped = (("x", x), ("w", w)) if layout != "wswapped" else (("w", w),)
        for value, shape in swapped:
            body += f"  %{value}e = tensor.empty() : {tensor(swap(shape), dtype)}\n"
            if layout == "swapped":
                body += (f"  %{value}t = linalg.transpose ins(%{value} : {tensor(shape, dtype)}) "
                         f"outs(%{value}e : {tensor(swap(shape), dtype)}) "
                         f"permutation = [1, 0, 2, 3]\n")
                continue
            # The generic a generalized linalg.transpose is.
            body += (f"  %{value}t = linalg.generic {{indexing_maps = ["
                     f"affine_map<(a, b, c, d) -> (b, a, c, d)>, "
                     f"affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = "
                     f"[\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} "
                     f"ins(%{value} : {tensor(shape, dtype)}) "
                     f"outs(%{value}e : {tensor(swap(shape), dtype)}) {{\n"
                     f"  ^bb0(%in: {dtype}, %out: {dtype}):\n    linalg.yield %in : {dtype}\n"
                     f"  }} -> {tensor(swap(shape), dtype)}\n")
        operands = "%xt, %wt" if layout != "wswapped" else "%x, %wt"
        w = swap(w)
        if layout != "wswapped":
            x = swap(x)
    if low or high:
        padded = x[:2] + (x[2] + low + high, x[3] + low + high)
        source = operands.split(",")[0]
        body += (f"  %zp = arith.constant 0.0 : {dtype}\n"
                 f"  %xp = tensor.pad {source} low[0, 0, {low}, {low}] high[0, 0, {high}, {high}] "
                 f"{{\n  ^bb0(%i: index, %j: index, %k: index, %l: index):\n"
                 f"    tensor.yield %zp : {dtype}\n  }} : {tensor(x, dtype)} to "
                 f"{tensor(padded, dtype)}\n")
        operands = "%xp," + operands.split(",")[1]
        x = padded
    if bias:
        # The bias has the whole output's shape; only its window is read.
        args += f", %b: {tensor(y, dtype)}"
    else:
        init = "%z"
        body += (f"  %zero = arith.constant 0.0 : {dtype}\n"
                f"  %e = tensor.empty() : {tensor(y, dtype)}\n"
                f"  %z = linalg.fill ins(%zero : {dtype}) outs(%e : {tensor(y, dtype)}) "
                f"-> {tensor(y, dtype)}\n")
    result = "%y"
    tail = ""
    if kept != y:
        result = "%kept"
        tail = (f"  %kept = tensor.extract_slice %y[0, 0, 0, 0] [{', '.join(map(str, kept))}] "
                f"[1, 1, 1, 1] : {tensor(y, dtype)} to {tensor(kept, dtype)}\n")
    return (f"func.func @{name}({args}) -> {tensor(kept, dtype)} {{\n{body}"
            f"  %y = {op} {{dilations = dense<{d}> : tensor<2xi64>, "
            f"strides = dense<{s}> : tensor<2xi64>}}\n"
            f"    ins({operands} : {tensor(x, dtype)}, {tensor(w, dtype)}) "
            f"outs({init} : {tensor(y, dtype)}) -> {tensor(y, dtype)}\n"
            f"{tail}  return {result} : {tensor(kept, dtype)}\n}}\n")


def reference(case, x, w, b):
    layout, n, c, h, wd, f, k, s, d = case[:9]
    layout, (low, high) = padding(layout)
    if layout in ("swapped", "gswapped"):
        x, w = x.transpose(1, 0, 2, 3), w.transpose(1, 0, 2, 3)
    if layout == "wswapped":
        w = w.transpose(1, 0, 2, 3)
    if low or high:
        x = numpy.pad(x, ((0, 0), (0, 0), (low, high), (low, high)))
        h, wd = h + low + high, wd + low + high
    if layout == "nhwc":
        x, w = x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1)
    if layout == "depthwise":
        # Filter c reads channel c only.
        w = numpy.einsum("ckl,cd->dckl", w, numpy.eye(c, dtype=w.dtype))
    oh, ow = shapes(case, whole=True)[2][1:3] if layout == "nhwc" else shapes(case, whole=True)[2][2:]
    out = numpy.zeros((n, f, oh, ow), dtype=numpy.float64)
    for i in range(k):
        for j in range(k):
            patch = x[:, :, i * d:i * d + s * (oh - 1) + 1:s, j * d:j * d + s * (ow - 1) + 1:s]
            out += numpy.einsum("nchw,fc->nfhw", patch.astype(numpy.float64),
                                w[:, :, i, j].astype(numpy.float64))
    if layout == "nhwc":
        out = out.transpose(0, 2, 3, 1)
    out = out + (b if b is not None else 0)
    if window(case) is not None:
        out = out[:, :, :window(case), :window(case)]
    return out


def main():
    work, compiler = sys.argv[1], sys.argv[2]
    rng = numpy.random.default_rng(7)
    matched = True
    for index, case in enumerate(CASES):
        name = f"conv{index}"
        source = os.path.join(work, f"{name}.mlir")
        with open(source, "w") as f:
            f.write(module(case, name))
        dtype = numpy.float32 if case[9] == "f32" else numpy.float64
        x_shape, w_shape, y_shape = shapes(case, whole=True)
        x = rng.standard_normal(x_shape).astype(dtype)
        w = rng.standard_normal(w_shape).astype(dtype)
        b = rng.standard_normal(y_shape).astype(dtype) if case[10] else None
        args = [x, w] + ([b] if b is not None else [])
        want = reference(case, x, w, b)
        line = [f"{name} {case[0]} stride={case[7]} dilation={case[8]} n={case[1]} {case[9]}"]
        for gemm in ("codegen", "blas"):
            library = os.path.join(work, f"lib{name}-{gemm}.so")
            subprocess.run([compiler, source, f"--entry={name}", "--emit=lib",
                            f"--gemm={gemm}", "-o", library], check=True)
            got = CompiledStep(library, name)(*args)[0]
            # Each output sums C*KH*KW products; a sequential sum's rounding
            # grows with that depth (16,384 in the weight-gradient cases).
            depth = case[2] * case[6] * case[6]
            tolerance = (1e-4 if dtype == numpy.float32 else 1e-10) * max(1.0, depth / 1024)
            ok = got.shape == want.shape and numpy.allclose(got, want, rtol=tolerance,
                                                            atol=tolerance)
            matched &= ok
            line.append(f"{gemm}={'ok' if ok else 'WRONG'}")
        print(" ".join(line))
    print(f"convolutions_match={'yes' if matched else 'no'}")
    return 0 if matched else 1


if __name__ == "__main__":
    sys.exit(main())
