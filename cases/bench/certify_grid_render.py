#!/usr/bin/env python3
"""Renders cases/bench/certify_grid.md from the rows certify_grid.sh ran.

Each row directory (WORK_DIR/CASE-D-M) holds search.json (tessel search
--json), cert/manifest.json, check.json (tessel check-certificate --json),
the two exit codes and the wall-clock times. A row without `done` is listed
as not finished, with the seconds since it started.
usage: certify_grid_render.py WORK_DIR OUTPUT_MD [EXTRA_WORK_DIR...]
EXTRA_WORK_DIR: rows rerun apart (e.g. with a longer CERTIFY_SECONDS), listed below the grid.
A work directory's COMMIT file names the commit its binary was built from
(else this checkout's HEAD). Environment: EARLIER="DIR=COMMIT,..." takes
a row missing from WORK_DIR from the first such directory that has it
(rows an earlier commit ran whose code is unchanged for them). A
WORK_DIR/NOTES.md is copied under the summary.
"""
import json
import os
import subprocess
import sys
import time

CASES = ["mshape", "nnshape", "xshape", "kshape", "vshape"]
PERIOD_KINDS = ("load", "period")


def rows():
    for d in (4, 8):
        for c in CASES:
            for m in (d // 2, d, 2 * d):
                yield c, d, m


def read(path, default=None):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def claim_solve(claim):
    return claim.get("solve_seconds", 0.0) + sum(e.get("solve_seconds", 0.0) for e in claim.get("ends", []))


def tally(claims, kinds):
    chosen = [c for c in claims if c["kind"] in kinds]
    return sum(1 for c in chosen if c["certified"]), len(chosen)


def row_result(directory):
    """The row's numbers, or None when it has not finished."""
    if not os.path.exists(os.path.join(directory, "done")):
        return None
    search = json.loads(read(os.path.join(directory, "search.json"), "{}") or "{}")
    manifest = json.loads(read(os.path.join(directory, "cert", "manifest.json"), "{}") or "{}")
    check = json.loads(read(os.path.join(directory, "check.json"), "{}") or "{}")
    t0, t1, t2 = (float(x) for x in read(os.path.join(directory, "times")).split())
    claims = manifest.get("claims", [])
    solve = sum(claim_solve(c) for c in claims if c["certified"])
    unsolved = sum(claim_solve(c) for c in claims if not c["certified"])
    checked = sum(c.get("seconds", 0.0) for c in check.get("claims", []))
    return {
        "search_exit": read(os.path.join(directory, "search.exit"), "?"),
        "check_exit": read(os.path.join(directory, "check.exit"), "?"),
        "check_err": read(os.path.join(directory, "check.err"), ""),
        "period": search.get("period", "-"), "k": search.get("micros_per_period", "-"),
        "period_claims": tally(claims, PERIOD_KINDS), "latency_claims": tally(claims, ("latency",)),
        "makespan_claims": tally(claims, ("makespan",)),
        "solve": solve, "unsolved": unsolved, "check": checked, "search_wall": t1 - t0, "check_wall": t2 - t1,
        "not_certified": [(c["claim"], c.get("reason", "")) for c in claims if not c["certified"]],
        "claims": claims,
        # (check s, solve s, claim) of each certified claim, in the manifest's order (check.json keeps it)
        "pairs": [(k.get("seconds", 0.0), claim_solve(c), c["claim"])
                  for c, k in zip(claims, check.get("claims", [])) if c["certified"]],
    }


def commit(work=None):
    if work and read(os.path.join(work, "COMMIT")):
        return read(os.path.join(work, "COMMIT"))
    here = os.path.dirname(os.path.abspath(__file__))
    done = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def fraction(pair):
    return f"{pair[0]}/{pair[1]}"


def ratio(r):
    return f"{r['check'] / r['solve']:.1f}" if r["solve"] > 0 else "-"


def earlier_dirs():
    pairs = [item.split("=", 1) for item in os.environ.get("EARLIER", "").split(",") if "=" in item]
    return [(directory, sha) for directory, sha in pairs]


def row_line(c, d, m, r, sha):
    reasons = "; ".join(f"{claim}: {reason}" for claim, reason in r["not_certified"]) or "-"
    return (f"| {c} | {d} | {m} | {sha} | {r['search_exit']} | {r['period']} | {r['k']} | "
            f"{fraction(r['period_claims'])} | {fraction(r['latency_claims'])} | "
            f"{fraction(r['makespan_claims'])} | {r['solve']:.2f} | {r['unsolved']:.2f} | {r['check']:.2f} | "
            f"{ratio(r)} | {r['check_exit']} | {r['search_wall']:.0f} | {r['check_wall']:.0f} | {reasons} |")


def summary(results, unfinished):
    done = [r for r in results.values() if r]
    period = [sum(r["period_claims"][i] for r in done) for i in (0, 1)]
    latency = [sum(r["latency_claims"][i] for r in done) for i in (0, 1)]
    makespan = [sum(r["makespan_claims"][i] for r in done) for i in (0, 1)]
    timed = [(key, r) for key, r in results.items() if r and r["solve"] >= 1.0]
    lines = [f"- Rows finished: {len(done)} of {len(results)}."
             + (f" Not finished: {', '.join(unfinished)}." if unfinished else "")]
    lines.append(f"- Period claims (load bounds and refuted periods, every window k the answer rests on): "
                 f"{period[0]} of {period[1]} certified; latency claims {latency[0]} of {latency[1]}; "
                 f"makespan claims {makespan[0]} of {makespan[1]}.")
    if timed:
        key, worst = max(timed, key=lambda kr: kr[1]["check"] / kr[1]["solve"])
        lines.append(f"- Worst check/solve ratio among rows solving >= 1 s: {ratio(worst)} ({key}: "
                     f"{worst['check']:.1f} s checking, {worst['solve']:.1f} s solving with proof).")
    pairs = [(key, p) for key, r in results.items() if r for p in r["pairs"] if p[1] >= 1.0]
    if pairs:
        key, (check, solve, claim) = max(pairs, key=lambda kp: kp[1][0] / kp[1][1])
        lines.append(f"- Worst check/solve ratio of one claim solving >= 1 s: {check / solve:.1f} ({key}, {claim}: "
                     f"{check:.1f} s checking, {solve:.1f} s solving with proof).")
    every = [(key, r) for key, r in results.items() if r and r["solve"] > 0]
    if every:
        key, worst = max(every, key=lambda kr: kr[1]["check"] / kr[1]["solve"])
        lines.append(f"- Worst ratio over all rows: {ratio(worst)} ({key}, {worst['check']:.2f} s vs "
                     f"{worst['solve']:.2f} s: fixed costs dominate tiny solves).")
    bad_exit = [key for key, r in results.items() if r and r["check_exit"] != "0"]
    lines.append("- check-certificate exit: " + ("0 on every finished row." if not bad_exit else
                 "not 0 on " + ", ".join(f"{k} ({results[k]['check_exit']})" for k in bad_exit) + "."))
    for key, r in results.items():
        for claim, reason in (r or {}).get("not_certified", []):
            lines.append(f"- Not certified, {key}: {claim}: {reason}")
    return lines


def main():
    work, output = sys.argv[1], sys.argv[2]
    results, unfinished, table, shas, rerun = {}, [], [], set(), []
    for c, d, m in rows():
        key = f"{c} {d}/{m}"
        directory, sha = os.path.join(work, f"{c}-{d}-{m}"), commit(work)
        r = row_result(directory)
        for earlier, earlier_sha in earlier_dirs() if r is None else []:
            r = row_result(os.path.join(earlier, f"{c}-{d}-{m}"))
            if r:
                if os.path.exists(directory):
                    rerun.append(f"{key} (on {sha}, started, not finished; the row is {earlier_sha}'s)")
                directory, sha = os.path.join(earlier, f"{c}-{d}-{m}"), earlier_sha
                break
        results[key] = r
        if r is None:
            started = read(os.path.join(directory, "started"))
            spent = f"not finished after {time.time() - float(started):.0f} s" if started else "not run"
            unfinished.append(f"{key} ({spent})")
            table.append(f"| {c} | {d} | {m} | {sha} | {spent} |" + " |" * 13)
            continue
        shas.add(sha)
        table.append(row_line(c, d, m, r, sha))
    out = ["# Certificates of the paper's cases (cases/bench/certify_grid.sh)", "",
           f"Rendered {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} from {work}"
           + "".join(f" and {e}" for e, _ in earlier_dirs()) + f"; rows ran on commits {', '.join(sorted(shas))} "
           "(the commit column); command: `cases/bench/certify_grid.sh build/tessel WORK_DIR` (rows may run in "
           "pieces, see its header).", ""]
    out += summary(results, unfinished)
    notes = read(os.path.join(work, "NOTES.md"))  # what the runner noted about this run (load, rows stopped)
    if notes:
        out += ["", notes]
    if rerun:
        out.append("- Rows rerun on a newer commit that did not finish (their earlier results shown): "
                   + ", ".join(rerun) + ".")
    header = ("| case | D | memory | commit | search exit | period | k | period claims | latency claims | "
              "makespan claims | CaDiCaL s | CaDiCaL s, not certified | check s | check/solve | check exit | "
              "search wall s | check wall s | not certified: why |")
    out += ["", "Each row: `tessel search --case C --ndevs D --memory M --certify DIR --threads 1` (default "
            "--certify-seconds), then `tessel check-certificate DIR --json`. Period claims are the load bounds and "
            "refuted periods of every window k the answer rests on; certified counts are certified/listed. "
            "CaDiCaL s: the manifest's solve_seconds of the certified claims summed (with the DRAT proof written, "
            "ends included); CaDiCaL s, not certified: the same of the claims not certified (each ran out of "
            "--certify-seconds; manifests of commits before 'solve_seconds for every claim' keep none for a "
            "makespan claim); check s: the checker's per-claim seconds summed; check/solve: check s over CaDiCaL s "
            "of the certified claims; wall: whole commands, search included.", "", header, "|" + "---|" * 18]
    out += table
    for extra in sys.argv[3:]:  # rows rerun with another --certify-seconds (CERTIFY_SECONDS), beside the grid
        out += ["", f"Rows rerun in {extra} (see its CERTIFY_SECONDS in the search's command line):", "",
                header, "|" + "---|" * 18]
        for name in sorted(os.listdir(extra)):
            if name.count("-") != 2:
                continue
            r = row_result(os.path.join(extra, name))
            c, d, m = name.split("-")
            if r is None:
                started = read(os.path.join(extra, name, "started"))
                spent = f"not finished after {time.time() - float(started):.0f} s" if started else "not run"
                out.append(f"| {c} | {d} | {m} | {commit(extra)} | {spent} |" + " |" * 13)
                continue
            out.append(row_line(c, d, m, r, commit(extra)))
    with open(output, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
