#!/usr/bin/env python3
"""Experiment (c): Tessel-fast's scaling with devices, 4-8 (and 12, 16 for
mshape and nnshape), memory 20 (reference suite c, `compose_fast`). Every
configuration runs twice: our `--strategy fast` (a repetend constructed
without search, the counterpart of the Python Tessel-fast heuristic; its rows
are c_scaling.csv, compared with the reference) and our exact repetend search
(a proven-minimal period; c_scaling_exact.csv). The table of c_scaling.md
puts fast, exact and the Python Tessel-fast side by side."""
import sys
import paperlib

FAST_NOTE = ("Ours fast: `tessel search --strategy fast --backend cadical` (constructed, nothing proven beyond L; "
             "warmup/cooldown shortened by the solver within 1 s). Ours exact: `tessel search --backend cadical` "
             "(repetend strategy, proven-minimal period), time limit 60 s. Python: Tessel-fast "
             "`compose_fast(wc_ratio=(128, 0.05))`, time limit 600 s. Speedup: the Python Tessel-fast's time / our "
             "fast's wall time. nnshape needs an even device count (5 and 7 are skipped on our side; the reference "
             "ran D=5).")


def configs(strategy):
    out = []
    for placement, devices in (("vshape", [4, 5, 6, 7, 8]), ("xshape", [4, 5, 6, 7, 8]),
                               ("mshape", [4, 5, 6, 7, 8, 12, 16]), ("nnshape", [4, 6, 8, 12, 16])):
        for d in devices:
            out.append(dict(suite="c", name=f"{placement}-d{d}-mem20", placement=placement, ndevs=d,
                            memory=20, strategy=strategy,
                            quick=(d == 8 and placement in ("vshape", "mshape"))))
    return out


def exact_text(row):
    """The exact search's period with its proven bound, or how it ended."""
    if row is None:
        return "not run"
    if row["status"] == "found":
        return f"{row['period']} (proven >= {row['proven_lower_bound']})"
    if row["status"] == "timeout":
        return f"timeout ({row.get('time_limit', '?')} s): {paperlib.cell(row['period'])}, proven >= " \
               f"{paperlib.cell(row['proven_lower_bound'])}"
    return row["status"]


def scaling_table(title, fast_rows, exact_rows):
    exact_by_name = {r["name"]: r for r in exact_rows}
    lines = paperlib.headline_lines(title, FAST_NOTE, fast_rows)
    both = [(f, exact_by_name.get(f["name"])) for f in fast_rows]
    both = [(f, e) for f, e in both if e is not None and f["status"] == "found" and e["status"] == "found"]
    equal = sum(int(f["period"]) == int(e["period"]) for f, e in both)
    worst = max((int(f["period"]) - int(e["period"]) for f, e in both), default=0)
    at_l = sum(f["status"] == "found" and f["period"] == f["lower_bound"] for f in fast_rows)
    lines += [f"Fast period = L on {at_l} of {len(fast_rows)}; fast period = the exact optimum on {equal} of "
              f"{len(both)} configurations both answered (at most {worst} above it). Exact search: "
              f"{sum(r['status'] == 'found' for r in exact_rows)} found, "
              f"{sum(r['status'] == 'timeout' for r in exact_rows)} timeouts, of {len(exact_rows)}.", ""]
    header = ["configuration", "fast period / L", "fast s", "fast makespan@128 / bound", "exact period",
              "exact s", "Python-fast", "Python-fast period", "Python-fast s", "Python-fast makespan@128",
              "speedup fast vs Python-fast", "verified fast / exact"]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    for f in fast_rows:
        e = exact_by_name.get(f["name"])
        fast_period = (f"{f['period']} / {f['lower_bound']}" if f["status"] == "found"
                       else paperlib.status_text(f))
        cells = [f"{f['placement']} D={f['ndevs']} mem={f['memory']}", fast_period,
                 paperlib.seconds_text(f["wall_seconds"]),
                 f"{paperlib.cell(f['makespan128'])} / {paperlib.cell(f['lb_makespan128'])}",
                 exact_text(e), paperlib.seconds_text(e["wall_seconds"]) if e else "-",
                 paperlib.ref_status_text(f), paperlib.cell(f["ref_period"]), paperlib.seconds_text(f["ref_seconds"]),
                 paperlib.cell(f["ref_makespan128"]), paperlib.cell(f["speedup"]),
                 f"{paperlib.cell(f['valid'])} / {paperlib.cell(e['valid']) if e else '-'}"]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    return "\n".join(lines)


def main():
    title = "(c) Scaling with devices, memory 20"
    fast_rows, out = paperlib.run_rows("c_scaling", configs("fast"), time_limit=60)
    exact_rows, _ = paperlib.run_rows("c_scaling_exact", configs("repetend"), time_limit=60, boundary_seconds=10)
    status = paperlib.write_experiment(out, "c_scaling", fast_rows, scaling_table(title, fast_rows, exact_rows))
    exact_note = ("Our exact repetend search `tessel search --backend cadical` on the configurations of (c), "
                  "time limit 60 s, beside the Python Tessel-fast (a heuristic: its period is not proven).")
    status |= paperlib.write_experiment(out, "c_scaling_exact", exact_rows,
                                        paperlib.markdown_table("(c) exact search on the scaling configurations",
                                                                exact_note, exact_rows))
    return status


if __name__ == "__main__":
    sys.exit(main())
