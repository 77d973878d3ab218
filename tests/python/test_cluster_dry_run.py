"""The Slurm array of the paper experiments (cases/cluster/slurm_array.sh),
checked without a cluster: its --dry-run prints one array job with one task
per experiment row, a tables job that waits for the whole array, and each
task's command, which must name a row its experiment really lists. One task
is then run as Slurm would run it (SLURM_ARRAY_TASK_ID set) and its result
must be a verified comparison."""

import json
import os
import shlex
import subprocess

import pytest

SOURCE = os.environ.get("TESSEL_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
SCRIPT = os.path.join(SOURCE, "cases", "cluster", "slurm_array.sh")


def environment():
    env = dict(os.environ)
    if "TESSEL_BINARY" in env:
        env["TESSEL"] = env["TESSEL_BINARY"]
    return env


def dry_run(out, *extra):
    done = subprocess.run(["bash", SCRIPT, "--quick", "--dry-run", "--out", str(out), *extra],
                          capture_output=True, text=True, env=environment(), timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def listed_rows(script, out):
    done = subprocess.run(["python3", script, "--quick", "--out", str(out), "--list"],
                          capture_output=True, text=True, env=environment(), timeout=60)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


@pytest.fixture(scope="module")
def planned(tmp_path_factory):
    """One dry run shared by the tests: (its output directory, its printed lines)."""
    out = tmp_path_factory.mktemp("slurm")
    return out, dry_run(out, "--max-parallel", "3", "--", "--partition=debug")


def test_dry_run_prints_one_task_per_row_and_a_dependent_tables_job(planned):
    tmp_path, lines = planned
    tasks = [line for line in lines if line.startswith("task ")]
    array = shlex.split(lines[1])
    collect = shlex.split(lines[2])
    assert array[0] == "sbatch" and collect[0] == "sbatch"
    assert f"--array=0-{len(tasks) - 1}%3" in array
    assert "--partition=debug" in array and "--partition=debug" in collect
    assert "--dependency=afterany:ARRAY_JOB_ID" in collect
    assert any(a.startswith("--wrap=") and "--task" in a for a in array)
    assert any(a.startswith("--wrap=") and "--collect" in a for a in collect)
    # Every experiment contributes rows, and every task names a row its script lists.
    scripts = {}
    for i, line in enumerate(tasks):
        label, command = line.split(": ", 1)
        assert label == f"task {i}"
        words = shlex.split(command)
        assert words[0] == "python3" and os.path.exists(words[1])
        assert words[words.index("--out") + 1] == str(tmp_path) and "--quick" in words
        scripts.setdefault(words[1], []).append(words[words.index("--row") + 1])
    assert len(scripts) == 7
    for script, rows in scripts.items():
        assert set(rows) == listed_rows(script, tmp_path)


def test_a_task_runs_its_row_as_slurm_would(planned):
    tmp_path, lines = planned
    index = next(i for i, line in enumerate(line for line in lines if line.startswith("task "))
                 if "g_handmade/1f1b-s4-n16" in line)
    env = environment()
    env["SLURM_ARRAY_TASK_ID"] = str(index)
    done = subprocess.run(["bash", SCRIPT, "--task", "--quick", "--out", str(tmp_path)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    row = json.load(open(tmp_path / "schedules-local" / "g_handmade" / "1f1b-s4-n16-F1B1W1" / "row.json"))
    assert row["status"] == "compared" and row["valid"] is True
    assert row["verdict"] in ("<", "=", ">") and row["tessel_makespan"] >= row["bound"]


def test_bad_arguments_are_refused_with_exit_2(planned, tmp_path):
    for args in (["--max-parallel", "0"], ["--bogus"]):
        done = subprocess.run(["bash", SCRIPT, "--dry-run", "--out", str(tmp_path), *args],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and "slurm_array.sh:" in done.stderr
    env = dict(os.environ, SLURM_ARRAY_TASK_ID="100000")
    done = subprocess.run(["bash", SCRIPT, "--task", "--quick", "--out", str(planned[0])],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and "no row 100000" in done.stderr


def test_a_mistyped_row_names_the_nearest_one(tmp_path):
    for script, row, nearest in (("exp_g_handmade.py", "g_handmade/1f1b-s4-n16-F1B1W", "g_handmade/1f1b-s4-n16-F1B1W1"),
                                 ("exp_e_lazy.py", "e_lazy/vshape-d8-mem8-k9", "e_lazy/vshape-d8-mem8-k8")):
        done = subprocess.run(["python3", os.path.join(SOURCE, "cases", "paper", script), "--row", row,
                               "--out", str(tmp_path)], capture_output=True, text=True, env=environment(), timeout=60)
        assert done.returncode == 2 and f"did you mean {nearest}?" in done.stderr, done.stderr
