"""Issue 47 (r2-05): a thread count the solver cannot start is bad input in
Python as on the command line (tessel.InputError naming --threads), never a
dead interpreter (100000 threads ended it with "terminate called") and never
accepted when negative."""
import pytest

import tessel


@pytest.mark.parametrize("threads", [100000, 257, -1])
def test_search_refuses_a_thread_count_out_of_range(threads):
    with pytest.raises(tessel.InputError) as error:
        tessel.search(tessel.Placement.builtin("vshape", 4), memory=4, time_limit=5, threads=threads)
    assert "--threads" in str(error.value)


def test_search_runs_on_the_largest_thread_count():
    result = tessel.search(tessel.Placement.builtin("vshape", 4), memory=4, time_limit=5, threads=256)
    assert result.status == "found"
    assert tessel.verify(result.schedule).valid
