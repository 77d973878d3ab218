"""`tessel run PLAN_DIR MODEL.py:make`: run a plan's schedule on CPU
processes, one per rank, then check the gradients against the unpipelined
model (docs/runtime.md).

The parent process loads the model once, cuts nothing itself, and forks one
process per rank (so every rank starts from the very same parameters). The
ranks set up a gloo process group on this machine, cut their stages
(tessel.run_stages), run the plan's action table for each step
(tessel.run_rank) under torch.profiler, all-reduce the parameter gradients
(each rank computed those of its own stages; a parameter shared by two
stages gets both parts) and take one SGD step, so the next step runs on
updated weights. Rank 0 hands the losses and gradients back. The parent
then runs the same micro-batches through the model in one process and
compares: exit 0 when the loss and every gradient agree within the
tolerance, 1 naming the first parameter that differs, 2 for a wrong plan or
model, 3 when a rank waited past the timeout (which rank waits in which
action), 4 for anything else (a bug).

A plan's memory_choices.json says which (stage, micro-batch) forwards keep
no activation and are recomputed before their backward, and which offload
theirs to host memory (tessel.run_rank); the run counts both, and a count
that differs from the plan's is a bug (exit 4), never ignored.

The factory returns (module, example_inputs) or (module, example_inputs,
loss_fn). The example batch is cut along its first dimension into the
plan's micro-batches; loss_fn(output) is one micro-batch's loss (default:
the sum of the means of the output's floating-point tensors), and a step's
loss is the sum over its micro-batches, for the run and the reference alike.
The model runs in eval mode (no dropout), so both sides compute the same
function.
"""

import argparse
import multiprocessing
import os
import shutil
import sys
import tempfile
import time

from . import run_plan

EXIT_OK, EXIT_DIFFERS, EXIT_INPUT, EXIT_TIMEOUT, EXIT_BUG = 0, 1, 2, 3, 4


class RunResult:
    """What a run measured: per step the loss of the run and the reference,
    the largest absolute and relative gradient difference, the first
    parameter over the tolerance (or None), the wall time, where traces went."""

    def __init__(self):
        self.exit_code = EXIT_OK
        self.message = ""
        self.steps = []   # dicts: loss, reference_loss, max_abs, max_rel, worst, first_bad
        self.wall_seconds = 0.0
        self.trace_files = []
        self.recomputed = 0   # forwards run again before their backward, over all steps and ranks
        self.offloaded = 0    # forwards whose activations went to host memory and back

    def __repr__(self):
        return "<tessel.RunResult exit %d: %s>" % (self.exit_code, self.message)


class RunError(RuntimeError):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def _load_model(spec):
    """(module, example_inputs tuple, loss_fn) from FILE.py:FACTORY."""
    import torch

    from . import _fx

    try:
        factory = _fx._load_factory(spec)
        made = factory()
    except _fx.TesselFxError as error:
        raise RunError(EXIT_INPUT, str(error)) from None
    except Exception as error:  # the user's code: any failure is bad input
        raise RunError(EXIT_INPUT, "%s raised %s: %s" % (spec, type(error).__name__, error)) from None
    if not isinstance(made, (tuple, list)) or len(made) not in (2, 3):
        raise RunError(EXIT_INPUT, "%s must return (module, example_inputs[, loss_fn])" % spec)
    module, inputs = made[0], made[1]
    loss_fn = made[2] if len(made) == 3 else None
    if not isinstance(module, torch.nn.Module):
        raise RunError(EXIT_INPUT, "%s returned a %s as the module" % (spec, type(module).__name__))
    if isinstance(inputs, torch.Tensor):
        inputs = (inputs,)
    if not all(isinstance(t, torch.Tensor) for t in inputs):
        raise RunError(EXIT_INPUT, "%s: the example inputs must be tensors" % spec)
    return module, tuple(inputs), loss_fn


def micro_batches(inputs, count):
    """The example batch cut into `count` micro-batches along dimension 0."""
    import torch

    for position, tensor in enumerate(inputs):
        if tensor.dim() == 0 or tensor.shape[0] < count:
            raise RunError(EXIT_INPUT, "example input %d has %s rows; the plan has %d micro-batches (give a "
                                       "batch of at least that many)"
                           % (position, tensor.shape[0] if tensor.dim() else "no", count))
    cut = [torch.tensor_split(tensor, count, dim=0) for tensor in inputs]
    return [tuple(parts[m].contiguous() for parts in cut) for m in range(count)]


