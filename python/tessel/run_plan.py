"""What `tessel run` reads from a plan directory (docs/runtime.md): the
stages (stages.json: which graph operators and modules each pipeline stage
holds, and its rank), each rank's list of actions (schedule_comms.csv:
PyTorch's action table with its sends and receives, one row per rank, run
left to right) and which micro-batches of which stage trade memory for time
(memory_choices.json: recompute or offload; the CSV has no action for
either). Kept apart from the runtime so that a wrong plan is refused
with the file, the place and the problem before any process starts.
"""

import json
import os
import re

STAGES_FORMAT = "tessel.stages/1"
CHOICES_FORMAT = "tessel.memory_choices/1"
# <stage><action><micro-batch>, as PyTorch's _Action prints itself.
_CELL = re.compile(r"^(\d+)(F|B|I|W|SEND_F|RECV_F|SEND_B|RECV_B)(\d+)$")
COMPUTE = ("F", "B", "I", "W")


class PlanError(ValueError):
    """A plan directory the runtime cannot run: the message names the file,
    the field or cell and what is wrong."""


class Action:
    """One cell of the action table: stage, kind (F, B, I, W, SEND_F,
    RECV_F, SEND_B, RECV_B) and micro-batch; `name` is PyTorch's own
    spelling (`1SEND_F3`), used for the profiler ranges (`PP:1SEND_F3`)."""

    __slots__ = ("stage", "kind", "micro", "name")

    def __init__(self, stage, kind, micro):
        self.stage, self.kind, self.micro = stage, kind, micro
        self.name = "%d%s%d" % (stage, kind, micro)

    def __repr__(self):
        return self.name


class Stage:
    """One pipeline stage of stages.json."""

    __slots__ = ("index", "rank", "operators", "modules")

    def __init__(self, index, rank, operators, modules):
        self.index, self.rank, self.operators, self.modules = index, rank, operators, modules


class Plan:
    """The stages, the ranks' action lists, the micro-batch count and how
    the plan was made (mapping, split backward), from one directory."""

    def __init__(self, directory, stages, actions, mapping, split_backward):
        self.directory = directory
        self.recompute = set()  # (stage, micro): forward kept nothing, recomputed before its backward
        self.offload = set()    # (stage, micro): activation copied to host memory and back
        self.stages = stages
        self.actions = actions  # per rank, a list of Action
        self.ranks = len(actions)
        self.mapping = mapping
        self.split_backward = split_backward
        self.nmicros = 1 + max((a.micro for row in actions for a in row), default=-1)


def _load_json(path):
    try:
        with open(path) as handle:
            return json.load(handle)
    except FileNotFoundError:
        raise PlanError("%s: no such file (make the plan with `tessel plan GRAPH ... -o DIR`)" % path) from None
    except (OSError, ValueError) as error:
        raise PlanError("%s: cannot read: %s" % (path, error)) from None


def _field(document, key, kind, path):
    if key not in document:
        raise PlanError("%s: field '%s' is missing" % (path, key))
    value = document[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise PlanError("%s: field '%s' has the wrong type (%s)" % (path, key, type(value).__name__))
    return value


def read_stages(path):
    """(stages, mapping, split_backward, ranks) of a stages.json."""
    document = _load_json(path)
    if not isinstance(document, dict) or document.get("format") != STAGES_FORMAT:
        raise PlanError("%s: field 'format' must be \"%s\"" % (path, STAGES_FORMAT))
    ranks = _field(document, "ranks", int, path)
    stages = []
    seen = {}
    for position, entry in enumerate(_field(document, "stages", list, path)):
        where = "%s: stages[%d]" % (path, position)
        if not isinstance(entry, dict):
            raise PlanError("%s: is not an object" % where)
        index, rank = _field(entry, "stage", int, where), _field(entry, "rank", int, where)
        if index != position:
            raise PlanError("%s: field 'stage' is %d; stages must be listed 0, 1, 2, ..." % (where, index))
        if not 0 <= rank < ranks:
            raise PlanError("%s: field 'rank' is %d, not in [0, %d)" % (where, rank, ranks))
        operators = _field(entry, "operators", list, where)
        for node in operators:
            if node in seen:
                raise PlanError("%s: operator '%s' is also in stage %d" % (where, node, seen[node]))
            seen[node] = index
        stages.append(Stage(index, rank, list(operators), list(entry.get("modules", []))))
    if not stages:
        raise PlanError("%s: field 'stages' is empty" % path)
    return stages, document.get("mapping", "?"), bool(document.get("split_backward", False)), ranks


def read_actions(path, stages, ranks):
    """Each rank's actions, from a comms table; every cell is checked
    against the stages (its stage exists and lives on this row's rank)."""
    try:
        with open(path) as handle:
            lines = handle.read().splitlines()
    except OSError as error:
        raise PlanError("%s: cannot read: %s" % (path, error)) from None
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) != ranks:
        raise PlanError("%s: %d row(s), but stages.json has %d ranks" % (path, len(lines), ranks))
    actions = []
    for rank, line in enumerate(lines):
        row = []
        for column, text in enumerate(line.split(",")):
            text = text.strip()
            if not text:
                continue
            match = _CELL.match(text)
            where = "%s: row %d (rank %d), column %d" % (path, rank + 1, rank, column + 1)
            if match is None:
                raise PlanError("%s: cell '%s' is not <stage><F|B|I|W|SEND_F|RECV_F|SEND_B|RECV_B><micro>"
                                % (where, text))
            stage, kind, micro = int(match.group(1)), match.group(2), int(match.group(3))
            if stage >= len(stages):
                raise PlanError("%s: cell '%s' names stage %d; the plan has %d" % (where, text, stage, len(stages)))
            if stages[stage].rank != rank:
                raise PlanError("%s: cell '%s': stage %d runs on rank %d" % (where, text, stage, stages[stage].rank))
            row.append(Action(stage, kind, micro))
        actions.append(row)
    return actions


