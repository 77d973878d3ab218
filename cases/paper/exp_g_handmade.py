#!/usr/bin/env python3
"""(g) Search against the hand-made schedules: for every `tessel generate`
scheme, stage count, micro-batch count and span set, the hand-made schedule
is generated with its placement, judged by `tessel verify` (makespan, peak
memory per device), and `tessel search` is given the same placement, the
hand-made peaks as its memory limits and the same micro-batch count. The
table says who is shorter. The driver only measures: whatever the binary
finds is what the table shows, and every schedule of either side goes
through the verifier (a repetend answer unrolled to N first).

Rows are independent, so they can run one per process (`--row NAME`, each
writing a small JSON result) and be tabulated afterwards (`--collect`):
that is how run_all.sh --jobs and the Slurm array spread them.

  exp_g_handmade.py [--quick] [--out DIR] [--time-limit S]   all rows, then the tables
  exp_g_handmade.py --list [--quick]                          the rows, as g_handmade/NAME
  exp_g_handmade.py --row g_handmade/NAME [--out DIR] [...]   one row
  exp_g_handmade.py --collect [--quick] [--out DIR]           tables from the rows run
  exp_g_handmade.py --list-undecided [--out DIR]              the ties run so far with no reason proven
  exp_g_handmade.py --prove g_handmade/NAME [--out DIR]       the full solver on one such tie

A tie above the bound that the search neither beat nor proved optimal gets a
proof pass: first the search again with the exact ends bound given
ENDS_SECONDS (`--tune ends_seconds=...`) and the one-device relaxation
RELAXATION_SECONDS (`--tune relaxation_seconds=...`), the improvements off:
only its bound is read; the bound it proves reaching the hand-made makespan
makes that optimal, at any N), then the full solver
(`search --strategy full`, PROOF_SECONDS): it proves the hand-made makespan
optimal, finds a shorter schedule (verified; the row's verdict stays the
default search's), or says it did not decide.
"""
import csv
import difflib
import json
import os
import sys
import time

import paperlib

KEY = "g_handmade"
SCHEMES = ["gpipe", "1f1b", "interleaved-1f1b", "looped-bfs", "interleaved-zb", "zb-h1", "zb-h2", "zb-v",
           "zb-auto", "v-half", "v-min", "dualpipev", "dualpipe"]
STAGES = (4, 8, 16)
NMICROS = (16, 32, 128)
# Spans of the forward (F), the input-gradient backward (B) and the weight
# gradient (W). Every set gives W, so every scheme runs with a split backward.
SPAN_SETS = ["F=1,B=1,W=1", "F=2,B=2,W=1", "F=3,B=2,W=1", "F=1,B=2,W=2"]
# The DeepSeek schemes call the input-gradient backward I (their B is I+W).
INPUT_BACKWARD_IS_I = {"dualpipe", "dualpipev"}
QUICK = {("1f1b", 4, 16, "F=1,B=1,W=1"), ("zb-h1", 4, 16, "F=2,B=2,W=1"), ("dualpipev", 4, 16, "F=1,B=2,W=2")}
TIME_LIMIT = 20
PROOF_SECONDS = 60  # the full solver on a tie the default search left undecided
# The exact ends bound on such a tie, before the full solver. They build a
# larger window only while its encoding is expected to take less than half
# the time left: V-Half, 8 stages, N 16, F=B=W=1 proves 113 (the hand-made
# one) in 20 s of a 120 s budget, 110 with 30 s.
ENDS_SECONDS = 120
# Then the one-device relaxation (solver/makespan/bounds/device_relaxation): V-Min,
# 16 stages, F=B=W=1 proves the hand-made 155 at N 16 in 7 s, 251 at N 32 in 45 s.
RELAXATION_SECONDS = 120
# The shift search, the end transfer (N >= 32), the tabu search on device
# orders, then the neighbourhood search may use this share of the time left
# when each starts (off in the default search: `--tune shift_share`,
# `--tune transfer_share`, `--tune order_share`, `--tune lns_share`,
# docs/algorithms.md). The orders' share: interleaved zero bubble, 16 ranks,
# N 128, needs 1-2 s of them for its first gain, past their default 1 s.
SHIFT_SHARE = 0.4
TRANSFER_SHARE = 0.4
ORDER_SHARE = 0.3
LNS_SHARE = 0.5
TUNING = ["--tune", f"shift_share={SHIFT_SHARE}", "--tune", f"transfer_share={TRANSFER_SHARE}",
          "--tune", f"order_share={ORDER_SHARE}", "--tune", f"lns_share={LNS_SHARE}"]

