#!/usr/bin/env python3
"""Generates training graphs (forward + backward) as networkx node-link JSON.

Families:
  chain       f1..fL then gL..g1; heterogeneous per-layer costs and sizes
  transformer pre-norm transformer blocks with residual connections
  unet        U-Net: encoder, bottleneck, decoder with long skip connections
  random      random layered DAG (each node reads 1-3 nodes of the previous
              two layers)

The backward half is derived from the forward half the way reverse-mode
autodiff does: the gradient node of v reads the gradients of v's consumers and
the forward values v's derivative needs (its inputs, its output, or both).

Usage: gen_graphs.py FAMILY SIZE [--seed N] [-o FILE]
SIZE is the number of layers (chain), blocks (transformer), levels (unet) or
total nodes (random). Python 3 standard library only.
"""

import argparse
import json
import random
import sys


class ForwardGraph:
    """A forward DAG; each node records which values its derivative reads."""

    def __init__(self):
        self.nodes = []  # dicts: name, cost, bytes, preds, saves

    def add(self, name, cost, nbytes, preds, saves="inputs", grad=None):
        # Nodes without inputs read only the data (a constant); they get a
        # gradient node only when asked (a chain's first layer has weights).
        self.nodes.append({"name": name, "cost": int(cost), "bytes": int(nbytes),
                           "preds": list(preds), "saves": saves,
                           "grad": bool(preds) if grad is None else grad})
        return len(self.nodes) - 1


def training_graph(fwd, constant_bytes=0):
    """Appends reverse-mode gradient nodes and returns node-link JSON."""
    n = len(fwd.nodes)
    consumers = [[] for _ in range(n)]
    for v, node in enumerate(fwd.nodes):
        for u in node["preds"]:
            consumers[u].append(v)
    out_nodes = []
    links = []
    for v, node in enumerate(fwd.nodes):
        out_nodes.append({"id": v, "name": node["name"], "backward": False,
                          "cost_cpu": node["cost"], "cost_ram": node["bytes"]})
        for u in node["preds"]:
            links.append((u, v))
    grad_id = {}
    next_id = n
    for v in reversed(range(n)):
        node = fwd.nodes[v]
        if not node["grad"] and n > 1:
            continue
        gid = next_id
        next_id += 1
        grad_id[v] = gid
        out_nodes.append({"id": gid, "name": "d_" + node["name"], "backward": True,
                          "cost_cpu": 2 * node["cost"] + 1,
                          "cost_ram": node["bytes"]})
        reads = set()
        for w in consumers[v]:
            if w in grad_id:
                reads.add(grad_id[w])
        saves = node["saves"]
        if saves in ("inputs", "both"):
            reads.update(node["preds"])
        if saves in ("output", "both") or not consumers[v]:
            reads.add(v)
        for r in sorted(reads):
            links.append((r, gid))
    return {"directed": True, "multigraph": False,
            "graph": {"constant_bytes": constant_bytes},
            "nodes": out_nodes,
            "links": [{"source": s, "target": t} for s, t in links]}


def chain(layers, rng):
    fwd = ForwardGraph()
    prev = []
    for i in range(layers):
        kind = rng.choice(["conv", "relu", "bn", "pool"])
        cost = {"conv": rng.randint(50, 200), "relu": rng.randint(2, 8),
                "bn": rng.randint(5, 15), "pool": rng.randint(3, 10)}[kind]
        nbytes = rng.randint(4, 64) * 1024 * 1024
        saves = {"conv": "inputs", "relu": "output", "bn": "both",
                 "pool": "both"}[kind]
        if i == 0:
            saves = "output"
        prev = [fwd.add(f"{kind}{i + 1}", cost, nbytes, prev, saves, grad=True)]
    # The loss reads the last activation; its gradient reads both.
    fwd.nodes[-1]["saves"] = "both" if layers > 1 else "output"
    return fwd


