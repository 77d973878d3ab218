"""The shared machinery of the paper-experiment drivers (cases/paper/exp_*.py).

Each experiment is a list of configurations of `tessel search`. For every one
this module runs the search with a time limit, keeps the schedule file, has
`tessel verify` judge it (and its unrolls to 32 and 128 micro-batches, where
the makespans of the tables come from), computes the makespan lower bound of
docs/algorithms.md (the makespan at N) from the placement itself, and puts the figures
beside the Python Tessel's measured ones from the reference CSV. A time-out
or an error of either side is written as such, never as a blank or a zero.

Standard library only: CI runs this with whatever python3 is first on PATH.
"""

import csv
import difflib
import json
import math
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The Python Tessel's measured results (cases/paper/reference/README.md); TESSEL_REFERENCE_CSV overrides.
REFERENCE_CSV = os.environ.get(
    "TESSEL_REFERENCE_CSV", os.path.join(REPO, "cases", "paper", "reference", "python-tessel-results.csv"))
TOTALS = (32, 128)

# Columns of every experiment CSV, in order. Missing figures are "-" with the
# status saying why; nothing is left blank.
COLUMNS = [
    "suite", "name", "placement", "ndevs", "infer", "memory", "nmicros_arg", "micros_per_window_arg",
    "strategy", "backend",
    "status", "search_seconds", "wall_seconds",
    "period", "micros_per_window", "lower_bound", "proven_lower_bound", "optimal", "nmicros_in_flight",
    "warmup_steps", "cooldown_steps",
    "makespan32", "makespan128", "makespan_full",
    "lb_makespan32", "lb_makespan128", "lb_makespan_full", "idle_bound128",
    "valid", "schedule",
    "ref_status", "ref_seconds", "ref_timeout_s", "ref_period", "ref_makespan32",
    "ref_makespan128", "ref_lb_makespan32", "ref_lb_makespan128", "ref_nsteps",
    "speedup", "bound_matches_ref",
]


def log(message):
    print(message, file=sys.stderr, flush=True)


def tessel_binary():
    path = os.environ.get("TESSEL", os.path.join(REPO, "build", "tessel"))
    if not os.access(path, os.X_OK):
        raise SystemExit(f"paper: no tessel binary at {path} (build it, or set TESSEL)")
    return path


# ---------------------------------------------------------------------------
# The reference: the Python Tessel's measured results.

def load_reference():
    """Rows of the reference CSV keyed by (suite, placement, ndevs, nmicros_arg, memory, infer)."""
    if not os.path.exists(REFERENCE_CSV):
        log(f"paper: reference CSV {REFERENCE_CSV} not found; the reference columns will say 'absent'")
        return {}
    rows = {}
    with open(REFERENCE_CSV, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["suite"], row["placement"], int(row["ndevs"]),
                   row["nmicros_arg"] or "", int(row["memory"]), row["infer"] == "True")
            rows[key] = row
    return rows


def reference_for(reference, config):
    key = (config["suite"], config["placement"], config["ndevs"], str(config.get("ref_nmicros", "")),
           config["memory"], config.get("infer", False))
    return reference.get(key)


# ---------------------------------------------------------------------------
# The makespan lower bound of docs/algorithms.md (the makespan at N), from the placement.

def makespan_bound(placement, nmicros):
    """max(critical path, max_d(head_d + N * load_d + tail_d)) for N micro-batches."""
    blocks = {b["id"]: b for b in placement["blocks"]}
    preds = {b: [] for b in blocks}
    succs = {b: [] for b in blocks}
    for a, b in placement["edges"]:
        preds[b].append(a)
        succs[a].append(b)
    order = topological_order(blocks, preds, succs)
    earliest = {}
    for b in order:
        earliest[b] = max((earliest[a] + blocks[a]["span"] for a in preds[b]), default=0)
    after = {}  # longest chain still to run once b has ended
    for b in reversed(order):
        after[b] = max((blocks[s]["span"] + after[s] for s in succs[b]), default=0)
    critical = max(earliest[b] + blocks[b]["span"] + after[b] for b in blocks)
    best = critical
    for d in range(placement["ndevs"]):
        on_d = [b for b in blocks if d in blocks[b]["devices"]]
        if not on_d:
            continue
        load = sum(blocks[b]["span"] for b in on_d)
        head = min(earliest[b] for b in on_d)
        tail = min(after[b] for b in on_d)
        best = max(best, head + nmicros * load + tail)
    return best