COLUMNS = ["name", "scheme", "stages", "nmicros", "spans", "status", "reason", "hand_makespan", "hand_peak_memory",
           "search_nmicros", "tessel_makespan", "bound", "gap", "gap_percent", "hand_gap_percent", "ratio",
           "verdict", "why", "shape", "construction", "search_status", "search_seconds", "wall_seconds", "valid"]


def span_label(spans):
    return spans.replace("=", "").replace(",", "")


def configs():
    rows = []
    for scheme in SCHEMES:
        for stages in STAGES:
            for nmicros in NMICROS:
                for spans in SPAN_SETS:
                    rows.append(dict(name=f"{scheme}-s{stages}-n{nmicros}-{span_label(spans)}", scheme=scheme,
                                     stages=stages, nmicros=nmicros, spans=spans,
                                     quick=(scheme, stages, nmicros, spans) in QUICK))
    return rows


def scheme_spans(scheme, spans):
    return spans.replace("B=", "I=") if scheme in INPUT_BACKWARD_IS_I else spans


# ---------------------------------------------------------------------------
# One row.

def new_row(config):
    row = {c: "-" for c in COLUMNS}
    row.update(name=config["name"], scheme=config["scheme"], stages=config["stages"], nmicros=config["nmicros"],
               spans=config["spans"])
    return row


def judged(tessel, schedule_file, nmicros, scratch):
    """The verifier's report of `schedule_file` holding `nmicros` micro-batches (a repetend unrolled first)."""
    with open(schedule_file) as f:
        held = json.load(f)["nmicros"]
    if held < nmicros:
        target = os.path.join(scratch, "unrolled.json")
        code, _, err, _ = paperlib.run([tessel, "unroll", schedule_file, "--nmicros", str(nmicros), "-o", target],
                                       300)
        if code != 0:
            return None, f"unroll to {nmicros} exited {code}: {err.strip()[:200]}"
        schedule_file = target
    report = paperlib.verify(tessel, schedule_file)
    if report is None:
        return None, "the verifier could not read it"
    return report, ""


def generate_hand_made(tessel, config, scratch, row):
    """Write the hand-made schedule and its placement; its verifier report, or None (row says why)."""
    hand, placement = os.path.join(scratch, "hand.json"), os.path.join(scratch, "placement.json")
    args = [tessel, "generate", config["scheme"], "--stages", str(config["stages"]),
            "--nmicros", str(config["nmicros"]), "--span", scheme_spans(config["scheme"], config["spans"]),
            "--placement-out", placement, "-o", hand]
    code, _, err, _ = paperlib.run(args, 300)
    if code != 0:
        # Exit 2: the scheme refuses this size or these keys; that is a skip, with its own words.
        row["status"] = "skipped" if code == 2 else "error"
        row["reason"] = (err.strip().splitlines() or [f"exit {code}"])[-1].replace("|", "/")
        return None
    report = paperlib.verify(tessel, hand)
    if report is None or not report["valid"]:
        row.update(status="error", reason="the hand-made schedule fails the verifier", valid=False)
        return None
    with open(hand) as f:
        row["search_nmicros"] = json.load(f)["nmicros"]  # dualpipe counts pairs: N/2
    row["hand_makespan"] = report["makespan"]
    row["hand_peak_memory"] = ",".join(str(m) for m in report["peak_memory"])
    return placement


