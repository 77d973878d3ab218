#!/usr/bin/env python3
"""Random pipelines through `tessel search`: no phase may offer a schedule the
verifier rejects, and none may sink a search.

Usage: cases/bench/random_pipelines.py BINARY [COUNT] [--time-limit S] [--seed N]

Each pipeline is a chain, V or interleaved stage map on 2-3 devices, with or
without `stage`, spans in hundredths (0.5-3), edge delays of 0-1, static
memory on some devices, some stages on two devices (tensor-parallel), and a
limit that fits one micro-batch plus 0-3 stages' activations (the rules of
tests/solver/random_pipelines.hpp). Each search runs with
TESSEL_STRICT_CANDIDATES=1, so that a rejected candidate is exit 4 instead of
a listed one; it must exit 0 or 3, list no rejected candidate, and the
schedule -o writes must pass `tessel verify`. Prints one line per failure and
the totals; exit 1 when any pipeline failed.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time


def device_of_stage(shape, stage, ndevs):
    if shape == "chain":
        return stage
    if shape == "v":
        return stage if stage < ndevs else 2 * ndevs - 1 - stage
    return stage % ndevs


def random_pipeline(rng, staged):
    shape = rng.choice(["chain", "v", "interleaved"])
    ndevs = rng.randint(2, 3)
    stages = ndevs if shape == "chain" else 2 * ndevs
    split = rng.random() < 0.5
    blocks, edges = [], []

    def add(name, kind, span, memory, stage, devices):
        block = {"id": name, "kind": kind, "span": round(span / 100, 2), "memory": memory / 10,
                 "devices": devices}
        if staged:
            block["stage"] = stage
        blocks.append(block)
        return name

    forward, backward, weight = [], [], []
    for stage in range(stages):
        devices = [device_of_stage(shape, stage, ndevs)]
        if rng.randint(0, 5) == 0:
            devices = sorted(devices + [(devices[0] + 1) % ndevs])
        span = rng.randint(50, 300)
        forward.append(add(f"f{stage}", "forward", span, 10, stage, devices))
        if split:
            backward.append(add(f"b{stage}", "backward_input", span + rng.randint(0, 100), -5, stage, devices))
            weight.append(add(f"w{stage}", "backward_weight", rng.randint(25, 150), -5, stage, devices))
        else:
            backward.append(add(f"b{stage}", "backward", 2 * span + rng.randint(-20, 20), -10, stage, devices))

    def delay():
        return 0 if rng.randint(0, 3) == 0 else rng.randint(0, 100) / 100

    for stage in range(stages - 1):
        edges.append([forward[stage], forward[stage + 1], delay()])
        edges.append([backward[stage + 1], backward[stage], delay()])
    edges.append([forward[-1], backward[-1]])
    for stage, name in enumerate(weight):
        edges.append([backward[stage], name])
    allocated = [0.0] * ndevs
    for block in blocks:
        for device in block["devices"]:
            allocated[device] += max(0.0, block["memory"])
    static = [rng.randint(0, 3) if rng.random() < 0.5 else 0 for _ in range(ndevs)]
    room = rng.randint(0, 3)
    limits = [round(static[d] + allocated[d] + room, 1) for d in range(ndevs)]
    placement = {"format": "tessel.placement/1", "name": f"random {shape}{', staged' if staged else ''}",
                 "ndevs": ndevs, "blocks": blocks, "edges": edges, "static_memory": static}
    return placement, limits


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("count", type=int, nargs="?", default=200)
    parser.add_argument("--time-limit", type=float, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    env = dict(os.environ, TESSEL_STRICT_CANDIDATES="1")
    exits, failures = {}, []
    begin = time.time()
    with tempfile.TemporaryDirectory() as folder:
        for index in range(args.count):
            staged = index % 2 == 0
            placement, limits = random_pipeline(rng, staged)
            path = os.path.join(folder, f"p{index}.json")
            out = os.path.join(folder, f"s{index}.json")
            with open(path, "w") as file:
                json.dump(placement, file)
            command = [args.binary, "search", "--placement", path, "--memory", ",".join(map(str, limits)),
                       "--total-micros", str(rng.choice([8, 16, 32])), "--time-limit", str(args.time_limit),
                       "--threads", "1", "--quiet", "-o", out]
            run = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
            exits[run.returncode] = exits.get(run.returncode, 0) + 1
            problem = None
            if run.returncode not in (0, 3):
                problem = f"exit {run.returncode}: {run.stderr.strip()[:300]}"
            elif "\nrejected " in run.stdout:
                problem = "a candidate was rejected"
            elif subprocess.run([args.binary, "verify", out], capture_output=True).returncode != 0:
                problem = "the written schedule does not verify"
            if problem:
                keep = os.path.join(tempfile.gettempdir(), f"random_pipeline_{args.seed}_{index}.json")
                with open(keep, "w") as file:
                    json.dump(placement, file)
                failures.append(f"#{index} ({placement['name']}, memory {limits}): {problem}; placement kept in {keep}")
                print(failures[-1], flush=True)
    print(f"{args.count} random pipelines in {time.time() - begin:.0f} s: exits "
          + ", ".join(f"{code}: {count}" for code, count in sorted(exits.items()))
          + f"; {len(failures)} failed (exit other than 0/3, a rejected candidate, or an invalid schedule)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
