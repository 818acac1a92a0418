"""A resumed job reaches the size asked for, or says clearly why not (never "1000/1000"
over a folder that holds 500)."""

from __future__ import annotations

import pytest

from bidlab.learn.data import AuctionSet, AuctionSetError, generate_expert


def test_expert_data_resumed_with_more_boards_never_reports_a_size_it_does_not_hold(tmp_path):
    out = tmp_path / "D"
    generate_expert(out, 6, shard_size=50, workers=1)
    seen = []
    try:
        aset = generate_expert(out, 12, shard_size=50, workers=1, progress=lambda d, t: seen.append((d, t)))
    except AuctionSetError as e:  # or it says why not, naming both sizes, and writes nothing
        assert "6" in str(e) and "12" in str(e)
        assert len(AuctionSet.open(out)) == 6
        return
    assert len(aset) == 12
    assert seen[-1] == (12, 12)


def test_expert_data_resumed_with_fewer_boards_says_what_it_holds(tmp_path):
    out = tmp_path / "D"
    generate_expert(out, 12, shard_size=50, workers=1)
    with pytest.raises(AuctionSetError, match="12"):
        generate_expert(out, 6, shard_size=50, workers=1)


def test_expert_data_resumed_with_the_same_size_is_read_back(tmp_path):
    out = tmp_path / "D"
    first = len(generate_expert(out, 7, shard_size=3, workers=1))
    assert first == 7 and len(generate_expert(out, 7, shard_size=3, workers=1)) == 7
