#!/usr/bin/env python3
"""The pictures of papers/: search time against devices (log scale, one line
per tool and placement), the makespan gap to the lower bound at 128
micro-batches, the makespan ratio tessel / hand-made of (g), and the
timeline of every schedule of the paper table (the `tessel export --to svg`
picture). Hand-written SVG from the experiment
CSVs, so no plotting library is needed."""
import csv
import math
import os
import subprocess
import sys

import paperlib

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]


def read_rows(out, key):
    path = os.path.join(out, key + ".csv")
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def escape(text):
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# ---------------------------------------------------------------------------
# Search time against devices.

def time_series(out):
    """{label: [(devices, seconds, answered)]}: ours and the Python Tessel on (c), and the lazy scale."""
    series = {}
    for key, label in (("c_scaling", "ours fast"), ("c_scaling_exact", "ours exact")):
        for row in read_rows(out, key):
            d = int(row["ndevs"])
            series.setdefault(f"{label} {row['placement']} (c, mem 20)", []).append(
                (d, number(row["wall_seconds"]), row["status"] == "found"))
    # The Python side straight from the reference, including device counts we do not run (odd nnshape).
    for (suite, placement, d, _, _, _), ref in paperlib.load_reference().items():
        if suite != "c":
            continue
        if ref["status"] == "found":
            series.setdefault(f"Python-fast {placement} (c, mem 20)", []).append((d, number(ref["search_time_s"]), True))
        elif ref["status"] == "timeout":
            series.setdefault(f"Python-fast {placement} (c, mem 20)", []).append((d, number(ref["timeout_s"]), False))
    for key in ("e_lazy", "f_beyond"):
        for row in read_rows(out, key):
            if row["placement"] != "vshape" or int(row["ndevs"]) == 4 and key == "f_beyond":
                continue
            if int(row["memory"]) != int(row["ndevs"]):
                continue
            d = int(row["ndevs"])
            series.setdefault("ours vshape (e, mem D)", []).append(
                (d, number(row["wall_seconds"]), row["status"] == "found"))
            if key == "e_lazy":
                if row["ref_status"] == "found":
                    series.setdefault("Python vshape (e, mem D)", []).append((d, number(row["ref_seconds"]), True))
                elif row["ref_status"] == "timeout":
                    series.setdefault("Python vshape (e, mem D)", []).append((d, number(row["ref_timeout_s"]), False))
    return {k: sorted(p for p in v if p[1] is not None) for k, v in series.items() if v}


def log_ticks(lo, hi):
    first = math.floor(math.log10(lo))
    last = math.ceil(math.log10(hi))
    return [10.0 ** e for e in range(first, last + 1)]


def plot_time(out, path):
    series = time_series(out)
    if not series:
        return False
    width, height, left, right, top, bottom = 900, 520, 70, 300, 40, 50
    plot_w, plot_h = width - left - right, height - top - bottom
    xs = sorted({p[0] for s in series.values() for p in s})
    ys = [p[1] for s in series.values() for p in s]
    y_ticks = log_ticks(max(min(ys), 1e-3), max(ys))
    y_lo, y_hi = math.log10(y_ticks[0]), math.log10(y_ticks[-1])
    x_lo, x_hi = math.log2(xs[0]), math.log2(xs[-1])

    def x_of(d):
        return left + (math.log2(d) - x_lo) / max(x_hi - x_lo, 1e-9) * plot_w

    def y_of(s):
        return top + plot_h - (math.log10(max(s, y_ticks[0])) - y_lo) / (y_hi - y_lo) * plot_h

    parts = [svg_open(width, height),
             f'<text x="{left}" y="24" font-size="16" font-weight="bold">Search time against devices '
             f'(log-log; x = gave up at the time limit)</text>']
    for t in y_ticks:
        y = y_of(t)
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" font-size="12" text-anchor="end">{t:g} s</text>')
    for d in xs:
        x = x_of(d)
        parts.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + plot_h}" stroke="#eee"/>')
        parts.append(f'<text x="{x:.1f}" y="{top + plot_h + 18}" font-size="12" text-anchor="middle">{d}</text>')
    parts.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#000"/>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{height - 10}" font-size="13" text-anchor="middle">devices</text>')
    parts.append(f'<text x="18" y="{top + plot_h / 2}" font-size="13" text-anchor="middle" '
                 f'transform="rotate(-90 18 {top + plot_h / 2})">search time (s)</text>')
    for i, (label, points) in enumerate(sorted(series.items(), key=lambda kv: kv[0].split(" ", 1)[::-1])):
        colour = PALETTE[sorted({l.split(" ", 1)[1] for l in series}).index(label.split(" ", 1)[1]) % len(PALETTE)]
        dash = "" if label.startswith("ours") else ' stroke-dasharray="6 4"'
        coords = " ".join(f"{x_of(d):.1f},{y_of(s):.1f}" for d, s, _ in points)
        parts.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        for d, s, answered in points:
            x, y = x_of(d), y_of(s)
            if answered:
                parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colour}"/>')
            else:
                parts.append(f'<path d="M{x - 5:.1f},{y - 5:.1f}L{x + 5:.1f},{y + 5:.1f}M{x - 5:.1f},{y + 5:.1f}'
                             f'L{x + 5:.1f},{y - 5:.1f}" stroke="{colour}" stroke-width="2.5"/>')
        ly = top + 10 + i * 20
        lx = left + plot_w + 16
        parts.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 30}" y2="{ly}" stroke="{colour}" stroke-width="2"{dash}/>')
        parts.append(f'<text x="{lx + 36}" y="{ly + 4}" font-size="12">{escape(label)}</text>')
    parts.append("</svg>")
    write(path, parts)
    return True


