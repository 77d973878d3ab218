#!/usr/bin/env python3
"""Offers recomputation on every forward block of a tessel.placement/1 file:
each gets "recompute": {"span": its own span, "before": B}, where B is the
first block after it (in dependency order) on the same devices whose memory
frees at least the forward's. Full recomputation costs the forward's span
again; nothing is checkpointed. Forwards without such a block are left alone.
With --offload F each such forward also offers offload before the same B,
each copy taking F times the forward's span (rounded, at least 1);
--no-recompute then leaves the offload offer alone.

    build/tessel placement --case nnshape --ndevs 8 -o pl.json
    cases/bench/offer_recompute.py pl.json -o pl_recompute.json
    cases/bench/offer_recompute.py pl.json --offload 1 --no-recompute -o pl_offload.json
"""
import argparse
import json
import sys
from collections import deque


def reachable(blocks, edges, start):
    """Block ids reachable from `start`, in breadth-first order."""
    successors = {b["id"]: [] for b in blocks}
    for edge in edges:
        successors[edge[0]].append(edge[1])
    order, seen, queue = [], {start}, deque([start])
    while queue:
        for nxt in successors[queue.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                order.append(nxt)
                queue.append(nxt)
    return order


def offer(placement, recompute=True, copy_factor=None):
    by_id = {b["id"]: b for b in placement["blocks"]}
    offered = 0
    for block in placement["blocks"]:
        if block.get("kind") != "forward" or block.get("memory", 0) <= 0:
            continue
        for later in reachable(placement["blocks"], placement["edges"], block["id"]):
            other = by_id[later]
            if sorted(other["devices"]) == sorted(block["devices"]) and other.get("memory", 0) <= -block["memory"]:
                if recompute:
                    block["recompute"] = {"span": block["span"], "before": later}
                if copy_factor is not None:
                    copy = max(1, round(copy_factor * block["span"]))
                    block["offload"] = {"out": copy, "in": copy, "before": later}
                offered += 1
                break
    return offered


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("placement")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--offload", type=float, metavar="F",
                        help="also offer offload, each copy F times the forward's span")
    parser.add_argument("--no-recompute", action="store_true", help="offer offload only (needs --offload)")
    args = parser.parse_args()
    if args.no_recompute and args.offload is None:
        parser.error("--no-recompute needs --offload F")
    if args.offload is not None and not args.offload > 0:
        parser.error("--offload F must be > 0")
    with open(args.placement) as file:
        placement = json.load(file)
    count = offer(placement, not args.no_recompute, args.offload)
    with open(args.output, "w") as file:
        json.dump(placement, file, indent=1)
    print(f"offered memory trading on {count} forward blocks", file=sys.stderr)


if __name__ == "__main__":
    main()
