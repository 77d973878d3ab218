"""tessel run with a plan that trades memory for time (docs/runtime.md,
memory_choices.json): a plan made with `--recompute all` runs every marked
forward without autograd and again before its backward, and its gradients
still equal the unpipelined model's; forwards marked offload send their
saved activations through the host-memory hooks (a no-op copy on CPU);
a memory_choices.json naming a micro-batch the plan lacks is bad input.
The recomputing run's traces pass `tessel verify --trace` (each planned
recompute matched with its range inside the backward), and a trace with a
recompute moved out of its backward or removed is rejected with the reason."""

import json
import os
import subprocess
import sys

import tessel
from tessel import _fx, runtime

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import runtime_models  # noqa: E402

MODELS = os.path.join(HERE, "runtime_models.py")
BINARY = os.environ.get("TESSEL_BINARY", "tessel")


def make_plan(tmp_path, name, *options):
    module, inputs = runtime_models.make_gpt()[:2]
    graph_path = str(tmp_path / "gpt.json")
    if not os.path.exists(graph_path):
        _fx.export_graph(module, inputs, graph_path, name="gpt")
    directory = str(tmp_path / name)
    subprocess.run([BINARY, "plan", graph_path, "--devices", "2", "--mapping", "chain", "--memory", "1GiB",
                    "--nmicros", "4", *options, "-o", directory], check=True, capture_output=True)
    checked = subprocess.run([BINARY, "verify", os.path.join(directory, "schedule.json")], capture_output=True,
                             text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    return directory


def assert_agrees(result):
    assert result.exit_code == 0, result.message
    assert len(result.steps) == 2
    for step in result.steps:
        assert step["max_rel"] < 1e-10  # float64: rounding only
        assert abs(step["loss"] - step["reference_loss"]) <= 1e-12 * abs(step["reference_loss"])


def test_a_plan_that_recomputes_everything_recomputes_and_agrees(tmp_path):
    plan = make_plan(tmp_path, "all", "--recompute", "all")
    choices = json.load(open(os.path.join(plan, "memory_choices.json")))
    marked = sum(len(stage["recompute"]) for stage in choices["stages"])
    assert marked == 2 * 4  # every micro-batch of both stages
    traces = str(tmp_path / "traces")
    result = tessel.run(plan, MODELS + ":make_gpt", steps=2, trace_dir=traces, timeout=20)
    assert_agrees(result)
    assert result.recomputed == 2 * marked and result.offloaded == 0
    # Each recompute is a range in the rank's trace, inside the backward that needed it.
    for rank in range(2):
        events = json.load(open(os.path.join(traces, "rank%d.json" % rank)))["traceEvents"]
        names = [e.get("name", "") for e in events]
        assert sum(n.startswith("tessel:recompute %dF" % rank) for n in names) == 2 * 4
    assert any(line.startswith("recomputed 16 forward(s)") for line in runtime.summary(result, plan))
    # The trace check matches each planned recompute with its nested range.
    schedule = os.path.join(plan, "schedule.json")
    checked = subprocess.run([BINARY, "verify", "--trace", traces, "--schedule", schedule], capture_output=True,
                             text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "conforms: 2 rank(s), 2 step(s)" in checked.stdout and "recomputing" in checked.stdout
    assert_corrupted_recompute_is_rejected(tmp_path, traces, schedule)


def assert_corrupted_recompute_is_rejected(tmp_path, traces, schedule):
    """A recompute range moved out of its backward, and one removed, are named."""
    events_of = lambda: json.load(open(os.path.join(traces, "rank1.json")))
    for corruption in ("moved", "removed"):
        document = events_of()
        events = document["traceEvents"]
        index = next(i for i, e in enumerate(events) if e.get("name") == "tessel:recompute 1F2")
        backward = next(e for e in events if e.get("name") == "PP:1B2")
        if corruption == "moved":
            events[index]["ts"] = backward["ts"] + backward["dur"] - 0.5  # still after PP:1B2 starts
        else:
            del events[index]
        corrupted = tmp_path / ("traces_" + corruption)
        corrupted.mkdir()
        json.dump(document, open(str(corrupted / "rank1.json"), "w"))
        json.dump(json.load(open(os.path.join(traces, "rank0.json"))), open(str(corrupted / "rank0.json"), "w"))
        checked = subprocess.run([BINARY, "verify", "--trace", str(corrupted), "--schedule", schedule],
                                 capture_output=True, text=True)
        assert checked.returncode == 1, checked.stdout + checked.stderr
        assert "does not conform" in checked.stdout
        if corruption == "moved":
            assert "tessel:recompute 1F2 ran outside PP:1B2" in checked.stdout, checked.stdout
        else:
            assert "planned tessel:recompute 1F2, ran PP:" in checked.stdout, checked.stdout


def test_a_plan_that_keeps_everything_recomputes_nothing(tmp_path):
    plan = make_plan(tmp_path, "none", "--recompute", "none")
    result = tessel.run(plan, MODELS + ":make_gpt", steps=2, timeout=20)
    assert_agrees(result)
    assert result.recomputed == 0 and result.offloaded == 0


def test_offloaded_forwards_go_through_the_host_copy_and_agree(tmp_path):
    plan = make_plan(tmp_path, "offload", "--recompute", "none")
    path = os.path.join(plan, "memory_choices.json")
    choices = json.load(open(path))
    choices["stages"][0]["offload"] = [1, 3]
    choices["stages"][1]["recompute"] = [0]
    json.dump(choices, open(path, "w"))
    result = tessel.run(plan, MODELS + ":make_gpt", steps=2, timeout=20)
    assert_agrees(result)
    assert result.offloaded == 2 * 2 and result.recomputed == 2 * 1


def test_a_wrong_memory_choices_file_is_bad_input(tmp_path):
    plan = make_plan(tmp_path, "wrong", "--recompute", "none")
    path = os.path.join(plan, "memory_choices.json")
    choices = json.load(open(path))
    choices["stages"][1]["recompute"] = [7]
    json.dump(choices, open(path, "w"))
    done = subprocess.run([BINARY, "run", plan, MODELS + ":make_gpt"], capture_output=True, text=True)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "memory_choices.json: stages[1]: field 'recompute' lists 7" in done.stderr
    choices["stages"][1]["recompute"] = [2]
    choices["stages"][1]["offload"] = [2]
    json.dump(choices, open(path, "w"))
    done = subprocess.run([BINARY, "run", plan, MODELS + ":make_gpt"], capture_output=True, text=True)
    assert done.returncode == 2 and "both recomputed and offloaded" in done.stderr
