"""``bidlab league``: a tiny end-to-end run writes its plot and, rerun, reuses its stored
matches; a match stored the other way round is reused with its sign flipped; bad options
leave nothing behind."""

from __future__ import annotations

import re

import pytest

from bidlab.cli import main
from bidlab.eval.league import LeagueError, is_search_agent, plan_league, play_pairing
from bidlab.eval.match import Match, MatchConfig, load_results, match_folder


def _run(argv, capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as e:
        main(argv)
    out, err = capsys.readouterr()
    return (0 if e.value.code is None else e.value.code), out, err


def _files(folder):
    return {p: p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


def test_a_tiny_league_writes_its_plot_and_reuses_its_matches_when_rerun(tmp_path, capsys, monkeypatch):
    from matplotlib.image import imread

    monkeypatch.chdir(tmp_path)
    code, out, err = _run(["league", "random", "sayc", "--boards", "8", "--workers", "1"], capsys)
    assert code == 0, err
    folder = tmp_path / "results" / "match-random-vs-sayc-test-8-s0"
    assert f"played {folder.relative_to(tmp_path)}" in out
    plots = list((tmp_path / "results").glob("league-*.png"))
    assert len(plots) == 1 and f"plot: {plots[0].relative_to(tmp_path)}" in out
    img = imread(plots[0])
    assert img.shape[0] > 150 and img[..., :3].std() > 0.05

    # The ratings table shows random's rating = its IMPs/board against the anchor sayc.
    _, recs = load_results(folder)
    mean = sum(r["imps_a"] for r in recs) / len(recs)
    assert re.search(rf"│ 2 │ random\s+│\s+{mean:+.2f} │", out), out
    assert re.search(r"│ 1 │ sayc\s+│\s+\+0\.00 │\s+anchor │", out), out

    # The doubled-contracts table: per agent, the boards on which its side declared X or XX
    # (at either table, each board once) and its IMPs on them, counted here from the records.
    # random sits NS in the open room and EW in the closed room.
    boards = {"random": {}, "sayc": {}}
    for r in recs:
        for room, ns, ew in (("open", "random", "sayc"), ("closed", "sayc", "random")):
            if (r[room]["contract"] or "").endswith("X"):
                agent = ns if r[room]["declarer"] in "NS" else ew
                boards[agent][r["board"]] = r["imps_a"] if agent == "random" else -r["imps_a"]
    assert boards["random"]  # random bidding is doubled within 8 boards
    for agent, imps in boards.items():
        net = sum(imps.values())
        assert re.search(rf"│ {agent}\s+│\s+8 │\s+{len(imps)} │[^\n]*│\s+{re.escape(f'{net:+d}')} │\s+"
                         rf"{re.escape(f'{100 * net / 8:+.1f}')} │", out), out

    before = _files(folder)
    code, out, err = _run(["league", "random", "sayc", "--boards", "8", "--workers", "1"], capsys)
    assert code == 0, err
    assert f"reused {folder.relative_to(tmp_path)}" in out and "played" not in out
    assert _files(folder) == before  # no chunk replayed, no result file rewritten


def test_a_match_stored_as_b_vs_a_is_reused_with_its_sign_flipped(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(["match", "sayc", "random", "--boards", "6", "--workers", "1"], capsys)
    assert code == 0, err
    stored = tmp_path / "results" / "match-sayc-vs-random-test-6-s0"
    _, recs = load_results(stored)
    sayc_imps = sum(r["imps_a"] for r in recs) / len(recs)

    [pairing] = plan_league(["random", "sayc"], 6, 6, root=tmp_path / "results")
    assert pairing.flipped and pairing.folder == stored
    result = play_pairing(pairing, workers=1)
    assert result.reused
    r = result.result()
    assert (r.agent_a, r.agent_b) == ("random", "sayc") and r.imps_per_board == pytest.approx(-sayc_imps)

    before = _files(stored)
    code, out, err = _run(["league", "random", "sayc", "--boards", "6", "--workers", "1"], capsys)
    assert code == 0, err
    assert "(stored as sayc vs random)" in out and f"random vs sayc {-sayc_imps:+.2f}" in out
    assert not (tmp_path / "results" / "match-random-vs-sayc-test-6-s0").exists()
    assert _files(stored) == before


def test_an_interrupted_pairing_resumes(tmp_path):
    cfg = MatchConfig("random", "sayc", boards=4, chunk_size=2)
    folder = match_folder(cfg, tmp_path)

    def stop(done, total):
        if done >= 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Match(cfg, folder).run(workers=1, progress=stop)
    [pairing] = plan_league(["random", "sayc"], 4, 4, chunk_size=2, root=tmp_path)
    assert pairing.stored_boards() == 2 and not pairing.flipped
    first_chunk = _files(folder / "chunks")
    result = play_pairing(pairing, workers=1)
    assert not result.reused and result.summary.boards == 4
    assert all(_files(folder / "chunks").get(p) == t for p, t in first_chunk.items() if "shard" in p.name)


def test_search_agents_play_fewer_boards():
    assert is_search_agent("bmcs:rl") and is_search_agent("sayc+jps:rl") and not is_search_agent("nn:rl")
    plan = plan_league(["sayc", "nn:rl", "bmcs:rl"], 2000, 100, root="/nonexistent-league-root")
    boards = {(p.agent_a, p.agent_b): p.config.boards for p in plan}
    assert boards == {("sayc", "nn:rl"): 2000, ("sayc", "bmcs:rl"): 100, ("nn:rl", "bmcs:rl"): 100}


def test_a_folder_holding_another_match_is_refused_before_anything_plays(tmp_path):
    cfg = MatchConfig("random", "sayc", boards=3, seed=0, chunk_size=3)
    Match(cfg, tmp_path / "elsewhere").run(workers=1)
    target = match_folder(MatchConfig("random", "sayc", boards=3, seed=0, chunk_size=1), tmp_path)
    (tmp_path / "elsewhere").rename(target)  # same name, other chunk size
    with pytest.raises(LeagueError, match="holds a different match"):
        plan_league(["random", "sayc"], 3, 3, chunk_size=1, root=tmp_path)


@pytest.mark.parametrize("argv, fragment", [
    (["league", "sayc"], "at least 2 agents"),
    (["league", "sayc", "foo"], "unknown agent 'foo'"),
    (["league", "sayc", "random", "sayc"], "listed twice"),
    (["league", "sayc", "random", "--boards", "0"], "--boards must be >= 1, got 0"),
    (["league", "sayc", "random", "--search-boards", "0"], "--search-boards must be >= 1, got 0"),
    (["league", "sayc", "random", "--seed", "-1"], "--seed must be >= 0"),
    (["league", "sayc", "random", "--anchor", "nn:sl"], "--anchor 'nn:sl' is not one of the agents"),
    (["league", "sayc", "random", "--plot", "ratings.txt"], "--plot ratings.txt"),
    (["league", "sayc", "random", "--plot", "afile/x.png"], "--plot afile/x.png"),
    (["league", "sayc", "random", "--results", "afile"], "--results afile"),
    (["league", "sayc", "random", "--boards", "999999"], "999999 boards asked"),
    (["league", "sayc", "random", "--split", "nope"], "nope"),
])
def test_bad_options_are_one_line_and_leave_nothing(argv, fragment, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("not a folder")
    code, out, err = _run(argv, capsys)
    lines = [x for x in err.splitlines() if x.strip()]
    assert code != 0 and len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], (argv, err)
    assert "Traceback" not in out + err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_random_agents_are_shown_but_left_out_of_the_fit(tmp_path, capsys, monkeypatch):
    """A random agent loses far more to strong agents than to weak ones (not additive), so by
    default it stays in the cross-table and out of the ratings; --fit-without names others."""
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(["league", "random", "sayc", "nn:sl", "random:3", "--boards", "4", "--workers", "1"], capsys)
    assert code == 0, err
    assert "left out of the ratings fit (cross-table only): random, random:3" in out
    ratings = out[out.index("Ratings"):]
    assert "sayc" in ratings and "random" not in ratings.split("plot:")[0]
    code, out, err = _run(["league", "random", "sayc", "nn:sl", "random:3", "--boards", "4", "--workers", "1",
                           "--fit-without", "random:3"], capsys)
    assert code == 0, err
    ratings = out[out.index("Ratings"):].split("plot:")[0]
    assert "random " in ratings or "random\n" in ratings or "│ random" in ratings
    assert "random:3" not in ratings
