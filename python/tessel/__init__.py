"""tessel: find, prove and check pipeline schedules (docs/python.md).

The compiled core (_tessel) holds the model, the search, the verifier and
the hand-made families; this package adds what is Python by nature: tracing
a PyTorch model into an operator graph (from_torch), and running a plan on
CPU processes to check it against the unpipelined model (run; tessel.runtime).
"""

from ._tessel import (  # noqa: F401
    DeadlockError,
    Graph,
    InputError,
    Placement,
    Plan,
    Report,
    Result,
    Schedule,
    cases,
    generate,
    import_schedule,
    partition,
    plan,
    schemes,
    search,
    tuning_knobs,
    verify,
)

__all__ = [
    "DeadlockError", "Graph", "InputError", "Placement", "Plan", "Report", "Result", "Schedule", "cases",
    "from_torch", "generate", "run", "import_schedule", "partition", "plan", "schemes", "search", "tuning_knobs", "verify",
]


def from_torch(model, example_inputs, name=None, profile=False):
    """Trace `model` (a torch.nn.Module) on `example_inputs` into a tessel.Graph.

    Compute is counted in FLOPs by default (operators without a formula are
    listed on stderr as estimated), or measured in nanoseconds on this
    machine with profile=True.
    """
    import json

    from . import _fx

    kwargs = {"name": name}
    if profile:
        kwargs["profile"] = True
    document = _fx.graph_from_module(model, example_inputs, **kwargs)
    return Graph.from_json(json.dumps(document))


def run(plan_dir, model, steps=2, trace_dir=None, timeout=30.0, lr=0.01, rtol=None):
    """Run the plan in `plan_dir` (a `tessel plan -o` directory) on the model
    of "FILE.py:FACTORY", one process per rank, and compare the loss and every
    parameter gradient with the unpipelined model (docs/runtime.md). Returns a
    RunResult: exit_code (0 agree, 1 differs, 2 bad input, 3 deadlock or
    time-out, 4 internal error), message, per-step differences, wall time."""
    from . import runtime

    return runtime.run(plan_dir, model, steps=steps, trace_dir=trace_dir, timeout=timeout, lr=lr, rtol=rtol)
