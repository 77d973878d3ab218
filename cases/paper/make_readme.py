#!/usr/bin/env python3
"""Writes OUT/README.md: when and on what machine the tables were made, the
headline of every experiment, the tables inline, the pictures, and the
command behind each — so the committed papers/ explains itself."""
import datetime
import json
import os
import subprocess
import sys

import paperlib

EXPERIMENTS = [
    ("a_paper_table", "exp_a_paper_table.py"),
    ("b_ablation", "exp_b_ablation.py"),
    ("c_scaling", "exp_c_scaling.py"),
    ("c_scaling_exact", "exp_c_scaling.py"),
    ("d_full", "exp_d_full.py"),
    ("e_lazy", "exp_e_lazy.py"),
    ("f_beyond", "exp_f_beyond.py"),
]


def first_line(args):
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=30).stdout.strip().splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "unknown"


def pair(count, total):
    return f"{count} of {total}" if total else "-"


def machine():
    memory_kib = 0
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                memory_kib = int(line.split()[1])
    os_name = "unknown"
    if os.path.exists("/etc/os-release"):
        for line in open("/etc/os-release"):
            if line.startswith("PRETTY_NAME="):
                os_name = line.split("=", 1)[1].strip().strip('"')
    cpu = "unknown"
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    z3 = first_line(["dpkg-query", "-W", "-f=${Version}", "libz3-dev"])
    cadical = first_line(["dpkg-query", "-W", "-f=${Version}", "libcadical-dev"])
    return (f"{os.cpu_count()} cores ({cpu}), {memory_kib / 2**20:.0f} GiB, {os_name}, "
            f"{first_line(['g++', '--version'])}, Z3 {z3} (libz3-dev), CaDiCaL {cadical} (libcadical-dev), "
            f"shared with other builds while it ran (times are noisy)")


RUNNING = [
    "## Running it on more cores or a cluster", "",
    "Every row of every experiment is an independent `tessel` run. `cases/paper/run_all.sh --jobs N` runs them N at "
    "a time through GNU parallel (each row is `exp_*.py --row KEY/NAME`, its result kept in `schedules-local/`; "
    "`exp_*.py --collect` then writes the tables); the default `--jobs 1` runs each experiment in one process. "
    "The bench tables `cases/bench/{makespan,partition,scale,search}_table.sh` take `--jobs N` the same way "
    "and print their rows in the same order. Rows running side by side share the cores, so their times are "
    "those of a busier machine.", "",
    "On Slurm, `cases/cluster/slurm_array.sh [--quick] [--out DIR] [--max-parallel M] [-- SBATCH_OPTION ...]` "
    "submits one array task per row and a job that, after the whole array, tabulates, draws and checks as "
    "run_all.sh does; `--dry-run` prints the two `sbatch` commands and every task's command without "
    "submitting (tests/python/test_cluster_dry_run.py runs it). OUT must be on a file system the nodes share.", ""]


def handmade_section(out, quick):
    """(g) has its own table (search against the hand-made schedules): its headline and its losses
    counted inline; every loss and every row in g_handmade.md."""
    path = os.path.join(out, "g_handmade.md")
    if not os.path.exists(path):
        return []
    text = open(path).read().split("Every loss:")[0].split("### Every row")[0].replace("## (", "### (")
    return [text.rstrip(), "",
            f"Every loss and every row: [g_handmade.md](g_handmade.md), [g_handmade.csv](g_handmade.csv); command "
            f"`cases/paper/exp_g_handmade.py{' --quick' if quick else ''} --out papers`.", ""]


