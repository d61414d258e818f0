#!/usr/bin/env python3
"""Appends a gradient-check driver to a module holding `@loss` and the
`@loss_grad` that ckpt-autodiff made from it.

Usage: ckpt-opt loss.mlir --ckpt-autodiff | gradcheck.py - [--step 1e-6]
           [--tolerance 1e-6]

`@loss` must be public, take ranked static f64 tensors and return the loss as
`f64` or `tensor<f64>`. The printed module is FILE followed by `@main`, which
fills every argument deterministically (small values away from zero), calls
`@loss_grad` (made by ckpt-autodiff), and for three coordinates of every
argument (first, middle, last) compares the gradient with the central finite
difference (loss(x + h e) - loss(x - h e)) / 2h. It prints
`max_rel_error` (|fd - g| / max(|fd|, |g|, 1e-9)), then `gradcheck: ok` when
it is within the tolerance and `gradcheck: FAILED` otherwise.
"""

import argparse
import re
import sys


def parse_signature(text):
    match = re.search(r"func\.func\s+@loss\s*\((.*?)\)\s*->\s*([^{\n]+)", text, re.S)
    if not match:
        sys.exit("gradcheck: no func.func @loss(...) -> ... in the input")
    args = re.findall(r"%\w+\s*:\s*tensor<([0-9x]+)xf64>", match.group(1))
    if not args:
        sys.exit("gradcheck: @loss must take tensor<...xf64> arguments")
    result = match.group(2).split(" attributes")[0].strip()
    if result not in ("f64", "tensor<f64>"):
        sys.exit(f"gradcheck: @loss must return f64 or tensor<f64>, not {result}")
    return [tuple(int(d) for d in a.split("x")) for a in args], result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file", help="module, or - for standard input")
    parser.add_argument("--step", type=float, default=1e-6)
    parser.add_argument("--tolerance", type=float, default=1e-6)
    args = parser.parse_args()
    text = sys.stdin.read() if args.file == "-" else open(args.file).read()
    shapes, result = parse_signature(text)

    out = []
    emit = out.append
    types = [f"tensor<{'x'.join(map(str, s))}xf64>" for s in shapes]
    loss_call_type = f"({', '.join(types)}) -> {result}"
    grad_results = ", ".join([result] + types)
    emit("func.func private @printF64(f64)")
    emit("func.func private @printNewline()")
    emit("func.func @main() {")
    for k, (shape, ty) in enumerate(zip(shapes, types)):
        rank = len(shape)
        dims = ", ".join(f"d{i}" for i in range(rank))
        emit(f"  %e{k} = tensor.empty() : {ty}")
        parallel = ", ".join(['"parallel"'] * rank)
        emit(f"  %a{k} = linalg.generic {{indexing_maps = [affine_map<({dims}) -> ({dims})>], "
             f"iterator_types = [{parallel}]}} outs(%e{k} : {ty}) {{")
        emit("  ^bb0(%o: f64):")
        terms = []
        for i in range(rank):
            emit(f"    %i{i} = linalg.index {i} : index")
            emit(f"    %m{i} = arith.constant {3 + 2 * i + k} : index")
            emit(f"    %p{i} = arith.muli %i{i}, %m{i} : index")
            terms.append(f"%p{i}")
        emit("    %z = arith.constant 0 : index")
        acc = "%z"
        for i, t in enumerate(terms):
            emit(f"    %s{i} = arith.addi {acc}, {t} : index")
            acc = f"%s{i}"
        emit(f"    %md = arith.constant {7 + k} : index")
        emit(f"    %r = arith.remui {acc}, %md : index")
        emit("    %ri = arith.index_cast %r : index to i64")
        emit("    %rf = arith.sitofp %ri : i64 to f64")
        emit(f"    %half = arith.constant {(7 + k) // 2}.0 : f64")
        emit("    %c = arith.subf %rf, %half : f64")
        emit("    %sc = arith.constant 0.125 : f64")
        emit("    %v0 = arith.mulf %c, %sc : f64")
        emit(f"    %off = arith.constant {0.0137 * (k + 1):.17e} : f64")
        emit("    %v = arith.addf %v0, %off : f64")
        emit("    linalg.yield %v : f64")
        emit(f"  }} -> {ty}")
    all_args = ", ".join(f"%a{k}" for k in range(len(shapes)))
    emit(f"  %g:{len(shapes) + 1} = call @loss_grad({all_args}) : ({', '.join(types)}) -> ({grad_results})")
    emit(f"  %h = arith.constant {args.step:.17e} : f64")
    emit(f"  %twoh = arith.constant {2 * args.step:.17e} : f64")
    emit("  %tiny = arith.constant 1.0e-9 : f64")
    emit("  %err0 = arith.constant 0.0 : f64")
    err = "%err0"
    n = 0
    for k, shape in enumerate(shapes):
        probes = [tuple(0 for _ in shape),
                  tuple(d // 2 for d in shape),
                  tuple(d - 1 for d in shape)]
        for probe in dict.fromkeys(probes):
            n += 1
            idx = []
            for i, c in enumerate(probe):
                emit(f"  %x{n}_{i} = arith.constant {c} : index")
                idx.append(f"%x{n}_{i}")
            at = ", ".join(idx)
            emit(f"  %v{n} = tensor.extract %a{k}[{at}] : {types[k]}")
            emit(f"  %vp{n} = arith.addf %v{n}, %h : f64")
            emit(f"  %vm{n} = arith.subf %v{n}, %h : f64")
            emit(f"  %ap{n} = tensor.insert %vp{n} into %a{k}[{at}] : {types[k]}")
            emit(f"  %am{n} = tensor.insert %vm{n} into %a{k}[{at}] : {types[k]}")
            plus = ", ".join(f"%ap{n}" if j == k else f"%a{j}" for j in range(len(shapes)))
            minus = ", ".join(f"%am{n}" if j == k else f"%a{j}" for j in range(len(shapes)))
            emit(f"  %lp{n} = call @loss({plus}) : {loss_call_type}")
            emit(f"  %lm{n} = call @loss({minus}) : {loss_call_type}")
            lp, lm = f"%lp{n}", f"%lm{n}"
            if result == "tensor<f64>":
                emit(f"  %sp{n} = tensor.extract %lp{n}[] : tensor<f64>")
                emit(f"  %sm{n} = tensor.extract %lm{n}[] : tensor<f64>")
                lp, lm = f"%sp{n}", f"%sm{n}"
            emit(f"  %df{n} = arith.subf {lp}, {lm} : f64")
            emit(f"  %fd{n} = arith.divf %df{n}, %twoh : f64")
            emit(f"  %gv{n} = tensor.extract %g#{k + 1}[{at}] : {types[k]}")
            emit(f"  %d{n} = arith.subf %fd{n}, %gv{n} : f64")
            emit(f"  %ad{n} = math.absf %d{n} : f64")
            emit(f"  %af{n} = math.absf %fd{n} : f64")
            emit(f"  %ag{n} = math.absf %gv{n} : f64")
            emit(f"  %mx{n} = arith.maximumf %af{n}, %ag{n} : f64")
            emit(f"  %den{n} = arith.maximumf %mx{n}, %tiny : f64")
            emit(f"  %re{n} = arith.divf %ad{n}, %den{n} : f64")
            emit(f"  %e{n}x = arith.maximumf {err}, %re{n} : f64")
            err = f"%e{n}x"
    emit('  vector.print str "max_rel_error "')
    emit(f"  call @printF64({err}) : (f64) -> ()")
    emit("  call @printNewline() : () -> ()")
    emit(f"  %tol = arith.constant {args.tolerance:.17e} : f64")
    emit(f"  %ok = arith.cmpf ole, {err}, %tol : f64")
    emit("  scf.if %ok {")
    emit('    vector.print str "gradcheck: ok\\n"')
    emit("  } else {")
    emit('    vector.print str "gradcheck: FAILED\\n"')
    emit("  }")
    emit("  return")
    emit("}")
    driver = "\n".join(out)
    body = text.rstrip()
    if re.search(r"^module\b", body, re.M) and body.endswith("}"):
        # Printed modules: the driver goes inside, next to @loss_grad.
        print(body[:-1] + driver + "\n}")
    else:
        print(body + "\n" + driver)


if __name__ == "__main__":
    main()
