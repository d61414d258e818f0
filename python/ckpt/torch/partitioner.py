"""ckpt's planner inside torch.compile: AOTAutograd's forward/backward split
chosen by ckpt's planner, both graphs compiled by Inductor.

    import ckpt.torch
    backend = ckpt.torch.compile_backend(budget="2GiB")
    model = torch.compile(model, backend=backend)
    loss_fn(model(x), y).backward()
    backend.reports[-1]      # the plan of each compiled graph

AOTAutograd traces the joint forward and backward graph and partitions it:
the forward saves some values for the backward, and the backward recomputes
the rest from them. Inductor's partitioner chooses with a min-cut and a
knapsack under a fractional `activation_memory_budget`; this backend gives
Inductor a partitioner (its `custom_partitioner_fn`) that runs PyTorch's own
partition pipeline (CSE, forced saves of collectives and effectful ops, the
extraction of both graphs, the reordering of the backward) with one step
replaced: the choice of the saved values is ckpt's plan of the joint graph.

The joint graph becomes a ckpt-plan graph (see `JointGraphProblem`): one
node per group of FX nodes that share a storage (a view or a tuple element
belongs to the node that allocated its storage), its bytes from the fake
tensors' shapes and dtypes, its cost from `torch.utils.flop_counter`'s FLOP
formulas or, for memory-bound ops, the bytes it reads and writes. Random
ops, collectives and ops with effects are never recomputed, so dropout's
masks are the forward's bits. Primals and tangents are arguments: alive
throughout; the graph's outputs (gradients, loss) are alive from where they
are computed to the end, a weight gradient apart from the input gradient
computed beside it. What Inductor holds beyond the FX values is counted too:
the workspace library kernels allocate while they run (measured once per
call signature, `ckpt.torch.workspace`), and, where Inductor lays
convolutions out channels-last (its own heuristic), the copies of the
graph's 4-D inputs they read and of the filter gradients they write.
Forward nodes (what the forward's outputs need, and what the backward reads
without depending on a tangent) may be recomputed, backward nodes run once. The
planner (`ckpt.compiler.plan`, the C++ planner of `ckpt-plan`) schedules the
graph under the budget, in the project's one grammar: bytes ("2GiB"), a
fraction of the joint graph's peak ("0.5", "50%"), "min" or "auto"; the
values its schedule holds when the backward starts are the ones saved.

Across graph breaks the graphs are planned in the order they are compiled: a
bytes budget holds for the step, each graph given what the earlier ones
leave (their arguments and saved values stay alive through it; the
arguments of graphs compiled later are not known yet and are not counted);
a fraction, "min" or "auto" applies to each graph's own peak.
"""

import contextlib
import operator
import threading
import time
import types

import torch


__all__ = ["CompileBackend", "CompilePlanError", "JointGraphProblem", "compile_backend",
           "measured_peak_bytes", "split_report"]


class CompilePlanError(RuntimeError):
    """The backend cannot plan a graph: the budget is below the smallest peak
    the planner finds, or the joint graph holds something it cannot model.
    `compile_backend(..., fallback=True)` uses PyTorch's partitioner then."""


#: Bytes per FLOP-equivalent for memory-bound ops: an op that moves b bytes
#: costs b * _BYTES_WEIGHT, one that computes f FLOPs costs f (the larger
#: of the two when both are known), a CPU's ratio of arithmetic to memory
#: bandwidth in round figures.
_BYTES_WEIGHT = 4

#: Namespaces of collectives: every rank must run them alike, never again.
_COLLECTIVE_NAMESPACES = ("_c10d_functional", "c10d", "_dtensor", "c10d_functional")


def _tensor_bytes(value):
    if isinstance(value, torch.Tensor):
        return value.numel() * value.element_size()
    if isinstance(value, (list, tuple)):
        return sum(_tensor_bytes(v) for v in value)
    return 0


def _value(node):
    return node.meta.get("val") if isinstance(node, torch.fx.Node) else node


def _aliased_input(node):
    """The FX node whose storage `node`'s value lives in (a view's base, a
    tuple element's tuple), or None when `node` allocates its own."""
    if node.op != "call_function":
        return None
    if node.target is operator.getitem:
        return node.args[0] if isinstance(node.args[0], torch.fx.Node) else None
    if isinstance(node.target, torch._ops.OpOverload) and node.target.is_view:
        base = node.args[0] if node.args else None
        return base if isinstance(base, torch.fx.Node) else None
    return None


