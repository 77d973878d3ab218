"""Cutting a model into its pipeline stages for `tessel run`.

The model is traced again with tessel_fx's tracer (tessel._fx), which gives
every fx node the graph node id the plan was made from; stages.json says
which stage holds each id. Each stage becomes its own fx GraphModule over
the same parameters (so the gradients land in the model's own `.grad`).

The stages form a chain, as the action table's sends and receives do (stage
s receives only from stage s - 1): stage s takes as inputs every value made
before it (by earlier stages, or the model's inputs) that it or a later
stage uses, and returns every value it has or made that a later stage (or
the model's output) uses. A value needed three stages later is passed
through the stages in between. Values that are not tensors (sizes read from
a shape) are the same for every micro-batch of a size: each rank computes
them in a probe run, and they are never sent.
"""

from . import _fx


class StageModule:
    """One stage: its GraphModule, the fx nodes it takes (`inputs`) and
    returns (`outputs`), in the order they are sent and received."""

    def __init__(self, index, module, inputs, outputs, last):
        self.index, self.module, self.inputs, self.outputs, self.last = index, module, inputs, outputs, last


def _assign_ids(graph_module):
    """{fx node: graph node id or None}: tessel_fx's own assignment, the one
    the exporter used to name the graph's nodes."""
    return _fx.graph_node_ids(graph_module)


def stage_of_nodes(graph_module, stages):
    """{fx node: stage} for every operator node; raises ValueError naming an
    operator that is in no stage (a plan of another model) or a stage that
    uses a value a later stage makes."""
    wanted = {node_id: stage.index for stage in stages for node_id in stage.operators}
    ids = _assign_ids(graph_module)
    placed = {}
    for node, node_id in ids.items():
        if node_id is None:
            continue
        if node_id not in wanted:
            raise ValueError("the model's operator '%s' is in no stage of stages.json: was the plan made from "
                             "this model's graph (tools/tessel_fx.py on the same factory)?" % node_id)
        placed[node] = wanted[node_id]
    missing = sorted(set(wanted) - set(ids.values()))
    if missing:
        raise ValueError("stages.json names operator(s) the model does not have: %s" % ", ".join(missing[:5]))
    for node, stage in placed.items():
        for source in node.all_input_nodes:
            if placed.get(source, -1) > stage:
                raise ValueError("operator '%s' (stage %d) uses '%s' of the later stage %d"
                                 % (ids[node], stage, ids[source], placed[source]))
    return placed


def _boundaries(graph, placed, count):
    """crossing[s]: the values stage s receives (made before it and used by
    it or later), in graph order; crossing[count] is the model output's."""
    order = {node: position for position, node in enumerate(graph.nodes)}
    made_in = {}
    for node in graph.nodes:
        if node.op == "placeholder":
            made_in[node] = 0
        elif node in placed:
            made_in[node] = placed[node]
    last_use = {}
    for node in graph.nodes:
        user_stage = count if node.op == "output" else placed.get(node)
        if user_stage is None:
            continue
        for source in node.all_input_nodes:
            if source in made_in:
                last_use[source] = max(last_use.get(source, -1), user_stage)
    crossing = []
    for boundary in range(count + 1):
        values = [node for node in made_in
                  if (made_in[node] < boundary or (boundary == 0 and node.op == "placeholder"))
                  and last_use.get(node, -1) >= boundary]
        crossing.append(sorted(values, key=order.get))
    crossing[0] = [node for node in graph.nodes if node.op == "placeholder"]
    return crossing


def _build_stage(graph_module, index, inputs, outputs, members, output_node):
    import torch.fx

    graph = torch.fx.Graph()
    env = {}
    for node in inputs:
        env[node] = graph.placeholder(node.name)
    for node in graph_module.graph.nodes:
        if node in members:
            for source in node.all_input_nodes:
                if source.op == "get_attr" and source not in env:
                    env[source] = graph.node_copy(source, lambda n: env[n])
            env[node] = graph.node_copy(node, lambda n: env[n])
    if output_node is not None:
        graph.output(torch.fx.map_arg(output_node.args[0], lambda n: env[n]))
    else:
        graph.output(tuple(env[node] for node in outputs))
    graph.lint()
    return torch.fx.GraphModule(graph_module, graph, "stage%d" % index)


def cut_stages(module, micro_inputs, stages):
    """The StageModules of `module` (traced on one micro-batch's inputs)."""
    graph_module = _fx.trace_graph_module(module, tuple(micro_inputs), type(module).__name__)
    placed = stage_of_nodes(graph_module, stages)
    count = len(stages)
    crossing = _boundaries(graph_module.graph, placed, count)
    output_node = next(node for node in graph_module.graph.nodes if node.op == "output")
    result = []
    for index in range(count):
        members = {node for node, stage in placed.items() if stage == index}
        last = index == count - 1
        built = _build_stage(graph_module, index, crossing[index], crossing[index + 1], members,
                             output_node if last else None)
        result.append(StageModule(index, built, crossing[index], crossing[index + 1], last))
    return result