def search(tessel, placement, row, scratch, time_limit):
    """Run `tessel search` on the hand-made placement under its peaks; the JSON answer ({} if none)."""
    best = os.path.join(scratch, "best.json")
    args = [tessel, "search", "--placement", placement, "--memory", row["hand_peak_memory"],
            "--total-micros", str(row["search_nmicros"]), "--json", "--quiet", "--threads", "1",
            "--time-limit", str(time_limit), *TUNING, "-o", best]
    code, out, err, wall = paperlib.run(args, time_limit + 120)
    row["wall_seconds"] = f"{wall:.2f}"
    row["search_status"] = "killed" if code is None else paperlib.STATUS_BY_EXIT.get(code, "error")
    try:
        answer = json.loads(out) if out.strip().startswith("{") else {}
    except json.JSONDecodeError:
        answer = {}
    if row["search_status"] == "error":
        row["reason"] = (err.strip().splitlines() or [f"exit {code}"])[-1].replace("|", "/")
    if answer.get("solve_seconds") is not None:
        row["search_seconds"] = f"{answer['solve_seconds']:.2f}"
    return answer, best


def fill_bound(row, answer):
    """The bound at N the search reports: its proven one (makespan - proven gap) or the idle-aware one."""
    bounds = [answer.get("makespan_bound_at_total")]
    if answer.get("makespan_at_total") is not None and answer.get("makespan_gap_at_total") is not None:
        bounds.append(answer["makespan_at_total"] - answer["makespan_gap_at_total"])
    bounds = [b for b in bounds if b is not None]
    if bounds:
        row["bound"] = max(bounds)


def fill_comparison(row, report, answer):
    """Makespans side by side, gap to the bound, verdict, and the winner's shape."""
    ours, hand = report["makespan"], row["hand_makespan"]
    row["tessel_makespan"] = ours
    row["ratio"] = f"{ours / hand:.4f}"
    row["verdict"] = "<" if ours < hand else "=" if ours == hand else ">"
    row["shape"] = answer.get("shape") or "-"
    row["construction"] = answer.get("best_construction") or "-"
    if row["bound"] != "-":
        row["gap"] = ours - row["bound"]
        row["gap_percent"] = f"{100 * (ours - row['bound']) / row['bound']:.2f}"
        row["hand_gap_percent"] = f"{100 * (hand - row['bound']) / row['bound']:.2f}"
    if row["verdict"] == ">":
        row["reason"] = loss_reason(row, answer)
    if row["verdict"] == "=":
        row["why"] = tie_reason(row, answer)


# Why a tie is not strictly better, from what the search decided.
TIE_AT_BOUND = "= bound (proven optimal)"
TIE_PROVEN = "hand-made proven optimal by the full solver"
TIE_ENDS = "hand-made proven optimal by the exact ends bound"
TIE_RELAXATION = "hand-made proven optimal by the one-device relaxation bound"
PROVEN = (TIE_PROVEN, TIE_ENDS, TIE_RELAXATION)


def tie_reason(row, answer):
    if row["gap"] == 0:
        return TIE_AT_BOUND
    if answer.get("makespan_proven_optimal"):
        return TIE_PROVEN
    note = answer.get("makespan_gap_reason") or "the best schedule found stays above the bound"
    return ("not decided: " + note).replace("|", "/")


def loss_reason(row, answer):
    if row["search_status"] == "timeout":
        reason = f"time limit: best so far after {row['search_seconds']} s"
    else:
        reason = "search finished"
    note = answer.get("makespan_gap_reason") or ""
    return (reason + ("; " + note if note else "")).replace("|", "/")


def run_row(tessel, config, out, time_limit):
    """Generate, judge, search, judge; one table row. The files stay in schedules-local/g_handmade/NAME."""
    row = new_row(config)
    scratch = os.path.join(out, "schedules-local", KEY, config["name"])
    os.makedirs(scratch, exist_ok=True)
    for stale in ("best.json", "unrolled.json"):
        if os.path.exists(os.path.join(scratch, stale)):
            os.remove(os.path.join(scratch, stale))
    placement = generate_hand_made(tessel, config, scratch, row)
    if placement is None:
        return row
    answer, best = search(tessel, placement, row, scratch, time_limit)
    fill_bound(row, answer)
    if not os.path.exists(best):
        row["status"] = "no schedule"
        row["verdict"] = ">"
        if row["reason"] == "-":
            row["reason"] = f"search {row['search_status']} without writing a schedule"
        return row
    report, why = judged(tessel, best, row["search_nmicros"], scratch)
    if report is None or not report["valid"]:
        row.update(status="error", valid=False, reason=why or "the search's schedule fails the verifier")
        return row
    row.update(status="compared", valid=True)
    fill_comparison(row, report, answer)
    return row