def _is_recomputable(node):
    """Whether recomputing `node` gives the value the forward computed:
    deterministic ATen ops (and tuple elements); not random ops,
    collectives, ops with effects or higher-order ops."""
    if node.target is operator.getitem:
        return True
    if not isinstance(node.target, torch._ops.OpOverload):
        return False
    if torch.Tag.nondeterministic_seeded in node.target.tags:
        return False
    if node.target.namespace in _COLLECTIVE_NAMESPACES:
        return False
    schema = node.target._schema
    return not schema.is_mutable


def _has_tag(node, tag):
    return isinstance(node.target, torch._ops.OpOverload) and tag in node.target.tags


def _graph_outputs(graph):
    return {arg for node in graph.nodes if node.op == "output" for arg in node.all_input_nodes}


def _is_fused_away(node, outputs):
    """Whether Inductor computes `node` inside the kernels of its readers
    instead of writing it to memory: a pointwise op read only by pointwise
    ops and reductions (which fuse it), not a graph output."""
    return (node.op == "call_function" and _has_tag(node, torch.Tag.pointwise) and
            bool(node.users) and node not in outputs and
            all(_has_tag(u, torch.Tag.pointwise) or _has_tag(u, torch.Tag.reduction)
                for u in node.users))


def _materialized_reads(node, fused):
    """What `node` reads once its fused-away inputs are computed in its
    kernel: what those read, transitively."""
    reads = set()
    for arg in node.all_input_nodes:
        reads |= _materialized_reads(arg, fused) if arg in fused else {arg}
    return reads


def _flops(node):
    """FLOPs of `node` by torch.utils.flop_counter's formulas (matrix
    products, convolutions, attention), or None for ops it has none for."""
    from torch.utils.flop_counter import flop_registry
    if not isinstance(node.target, torch._ops.OpOverload):
        return None
    formula = flop_registry.get(node.target.overloadpacket)
    if formula is None:
        return None
    args, kwargs = torch.fx.node.map_aggregate((node.args, node.kwargs), _value)
    try:
        return int(formula(*args, out_val=_value(node), **kwargs))
    except Exception:  # a formula that does not take this overload's arguments
        return None


def _cost(node):
    if node.op != "call_function" or _aliased_input(node) is not None:
        return 1
    moved = _tensor_bytes(_value(node)) + sum(
        _tensor_bytes(_value(arg)) for arg in node.all_input_nodes)
    flops = _flops(node) or 0
    return max(1, flops, moved * _BYTES_WEIGHT)


def _policy(node):
    """The planner's policy for `node`: selective checkpointing's tags
    (torch.utils.checkpoint's CheckpointPolicy, and the partitioner's forced
    saves) where set."""
    from torch.utils.checkpoint import CheckpointPolicy
    tag = node.meta.get("recompute")
    return {
        CheckpointPolicy.MUST_SAVE: "must_save",
        CheckpointPolicy.PREFER_SAVE: "prefer_save",
        CheckpointPolicy.MUST_RECOMPUTE: "must_recompute",
        CheckpointPolicy.PREFER_RECOMPUTE: "prefer_recompute",
    }.get(tag, "default")


_POLICY_STRENGTH = {"default": 0, "prefer_recompute": 1, "prefer_save": 2,
                    "must_recompute": 3, "must_save": 4}


_CONVOLUTIONS = (torch.ops.aten.convolution.default, torch.ops.aten.convolution_backward.default)


def _copies_convolution_inputs(joint_graph):
    """Whether Inductor will lay `joint_graph`'s convolutions out
    channels-last (its own heuristic, on the joint graph)."""
    try:
        from torch._inductor.graph import GraphLowering
        module = types.SimpleNamespace(graph=joint_graph)  # it reads .graph only
        return bool(GraphLowering.decide_layout_opt(module, is_inference=False))
    except Exception:  # an Inductor without the heuristic: no copies
        return False