def _rank_main(rank, job):
    """The body of one rank's process (forked). Exit code: 0, 3 on a receive
    timeout, 4 on any other failure; a message file says why."""
    import datetime
    import traceback

    import torch
    import torch.distributed as dist

    from . import run_rank, run_stages

    torch.set_num_threads(1)
    message_path = os.path.join(job["work"], "rank%d.message" % rank)
    try:
        dist.init_process_group("gloo", init_method="file://" + os.path.join(job["work"], "store"), rank=rank,
                                world_size=job["plan"].ranks,
                                timeout=datetime.timedelta(seconds=job["timeout"]))
        try:
            _run_rank_steps(rank, job, run_rank, run_stages)
        finally:
            dist.destroy_process_group()
    except run_rank.ReceiveTimeout as error:
        _write(message_path, str(error))
        os._exit(EXIT_TIMEOUT)
    except BaseException as error:  # reported by the parent as a bug
        _write(message_path, "rank %d failed: %s\n%s" % (rank, error, traceback.format_exc()))
        os._exit(EXIT_BUG)
    os._exit(EXIT_OK)


def _write(path, text):
    with open(path, "w") as handle:
        handle.write(text)


def _run_rank_steps(rank, job, run_rank, run_stages):
    import torch
    import torch.distributed as dist
    from torch.autograd.profiler import record_function

    model, plan = job["model"], job["plan"]
    micros = job["micros"]
    stages = run_stages.cut_stages(model, micros[0], plan.stages)
    probe = run_rank.Probe(stages, micros)
    runner = run_rank.RankRunner(rank, plan, stages, micros, job["loss_fn"], probe, job["timeout"], job["status"])
    params = list(model.named_parameters())
    record = []
    profiler = _profiler(job["trace_dir"])
    with profiler:
        dist.barrier()
        clock = time.monotonic_ns() // 1000
        with record_function("tessel:clock"):
            pass
        for step in range(job["steps"]):
            for _, param in params:
                param.grad = None
            loss = runner.run_step(step, record_function)
            record.append(_reduce(params, loss, job["lr"]))
    if job["trace_dir"]:
        _export_trace(profiler, job["trace_dir"], rank, clock)
    torch.save(runner.choices, os.path.join(job["work"], "rank%d.choices.pt" % rank))
    if rank == 0:
        torch.save(record, os.path.join(job["work"], "result.pt"))


def _profiler(trace_dir):
    import contextlib

    import torch

    if not trace_dir:
        return contextlib.nullcontext()
    return torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU])


def _reduce(params, loss, lr):
    """All-reduce (sum) the gradients and the loss, then one SGD step."""
    import torch
    import torch.distributed as dist

    grads = {}
    for name, param in params:
        grad = param.grad if param.grad is not None else torch.zeros_like(param)
        dist.all_reduce(grad)
        grads[name] = grad.detach().clone()
    total = torch.tensor([loss], dtype=torch.float64)
    dist.all_reduce(total)
    with torch.no_grad():
        for name, param in params:
            param -= lr * grads[name]
    return {"loss": float(total[0]), "grads": grads}


def _export_trace(profiler, trace_dir, rank, clock):
    """The profiler's Chrome trace, with every event's process set to the
    rank and its times moved onto this machine's monotonic clock (so that
    the ranks' files share one time axis, as kineto's absolute times do)."""
    import json

    raw = os.path.join(trace_dir, ".rank%d.raw.json" % rank)
    profiler.export_chrome_trace(raw)
    with open(raw) as handle:
        events = json.load(handle)
    os.remove(raw)
    if isinstance(events, dict):
        events = events.get("traceEvents", [])
    mark = next((e["ts"] for e in events if e.get("name") == "tessel:clock"), 0)
    for event in events:
        event["pid"] = rank
        if "ts" in event:
            event["ts"] = event["ts"] - mark + clock
    document = {"traceEvents": events, "otherData": {"rank": rank, "clock": "monotonic, microseconds"}}
    _write(os.path.join(trace_dir, "rank%d.json" % rank), json.dumps(document))


