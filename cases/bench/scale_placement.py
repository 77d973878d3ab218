#!/usr/bin/env python3
"""Writes a placement with measured-looking costs, for the measured-costs benchmark.

Reads a tessel.placement/1 (as `tessel placement --case C --ndevs D -o FILE`
writes it) and multiplies every span by SCALE, then moves each span by a
random factor within +-NOISE (a seeded generator, so a row is reproducible).
With --decimals K the spans are divided by 10^K afterwards and written with K
decimals (1234 -> 1.234 for K = 3): the same problem in a finer unit, which
the search must solve exactly, not on a rounding. With --memory-unit BYTES
every memory amount is multiplied by BYTES (memory in bytes); with
--static BYTES the placement holds that much static memory per device.

Standard library only:
  scale_placement.py IN OUT --scale 1000 --noise 0.1 [--seed 1] [--decimals 3]
                     [--memory-unit 1073741824] [--static 0]
"""
import argparse
import json
import random


def scaled_span(span, scale, noise, rng):
    """span * scale moved by a factor in [1 - noise, 1 + noise], at least 1."""
    factor = 1.0 + rng.uniform(-noise, noise) if noise > 0 else 1.0
    return max(1, round(span * scale * factor))


def as_decimal(ticks, decimals):
    """ticks / 10^decimals as a JSON number that prints exactly (1234 -> 1.234)."""
    if decimals == 0:
        return ticks
    return float(f"{ticks / 10 ** decimals:.{decimals}f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--scale", type=int, default=1000)
    parser.add_argument("--noise", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decimals", type=int, default=0)
    parser.add_argument("--memory-unit", type=int, default=1)
    parser.add_argument("--static", type=int, default=0)
    args = parser.parse_args()

    with open(args.input, encoding="utf-8") as handle:
        placement = json.load(handle)
    rng = random.Random(args.seed)
    for block in placement["blocks"]:
        ticks = scaled_span(block["span"], args.scale, args.noise, rng)
        block["span"] = as_decimal(ticks, args.decimals)
        block["memory"] = block["memory"] * args.memory_unit
    if args.static:
        placement["static_memory"] = args.static
    placement["name"] = f'{placement.get("name", "placement")}-x{args.scale}'
    with open(args.output, "w", encoding="utf-8") as handle:
        json.dump(placement, handle, indent=1)
        handle.write("\n")


if __name__ == "__main__":
    main()
