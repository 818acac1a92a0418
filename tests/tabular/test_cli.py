"""``bidlab jps`` commands."""

import pytest
from typer.testing import CliRunner

from bidlab.cli import app
from bidlab.errors import BidlabError
from bidlab.tabular.table1 import load_column, run_column

runner = CliRunner()


def test_games_prints_table1_counts():
    res = runner.invoke(app, ["jps", "games"])
    assert res.exit_code == 0, res.output
    assert "147421" in res.output and "24571" in res.output and "2129793" in res.output


def test_table1_runs_checkpoints_and_resumes(tmp_path):
    out = tmp_path / "t1"
    res = runner.invoke(app, ["jps", "table1", "--seeds", "2", "--games", "mini_hanabi", "--results", str(out)])
    assert res.exit_code == 0, res.output
    first = load_column(out, "mini_hanabi")
    assert [r["seed"] for r in first] == [0, 1]
    assert all(r["jps"] >= r["jps_start"] - 1e-12 for r in first)
    res = runner.invoke(app, ["jps", "table1", "--seeds", "3", "--games", "mini_hanabi", "--results", str(out)])
    assert res.exit_code == 0, res.output
    again = load_column(out, "mini_hanabi")
    assert again[:2] == first  # finished seeds were kept, not recomputed
    assert again[2]["seed"] == 2
    assert "Mini-Hanabi" in res.output and "9.50" in res.output  # the paper's value beside ours


def test_table1_writes_under_the_working_folder_by_default(tmp_path, monkeypatch):
    """Issue 20: the default was an absolute path of one machine (/work/results/...)."""
    from bidlab.cli.jps import DEFAULT_RESULTS, DEFAULT_RESULTS_TABLE2

    assert not DEFAULT_RESULTS.is_absolute() and not DEFAULT_RESULTS_TABLE2.is_absolute()
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["jps", "table1", "--seeds", "1", "--games", "comm:3"])
    assert res.exit_code == 0, res.output
    assert [r["seed"] for r in load_column(tmp_path / "results" / "tabular" / "table1", "comm:3")] == [0]


def test_table1_unwritable_results_is_a_one_line_error(tmp_path):
    """Issue 20: an unwritable --results gave a traceback."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    res = runner.invoke(app, ["jps", "table1", "--seeds", "1", "--games", "comm:3", "--results", str(blocker / "t1")])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "Traceback" not in res.output
    errors = [ln for ln in res.output.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and "cannot create a store here" in errors[0], res.output


def test_table1_bad_game_is_a_clear_error(tmp_path):
    res = runner.invoke(app, ["jps", "table1", "--games", "poker:3", "--results", str(tmp_path / "x")])
    assert res.exit_code == 2
    assert "no Table 1 column" in res.output


def test_table1_corrupt_checkpoint(tmp_path):
    bad = tmp_path / "t1" / "mini_hanabi"
    bad.mkdir(parents=True)
    (bad / "manifest.json").write_text("{not json")
    res = runner.invoke(app, ["jps", "table1", "--report-only", "--games", "mini_hanabi", "--results",
                              str(tmp_path / "t1")])
    assert res.exit_code == 2
    assert "not valid JSON" in res.output


def test_table1_refuses_a_folder_of_other_settings(tmp_path):
    run_column("comm:3", 1, tmp_path, runner=lambda spec, seed: {"seed": seed, "x": 1}, table="table2",
               settings={"samples": [1]})
    with pytest.raises(BidlabError, match="other settings"):
        run_column("comm:3", 1, tmp_path, runner=lambda spec, seed: {"seed": seed}, table="table2",
                   settings={"samples": [2]})


def test_table2_runs(tmp_path):
    out = tmp_path / "t2"
    res = runner.invoke(app, ["jps", "table2", "--seeds", "1", "--samples", "0,1", "--results", str(out)])
    assert res.exit_code == 0, res.output
    rec = load_column(out, "mini_hanabi")[0]
    assert rec["k0"] >= rec["cfr_pure"] - 1e-9 and 0 <= rec["k1"] <= 10
    assert "10.00" in res.output  # the paper's 1-sample value beside ours
    res = runner.invoke(app, ["jps", "table2", "--samples", "1,x", "--results", str(out)])
    assert res.exit_code == 2 and "comma-separated" in res.output


def test_speed_measure_agrees_with_brute_force():
    from bidlab.tabular.speed import SpeedCase, measure

    r = measure(SpeedCase("comm:3", None, 3.0, "Comm L=3"), max_brute=10_000)
    assert r.brute_sampled == r.proposals == 624  # 8 x (2 + 4 + 8) + 8 x 8 x 8 chains
    assert r.agree
    r = measure(SpeedCase("simple_bidding:4", 2, 1.0, "SB4"), max_brute=20)
    assert r.brute_sampled == 20 < r.proposals  # scaled from a sample when there are more
