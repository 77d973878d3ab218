"""`--jobs N` of the bench tables and run_all.sh: rows run N at a time
through GNU parallel (cases/bench/rows.sh) print the same table, in the same
order, as one at a time; a bad N is refused with exit 2."""

import os
import subprocess

SOURCE = os.environ.get("TESSEL_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
ROWS = os.path.join(SOURCE, "cases", "bench", "rows.sh")

# A table of five rows whose first rows take longest, so a parallel run
# finishes them out of order and only --keep-order puts them back.
TABLE = f"""
source {ROWS}
bench_parse_jobs "$@"
title=${{bench_args[0]}}
row() {{ sleep "0.$(( 5 - $1 ))"; echo "row $1 of $title: $2"; }}
export -f row
export title
for i in 0 1 2 3 4; do echo "$i word$i"; done | bench_rows row
"""


def table(*args):
    return subprocess.run(["bash", "-c", TABLE, "table", *args], capture_output=True, text=True, timeout=60)


def test_parallel_rows_print_the_same_table_in_order():
    serial, parallel = table("title"), table("--jobs", "3", "title")
    assert serial.returncode == 0 and parallel.returncode == 0, serial.stderr + parallel.stderr
    expected = [f"row {i} of title: word{i}" for i in range(5)]
    assert serial.stdout.splitlines() == expected
    assert parallel.stdout.splitlines() == expected


def test_bad_job_counts_are_refused():
    for bad in ("0", "two", ""):
        done = table("--jobs", bad)
        assert done.returncode == 2 and "--jobs needs a whole number" in done.stderr
    done = subprocess.run(["bash", os.path.join(SOURCE, "cases", "paper", "run_all.sh"), "--jobs", "-1"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--jobs needs a whole number" in done.stderr


def test_every_bench_table_takes_jobs():
    for name in ("makespan_table.sh", "partition_table.sh", "scale_table.sh", "search_table.sh"):
        text = open(os.path.join(SOURCE, "cases", "bench", name)).read()
        assert "bench_parse_jobs" in text and "bench_rows" in text, name