def main(argv):
    quick, out = paperlib.parse_args(argv)
    commit = first_line(["git", "-C", paperlib.REPO, "rev-parse", "--short", "HEAD"])
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = ["# The Tessel paper's search experiments, rerun", "",
             f"Made {now} by `cases/paper/run_all.sh{' --quick' if quick else ''}` at commit `{commit}` on: "
             f"{machine()}.", "",
             "Every figure of ours comes from `tessel search ... --json -o FILE`, and every schedule is judged by "
             "`tessel verify` (the file itself, and for repetend schedules its `tessel unroll` to 32 and 128 "
             "micro-batches, where the makespans come from). The Python Tessel's figures are the measured ones of its "
             "results CSV, read from `TESSEL_REFERENCE_CSV` (commit 44f72c3, same machine kind). Speedup = the "
             "Python search time / our whole process's wall time (start-up included); `>x` when the Python "
             "Tessel timed out (its limit / our time). A time-out or error shows as such, never as a blank. "
             "Makespan bound: `max(critical path, max_d(head_d + N load_d + tail_d))` (docs/algorithms.md (the makespan at N)), "
             "computed from the placement by the driver and compared with the reference's `lb_makespan32/128`; "
             "in parentheses after it, where higher, the idle-aware bound `tessel search` reports at 128 "
             "(solver/makespan/closed_bound/makespan_bound: a device also idles while the first micro-batch reaches it and the last "
             "leaves). Periods of windows of k > 1 micro-batches read `12/2` (12 steps for 2 micro-batches); "
             "they are compared with the Python Tessel's by their average.",
             "", "## Headlines", "",
             "| experiment | configurations | ours found | ours timeouts | geomean speedup | "
             "our period <= Python's | our makespan <= Python's (at 128, or whole for d) | Python failures answered | "
             "invalid schedules | table | command |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for key, script in EXPERIMENTS:
        csv_path = os.path.join(out, key + ".csv")
        if not os.path.exists(csv_path):
            continue
        s = paperlib.summary(paperlib.rows_from_csv(csv_path))
        speedup = (f"{s['geomean_speedup']}x ({s['speedup_pairs']} pairs)" if s["speedup_pairs"]
                   else "- (no Python figures)")
        lines.append(f"| {key} | {s['configurations']} | {s['found']} | {s['timeouts']} | {speedup} | "
                     f"{pair(s['period_not_worse'], s['period_pairs'])} | {pair(s['makespan_not_worse'], s['makespan_pairs'])} | "
                     f"{s['ref_failures_answered']} of {s['ref_failures']} | {s['invalid_schedules']} | "
                     f"[{key}.md]({key}.md), [{key}.csv]({key}.csv) | "
                     f"`cases/paper/{script}{' --quick' if quick else ''} --out papers` |")
    lines += ["", "## Pictures", "",
              "Made by `cases/paper/plots.py --out papers` from the CSVs (hand-written SVG).", "",
              "![search time against devices](plots/search_time.svg)", "",
              "![makespan gap](plots/makespan_gap.svg)", "",
              "Timelines of the paper table's schedules (`tessel export --to svg`; the committed schedules "
              "are in `schedules/a_paper_table/`):", ""]
    timeline_dir = os.path.join(out, "timelines")
    for name in sorted(os.listdir(timeline_dir)) if os.path.isdir(timeline_dir) else []:
        lines += [f"### {name[:-4]}", "", f"![{name[:-4]}](timelines/{name})", ""]
    lines += ["## Tables", ""]
    for key, _ in EXPERIMENTS:
        path = os.path.join(out, key + ".md")
        if os.path.exists(path):
            lines += [open(path).read().replace("## (", "### ("), ""]
    lines += handmade_section(out, quick)
    lines += ["## Known limits", "",
              "- (c) compares the Python Tessel-fast heuristic with our `--strategy fast` construction (also "
              "unproven); our exact repetend search on the same configurations is in c_scaling_exact.",
              "- Our repetend search takes `--nmicros K` as the most micro-batches in flight, the nearest knob to "
              "the Python Tessel's micro-batches per repetend (b, e); in (a) our K is chosen as memory allows.",
              "- Windows with k > 1 micro-batches per period are not offered by our search yet.",
              "- Schedules other than the 4-device paper table are kept in `schedules-local/` (not committed).", ""]
    lines += RUNNING
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
