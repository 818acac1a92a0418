"""Tournament runner: seat alternation, resume, repeatability, statistics, CLI."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from bidlab.cli import app
from bidlab.runtime.progress import CountingProgress
from bidlab.runtime.shards import ShardStore
from bidlab.spades.errors import TournamentError
from bidlab.spades.tournament import (
    TournamentConfig,
    play_tournament_game,
    read_results,
    run_tournament,
    summarize,
)


def _strip(results):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in results]


def test_resume_gives_the_same_results_as_one_run(tmp_path):
    cfg10 = TournamentConfig("io", "rb", "srp", "wrp", games=10, seed=3)
    one = tmp_path / "one"
    run_tournament(cfg10, one, workers=1)
    part = tmp_path / "part"
    run_tournament(TournamentConfig("io", "rb", "srp", "wrp", games=4, seed=3), part, workers=1)
    assert len(read_results(part)[1]) == 4
    run_tournament(cfg10, part, workers=2)
    a, b = read_results(one)[1], read_results(part)[1]
    assert _strip(a) == _strip(b)
    assert [r["index"] for r in b] == list(range(10))
    assert read_results(part)[0] == cfg10.identity()


def test_resume_refuses_a_different_setup(tmp_path):
    out = tmp_path / "t"
    run_tournament(TournamentConfig("rb", "rb", games=2, seed=1), out, workers=1)
    with pytest.raises(TournamentError, match="different setup"):
        run_tournament(TournamentConfig("ms", "rb", games=2, seed=1), out, workers=1)


def test_pairs_share_deals_and_swap_seats():
    cfg = TournamentConfig("rb", "rb", "srp", "srp", games=2, seed=5)
    g0 = play_tournament_game(cfg, 0)
    g1 = play_tournament_game(cfg, 1)
    assert (g0["a_side"], g1["a_side"]) == (0, 1)
    # Identical bidders and players on both sides and the same deals: the pair is a mirror.
    assert g0["rounds"] == g1["rounds"]
    assert g0["result_a"] + g1["result_a"] == 1
    assert (g0["points_a"], g0["points_b"]) == (g1["points_b"], g1["points_a"])


def test_summary_statistics_by_hand():
    rs = []
    # Pair 0: A wins both; pair 1: A wins one; pair 2: A loses both.
    for i, res in enumerate([1, 1, 1, 0, 0, 0]):
        rs.append({"index": i, "result_a": float(res), "rounds": 2, "points_a": 10 * res, "points_b": 5,
                   "nil": {"a_bids": 0, "a_made": 0, "b_bids": 1, "b_made": 1}})  # fmt: skip
    s = summarize(rs)
    assert s["win_rate_a"] == pytest.approx(0.5)
    # Pair sums 2, 1, 0 around 0.5 * 2: deviations 1, 0, -1 -> sqrt(2 * 3 / 2) / 6.
    assert s["win_rate_a_se"] == pytest.approx(math.sqrt(2 * 3 / 2) / 6)
    assert s["points_per_round_a"] == pytest.approx(30 / 12)
    assert s["points_per_round_b"] == pytest.approx(5.0 / 2)
    assert s["points_per_round_b_se"] == pytest.approx(0.0)
    assert s["nil_rate_b"] == pytest.approx(6 / 12) and s["nil_success_b"] == 1.0


def test_bad_config_is_rejected():
    with pytest.raises(TournamentError, match="unknown bidder"):
        TournamentConfig("xx", "rb")
    with pytest.raises(TournamentError, match="unknown player"):
        TournamentConfig("rb", "rb", "zzz")


def test_cli_tournament_and_summary(tmp_path):
    out = tmp_path / "cli"
    runner = CliRunner()
    r = runner.invoke(app, ["spades", "tournament", "--bidders", "ms,rb", "--player", "srp", "--games", "4",
                            "--workers", "1", "--out", str(out)])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "win rate" in r.output and out.exists()
    r = runner.invoke(app, ["spades", "summary", str(out)])
    assert r.exit_code == 0 and "ms+srp" in r.output
    r = runner.invoke(
        app, ["spades", "tournament", "--bidders", "nope", "--games", "2", "--out", str(tmp_path / "x")]
    )
    assert r.exit_code == 2 and "unknown bidder" in r.output


def test_cli_play_with_scripted_human(monkeypatch):
    """A whole game through ``bidlab spades play`` with a scripted person at South who
    bids 3 and types the first legal card it is shown."""
    from bidlab.spades import human
    from bidlab.spades.engine import card_str, mask_cards

    shown = {}

    class Typist(human.HumanBidderPlayer):
        def play(self, view):
            shown["card"] = card_str(mask_cards(view.legal)[0])
            return super().play(view)

    answers = {"bid": "3"}

    def ask(prompt):
        return answers["bid"] if prompt.startswith("Your bid") else shown["card"]

    monkeypatch.setattr(human, "HumanBidderPlayer", lambda console: Typist(console, ask=ask))
    r = CliRunner().invoke(app, ["spades", "play", "--seed", "3", "--goal", "100", "--lose", "-50"])
    assert r.exit_code == 0, r.output
    assert "Your hand" in r.output and "Legal:" in r.output and "Game over" in r.output


def test_a_shorter_rerun_keeps_every_finished_game(tmp_path):
    """Issue 20: 20 games, then the same with 4, left 4 results in the file."""
    out = tmp_path / "t"
    run_tournament(TournamentConfig("rb", "ms", games=6, seed=3), out, workers=1)
    with pytest.raises(TournamentError, match="6 games"):
        run_tournament(TournamentConfig("rb", "ms", games=4, seed=3), out, workers=1)
    assert [r["index"] for r in read_results(out)[1]] == list(range(6))
    # Only the game count grows: the tournament is extended.
    s = run_tournament(TournamentConfig("rb", "ms", games=8, seed=3), out, workers=1)
    assert s["games"] == 8 and len(read_results(out)[1]) == 8


def test_default_file_name_tells_tournaments_apart(tmp_path, monkeypatch):
    """Issue 20: the default results file was keyed on the goal, not on every setting."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    base = ["spades", "tournament", "--bidders", "rb,ms", "--games", "2", "--workers", "1", "--seed", "3"]
    assert runner.invoke(app, base).exit_code == 0
    r = runner.invoke(app, [*base, "--lose", "-200"])
    assert r.exit_code == 0, r.output
    assert len([p for p in (tmp_path / "results" / "spades").iterdir() if p.is_dir()]) == 2


