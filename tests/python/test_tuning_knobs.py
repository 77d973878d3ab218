"""The knob table reaches Python from the same rows as `tessel search --tune
help-all` (solver/knobs/tuning.hpp): every name listed is one `search(tune=...)`
takes, and a name not listed is refused as bad input."""
import subprocess
import os

import pytest

import tessel


def test_every_listed_knob_is_listed_by_the_cli_and_accepted():
    knobs = tessel.tuning_knobs()
    names = [k["name"] for k in knobs]
    assert len(names) == len(set(names))
    assert {k["level"] for k in knobs} == {"user", "developer"}
    cli = subprocess.run([os.environ["TESSEL_BINARY"], "search", "--tune", "help-all"], capture_output=True,
                         text=True, check=True).stdout
    for knob in knobs:
        assert knob["minimum"] <= knob["default"] <= knob["maximum"], knob["name"]
        assert knob["name"] in cli
    placement = tessel.Placement.builtin("vshape", 2)
    found = tessel.search(placement, memory=2, total_micros=4, time_limit=10,
                          tune={"plan_seconds": 1, "solver_head_start_seconds": 0.5})
    assert found.status == "found"
    with pytest.raises(Exception, match="unknown knob"):
        tessel.search(placement, memory=2, total_micros=4, tune={"plan_second": 1})


def test_a_small_knob_value_reaches_the_search_and_the_budget_is_reported():
    # A knob's value crosses as the shortest text of its double: 1e-7 once
    # became "0.000000", switching the answer's reserve off.
    placement = tessel.Placement.builtin("vshape", 4)
    found = tessel.search(placement, memory=4, total_micros=8, time_limit=10,
                          tune={"verify_seconds_per_instance": 1e-7})
    strategy = [grant for grant in found.budget if grant["phase"] == "strategy"]
    assert strategy, found.budget
    assert strategy[0]["limited_by"] == "answer_reserve"
    assert 0 < strategy[0]["estimate"] < 1e-3
    assert 0 <= strategy[0]["from"] <= strategy[0]["until"] <= 10
