"""A deep MLP: relu(x W_i) layers and a mean-squared-error loss."""

from .emitter import Emitter


def mlp(layers=8, batch=32, hidden=64, dropout=0.0, dtype="f32",
        name="loss"):
    """Returns the MLIR of `@name(x, target, w_1..w_layers) -> loss`.

    Every layer is `h = relu(h W_i)` (the last one without relu) on
    `batch x hidden` activations; the loss is mean((h - target)^2). With
    `dropout` > 0, each hidden activation goes through inverted dropout at
    that rate, its mask drawn by `ckpt.random_uniform` (seed 42, the layer
    index as counter offset).
    """
    if not 0.0 <= dropout < 1.0:
        raise ValueError("--dropout must be in [0, 1)")
    e = Emitter(dtype)
    act = (batch, hidden)
    weights = [f"%w{i}" for i in range(layers)]
    args = [("%x", e.ty(act)), ("%target", e.ty(act))]
    args += [(w, e.ty((hidden, hidden))) for w in weights]
    h = "%x"
    zero = e.filled(act, 0.0)
    for i, w in enumerate(weights):
        h = e.matmul(h, w, batch, hidden, hidden)
        if i + 1 < layers:
            h = e.elementwise("maximumf", h, zero, act)
            if dropout > 0:
                h = e.dropout(h, act, dropout, seed=42, offset=i * batch * hidden)
    diff = e.elementwise("subf", h, "%target", act)
    loss = e.sum_squares_mean(diff, act)
    e.emit(f"return {loss} : {e.ty(())}")
    return e.function(name, args, e.ty(()))
