"""The papers/ gate (cases/paper/check_tables.py) tells a schedule that is
missing because its experiment was not rerun here (counted, not a failure)
from one that fails the verifier or that a run here should have left
(failures); run_all.sh --only picks experiments by letter."""
import csv
import json
import os
import shutil
import subprocess

SOURCE = os.environ["TESSEL_SOURCE_DIR"]
PAPER = os.path.join(SOURCE, "cases", "paper")


def gate(out):
    return subprocess.run(["python3", os.path.join(PAPER, "check_tables.py"), "--out", str(out)],
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, TESSEL=os.environ["TESSEL_BINARY"]))


def small_table(out):
    """(e) as committed, without its schedules; the names of its schedule files."""
    for suffix in (".csv", ".md", ".summary.json"):
        shutil.copy(os.path.join(SOURCE, "papers", "e_lazy" + suffix), out / ("e_lazy" + suffix))
    rows = list(csv.DictReader(open(out / "e_lazy.csv")))
    return [row["schedule"] for row in rows if row["schedule"] != "-"]


def searched_schedule(path):
    subprocess.run([os.environ["TESSEL_BINARY"], "search", "--case", "vshape", "--ndevs", "2", "--memory", "2",
                    "--quiet", "-o", str(path)], check=True, capture_output=True, timeout=60)


def test_schedules_not_rerun_here_are_counted_not_failed(tmp_path):
    files = small_table(tmp_path)
    done = gate(tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"{len(files)} missing (not rerun here)" in done.stderr
    assert "fails the verifier" not in done.stderr


def test_a_missing_file_of_an_experiment_run_here_fails(tmp_path):
    files = small_table(tmp_path)
    os.makedirs(tmp_path / os.path.dirname(files[0]))
    for name in files[1:]:
        searched_schedule(tmp_path / name)  # valid, if not the row's own: the gate judges validity only
    done = gate(tmp_path)
    assert done.returncode == 1
    assert "is missing, though its experiment ran in this directory" in done.stderr
    assert "1 problems" in done.stderr


def test_a_schedule_the_verifier_rejects_fails(tmp_path):
    files = small_table(tmp_path)
    os.makedirs(tmp_path / os.path.dirname(files[0]))
    for name in files:
        searched_schedule(tmp_path / name)
    broken = json.load(open(tmp_path / files[0]))
    broken["instances"] = broken["instances"][1:]
    json.dump(broken, open(tmp_path / files[0], "w"))
    done = gate(tmp_path)
    assert done.returncode == 1
    assert "fails the verifier" in done.stderr and "1 problems" in done.stderr


def test_run_all_only_refuses_unknown_letters():
    for bad in ("x", "", "a;b"):
        done = subprocess.run(["bash", os.path.join(PAPER, "run_all.sh"), "--only", bad],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and "--only takes experiment letters" in done.stderr
