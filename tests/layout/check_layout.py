#!/usr/bin/env python3
"""The layout of the sources, checked (docs/architecture.md, "Levels").

Two checks over the production C++ (every folder with sources except
tests/, fuzz/ and build/), run by ctest:

  levels     the include graph. A unit is a header and its .cpp (solver/x.hpp
             and solver/x.cpp are the unit solver/x); unit A depends on unit B
             when any file of A includes B's header. A unit's level is one
             more than the highest level it depends on, so a layered code base
             has every edge pointing down. Units that need each other (a
             cycle) share a level; within a cycle the fewest edges whose
             removal would layer it are the upward edges listed (each file
             that includes along such an edge is named). The same is done one floor up, for folders
             (model/ -> verify/ ...), where a cycle is two folders needing
             each other.
  functions  every function body over MAX_LINES lines or with more than
             MAX_PARAMS parameters. The parser is deliberately simple: it
             strips comments, strings and preprocessor lines, walks braces,
             and takes a brace at namespace or class scope that follows a
             parameter list as a function body. Lambdas count inside the
             function that holds them.

Each check either reports (prints and passes) or fails on a finding (the
switch below); both fail since the folders of solver/ stopped needing each
other (issue 48).

  python3 tests/layout/check_layout.py SOURCE_DIR levels|functions [--fail]
"""

import os
import re
import sys

# "report": print the findings and pass; "fail": a finding fails the test.
MODE = {"levels": "fail", "functions": "fail"}

# A facade is included from outside its folder only (its own .cpp apart):
# nothing inside solver/ sits above the entry it serves.
FACADES = {"solver/search.hpp": {"solver/search.cpp"}}

MAX_LINES = 100
MAX_PARAMS = 7
# The Python bindings' functions take the keyword arguments of the Python
# call they bind (py::arg each, with its default): their parameter count is
# the Python signature, which a struct cannot shorten. Their length counts.
WIDE_SIGNATURE_FOLDERS = {"python"}
SKIPPED_FOLDERS = {"tests", "fuzz", "build", "papers", "docs", ".git"}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def production_files(root):
    found = []
    for top in sorted(os.listdir(root)):
        if top in SKIPPED_FOLDERS or top.startswith("build") or not os.path.isdir(os.path.join(root, top)):
            continue
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if name.endswith((".cpp", ".hpp", ".h")):
                    found.append(os.path.relpath(os.path.join(folder, name), root))
    return sorted(found)


def unit_of(path):
    return os.path.splitext(path)[0]


def folder_of(unit):
    """The folder a unit lives in, subfolders apart (solver/makespan/)."""
    return os.path.dirname(unit)


# ---- levels -------------------------------------------------------------

def include_edges(root, files):
    """(unit, unit, file) for every include of a project header."""
    known = set(files)
    edges = []
    for path in files:
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for target in INCLUDE.findall(text):
            if target not in known:
                local = os.path.normpath(os.path.join(os.path.dirname(path), target))
                if local not in known:
                    continue
                target = local
            if unit_of(target) != unit_of(path):
                edges.append((unit_of(path), unit_of(target), path))
    return edges


