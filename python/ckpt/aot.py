"""Calls a training step built by `ckpt-compile --emit=lib` from Python.

    from ckpt.aot import CompiledStep
    step = CompiledStep("libstep.so", "loss_grad")
    loss, *grads = step(x, target, *weights)       # numpy arrays in and out

The library describes its entry (`ckpt_<entry>_signature`: backend, shapes
and dtypes of inputs and outputs); arguments are checked against it and
passed as contiguous buffers. torch tensors are accepted too; the outputs are
then torch tensors. A CPU library takes them through the CPU. A CUDA library
(`ckpt-compile --backend=cuda`) called with CUDA tensors reads them in place
(`ckpt_<entry>_device`) and returns CUDA tensors; with numpy arrays or CPU
tensors it stages the inputs into managed memory. `peak_bytes()` reads the
runtime's peak measurement of the last call (device bytes for CUDA).
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
        self.backend = self.signature.get("backend", "cpu")
        self.device_function = None
        if self.backend == "cuda":
            self.device_function = getattr(self.library, f"ckpt_{entry}_device")
            self._peak = self.library.ckpt_cuda_peak_bytes
            self._reset = self.library.ckpt_cuda_reset
        else:
            self._peak = self.library.ckpt_runtime_peak_bytes
            self._reset = self.library.ckpt_runtime_reset
        for function in (self.function, self.device_function):
            if function is not None:
                function.restype = ctypes.c_int
                function.argtypes = [ctypes.POINTER(ctypes.c_void_p)] * 2
        self._peak.restype = ctypes.c_int64
        self.inputs = [(tuple(t["shape"]), DTYPES[t["dtype"]])
                       for t in self.signature["inputs"]]
        self.outputs = [(tuple(t["shape"]), DTYPES[t["dtype"]])
                        for t in self.signature["outputs"]]

    def __call__(self, *args):
        if len(args) != len(self.inputs):
            raise TypeError(f"{self.signature['entry']} takes {len(self.inputs)} "
                            f"arguments, got {len(args)}")
        if self.device_function is not None and args and all(
                getattr(arg, "is_cuda", False) for arg in args):
            return self._call_on_device(args)
        torch = None
        arrays = []
        for index, (arg, (shape, dtype)) in enumerate(zip(args, self.inputs)):
            if hasattr(arg, "detach") and hasattr(arg, "numpy"):
                import torch as torch_module
                torch = torch_module
                arg = arg.detach().cpu().numpy()
            array = numpy.asarray(arg, order="C")  # keeps 0-d arrays 0-d
            if array.dtype == numpy.bool_ and dtype == numpy.uint8:
                array = array.view(numpy.uint8)  # i1 is stored as one byte, 0 or 1
            if array.shape != shape or array.dtype != dtype:
                raise TypeError(f"argument #{index}: expected {shape} "
                                f"{numpy.dtype(dtype).name}, got {array.shape} "
                                f"{array.dtype.name}")
            arrays.append(array)
        results = [numpy.empty(shape, dtype) for shape, dtype in self.outputs]
        inputs = (ctypes.c_void_p * max(1, len(arrays)))(
            *[a.ctypes.data for a in arrays])
        outputs = (ctypes.c_void_p * len(results))(*[r.ctypes.data for r in results])
        self._reset()
        status = self.function(inputs, outputs)
        if status != 0:
            raise RuntimeError(f"{self.signature['entry']} returned {status}")
        if torch is not None:
            return [torch.from_numpy(r) for r in results]
        return results

    def _call_on_device(self, args):
        """CUDA tensors in, CUDA tensors out, no staging copies."""
        import torch
        tensors = []
        for index, (arg, (shape, dtype)) in enumerate(zip(args, self.inputs)):
            expected = torch.from_numpy(numpy.empty(0, dtype)).dtype
            if tuple(arg.shape) != shape or arg.dtype != expected:
                raise TypeError(f"argument #{index}: expected {shape} {expected}, "
                                f"got {tuple(arg.shape)} {arg.dtype}")
            tensors.append(arg.detach().contiguous())
        device = tensors[0].device
        results = [torch.empty(shape, dtype=torch.from_numpy(numpy.empty(0, dtype)).dtype,
                               device=device) for shape, dtype in self.outputs]
        # The runtime's streams do not wait for torch's: the inputs must be
        # ready before the call (which returns when the outputs are written).
        torch.cuda.synchronize(device)
        inputs = (ctypes.c_void_p * len(tensors))(*[t.data_ptr() for t in tensors])
        outputs = (ctypes.c_void_p * len(results))(*[r.data_ptr() for r in results])
        self._reset()
        status = self.device_function(inputs, outputs)
        if status != 0:
            raise RuntimeError(f"{self.signature['entry']} returned {status}")
        return results

    def peak_bytes(self):
        """Peak bytes the step allocated in the last call (the caller's
        buffers are not counted; staged inputs of a CUDA library are)."""
        return self._peak()
