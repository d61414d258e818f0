"""The memory library kernels allocate beyond their results, measured.

Inductor runs convolutions, matrix products and attention as calls into
ATen's kernels (oneDNN, cuDNN, cuBLAS, the flash attention), and those
allocate while they run: oneDNN reorders a convolution's input and filters
into its blocked layout, a weight gradient is accumulated in a buffer of its
own. A plan that counts only the results misses those bytes at the peak
(torchvision's ResNet-18: a 9.4 MB reorder of one filter bank). What a
kernel allocates depends on the library, its version and the machine, so it
is measured, not modeled: each distinct call (op, shapes, strides, dtypes,
device, other arguments) runs once on random inputs, after a warm-up call,
and its workspace is the highest count of bytes it held above its results.
Measurements are kept for the process.
"""

import torch

from .partitioner import _tensor_bytes, _value

__all__ = ["workspace_bytes"]

_aten = torch.ops.aten

#: Ops Inductor calls into a library for, whose arguments random floating
#: point data is valid for.
_LIBRARY_OPS = {
    _aten.convolution.default,
    _aten.convolution_backward.default,
    _aten.mm.default,
    _aten.addmm.default,
    _aten.bmm.default,
    _aten.baddbmm.default,
    _aten._scaled_dot_product_flash_attention_for_cpu.default,
    _aten._scaled_dot_product_flash_attention_for_cpu_backward.default,
    _aten._scaled_dot_product_efficient_attention.default,
    _aten._scaled_dot_product_efficient_attention_backward.default,
    _aten._scaled_dot_product_flash_attention.default,
    _aten._scaled_dot_product_flash_attention_backward.default,
    _aten._scaled_dot_product_cudnn_attention.default,
    _aten._scaled_dot_product_cudnn_attention_backward.default,
}

_measured = {}


def _key(node):
    """What a kernel's workspace depends on, or None when the call cannot be
    run on random data (a symbolic size, an integer tensor)."""
    if node.op != "call_function" or node.target not in _LIBRARY_OPS:
        return None
    parts = []
    for arg in torch.fx.node.map_aggregate((node.args, node.kwargs), _value):
        for leaf in torch.utils._pytree.tree_leaves(arg):
            if isinstance(leaf, torch.Tensor):
                if not leaf.is_floating_point() or any(
                        not isinstance(d, int) for d in (*leaf.shape, *leaf.stride())):
                    return None
                parts.append(("tensor", tuple(leaf.shape), tuple(leaf.stride()),
                              leaf.dtype, leaf.device))
            elif isinstance(leaf, (torch.SymInt, torch.SymFloat, torch.SymBool)):
                return None
            else:
                parts.append(leaf)
    return (node.target, tuple(parts))


def _real(value):
    if isinstance(value, torch.Tensor):
        tensor = torch.empty_strided(tuple(value.shape), tuple(value.stride()),
                                     dtype=value.dtype, device=value.device)
        return tensor.normal_()
    return value


def _measure_cuda(calls):
    results = []
    for target, args, kwargs, result in calls:
        target(*args, **kwargs)
        torch.cuda.synchronize()
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        output = target(*args, **kwargs)
        torch.cuda.synchronize()
        results.append(torch.cuda.max_memory_allocated() - before - _tensor_bytes(output))
        del output
    return results


def _measure_host(calls):
    """One profiler session over every call; each call's bytes from c10's
    allocation records inside its range."""
    from torch.profiler import ProfilerActivity, profile, record_function
    for target, args, kwargs, _ in calls:
        target(*args, **kwargs)
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as profiler:
        for index, (target, args, kwargs, _) in enumerate(calls):
            with record_function(f"ckpt_workspace_{index}"):
                output = target(*args, **kwargs)
            del output
    events = list(profiler.profiler.kineto_results.events())
    memory = sorted((e for e in events if e.name() == "[memory]"), key=lambda e: e.start_ns())
    ranges = {e.name(): (e.start_ns(), e.start_ns() + e.duration_ns()) for e in events
              if e.name().startswith("ckpt_workspace_")}
    results = []
    for index, (_, _, _, result) in enumerate(calls):
        start, end = ranges[f"ckpt_workspace_{index}"]
        held = highest = 0
        for event in memory:
            if start <= event.start_ns() <= end:
                held += event.nbytes()
                highest = max(highest, held)
        results.append(highest - _tensor_bytes(result))
    return results


def workspace_bytes(nodes):
    """{node: bytes} for the FX nodes (of a graph whose values are fake
    tensors) that are library calls allocating beyond their results."""
    keys = {node: _key(node) for node in nodes}
    missing = {}
    for node, key in keys.items():
        if key is not None and key not in _measured and key not in missing:
            missing[key] = node
    if missing:
        from torch._subclasses.fake_tensor import unset_fake_temporarily
        with unset_fake_temporarily(), torch.no_grad():
            by_device = {}
            for key, node in missing.items():
                args, kwargs = torch.fx.node.map_aggregate(
                    (node.args, node.kwargs), lambda a: _real(_value(a)))
                device = next(t.device for t in torch.utils._pytree.tree_leaves((args, kwargs))
                              if isinstance(t, torch.Tensor))
                by_device.setdefault(device.type, []).append(
                    (key, (node.target, args, kwargs, _value(node))))
            for device, entries in by_device.items():
                calls = [call for _, call in entries]
                measure = _measure_cuda if device == "cuda" else _measure_host
                for (key, _), bytes_ in zip(entries, measure(calls)):
                    _measured[key] = max(0, int(bytes_))
    return {node: _measured[key] for node, key in keys.items()
            if key is not None and _measured.get(key, 0) > 0}