def undecided(row):
    return row.get("verdict") == "=" and str(row.get("why", "-")).startswith("not decided")


def ends_bound(tessel, row, placement):
    """The makespan bound the search proves with the exact ends given ENDS_SECONDS and then the one-device
    relaxation RELAXATION_SECONDS, and the argument that gave it ((None, None): no answer)."""
    limit = 2 * (ENDS_SECONDS + RELAXATION_SECONDS) + TIME_LIMIT  # each gets at most half the time left
    no_improvements = [f"{knob}=0" for knob in ("shift_seconds", "transfer_seconds", "order_seconds", "lns_seconds",
                                                 "improve_seconds")]
    args = [tessel, "search", "--placement", placement, "--memory", row["hand_peak_memory"], "--total-micros",
            str(row["search_nmicros"]), "--json", "--quiet", "--threads", "1", "--time-limit", str(limit),
            "--tune", f"ends_seconds={ENDS_SECONDS}", "--tune", f"relaxation_seconds={RELAXATION_SECONDS}"]
    for knob in no_improvements:
        args += ["--tune", knob]
    code, stdout, _, _ = paperlib.run(args, limit + 120)
    answer = json.loads(stdout) if code in (0, 3) and stdout.strip().startswith("{") else {}
    bounds = [answer.get("makespan_bound_at_total")]
    if answer.get("makespan_at_total") is not None and answer.get("makespan_gap_at_total") is not None:
        bounds.append(answer["makespan_at_total"] - answer["makespan_gap_at_total"])
    bounds = [b for b in bounds if b is not None]
    return (max(bounds), answer.get("makespan_bound_argument")) if bounds else (None, None)


def prove_tie(tessel, row, out):
    """The proof pass on an undecided tie: its answer becomes the row's reason (the row is updated)."""
    scratch = os.path.join(out, "schedules-local", KEY, row["name"])
    placement, proof = os.path.join(scratch, "placement.json"), os.path.join(scratch, "proof.json")
    hand = row["hand_makespan"]
    ends, argument = ends_bound(tessel, row, placement)
    if ends is not None and ends >= hand:
        relaxed = argument == "one-device relaxation"
        row["why"] = f"{TIE_RELAXATION if relaxed else TIE_ENDS} ({RELAXATION_SECONDS if relaxed else ENDS_SECONDS} s)"
        return row
    raised = (f"; the {argument or 'exact ends'} bound proves >= {ends}"
              if ends is not None and row["bound"] != "-" and ends > row["bound"] else "")
    if os.path.exists(proof):
        os.remove(proof)
    args = [tessel, "search", "--placement", placement, "--memory", row["hand_peak_memory"], "--strategy", "full",
            "--nmicros", str(row["search_nmicros"]), "--total-micros", str(row["search_nmicros"]), "--json",
            "--quiet", "--threads", "1", "--time-limit", str(PROOF_SECONDS), "-o", proof]
    code, stdout, stderr, _ = paperlib.run(args, PROOF_SECONDS + 120)
    if code == 2 and "too many for strategy full" in stderr:
        row["why"] = ("not decided: no shorter schedule and no proof; too large for the full solver (its encoding "
                      "would not fit in memory)" + raised)
        return row
    answer = json.loads(stdout) if code in (0, 3) and stdout.strip().startswith("{") else {}
    found = answer.get("makespan_at_total")
    if found is not None and os.path.exists(proof):
        report = paperlib.verify(tessel, proof)
        if report is None or not report["valid"] or report["makespan"] != found:
            found = None  # not counted: the verifier did not confirm it
    if found == hand and answer.get("makespan_proven_optimal"):
        row["why"] = f"{TIE_PROVEN} ({PROOF_SECONDS} s)"
    elif found is not None and found < hand:
        row["why"] = (f"not decided: the full solver ({PROOF_SECONDS} s) finds {found} (verified), shorter than the "
                      "hand-made one; the default search misses it" + raised)
    else:
        floor = answer.get("proven_lower_bound")
        row["why"] = (f"not decided: no shorter schedule and no proof; the full solver did not decide it in "
                      f"{PROOF_SECONDS} s" + (f" (it proves >= {floor})" if floor and row["bound"] != "-" and floor > row["bound"] else "")
                      + raised)
    return row


