"""tessel.partition and tessel.plan: a PyTorch model to a schedule PyTorch
runs (docs/plan.md), judged by the verifier and by the table's own shape."""

import json
import os
from types import SimpleNamespace

import pytest
import torch
import torch.nn as nn

import tessel

SOURCE = os.environ.get("TESSEL_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BERT = os.path.join(SOURCE, "cases", "graphs", "bert-base.json")


class Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(*[nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 64))
                                      for _ in range(4)])

    def forward(self, x):
        return self.layers(x)


def test_partition_maps_stages_on_ranks():
    graph = tessel.Graph.load(BERT)
    v = tessel.partition(graph, devices=2, mapping="v", split_backward=True)
    assert v.ndevs == 2
    chain = tessel.partition(graph, 2)
    assert chain.ndevs == 2
    with pytest.raises(tessel.InputError) as error:
        tessel.partition(graph, 3, devices=2, mapping="v")
    assert error.value.field == "stages"


def test_plan_from_a_torch_model_to_a_pytorch_table(tmp_path):
    graph = tessel.from_torch(Small(), (torch.randn(8, 64),), name="small")
    planned = tessel.plan(graph, 2, "v", "1GiB", split_backward=True, nmicros=4, time_limit=30,
                          output=str(tmp_path / "plan"))
    assert planned.status == "found"
    assert tessel.verify(planned.schedule).valid
    assert planned.schedule.nmicros == 4
    rows = planned.csv.splitlines()
    assert len(rows) == 2
    cells = [cell for row in rows for cell in row.split(",") if cell]
    # Every stage does F, I and W for every micro-batch: 4 stages x 3 x 4.
    assert len(cells) == 4 * 3 * 4
    assert "SEND_F" in planned.comms_csv and "RECV_B" in planned.comms_csv
    for name in ("placement.json", "schedule.json", "schedule.csv", "schedule_comms.csv", "schedule.svg", "report.md"):
        assert (tmp_path / "plan" / name).exists()
    assert "makespan" in planned.report
    assert (tmp_path / "plan" / "stages.json").exists()


def test_plan_says_why_nothing_fits():
    graph = tessel.Graph.load(BERT)
    planned = tessel.plan(graph, 4, "chain", "10MiB", nmicros=4)
    assert planned.status == "infeasible"
    assert planned.schedule is None
    assert "optimizer state" in planned.message
    with pytest.raises(tessel.InputError) as error:
        tessel.plan(graph, 4, "vee", "8GiB")
    assert error.value.field == "mapping"


def test_param_bytes_sets_the_static_memory():
    graph = tessel.Graph.load(BERT)
    params = graph.total_param_bytes

    def cut(**options):
        placement = tessel.partition(graph, devices=2, mapping="v", **options)
        return SimpleNamespace(static_memory=json.loads(placement.to_json())["static_memory"])

    fp32 = cut()
    bf16 = cut(param_bytes=2, optimizer_bytes_per_param=12)
    # Per fp32 parameter byte: (4 + 4 + 8) / 4 = 4 against (2 + 2 + 12) / 4 = 4; the same total.
    assert abs(sum(fp32.static_memory) - sum(bf16.static_memory)) <= 2
    half = cut(param_bytes=2, optimizer_bytes_per_param=0)
    # (2 + 2) / 4 = 1 byte per graph byte, a quarter of fp32 with Adam.
    assert abs(4 * sum(half.static_memory) - sum(fp32.static_memory)) <= 8
    assert abs(sum(half.static_memory) - params) <= 2
    with pytest.raises(tessel.InputError) as error:
        cut(param_bytes=0)
    assert error.value.field == "param_bytes"


def models_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("models", os.path.join(SOURCE, "cases", "graphs", "models.py"))
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