def topological_order(blocks, preds, succs):
    indegree = {b: len(preds[b]) for b in blocks}
    ready = [b for b in blocks if indegree[b] == 0]
    order = []
    while ready:
        b = ready.pop()
        order.append(b)
        for s in succs[b]:
            indegree[s] -= 1
            if indegree[s] == 0:
                ready.append(s)
    return order


# ---------------------------------------------------------------------------
# Running tessel.

def run(args, timeout):
    """(exit code, stdout, stderr, seconds); exit code None when killed at `timeout`."""
    start = time.monotonic()
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as expired:
        return None, expired.stdout or "", expired.stderr or "", time.monotonic() - start
    return done.returncode, done.stdout, done.stderr, time.monotonic() - start


def verify(tessel, schedule_file):
    """The verifier's JSON report of a schedule file, or None when it cannot read it."""
    code, out, err, _ = run([tessel, "verify", schedule_file, "--json"], 300)
    if code not in (0, 1):
        log(f"paper: verify {schedule_file} exited {code}: {err.strip()[:300]}")
        return None
    return json.loads(out)


def unrolled_makespan(tessel, schedule_file, nmicros):
    """(makespan, valid) of the schedule unrolled to `nmicros`, as the verifier sees it."""
    with tempfile.TemporaryDirectory() as scratch:
        target = os.path.join(scratch, "unrolled.json")
        code, _, err, _ = run([tessel, "unroll", schedule_file, "--nmicros", str(nmicros), "-o", target], 300)
        if code == 2 and "unrolls to at least" in err:
            # More micro-batches in flight than N: this schedule has no N-micro-batch form; not a fault.
            return f"K>{nmicros}", True
        if code != 0:
            log(f"paper: unroll {schedule_file} to {nmicros} exited {code}: {err.strip()[:300]}")
            return None, False
        report = verify(tessel, target)
    if report is None:
        return None, False
    return report["makespan"], bool(report["valid"])


def placement_json(tessel, config):
    args = [tessel, "placement", "--case", config["placement"], "--ndevs", str(config["ndevs"])]
    if config.get("infer"):
        args.append("--infer")
    code, out, err, _ = run(args, 60)
    if code != 0:
        raise SystemExit(f"paper: tessel placement failed: {err.strip()}")
    return json.loads(out)


STATUS_BY_EXIT = {0: "found", 1: "infeasible", 2: "error", 3: "timeout", 4: "error"}


