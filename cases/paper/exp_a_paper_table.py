#!/usr/bin/env python3
"""Experiment (a): the Tessel paper's table — every placement on 4 devices,
training (memory 4 or 6) and inference, search time and schedule, beside the
Python Tessel (reference suite a). The Python tool is told how many
micro-batches its repetend holds (n); our repetend search chooses the
micro-batches in flight K itself as memory allows, so K is recorded and n is
only the key into the reference."""
import sys
import paperlib

CASES = [  # placement, memory, infer, the reference's n
    ("kshape", 4, True, 2), ("kshape", 6, False, 3),
    ("mshape", 4, True, 6), ("mshape", 6, False, 6),
    ("nnshape", 4, True, 6), ("nnshape", 6, False, 6),
    ("vshape", 4, False, 4), ("vshape", 4, True, 4),
    ("xshape", 4, False, 3), ("xshape", 4, True, 3),
]


def configs(backend="cadical", suite_key="a"):
    out = []
    for placement, memory, infer, n in CASES:
        name = f"{placement}-d4-mem{memory}{'-infer' if infer else ''}-{backend}"
        out.append(dict(suite="a", name=name, placement=placement, ndevs=4, memory=memory, infer=infer,
                        ref_nmicros=n, backend=backend, quick=True))
    return out


if __name__ == "__main__":
    sys.exit(paperlib.run_experiment(
        "a_paper_table", "(a) The paper's table: each placement on 4 devices",
        "Repetend search (`tessel search --backend cadical`), our K chosen as memory allows; "
        "the Python Tessel's `compose_n` with n micro-batches in its repetend (n in the configuration). "
        "Makespans: the schedule unrolled to 32 / 128 micro-batches, judged by `tessel verify`; "
        "bound = docs/algorithms.md (the makespan at N).",
        configs(), time_limit=60, boundary_seconds=20))