# ---------------------------------------------------------------------------
# Tables and the picture.

def row_file(out, name):
    return os.path.join(out, "schedules-local", KEY, name, "row.json")


def totals(rows):
    compared = [r for r in rows if r["status"] == "compared"]
    return {
        "rows": len(rows),
        "compared": len(compared),
        "skipped": sum(r["status"] == "skipped" for r in rows),
        "errors": sum(r["status"] == "error" for r in rows),
        "no_schedule": sum(r["status"] == "no schedule" for r in rows),
        "missing": sum(r["status"] == "not run" for r in rows),
        "tessel_shorter": sum(r["verdict"] == "<" for r in compared),
        "equal": sum(r["verdict"] == "=" for r in compared),
        "equal_at_bound": sum(r["verdict"] == "=" and r.get("why") == TIE_AT_BOUND for r in compared),
        "equal_proven": sum(r["verdict"] == "=" and str(r.get("why")).startswith(PROVEN) for r in compared),
        "tessel_longer": sum(r["verdict"] == ">" for r in compared),
        "search_timeouts": sum(r["search_status"] == "timeout" for r in rows),
        "invalid_schedules": sum(r["valid"] is False for r in rows),
        "geomean_ratio": geomean_text([float(r["ratio"]) for r in compared]),
    }


def geomean_text(values):
    mean = paperlib.geometric_mean(values)
    return f"{mean:.4f}" if mean else "-"


def markdown(rows, time_limit, seconds):
    t = totals(rows)
    lines = ["## (g) Search against the hand-made schedules", "",
             "For each `tessel generate` scheme, stages S, micro-batches N and spans (F forward, B input-gradient "
             "backward, W weight gradient; the DeepSeek schemes get B as their I): the hand-made schedule "
             "(`tessel generate SCHEME --stages S --nmicros N --span ... --placement-out`) judged by `tessel verify`, "
             "then `tessel search --placement ... --memory <the hand-made peak of every device> --total-micros N "
             f"--threads 1 --time-limit {time_limit} --tune shift_share={SHIFT_SHARE} --tune transfer_share={TRANSFER_SHARE} --tune order_share={ORDER_SHARE} --tune lns_share={LNS_SHARE}`, its schedule (unrolled to N when it is a repetend) judged by "
             "`tessel verify`. dualpipe holds N/2 micro-batch pairs, so its search runs with N/2. Bound: the "
             "search's lower bound on the makespan at N; gap = tessel - bound. Verdict: tessel's makespan "
             "`<`, `=` or `>` the hand-made one. Seconds: the search process's wall time.", "",
             f"**Totals: {t['rows']} rows, {t['compared']} compared: tessel shorter on {t['tessel_shorter']}, "
             f"equal on {t['equal']} ({t['equal_at_bound']} at the bound, {t['equal_proven']} proven optimal by the "
             f"proof pass, {t['equal'] - t['equal_at_bound'] - t['equal_proven']} not decided), longer on "
             f"{t['tessel_longer']}; {t['no_schedule']} without a tessel "
             f"schedule, {t['skipped']} skipped (the scheme refuses the size), {t['errors']} errors, "
             f"{t['invalid_schedules']} schedules failing the verifier"
             f"{', ' + str(t['missing']) + ' not run' if t['missing'] else ''}. Geometric-mean makespan ratio "
             f"tessel / hand-made: {t['geomean_ratio']}.** Search time limit {time_limit} s per row "
             f"({t['search_timeouts']} rows reached it); the run took {seconds}.", "",
             "![makespan ratio](plots/g_handmade_ratio.svg)", "", "### Where tessel loses", ""]
    losses = [r for r in rows if r["verdict"] == ">"]
    if not losses:
        lines.append("Nowhere: on every compared row tessel's makespan is at most the hand-made one.")
    else:
        lines += ["Losses by the reason the search gives, and by scheme:", ""]
        classes = [{"class": loss_class(r["reason"])} for r in losses]
        lines += table(counted(classes, "class"), ["key", "count"], ["reason (grouped)", "rows"]) + [""]
        lines += table(counted(losses, "scheme"), ["key", "count"], ["scheme", "rows lost"]) + ["", "Every loss:", ""]
        lines += table(losses, ["name", "hand_makespan", "tessel_makespan", "bound", "search_status", "reason"],
                       ["row", "hand-made", "tessel", "bound", "search", "reason"])
    lines += ["", "### Ties: why not strictly shorter", ""]
    ties = [r for r in rows if r["verdict"] == "="]
    lines += ["Every row where tessel equals the hand-made makespan, by the reason (`why` in the CSV and below): "
              "at the bound, the hand-made schedule is optimal; where the full search from the best candidate "
              "proved every shorter makespan impossible, or the proof pass on every tie the search left undecided "
              f"did (the search again with the exact ends bound given {ENDS_SECONDS} s and the one-device "
              f"relaxation {RELAXATION_SECONDS} s, `--tune ends_seconds={ENDS_SECONDS} --tune "
              f"relaxation_seconds={RELAXATION_SECONDS}` and the improvements off, then the full solver, "
              "`search --strategy full`, "
              f"{PROOF_SECONDS} s), it is optimal too; otherwise "
              "the row says what the full solver found (a shorter schedule the default search misses, verified, "
              "or nothing within its time) and the bound the solved bounds proved when above the search's.", ""]
    lines += table(counted([{"class": tie_class(r.get("why", "-"))} for r in ties], "class"), ["key", "count"],
                   ["why", "rows"]) + [""]
    left = [r for r in ties if undecided(r)]
    if left:
        lines += table(counted(left, "scheme"), ["key", "count"], ["scheme", "ties not decided"]) + [""]
    skipped = [r for r in rows if r["status"] in ("skipped", "error")]
    if skipped:
        lines += ["", "### Skipped and errors", ""]
        lines += table(skipped, ["name", "status", "reason"], ["row", "status", "reason"])
    lines += ["", "### Every row", ""]
    lines += table(rows, ["scheme", "stages", "nmicros", "spans", "hand_makespan", "tessel_makespan", "bound",
                          "gap", "gap_percent", "verdict", "why", "shape", "construction", "wall_seconds", "valid"],
                   ["scheme", "S", "N", "spans", "hand-made", "tessel", "bound", "gap", "gap %", "verdict",
                    "why not shorter", "shape", "construction", "seconds", "verified"])
    return "\n".join(lines) + "\n"