def run_config(tessel, config, schedule_dir, time_limit, boundary_seconds):
    """Search one configuration, judge what it wrote; one result row (without the reference)."""
    strategy = config.get("strategy", "repetend")
    backend = config.get("backend", "cadical")
    name = config["name"]
    schedule_file = os.path.join(schedule_dir, name + ".json")
    if os.path.exists(schedule_file):
        os.remove(schedule_file)
    args = [tessel, "search", "--case", config["placement"], "--ndevs", str(config["ndevs"]),
            "--memory", str(config["memory"]), "--strategy", strategy, "--backend", backend,
            "--time-limit", str(time_limit), "--json",
            "-o" if strategy == "full" else "--repetend-output", schedule_file]
    if config.get("infer"):
        args.append("--infer")
    if config.get("nmicros"):
        args += ["--nmicros", str(config["nmicros"])]
    if config.get("micros_per_window") is not None:
        args += ["--micros-per-window", str(config["micros_per_window"])]
    if strategy == "repetend":
        args += ["--total-micros", "128", "--tune", "boundary_seconds=" + str(boundary_seconds)]
    log(f"paper: {name}: {' '.join(args[1:])}")
    code, out, err, wall = run(args, time_limit + 60)
    row = {c: "-" for c in COLUMNS}
    row.update(suite=config["suite"], name=name, placement=config["placement"], ndevs=config["ndevs"],
               infer="yes" if config.get("infer") else "no", memory=config["memory"],
               nmicros_arg=config.get("nmicros") or "-", strategy=strategy, backend=backend,
               micros_per_window_arg=config.get("micros_per_window", "-"),
               wall_seconds=f"{wall:.3f}")
    if code is None:
        row["status"] = "timeout"
    else:
        row["status"] = STATUS_BY_EXIT.get(code, "error")
    answer = {}
    if out.strip().startswith("{"):
        try:
            answer = json.loads(out)
        except json.JSONDecodeError:
            row["status"] = "error"
    if row["status"] == "error":
        log(f"paper: {name}: error (exit {code}): {err.strip().splitlines()[-1:] if err.strip() else ''}")
    for key in ("period", "lower_bound", "proven_lower_bound", "nmicros_in_flight",
                "warmup_steps", "cooldown_steps"):
        if answer.get(key) is not None and row["status"] in ("found", "timeout", "infeasible"):
            row[key] = answer[key]
    if row["period"] != "-":
        row["micros_per_window"] = answer.get("micros_per_period", 1)
    # The closed bound (idle-aware and the other closed arguments); the
    # proven one, which may be a solved bound above it, is makespan - gap.
    closed = answer.get("makespan_closed_bound_at_total", answer.get("makespan_bound_at_total"))
    if strategy != "full" and closed is not None:
        row["idle_bound128"] = closed
    if "optimal" in answer:
        row["optimal"] = bool(answer["optimal"])
    if answer.get("solve_seconds") is not None:
        row["search_seconds"] = f"{answer['solve_seconds']:.3f}"

    placement = placement_json(tessel, config)
    row["lb_makespan32"] = makespan_bound(placement, 32)
    row["lb_makespan128"] = makespan_bound(placement, 128)
    if strategy == "full":
        row["lb_makespan_full"] = makespan_bound(placement, config["nmicros"])

    if os.path.exists(schedule_file):
        row["schedule"] = os.path.relpath(schedule_file, os.path.dirname(os.path.dirname(schedule_dir)))
        row["valid"] = judge(tessel, schedule_file, strategy, row)
    return row


def judge(tessel, schedule_file, strategy, row):
    """Verify the written schedule (and its unrolls); fill the makespans; True when all pass."""
    report = verify(tessel, schedule_file)
    if report is None:
        return False
    valid = bool(report["valid"])
    if not valid:
        log(f"paper: INVALID schedule {schedule_file}: {report.get('violation_counts')}")
    if strategy == "full":
        row["makespan_full"] = report["makespan"]
        return valid
    for total in TOTALS:
        makespan, unrolled_valid = unrolled_makespan(tessel, schedule_file, total)
        if makespan is not None:
            row[f"makespan{total}"] = makespan
        if not unrolled_valid:
            log(f"paper: INVALID unroll of {schedule_file} to {total} micro-batches")
        valid = valid and unrolled_valid
    return valid


# ---------------------------------------------------------------------------
# Side by side with the reference.

def attach_reference(row, ref):
    if ref is None:
        row["ref_status"] = "not run"
        return row
    row["ref_status"] = ref["status"]
    row["ref_timeout_s"] = ref["timeout_s"] or "-"
    for ours, theirs in (("ref_seconds", "search_time_s"), ("ref_period", "period"),
                         ("ref_makespan32", "makespan32"), ("ref_makespan128", "makespan128"),
                         ("ref_lb_makespan32", "lb_makespan32"), ("ref_lb_makespan128", "lb_makespan128"),
                         ("ref_nsteps", "nsteps")):
        row[ours] = ref[theirs] if ref[theirs] != "" else "-"
    ours_time = seconds_of(row)
    if row["status"] == "found" and ref["status"] == "found" and ours_time:
        row["speedup"] = f"{float(ref['search_time_s']) / ours_time:.2f}"
    elif row["status"] == "found" and ref["status"] == "timeout" and ours_time:
        row["speedup"] = f">{float(ref['timeout_s']) / ours_time:.1f}"
    if ref["lb_makespan128"] and row["lb_makespan128"] != "-":
        row["bound_matches_ref"] = (int(ref["lb_makespan32"]) == row["lb_makespan32"]
                                    and int(ref["lb_makespan128"]) == row["lb_makespan128"])
    return row


def seconds_of(row):
    """Our time for the speedup: the whole process's wall time (start-up included, so conservative)."""
    try:
        return max(float(row["wall_seconds"]), 1e-3)
    except ValueError:
        return None


