#!/usr/bin/python3
"""The Python binding's overhead: tessel.search against `tessel search` on
the paper's cases, one run each (docs/python.md). Run from the repository
after the build: /usr/bin/python3 cases/bench/python_overhead.py [build-dir]
Prints a markdown table; the ratio is binding wall time / CLI wall time."""
import os
import subprocess
import sys
import time

build = sys.argv[1] if len(sys.argv) > 1 else "build"
sys.path.insert(0, os.path.join(build, "python"))
import tessel  # noqa: E402

ROWS = [("mshape", 4, 6), ("mshape", 8, 8), ("nnshape", 8, 8), ("xshape", 8, 8), ("kshape", 8, 8)]


def cli_seconds(case, ndevs, memory):
    start = time.perf_counter()
    subprocess.run([os.path.join(build, "tessel"), "search", "--case", case, "--ndevs", str(ndevs),
                    "--memory", str(memory), "--quiet", "--json"], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def binding_seconds(case, ndevs, memory):
    start = time.perf_counter()
    result = tessel.search(tessel.Placement.builtin(case, ndevs), memory)
    assert tessel.verify(result.schedule).valid
    return time.perf_counter() - start, result


print("| case | devices | memory | CLI s | binding s | ratio | period | makespan |")
print("|---|---|---|---|---|---|---|---|")
for case, ndevs, memory in ROWS:
    if case not in [name for name, _ in tessel.cases()]:
        continue
    cli = cli_seconds(case, ndevs, memory)
    seconds, result = binding_seconds(case, ndevs, memory)
    print(f"| {case} | {ndevs} | {memory} | {cli:.2f} | {seconds:.2f} | {seconds / cli:.3f} | {result.period} | {result.makespan} |")
