#!/usr/bin/python3
"""From a PyTorch module to a tessel.graph/1 operator graph (issue 7, step 4).

torch.fx traces the module symbolically into one node per operator, and
shape propagation runs it once on the example inputs (real or `meta`
tensors) so that every node knows its output shapes and dtypes. From those
this file estimates, per operator:

- compute: FLOPs from the shapes -- 2 x multiply-adds for linear, matmul,
  bmm, convolutions (also transposed) and attention (nn.MultiheadAttention
  and F.scaled_dot_product_attention: projections, scores, weighted sum);
  5 per output element for softmax and normalisations (mean, variance,
  normalise, scale, shift); the window size per output element for pooling;
  one per output element for activations and other element-wise operators;
  0 for operators that only move or re-view data (view, reshape, transpose,
  split, getitem, embedding lookup...). A torch.nn module with submodules is
  traced into (its own operators are costed); when fx cannot trace into it,
  it is run once and the aten operators it dispatches are counted. Any other
  operator without a formula is costed as its output element count and
  LISTED on stderr as estimated, so no cost is silently wrong. `profile=True` (--profile) measures each
  operator on this machine instead: compute in nanoseconds;
- param_bytes: the bytes of the parameters the operator uses (a module's own
  parameters, or a `get_attr` parameter feeding a function), each shared
  parameter counted once, at its first user in program order; a later user
  lists it under `tied` ({"holder": first user's id, "bytes"}), since a
  stage that has the user without the holder keeps a copy. `tessel
  partition/plan` read these bytes as fp32 parameters (4 bytes each; the
  training precision is their --param-bytes), so a model whose parameters
  are not fp32 is reported on stderr;
- output_bytes: the bytes of the output tensors (numel x element size).

Placeholders, outputs and parameter reads are folded away (they are not
operators), and `getitem` on a multi-output operator is folded into that
operator, so edges run from operator to operator.

A model fx cannot trace raises TesselFxError naming the operator and the
source line where tracing stopped, never a bare traceback.

Usage as a module:   export_graph(module, example_inputs, path, name=None)
Usage as a command:  /usr/bin/python3 tools/tessel_fx.py FILE.py:FACTORY -o graph.json [--name NAME] [--profile]
where FACTORY() returns (module, example_inputs). Needs Debian's python3-torch
(1.13), which installs for the system interpreter /usr/bin/python3.
"""

import argparse
import importlib.util
import json
import operator
import os
import sys
import traceback

FORMAT = "tessel.graph/1"


class TesselFxError(RuntimeError):
    """A model that cannot be exported, with a message meant for the user."""


# --------------------------------------------------------------------------
# What an operator costs, by kind.

# Operators whose FLOPs are 2 x multiply-adds.
_MATMUL_FUNCTIONS = {"matmul", "bmm", "mm", "baddbmm", "addmm", "einsum"}
# Operators that only move, re-view or look up data: no arithmetic.
_NO_COMPUTE = {
    "view", "reshape", "permute", "transpose", "t", "contiguous", "size", "dim", "split",
    "chunk", "getitem", "expand", "expand_as", "flatten", "unflatten", "unsqueeze", "squeeze",
    "to", "type", "float", "half", "cat", "stack", "embedding", "Embedding", "Identity",
    "Dropout", "dropout", "clone", "detach", "narrow", "select", "index_select", "gather",
    "arange", "zeros", "ones", "full", "new_zeros", "new_ones", "getattr", "repeat",
}


def _name_of(target):
    if isinstance(target, str):
        return target
    return getattr(target, "__name__", str(target))


# Module classes named like the functions they call; others are lower-cased
# (Linear -> linear, ReLU -> relu, GELU -> gelu).
_MODULE_OPS = {"LayerNorm": "layer_norm", "GroupNorm": "group_norm", "BatchNorm1d": "batch_norm",
               "BatchNorm2d": "batch_norm", "BatchNorm3d": "batch_norm", "MultiheadAttention": "multihead_attention"}


def _module_op(name):
    return _MODULE_OPS.get(name, name.lower())


