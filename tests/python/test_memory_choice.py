"""Memory traded for time from Python (docs/python.md): a forward offers
recomputation or offload once its edges are in; the offers are saved with
the placement, a search on it returns a verified schedule, and a bad offer
raises tessel.InputError naming the field."""

import json

import pytest

import tessel


def chain():
    placement = tessel.Placement(2, name="two")
    placement.add_block("f0", "forward", 1, 2, [0])
    placement.add_block("f1", "forward", 1, 2, [1])
    placement.add_block("b1", "backward", 2, -2, [1])
    placement.add_block("b0", "backward", 2, -2, [0])
    for a, b in (("f0", "f1"), ("f1", "b1"), ("b1", "b0")):
        placement.add_edge(a, b)
    return placement


def test_offers_are_saved_and_searched(tmp_path):
    placement = chain()
    placement.offer_recompute("f0", 1, "b0")
    placement.offer_offload("f1", 0.5, 0.5, "b1")
    path = str(tmp_path / "p.json")
    placement.save(path)
    with open(path) as file:
        blocks = json.load(file)["blocks"]
    assert blocks[0]["recompute"] == {"span": 1, "before": "b0"}
    assert blocks[1]["offload"] == {"out": 0.5, "in": 0.5, "before": "b1"}
    result = tessel.search(tessel.Placement.load(path), memory=4, total_micros=8)
    assert tessel.verify(result.schedule).valid


def test_a_bad_offer_names_the_field():
    placement = chain()
    with pytest.raises(tessel.InputError, match="did you mean 'b0'"):
        placement.offer_recompute("f0", 1, "b00")
    with pytest.raises(tessel.InputError, match="only a forward block"):
        placement.offer_recompute("b1", 1, "b0")
    with pytest.raises(tessel.InputError, match="span must be > 0"):
        placement.offer_recompute("f0", 0, "b0")
