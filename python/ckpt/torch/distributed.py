"""Data parallelism for ckpt.torch.TrainStep on torch.distributed.

    torch.distributed.init_process_group("gloo")      # "nccl" on CUDA
    step = ckpt.torch.TrainStep(model, loss_fn, (x_shard,), (y_shard,))
    for x_shard, y_shard in shards:
        optimizer.zero_grad()
        loss = step(x_shard, y_shard)
        ckpt.torch.allreduce_gradients(model)
        optimizer.step()

DistributedDataParallel hooks its gradient reduction into autograd, which a
compiled step bypasses (it writes `p.grad` itself); `allreduce_gradients`
is the reduction done explicitly after the step: every gradient is summed
over the process group in buckets (one `all_reduce` per bucket of a
dtype and device, flattened) and divided by the group's size, so each
process holds the mean of the processes' gradients. With a loss that is a
mean over the batch and equal shards, that is the gradient of the whole
batch, as one process would compute it.

Every process must have the same parameters with a gradient (the same
model and step), or the collectives do not match.
"""

#: Bytes of gradients reduced by one all_reduce (DDP's default bucket size).
BUCKET_BYTES = 25 * 2**20


def _buckets(tensors, bucket_bytes):
    """Consecutive groups of `tensors` of one dtype and device, each at most
    `bucket_bytes` (a single larger tensor makes a bucket of its own)."""
    buckets, current, size = [], [], 0
    for tensor in tensors:
        nbytes = tensor.numel() * tensor.element_size()
        if current and (size + nbytes > bucket_bytes or tensor.dtype != current[0].dtype
                        or tensor.device != current[0].device):
            buckets.append(current)
            current, size = [], 0
        current.append(tensor)
        size += nbytes
    if current:
        buckets.append(current)
    return buckets


def allreduce_gradients(model, group=None, bucket_bytes=BUCKET_BYTES):
    """Replaces every `p.grad` of `model` by its mean over the processes of
    `group` (default: the world). Returns the number of all_reduce calls."""
    import torch
    import torch.distributed as dist
    world = dist.get_world_size(group)
    seen, grads = set(), []
    for parameter in model.parameters():
        if parameter.grad is not None and id(parameter) not in seen:
            seen.add(id(parameter))
            grads.append(parameter.grad)
    calls = 0
    for bucket in _buckets(grads, bucket_bytes):
        flat = torch.cat([g.reshape(-1) for g in bucket])
        dist.all_reduce(flat, op=dist.ReduceOp.SUM, group=group)
        flat.div_(world)
        start = 0
        for grad in bucket:
            grad.copy_(flat[start:start + grad.numel()].view_as(grad))
            start += grad.numel()
        calls += 1
    return calls
