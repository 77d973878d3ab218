#!/usr/bin/python3
"""From a PyTorch module to a tessel.graph/1 operator graph (issue 7, step 4).

torch.fx traces the module symbolically into one node per operator, and
shape propagation runs it once on the example inputs (real or `meta`
tensors) so that every node knows its output shapes and dtypes. From those
this file estimates, per operator:

- compute: FLOPs from the shapes -- 2 x multiply-adds for linear, matmul,
  bmm and convolutions; the element count of the output for element-wise,
  normalisation and softmax operators; 0 for operators that only move or
  re-view data (view, reshape, transpose, split, getitem, embedding lookup...);
- param_bytes: the bytes of the parameters the operator uses (a module's own
  parameters, or a `get_attr` parameter feeding a function), each shared
  parameter counted once, at its first user in program order;
- output_bytes: the bytes of the output tensors (numel x element size).

Placeholders, outputs and parameter reads are folded away (they are not
operators), and `getitem` on a multi-output operator is folded into that
operator, so edges run from operator to operator.

A model fx cannot trace raises TesselFxError naming the operator and the
source line where tracing stopped, never a bare traceback.

Usage as a module:   export_graph(module, example_inputs, path, name=None)
Usage as a command:  /usr/bin/python3 tools/tessel_fx.py FILE.py:FACTORY -o graph.json [--name NAME]
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


def _compute(node, module):
    """FLOPs of one operator from its shapes (see the file comment)."""
    import torch.nn as nn

    out_elements = _output_elements(node)
    if node.op == "call_module":
        if isinstance(module, nn.Linear):
            return 2 * out_elements * module.in_features
        if isinstance(module, nn.modules.conv._ConvNd):
            kernel = _numel(module.kernel_size)
            return 2 * out_elements * (module.in_channels // module.groups) * kernel
        kind = type(module).__name__
        if kind in _NO_COMPUTE:
            return 0
        return out_elements
    name = _name_of(node.target)
    if name == "linear":
        weight = _input_shape(node.args[1]) if len(node.args) > 1 else None
        return 2 * out_elements * (weight[-1] if weight else 1)
    if name in _MATMUL_FUNCTIONS or node.target is operator.matmul:
        first = _input_shape(node.args[0]) if node.args else None
        if name in ("baddbmm", "addmm") and len(node.args) > 1:
            first = _input_shape(node.args[1])
        if name == "einsum":
            return 2 * out_elements  # the contraction size is not in the output; a floor
        return 2 * out_elements * (first[-1] if first else 1)
    if name.startswith("conv") and len(node.args) > 1:
        weight = _input_shape(node.args[1])
        return 2 * out_elements * (_numel(weight[1:]) if weight else 1)
    if name in _NO_COMPUTE:
        return 0
    return out_elements  # element-wise, normalisation, softmax and the rest


# --------------------------------------------------------------------------
# Tracing with a clear message when fx cannot.


class _PathTracer:
    """Builds an fx tracer that remembers which submodule it is inside, so
    that a failure names the operator's module."""

    def __new__(cls):
        import torch.fx

        class Tracer(torch.fx.Tracer):
            def __init__(self):
                super().__init__()
                self.module_stack = []
                self.failed_in = None  # the innermost module when tracing failed

            def call_module(self, module, forward, args, kwargs):
                self.module_stack.append((self.path_of_module(module), type(module).__name__))
                try:
                    return super().call_module(module, forward, args, kwargs)
                except Exception:
                    if self.failed_in is None:
                        self.failed_in = self.module_stack[-1]
                    raise
                finally:
                    self.module_stack.pop()

        return Tracer()


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
    except Exception as error:  # fx raises many kinds; all mean "cannot trace"
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


def graph_from_module(module, example_inputs, name=None):
    """The tessel.graph/1 document (a dict) of `module` run on `example_inputs`."""
    import torch

    name = name or type(module).__name__
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    graph_module = trace_graph_module(module, tuple(example_inputs), name)
    modules = dict(graph_module.named_modules())

    # Which fx node stands for which graph node (None: folded away).
    stands_for = {}
    nodes = []
    ids = set()
    counted_params = set()

    def fresh_id(preferred, fallback):
        candidate = preferred if preferred not in ids else fallback
        while candidate in ids:
            candidate += "_"
        ids.add(candidate)
        return candidate

    def params_of(fx_node, module_obj):
        """Bytes of parameters this operator uses that no earlier one did."""
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
            if id(parameter) in counted_params:
                continue
            counted_params.add(id(parameter))
            total += parameter.numel() * parameter.element_size()
        return total

    for fx_node in graph_module.graph.nodes:
        if fx_node.op in ("placeholder", "output", "get_attr"):
            stands_for[fx_node] = None
            continue
        if fx_node.op == "call_function" and fx_node.target is operator.getitem:
            source = fx_node.args[0]
            multi_output = hasattr(source, "meta") and isinstance(source.meta.get("tensor_meta"), (tuple, list))
            if multi_output and stands_for.get(source) is not None:
                stands_for[fx_node] = stands_for[source]
                continue
        module_obj = modules.get(fx_node.target) if fx_node.op == "call_module" else None
        if fx_node.op == "call_module":
            op = _module_op(type(module_obj).__name__)
            preferred = str(fx_node.target)
        else:
            op = _name_of(fx_node.target)
            preferred = fx_node.name
        index = len(nodes)
        nodes.append({
            "id": fresh_id(preferred, fx_node.name),
            "op": op,
            "compute": int(_compute(fx_node, module_obj)),
            "param_bytes": int(params_of(fx_node, module_obj)),
            "output_bytes": int(_output_bytes(fx_node)),
            "_inputs": [arg for arg in fx_node.all_input_nodes],
        })
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
    return {"format": FORMAT, "name": name, "nodes": nodes, "edges": edges}


def export_graph(module, example_inputs, path, name=None):
    """Traces `module` on `example_inputs` and writes tessel.graph/1 to `path`.
    Returns the document. Raises TesselFxError when the model cannot be traced."""
    document = graph_from_module(module, example_inputs, name)
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


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="tessel_fx.py",
        description="Export a PyTorch module as a tessel.graph/1 operator graph (torch.fx tracing "
                    "and shape propagation; FLOPs, parameter and output bytes per operator).")
    parser.add_argument("model", help="FILE.py:FACTORY, where FACTORY() returns (module, example_inputs)")
    parser.add_argument("-o", "--output", required=True, help="where to write the graph JSON")
    parser.add_argument("--name", help="graph name (default: the module's class name)")
    args = parser.parse_args(argv)
    try:
        import torch  # noqa: F401
    except ImportError:
        print("tessel_fx.py: error: torch is not importable by %s (Debian's python3-torch installs for "
              "/usr/bin/python3)" % sys.executable, file=sys.stderr)
        return 2
    try:
        module, example_inputs = _load_factory(args.model)()
        document = export_graph(module, example_inputs, args.output, args.name)
    except TesselFxError as error:
        print("tessel_fx.py: error: %s" % error, file=sys.stderr)
        return 2
    total = sum(node["compute"] for node in document["nodes"])
    params = sum(node["param_bytes"] for node in document["nodes"])
    print("%s: %d nodes, %d edges, %.3g FLOPs, %d parameter bytes -> %s"
          % (document["name"], len(document["nodes"]), len(document["edges"]), total, params, args.output),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
