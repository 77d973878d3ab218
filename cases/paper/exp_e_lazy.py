#!/usr/bin/env python3
"""Experiment (e): the lazy scale — vshape on D devices with D micro-batches
and memory D, D = 4-8 (reference suite e)."""
import sys
import paperlib


def configs():
    return [dict(suite="e", name=f"vshape-d{d}-mem{d}-k{d}", placement="vshape", ndevs=d, memory=d,
                 nmicros=d, ref_nmicros=d, quick=(d == 8)) for d in range(4, 9)]


if __name__ == "__main__":
    sys.exit(paperlib.run_experiment(
        "e_lazy", "(e) Lazy scale: vshape, D devices, D micro-batches, memory D",
        "Ours: `tessel search --nmicros D --backend cadical`; Python: `compose_n` with D micro-batches, "
        "time limit 600 s.",
        configs(), time_limit=60, boundary_seconds=10))
