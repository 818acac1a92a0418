"""A match's progress moves inside a chunk (issue 28), without changing any call."""

from __future__ import annotations

import numpy as np

from bidlab.eval.match import Match, MatchConfig, load_results, play_boards

#: A quick BMCS: a handful of rollouts per candidate, still a search at every decision.
QUICK_BMCS = "bmcs:sl?rmin=8&rmax=16&pmax=120"


def _chunk(cfg: MatchConfig, tmp_path, k: int = 0):
    m = Match(cfg, tmp_path / "m")
    task = m._task(k)
    return MatchConfig(**task[0]), k, *task[2:6]


def test_progress_inside_a_chunk_follows_boards_and_calls_and_changes_no_call(tmp_path):
    cfg = MatchConfig(QUICK_BMCS, "nn:rl", split="test", boards=3, seed=4)
    args = _chunk(cfg, tmp_path)
    reports = []
    followed = play_boards(*args, progress=lambda boards, calls: reports.append((boards, calls)))
    plain = play_boards(*args)
    assert followed == plain  # the same auctions, contracts and IMPs, board by board
    boards, calls = np.array(reports).T
    assert (np.diff(boards) >= 0).all() and (np.diff(calls) >= 0).all()
    assert boards[-1] == 3
    total_calls = sum(len(r[room]["auction"].split()) for r in plain for room in ("open", "closed"))
    assert calls[-1] == total_calls
    # the search agent reports each call it makes, not once per batch of tables
    assert len(set(calls.tolist())) >= total_calls // 2


def test_match_progress_moves_before_its_only_chunk_ends(tmp_path):
    """The issue's case: a slow agent, fewer boards than one chunk; the parent hears from
    the worker process while the chunk runs, and the results equal an unfollowed run."""
    cfg = MatchConfig(QUICK_BMCS, "nn:rl", split="test", boards=4, seed=2)
    seen, notes = [], []
    Match(cfg, tmp_path / "followed").run(workers=1, progress=lambda d, t: seen.append(d), note=notes.append)
    assert seen[0] == 0 and seen[-1] == 4
    assert any(0 < d < 4 for d in seen), seen
    assert any(n.split()[0].isdigit() and int(n.split()[0]) > 0 for n in notes), notes
    Match(cfg, tmp_path / "plain").run(workers=1)
    assert load_results(tmp_path / "followed")[1] == load_results(tmp_path / "plain")[1]


def test_a_rerun_says_how_many_boards_were_already_played(tmp_path, capsys):
    import pytest

    from bidlab.cli import main

    cut = MatchConfig("random", "sayc", split="test", boards=3, seed=1, chunk_size=1)
    m = Match(cut, tmp_path / "m")

    def stop_after_one(done, total):
        if done >= 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        m.run(workers=1, progress=stop_after_one)
    assert m.boards_done() in (1, 2)
    argv = ["match", "random", "sayc", "--boards", "3", "--seed", "1", "--chunk-size", "1", "--workers", "1",
            "--out", str(tmp_path / "m")]
    with pytest.raises(SystemExit):
        main(argv)
    out = capsys.readouterr().out
    assert f"{m.boards_done()} of 3 boards already played" in out, out
    with pytest.raises(SystemExit):
        main(["match", "random", "sayc", "--boards", "3", "--seed", "1", "--chunk-size", "1", "--workers", "1",
              "--out", str(tmp_path / "fresh")])
    assert "already played" not in capsys.readouterr().out


def test_a_one_board_match_says_board_not_boards(tmp_path):
    from bidlab.eval.match import MatchSummary

    def line(boards: int) -> str:
        return MatchSummary(boards, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, "sayc", "nn:sl").line()

    assert "over 1 board;" in line(1) and "over 2 boards;" in line(2)