def as_number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def rows_from_csv(path):
    """An experiment CSV read back as result rows (the verifier's verdict as a bool again)."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        row["valid"] = {"yes": True, "NO": False}.get(row["valid"], row["valid"])
    return rows


def geometric_mean(values):
    values = [v for v in values if v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def summary(rows):
    """Per-experiment headline: geometric-mean speedup, and the reference's failures we answer."""
    speedups = [float(r["speedup"]) for r in rows
                if r["speedup"] not in ("-", "") and not str(r["speedup"]).startswith(">")]
    ref_failed = [r for r in rows if r["ref_status"] in ("timeout", "error", "no_solution", "skipped_after_timeout")]
    answered = [r for r in ref_failed if r["status"] in ("found", "infeasible")]
    invalid = [r for r in rows if r["valid"] is False]
    mean = geometric_mean(speedups)
    both = [r for r in rows if r["status"] == "found" and r["ref_status"] == "found"]
    periods = [(average_period(r), as_number(r["ref_period"])) for r in both]
    periods = [(a, b) for a, b in periods if a is not None and b is not None]
    # Repetend rows compare the makespan at 128 micro-batches; full-search rows the whole schedule's.
    makespans = [(as_number(r["makespan_full"]), as_number(r["ref_nsteps"])) if r["strategy"] == "full"
                 else (as_number(r["makespan128"]), as_number(r["ref_makespan128"])) for r in both]
    makespans = [(a, b) for a, b in makespans if a is not None and b is not None]
    return {
        "period_pairs": len(periods),
        "period_not_worse": sum(a <= b for a, b in periods),
        "makespan_pairs": len(makespans),
        "makespan_not_worse": sum(a <= b for a, b in makespans),
        "configurations": len(rows),
        "found": sum(r["status"] == "found" for r in rows),
        "timeouts": sum(r["status"] == "timeout" for r in rows),
        "errors": sum(r["status"] == "error" for r in rows),
        "geomean_speedup": f"{mean:.1f}" if mean else "-",
        "speedup_pairs": len(speedups),
        "ref_failures": len(ref_failed),
        "ref_failures_answered": len(answered),
        "invalid_schedules": len(invalid),
    }


# ---------------------------------------------------------------------------
# Output: CSV and markdown.

def cell(value):
    if value is True:
        return "yes"
    if value is False:
        return "NO"
    if value is None or value == "":
        return "-"
    return str(value)


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow({c: cell(row[c]) for c in COLUMNS})


def status_text(row):
    if row["status"] == "timeout":
        return f"timeout ({row.get('time_limit', '?')} s)"
    return row["status"]


def ref_status_text(row):
    status = row["ref_status"]
    if status == "timeout":
        return f"timeout ({row['ref_timeout_s']} s)"
    if status == "skipped_after_timeout":
        return "skipped (smaller timed out)"
    return status


def seconds_text(value):
    if value in ("-", "", None):
        return "-"
    v = float(value)
    return f"{v:.2f}" if v < 100 else f"{v:.0f}"


def average_period(row):
    """Steps per micro-batch: the period of a window of k micro-batches over k."""
    period = as_number(row["period"])
    k = as_number(row.get("micros_per_window", "-")) or 1
    return None if period is None else period / k


def period_text(row):
    """'6', or for a window of k > 1 micro-batches '12/2' (period of the window / k)."""
    k = as_number(row.get("micros_per_window", "-")) or 1
    return cell(row["period"]) if k == 1 else f"{cell(row['period'])}/{int(k)}"


def idle_bound_text(row):
    """' (780)': tessel's idle-aware bound at 128 when it is above the simple one."""
    idle, simple = as_number(row.get("idle_bound128", "-")), as_number(row["lb_makespan128"])
    return f" ({int(idle)})" if idle is not None and simple is not None and idle > simple else ""


def figure_pair(ours, theirs, bound):
    return f"{cell(ours)} / {cell(theirs)} / {cell(bound)}"


def headline_lines(title, note, rows):
    """The title, the note and the summary sentence every experiment's table starts with."""
    s = summary(rows)
    return [f"## {title}", "", note, "",
            f"**Geometric-mean speedup over the Python Tessel: {s['geomean_speedup']}x** "
            f"(over the {s['speedup_pairs']} configurations both answered); "
            f"**the Python Tessel failed {s['ref_failures']} configurations "
            f"(timeout, error, no solution, skipped), we answer {s['ref_failures_answered']} of them**. "
            f"Ours: {s['found']} found, {s['timeouts']} timeouts, {s['errors']} errors, "
            f"{s['invalid_schedules']} schedules failing the verifier, of {s['configurations']}.", ""]


