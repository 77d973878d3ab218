#!/usr/bin/env python3
"""How often the search's path through the code returns to a file it had
left (issue 48's measure of the layout; cases/bench/call_path.sh runs it).

Input: the calls written by call_path_hook.c (each distinct caller/callee
pair once, in the order first made) and the instrumented binary. Each call is
mapped to the source files of its caller and callee (addr2line on the
function's start). Walking the calls in order, a call from one project file
into another is a crossing; a crossing into a file the path had already
entered before is a return. Calls within one file, and calls into code
outside the repository (the standard library, CaDiCaL, Z3), are not steps.

  call_path.py BINARY CALLS SOURCE_DIR   prints: files, crossings, returns,
                                         then the files entered most often
"""
import bisect
import collections
import os
import subprocess
import sys


def symbols(binary):
    """Sorted start offsets of the binary's functions."""
    out = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    starts = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] in "tTwW":
            starts.add(int(parts[0], 16))
    return sorted(starts)


def files_of(binary, addresses, source_dir):
    addresses = sorted(addresses)
    text = "\n".join(f"{a:x}" for a in addresses)
    out = subprocess.run(["addr2line", "-e", binary], input=text, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    root = os.path.realpath(source_dir) + "/"
    result = {}
    for address, where in zip(addresses, out):
        path = os.path.realpath(where.rsplit(":", 1)[0]) if not where.startswith("??") else ""
        result[address] = path[len(root):] if path.startswith(root) else None
    return result


def main(binary, calls_path, source_dir):
    starts = symbols(binary)
    pairs = []
    with open(calls_path) as f:
        for line in f:
            caller, callee = line.split()
            to = int(callee, 16)
            if caller == "-":
                pairs.append((None, to))
                continue
            i = bisect.bisect_right(starts, int(caller, 16)) - 1
            pairs.append((starts[i] if i >= 0 else None, to))
    wanted = {a for pair in pairs for a in pair if a is not None}
    file_of = files_of(binary, wanted, source_dir)
    readings = [
        ("call sites", lambda path: True, False),
        ("function to function", lambda path: True, True),
        ("function to function, out-of-line only", is_source, True),
    ]
    for title, counted, per_function in readings:
        walk(title, pairs, file_of, counted, per_function)


def is_source(path):
    """A function defined in a .cpp/.c file: one a reader goes to. Inline
    functions of headers (value types' members, implicit copies and
    destructors, templates) are read where they are called."""
    return not path.endswith((".hpp", ".h"))


def walk(title, pairs, file_of, counted, per_function):
    """Walks the calls in order; a call from one project file into another
    (whose callee `counted` admits) is a crossing, a crossing into a file
    entered before is a return. per_function: each (calling function, called
    function) once, however many lines of the caller make that call."""
    entered = collections.Counter()
    seen = set()
    crossings = returns = 0
    for caller, callee in pairs:
        to_file = file_of.get(callee)
        from_file = file_of.get(caller) if caller is not None else None
        if to_file is None or to_file == from_file or not counted(to_file):
            continue
        if from_file is None and caller is not None:
            continue  # called back from library code (a comparator, ...)
        if per_function:
            if (caller, callee) in seen:
                continue
            seen.add((caller, callee))
        crossings += 1
        if entered[to_file]:
            returns += 1
        entered[to_file] += 1
    print(f"## {title}")
    print(f"files: {len(entered)}")
    print(f"crossings: {crossings}")
    print(f"returns to a file left before: {returns}")
    for path, count in entered.most_common(12):
        print(f"  {count:4}  {path}")

if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__)
        sys.exit(2)
    main(*sys.argv[1:])
