"""The Python module refuses what the command line refuses, before it can
hurt the interpreter (issue 47, campaign r2-01 and r2-20): a block on a
device outside the placement, on none or twice, an edge to itself or one
that closes a cycle raise tessel.InputError where they are made, and
generate() has the command line's size limits. Each crash reproducer runs
in a child interpreter, so that a crash fails the test instead of ending
pytest."""

import subprocess
import sys
import textwrap

import pytest

import tessel


def two_devices():
    placement = tessel.Placement(2, name="two")
    placement.add_block("f0", "forward", span=1, memory=1, devices=[0])
    placement.add_block("f1", "forward", span=1, memory=1, devices=[1])
    placement.add_block("b1", "backward", span=2, memory=-1, devices=[1])
    placement.add_block("b0", "backward", span=2, memory=-1, devices=[0])
    return placement


@pytest.mark.parametrize("devices, message", [([5], "device 5 is outside [0, 2)"),
                                              ([-1], "device -1 is outside [0, 2)"),
                                              ([100000], "device 100000 is outside [0, 2)"),
                                              ([], "at least one device"),
                                              ([1, 1], "listed twice")])
def test_a_bad_device_is_refused_by_add_block(devices, message):
    placement = two_devices()
    with pytest.raises(tessel.InputError) as caught:
        placement.add_block("x", "other", span=1, memory=0, devices=devices)
    assert message in str(caught.value) and "blocks[4].devices" in str(caught.value)
    assert len(placement.blocks) == 4  # nothing was added


def test_an_edge_to_itself_or_closing_a_cycle_is_refused_and_not_kept():
    placement = two_devices()
    with pytest.raises(tessel.InputError, match="'f0' depends on itself"):
        placement.add_edge("f0", "f0")
    for a, b in (("f0", "f1"), ("f1", "b1"), ("b1", "b0")):
        placement.add_edge(a, b)
    with pytest.raises(tessel.InputError, match="dependency cycle: .*b0 -> .*f0"):
        placement.add_edge("b0", "f0")
    assert len(placement.edges) == 3
    # The placement is still the valid one, and searches.
    result = tessel.search(placement, memory=2)
    assert result.status == "found" and tessel.verify(result.schedule).valid


REPRODUCER = textwrap.dedent("""
    import tessel
    placement = tessel.Placement(2, name="bad-device")
    placement.add_block("f0", "forward", span=1, memory=1, devices=[0])
    placement.add_block("b0", "backward", span=1, memory=-1, devices=[0])
    try:
        placement.add_block("x", "other", span=1, memory=0, devices=DEVICES)
    except tessel.InputError as error:
        print("refused:", error)
    print(tessel.search(placement, 2).status)
""")


@pytest.mark.parametrize("devices", ["[5]", "[-1]", "[]", "[100000]"])
def test_the_crash_reproducer_ends_normally(devices):
    # It once ended the interpreter with SIGABRT or SIGSEGV inside search.
    done = subprocess.run([sys.executable, "-c", REPRODUCER.replace("DEVICES", devices)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refused:") and done.stdout.splitlines()[-1] == "found", done.stdout


@pytest.mark.parametrize("stages, nmicros, field, message", [
    (100000, 8, "stages", "must be in [1, 4096]"),
    (10**9, 8, "stages", "must be in [1, 4096]"),
    (0, 8, "stages", "must be in [1, 4096]"),
    (8, 10**9, "nmicros", "must be in [1, 100000]"),
    (4096, 1000, "nmicros", "at most 1000000"),
])
def test_generate_has_the_command_lines_limits(stages, nmicros, field, message):
    with pytest.raises(tessel.InputError) as caught:
        tessel.generate("1f1b", stages, nmicros)
    assert f"'{field}'" in str(caught.value) and message in str(caught.value)


def test_generate_limits_count_chunks_and_the_options():
    with pytest.raises(tessel.InputError, match="at most 1000000"):
        tessel.generate("interleaved-1f1b", 1000, 600, chunks=2)  # 1.2e6 stage runs
    with pytest.raises(tessel.InputError, match="'chunks'.*must be in \\[1, 64\\]"):
        tessel.generate("interleaved-1f1b", 4, 8, chunks=65)
    with pytest.raises(tessel.InputError, match="'max_pending'"):
        tessel.generate("zb-auto", 4, 8, max_pending=-1)
    schedule = tessel.generate("interleaved-1f1b", 4, 8, chunks=2)
    assert schedule.nmicros == 8 and tessel.verify(schedule).valid


def test_the_generate_reproducer_stays_within_its_memory():
    # generate("1f1b", 10**9, 8) filled 24 GB; under a 4 GB cap it must
    # refuse at once.
    script = textwrap.dedent("""
        import resource, tessel
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
        for stages, nmicros in ((100000, 8), (10**9, 8)):
            try:
                tessel.generate("1f1b", stages, nmicros)
            except tessel.InputError as error:
                print("refused:", error)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("refused:") == 2, done.stdout
