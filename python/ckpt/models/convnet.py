"""Convolutional models: a residual conv net and a U-Net, NHWC layout,
3x3 "same" convolutions (zero padding), ReLU, mean-squared-error loss.

Downsampling is a 2x2 average pooling written as a reshape and a reduction,
upsampling a nearest-neighbour broadcast and a reshape: both are ops that
`ckpt-autodiff` differentiates.
"""

from .emitter import Emitter


def _conv_same(e, x, f, n, h, w, cin, cout):
    """3x3 convolution with zero padding 1: (n,h,w,cin) -> (n,h,w,cout)."""
    zero = e.scalar(0.0)
    padded = e.fresh("pad")
    e.emit(f"{padded} = tensor.pad {x} low[0, 1, 1, 0] high[0, 1, 1, 0] {{")
    e.emit(f"^bb0(%pi: index, %pj: index, %pk: index, %pl: index):")
    e.emit(f"  tensor.yield {zero} : {e.dtype}")
    e.emit(f"}} : {e.ty((n, h, w, cin))} to {e.ty((n, h + 2, w + 2, cin))}")
    zeros = e.filled((n, h, w, cout), 0.0)
    out = e.fresh("conv")
    e.emit(f"{out} = linalg.conv_2d_nhwc_hwcf ins({padded}, {f} : "
           f"{e.ty((n, h + 2, w + 2, cin))}, {e.ty((3, 3, cin, cout))}) "
           f"outs({zeros} : {e.ty((n, h, w, cout))}) -> {e.ty((n, h, w, cout))}")
    return out


def _relu(e, x, shape):
    zeros = e.filled(shape, 0.0)
    return e.elementwise("maximumf", x, zeros, shape)


def _downsample(e, x, n, h, w, c):
    """2x2 average pooling: (n,h,w,c) -> (n,h/2,w/2,c)."""
    split = e.fresh("split")
    e.emit(f"{split} = tensor.expand_shape {x} [[0], [1, 2], [3, 4], [5]] "
           f"output_shape [{n}, {h // 2}, 2, {w // 2}, 2, {c}] : "
           f"{e.ty((n, h, w, c))} into {e.ty((n, h // 2, 2, w // 2, 2, c))}")
    zeros = e.filled((n, h // 2, w // 2, c), 0.0)
    quarter = e.scalar(0.25)

    def body(args, acc):
        s, r = e.fresh("s"), e.fresh("r")
        return ([f"{s} = arith.mulf {args[0]}, {quarter} : {e.dtype}",
                 f"{r} = arith.addf {acc}, {s} : {e.dtype}"], r)

    return e.generic([(split, (n, h // 2, 2, w // 2, 2, c), [0, 1, 2, 3, 4, 5])],
                     (n, h // 2, w // 2, c), [0, 1, 3, 5],
                     ["parallel", "parallel", "reduction", "parallel",
                      "reduction", "parallel"], body, init=zeros, name="pool")


def _upsample(e, x, n, h, w, c):
    """Nearest-neighbour 2x upsampling: (n,h,w,c) -> (n,2h,2w,c)."""
    wide = e.generic([(x, (n, h, w, c), [0, 1, 3, 5])], (n, h, 2, w, 2, c),
                     [0, 1, 2, 3, 4, 5], ["parallel"] * 6,
                     lambda args, acc: ([], args[0]), name="up")
    merged = e.fresh("merged")
    e.emit(f"{merged} = tensor.collapse_shape {wide} [[0], [1, 2], [3, 4], [5]] : "
           f"{e.ty((n, h, 2, w, 2, c))} into {e.ty((n, 2 * h, 2 * w, c))}")
    return merged


def _loss(e, y, target, shape):
    diff = e.elementwise("subf", y, target, shape)
    loss = e.sum_squares_mean(diff, shape)
    e.emit(f"return {loss} : {e.ty(())}")


def resnet(blocks=4, batch=2, size=16, channels=8, in_channels=3, dtype="f32",
           name="loss"):
    """Residual conv net: a stem convolution, `blocks` residual blocks
    x + conv(relu(conv(x))) at `channels` channels, and a head convolution
    back to `in_channels`, regressing `target` (batch x size x size x
    in_channels)."""
    e = Emitter(dtype)
    n, h, w, c = batch, size, size, channels
    img = (n, h, w, in_channels)
    args = [("%x", e.ty(img)), ("%target", e.ty(img)),
            ("%stem", e.ty((3, 3, in_channels, c)))]
    for b in range(blocks):
        args += [(f"%b{b}_f1", e.ty((3, 3, c, c))), (f"%b{b}_f2", e.ty((3, 3, c, c)))]
    args.append(("%head", e.ty((3, 3, c, in_channels))))
    act = (n, h, w, c)
    y = _relu(e, _conv_same(e, "%x", "%stem", n, h, w, in_channels, c), act)
    for b in range(blocks):
        t = _relu(e, _conv_same(e, y, f"%b{b}_f1", n, h, w, c, c), act)
        t = _conv_same(e, t, f"%b{b}_f2", n, h, w, c, c)
        y = _relu(e, e.elementwise("addf", y, t, act), act)
    out = _conv_same(e, y, "%head", n, h, w, c, in_channels)
    _loss(e, out, "%target", img)
    return e.function(name, args, e.ty(()))


def unet(levels=3, batch=1, size=32, channels=8, in_channels=3, dtype="f32",
         name="loss"):
    """U-Net: `levels` encoder stages (convolution, ReLU, 2x2 average pool,
    channels doubling), a bottleneck, and decoder stages (upsample,
    concatenate the encoder's feature map of the same size: the long skip
    connections, convolution, ReLU), then a head convolution back to
    `in_channels`, regressing `target`."""
    if size % (2 ** levels):
        raise ValueError("size must be divisible by 2**levels")
    e = Emitter(dtype)
    n = batch
    img = (n, size, size, in_channels)
    args = [("%x", e.ty(img)), ("%target", e.ty(img))]
    skips = []
    y, h, c_prev = "%x", size, in_channels
    for level in range(levels):
        c = channels * 2 ** level
        args.append((f"%enc{level}", e.ty((3, 3, c_prev, c))))
        y = _relu(e, _conv_same(e, y, f"%enc{level}", n, h, h, c_prev, c), (n, h, h, c))
        skips.append((y, h, c))
        y = _downsample(e, y, n, h, h, c)
        h, c_prev = h // 2, c
    c = channels * 2 ** levels
    args.append(("%mid", e.ty((3, 3, c_prev, c))))
    y = _relu(e, _conv_same(e, y, "%mid", n, h, h, c_prev, c), (n, h, h, c))
    c_prev = c
    for level in reversed(range(levels)):
        skip, hs, cs = skips[level]
        up = _upsample(e, y, n, h, h, c_prev)
        h = hs
        cat = e.fresh("cat")
        e.emit(f"{cat} = tensor.concat dim(3) {up}, {skip} : ({e.ty((n, h, h, c_prev))}, "
               f"{e.ty((n, h, h, cs))}) -> {e.ty((n, h, h, c_prev + cs))}")
        args.append((f"%dec{level}", e.ty((3, 3, c_prev + cs, cs))))
        y = _relu(e, _conv_same(e, cat, f"%dec{level}", n, h, h, c_prev + cs, cs),
                  (n, h, h, cs))
        c_prev = cs
    args.append(("%head", e.ty((3, 3, c_prev, in_channels))))
    out = _conv_same(e, y, "%head", n, size, size, c_prev, in_channels)
    _loss(e, out, "%target", img)
    return e.function(name, args, e.ty(()))
