"""Calls a training step built by `ckpt-compile --emit=lib` from Python.

    from ckpt.aot import CompiledStep
    step = CompiledStep("libstep.so", "loss_grad")
    loss, *grads = step(x, target, *weights)       # numpy arrays in and out

The library describes its entry (`ckpt_<entry>_signature`: shapes and dtypes
of inputs and outputs); arguments are checked against it and passed as
contiguous buffers. torch tensors are accepted too (moved to the CPU); the
outputs are then torch tensors. `peak_bytes()` reads the runtime's peak
measurement of the last call.
"""

import ctypes
import json
import os

import numpy

DTYPES = {
    "f32": numpy.float32,
    "f64": numpy.float64,
    "i1": numpy.uint8,
    "i8": numpy.int8,
    "i32": numpy.int32,
    "i64": numpy.int64,
}


class CompiledStep:
    """A loaded ckpt-compile shared library and one of its entries."""

    def __init__(self, library, entry):
        path = str(library)
        if os.path.exists(path):
            path = os.path.abspath(path)  # dlopen searches bare names
        self.library = ctypes.CDLL(path)
        try:
            describe = getattr(self.library, f"ckpt_{entry}_signature")
            self.function = getattr(self.library, f"ckpt_{entry}")
        except AttributeError:
            raise ValueError(f"{library} has no ckpt-compile entry '{entry}'") from None
        describe.restype = ctypes.c_char_p
        self.signature = json.loads(describe().decode())
        self.function.restype = ctypes.c_int
        self.function.argtypes = [ctypes.POINTER(ctypes.c_void_p)] * 2
        self.library.ckpt_runtime_peak_bytes.restype = ctypes.c_int64
        self.inputs = [(tuple(t["shape"]), DTYPES[t["dtype"]])
                       for t in self.signature["inputs"]]
        self.outputs = [(tuple(t["shape"]), DTYPES[t["dtype"]])
                        for t in self.signature["outputs"]]

    def __call__(self, *args):
        if len(args) != len(self.inputs):
            raise TypeError(f"{self.signature['entry']} takes {len(self.inputs)} "
                            f"arguments, got {len(args)}")
        torch = None
        arrays = []
        for index, (arg, (shape, dtype)) in enumerate(zip(args, self.inputs)):
            if hasattr(arg, "detach") and hasattr(arg, "numpy"):
                import torch as torch_module
                torch = torch_module
                arg = arg.detach().cpu().numpy()
            array = numpy.ascontiguousarray(arg)
            if array.shape != shape or array.dtype != dtype:
                raise TypeError(f"argument #{index}: expected {shape} "
                                f"{numpy.dtype(dtype).name}, got {array.shape} "
                                f"{array.dtype.name}")
            arrays.append(array)
        results = [numpy.empty(shape, dtype) for shape, dtype in self.outputs]
        inputs = (ctypes.c_void_p * max(1, len(arrays)))(
            *[a.ctypes.data for a in arrays])
        outputs = (ctypes.c_void_p * len(results))(*[r.ctypes.data for r in results])
        self.library.ckpt_runtime_reset()
        status = self.function(inputs, outputs)
        if status != 0:
            raise RuntimeError(f"{self.signature['entry']} returned {status}")
        if torch is not None:
            return [torch.from_numpy(r) for r in results]
        return results

    def peak_bytes(self):
        """Peak bytes the step allocated in the last call (the caller's
        buffers are not counted)."""
        return self.library.ckpt_runtime_peak_bytes()
