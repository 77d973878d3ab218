"""docs/python.md is a contract: every ```python block in it runs, in order,
in one namespace, in a scratch folder (a user copying them gets no error)."""

import os
import pathlib
import re

import pytest


def python_blocks():
    source = pathlib.Path(os.environ["TESSEL_SOURCE_DIR"]) / "docs" / "python.md"
    return re.findall(r"```python\n(.*?)```", source.read_text(), flags=re.S)


def test_docs_python_examples_run(tmp_path, monkeypatch):
    blocks = python_blocks()
    assert len(blocks) >= 5
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for number, block in enumerate(blocks):
        try:
            exec(compile(block, f"docs/python.md block {number}", "exec"), namespace)
        except Exception as error:  # name the block that failed
            pytest.fail(f"docs/python.md block {number} failed: {error!r}\n{block}")
    assert (tmp_path / "mshape.json").exists() and (tmp_path / "two-stage.json").exists()