class JointGraphProblem:
    """A joint forward and backward FX graph as a ckpt-plan graph.

    `graph` is the planner's input (networkx node-link JSON as a dict),
    `group_of` maps each call_function FX node to its planner node id, and
    `forward_groups` holds the ids of forward nodes."""

    def __init__(self, joint_graph, is_forward):
        nodes = [n for n in joint_graph.nodes if n.op == "call_function"]
        outputs = _graph_outputs(joint_graph)
        # Pointwise ops that Inductor fuses into their readers hold no
        # memory and are computed inside each reader: they are not planner
        # nodes (never saved); their readers read what they read and pay
        # their cost.
        self.fused = {n for n in nodes if _is_fused_away(n, outputs)}
        nodes = [n for n in nodes if n not in self.fused]
        # A graph output that is one element of a multi-output op (a weight
        # gradient beside the input gradient of the same backward op) lives
        # to the end while its siblings are freed: its own node, computed
        # right after the op (it reads what the op reads, so those stay live
        # through it) and holding its bytes from then on.
        split_off = {n for n in nodes if n.target is operator.getitem and n in outputs and
                     isinstance(n.args[0], torch.fx.Node) and n.args[0].op == "call_function"}
        owner, of_argument = {}, set()
        for node in nodes:
            base = _aliased_input(node)
            owner[node] = node if node in split_off else owner[base] if base in owner else node
            if base is not None and base not in owner:
                of_argument.add(node)  # a view of a primal or a tangent
        members = {}
        for node in nodes:
            members.setdefault(owner[node], []).append(node)
        self.group_of = {}
        self.forward_groups = set()
        self.members = {}
        self.recomputable = {}
        graph_nodes, links = [], set()
        # What library kernels allocate while they run: a node of those
        # bytes just before the op's, read by it only (so alive through it).
        from .workspace import workspace_bytes
        workspace = workspace_bytes(list(members))
        workspace_of = {}
        # Inductor's layout optimization (convolutions channels-last, on the
        # CPU whenever oneDNN runs them) copies each 4-D graph input a
        # convolution reads (filters, images): the copy is made before the
        # first reader and kept for the last (the backward's gradients read
        # the forward's copy). A node of its bytes, never recomputed.
        copies, copied_before = {}, {}
        channels_last = _copies_convolution_inputs(joint_graph)
        # ... and its gradients of filters come out channels-last too: each
        # is copied into the parameter's layout as the graph's output.
        gradient_copy_of = {}
        if channels_last:
            for placeholder in joint_graph.nodes:
                readers = [u for u in placeholder.users if u.target in _CONVOLUTIONS]
                value = _value(placeholder)
                if placeholder.op == "placeholder" and readers and \
                        isinstance(value, torch.Tensor) and value.dim() == 4:
                    copies[placeholder] = readers
            order = {node: index for index, node in enumerate(joint_graph.nodes)}
            for placeholder, readers in copies.items():
                copied_before.setdefault(min(readers, key=order.get), []).append(placeholder)
        copy_of = {}
        for root, group in members.items():
            forward = is_forward(root)
            if channels_last and root in split_off and \
                    root.args[0].target is torch.ops.aten.convolution_backward.default:
                gradient_copy_of[root] = len(graph_nodes)
                graph_nodes.append({
                    "id": len(graph_nodes), "name": f"{root.name}.channels_last",
                    "cost_cpu": 1, "cost_ram": _tensor_bytes(_value(root)),
                    "backward": True, "recomputable": False, "policy": "default",
                })
            for placeholder in copied_before.get(root, ()):
                copy_of[placeholder] = len(graph_nodes)
                self.forward_groups.add(len(graph_nodes))
                graph_nodes.append({
                    "id": len(graph_nodes), "name": f"{placeholder.name}.channels_last",
                    "cost_cpu": 1, "cost_ram": _tensor_bytes(_value(placeholder)),
                    "backward": False, "recomputable": False, "policy": "default",
                })
            # Backward nodes run once; a forward node is recomputed in the
            # backward when all of its group can be.
            recomputable = forward and all(_is_recomputable(n) for n in group)
            if root in workspace:
                workspace_of[root] = len(graph_nodes)
                if forward:
                    self.forward_groups.add(len(graph_nodes))
                graph_nodes.append({
                    "id": len(graph_nodes), "name": f"{root.name}.workspace", "cost_cpu": 0,
                    "cost_ram": workspace[root], "backward": not forward,
                    "recomputable": recomputable, "policy": "default",
                })
            index = len(graph_nodes)
            if forward:
                self.forward_groups.add(index)
            for node in group:
                self.group_of[node] = index
            self.members[index] = group
            self.recomputable[index] = recomputable
            policy = max((_policy(n) for n in group), key=_POLICY_STRENGTH.get)
            held = 0 if root in of_argument else _tensor_bytes(_value(root))
            held -= sum(_tensor_bytes(_value(n)) for n in root.users if n in split_off)
            graph_nodes.append({
                "id": index, "name": root.name,
                "cost_cpu": sum(_cost(n) + self._fused_cost(n) for n in group),
                "cost_ram": held,
                "backward": not forward, "recomputable": recomputable,
                "policy": policy if recomputable else "default",
            })
        for node in nodes:
            reads = {arg for arg in _materialized_reads(node, self.fused)
                     if arg in self.group_of}
            if node in split_off:
                reads |= {arg for arg in _materialized_reads(node.args[0], self.fused)
                          if arg in self.group_of}
            for arg in reads:
                if self.group_of[arg] != self.group_of[node]:
                    links.add((self.group_of[arg], self.group_of[node]))
            if node in gradient_copy_of:
                links |= {(self.group_of[arg], gradient_copy_of[node]) for arg in reads}
                links.add((gradient_copy_of[node], self.group_of[node]))
            if node in workspace_of:
                links |= {(self.group_of[arg], workspace_of[node]) for arg in reads}
                links.add((workspace_of[node], self.group_of[node]))
        for placeholder, readers in copies.items():
            links |= {(copy_of[placeholder], self.group_of[u]) for u in readers
                      if u in self.group_of}
        # The graph's outputs are live at its end (the gradients, the loss):
        # every group holding one is read by a last node of no bytes.
        end = len(graph_nodes)
        graph_nodes.append({"id": end, "name": "outputs", "cost_cpu": 0, "cost_ram": 0,
                            "backward": True, "recomputable": False, "policy": "default"})
        for node in outputs:
            if node in self.group_of:
                links.add((self.group_of[node], end))
        arguments = sum(_tensor_bytes(_value(n)) for n in joint_graph.nodes
                        if n.op == "placeholder")
        # PyTorch's partition recomputes a forward value once in the
        # backward and keeps it until its last use: the planner must not
        # count on freeing a value it rebuilt for another rebuild earlier.
        self.graph = {
            "directed": True, "constant_bytes": arguments, "keep_rebuilt_values": True,
            "nodes": graph_nodes,
            "links": [{"source": s, "target": t} for s, t in sorted(links)],
        }

    def _fused_cost(self, node):
        """What `node` pays for the fused pointwise ops it computes again:
        one unit per element of each (they read and write no memory)."""
        cost = 0
        for arg in node.all_input_nodes:
            if arg in self.fused:
                value = _value(arg)
                cost += (value.numel() if isinstance(value, torch.Tensor) else 1) + \
                    self._fused_cost(arg)
        return cost

    def saved_groups(self, schedule):
        """The forward nodes `schedule` (ckpt-plan's steps) holds when the
        backward starts (its first backward node's compute): the values the
        forward saves. Forward nodes the schedule first computes later
        (those the joint graph lists among the backward's, such as the
        squeezed statistics a BatchNorm returns for its running buffers)
        are computed by the backward; they cannot have been saved."""
        resident = set()
        for step in schedule:
            node = step["node"]
            if step["op"] == "compute":
                if node not in self.forward_groups:
                    break
                resident.add(node)
            else:
                resident.discard(node)
        return resident & self.forward_groups


