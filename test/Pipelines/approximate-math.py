"""Accuracy of the CPU build's f32 math functions (ckpt-approximate-math:
MLIR's polynomial approximations): calls a ckpt-compile library whose entry
returns exp, log, log1p, expm1, tanh and erf of its argument on a sweep of
f32 values and special values, and prints, per function, the largest error
in units in the last place against float64 numpy, and whether the special
values come out as IEEE and numpy have them.

Usage: approximate-math.py LIBRARY
"""

import sys

import numpy

from ckpt.aot import CompiledStep

FUNCTIONS = {
    "exp": numpy.exp,
    "log": numpy.log,
    "log1p": numpy.log1p,
    "expm1": numpy.expm1,
    "tanh": numpy.tanh,
    "erf": None,  # math.erf, elementwise
}

#: Special values and what each function must give there.
SPECIAL = numpy.array([-numpy.inf, numpy.inf, numpy.nan, 0.0, -0.0, -200.0, 200.0,
                       -87.0, 88.0], dtype=numpy.float32)


def reference(name, x):
    x64 = x.astype(numpy.float64)
    if name == "erf":
        import math
        return numpy.array([math.erf(v) if numpy.isfinite(v) else
                            (numpy.sign(v) if numpy.isinf(v) else numpy.nan)
                            for v in x64])
    with numpy.errstate(all="ignore"):
        return FUNCTIONS[name](x64)


def ulp_error(got, want):
    """|got - want| in units of the last place of want rounded to f32."""
    want32 = want.astype(numpy.float32)
    spacing = numpy.spacing(numpy.abs(want32)).astype(numpy.float64)
    spacing = numpy.maximum(spacing, numpy.finfo(numpy.float32).tiny)
    return numpy.abs(got.astype(numpy.float64) - want) / spacing


def main():
    step = CompiledStep(sys.argv[1], "math_functions")
    size = step.inputs[0][0][0]
    # Sweep: the domain each function uses in training (softmax and
    # cross-entropy exponents, GELU arguments, log of probabilities).
    sweep = numpy.concatenate([
        numpy.linspace(-20.0, 20.0, size // 2, dtype=numpy.float32),
        numpy.geomspace(1e-30, 80.0, size - size // 2 - len(SPECIAL)).astype(numpy.float32),
        SPECIAL])
    outputs = step(sweep)
    numpy.seterr(over="ignore")
    for name, got in zip(FUNCTIONS, outputs):
        want = reference(name, sweep)
        # Where the result is a finite f32 (exp overflows above 88.7).
        domain = (numpy.abs(want) <= numpy.finfo(numpy.float32).max) & numpy.isfinite(sweep)
        if name in ("log", "log1p"):
            domain &= sweep > (0.0 if name == "log" else -1.0)
        worst = float(ulp_error(got[domain], want[domain]).max())
        special = got[-len(SPECIAL):]
        expected = reference(name, SPECIAL).astype(numpy.float32)
        same = all((numpy.isnan(a) and numpy.isnan(b)) or a == b or
                   abs(float(a) - float(b)) <= 4 * numpy.spacing(abs(numpy.float32(b)))
                   for a, b in zip(special, expected))
        print(f"{name}: max_ulp={worst:.1f} special_values={'ok' if same else 'WRONG'}")
        if not same:
            print("  got", special, "want", expected)


if __name__ == "__main__":
    main()