def transformer(blocks, rng):
    fwd = ForwardGraph()
    seq, hidden, heads = 512, 1024, 16
    act = seq * hidden * 4
    score = heads * seq * seq * 4
    mm = 2 * seq * hidden * hidden // 10**6
    x = fwd.add("embed", mm // 4, act, [], "output")
    for b in range(blocks):
        p = f"blk{b}."
        ln1 = fwd.add(p + "ln1", 4, act, [x], "inputs")
        qkv = fwd.add(p + "qkv", 3 * mm, 3 * act, [ln1], "inputs")
        scores = fwd.add(p + "scores", 2 * seq * seq * hidden // 10**6, score,
                         [qkv], "inputs")
        probs = fwd.add(p + "softmax", 6, score, [scores], "output")
        ctx = fwd.add(p + "context", 2 * seq * seq * hidden // 10**6, act,
                      [probs, qkv], "inputs")
        proj = fwd.add(p + "proj", mm, act, [ctx], "inputs")
        res1 = fwd.add(p + "residual1", 1, act, [x, proj], "none")
        ln2 = fwd.add(p + "ln2", 4, act, [res1], "inputs")
        ff1 = fwd.add(p + "ff1", 4 * mm, 4 * act, [ln2], "inputs")
        gelu = fwd.add(p + "gelu", 8, 4 * act, [ff1], "inputs")
        ff2 = fwd.add(p + "ff2", 4 * mm, act, [gelu], "inputs")
        x = fwd.add(p + "residual2", 1, act, [res1, ff2], "none")
    fwd.add("loss", 2, 4, [x], "both")
    return fwd, 12 * blocks * hidden * hidden * 4


def unet(levels, rng):
    fwd = ForwardGraph()
    base = 64 * 64 * 32 * 4
    x = fwd.add("input_conv", 20, base, [], "output")
    skips = []
    size = base
    for lvl in range(levels):
        c1 = fwd.add(f"down{lvl}.conv1", 60, size, [x], "inputs")
        r1 = fwd.add(f"down{lvl}.relu1", 2, size, [c1], "output")
        c2 = fwd.add(f"down{lvl}.conv2", 60, size, [r1], "inputs")
        r2 = fwd.add(f"down{lvl}.relu2", 2, size, [c2], "output")
        skips.append(r2)
        x = fwd.add(f"down{lvl}.pool", 3, size // 2, [r2], "both")
        size //= 2
    c = fwd.add("bottleneck.conv", 80, size, [x], "inputs")
    x = fwd.add("bottleneck.relu", 2, size, [c], "output")
    for lvl in reversed(range(levels)):
        size *= 2
        up = fwd.add(f"up{lvl}.upsample", 10, size, [x], "inputs")
        cat = fwd.add(f"up{lvl}.concat", 1, 2 * size, [up, skips[lvl]], "none")
        c1 = fwd.add(f"up{lvl}.conv1", 90, size, [cat], "inputs")
        x = fwd.add(f"up{lvl}.relu1", 2, size, [c1], "output")
    fwd.add("loss", 5, 4, [x], "both")
    return fwd


def random_layered(total_nodes, rng):
    fwd = ForwardGraph()
    forward_nodes = max(2, total_nodes // 2)
    width = max(1, int(forward_nodes ** 0.5 / 2))
    layers = []
    count = 0
    while count < forward_nodes:
        layer = []
        for _ in range(min(width, forward_nodes - count)):
            candidates = [v for lay in layers[-2:] for v in lay]
            k = min(len(candidates), rng.randint(1, 3))
            preds = sorted(rng.sample(candidates, k)) if candidates else []
            saves = rng.choice(["inputs", "output", "both", "none"])
            layer.append(fwd.add(f"n{count}", rng.randint(1, 100),
                                 rng.randint(1, 32) * 1024, preds, saves))
            count += 1
        layers.append(layer)
    return fwd


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("family", choices=["chain", "transformer", "unet", "random"])
    parser.add_argument("size", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    constant = 0
    if args.family == "chain":
        fwd = chain(args.size, rng)
    elif args.family == "transformer":
        fwd, constant = transformer(args.size, rng)
    elif args.family == "unet":
        fwd = unet(args.size, rng)
    else:
        fwd = random_layered(args.size, rng)
    graph = training_graph(fwd, constant)
    text = json.dumps(graph, indent=None, separators=(",", ":"))
    if args.output:
        with open(args.output, "w") as f:
            f.write(text + "\n")
    else:
        sys.stdout.write(text + "\n")


if __name__ == "__main__":
    main()