def read_plan(directory, table="schedule_comms.csv"):
    """The Plan of a `tessel plan` output directory."""
    if not os.path.isdir(directory):
        raise PlanError("%s: not a directory (give the -o DIR of `tessel plan`)" % directory)
    stages, mapping, split, ranks = read_stages(os.path.join(directory, "stages.json"))
    actions = read_actions(os.path.join(directory, table), stages, ranks)
    plan = Plan(directory, stages, actions, mapping, split)
    _check_complete(plan, os.path.join(directory, table))
    plan.recompute, plan.offload = read_memory_choices(os.path.join(directory, "memory_choices.json"), plan)
    return plan


def read_memory_choices(path, plan):
    """(recompute, offload): sets of (stage, micro) from memory_choices.json.
    A plan written before plans could trade memory has no such file: it
    keeps every activation. A micro-batch both recomputed and offloaded, or
    one the plan does not have, is refused."""
    if not os.path.exists(path):
        return set(), set()
    document = _load_json(path)
    if not isinstance(document, dict) or document.get("format") != CHOICES_FORMAT:
        raise PlanError("%s: field 'format' must be \"%s\"" % (path, CHOICES_FORMAT))
    nmicros = _field(document, "nmicros", int, path)
    if nmicros != plan.nmicros:
        raise PlanError("%s: field 'nmicros' is %d, but the action table has %d micro-batches"
                        % (path, nmicros, plan.nmicros))
    chosen = {"recompute": set(), "offload": set()}
    for position, entry in enumerate(_field(document, "stages", list, path)):
        where = "%s: stages[%d]" % (path, position)
        if not isinstance(entry, dict):
            raise PlanError("%s: is not an object" % where)
        stage = _field(entry, "stage", int, where)
        if not 0 <= stage < len(plan.stages):
            raise PlanError("%s: field 'stage' is %d; the plan has %d stages" % (where, stage, len(plan.stages)))
        for choice, marked in chosen.items():
            for micro in _field(entry, choice, list, where):
                if not isinstance(micro, int) or isinstance(micro, bool) or not 0 <= micro < nmicros:
                    raise PlanError("%s: field '%s' lists %r, not a micro-batch in [0, %d)"
                                    % (where, choice, micro, nmicros))
                marked.add((stage, micro))
    both = sorted(chosen["recompute"] & chosen["offload"])
    if both:
        raise PlanError("%s: stage %d, micro-batch %d is both recomputed and offloaded" % ((path,) + both[0]))
    return chosen["recompute"], chosen["offload"]


def _check_complete(plan, path):
    """Every stage runs a forward and a backward (B, or I and W) of every
    micro-batch exactly once; a table that does not cannot be a training step."""
    moves = any(action.kind.startswith(("SEND", "RECV")) for row in plan.actions for action in row)
    if not moves and len({stage.rank for stage in plan.stages}) > 1:
        raise PlanError("%s: no SEND or RECV action, so nothing moves the activations between ranks: a "
                        "compute-only table (schedule.csv) cannot run; run schedule_comms.csv (the default)" % path)
    counts = {}
    for row in plan.actions:
        for action in row:
            if action.kind in COMPUTE:
                key = (action.stage, action.kind, action.micro)
                counts[key] = counts.get(key, 0) + 1
    for stage in plan.stages:
        for micro in range(plan.nmicros):
            kinds = ("F", "I", "W") if (stage.index, "I", micro) in counts else ("F", "B")
            for kind in kinds:
                got = counts.get((stage.index, kind, micro), 0)
                if got != 1:
                    raise PlanError("%s: action %d%s%d appears %d time(s), expected once"
                                    % (path, stage.index, kind, micro, got))
