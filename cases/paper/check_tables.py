#!/usr/bin/env python3
"""The gate CI runs after the experiments: every table in OUT parses (the CSV
has exactly the runner's columns and no blank cell; the markdown tables have
a consistent cell count and no empty cell), and every schedule a table points
at passes `tessel verify` again, from the file on disk. Exit 1 on any failure.

The large schedules live in OUT/schedules-local/ (not committed), so a fresh
clone holds the tables without their files. A schedule is then "missing (not
rerun here)" and only counted: its experiment left no folder in OUT. When
the folder exists (the experiment ran in this OUT) a missing file is a
failure, as is any file the verifier rejects."""
import csv
import glob
import json
import os
import sys

import paperlib

STATUSES = {"found", "infeasible", "timeout", "error"}
REF_STATUSES = {"found", "no_solution", "timeout", "error", "skipped_after_timeout", "not run", "ours only"}


def read_table(path, columns, problems):
    """The rows of a CSV with exactly `columns` (line number, row), each without blank cells; else problems."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != columns:
            problems.append(f"{path}: header differs from the runner's columns")
            return []
        rows = list(enumerate(reader, 2))
    if not rows:
        problems.append(f"{path}: no rows")
    for i, row in rows:
        blanks = [c for c in columns if (row[c] or "").strip() == ""]
        if blanks:
            problems.append(f"{path}:{i}: blank cells {blanks}")
    return rows


def check_schedule_file(where, name, schedule, tessel, problems, missing):
    """Re-verify one schedule a table points at; 1 when it was checked."""
    if os.path.exists(schedule):
        report = paperlib.verify(tessel, schedule)
        if report is None or not report["valid"]:
            problems.append(f"{where}: {name}: {schedule} fails the verifier")
        return 1
    if os.path.isdir(os.path.dirname(schedule)):
        problems.append(f"{where}: {name}: {schedule} is missing, though its experiment ran in this directory")
    else:
        missing.append(schedule)
    return 0


def check_csv(path, tessel, out, problems, missing):
    checked = 0
    for i, row in read_table(path, paperlib.COLUMNS, problems):
        if row["status"] not in STATUSES:
            problems.append(f"{path}:{i}: status {row['status']!r}")
        if row["ref_status"] not in REF_STATUSES:
            problems.append(f"{path}:{i}: ref_status {row['ref_status']!r}")
        if row["status"] == "found" and row["schedule"] == "-":
            problems.append(f"{path}:{i}: found but no schedule file")
        if row["valid"] == "NO":
            problems.append(f"{path}:{i}: {row['name']}: the schedule failed the verifier during the run")
        if row["schedule"] != "-":
            checked += check_schedule_file(f"{path}:{i}", row["name"], os.path.join(out, row["schedule"]), tessel,
                                           problems, missing)
    return checked


def check_handmade_csv(path, tessel, out, problems):
    """(g) has its own columns: every compared row verified, with a verdict matching its makespans and,
    when it ties, a reason;
    the schedules kept locally (schedules-local/g_handmade/NAME/) pass `tessel verify` again."""
    import exp_g_handmade as g
    checked = 0
    for i, row in read_table(path, g.COLUMNS, problems):
        if row["valid"] == "NO":
            problems.append(f"{path}:{i}: {row['name']}: a schedule failed the verifier during the run")
        if row["status"] != "compared":
            continue
        hand, ours = int(row["hand_makespan"]), int(row["tessel_makespan"])
        if row["verdict"] != ("<" if ours < hand else "=" if ours == hand else ">"):
            problems.append(f"{path}:{i}: verdict {row['verdict']!r} but {ours} against {hand}")
        if row["verdict"] == "=" and row["why"] in ("", "-"):
            problems.append(f"{path}:{i}: {row['name']}: a tie without a reason (why)")
        folder = os.path.join(out, "schedules-local", g.KEY, row["name"])
        for name in ("hand.json", "unrolled.json" if os.path.exists(os.path.join(folder, "unrolled.json"))
                     else "best.json"):
            schedule = os.path.join(folder, name)
            if not os.path.exists(schedule):
                continue  # the committed table alone: its schedules were not kept here
            report = paperlib.verify(tessel, schedule)
            if report is None or not report["valid"]:
                problems.append(f"{path}:{i}: {schedule} does not pass tessel verify")
            checked += 1
    return checked


def check_markdown(path, problems):
    width = None
    for n, line in enumerate(open(path), 1):
        line = line.rstrip("\n")
        if not line.startswith("|"):
            width = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if width is None:
            width = len(cells)
        elif len(cells) != width:
            problems.append(f"{path}:{n}: {len(cells)} cells, the header has {width}")
        if any(c == "" for c in cells):
            problems.append(f"{path}:{n}: an empty cell")


def main(argv):
    _, out = paperlib.parse_args(argv)
    tessel = paperlib.tessel_binary()
    problems = []
    missing = []
    tables = sorted(glob.glob(os.path.join(out, "*.csv")))
    if not tables:
        problems.append(f"{out}: no tables")
    checked = 0
    for path in tables:
        if os.path.basename(path) == "g_handmade.csv":
            checked += check_handmade_csv(path, tessel, out, problems)
        else:
            checked += check_csv(path, tessel, out, problems, missing)
        markdown = path[:-4] + ".md"
        if not os.path.exists(markdown):
            problems.append(f"{markdown}: missing")
        else:
            check_markdown(markdown, problems)
        json.load(open(path[:-4] + ".summary.json"))
    for problem in problems:
        paperlib.log("paper: CHECK FAILED: " + problem)
    if missing:
        folders = sorted({os.path.relpath(os.path.dirname(m), out) for m in missing})
        paperlib.log(f"paper: check: {len(missing)} schedules missing (not rerun here), in {', '.join(folders)}: "
                     "rerun their experiments (cases/paper/run_all.sh --only ...) to re-verify them")
    paperlib.log(f"paper: check: {len(tables)} tables, {checked} schedules re-verified, {len(missing)} missing "
                 f"(not rerun here), {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