def _saved_values(joint_graph, node_info, saved_groups, problem):
    """The FX nodes the forward saves for the backward: what the backward's
    nodes read of the forward, through the forward nodes it recomputes
    (those of groups not saved) down to saved groups and primals. A view or
    a tuple element belongs to the phase of the node that allocated its
    storage (the logsumexp of an attention, a dropout's mask: elements only
    the backward reads)."""
    primals = set(node_info.inputs)
    saved, seen = [], set()

    def visit(node):
        if node in seen:
            return
        seen.add(node)
        if node.op == "placeholder":
            if node in primals:
                saved.append(node)
            return
        if node.op != "call_function":
            return
        if node in problem.fused:
            # Computed again inside its readers, from what it reads.
            for arg in node.all_input_nodes:
                visit(arg)
            return
        group = problem.group_of[node]
        if group not in problem.forward_groups:
            return
        kept = group in saved_groups or not problem.recomputable[group]
        value = _value(node)
        if kept and isinstance(value, (torch.Tensor, torch.SymInt, torch.SymFloat,
                                       torch.SymBool)):
            saved.append(node)
            return
        # A tuple is saved through its elements (the getitems read above
        # it); one read whole is recomputed with what it reads.
        if kept and not _is_recomputable(node):
            raise CompilePlanError(
                f"ckpt-compile-backend: the backward reads {node.name} "
                f"({node.target}) whole, which can be neither saved nor recomputed")
        for arg in node.all_input_nodes:
            visit(arg)

    for node in joint_graph.nodes:
        if node.op == "call_function" and node not in problem.fused and \
                problem.group_of[node] not in problem.forward_groups:
            for arg in node.all_input_nodes:
                visit(arg)
    return saved