def markdown_table(title, note, rows, full=False):
    """One experiment as markdown: headline, then a row per configuration."""
    lines = headline_lines(title, note, rows)
    if full:
        header = ["configuration", "backend", "ours", "ours s", "Python", "Python s", "speedup",
                  "makespan ours / Python / bound", "proven optimal", "verified"]
    else:
        header = ["configuration", "backend", "K", "ours", "ours s", "Python", "Python s", "speedup",
                  "period ours / Python / L", "proven bound", "makespan@32 ours / Python / bound",
                  "makespan@128 ours / Python / bound (idle-aware bound)", "verified"]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    for r in rows:
        config = f"{r['placement']} D={r['ndevs']} mem={r['memory']}"
        if r["infer"] == "yes":
            config += " infer"
        if r["nmicros_arg"] != "-":
            config += f" n={r['nmicros_arg']}"
        if str(r.get("micros_per_window_arg", "-")) != "-":
            config += " k=auto" if str(r["micros_per_window_arg"]) == "0" else f" k={r['micros_per_window_arg']}"
        if full:
            ref_makespan = r["ref_nsteps"]
            cells = [config, r["backend"], status_text(r), seconds_text(r["wall_seconds"]),
                     ref_status_text(r), seconds_text(r["ref_seconds"]), cell(r["speedup"]),
                     figure_pair(r["makespan_full"], ref_makespan, r["lb_makespan_full"]),
                     cell(r["optimal"]), cell(r["valid"])]
        else:
            cells = [config, r["backend"], cell(r["nmicros_in_flight"]), status_text(r),
                     seconds_text(r["wall_seconds"]), ref_status_text(r), seconds_text(r["ref_seconds"]),
                     cell(r["speedup"]), figure_pair(period_text(r), r["ref_period"], r["lower_bound"]),
                     cell(r["proven_lower_bound"]),
                     figure_pair(r["makespan32"], r["ref_makespan32"], r["lb_makespan32"]),
                     figure_pair(r["makespan128"], r["ref_makespan128"], r["lb_makespan128"])
                     + idle_bound_text(r),
                     cell(r["valid"])]
        lines.append("| " + " | ".join(cells) + " |")
    mismatched = [r["name"] for r in rows if r["bound_matches_ref"] is False]
    lines.append("")
    if mismatched:
        lines.append(f"Makespan bound differs from the reference's lb_makespan on: {', '.join(mismatched)}.")
    elif any(r["bound_matches_ref"] is True for r in rows):
        lines.append("Our makespan bounds (docs/algorithms.md (the makespan at N)) equal the reference's lb_makespan32/128 "
                     "on every configuration where it has them.")
    lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# The driver every exp_*.py calls.

def parse_args(argv):
    quick = "--quick" in argv
    out = os.path.join(REPO, "papers")
    if "--out" in argv:
        out = argv[argv.index("--out") + 1]
    return quick, os.path.abspath(out)


def run_experiment(key, title, note, configs, time_limit, boundary_seconds=10, full=False, argv=None):
    """Run `configs`, write OUT/KEY.csv and OUT/KEY.md; exit 1 when a schedule fails the verifier."""
    rows, out = run_rows(key, configs, time_limit, boundary_seconds, argv)
    return write_experiment(out, key, rows, markdown_table(title, note, rows, full=full))


def row_mode(argv=None):
    """How a driver was asked to run: ("all", None), ("list", None), ("row", "KEY/NAME") or ("collect", None).

    --list prints every row as KEY/NAME; --row KEY/NAME runs that row alone and
    keeps its result in OUT/schedules-local/rows/KEY/NAME.json; --collect writes
    the tables from those results. Rows are independent, so GNU parallel
    (run_all.sh --jobs) or a Slurm array (cases/cluster/) can run them apart."""
    argv = sys.argv[1:] if argv is None else argv
    for mode in ("list", "collect"):
        if "--" + mode in argv:
            return mode, None
    if "--row" in argv:
        return "row", argv[argv.index("--row") + 1]
    return "all", None


