#!/usr/bin/env python3
"""Experiment (b): the ablation over the micro-batches in the repetend, 1-6,
memory 16, 4 devices (reference suite b). The Python Tessel's n is the number
of micro-batches its repetend window spans; ours is `--nmicros K`, the most
micro-batches in flight of the modulo schedule — the nearest knob: both bound
how far apart in micro-batch index the blocks of one window may be."""
import sys
import paperlib

PLACEMENTS = ["kshape", "mshape", "nnshape", "vshape", "xshape"]


def configs():
    out = []
    for placement in PLACEMENTS:
        for n in range(1, 7):
            out.append(dict(suite="b", name=f"{placement}-d4-mem16-k{n}", placement=placement, ndevs=4,
                            memory=16, nmicros=n, ref_nmicros=n, quick=(n in (1, 4) and placement in ("vshape", "mshape"))))
    return out


if __name__ == "__main__":
    sys.exit(paperlib.run_experiment(
        "b_ablation", "(b) Ablation: micro-batches in the repetend, 1-6, memory 16",
        "Ours: `tessel search --nmicros K --backend cadical` (K = the most micro-batches in flight); "
        "Python: `compose_n` with n = K micro-batches in the repetend (time limit 300 s).",
        configs(), time_limit=60, boundary_seconds=10))
