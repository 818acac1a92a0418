"""benchmarks/search_gain.py: the search's gain over its policy, paired by deal."""

from __future__ import annotations

import pytest


def test_the_paired_gain_is_the_difference_of_the_two_matches_on_the_same_boards(tmp_path, benchmark_script):
    sg = benchmark_script("search_gain")
    row = sg.gain("punish:nn:sl", "nn:sl", "sayc", "validation", 24, 0, tmp_path, 1)
    assert row["boards"] == 24
    assert row["gain"]["mean"] == pytest.approx(row["search"]["mean"] - row["policy"]["mean"])
    # the same agent in both roles gains exactly nothing, with no spread
    same = sg.gain("nn:sl", "nn:sl", "sayc", "validation", 24, 0, tmp_path / "same", 1)
    assert same["gain"] == {"mean": 0.0, "se": 0.0}
    # a rerun resumes from the stored chunks and says the same
    assert sg.gain("punish:nn:sl", "nn:sl", "sayc", "validation", 24, 0, tmp_path, 1) == row


def test_bad_options_end_with_one_line_and_write_nothing(tmp_path, benchmark_script, capsys):
    sg = benchmark_script("search_gain")
    for argv, message in {("--against", "nope"): "--against nope: unknown agent",
                          ("--search", "bmcs:rl?k=x"): "--search bmcs:rl?k=x",
                          ("--boards", "1"): "--boards >= 2"}.items():
        assert sg.main([*argv, "--out", str(tmp_path / "out")]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err
    assert not (tmp_path / "out").exists()