# ---------------------------------------------------------------------------
# Makespan gap to the bound at 128 micro-batches.

def gap_rows(out):
    """[(label, ours gap %, Python gap %)] for the paper table and the scaling runs."""
    rows = []
    for key in ("a_paper_table", "c_scaling"):
        for row in read_rows(out, key):
            bound = number(row["lb_makespan128"])
            if not bound:
                continue
            # A timed-out search's best-so-far schedule is not a result: show it as "none".
            ours = number(row["makespan128"]) if row["status"] == "found" else None
            theirs = number(row["ref_makespan128"])
            label = f"{row['placement']} D={row['ndevs']} mem={row['memory']}{' infer' if row['infer'] == 'yes' else ''}"
            rows.append((label, None if ours is None else 100 * (ours - bound) / bound,
                         None if theirs is None else 100 * (theirs - bound) / bound))
    return rows


def plot_gap(out, path):
    rows = gap_rows(out)
    if not rows:
        return False
    bar, gap, left, top, right = 9, 8, 190, 50, 60
    width = 900
    height = top + len(rows) * (2 * bar + gap) + 50
    plot_w = width - left - right
    values = [v for _, a, b in rows for v in (a, b) if v is not None]
    top_value = max(max(values, default=1.0), 1.0)
    step = next(s for s in (0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500) if top_value / s <= 10)
    top_value = math.ceil(top_value / step) * step

    def x_of(v):
        return left + v / top_value * plot_w

    parts = [svg_open(width, height),
             '<text x="10" y="22" font-size="16" font-weight="bold">Makespan at 128 micro-batches above the '
             'lower bound (%) — ours vs the Python Tessel</text>',
             f'<rect x="{left}" y="{top - 14}" width="12" height="10" fill="{PALETTE[0]}"/>'
             f'<text x="{left + 16}" y="{top - 5}" font-size="12">ours</text>',
             f'<rect x="{left + 70}" y="{top - 14}" width="12" height="10" fill="{PALETTE[1]}"/>'
             f'<text x="{left + 86}" y="{top - 5}" font-size="12">Python Tessel ("none": no schedule found '
             f'in time, or not run)</text>']
    v = 0
    while v <= top_value + 1e-9:
        x = x_of(v)
        parts.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - 40}" stroke="#ddd"/>')
        parts.append(f'<text x="{x:.1f}" y="{height - 25}" font-size="12" text-anchor="middle">{v:g}%</text>')
        v += step
    for i, (label, ours, theirs) in enumerate(rows):
        y = top + i * (2 * bar + gap)
        parts.append(f'<text x="{left - 6}" y="{y + bar + 4}" font-size="12" text-anchor="end">{escape(label)}</text>')
        for j, (value, colour) in enumerate(((ours, PALETTE[0]), (theirs, PALETTE[1]))):
            yy = y + j * bar
            if value is None:
                parts.append(f'<text x="{left + 4}" y="{yy + bar - 1}" font-size="9" fill="{colour}">none</text>')
                continue
            w = max(x_of(value) - left, 1.5)
            parts.append(f'<rect x="{left}" y="{yy}" width="{w:.1f}" height="{bar - 1}" fill="{colour}"/>')
            parts.append(f'<text x="{left + w + 3:.1f}" y="{yy + bar - 1}" font-size="9">{value:.1f}</text>')
    parts.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - 40}" stroke="#000"/>')
    parts.append("</svg>")
    write(path, parts)
    return True


# ---------------------------------------------------------------------------
# (g): makespan ratio tessel / hand-made, one dot per compared row.

