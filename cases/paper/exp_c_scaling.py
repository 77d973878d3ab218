#!/usr/bin/env python3
"""Experiment (c): Tessel-fast's scaling with devices, 4-8 (and 12, 16 for
mshape and nnshape), memory 20 (reference suite c, `compose_fast`). Our
`--strategy fast` is not implemented, so OUR column is the exact repetend
search (cadical backend) — a proven-minimal period, not a heuristic one."""
import sys
import paperlib


def configs():
    out = []
    for placement, devices in (("vshape", [4, 5, 6, 7, 8]), ("xshape", [4, 5, 6, 7, 8]),
                               ("mshape", [4, 5, 6, 7, 8, 12, 16]), ("nnshape", [4, 6, 8, 12, 16])):
        for d in devices:
            out.append(dict(suite="c", name=f"{placement}-d{d}-mem20", placement=placement, ndevs=d,
                            memory=20, quick=(d == 8 and placement in ("vshape", "mshape"))))
    return out


if __name__ == "__main__":
    sys.exit(paperlib.run_experiment(
        "c_scaling", "(c) Scaling with devices, memory 20",
        "Ours: exact repetend search `tessel search --backend cadical` (our `--strategy fast` is not "
        "implemented); Python: Tessel-fast `compose_fast(wc_ratio=(128, 0.05))`, time limit 600 s. "
        "nnshape needs an even device count (5 and 7 are skipped on our side; the reference ran D=5).",
        configs(), time_limit=60, boundary_seconds=10))