# The search's own gap reasons, grouped by what they say, the more basic cause first (the
# rows keep the whole text).
LOSS_CLASSES = [
    ("time limit", "time limit reached"),
    ("> L =", "the shortest repetend's period is above L; the hand-made schedule is not bound by a period"),
    ("boundary shortening ran out of its budget", "warmup/cooldown not proven minimal: the boundary budget "
     "(--tune boundary_seconds) ran out"),
    ("proven minimal around this repetend", "warmup/cooldown proven minimal around the repetend found; a "
     "different repetend or a non-periodic schedule (as the hand-made one) is shorter"),
]


def tie_class(why):
    if why == TIE_AT_BOUND or why.startswith(PROVEN):
        return TIE_AT_BOUND if why == TIE_AT_BOUND else next(p for p in PROVEN if why.startswith(p))
    if "finds" in why and "shorter than the hand-made" in why:
        return "not decided: the full solver finds a shorter schedule the default search misses"
    if "did not decide it" in why:
        return "not decided: neither the search nor the full solver (its time limit) decided it"
    if "too large for the full solver" in why:
        return "not decided: no shorter schedule found; too large for the full solver"
    return "not decided (no shorter schedule, no proof; the search's reason per row)"


def loss_class(reason):
    for words, text in LOSS_CLASSES:
        if words in reason:
            return text
    return "no reason given by the search (its gap to its bound is within 1%)"


def counted(rows, key):
    """[{key, count}] of the values of `key` among `rows`, most frequent first."""
    counts = {}
    for r in rows:
        counts[r[key]] = counts.get(r[key], 0) + 1
    return [{"key": k, "count": n} for k, n in sorted(counts.items(), key=lambda kv: -kv[1])]


def table(rows, keys, header):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        lines.append("| " + " | ".join(paperlib.cell(r[k]).replace("|", "/") for k in keys) + " |")
    return lines


