"""docs/schemas/ describes every tessel file format as JSON Schema. Two
checks keep the schemas and the readers in step: files that tessel writes
(and the shipped examples) validate, and every object's key set in a schema
is exactly the key set the reader accepts, as the reader's own "unknown key"
error lists it (both the model's readers and the verifier's)."""

import json
import os
import pathlib
import re
import subprocess

import pytest

jsonschema = pytest.importorskip("jsonschema")  # Debian's python3-jsonschema (setup.sh)

SOURCE = pathlib.Path(os.environ["TESSEL_SOURCE_DIR"])
TESSEL = os.environ["TESSEL_BINARY"]
SCHEMAS = {name: json.loads((SOURCE / "docs" / "schemas" / f"tessel.{name}.schema.json").read_text())
           for name in ("placement", "schedule", "graph", "partition", "stages", "memory_choices",
                                        "certificate")}


def validator(name):
    store = {schema["$id"]: schema for schema in SCHEMAS.values()}
    resolver = jsonschema.RefResolver.from_schema(SCHEMAS[name], store=store)
    return jsonschema.Draft202012Validator(SCHEMAS[name], resolver=resolver)


def tessel(*args):
    return subprocess.run([TESSEL, *map(str, args)], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Files the real binary writes, one or more per format."""
    out = tmp_path_factory.mktemp("written")
    diamond = SOURCE / "tests" / "data" / "repro" / "graph_diamond.json"
    commands = [
        ("placement", ["placement", "--case", "mshape", "--ndevs", "4", "-o", out / "mshape.json"]),
        ("schedule", ["generate", "1f1b", "--stages", "2", "--nmicros", "4", "-o", out / "1f1b.json"]),
        ("schedule", ["search", "--case", "vshape", "--ndevs", "2", "--memory", "2", "-o", out / "search.json"]),
        ("partition", ["partition", diamond, "--stages", "2", "-o", out / "diamond.partition.json"]),
        ("stages", ["plan", diamond, "--devices", "2", "--memory", "1GiB", "--quiet", "-o", out / "plan"]),
        ("memory_choices", ["plan", SOURCE / "cases" / "graphs" / "gpt2-small.json", "--devices", "4", "--memory",
                            "2GiB", "--nmicros", "4", "--recompute", "all", "--time-limit", "10", "--quiet",
                            "-o", out / "recompute"]),
        ("certificate", ["search", "--case", "vshape", "--ndevs", "4", "--memory", "4", "--quiet",
                         "--certify", out / "certificate"]),
    ]
    files = []
    for name, args in commands:
        result = tessel(*args)
        assert result.returncode == 0, result.stderr
        if name == "stages":
            files.append((name, args[-1] / "stages.json"))
        elif name == "certificate":
            files.append((name, args[-1] / "manifest.json"))
        elif name == "memory_choices":  # a plan that recomputes: both of its files
            files += [(name, args[-1] / "memory_choices.json"), ("stages", args[-1] / "stages.json")]
        else:
            files.append((name, args[-1]))
    files += [("graph", path) for path in sorted((SOURCE / "cases" / "graphs").glob("*.json"))]
    files += [("placement", path) for path in sorted((SOURCE / "tests" / "data").glob("*.placement.json"))]
    files += [("schedule", path) for path in sorted((SOURCE / "tests" / "data").glob("*.schedule.json"))]
    return files


def test_written_files_validate(written):
    assert {name for name, _ in written} == set(SCHEMAS)
    for name, path in written:
        errors = [e.message for e in validator(name).iter_errors(json.loads(pathlib.Path(path).read_text()))]
        assert not errors, f"{path} against tessel.{name}: {errors[:3]}"


def test_a_misspelt_key_fails_the_schema_too():
    document = json.loads((SOURCE / "tests" / "data" / "windows_vshape3.placement.json").read_text())
    document["edge"] = document.pop("edges")
    assert list(validator("placement").iter_errors(document))


def schema_keys(schema, pointer):
    """The property names of the object at `pointer` (a list of keys) in a schema."""
    node = schema
    for key in pointer:
        node = node[key]
    return set(node["properties"])


def reader_keys(command, path):
    """The keys a reader lists when it meets the key `zz_unknown`."""
    result = tessel(*[path if arg == "{file}" else arg for arg in command])
    assert result.returncode == 2, result.stderr
    found = re.search(r"unknown key.*?the keys here are ([\w, ]+)", result.stderr)
    assert found, result.stderr
    return {key.strip() for key in found.group(1).split(",")}


def with_unknown(document, pointer):
    """`document` with a key zz_unknown added to the object at `pointer`."""
    node = document
    for key in pointer:
        node = node[key]
    node["zz_unknown"] = 1
    return document


# (format, a path to an object in a document, that object's place in a
# schema as (schema, path), the commands whose readers must list the same keys)
SCHEDULE_READERS = [["verify", "{file}"], ["show", "{file}"]]
CASES = [
    ("schedule", [], ("schedule", []), SCHEDULE_READERS),
    ("schedule", ["placement"], ("placement", []), SCHEDULE_READERS),
    ("schedule", ["placement", "blocks", 0], ("placement", ["$defs", "block"]), SCHEDULE_READERS),
    ("schedule", ["instances", 0], ("schedule", ["$defs", "instance"]), SCHEDULE_READERS),
    ("schedule", ["repetend"], ("schedule", ["$defs", "repetend"]), SCHEDULE_READERS),
    ("placement", [], ("placement", []), [["search", "--placement", "{file}", "--memory", "2"]]),
    ("placement", ["blocks", 0], ("placement", ["$defs", "block"]), [["search", "--placement", "{file}", "--memory", "2"]]),
    ("graph", [], ("graph", []), [["partition", "{file}", "--stages", "1"]]),
    ("graph", ["nodes", 0], ("graph", ["$defs", "node"]), [["partition", "{file}", "--stages", "1"]]),
    ("partition", [], ("partition", []), [["partition", str(SOURCE / "tests" / "data" / "repro" / "graph_diamond.json"),
                            "--check", "{file}"]]),
]


@pytest.mark.parametrize("name,pointer,schema_pointer,commands", CASES)
def test_schema_keys_equal_reader_keys(tmp_path, name, pointer, schema_pointer, commands):
    if name == "schedule":
        assert tessel("search", "--case", "vshape", "--ndevs", "2", "--memory", "2", "-o",
                      tmp_path / "base.json").returncode == 0
    elif name == "placement":
        assert tessel("placement", "--case", "vshape", "--ndevs", "2", "-o", tmp_path / "base.json").returncode == 0
    elif name == "graph":
        (tmp_path / "base.json").write_text((SOURCE / "tests" / "data" / "repro" / "graph_diamond.json").read_text())
    else:
        assert tessel("partition", SOURCE / "tests" / "data" / "repro" / "graph_diamond.json", "--stages", "2",
                      "-o", tmp_path / "base.json").returncode == 0
    document = with_unknown(json.loads((tmp_path / "base.json").read_text()), pointer)
    (tmp_path / "doc.json").write_text(json.dumps(document))
    expected = schema_keys(SCHEMAS[schema_pointer[0]], schema_pointer[1])
    for command in commands:
        assert reader_keys(command, tmp_path / "doc.json") == expected, command


@pytest.mark.parametrize("pointer,schema_pointer", [
    ([], []),
    (["claims", 0], ["$defs", "claim"]),
    (["claims", -1, "ends", 0], ["$defs", "end"]),
])
def test_certificate_keys_equal_reader_keys(tmp_path, pointer, schema_pointer):
    """check-certificate refuses a key the manifest does not define and lists the same keys as the schema."""
    directory = tmp_path / "certificate"
    result = tessel("search", "--case", "vshape", "--ndevs", "4", "--memory", "4", "--quiet", "--certify", directory)
    assert result.returncode == 0, result.stderr
    manifest = json.loads((directory / "manifest.json").read_text())
    assert manifest["claims"][-1]["relaxation"] == "ends"  # the makespan claim, with its ends
    (directory / "manifest.json").write_text(json.dumps(with_unknown(manifest, pointer)))
    assert reader_keys(["check-certificate", directory], directory) == schema_keys(SCHEMAS["certificate"],
                                                                                   schema_pointer)