def test_worker_pool_shuts_down_without_tracebacks(tmp_path):
    """Issue 20: about half of normal runs printed ~32 lines of KeyboardInterrupt from the
    workers (they inherited the SIGTERM handler that the pool's shutdown then triggered)."""
    import subprocess
    import sys

    code = (
        "from pathlib import Path; from bidlab.spades.tournament import TournamentConfig, run_tournament\n"
        "for i in range(3):\n"
        f"    run_tournament(TournamentConfig('rb', 'ms', games=4, seed=i), Path(r'{tmp_path}') / f't{{i}}', workers=2)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "KeyboardInterrupt" not in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_ctrl_c_stops_with_one_line(tmp_path):
    """Issue 20: Ctrl-C printed worker tracebacks; it must print one line and keep the games."""
    import os
    import re
    import signal
    import subprocess
    import sys

    out = tmp_path / "c"
    cmd = [sys.executable, "-c", "from bidlab.cli import main; main()", "spades", "tournament", "--bidders",
           "rb,ms", "--games", "100000", "--workers", "2", "--out", str(out)]  # fmt: skip
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    first = p.stdout.readline()  # printed once the tournament is set up, before the pool starts
    assert "side A" in first
    # No sleep: wait until the progress line (one every 15 s off a terminal) reports games done.
    finished = 0
    for line in p.stdout:
        m = re.match(r"games: (\d+)/", line)
        if m and int(m.group(1)) > 0:
            finished = int(m.group(1))
            break
    assert finished, "the run printed no progress"
    os.killpg(p.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole process group
    stdout, stderr = p.communicate(timeout=120)
    assert p.returncode == 130, (stdout, stderr)
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert stderr.strip() == ""
    assert "stopped" in stdout
    assert len(read_results(out)[1]) >= finished, "every game reported finished is kept"


def _legacy_file(path, cfg, games, planned):
    """A results file as bidlab wrote it before the shard store (format 1)."""
    results = [play_tournament_game(cfg, i) for i in games]
    path.write_text(json.dumps({"format": 1, "config": cfg.identity(), "games_planned": planned,
                                "summary": summarize(results), "results": results}))
    return results


class StartCounting(CountingProgress):
    """Also keeps the number of games already done when the run started."""

    def start(self, total, done=0):
        super().start(total, done)
        self.started_with = done


def test_an_old_results_file_is_upgraded_without_losing_or_replaying_a_game(tmp_path):
    cfg = TournamentConfig("rb", "ms", games=8, seed=4)
    old = tmp_path / "row.json"
    # An interrupted old run: games finish out of order, so the file has a hole (game 3).
    kept = _legacy_file(old, cfg, [0, 1, 2, 4, 5], planned=8)
    before = old.read_bytes()
    progress = StartCounting()
    s = run_tournament(cfg, tmp_path / "row", workers=1, progress=progress)
    assert (progress.total, progress.started_with, progress.done) == (8, 5, 8)  # 3 and 6, 7 played
    assert s["games"] == 8
    got = read_results(tmp_path / "row")[1]
    assert [r["index"] for r in got] == list(range(8))
    # the old games are copied as they were (their timings too: none was replayed) ...
    assert [r for r in got if r["index"] in (0, 1, 2, 4, 5)] == kept
    # ... only the missing ones were played, as a fresh run plays them
    run_tournament(cfg, tmp_path / "fresh", workers=1)
    assert _strip(got) == _strip(read_results(tmp_path / "fresh")[1])
    assert old.read_bytes() == before  # the old file is only read
    # either spelling of --out names the same results; the old planned size still holds (#20)
    assert read_results(old)[1] == got
    with pytest.raises(TournamentError, match="8 games"):
        run_tournament(TournamentConfig("rb", "ms", games=6, seed=4), old, workers=1)


def test_games_an_old_process_adds_later_are_copied_at_the_next_open(tmp_path):
    cfg = TournamentConfig("rb", "ms", games=4, seed=6)
    old = tmp_path / "row.json"
    _legacy_file(old, cfg, [0, 1], planned=6)
    with pytest.raises(TournamentError, match="6 games"):  # opened (and upgraded), not played
        run_tournament(cfg, old, workers=1)
    late = _legacy_file(old, cfg, [0, 1, 2, 3, 4], planned=6)  # the old process went on
    progress = StartCounting()
    run_tournament(TournamentConfig("rb", "ms", games=6, seed=6), old, workers=1, progress=progress)
    assert (progress.total, progress.started_with, progress.done) == (6, 5, 6)
    got = read_results(tmp_path / "row")[1]
    assert len(got) == 6 and got[2:5] == late[2:5]  # copied, not replayed
    store = ShardStore.open(tmp_path / "row")
    assert sorted(i for sh in store.shards for i in sh.fields["games"]) == list(range(6))


def test_an_old_results_file_of_another_setup_is_refused(tmp_path):
    _legacy_file(tmp_path / "row.json", TournamentConfig("rb", "ms", games=2, seed=1), [0], planned=2)
    with pytest.raises(TournamentError, match="different setup"):
        run_tournament(TournamentConfig("rb", "io", games=2, seed=1), tmp_path / "row", workers=1)
    assert not (tmp_path / "row").exists()