def strongly_connected(nodes, succ):
    """Tarjan's components, iteratively (the graph has a few hundred nodes)."""
    index, low, on_stack, stack, comps = {}, {}, set(), [], []
    counter = [0]
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(succ.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(succ.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                comps.append(comp)
    return comps


def least_upward_order(comp, succ):
    """An order of one cycle's units with the fewest edges pointing back up:
    exact (a dynamic programme over subsets) for up to 16 units, greedy
    beyond. The edges that point back are the upward ones: the fewest
    includes whose removal would make the units layered."""
    comp = sorted(comp)
    inside = {n: {m for m in succ.get(n, ()) if m in comp} for n in comp}
    if len(comp) <= 16:
        pos = {n: i for i, n in enumerate(comp)}
        # order from the bottom: best[mask] = fewest back edges placing mask first
        best, choice = {0: 0}, {}
        for mask in range(1, 1 << len(comp)):
            for n in comp:
                bit = 1 << pos[n]
                if not mask & bit:
                    continue
                rest = mask ^ bit
                # n goes above every unit in rest: its edges into units not yet
                # placed (above it) point up
                cost = best[rest] + sum(1 for m in inside[n] if not rest & (1 << pos[m]))
                if mask not in best or cost < best[mask]:
                    best[mask], choice[mask] = cost, n
        order, mask = [], (1 << len(comp)) - 1
        while mask:
            order.append(choice[mask])
            mask ^= 1 << pos[choice[mask]]
        return list(reversed(order))
    order, left = [], set(comp)
    while left:
        n = min(left, key=lambda n: (len(inside[n] & left), n))
        order.append(n)
        left.discard(n)
    return order


def layered(nodes, edges):
    """Levels, the upward edges and the cycles of one graph."""
    succ = {}
    for a, b, _ in edges:
        succ.setdefault(a, set()).add(b)
    comps = strongly_connected(nodes, succ)
    comp_of = {n: i for i, c in enumerate(comps) for n in c}
    cycles = [sorted(c) for c in comps if len(c) > 1]
    rank = {}
    for comp in comps:
        for i, n in enumerate(least_upward_order(comp, succ)):
            rank[n] = i
    upward = [(a, b, path) for a, b, path in edges
              if comp_of[a] == comp_of[b] and rank[b] > rank[a]]
    # Components come out of Tarjan's algorithm dependencies first.
    level = {}
    for i, comp in enumerate(comps):
        below = [level[comp_of[t]] for n in comp for t in succ.get(n, ()) if comp_of[t] != i]
        level[i] = 1 + max(below, default=0)
    return {n: level[comp_of[n]] for n in nodes}, sorted(set(upward)), cycles


def check_levels(root):
    files = production_files(root)
    edges = include_edges(root, files)
    units = sorted({unit_of(f) for f in files})
    levels, upward, cycles = layered(units, edges)
    unique = {(a, b) for a, b, _ in edges}
    print(f"units: {len(units)}, include dependencies between units: {len(unique)}, "
          f"levels: {max(levels.values(), default=0)}")
    by_folder = {}
    for unit, lvl in levels.items():
        by_folder.setdefault(folder_of(unit), []).append(lvl)
    for folder in sorted(by_folder):
        lv = by_folder[folder]
        print(f"  {folder + '/':12} {len(lv):4} units, levels {min(lv)}..{max(lv)}")
    print(f"upward edges: {len(upward)}")
    for a, b, path in upward:
        print(f"  {path} -> {b} (level {levels[a]} -> {levels[b]}, in a cycle)")
    print(f"unit cycles: {len(cycles)}")
    for cycle in cycles:
        print("  " + " <-> ".join(cycle))

    inside = []
    for facade, own in FACADES.items():
        folder = os.path.dirname(facade)
        for a, b, path in edges:
            if b == unit_of(facade) and os.path.dirname(path).startswith(folder) and path not in own:
                inside.append(f"{path} includes the facade {facade}")
    print(f"facade includes from inside: {len(inside)}")
    for line in inside:
        print("  " + line)

    folder_edges = sorted({(folder_of(a), folder_of(b), folder_of(a))
                           for a, b, _ in edges if folder_of(a) != folder_of(b)})
    folders = sorted({folder_of(u) for u in units})
    flevels, fup, fcycles = layered(folders, folder_edges)
    print("folder levels: " + ", ".join(f"{f}/ {flevels[f]}" for f in
                                          sorted(folders, key=lambda f: (flevels[f], f))))
    print(f"folder cycles: {len(fcycles)}")
    for cycle in fcycles:
        uses = [f"{a} -> {b} ({path})" for a, b, path in edges
                if folder_of(a) in cycle and folder_of(b) in cycle and folder_of(a) != folder_of(b)]
        print("  " + " <-> ".join(cycle) + ": " + "; ".join(uses[:6]))
    return len(upward) + len(cycles) + len(fcycles) + len(inside)


# ---- functions ----------------------------------------------------------

def stripped(text):
    """Comments, string and character literals and preprocessor lines
    blanked, newlines kept so that line numbers stay right."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            j = i
            while j < n and (text[j] != "\n" or text[j - 1] == "\\"):
                j += 1
            out.append("".join("\n" if ch == "\n" else " " for ch in text[i:j]))
            i = j
            continue
        if c == "\n":
            at_line_start = True
            out.append(c)
            i += 1
            continue
        if not c.isspace():
            at_line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join("\n" if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + "".join("\n" if ch == "\n" else " " for ch in text[i + 2:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # digit separator 1'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching(text, i, open_ch, close_ch):
    depth = 0
    while i < len(text):
        if text[i] == open_ch:
            depth += 1
        elif text[i] == close_ch:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text) - 1


def paren_groups(header):
    """(start, end) of each top-level (...) group of a declaration."""
    groups, depth, start = [], 0, 0
    for i, c in enumerate(header):
        if c == "(":
            if depth == 0:
                start = i
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                groups.append((start, i))
    return groups


def count_parameters(inside):
    inside = inside.strip()
    if not inside or inside == "void":
        return 0
    depth, count = 0, 1
    for i, c in enumerate(inside):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "<" and i > 0 and (inside[i - 1].isalnum() or inside[i - 1] in "_:"):
            depth += 1
        elif c == ">" and depth > 0 and inside[i - 1] != "-":
            depth -= 1
        elif c == "," and depth == 0:
            count += 1
    return count


FUNCTION_TAIL = re.compile(r"\)\s*(const|noexcept|override|final|mutable|&|\s)*(->[^;{}]*)?$")
SCOPE_HEAD = re.compile(r"\b(namespace|struct|class|union|enum)\b")


def functions_in(path, text):
    """(name, first line, last line, parameters) of each function body."""
    found = []
    code = stripped(text)

    def line_of(pos):
        return code.count("\n", 0, pos) + 1

    def scan(begin, end):
        statement_start = begin
        i = begin
        while i < end:
            c = code[i]
            if c in ";}":
                statement_start = i + 1
            elif c == "{":
                header = code[statement_start:i]
                close = matching(code, i, "{", "}")
                flat = " ".join(header.split())
                head_before_paren = flat.split("(")[0]
                scope = SCOPE_HEAD.search(head_before_paren)
                if scope and scope.group(1) != "enum" and "(" not in flat:
                    scan(i + 1, close)  # namespace, class or struct body
                    statement_start = close + 1
                    i = close + 1
                    continue
                ctor_init = re.search(r"\)\s*:(?!:)", flat)
                is_function = ("(" in flat and "=" not in head_before_paren and not scope
                               and (FUNCTION_TAIL.search(flat) or
                                    (ctor_init and re.search(r"[)}]\s*$", flat))))
                if ctor_init and not is_function and "(" in flat and "=" not in head_before_paren:
                    # a brace member initialiser: part of the header
                    i = close + 1
                    continue
                if is_function:
                    cut = flat[:ctor_init.start() + 1] if ctor_init else flat
                    cut = cut.split("->")[0] if "->" in cut and not cut.rstrip().endswith(")") else cut
                    groups = paren_groups(cut)
                    params = 0
                    name = head_before_paren.split()[-1] if head_before_paren.split() else "?"
                    if groups:
                        first = groups[-1]
                        if name.endswith("operator") and len(groups) > 1:
                            first = groups[1]
                            name += "()"
                        params = count_parameters(cut[first[0] + 1:first[1]])
                    first_char = statement_start + (len(header) - len(header.lstrip()))
                    found.append((name, line_of(first_char), line_of(close), params))
                statement_start = close + 1
                i = close + 1
                continue
            i += 1

    scan(0, len(code))
    return found


def check_functions(root):
    findings = []
    total = 0
    for path in production_files(root):
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for name, first, last, params in functions_in(path, text):
            total += 1
            lines = last - first + 1
            if path.split("/")[0] in WIDE_SIGNATURE_FOLDERS:
                params = 0
            if lines > MAX_LINES or params > MAX_PARAMS:
                findings.append((path, first, name, lines, params))
    long_ones = [f for f in findings if f[3] > MAX_LINES]
    wide_ones = [f for f in findings if f[4] > MAX_PARAMS]
    print(f"functions: {total}; over {MAX_LINES} lines: {len(long_ones)}; "
          f"over {MAX_PARAMS} parameters: {len(wide_ones)}")
    by_folder = {}
    for f in findings:
        by_folder[f[0].split("/")[0]] = by_folder.get(f[0].split("/")[0], 0) + 1
    print("by folder: " + ", ".join(f"{k}/ {v}" for k, v in sorted(by_folder.items())))
    for path, first, name, lines, params in findings:
        why = []
        if lines > MAX_LINES:
            why.append(f"{lines} lines")
        if params > MAX_PARAMS:
            why.append(f"{params} parameters")
        print(f"  {path}:{first}: {name}: {', '.join(why)}")
    return len(findings)


def main(argv):
    if len(argv) < 3 or argv[2] not in MODE:
        print(__doc__)
        return 2
    root, check = argv[1], argv[2]
    fail = MODE[check] == "fail" or "--fail" in argv
    found = check_levels(root) if check == "levels" else check_functions(root)
    if found and fail:
        print(f"FAILED: {found} finding(s) ({check} is set to fail in tests/layout/check_layout.py)")
        return 1
    if found:
        print(f"reported {found} finding(s) ({check} is set to report; change MODE to fail)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
