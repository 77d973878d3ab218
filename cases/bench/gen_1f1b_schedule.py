#!/usr/bin/env python3
"""Writes a 1F1B schedule as tessel.schedule/1, for the verifier's scale benchmark.

The vshape placement on D devices (F_0..F_{D-1}, then B_{D-1}..B_0; forward
span 1, memory +1; backward span 2, memory -1), N micro-batches, each device
running the 1F1B order (D - i - 1 warmup forwards, then one forward / one
backward, then the remaining backwards) as soon as its dependencies allow.
The file claims the steady state as a repetend (period F + B = 3, one
micro-batch per period), so that the benchmark checks that part at scale too.

Standard library only: usage  gen_1f1b_schedule.py DEVICES NMICROS OUTPUT
"""
import json
import sys

FORWARD_SPAN, BACKWARD_SPAN = 1, 2


def one_f_one_b_order(device, ndevs, nmicros):
    """The 1F1B order of one device: a list of ("f"|"b", micro)."""
    warmup = min(ndevs - device - 1, nmicros)
    order = [("f", m) for m in range(warmup)]
    forward, backward = warmup, 0
    while forward < nmicros:
        order.append(("f", forward))
        forward += 1
        order.append(("b", backward))
        backward += 1
    order += [("b", m) for m in range(backward, nmicros)]
    return order


def schedule_as_soon_as_possible(ndevs, nmicros):
    """Start steps {(kind, device, micro): start}, each device in its order."""
    orders = [one_f_one_b_order(d, ndevs, nmicros) for d in range(ndevs)]
    cursor = [0] * ndevs
    free_at = [0] * ndevs
    start = {}

    def ready_time(kind, device, micro):
        if kind == "f":
            if device == 0:
                return 0
            before = start.get(("f", device - 1, micro))
            return None if before is None else before + FORWARD_SPAN
        if device == ndevs - 1:
            before = start.get(("f", device, micro))
            return None if before is None else before + FORWARD_SPAN
        before = start.get(("b", device + 1, micro))
        return None if before is None else before + BACKWARD_SPAN

    remaining = ndevs * nmicros * 2
    sweep = 0
    while remaining:
        progress = False
        # Forwards flow to higher devices, backwards to lower: alternate directions.
        devices = range(ndevs) if sweep % 2 == 0 else range(ndevs - 1, -1, -1)
        for device in devices:
            order = orders[device]
            while cursor[device] < len(order):
                kind, micro = order[cursor[device]]
                ready = ready_time(kind, device, micro)
                if ready is None:
                    break
                begin = max(ready, free_at[device])
                start[(kind, device, micro)] = begin
                free_at[device] = begin + (FORWARD_SPAN if kind == "f" else BACKWARD_SPAN)
                cursor[device] += 1
                remaining -= 1
                progress = True
        if not progress:
            raise SystemExit("1F1B order deadlocked (a bug in this generator)")
        sweep += 1
    return start


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    ndevs, nmicros, output = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    start = schedule_as_soon_as_possible(ndevs, nmicros)
    blocks = [{"id": f"f{d}", "kind": "forward", "span": FORWARD_SPAN, "memory": 1, "devices": [d]}
              for d in range(ndevs)]
    blocks += [{"id": f"b{d}", "kind": "backward", "span": BACKWARD_SPAN, "memory": -1, "devices": [d]}
               for d in range(ndevs - 1, -1, -1)]
    chain = [b["id"] for b in blocks]
    placement = {"format": "tessel.placement/1", "name": "vshape", "ndevs": ndevs, "blocks": blocks,
                 "edges": [[a, b] for a, b in zip(chain, chain[1:])]}
    period = FORWARD_SPAN + BACKWARD_SPAN
    # Every device is in its steady state from the first backward of device 0
    # (the last device to get one) to the last forward of device 0 (the first
    # to run out of forwards).
    steady_from = start[("b", 0, 0)]
    copies = (start[("f", 0, nmicros - 1)] - steady_from) // period + 1
    with open(output, "w") as out:
        out.write('{"format": "tessel.schedule/1",\n"placement": ')
        json.dump(placement, out)
        out.write(f',\n"memory_limit": {ndevs},\n"nmicros": {nmicros},\n"instances": [\n')
        first = True
        for (kind, device, micro), begin in start.items():
            out.write(("" if first else ",\n") + f'{{"block": "{kind}{device}", "micro": {micro}, "start": {begin}}}')
            first = False
        out.write("\n]")
        if copies >= 1:
            repetend = {"start": steady_from, "end": steady_from + copies * period, "period": period,
                        "micros_per_period": 1}
            out.write(',\n"repetend": ' + json.dumps(repetend))
        out.write("}\n")
    print(f"wrote {output}: {ndevs} devices x {nmicros} micro-batches = {len(start)} instances", file=sys.stderr)


if __name__ == "__main__":
    main()