def _watch(processes, job, deadline):
    """Waits for the ranks. Returns {rank: exit code}; a rank still running
    at the deadline (a hang the receive timeout did not catch) is ended
    and counted as timed out."""
    codes = {}
    while len(codes) < len(processes):
        for rank, process in enumerate(processes):
            if rank in codes:
                continue
            process.join(timeout=0.05)
            if process.exitcode is not None:
                codes[rank] = process.exitcode
        if time.monotonic() > deadline:
            for rank, process in enumerate(processes):
                if rank not in codes:
                    process.kill()
                    process.join()
                    codes[rank] = EXIT_TIMEOUT
            break
        if any(code == EXIT_TIMEOUT for code in codes.values()):
            # One rank timed out waiting: the others wait on it, or it on
            # them; give them their own timeout's chance to say where.
            deadline = min(deadline, time.monotonic() + 2.0)
    return codes


def _where(job, rank):
    """`rank r: step k, position p: PP:<action>` from the shared status."""
    from . import run_rank

    plan, status = job["plan"], job["status"]
    state, step, position = status[3 * rank], status[3 * rank + 1], status[3 * rank + 2]
    row = plan.actions[rank]
    if position >= len(row):
        what = "after its last action (its sends completing)" if state == run_rank.WAITING else "done"
    else:
        action = row[position]
        if state != run_rank.WAITING:
            what = "runs PP:%s (action %d of %d)" % (action.name, position + 1, len(row))
        else:
            what = "waits before PP:%s (action %d of %d)" % (action.name, position + 1, len(row))
            if action.kind in ("F", "B", "I"):
                peer = action.stage - 1 if action.kind == "F" else action.stage + 1
                if 0 <= peer < len(plan.stages) and plan.stages[peer].rank != rank:
                    what += " for the data of stage %d on rank %d" % (peer, plan.stages[peer].rank)
    return "rank %d, step %d: %s" % (rank, step + 1, what)


def _launch(job):
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=_rank_main, args=(rank, job), daemon=True)
                 for rank in range(job["plan"].ranks)]
    for process in processes:
        process.start()
    return processes


def _failure(job, codes):
    """The RunError of a run whose ranks did not all finish."""
    messages = []
    for rank in sorted(codes):
        path = os.path.join(job["work"], "rank%d.message" % rank)
        if os.path.exists(path):
            with open(path) as handle:
                messages.append(handle.read().strip())
    # A rank that timed out makes its peers fail too (their connection to it
    # closes): any time-out makes the run a time-out, with every message.
    if not any(code == EXIT_TIMEOUT for code in codes.values()):
        return RunError(EXIT_BUG, "\n".join(messages) or "a rank failed: exit codes %s" % codes)
    lines = ["deadlock or time-out after %.0f s; where each rank was:" % job["timeout"]]
    lines += ["  " + _where(job, rank) for rank in sorted(codes)]
    lines += ["  " + message for message in messages]
    return RunError(EXIT_TIMEOUT, "\n".join(lines))


def _require_writable(directory):
    """--trace-dir exists (or is made) and takes a file: checked before the
    run, so that a wrong path is bad input, not four failing ranks."""
    probe = os.path.join(directory, ".tessel-run-probe")
    try:
        os.makedirs(directory, exist_ok=True)
        with open(probe, "w") as handle:
            handle.write("probe")
        os.remove(probe)
    except OSError as error:
        raise RunError(EXIT_INPUT, "--trace-dir %s: cannot write there: %s" % (directory, error.strerror or error))


def _reference(model, micros, loss_fn, steps, lr):
    """The same steps on the unpipelined model: per step (loss, grads)."""
    import torch

    params = list(model.named_parameters())
    record = []
    for _ in range(steps):
        for _, param in params:
            param.grad = None
        total = None
        for inputs in micros:
            loss = loss_fn(model(*inputs))
            total = loss if total is None else total + loss
        total.backward()
        grads = {name: (p.grad if p.grad is not None else torch.zeros_like(p)).detach().clone() for name, p in params}
        with torch.no_grad():
            for name, param in params:
                param -= lr * grads[name]
        record.append({"loss": float(total.detach()), "grads": grads})
    return record


