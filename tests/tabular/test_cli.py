"""``bidlab jps`` commands."""

import json

from typer.testing import CliRunner

from bidlab.cli import app

runner = CliRunner()


def test_games_prints_table1_counts():
    res = runner.invoke(app, ["jps", "games"])
    assert res.exit_code == 0, res.output
    assert "147421" in res.output and "24571" in res.output and "2129793" in res.output


def test_table1_runs_checkpoints_and_resumes(tmp_path):
    out = tmp_path / "t1.json"
    res = runner.invoke(app, ["jps", "table1", "--seeds", "2", "--games", "mini_hanabi", "--results", str(out)])
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    first = data["columns"]["mini_hanabi"]
    assert [r["seed"] for r in first] == [0, 1]
    assert all(r["jps"] >= r["jps_start"] - 1e-12 for r in first)
    res = runner.invoke(app, ["jps", "table1", "--seeds", "3", "--games", "mini_hanabi", "--results", str(out)])
    assert res.exit_code == 0, res.output
    again = json.loads(out.read_text())["columns"]["mini_hanabi"]
    assert again[:2] == first  # finished seeds were kept, not recomputed
    assert again[2]["seed"] == 2
    assert "Mini-Hanabi" in res.output and "9.50" in res.output  # the paper's value beside ours


def test_table1_bad_game_is_a_clear_error(tmp_path):
    res = runner.invoke(app, ["jps", "table1", "--games", "poker:3", "--results", str(tmp_path / "x.json")])
    assert res.exit_code == 2
    assert "no Table 1 column" in res.output


def test_table1_corrupt_checkpoint(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    res = runner.invoke(app, ["jps", "table1", "--report-only", "--results", str(bad)])
    assert res.exit_code == 2
    assert "not valid JSON" in res.output