def row_result_file(out, key, name):
    return os.path.join(out, "schedules-local", "rows", key, name + ".json")


def run_rows(key, configs, time_limit, boundary_seconds=10, argv=None):
    """Run `configs` (the quick subset with --quick), each row beside its reference; (rows, OUT).

    In --list and --row modes it returns no rows (write_experiment then writes
    nothing); in --collect mode the rows are read back from the row results."""
    argv = sys.argv[1:] if argv is None else argv
    quick, out = parse_args(argv)
    mode, wanted = row_mode(argv)
    if quick:
        configs = [c for c in configs if c.get("quick")]
        time_limit = min(time_limit, 20)
        boundary_seconds = min(boundary_seconds, 2)
    if mode == "list":
        print("\n".join(f"{key}/{c['name']}" for c in configs))
        return [], out
    if mode == "collect":
        return [collected_row(out, key, c) for c in configs], out
    if mode == "row":
        names = [c["name"] for c in configs]
        configs = [c for c in configs if f"{key}/{c['name']}" == wanted]
        if not configs and wanted.split("/")[0] == key:
            nearest = difflib.get_close_matches(wanted.split("/")[-1], names, 1)
            log(f"paper: --row {wanted}: no such row of {key}"
                + (f" (did you mean {key}/{nearest[0]}?)" if nearest else " (see --list)"))
            raise SystemExit(2)
    tessel = tessel_binary()
    reference = load_reference()
    # Small schedules of the 4-device paper table are committed; the rest stay local (gitignored).
    schedule_dir = os.path.join(out, "schedules" if key == "a_paper_table" else "schedules-local", key)
    os.makedirs(schedule_dir, exist_ok=True)
    rows = []
    for i, config in enumerate(configs, 1):
        log(f"paper: [{key} {i}/{len(configs)}]")
        limit = config.get("time_limit", time_limit)
        row = run_config(tessel, config, schedule_dir, limit, boundary_seconds)
        row["time_limit"] = limit
        attach_reference(row, reference_for(reference, config) if not config.get("ours_only") else None)
        if config.get("ours_only"):
            row["ref_status"] = "ours only"
        log(f"paper:   -> {row['status']} in {row['wall_seconds']} s, period {row['period']}, "
            f"makespan128 {row['makespan128']}, valid {row['valid']}; Python: {row['ref_status']} {row['ref_seconds']} s")
        rows.append(row)
        if mode == "row":
            os.makedirs(os.path.dirname(row_result_file(out, key, config["name"])), exist_ok=True)
            with open(row_result_file(out, key, config["name"]), "w") as f:
                json.dump(row, f)
    return rows, out


def collected_row(out, key, config):
    """The result `--row` kept for `config`; an error row saying so when that row never ran."""
    path = row_result_file(out, key, config["name"])
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    log(f"paper: {key}/{config['name']}: no row result at {path} (the row did not run)")
    row = {c: "-" for c in COLUMNS}
    row.update(suite=config["suite"], name=config["name"], placement=config["placement"], ndevs=config["ndevs"],
               infer="yes" if config.get("infer") else "no", memory=config["memory"], status="error",
               strategy=config.get("strategy", "repetend"), backend=config.get("backend", "cadical"),
               nmicros_arg=config.get("nmicros") or "-", ref_status="not run",
               micros_per_window_arg=config.get("micros_per_window", "-"))
    return row


def write_experiment(out, key, rows, markdown):
    """OUT/KEY.csv, OUT/KEY.md (`markdown`) and OUT/KEY.summary.json; 1 when a schedule fails the verifier.

    Nothing is written in --list or --row mode (the tables wait for --collect);
    then the exit status says whether the row's schedule passed the verifier."""
    if row_mode()[0] in ("list", "row"):
        return 1 if any(r["valid"] is False for r in rows) else 0
    write_csv(os.path.join(out, key + ".csv"), rows)
    with open(os.path.join(out, key + ".md"), "w") as f:
        f.write(markdown)
    with open(os.path.join(out, key + ".summary.json"), "w") as f:
        json.dump(summary(rows), f, indent=1)
    bad = [r["name"] for r in rows if r["valid"] is False]
    if bad:
        log(f"paper: {key}: schedules FAILING the verifier: {', '.join(bad)}")
        return 1
    return 0