def plot_ratio(rows, path):
    """Dots grouped by scheme (in table order), colour by stages; the line at 1 is the hand-made makespan."""
    compared = [r for r in rows if r["status"] == "compared"]
    if not compared:
        return False
    schemes = list(dict.fromkeys(r["scheme"] for r in rows))
    stages = sorted({int(r["stages"]) for r in rows})
    width, height, left, right, top, bottom = 1000, 460, 70, 130, 40, 110
    plot_w, plot_h = width - left - right, height - top - bottom
    ratios = [float(r["ratio"]) for r in compared]
    lo, hi = min(min(ratios), 1.0), max(max(ratios), 1.0)
    pad = max(hi - lo, 0.02) * 0.08
    lo, hi = lo - pad, hi + pad
    slot = plot_w / max(len(rows), 1)

    def y_of(v):
        return top + plot_h - (v - lo) / (hi - lo) * plot_h

    parts = [svg_open(width, height),
             f'<text x="{left}" y="24" font-size="16" font-weight="bold">(g) Makespan tessel / hand-made per row '
             f'(below 1: tessel shorter)</text>',
             f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#000"/>']
    for i in range(6):
        v = lo + (hi - lo) * i / 5
        parts.append(f'<line x1="{left}" y1="{y_of(v):.1f}" x2="{left + plot_w}" y2="{y_of(v):.1f}" stroke="#eee"/>')
        parts.append(f'<text x="{left - 6}" y="{y_of(v) + 4:.1f}" font-size="11" text-anchor="end">{v:.3f}</text>')
    parts.append(f'<line x1="{left}" y1="{y_of(1):.1f}" x2="{left + plot_w}" y2="{y_of(1):.1f}" stroke="#000" '
                 f'stroke-dasharray="5 3"/>')
    index = {r["name"]: i for i, r in enumerate(rows)}
    for scheme in schemes:
        members = [index[r["name"]] for r in rows if r["scheme"] == scheme]
        x0, x1 = left + members[0] * slot, left + (members[-1] + 1) * slot
        parts.append(f'<line x1="{x1:.1f}" y1="{top}" x2="{x1:.1f}" y2="{top + plot_h}" stroke="#ccc"/>')
        xm = (x0 + x1) / 2
        parts.append(f'<text x="{xm:.1f}" y="{top + plot_h + 12}" font-size="11" text-anchor="end" '
                     f'transform="rotate(-40 {xm:.1f} {top + plot_h + 12})">{escape(scheme)}</text>')
    for r in compared:
        colour = PALETTE[stages.index(int(r["stages"])) % len(PALETTE)]
        x = left + (index[r["name"]] + 0.5) * slot
        parts.append(f'<circle cx="{x:.1f}" cy="{y_of(float(r["ratio"])):.1f}" r="2.5" fill="{colour}">'
                     f'<title>{escape(r["name"])}: {r["tessel_makespan"]} / {r["hand_makespan"]}</title></circle>')
    for i, s in enumerate(stages):
        ly = top + 10 + i * 20
        parts.append(f'<circle cx="{left + plot_w + 20}" cy="{ly}" r="4" fill="{PALETTE[i % len(PALETTE)]}"/>'
                     f'<text x="{left + plot_w + 30}" y="{ly + 4}" font-size="12">S = {s}</text>')
    parts.append(f'<text x="18" y="{top + plot_h / 2}" font-size="13" text-anchor="middle" '
                 f'transform="rotate(-90 18 {top + plot_h / 2})">makespan ratio</text>')
    parts.append("</svg>")
    write(path, parts)
    return True


# ---------------------------------------------------------------------------

def svg_open(width, height):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif">'
            f'<rect width="{width}" height="{height}" fill="#fff"/>')


def write(path, parts):
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def timelines(out):
    """The SVG export of every schedule behind the paper table."""
    tessel = paperlib.tessel_binary()
    source = os.path.join(out, "schedules", "a_paper_table")
    target = os.path.join(out, "timelines")
    os.makedirs(target, exist_ok=True)
    made = []
    for name in sorted(os.listdir(source)) if os.path.isdir(source) else []:
        if not name.endswith(".json"):
            continue
        svg = os.path.join(target, name[:-5] + ".svg")
        code, _, err, _ = paperlib.run([tessel, "export", "--to", "svg", os.path.join(source, name), "-o", svg], 120)
        if code != 0:
            paperlib.log(f"paper: export {name} failed: {err.strip()}")
            continue
        made.append(svg)
    return made


def main(argv):
    _, out = paperlib.parse_args(argv)
    plots = os.path.join(out, "plots")
    os.makedirs(plots, exist_ok=True)
    made = []
    if plot_time(out, os.path.join(plots, "search_time.svg")):
        made.append("search_time.svg")
    if plot_gap(out, os.path.join(plots, "makespan_gap.svg")):
        made.append("makespan_gap.svg")
    if plot_ratio(read_rows(out, "g_handmade"), os.path.join(plots, "g_handmade_ratio.svg")):
        made.append("g_handmade_ratio.svg")
    made += timelines(out)
    paperlib.log(f"paper: plots: {len(made)} pictures")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
