"""cases/bench/hard_list.sh and core_ceiling.sh on a stand-in for the tessel
binary (a script that takes a fixed time per search): the tables have their
rows and totals, the medians of several runs, every schedule verified, and
the ceiling of two independent one-thread runs is near 2x when nothing is
shared."""

import os
import stat
import subprocess
import tempfile

SOURCE = os.environ.get("TESSEL_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
BENCH = os.path.join(SOURCE, "cases", "bench")

# `search` sleeps (with FAKE_SLOW_FIRST, longer with --threads 1 on the
# first of every three runs, which only a median hides), writes the repetend file and prints the
# JSON fields the scripts read; `verify` accepts.
FAKE = """#!/usr/bin/env bash
if [ "$1" = verify ]; then exit 0; fi
threads=1 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) threads=$2; shift ;;
    --repetend-output) out=$2; shift ;;
  esac
  shift
done
count_file="$FAKE_STATE/count.$threads"
count=$(( $(cat "$count_file" 2>/dev/null || echo 0) + 1 )); echo $count > "$count_file"
if [ "$threads" = 1 ]; then
  if [ -n "$FAKE_SLOW_FIRST" ] && [ $((count % 3)) = 1 ]; then sleep 1.2; else sleep 0.4; fi
else
  sleep 0.2
fi
[ -n "$out" ] && echo '{}' > "$out"
echo '{"status": "found", "period": 7, "proven_lower_bound": 7}'
"""


def fake_tessel(directory):
    path = os.path.join(directory, "tessel")
    with open(path, "w") as handle:
        handle.write(FAKE)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


def run(script, *args, state, **extra):
    env = dict(os.environ, FAKE_STATE=state, **extra)
    return subprocess.run(["bash", os.path.join(BENCH, script), *args], capture_output=True, text=True,
                          timeout=120, env=env)


def test_hard_list_takes_the_median_of_its_runs():
    with tempfile.TemporaryDirectory() as directory:
        done = run("hard_list.sh", fake_tessel(directory), "60", "toy:4:2", "", "3", state=directory,
                   FAKE_SLOW_FIRST="1")
        assert done.returncode == 0, done.stderr
        rows = {line.split()[0]: line for line in done.stdout.splitlines()[1:]}
        assert "found" in rows["toy"] and "yes/yes" in rows["toy"], done.stdout
        # 1 thread: 1.2 s, 0.4 s, 0.4 s -> median 0.4 (the slow run does not count); 2 threads 0.2 s.
        t1, t2 = (float(field) for field in rows["toy"].split("|")[2].split())
        assert 0.35 <= t1 < 0.9 and 0.15 <= t2 < 0.6, done.stdout
        assert "total" in rows


def test_core_ceiling_of_independent_runs_is_near_two():
    with tempfile.TemporaryDirectory() as directory:
        done = run("core_ceiling.sh", fake_tessel(directory), "toy:4:2 toy:8:4", "1", state=directory)
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert lines[0].split() == ["case", "D", "mem", "|", "alone_s", "pair_s", "|", "ceiling"]
        assert [line.split()[0] for line in lines[1:]] == ["toy", "toy", "total"]
        # Sleeping searches share nothing: the pair takes about as long as one.
        ceiling = float(lines[-1].split("|")[-1].strip().rstrip("x"))
        assert 1.3 <= ceiling <= 2.2, done.stdout


def test_bad_repeat_counts_are_refused():
    with tempfile.TemporaryDirectory() as directory:
        binary = fake_tessel(directory)
        for bad in ("0", "two", "-1"):
            done = run("hard_list.sh", binary, "60", "toy:4:2", "", bad, state=directory)
            assert done.returncode == 2 and "REPEATS needs a whole number" in done.stderr, done.stderr
            done = run("core_ceiling.sh", binary, "toy:4:2", bad, state=directory)
            assert done.returncode == 2 and "REPEATS needs a whole number" in done.stderr, done.stderr
