#!/usr/bin/env python3
"""Experiment (d): the naive full search — all micro-batches at once, no
repetend — with 1, 2, 4 and 6 micro-batches, memory 16, 4 devices (reference
suite d). Both sides minimise the makespan of the whole problem."""
import sys
import paperlib


def configs():
    out = []
    for placement in ("mshape", "nnshape", "vshape"):
        for n in (1, 2, 4, 6):
            out.append(dict(suite="d", name=f"{placement}-d4-mem16-n{n}", placement=placement, ndevs=4,
                            memory=16, nmicros=n, ref_nmicros=n, strategy="full",
                            quick=(n <= 2 and placement == "vshape")))
    return out


if __name__ == "__main__":
    sys.exit(paperlib.run_experiment(
        "d_full", "(d) Naive full search: 1, 2, 4, 6 micro-batches, memory 16",
        "Ours: `tessel search --strategy full --nmicros N --backend cadical` (minimal makespan, proven "
        "when the bound below it is decided); Python: its full search, time limit 300 s.",
        configs(), time_limit=60, full=True))