class _Planner:
    """ckpt's choice of the saved values, in the place of PyTorch's
    `choose_saved_values_set` (same arguments and result)."""

    def __init__(self, backend):
        self.backend = backend

    def __call__(self, joint_graph, node_info, memory_budget=1.0):
        backend = self.backend
        started = time.perf_counter()
        from .. import compiler
        # Forward: what the forward's outputs need, and what only the
        # backward reads without depending on a tangent ("unclaimed": it may
        # run in the forward and be saved, or in the backward).
        problem = JointGraphProblem(
            joint_graph,
            lambda n: node_info.is_required_fw(n) or not node_info.is_required_bw(n))
        budget = backend.budget
        if _is_bytes_budget(budget):
            # A bytes budget holds for the step: this graph gets what the
            # graphs compiled before it leave (their saved values and
            # arguments are alive through its forward and its backward).
            left = compiler.plan({"directed": True, "constant_bytes": 0, "nodes": [],
                                  "links": []}, budget)["budget_bytes"] - backend.held_bytes
            if backend.held_bytes and left <= problem.graph["constant_bytes"]:
                raise CompilePlanError(
                    f"ckpt-compile-backend: budget {budget!r} leaves {max(left, 0)} bytes to a "
                    f"graph whose arguments alone are {problem.graph['constant_bytes']} bytes "
                    f"(the graphs compiled before it hold {backend.held_bytes} bytes)")
            budget = f"{max(left, 1)}B"
        try:
            plan = compiler.plan(problem.graph, budget, backend.solver, backend.time_limit)
        except compiler.CkptError as error:
            raise CompilePlanError(
                f"ckpt-compile-backend: graph of {len(problem.graph['nodes'])} nodes: "
                f"{error}") from None
        if not plan["feasible"]:
            raise CompilePlanError(
                f"ckpt-compile-backend: budget {backend.budget!r} is below the smallest peak "
                f"found for a graph of {len(problem.graph['nodes'])} nodes (peak without "
                f"recomputation {plan['baseline_peak_bytes']} bytes); try budget='min'")
        groups = problem.saved_groups(plan["schedule"])
        saved = _saved_values(joint_graph, node_info, groups, problem)
        primals = set(node_info.inputs)
        held_before = backend.held_bytes
        backend.held_bytes += problem.graph["constant_bytes"] + sum(
            problem.graph["nodes"][g]["cost_ram"] for g in groups)
        backend.reports.append({
            "nodes": len(problem.graph["nodes"]),
            "budget": backend.budget,
            "held_by_earlier_graphs_bytes": held_before,
            "budget_bytes": plan["budget_bytes"],
            "baseline_peak_bytes": plan["baseline_peak_bytes"],
            "planned_peak_bytes": plan["peak_bytes"],
            "argument_bytes": problem.graph["constant_bytes"],
            "saved_bytes": sum(_tensor_bytes(_value(n)) for n in saved if n not in primals),
            "saved": [n.name for n in saved],
            "overhead": plan["overhead"],
            "solver": plan["solver"],
            "optimal": plan.get("optimal", False),
            "plan_time_s": time.perf_counter() - started,
        })
        return saved


#: choose_saved_values_set is a module global of torch._functorch.partitioners
#: that min_cut_rematerialization_partition looks up when it runs; the
#: partitioner swaps it under this lock for the call.
_PARTITION_LOCK = threading.Lock()


@contextlib.contextmanager
def _choosing_with(planner):
    from torch._functorch import partitioners
    with _PARTITION_LOCK:
        original = partitioners.choose_saved_values_set
        partitioners.choose_saved_values_set = planner
        try:
            yield
        finally:
            partitioners.choose_saved_values_set = original


def split_report(forward, backward):
    """What a partition into `forward` and `backward` FX modules does (any
    partitioner's): the forward's nodes that the backward computes again,
    and their FLOPs."""
    forward_names = {n.name for n in forward.graph.nodes if n.op == "call_function"}
    recomputed = [n for n in backward.graph.nodes
                  if n.op == "call_function" and n.name in forward_names]
    return {
        "recomputed": [n.name for n in recomputed],
        "recomputed_flops": sum(_flops(n) or 0 for n in recomputed),
    }