def compare(run, reference, rtol):
    """Per step: largest absolute and relative differences (relative to the
    parameter's largest reference gradient) and the first parameter, in
    model order, whose relative difference is over rtol (the loss when every
    gradient agrees but the loss does not)."""
    steps = []
    for got, want in zip(run, reference):
        entry = {"loss": got["loss"], "reference_loss": want["loss"], "max_abs": 0.0, "max_rel": 0.0,
                 "worst": None, "first_bad": None}
        for name, expected in want["grads"].items():
            actual = got["grads"][name]
            absolute = float((actual - expected).abs().max()) if expected.numel() else 0.0
            scale = float(expected.abs().max()) if expected.numel() else 0.0
            relative = absolute / scale if scale > 0 else (0.0 if absolute == 0 else float("inf"))
            entry["max_abs"] = max(entry["max_abs"], absolute)
            if relative >= entry["max_rel"]:
                entry["max_rel"], entry["worst"] = relative, name
            if relative > rtol and entry["first_bad"] is None:
                entry["first_bad"] = (name, relative)
        loss_rel = abs(got["loss"] - want["loss"]) / max(abs(want["loss"]), 1e-30)
        if loss_rel > rtol and entry["first_bad"] is None:
            entry["first_bad"] = ("loss", loss_rel)
        steps.append(entry)
    return steps


def _default_rtol(model):
    import torch

    dtypes = {p.dtype for p in model.parameters()}
    return 1e-7 if dtypes <= {torch.float64} else 1e-4


def run(plan_dir, model, steps=2, trace_dir=None, timeout=30.0, lr=0.01, rtol=None, table="schedule_comms.csv"):
    """Runs the plan in `plan_dir` on `model` ("FILE.py:FACTORY") for
    `steps` training steps and compares it with the unpipelined model.
    Returns a RunResult (exit_code 0, 1, 2, 3 or 4 and a message); never
    raises for a wrong plan, model or a deadlock."""
    result = RunResult()
    work = tempfile.mkdtemp(prefix="tessel-run-")
    try:
        _run_into(result, plan_dir, model, steps, trace_dir, timeout, lr, rtol, table, work)
    except RunError as error:
        result.exit_code, result.message = error.code, str(error)
    except run_plan.PlanError as error:
        result.exit_code, result.message = EXIT_INPUT, str(error)
    except KeyboardInterrupt:
        result.exit_code, result.message = EXIT_TIMEOUT, "interrupted; the ranks were stopped"
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return result


def _prepare(plan_dir, model, steps, timeout, table):
    import torch

    if steps < 1:
        raise RunError(EXIT_INPUT, "--steps must be at least 1, not %d" % steps)
    if not timeout > 0:
        raise RunError(EXIT_INPUT, "--timeout must be > 0 seconds")
    plan = run_plan.read_plan(plan_dir, table)
    torch.set_num_threads(1)  # before any work: forked ranks then never inherit a thread pool
    torch.manual_seed(0)
    module, inputs, loss_fn = _load_model(model)
    module.eval()
    micros = micro_batches(inputs, plan.nmicros)
    _check_cut(module, micros[0], plan)
    return plan, module, micros, loss_fn


def _check_cut(module, inputs, plan):
    """The stages must cut (in the parent, so that a plan of another model
    is bad input, exit 2, not four failing ranks)."""
    from . import _fx, run_stages

    try:
        run_stages.cut_stages(module, inputs, plan.stages)
    except (ValueError, _fx.TesselFxError) as error:
        raise RunError(EXIT_INPUT, "%s/stages.json: %s" % (plan.directory, error)) from None


def _run_into(result, plan_dir, model, steps, trace_dir, timeout, lr, rtol, table, work):
    from . import run_rank

    plan, module, micros, loss_fn = _prepare(plan_dir, model, steps, timeout, table)
    loss_fn = loss_fn or run_rank.default_loss
    if trace_dir:
        _require_writable(trace_dir)
    job = {"plan": plan, "model": module, "micros": micros, "loss_fn": loss_fn, "steps": steps, "lr": lr,
           "timeout": timeout, "trace_dir": trace_dir, "work": work,
           "status": multiprocessing.get_context("fork").Array("i", 3 * plan.ranks, lock=False)}
    began = time.monotonic()
    processes = _launch(job)
    try:
        codes = _watch(processes, job, began + timeout * (steps + 1) + 30)
    except KeyboardInterrupt:
        for process in processes:
            process.kill()
            process.join()
        raise
    result.wall_seconds = time.monotonic() - began
    if any(code != EXIT_OK for code in codes.values()):
        raise _failure(job, codes)
    import torch

    pipelined = torch.load(os.path.join(work, "result.pt"))
    reference = _reference(module, micros, loss_fn, steps, lr)
    _count_choices(result, job)
    result.steps = compare(pipelined, reference, rtol if rtol is not None else _default_rtol(module))
    if trace_dir:
        result.trace_files = [os.path.join(trace_dir, "rank%d.json" % r) for r in range(plan.ranks)]
    bad = next(((k, s["first_bad"]) for k, s in enumerate(result.steps) if s["first_bad"]), None)
    if bad is not None:
        step, (name, relative) = bad
        result.exit_code = EXIT_DIFFERS
        result.message = ("step %d: %s differs from the unpipelined model (relative difference %.3g)"
                          % (step + 1, "the loss" if name == "loss" else "the gradient of '%s'" % name, relative))
    else:
        result.message = "the pipelined run agrees with the unpipelined model"