@pytest.mark.parametrize("which", ["encoder_decoder", "tiny_gpt"])
def test_a_traced_model_plans_into_stages_a_script_can_build(tmp_path, which):
    """stages.json covers every operator once, its module paths exist in the
    model, and with a device speed and a link the schedule is in seconds,
    with the transfers as delays, and passes the verifier."""
    model, inputs = getattr(models_module(), which)(device="meta")
    graph = tessel.from_torch(model, inputs, name=which)
    lines = []
    planned = tessel.plan(graph, 2, "v", "1GiB", split_backward=True, nmicros=4, time_limit=60,
                          device_flops=1e12, link_bandwidth=1e9, link_latency=1e-6,
                          output=str(tmp_path / "plan"), progress=lines.append)
    assert planned.status == "found", planned.message
    assert tessel.verify(planned.schedule).valid
    assert planned.unit == "s" and planned.makespan_ms == pytest.approx(planned.makespan * 1000)
    assert planned.ratio_to_1f1b <= 1.0
    stages = planned.stages
    assert stages == json.loads((tmp_path / "plan" / "stages.json").read_text())
    assert stages["format"] == "tessel.stages/1" and stages["mapping"] == planned.mapping
    exported = json.loads(graph.to_json())
    ids = [node["id"] for node in exported["nodes"]]
    held = [op for stage in stages["stages"] for op in stage["operators"]]
    assert sorted(held) == sorted(ids)
    owners = dict(model.named_modules())
    listed = [path for stage in stages["stages"] for path in stage["modules"]]
    assert listed and all(path in owners for path in listed)
    assert len(listed) == len(set(listed))
    placement = json.loads((tmp_path / "plan" / "placement.json").read_text())
    delayed = [edge for edge in placement["edges"] if len(edge) == 3]
    assert delayed, "cross-rank activations and gradients are delays"
    for block in placement["blocks"]:
        assert stages["stages"][block["stage"]]["rank"] == block["devices"][0]
    assert any("search" in line for line in lines) and any("verify" in line for line in lines)
    summary = planned.summary
    assert summary["unit"] == "ms" and summary["makespan"] == pytest.approx(planned.makespan_ms)


def test_auto_is_no_slower_than_any_single_mapping():
    model, inputs = models_module().tiny_gpt(n_layer=6, device="meta")
    graph = tessel.from_torch(model, inputs, name="gpt")
    auto = tessel.plan(graph, 2, "auto", "8GiB", nmicros=4, time_limit=60)
    assert auto.status == "found", auto.message
    assert len(auto.summary["compared"]) >= 6
    for row in auto.summary["compared"]:
        if row["makespan"] is not None:
            assert auto.makespan <= row["makespan"] + 1e-9
    for mapping, split in [("chain", False), ("v", True), ("interleaved", True)]:
        single = tessel.plan(graph, 2, mapping, "8GiB", split_backward=split, nmicros=4, time_limit=60)
        assert auto.makespan <= single.makespan + 1e-9, (mapping, split)
    assert auto.choice.startswith("auto:")


def test_plan_recompute_all_says_which_micro_batches_and_verifies(tmp_path):
    graph = tessel.Graph.load(os.path.join(SOURCE, "cases", "graphs", "gpt2-small.json"))
    planned = tessel.plan(graph, 4, memory="2GiB", nmicros=4, device_flops=312e12, recompute="all",
                          time_limit=20, output=str(tmp_path / "plan"))
    assert planned.status in ("found", "timeout")
    assert tessel.verify(planned.schedule).valid
    stages = planned.memory_choices["stages"]
    assert [stage["recompute"] for stage in stages] == [[0, 1, 2, 3]] * 4  # all: every micro-batch of every stage
    assert [stage["recompute"] for stage in planned.stages["stages"]] == [[0, 1, 2, 3]] * 4
    written = json.loads((tmp_path / "plan" / "memory_choices.json").read_text())
    assert written == planned.memory_choices
    assert "R" not in planned.csv  # PyTorch's table holds the compute order only
    kept = tessel.plan(graph, 4, memory="2GiB", nmicros=4, device_flops=312e12, time_limit=20)
    assert all(stage["recompute"] == [] for stage in kept.memory_choices["stages"])
    with pytest.raises(tessel.InputError) as error:
        tessel.plan(graph, 4, memory="2GiB", recompute="al")
    assert error.value.field == "recompute"