def _partitioner_type():
    """Inductor's custom-partitioner class (Inductor imported on first use)."""
    global _CkptPartitioner
    if _CkptPartitioner is not None:
        return _CkptPartitioner
    from torch._inductor.custom_graph_pass import CustomPartitionerFn

    class CkptPartitioner(CustomPartitionerFn):
        """Inductor's custom partitioner: PyTorch's min-cut pipeline with
        ckpt's plan as the choice of saved values."""

        def __init__(self, backend):
            self.backend = backend

        def __call__(self, gm, joint_inputs, **kwargs):
            from torch._functorch.partitioners import min_cut_rematerialization_partition
            kwargs.pop("compiler", None)
            try:
                with _choosing_with(_Planner(self.backend)):
                    forward, backward = min_cut_rematerialization_partition(
                        gm, joint_inputs, compiler="inductor", **kwargs)
                self.backend.reports[-1].update(split_report(forward, backward))
                return forward, backward
            except CompilePlanError:
                if not self.backend.fallback:
                    raise
            self.backend.reports.append({"fallback": True})
            return min_cut_rematerialization_partition(gm, joint_inputs, compiler="inductor",
                                                       **kwargs)

        def uuid(self):
            return ("ckpt", self.backend.budget, self.backend.solver,
                    self.backend.time_limit, self.backend.fallback)

        def __reduce__(self):
            # Inductor pickles its config for cache keys: the options stand
            # for the partitioner (the backend's reports do not travel).
            return (_describe_partitioner, self.uuid())

    _CkptPartitioner = CkptPartitioner
    return CkptPartitioner


_CkptPartitioner = None


def _describe_partitioner(*options):
    return options


def measured_peak_bytes(step):
    """Runs `step()` under PyTorch's profiler with memory recording and
    returns the highest total of the bytes c10's allocator handed out
    during it (its `[memory]` events summed in time order), above what was
    allocated before: Inductor's buffers included."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as profiler:
        step()
    events = [e for e in profiler.profiler.kineto_results.events() if e.name() == "[memory]"]
    events.sort(key=lambda e: e.start_ns())
    live = peak = 0
    for event in events:
        live += event.nbytes()
        peak = max(peak, live)
    return peak


def _is_bytes_budget(budget):
    """Whether `budget` (the project's grammar) is a byte count, not a
    fraction, a percentage, "min" or "auto"."""
    text = str(budget).strip()
    return text not in ("min", "auto") and "%" not in text and "." not in text


class CompileBackend:
    """A `torch.compile` backend (see the module's documentation). Each
    compiled graph's plan is appended to `reports` (a dict: budget_bytes,
    baseline_peak_bytes, planned_peak_bytes, saved_bytes, overhead, solver,
    the saved and recomputed FX nodes)."""

    def __init__(self, budget="auto", solver="auto", time_limit=10.0, fallback=False,
                 inductor_config=None):
        self.budget = str(budget)
        self.solver = solver
        self.time_limit = float(time_limit)
        self.fallback = fallback
        self.inductor_config = dict(inductor_config or {})
        self.reports = []
        #: Bytes the graphs planned so far hold while later ones run (their
        #: arguments and saved values), taken from a bytes budget.
        self.held_bytes = 0

    def __call__(self, gm, example_inputs):
        from torch._inductor.compile_fx import compile_fx
        patches = dict(self.inductor_config)
        patches["custom_partitioner_fn"] = _partitioner_type()(self)
        # A cached graph would skip the partitioner, and its plan would go
        # unreported: every graph is planned and compiled afresh.
        patches["force_disable_caches"] = True
        return compile_fx(gm, example_inputs, config_patches=patches)


def compile_backend(budget="auto", solver="auto", time_limit=10.0, fallback=False,
                    inductor_config=None):
    """A `torch.compile` backend that partitions forward and backward by
    ckpt's plan under `budget` (bytes such as "2GiB", a fraction of the peak
    such as "0.5" or "50%", "min" or "auto") and compiles both graphs with
    Inductor. `solver`: the planner's solver ("auto", "ilp", "greedy", ...);
    `time_limit`: seconds per plan; `fallback`: use PyTorch's partitioner
    where ckpt cannot plan (the report says so) instead of raising
    CompilePlanError; `inductor_config`: Inductor config patches."""
    return CompileBackend(budget, solver, time_limit, fallback, inductor_config)
