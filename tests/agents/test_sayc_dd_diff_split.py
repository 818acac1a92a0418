"""benchmarks/sayc_dd_diff.py bids only the deals of the split asked for (issue 27: a round's
made-contract gate runs on train deals, so no test deal steers a choice)."""

import pytest

from bidlab.dd.store import split_of


@pytest.fixture(scope="module")
def dd_diff(benchmark_script):
    return benchmark_script("sayc_dd_diff")


@pytest.mark.parametrize("split", ["train", "validation", "test"])
def test_chosen_deals_stay_in_their_split(dd_diff, split):
    got = dd_diff.chosen_deals(1000, split, 0, 50)
    assert len(got) == 50 and got == sorted(set(got))
    assert all(split_of(i) == split for i in got)


def test_chosen_deals_start_counts_within_the_split(dd_diff):
    first = dd_diff.chosen_deals(1000, "train", 0, 20)
    assert dd_diff.chosen_deals(1000, "train", 5, 10) == first[5:15]
    assert dd_diff.chosen_deals(30, "all", 0, 100) == list(range(30))  # capped at the store


def test_unknown_split_is_refused(dd_diff, monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["sayc_dd_diff.py", "blame", "--split", "holdout"])
    with pytest.raises(SystemExit):
        dd_diff.main()
    assert "invalid choice: 'holdout'" in capsys.readouterr().err
