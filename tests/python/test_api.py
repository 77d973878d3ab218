"""The Python module against its contract (docs/python.md): every schedule a
test produces goes through the verifier; bad input raises tessel.InputError
with the file, field and reason."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import tessel


def test_builtin_search_is_proven_and_verified():
    placement = tessel.Placement.builtin("mshape", 4)
    result = tessel.search(placement, memory=6)
    assert result.status == "found"
    assert result.period == 6 and result.proven_lower_bound == 6 and result.optimal
    assert result.makespan == 780 and result.makespan_bound == 780
    assert tessel.verify(result.schedule).valid
    unrolled = result.schedule.unroll(32)
    assert unrolled.nmicros == 32 and tessel.verify(unrolled).valid


def test_a_placement_built_block_by_block(tmp_path):
    placement = tessel.Placement(2, name="two")
    placement.add_block("f0", "forward", 1.5, 1, [0], stage=0)
    placement.add_block("f1", "forward", 1.5, 1, [1], stage=1)
    placement.add_block("b1", "backward", 3, -1, [1], stage=1)
    placement.add_block("b0", "backward", 3, -1, [0], stage=0)
    for a, b in (("f0", "f1"), ("f1", "b1"), ("b1", "b0")):
        placement.add_edge(a, b)
    path = str(tmp_path / "p.json")
    placement.save(path)
    again = tessel.Placement.load(path)
    assert [block["span"] for block in again.blocks] == [1.5, 1.5, 3, 3]
    assert again.lower_bound == 4.5


def test_bad_input_names_the_field_and_the_nearest_name():
    placement = tessel.Placement(2)
    with pytest.raises(tessel.InputError) as error:
        placement.add_block("f0", "forwrd", 1, 1, [0])
    assert error.value.field.endswith(".kind") and "did you mean 'forward'" in str(error.value)
    with pytest.raises(tessel.InputError) as error:
        tessel.search(tessel.Placement.builtin("vshape", 2), memory="-1")
    assert "negative" in error.value.reason
    with pytest.raises(tessel.InputError):
        tessel.Placement.builtin("mshap", 4)


def test_a_missing_file_names_the_file(tmp_path):
    missing = str(tmp_path / "nothing.json")
    with pytest.raises(tessel.InputError) as error:
        tessel.Schedule.load(missing)
    assert error.value.file == missing


def test_generated_schedules_verify_and_export(tmp_path):
    schedule = tessel.generate("zb-v", 4, 8)
    report = tessel.verify(schedule)
    assert report.valid and report.makespan == schedule.makespan
    schedule.to_svg(str(tmp_path / "s.svg"))
    schedule.to_chrome_trace(str(tmp_path / "s.trace.json"))
    assert json.loads((tmp_path / "s.trace.json").read_text())["traceEvents"]
    halves = tessel.generate("1f1b", 4, 8, span={"F": 1.5, "B": 3})
    assert tessel.verify(halves).makespan == halves.makespan == 49.5
    one = tessel.generate("1f1b", 4, 8, span={"F": 2, "B": 4})
    csv = str(tmp_path / "one.csv")
    one.to_pytorch_csv(csv)
    back = tessel.import_schedule("pytorch-csv", csv, span={"F": 2, "B": 4})
    assert back.makespan == one.makespan and tessel.verify(back).valid


def test_timeline_and_svg_draw_a_window(tmp_path):
    schedule = tessel.generate("1f1b", 4, 8)
    assert tessel.verify(schedule).valid
    whole = schedule.timeline(max_steps=0)
    head = schedule.timeline(max_steps=0, start=0, end=6)
    assert head != whole and len(head.splitlines()[0]) < len(whole.splitlines()[0])
    tail = schedule.timeline(max_steps=0, start=schedule.makespan - 3)
    assert tail != head
    schedule.to_svg(str(tmp_path / "w.svg"), width=2400, start=2, end=10)
    assert "<svg" in (tmp_path / "w.svg").read_text()
    for bad in [dict(start=5, end=5), dict(start=-1), dict(start=schedule.makespan), dict(end=0.5)]:
        with pytest.raises(tessel.InputError) as error:
            schedule.timeline(**bad)
        assert error.value.field in ("start", "end")
    with pytest.raises(tessel.InputError) as error:
        schedule.timeline(max_steps=-1)
    assert error.value.field == "max_steps"
    with pytest.raises(tessel.InputError) as error:
        schedule.to_svg(str(tmp_path / "x.svg"), width=10)
    assert error.value.field == "width"


def test_pytorch_csv_with_comms_and_the_sidecar(tmp_path):
    schedule = tessel.generate("1f1b", 2, 4)
    csv = tmp_path / "comms.csv"
    schedule.to_pytorch_csv(str(csv), comms=True)
    table = csv.read_text()
    assert "SEND_F" in table and "RECV_B" in table
    assert (tmp_path / "comms.csv.tessel.json").exists()
    unstaged = tessel.search(tessel.Placement.builtin("mshape", 4), memory=6).schedule
    with pytest.raises(tessel.InputError) as error:
        unstaged.to_pytorch_csv(str(tmp_path / "unstaged.csv"), comms=True)
    assert error.value.field == "placement" and "stage" in str(error.value)
    back = tessel.import_schedule("pytorch-csv", str(csv))
    assert back.makespan == schedule.makespan and tessel.verify(back).valid


def test_a_corrupted_schedule_is_rejected_for_the_right_reason(tmp_path):
    schedule = tessel.generate("1f1b", 2, 4)
    document = json.loads(schedule.to_json())
    document["instances"][1]["start"] = document["instances"][0]["start"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    report = tessel.verify(tessel.Schedule.load(str(path)))
    assert not report.valid
    assert {v["kind"] for v in report.violations} & {"overlap", "dependency"}


def test_verify_with_a_tighter_memory_limit():
    schedule = tessel.generate("1f1b", 4, 8)
    assert tessel.verify(schedule).valid
    report = tessel.verify(schedule, memory=1)
    assert not report.valid and report.violation_counts["memory"] > 0


def test_the_search_reports_every_candidate_and_the_improvements():
    seen = []
    result = tessel.search(tessel.Placement.builtin("mshape", 4), memory=4,
                           on_improved=lambda schedule, shape, makespan: seen.append((shape, makespan)))
    assert result.makespan == 780 and result.shape == "staged"
    assert {c["name"] for c in result.candidates} >= {"repetend", "staged"}
    assert seen and seen[-1] == ("staged", 780)
    assert result.repetend is not None and result.repetend.repetend is not None


def test_on_improved_is_called_once_per_real_improvement():
    seen = []
    result = tessel.search(tessel.Placement.builtin("nnshape", 4), memory=6, total_micros=32,
                           on_improved=lambda schedule, shape, makespan: seen.append(makespan))
    assert seen, "the search offered nothing"
    assert all(later < earlier for earlier, later in zip(seen, seen[1:])), seen
    assert seen[-1] == result.makespan and result.rejected == []


def test_the_two_stage_placement_with_delays_searches(tmp_path):
    # docs/python.md's own placement: the family replays once ignored the
    # delays and the search raised (r2).
    p = tessel.Placement(2, name="two-stage")
    p.add_block("f0", "forward", span=1.5, memory=1, devices=[0], stage=0)
    p.add_block("f1", "forward", span=1.5, memory=1, devices=[1], stage=1)
    p.add_block("b1", "backward", span=3, memory=-1, devices=[1], stage=1)
    p.add_block("b0", "backward", span=3, memory=-1, devices=[0], stage=0)
    p.add_edge("f0", "f1", delay=0.25)
    p.add_edge("f1", "b1")
    p.add_edge("b1", "b0", delay=0.25)
    result = tessel.search(p, memory=2, total_micros=8)
    assert result.status == "found" and result.rejected == []
    assert tessel.verify(result.schedule).valid


def test_the_binding_answers_like_the_command_line():
    binary = os.environ["TESSEL_BINARY"]
    out = subprocess.run([binary, "search", "--case", "nnshape", "--ndevs", "4", "--memory", "6", "--json",
                          "--quiet"], capture_output=True, text=True, check=True)
    cli = json.loads(out.stdout)
    result = tessel.search(tessel.Placement.builtin("nnshape", 4), memory=6)
    assert (result.period, result.proven_lower_bound, result.makespan) == (
        cli["period"], cli["proven_lower_bound"], cli["makespan_at_total"])
    # The gap is data in both, said in the same words (tools/gap_text.cpp).
    assert result.gap["cause"] == cli["makespan_gap"]["cause"]
    assert result.gap["boundary"] == cli["makespan_gap"]["boundary"]
    assert result.gap_reason == cli["makespan_gap_reason"]
    assert (result.gap["cause"] == "none") == (result.gap_reason == "")


def test_ctrl_c_interrupts_the_search():
    script = ("import tessel, sys\n"
              "try:\n"
              # period 12 takes the unit-step encoding tens of seconds to refute
              "    tessel.search(tessel.Placement.builtin('xshape', 32), memory=16, tune={'period_method': 1})\n"
              "except KeyboardInterrupt:\n"
              "    print('interrupted'); sys.exit(0)\n"
              "sys.exit(1)\n")
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                             env=dict(os.environ))
    time.sleep(2.0)
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=30)
    assert child.returncode == 0 and "interrupted" in out


def test_the_type_stubs_name_exactly_what_the_module_has():
    import ast
    import pathlib

    stub = pathlib.Path(tessel._tessel.__file__).with_name("_tessel.pyi")
    tree = ast.parse(stub.read_text())
    stubbed = {node.name for node in tree.body if isinstance(node, (ast.ClassDef, ast.FunctionDef))}
    exported = {name for name in dir(tessel._tessel) if not name.startswith("_")}
    assert stubbed == exported
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or node.name.endswith("Error"):
            continue
        cls = getattr(tessel._tessel, node.name)
        for member in node.body:
            name = getattr(member, "name", None) or getattr(getattr(member, "target", None), "id", None)
            if name and not name.startswith("__"):
                assert hasattr(cls, name), f"{node.name}.{name} is in the stub but not in the module"