def write_outputs(out, rows, time_limit, seconds):
    with open(os.path.join(out, KEY + ".csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        for r in rows:
            writer.writerow({c: paperlib.cell(r[c]) for c in COLUMNS})
    with open(os.path.join(out, KEY + ".md"), "w") as f:
        f.write(markdown(rows, time_limit, seconds))
    with open(os.path.join(out, KEY + ".summary.json"), "w") as f:
        json.dump(totals(rows), f, indent=1)
    import plots  # noqa: E402 (the picture helpers; plots.py imports nothing of ours back)
    os.makedirs(os.path.join(out, "plots"), exist_ok=True)
    plots.plot_ratio(rows, os.path.join(out, "plots", "g_handmade_ratio.svg"))
    bad = [r["name"] for r in rows if r["valid"] is False]
    if bad:
        paperlib.log(f"paper: {KEY}: schedules FAILING the verifier: {', '.join(bad)}")
    return 1 if bad else 0


def collect(out, selected, time_limit, seconds):
    rows = []
    for config in selected:
        path = row_file(out, config["name"])
        if os.path.exists(path):
            with open(path) as f:
                rows.append(json.load(f))
        else:
            row = new_row(config)
            row.update(status="not run", reason="no result file (row not run)")
            rows.append(row)
    return write_outputs(out, rows, time_limit, seconds)


# ---------------------------------------------------------------------------

def option(argv, name, default):
    return argv[argv.index(name) + 1] if name in argv else default


def main(argv):
    quick, out = paperlib.parse_args(argv)
    selected = [c for c in configs() if c["quick"] or not quick]
    time_limit = option(argv, "--time-limit", str(10 if quick else TIME_LIMIT))
    if not time_limit.isdigit() or int(time_limit) == 0:
        paperlib.log(f"exp_g_handmade: --time-limit needs a whole number of seconds >= 1, not {time_limit!r}")
        return 2
    time_limit = int(time_limit)
    if "--list" in argv:
        print("\n".join(f"{KEY}/{c['name']}" for c in selected))
        return 0
    os.makedirs(out, exist_ok=True)
    if "--collect" in argv:
        return collect(out, selected, time_limit, option(argv, "--seconds", "-"))
    if "--list-undecided" in argv:
        for config in selected:
            path = row_file(out, config["name"])
            if os.path.exists(path):
                with open(path) as f:
                    if undecided(json.load(f)):
                        print(f"{KEY}/{config['name']}")
        return 0
    tessel = paperlib.tessel_binary()
    if "--prove" in argv:
        name = option(argv, "--prove", "").split("/")[-1]
        path = row_file(out, name)
        if not os.path.exists(path):
            paperlib.log(f"exp_g_handmade: no result for row {name!r} in {out} (run it with --row first)")
            return 2
        with open(path) as f:
            row = json.load(f)
        if undecided(row):
            row = prove_tie(tessel, row, out)
            with open(path, "w") as f:
                json.dump(row, f)
        paperlib.log(f"paper: {name}: {row.get('why', '-')}")
        return 0
    if "--row" in argv:
        name = option(argv, "--row", "").split("/")[-1]  # KEY/NAME as --list prints it, or NAME
        config = next((c for c in configs() if c["name"] == name), None)
        if config is None:
            nearest = difflib.get_close_matches(name, [c["name"] for c in configs()], 1)
            paperlib.log(f"exp_g_handmade: no row {name!r}"
                         + (f" (did you mean {KEY}/{nearest[0]}?)" if nearest else " (see --list)"))
            return 2
        selected = [config]
    start = time.monotonic()
    row = None
    for i, config in enumerate(selected, 1):
        paperlib.log(f"paper: [{KEY} {i}/{len(selected)}] {config['name']}")
        row = run_row(tessel, config, out, time_limit)
        with open(row_file(out, config["name"]), "w") as f:
            json.dump(row, f)
        paperlib.log(f"paper:   -> {row['status']}: hand-made {row['hand_makespan']}, tessel {row['tessel_makespan']} "
                     f"({row['verdict']}), {row['wall_seconds']} s")
    if "--row" in argv:
        return 1 if row["valid"] is False else 0
    return collect(out, selected, time_limit, f"{time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