def _tensor_metas(node):
    """The TensorMetadata of a node's outputs (nested tuples flattened)."""
    found = []

    def walk(meta):
        if meta is None:
            return
        if hasattr(meta, "shape") and hasattr(meta, "dtype"):
            found.append(meta)
        elif isinstance(meta, (tuple, list)):
            for item in meta:
                walk(item)
        elif isinstance(meta, dict):
            for item in meta.values():
                walk(item)

    walk(node.meta.get("tensor_meta"))
    return found


def _numel(shape):
    count = 1
    for extent in shape:
        count *= int(extent)
    return count


def _element_size(dtype):
    import torch

    return torch.empty((), dtype=dtype).element_size()


def _output_bytes(node):
    return sum(_numel(meta.shape) * _element_size(meta.dtype) for meta in _tensor_metas(node))


def _output_elements(node):
    return sum(_numel(meta.shape) for meta in _tensor_metas(node))


def _input_shape(arg):
    metas = _tensor_metas(arg) if hasattr(arg, "meta") else []
    return tuple(metas[0].shape) if metas else None


# Per output element: softmax (max, subtract, exp, sum, divide) and the
# normalisations (mean, variance, normalise, scale, shift).
_FIVE_PER_ELEMENT = {"softmax", "log_softmax", "layer_norm", "batch_norm", "group_norm", "instance_norm",
                     "Softmax", "LogSoftmax", "LayerNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
                     "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"}
# One per output element, known exactly enough: activations and arithmetic.
_ONE_PER_ELEMENT = {
    "relu", "gelu", "silu", "sigmoid", "tanh", "softplus", "elu", "leaky_relu", "hardtanh", "mish",
    "ReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softplus", "ELU", "LeakyReLU", "Hardtanh", "Mish", "ReLU6",
    "add", "sub", "mul", "truediv", "div", "neg", "pow", "sqrt", "rsqrt", "exp", "log", "abs", "iadd", "imul",
    "mean", "sum", "masked_fill", "where", "clamp", "erf", "cos", "sin", "max", "min", "floordiv",
}


def _attention_flops(batch, heads, target, source, head_dim, value_dim):
    """Scores (q k^T), softmax and the weighted sum of values."""
    scores = 2 * batch * heads * target * source * head_dim
    weighted = 2 * batch * heads * target * source * value_dim
    return scores + 5 * batch * heads * target * source + weighted


