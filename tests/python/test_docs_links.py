"""The documentation lives in the repository and stays true to it.

Fails when README.md grows past 200 lines or stops opening with its two
set-up commands, when any file cites a docs/ page or a section of one that
does not exist, when a relative link of a markdown page points nowhere, when
any tracked file refers to the reference notes outside the repository, and
when the walk-through of docs/formats.md no longer gives the answer it shows.
"""
import os
import pathlib
import re
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


def tracked_text_files():
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout: " + listed.stderr.strip())
    for name in listed.stdout.splitlines():
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


def test_the_walk_through_gives_the_answer_it_shows(tmp_path):
    binary = os.environ.get("TESSEL_BINARY")
    if not binary:
        pytest.skip("TESSEL_BINARY not set (ctest sets it)")
    shown = (ROOT / "docs" / "formats.md").read_text()
    claim = "period           6  (lower bound L = 5, proven lower bound 6, proven optimal)"
    assert claim in shown
    schedule = tmp_path / "two.schedule.json"
    run = subprocess.run([binary, "search", "--placement", str(ROOT / "docs" / "examples" / "two.json"),
                          "--memory", "4", "-o", str(schedule), "--quiet"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert claim in run.stdout
    check = subprocess.run([binary, "verify", str(schedule)], capture_output=True, text=True)
    assert check.returncode == 0 and check.stdout.startswith("valid"), check.stdout + check.stderr