def _count_choices(result, job):
    """Sums the ranks' recompute and offload counts; each marked forward
    must have traded its memory once per step."""
    import torch

    for rank in range(job["plan"].ranks):
        counted = torch.load(os.path.join(job["work"], "rank%d.choices.pt" % rank))
        result.recomputed += counted["recompute"]
        result.offloaded += counted["offload"]
    plan, steps = job["plan"], job["steps"]
    if (result.recomputed, result.offloaded) != (len(plan.recompute) * steps, len(plan.offload) * steps):
        raise RunError(EXIT_BUG, "the ranks recomputed %d and offloaded %d forwards; the plan marks %d and %d "
                                 "per step, %d steps" % (result.recomputed, result.offloaded, len(plan.recompute),
                                                         len(plan.offload), steps))


def summary(result, plan_dir):
    """The lines `tessel run` prints."""
    lines = []
    for step, entry in enumerate(result.steps):
        lines.append("step %d: loss %.12g (unpipelined %.12g), largest gradient difference %.3g absolute, "
                     "%.3g relative (%s)" % (step + 1, entry["loss"], entry["reference_loss"], entry["max_abs"],
                                            entry["max_rel"], entry["worst"]))
    if result.recomputed or result.offloaded:
        lines.append("recomputed %d forward(s) before their backward, offloaded %d (on this CPU runtime the copy "
                     "to host memory is a no-op)" % (result.recomputed, result.offloaded))
    if result.steps or result.exit_code == EXIT_OK:
        lines.append("ran %s in %.2f s" % (plan_dir, result.wall_seconds))
    for path in result.trace_files:
        lines.append("trace: %s" % path)
    lines.append(result.message)
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="tessel run",
        description="Run a plan's schedule on CPU processes (one per rank, gloo, torch.distributed), then "
                    "compare the loss and every parameter gradient with the unpipelined model. Exit 0 "
                    "agree, 1 a gradient differs, 2 bad input, 3 deadlock or time-out, 4 internal error.")
    parser.add_argument("plan_dir", help="a `tessel plan -o` directory (stages.json, schedule_comms.csv)")
    parser.add_argument("model", help="FILE.py:FACTORY, where FACTORY() returns (module, example_inputs"
                                      "[, loss_fn]); the same factory the plan's graph was traced from")
    parser.add_argument("--steps", type=int, default=2, help="training steps (default 2), SGD between them")
    parser.add_argument("--trace-dir", help="write each rank's torch.profiler Chrome trace here (rankR.json)")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds a receive may wait before the run is called a deadlock (default 30)")
    parser.add_argument("--lr", type=float, default=0.01, help="SGD learning rate between steps (default 0.01)")
    parser.add_argument("--rtol", type=float,
                        help="largest relative gradient difference allowed (default 1e-7 float64, 1e-4 otherwise)")
    parser.add_argument("--table", default="schedule_comms.csv",
                        help="the action table in PLAN_DIR to run (default schedule_comms.csv)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return EXIT_INPUT if exit_.code else EXIT_OK
    try:
        result = run(args.plan_dir, args.model, steps=args.steps, trace_dir=args.trace_dir, timeout=args.timeout,
                     lr=args.lr, rtol=args.rtol, table=args.table)
    except Exception as error:  # a bug: say so, with the exit code of one
        print("tessel run: internal error: %s: %s" % (type(error).__name__, error), file=sys.stderr)
        return EXIT_BUG
    stream = sys.stdout if result.exit_code in (EXIT_OK, EXIT_DIFFERS) else sys.stderr
    for line in summary(result, args.plan_dir):
        print(("tessel run: error: " if stream is sys.stderr and line == result.message else "") + line,
              file=stream)
    return result.exit_code


if __name__ == "__main__":
    sys.exit(main())
