#!/usr/bin/env python3
"""Beyond the paper (ours alone, no reference): the lazy scale continued to
16, 32 and 64 devices, bigger placements than the reference ran, windows of
k > 1 micro-batches per period (the Python Tessel searches one), and the
paper's table on the other backend (z3) so both backends stand side by side."""
import sys
import paperlib
import exp_a_paper_table


def configs():
    out = []
    for d in (16, 32, 64):
        out.append(dict(suite="f", name=f"vshape-d{d}-mem{d}", placement="vshape", ndevs=d, memory=d,
                        ours_only=True, quick=(d == 16), time_limit=(30 if d == 64 else 60)))
    for placement, d, memory in (("mshape", 32, 16), ("mshape", 64, 16), ("nnshape", 32, 24),
                                 ("kshape", 16, 16), ("kshape", 32, 16), ("xshape", 16, 20), ("xshape", 32, 20),
                                 ("mshape", 64, 64), ("nnshape", 64, 64), ("xshape", 64, 64), ("kshape", 64, 64)):
        out.append(dict(suite="f", name=f"{placement}-d{d}-mem{memory}", placement=placement, ndevs=d,
                        memory=memory, ours_only=True))
    # Windows of k micro-batches: where the loads do not divide evenly, k = 2
    # beats every one-micro-batch repetend (k = 1 forced beside automatic k).
    for placement, d, memory in (("vshape", 3, 2), ("mshape", 8, 8), ("vshape", 5, 3)):
        for k in (1, 0):
            label = "k1" if k == 1 else "kauto"
            out.append(dict(suite="f", name=f"{placement}-d{d}-mem{memory}-{label}", placement=placement,
                            ndevs=d, memory=memory, micros_per_window=k, ours_only=True,
                            quick=(placement == "vshape" and d == 3)))
    # The scaling runs of (c) on the other backend: z3 against cadical's figures in (c).
    for placement in ("mshape", "nnshape"):
        for d in (4, 6, 8):
            out.append(dict(suite="f", name=f"{placement}-d{d}-mem20-z3", placement=placement, ndevs=d,
                            memory=20, backend="z3", ours_only=True))
    for config in exp_a_paper_table.configs(backend="z3"):
        config = dict(config, suite="f", ours_only=True, quick=config["placement"] == "vshape")
        out.append(config)
    return out


if __name__ == "__main__":
    sys.exit(paperlib.run_experiment(
        "f_beyond", "(f) Beyond the paper — ours alone",
        "No Python Tessel figures exist for these: devices past the reference (16, 32, 64; cadical "
        "backend), and, with the z3 backend, the scaling runs of (c) and the 4-device paper table of (a) "
        "(both of which use cadical); windows of k > 1 micro-batches (`12/2`: a window of 12 steps for 2 "
        "micro-batches, 6 per micro-batch), `-k1` rows forcing one micro-batch per window beside automatic k. `K>32`: the schedule "
        "keeps more micro-batches in flight than 32, so it has no 32-micro-batch form.",
        configs(), time_limit=60, boundary_seconds=10))