def _multihead_attention(node, module):
    """nn.MultiheadAttention: input projections, attention, output projection."""
    shapes = [_input_shape(arg) for arg in node.args[:3]]
    if len(shapes) < 3 or any(shape is None or len(shape) != 3 for shape in shapes):
        return None  # unbatched or unusual call: estimated
    first = 0 if module.batch_first else 1
    batch, target = shapes[0][first], shapes[0][1 - first]
    source = shapes[1][1 - first]
    embed, heads = module.embed_dim, module.num_heads
    projections = 2 * batch * (target * embed * embed + source * module.kdim * embed + source * module.vdim * embed)
    output = 2 * batch * target * embed * embed
    return projections + _attention_flops(batch, heads, target, source, embed // heads, embed // heads) + output


def _scaled_dot_product(node):
    query, key, value = (_input_shape(arg) for arg in node.args[:3])
    if query is None or key is None or value is None:
        return None
    batch = _numel(query[:-2])
    return _attention_flops(batch, 1, query[-2], key[-2], query[-1], value[-1])


def _module_compute(node, module, out_elements):
    """FLOPs of a leaf module, or None when there is no formula for it."""
    import torch.nn as nn

    kind = type(module).__name__
    if isinstance(module, nn.Linear):
        return 2 * out_elements * module.in_features
    if isinstance(module, nn.modules.conv._ConvTransposeNd):
        inputs = _input_shape(node.args[0])
        per_input = 2 * (module.out_channels // module.groups) * _numel(module.kernel_size)
        return per_input * _numel(inputs) if inputs else None
    if isinstance(module, nn.modules.conv._ConvNd):
        return 2 * out_elements * (module.in_channels // module.groups) * _numel(module.kernel_size)
    if isinstance(module, nn.MultiheadAttention):
        return _multihead_attention(node, module)
    if isinstance(module, (nn.modules.pooling._MaxPoolNd, nn.modules.pooling._AvgPoolNd)):
        size = module.kernel_size if isinstance(module.kernel_size, tuple) else (module.kernel_size,)
        dims = len(_input_shape(node.args[0]) or ()) - 2
        return out_elements * (_numel(size) if len(size) > 1 else size[0] ** max(dims, 1))
    if kind.startswith("Adaptive") and "Pool" in kind:
        inputs = _input_shape(node.args[0])
        return _numel(inputs) if inputs else None
    if kind in _NO_COMPUTE:
        return 0
    if kind in _FIVE_PER_ELEMENT:
        return 5 * out_elements
    if kind in _ONE_PER_ELEMENT:
        return out_elements
    return None


def _function_compute(node, name, out_elements):
    """FLOPs of a function or method call, or None when there is no formula."""
    if name == "linear":
        weight = _input_shape(node.args[1]) if len(node.args) > 1 else None
        return 2 * out_elements * (weight[-1] if weight else 1)
    if name == "scaled_dot_product_attention":
        return _scaled_dot_product(node)
    if name in _MATMUL_FUNCTIONS or node.target is operator.matmul:
        first = _input_shape(node.args[0]) if node.args else None
        if name in ("baddbmm", "addmm") and len(node.args) > 1:
            first = _input_shape(node.args[1])
        if name == "einsum":
            return None  # the contraction size is not in the output
        return 2 * out_elements * (first[-1] if first else 1)
    if name.startswith("conv") and len(node.args) > 1:
        weight = _input_shape(node.args[1])
        return 2 * out_elements * (_numel(weight[1:]) if weight else 1)
    if "pool" in name:
        size = node.args[1] if len(node.args) > 1 else node.kwargs.get("kernel_size")
        if isinstance(size, int):
            return out_elements * size ** max(len(_input_shape(node.args[0]) or ()) - 2, 1)
        if isinstance(size, (tuple, list)):
            return out_elements * _numel(size)
        return None
    if name in _NO_COMPUTE:
        return 0
    if name in _FIVE_PER_ELEMENT:
        return 5 * out_elements
    if name in _ONE_PER_ELEMENT or node.target in (operator.add, operator.mul, operator.sub, operator.truediv):
        return out_elements
    return None


def _compute(node, module):
    """(FLOPs, estimated): the cost of one operator from its shapes (see the
    file comment); estimated is True when no formula applies and the output
    element count stands in."""
    out_elements = _output_elements(node)
    if node.op == "call_module":
        flops = _module_compute(node, module, out_elements)
    else:
        flops = _function_compute(node, _name_of(node.target), out_elements)
    if flops is None:
        return out_elements, True
    return flops, False


# --------------------------------------------------------------------------
# Tracing with a clear message when fx cannot.


class _PathTracer:
    """Builds an fx tracer that remembers which submodule it is inside, so
    that a failure names the operator's module."""

    def __new__(cls, recurse=True):
        import torch
        import torch.fx

        class Tracer(torch.fx.Tracer):
            def __init__(self, recurse):
                super().__init__()
                self.module_stack = []
                self.failed_in = None  # the innermost module when tracing failed
                self.recurse = recurse

            def is_leaf_module(self, module, qualified_name):
                # A torch.nn container of other modules (TransformerEncoderLayer...)
                # is traced into, so its own operators get their formulas;
                # attention has a formula of its own and stays whole.
                if self.recurse and list(module.children()) and not isinstance(module, torch.nn.MultiheadAttention):
                    return False
                return super().is_leaf_module(module, qualified_name)

            def call_module(self, module, forward, args, kwargs):
                self.module_stack.append((self.path_of_module(module), type(module).__name__))
                try:
                    result = super().call_module(module, forward, args, kwargs)
                except Exception:
                    if self.failed_in is None:
                        self.failed_in = self.module_stack[-1]
                    raise
                finally:
                    self.module_stack.pop()
                # nn.MultiheadAttention returns (output, weights): a pair the
                # caller may unpack (`a, _ = self.attn(x, x, x)`), which a
                # proxy cannot do, so the pair is built here, item by item.
                if isinstance(module, torch.nn.MultiheadAttention) and isinstance(result, torch.fx.Proxy):
                    return (result[0], result[1])
                return result

            def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
                node = super().create_node(kind, target, args, kwargs, name, type_expr)
                # The owner of the operator: the innermost module being traced
                # (a leaf module call is on the stack itself), "" for the root.
                node.meta["tessel_module"] = self.module_stack[-1][0] if self.module_stack else ""
                return node

        return Tracer(recurse)


def _user_frame(error):
    """The innermost frame of the traceback outside torch: the user's line."""
    frames = traceback.extract_tb(error.__traceback__)
    for frame in reversed(frames):
        if os.sep + "torch" + os.sep not in frame.filename and frame.filename != __file__:
            return frame
    return frames[-1] if frames else None


def _trace_failure(model_name, tracer, error):
    where = ""
    frame = _user_frame(error)
    if frame is not None:
        where = " at %s:%d (%s): `%s`" % (frame.filename, frame.lineno, frame.name, (frame.line or "").strip())
    inside = ""
    if tracer is not None and tracer.failed_in is not None:
        path, kind = tracer.failed_in
        inside = " inside module '%s' (%s)" % (path or "<root>", kind)
    reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    in_iter = any(f.name == "__iter__" and os.sep + "fx" + os.sep in f.filename
                  for f in traceback.extract_tb(error.__traceback__))
    if in_iter:
        reason = ("the result of an operator is unpacked or iterated (torch.fx cannot do that "
                  "symbolically here; index it instead, e.g. parts[0], parts[1])")
    elif "control flow" in reason:
        reason = "data-dependent control flow: " + reason
    return TesselFxError("cannot trace model '%s'%s%s: %s" % (model_name, inside, where, reason))


def trace_graph_module(module, example_inputs, name):
    """symbolic_trace + ShapeProp, with a TesselFxError on failure."""
    import torch.fx
    from torch.fx.passes.shape_prop import ShapeProp

    tracer = _PathTracer()
    try:
        graph = tracer.trace(module)
    except Exception:  # fx raises many kinds; all mean "cannot trace"
        # A torch.nn module that cannot be traced into (control flow inside
        # torch) is kept whole instead; its cost is then listed as estimated.
        tracer = _PathTracer(recurse=False)
        try:
            graph = tracer.trace(module)
        except Exception as error:
            raise _trace_failure(name, tracer, error) from None
    graph_module = torch.fx.GraphModule(tracer.root, graph, name)
    try:
        ShapeProp(graph_module).propagate(*example_inputs)
    except Exception as error:
        failing = ""
        frame = _user_frame(error)
        if frame is not None:
            failing = " at %s:%d: `%s`" % (frame.filename, frame.lineno, (frame.line or "").strip())
        raise TesselFxError("cannot run model '%s' on the example inputs%s: %s"
                            % (name, failing, str(error).strip().splitlines()[0] if str(error).strip()
                               else type(error).__name__)) from None
    return graph_module


# --------------------------------------------------------------------------
# The graph.


def measured_times(graph_module, example_inputs, repeats=5):
    """Nanoseconds of each fx node on this machine: the median of `repeats`
    runs after one warm-up run (torch.fx.Interpreter, node by node)."""
    import statistics
    import time

    import torch
    import torch.fx

    samples = {}

    class Timer(torch.fx.Interpreter):
        def run_node(self, node):
            begin = time.perf_counter_ns()
            result = super().run_node(node)
            samples.setdefault(node, []).append(time.perf_counter_ns() - begin)
            return result

    with torch.no_grad():
        for _ in range(repeats + 1):
            Timer(graph_module).run(*example_inputs)
    return {node: int(statistics.median(times[1:])) for node, times in samples.items()}


def _aten_flops(func, args, out):
    """FLOPs of one aten call: matrix products and convolutions from their
    shapes, one per output element for the rest."""
    import torch

    name = str(func.overloadpacket.__name__) if hasattr(func, "overloadpacket") else str(func)
    outputs = [t for t in (out if isinstance(out, (tuple, list)) else (out,)) if isinstance(t, torch.Tensor)]
    out_elements = sum(t.numel() for t in outputs)
    if name in ("mm", "addmm", "bmm", "baddbmm", "matmul"):
        left = args[1] if name in ("addmm", "baddbmm") else args[0]
        return 2 * out_elements * left.shape[-1]
    if name == "convolution":
        weight = args[1]
        transposed = bool(args[6]) if len(args) > 6 else False
        if transposed:
            return 2 * args[0].numel() * weight.shape[1] * _numel(weight.shape[2:])
        return 2 * out_elements * _numel(weight.shape[1:])
    if name in ("_softmax", "softmax", "native_layer_norm", "native_batch_norm", "native_group_norm"):
        return 5 * out_elements
    if name in ("view", "_unsafe_view", "t", "transpose", "permute", "expand", "clone", "detach", "split",
                "split_with_sizes", "unsqueeze", "squeeze", "slice", "select", "reshape", "contiguous",
                "embedding", "alias", "empty", "zeros", "ones", "_to_copy", "copy_", "native_dropout", "dropout"):
        return 0
    return out_elements


def counted_flops(module, args):
    """Runs a module (one without a formula here) once on `args` and counts
    the FLOPs of the aten operators it dispatches: a torch.nn module fx
    cannot trace into is still costed by what it computes."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    total = [0]

    class Counter(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            total[0] += _aten_flops(func, args, out)
            return out

    with torch.no_grad(), Counter():
        module(*args)
    return total[0]


def _module_inputs(graph_module, example_inputs, wanted):
    """The actual arguments of the call_module nodes in `wanted`."""
    import torch
    import torch.fx

    captured = {}

    class Capture(torch.fx.Interpreter):
        def call_module(self, target, args, kwargs):
            if target in wanted:
                captured[target] = args
            return super().call_module(target, args, kwargs)

    with torch.no_grad():
        Capture(graph_module).run(*example_inputs)
    return captured


def _warn_estimated(name, estimated):
    """The loud list: every operator whose cost had no formula."""
    if not estimated:
        return
    print("tessel_fx: warning: model '%s': %d operator(s) have no FLOP formula; their compute is ESTIMATED as "
          "their output element count (use --profile to measure them):" % (name, len(estimated)), file=sys.stderr)
    for node_id, op in estimated:
        print("tessel_fx: warning:   %s (%s)" % (node_id, op), file=sys.stderr)


def _count_module(graph_module, example_inputs, fx_node, module_obj):
    """counted_flops of a container module kept whole, or None when it
    cannot run alone (then its cost stays an estimate, listed)."""
    try:
        args = _module_inputs(graph_module, tuple(example_inputs), {fx_node.target})[fx_node.target]
        return counted_flops(module_obj, args)
    except Exception:
        return None


def _multi_output(fx_node):
    return hasattr(fx_node, "meta") and isinstance(fx_node.meta.get("tensor_meta"), (tuple, list))


def _assign_node_ids(graph_module):
    """({fx node: graph node id or None}, the set of folded getitems); see
    graph_node_ids."""
    ids = {}
    folded = set()
    used = set()
    for fx_node in graph_module.graph.nodes:
        if fx_node.op in ("placeholder", "output", "get_attr"):
            ids[fx_node] = None
            continue
        if fx_node.op == "call_function" and fx_node.target is operator.getitem:
            source = fx_node.args[0]
            if _multi_output(source) and ids.get(source) is not None:
                ids[fx_node] = ids[source]
                folded.add(fx_node)
                continue
        preferred = str(fx_node.target) if fx_node.op == "call_module" else fx_node.name
        candidate = preferred if preferred not in used else fx_node.name
        while candidate in used:
            candidate += "_"
        used.add(candidate)
        ids[fx_node] = candidate
    return ids, folded


def _on_meta(module, example_inputs):
    import torch

    tensors = list(module.parameters()) + [t for t in example_inputs if isinstance(t, torch.Tensor)]
    return any(t.device.type == "meta" for t in tensors)


def graph_node_ids(graph_module):
    """{fx node: the tessel.graph/1 node id it belongs to, or None} for a
    graph module made by trace_graph_module (shapes propagated: a `getitem`
    of a multi-output operator is recognised by its producer's shapes).

    A call_module node's id is its target (the module path), any other
    node's is the fx node name; a clash gets "_" appended; a `getitem` of a
    multi-output operator maps to its producer's id; placeholders, outputs
    and parameter reads map to None. The exporter uses exactly this, so a
    runtime that traces the same model the same way maps every fx node to
    its graph node, hence (stages.json) to its stage."""
    return _assign_node_ids(graph_module)[0]


def graph_from_module(module, example_inputs, name=None, profile=False, estimated=None):
    """The tessel.graph/1 document (a dict) of `module` run on `example_inputs`.
    profile=True: compute is each operator's measured time in nanoseconds.
    `estimated` (a list, optional) receives (id, op) of every operator whose
    FLOPs had no formula; they are also listed on stderr."""
    import torch

    name = name or type(module).__name__
    if not isinstance(module, torch.nn.Module):
        raise TesselFxError("the model must be a torch.nn.Module, got %s" % type(module).__name__)
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    if not isinstance(example_inputs, (tuple, list)):
        raise TesselFxError("the example inputs must be a tensor or a tuple of them, got %s"
                            % type(example_inputs).__name__)
    if profile and _on_meta(module, example_inputs):
        raise TesselFxError("--profile measures the model by running it; model '%s' is on the meta device "
                            "(build it on a real device to profile, or leave out --profile to count FLOPs)" % name)
    graph_module = trace_graph_module(module, tuple(example_inputs), name)
    modules = dict(graph_module.named_modules())
    times = measured_times(graph_module, tuple(example_inputs)) if profile else None
    if estimated is None:
        estimated = []

    # Which fx node stands for which graph node (None: folded away).
    node_ids, folded = _assign_node_ids(graph_module)
    stands_for = {}
    nodes = []
    counted_params = {}  # id(parameter) -> the node id of its first user, which holds it

    def params_of(fx_node, module_obj, node_id, tied):
        """Bytes of parameters this operator uses that no earlier one did; those
        an earlier one holds are appended to `tied` as {"holder", "bytes"}."""
        used = []
        if module_obj is not None:
            used.extend(module_obj.parameters())
        for arg in fx_node.all_input_nodes:
            if arg.op == "get_attr":
                value = graph_module
                for part in str(arg.target).split("."):
                    value = getattr(value, part)
                if isinstance(value, torch.nn.Parameter):
                    used.append(value)
        total = 0
        for parameter in used:
            bytes_ = parameter.numel() * parameter.element_size()
            holder = counted_params.get(id(parameter))
            if holder is None:
                counted_params[id(parameter)] = node_id
                total += bytes_
            elif holder != node_id:
                tied.append({"holder": holder, "bytes": int(bytes_)})
        return total

    for fx_node in graph_module.graph.nodes:
        if node_ids[fx_node] is None:
            stands_for[fx_node] = None
            continue
        if fx_node in folded:
            stands_for[fx_node] = stands_for[fx_node.args[0]]
            continue
        module_obj = modules.get(fx_node.target) if fx_node.op == "call_module" else None
        op = _module_op(type(module_obj).__name__) if fx_node.op == "call_module" else _name_of(fx_node.target)
        index = len(nodes)
        flops, guessed = _compute(fx_node, module_obj)
        if guessed and module_obj is not None and list(module_obj.children()):
            counted = _count_module(graph_module, example_inputs, fx_node, module_obj)
            if counted is not None:
                flops, guessed = counted, False
        node_id = node_ids[fx_node]
        if guessed and not profile:
            estimated.append((node_id, op))
        tied = []
        nodes.append({
            "id": node_id,
            "op": op,
            "compute": int(times.get(fx_node, 0) if profile else flops),
            "param_bytes": int(params_of(fx_node, module_obj, node_id, tied)),
            "output_bytes": int(_output_bytes(fx_node)),
            "module": fx_node.meta.get("tessel_module", ""),
            "_inputs": [arg for arg in fx_node.all_input_nodes],
        })
        if tied:
            nodes[-1]["tied"] = tied
        stands_for[fx_node] = index

    edges = []
    seen = set()
    for index, node in enumerate(nodes):
        for arg in node.pop("_inputs"):
            source = stands_for.get(arg)
            if source is None or source == index or (source, index) in seen:
                continue
            seen.add((source, index))
            edges.append([nodes[source]["id"], node["id"]])
    _warn_estimated(name, estimated)
    return {"format": FORMAT, "name": name, "compute_unit": "ns" if profile else "flops",
            "nodes": nodes, "edges": edges}


def export_graph(module, example_inputs, path, name=None, profile=False):
    """Traces `module` on `example_inputs` and writes tessel.graph/1 to `path`.
    Returns the document. Raises TesselFxError when the model cannot be traced."""
    document = graph_from_module(module, example_inputs, name, profile=profile)
    with open(path, "w") as out:
        json.dump(document, out, indent=1)
        out.write("\n")
    return document


# --------------------------------------------------------------------------
# Command line.


def _load_factory(spec):
    if ":" not in spec:
        raise TesselFxError("expected FILE.py:FACTORY, got '%s'" % spec)
    path, factory_name = spec.rsplit(":", 1)
    if not os.path.isfile(path):
        raise TesselFxError("no such file: %s" % path)
    loaded = importlib.util.spec_from_file_location("tessel_fx_user_model", path)
    user = importlib.util.module_from_spec(loaded)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    loaded.loader.exec_module(user)
    factory = getattr(user, factory_name, None)
    if factory is None:
        raise TesselFxError("%s has no function '%s'" % (path, factory_name))
    return factory


def _call_factory(spec):
    """(module, example_inputs) from FILE.py:FACTORY, or a TesselFxError
    saying what the factory did wrong."""
    import torch

    factory = _load_factory(spec)
    try:
        made = factory()
    except Exception as error:
        frame = _user_frame(error)
        where = " at %s:%d: `%s`" % (frame.filename, frame.lineno, (frame.line or "").strip()) if frame else ""
        raise TesselFxError("%s raised %s%s: %s" % (spec, type(error).__name__, where, error)) from None
    if not isinstance(made, (tuple, list)) or len(made) != 2:
        raise TesselFxError("%s must return (module, example_inputs), got %s" % (spec, _describe(made)))
    module, example_inputs = made
    if not isinstance(module, torch.nn.Module):
        raise TesselFxError("%s returned %s as the module; expected a torch.nn.Module" % (spec, _describe(module)))
    if not isinstance(example_inputs, (torch.Tensor, tuple, list)):
        raise TesselFxError("%s returned %s as the example inputs; expected a tensor or a tuple of tensors"
                            % (spec, _describe(example_inputs)))
    return module, example_inputs


def _describe(value):
    if isinstance(value, (tuple, list)):
        return "a %s of %d item(s)" % (type(value).__name__, len(value))
    return "a %s" % type(value).__name__


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="tessel_fx.py",
        description="Export a PyTorch module as a tessel.graph/1 operator graph (torch.fx tracing "
                    "and shape propagation; FLOPs, parameter and output bytes per operator).")
    parser.add_argument("model", help="FILE.py:FACTORY, where FACTORY() returns (module, example_inputs)")
    parser.add_argument("-o", "--output", required=True, help="where to write the graph JSON")
    parser.add_argument("--name", help="graph name (default: the module's class name)")
    parser.add_argument("--profile", action="store_true",
                        help="measure each operator on this machine: compute in nanoseconds instead of FLOPs")
    args = parser.parse_args(argv)
    try:
        import torch  # noqa: F401
    except ImportError:
        print("tessel_fx.py: error: torch is not importable by %s (Debian's python3-torch installs for "
              "/usr/bin/python3)" % sys.executable, file=sys.stderr)
        return 2
    try:
        module, example_inputs = _call_factory(args.model)
        document = export_graph(module, example_inputs, args.output, args.name, profile=args.profile)
    except TesselFxError as error:
        print("tessel_fx.py: error: %s" % error, file=sys.stderr)
        return 2
    total = sum(node["compute"] for node in document["nodes"])
    params = sum(node["param_bytes"] for node in document["nodes"])
    other = sorted({str(p.dtype) for p in module.parameters() if p.element_size() != 4})
    if other:
        print("tessel_fx.py: note: parameters in %s; plan and partition count the graph's parameter bytes as fp32 "
              "(4 bytes each): trace the model in float32, and give the training precision as --param-bytes"
              % ", ".join(other), file=sys.stderr)
    print("%s: %d nodes, %d edges, %.3g %s, %d parameter bytes -> %s"
          % (document["name"], len(document["nodes"]), len(document["edges"]), total,
             "ns (measured)" if args.profile else "FLOPs", params, args.output),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
