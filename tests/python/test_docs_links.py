"""The documentation lives in the repository and stays true to it.

Fails when README.md grows past 200 lines or stops opening with its two
set-up commands, when any file cites a docs/ page or a section of one that
does not exist, when a relative link of a markdown page points nowhere, when
any tracked file refers to the reference notes outside the repository, and
when the walk-through of docs/formats.md no longer gives the answer it shows.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(os.environ.get("TESSEL_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))

# Spelled in pieces so that this file does not match itself.
OUTSIDE_REFERENCES = ["../" + "shared", "SPEC" + ".md", "ALGORITHMS" + ".md",
                      "SPEC" + " section", "ALGORITHMS" + " section"]

SETUP_COMMANDS = [
    "./setup.sh && build/tessel search --case mshape --ndevs 4 --memory 6",
    "./setup.sh && ctest --test-dir build --output-on-failure -j2",
]


def source_files():
    """The project's files: git's list in a checkout with git at hand, else
    every file under ROOT but hidden folders, build trees (a folder holding
    CMakeCache.txt) and Python caches, as in a copy of the tree without .git
    on a machine without git (the fresh-machine check, docs/fresh_machine.md)."""
    git = shutil.which("git")
    if git and (ROOT / ".git").exists():
        listed = subprocess.run([git, "-C", str(ROOT), "ls-files"], capture_output=True, text=True)
        if listed.returncode == 0:
            return listed.stdout.splitlines()
    names = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders if not name.startswith(".") and name != "__pycache__"
                         and not (pathlib.Path(folder) / name / "CMakeCache.txt").exists()]
        names += [os.path.relpath(os.path.join(folder, name), ROOT) for name in files]
    return sorted(names)


def tracked_text_files():
    for name in source_files():
        path = ROOT / name
        try:
            yield name, path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # pictures, removed files


def unwrapped(text):
    """Comment paragraphs as one line, so a citation broken over lines reads whole."""
    return re.sub(r"\n\s*(//|#)?\s*", " ", text)


def headings(page):
    return [line.lstrip("#").strip().lower() for line in page.read_text().splitlines() if line.startswith("#")]


def test_readme_is_short_and_opens_with_the_setup_commands():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines; move detail to docs/"
    first_block = lines[lines.index("```sh") + 1:lines.index("```sh") + 3]
    assert first_block == SETUP_COMMANDS


def test_no_file_refers_outside_the_repository():
    found = [f"{name}: {needle}" for name, text in tracked_text_files()
             for needle in OUTSIDE_REFERENCES if needle in text]
    assert not found, "cite docs/ instead:\n" + "\n".join(found)


def test_every_cited_docs_page_and_section_exists():
    missing = []
    for name, text in tracked_text_files():
        flat = unwrapped(text)
        for page in set(re.findall(r"docs/([\w.-]+\.md)", flat)):
            if not (ROOT / "docs" / page).is_file():
                missing.append(f"{name}: docs/{page}")
        for page, section in re.findall(r"docs/([\w.-]+\.md),?\s*\"([^\"]+)\"", flat):
            path = ROOT / "docs" / page
            if path.is_file() and not any(section.lower() in h for h in headings(path)):
                missing.append(f"{name}: docs/{page}, \"{section}\"")
    assert not missing, "cited but not in docs/:\n" + "\n".join(sorted(set(missing)))


def test_relative_links_of_the_markdown_pages_resolve():
    broken = []
    pages = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    for page in pages:
        for target in re.findall(r"\]\(([^)#\s]+)", page.read_text()):
            if "://" in target:
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, "\n".join(broken)


# The walk-through's commands, as docs/formats.md shows them (run from
# docs/examples), and which of its text blocks each one's output must match.
WALK_SEARCH = ("search --placement two.json --memory 4 -o two.schedule.json --repetend-output two.repetend.json "
               "--quiet")
WALK_CHECKS = ["verify two.schedule.json", "verify two.repetend.json", "show two.repetend.json",
               "export --to svg two.repetend.json -o two.svg"]


def shown_blocks(text):
    return re.findall(r"```text\n(.*?)```", text, flags=re.S)


def steady(line):
    """A shown line that any run prints alike (not a time, not a window decided within a time share)."""
    return line.strip() and not re.match(r"(windows tried|solve time|\s+\d+\s+(found|not_better|undecided|"
                                         r"infeasible|timeout))", line)


def tessel(binary, cwd, args):
    return subprocess.run([binary] + args.split(), cwd=cwd, capture_output=True, text=True, timeout=120)


def test_the_walk_through_gives_the_answer_it_shows(tmp_path):
    binary = os.environ.get("TESSEL_BINARY")
    if not binary:
        pytest.skip("TESSEL_BINARY not set (ctest sets it)")
    shown = (ROOT / "docs" / "formats.md").read_text()
    for command in [WALK_SEARCH] + WALK_CHECKS:
        assert "build/tessel " + command in shown, command
    blocks = shown_blocks(shown[shown.index(WALK_SEARCH):])
    placement = json.loads((ROOT / "docs" / "examples" / "two.json").read_text())
    (tmp_path / "two.json").write_text(json.dumps(placement))

    search = tessel(binary, tmp_path, WALK_SEARCH)
    assert search.returncode == 0, search.stderr
    checks = [tessel(binary, tmp_path, command) for command in WALK_CHECKS]
    assert all(check.returncode == 0 for check in checks), [check.stderr for check in checks]
    for block, printed in ((blocks[0], search.stdout), (blocks[1], "".join(check.stdout for check in checks))):
        missing = [line for line in block.splitlines() if steady(line) and line not in printed.splitlines()]
        assert not missing, "docs/formats.md shows lines this binary does not print:\n" + "\n".join(missing)

    # The mistakes it shows: a typo'd key, memory not given back, a limit too small.
    typo = json.loads(json.dumps(placement))
    typo["blocks"][0]["device"] = typo["blocks"][0].pop("devices")
    (tmp_path / "typo.json").write_text(json.dumps(typo))
    leak = json.loads(json.dumps(placement))
    next(block for block in leak["blocks"] if block["id"] == "b0")["memory"] = -2
    (tmp_path / "leak.json").write_text(json.dumps(leak))
    for name, block in (("typo.json", blocks[2]), ("leak.json", blocks[3])):
        run = tessel(binary, tmp_path, f"search --placement {name} --memory 4")
        assert run.returncode == 2 and block.strip() in run.stderr, run.stderr
    small = tessel(binary, tmp_path, "search --placement two.json --memory 1")
    assert small.returncode == 1 and "needs 2,2 per device" in small.stderr, small.stderr
