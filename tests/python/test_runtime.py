"""tessel run and tessel.run (docs/runtime.md): plans of a tiny GPT and a
tiny encoder-decoder (tests/python/runtime_models.py, float64) run on 2 and
4 CPU ranks for 2 steps; every run must agree with the unpipelined model,
its traces must pass `tessel verify --trace`, and a deadlocked table, a
model whose runs differ and a plan of another model must be told apart
(exit 3, 1, 2)."""

import json
import os
import re
import subprocess
import sys
import time

import pytest

import tessel
from tessel import _fx, runtime

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import runtime_models  # noqa: E402

MODELS = os.path.join(HERE, "runtime_models.py")
BINARY = os.environ.get("TESSEL_BINARY", "tessel")


def make_plan(tmp_path, model, devices, mapping, split, nmicros=4):
    module, inputs = getattr(runtime_models, "make_" + model)()[:2]
    graph_path = str(tmp_path / (model + ".json"))
    _fx.export_graph(module, inputs, graph_path, name=model)
    directory = str(tmp_path / ("%s_%s_%d%s" % (model, mapping, devices, "_split" if split else "")))
    options = ["--devices", str(devices), "--mapping", mapping, "--memory", "1GiB", "--nmicros", str(nmicros)]
    subprocess.run([BINARY, "plan", graph_path, *options, *(["--split-backward"] if split else []), "-o", directory],
                   check=True, capture_output=True)
    return directory


@pytest.mark.parametrize("model,devices,mapping,split", [
    ("gpt", 4, "v", True),
    ("gpt", 2, "interleaved", False),
    ("encdec", 4, "chain", True),
    ("encdec", 2, "v", False),
])
def test_runs_agree_with_the_unpipelined_model_and_traces_conform(tmp_path, model, devices, mapping, split):
    plan = make_plan(tmp_path, model, devices, mapping, split)
    traces = str(tmp_path / "traces")
    began = time.monotonic()
    result = tessel.run(plan, "%s:make_%s" % (MODELS, model), steps=2, trace_dir=traces, timeout=20)
    wall = time.monotonic() - began
    assert result.exit_code == 0, result.message
    assert len(result.steps) == 2
    for step in result.steps:
        assert step["max_rel"] < 1e-10  # float64: rounding only
        assert abs(step["loss"] - step["reference_loss"]) <= 1e-12 * abs(step["reference_loss"])
    assert result.steps[0]["loss"] != result.steps[1]["loss"]  # the SGD step between them moved the weights
    assert wall < 60
    checked = subprocess.run([BINARY, "verify", "--trace", traces, "--schedule", os.path.join(plan, "schedule.json"),
                              "--json"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    report = json.loads(checked.stdout)
    assert report["conforms"] and report["steps"] == 2 and report["ranks"] == devices
    rank0 = os.path.join(traces, "rank0.json")
    document = json.load(open(rank0))
    actions = [e for e in document["traceEvents"] if e.get("name", "").startswith("PP:")]
    names = [e["name"] for e in actions]
    assert "PP:0F0" in names and any(n.startswith("PP:0SEND_F") for n in names)
    # The same trace with rank 0's first two compute actions swapped is rejected, naming them.
    first, second = [e for e in actions if e["name"][3:] in ("0F0", "0F1")][:2]
    first["name"], second["name"] = second["name"], first["name"]
    json.dump(document, open(rank0, "w"))
    swapped = subprocess.run([BINARY, "verify", "--trace", traces, "--schedule", os.path.join(plan, "schedule.json")],
                             capture_output=True, text=True)
    assert swapped.returncode == 1
    assert re.search(r"rank 0, step 1, action \d+: planned PP:0F0, ran PP:0F1", swapped.stdout), swapped.stdout


def test_a_deadlocked_table_names_the_waiting_ranks(tmp_path):
    plan = make_plan(tmp_path, "gpt", 2, "chain", False)
    table = os.path.join(plan, "schedule_comms.csv")
    rows = open(table).read().splitlines()
    cells = rows[0].split(",")
    # Rank 0 now runs the backward of micro-batch 0 before sending its forward.
    for moved in ("0RECV_B0", "0B0"):
        cells.remove(moved)
        cells.insert(cells.index("0SEND_F0"), moved)
    rows[0] = ",".join(cells)
    open(table, "w").write("\n".join(rows) + "\n")
    began = time.monotonic()
    done = subprocess.run([BINARY, "run", plan, MODELS + ":make_gpt", "--timeout", "2"], capture_output=True,
                          text=True)
    assert done.returncode == 3, done.stderr
    assert re.search(r"rank 0, step 1: waits before PP:0B0 \(action \d+ of 16\) for the data of stage 1 on rank 1",
                     done.stderr), done.stderr
    assert re.search(r"rank 1, step 1: waits before PP:1F0 \(action \d+ of 16\) for the data of stage 0 on rank 0",
                     done.stderr), done.stderr
    assert time.monotonic() - began < 30


def test_a_run_that_differs_names_the_parameter(tmp_path):
    plan = make_plan(tmp_path, "noisy_gpt", 2, "chain", False)
    result = runtime.run(plan, MODELS + ":make_noisy_gpt", steps=1, timeout=20)
    assert result.exit_code == 1, result.message
    assert "the gradient of 'gpt." in result.message and "differs from the unpipelined model" in result.message
    assert result.steps[0]["first_bad"] is not None


def test_a_plan_of_another_model_is_bad_input(tmp_path):
    plan = make_plan(tmp_path, "gpt", 2, "chain", False)
    done = subprocess.run([BINARY, "run", plan, MODELS + ":make_encdec"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "stages.json" in done.stderr and "in no stage" in done.stderr
    missing = subprocess.run([BINARY, "run", str(tmp_path / "nowhere"), MODELS + ":make_gpt"], capture_output=True,
                             text=True)
    assert missing.returncode == 2 and "not a directory" in missing.stderr
    # The compute-only table moves nothing between ranks: refused as input,
    # not run into a crash (exit 4).
    compute_only = subprocess.run([BINARY, "run", plan, MODELS + ":make_gpt", "--table", "schedule.csv"],
                                  capture_output=True, text=True)
    assert compute_only.returncode == 2 and "no SEND or RECV action" in compute_only.stderr
    # An interpreter that finds no package (a binary away from its build
    # directory, on a machine where setup.sh did not put it on the path; here
    # an interpreter without site-packages): a setup problem (exit 2), not
    # Python's exit 1, which `tessel run` spends on "a gradient differs".
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "tessel").write_bytes(open(BINARY, "rb").read())
    (alone / "tessel").chmod(0o755)
    bare = tmp_path / "bare_python"
    bare.write_text("#!/bin/sh\nexec /usr/bin/python3 -S \"$@\"\n")
    bare.chmod(0o755)
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env["TESSEL_PYTHON"] = str(bare)
    lost = subprocess.run([str(alone / "tessel"), "run", plan, MODELS + ":make_gpt"], capture_output=True, text=True,
                          env=env)
    assert lost.returncode == 2 and "needs torch and the tessel package" in lost.stderr


def test_a_custom_loss_is_used_on_both_sides(tmp_path):
    plan = make_plan(tmp_path, "gpt", 2, "chain", True)
    result = runtime.run(plan, MODELS + ":make_gpt_custom_loss", steps=1, timeout=20)
    default = runtime.run(plan, MODELS + ":make_gpt", steps=1, timeout=20)
    assert result.exit_code == 0 and default.exit_code == 0
    assert result.steps[0]["loss"] > 0  # a mean of squares, where the default loss is negative here
    assert result.steps[0]["loss"] != default.steps[0]["loss"]
