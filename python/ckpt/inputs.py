"""The inputs ckpt-run and ckpt-compile's drivers generate from a seed.

One splitmix64 stream over all inputs in argument order: floats are
((next >> 40) * 2^-24) * 2 - 1 (in [-1, 1), computed in double, then cast),
booleans next % 2, other integers next % 16. `generate(signature, seed)`
returns numpy arrays equal, bit for bit, to what those tools feed an entry,
so Python callers can run a step on the same inputs (vectorized: the
stream's k-th state is seed + k * 0x9E3779B97F4A7C15).

This file has no dependency but numpy; the GPU package ships it as
`ckpt_inputs.py`.
"""

import numpy

DTYPES = {"f32": numpy.float32, "f64": numpy.float64, "i1": numpy.uint8, "i8": numpy.int8,
          "i32": numpy.int32, "i64": numpy.int64}
_INCREMENT = numpy.uint64(0x9E3779B97F4A7C15)


def _mixed(state, count):
    """The next `count` outputs of splitmix64 after `state`, and the new state."""
    with numpy.errstate(over="ignore"):
        z = state + _INCREMENT * numpy.arange(1, count + 1, dtype=numpy.uint64)
        new_state = z[-1] if count else state
        z = (z ^ (z >> numpy.uint64(30))) * numpy.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> numpy.uint64(27))) * numpy.uint64(0x94D049BB133111EB)
        return z ^ (z >> numpy.uint64(31)), new_state


def generate(signature, seed=1):
    """Arrays for `signature`: a list of (shape, dtype) pairs, where dtype is
    a numpy dtype or a ckpt name (`f32`, `i64`, ...), or a ckpt-compile
    signature's "inputs" list of {"shape", "dtype"}."""
    arrays, state = [], numpy.uint64(seed)
    for entry in signature:
        shape, dtype = ((entry["shape"], entry["dtype"]) if isinstance(entry, dict)
                        else entry)
        dtype = numpy.dtype(DTYPES.get(dtype, dtype) if isinstance(dtype, str) else dtype)
        count = int(numpy.prod(shape, dtype=numpy.int64))
        z, state = _mixed(state, count)
        if dtype.kind == "f":
            values = (z >> numpy.uint64(40)).astype(numpy.float64) * 2.0 ** -24 * 2.0 - 1.0
        elif dtype == numpy.uint8 or dtype == numpy.bool_:
            values = z % numpy.uint64(2)
        else:
            values = z % numpy.uint64(16)
        arrays.append(values.astype(dtype).reshape(shape))
    return arrays
