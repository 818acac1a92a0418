"""Where commands write, and what they accept before they start (issue 28).

No command writes into the package or the docs unless a flag names them; output paths and
agents are checked before anything is created or any connection made."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bidlab.cli import main

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "bidlab"


def _bidlab(args: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    """The command in a fresh interpreter (nothing registered by other tests), run in ``cwd``."""
    return subprocess.run([sys.executable, "-c", "from bidlab.cli import main; main()", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=timeout)


def _fingerprint() -> dict[str, str]:
    """Digest of every shipped data file and every docs file, plus git's view of the tree."""
    files = [p for top in (PACKAGE / "data", REPO / "docs") if top.exists() for p in top.rglob("*") if p.is_file()]
    out = {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}
    if (REPO / ".git").exists():
        r = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "--", "bidlab", "docs"],
                           cwd=REPO, capture_output=True, text=True)
        out["git status"] = r.stdout
    return out


def test_fitting_and_plotting_commands_write_only_into_results(tmp_path):
    """fit-rb, fit-curves, belief plot and rl-plot with their default outputs, from a scratch
    working directory: the package and the docs are untouched, the outputs are in ./results."""
    run = tmp_path / "rl-run"  # a finished RL run as rl-plot reads it (state.json, no checkpoint)
    run.mkdir()
    run.joinpath("state.json").write_text(json.dumps({"updates": 20, "evals": [
        {"update": 10, "seconds": 30.0, "imps": 0.1, "se": 0.2}, {"update": 20, "seconds": 60.0, "imps": 0.3, "se": 0.2}]}))
    before = _fingerprint()
    for args in (["spades", "fit-rb", "--rounds", "100"],
                 ["spades", "fit-curves", "--rounds", "100"],
                 ["belief", "plot", "--deals", "50"],
                 ["train", "rl-plot", str(run)]):
        r = _bidlab(args, tmp_path)
        assert r.returncode == 0, (args, r.stderr)
    assert _fingerprint() == before
    results = tmp_path / "results"
    made = sorted(p.relative_to(results).as_posix() for p in results.rglob("*") if p.is_file())
    assert "spades/rb_values_s0.json" in made and "spades/success_curves_s0.json" in made
    assert "belief_fig3.png" in made and "rl_curve.png" in made
    assert not (tmp_path / "docs").exists()
    # The fitted tables are what the shipped files hold, so naming the shipped file with --out still works.
    shipped = json.loads((PACKAGE / "data" / "spades" / "rb_values.json").read_text())
    assert set(json.loads((results / "spades" / "rb_values_s0.json").read_text())) == set(shipped)


def _unwritable_folder(tmp_path: Path) -> Path:
    if os.geteuid() != 0:
        d = tmp_path / "readonly"
        d.mkdir()
        d.chmod(0o555)
        return d
    return Path("/proc")  # root may write anywhere a mode allows; /proc takes no new files


def test_rl_plot_over_cpu_minutes_needs_runs_that_counted_them(tmp_path, capsys):
    """--x cpu plots equal-CPU comparisons; a run from before CPU time was recorded is named
    in a one-line error, and nothing is written."""
    new, old = tmp_path / "wide", tmp_path / "old"
    for run, evals in ((new, [{"update": 0, "seconds": 0.0, "cpu_seconds": 0.0, "imps": 0.0, "se": 0.2, "against": "nn:rl"},
                              {"update": 9, "seconds": 50.0, "cpu_seconds": 80.0, "imps": 0.1, "se": 0.2, "against": "nn:rl"}]),
                       (old, [{"update": 9, "seconds": 50.0, "imps": 0.1, "se": 0.2}])):
        run.mkdir()
        run.joinpath("state.json").write_text(json.dumps({"updates": 9, "evals": evals}))
    def exit_code(argv: list[str]) -> int:
        try:
            main(argv)
        except SystemExit as e:
            return 0 if e.code is None else e.code
        return 0

    assert exit_code(["train", "rl-plot", str(new), "--x", "cpu", "--out", str(tmp_path / "cpu.png")]) == 0
    assert (tmp_path / "cpu.png").read_bytes().startswith(b"\x89PNG")
    capsys.readouterr()
    assert exit_code(["train", "rl-plot", str(new), str(old), "--x", "cpu", "--out", str(tmp_path / "both.png")]) == 2
    err = capsys.readouterr().err
    assert str(old) in err and "--x minutes" in err and not (tmp_path / "both.png").exists()


def test_bluechip_serve_refuses_an_unwritable_out_before_waiting_for_programs(tmp_path, capsys):
    folder = _unwritable_folder(tmp_path)
    with pytest.raises(SystemExit) as e:
        main(["bluechip", "serve", "--boards", "1", "--port", "29731", "--accept-timeout", "1", "--out", str(folder)])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "--out" in err and "cannot write" in err, err


class _SilentManager:
    """A table manager that accepts one connection, records the first line, and says nothing."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.first_line = None
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        self.sock.settimeout(120)
        try:
            conn, _ = self.sock.accept()
            with conn:
                conn.settimeout(120)
                self.first_line = conn.makefile("r").readline().strip()
        except OSError:
            pass


def test_bluechip_connect_seats_a_search_agent(tmp_path):
    """``bmcs:`` is an agent spec like any other: the client connects with it and says who it is
    (the silent manager then makes it time out)."""
    tm = _SilentManager()
    r = _bidlab(["bluechip", "connect", "--seat", "N", "--port", str(tm.port), "--agent", "bmcs:sl",
                 "--timeout", "2"], tmp_path)
    tm.thread.join(10)
    assert "unknown agent" not in r.stderr, r.stderr
    assert tm.first_line is not None and tm.first_line.startswith('Connecting "bmcs:sl" as North'), (tm.first_line,
                                                                                                   r.stderr)


def test_data_expert_takes_a_search_teacher(tmp_path):
    """A search agent bids as the teacher, in the spawned worker too (max_prob=0: no search,
    the policy's own call, so the test is quick)."""
    r = _bidlab(["data", "expert", "--boards", "2", "--teacher", "bmcs:sl?max_prob=0", "--workers", "1",
                 "--out", str(tmp_path / "exp")], tmp_path)
    assert r.returncode == 0, r.stderr
    from bidlab.learn.data import AuctionSet

    assert len(AuctionSet.open(tmp_path / "exp")) == 2


def test_a_missing_bidding_model_lists_only_the_shipped_policies(tmp_path, capsys):
    from bidlab.agents.neural import shipped_models_dir

    with pytest.raises(SystemExit):
        main(["match", "sayc", "nn:nothere", "--out", str(tmp_path / "m")])
    err = capsys.readouterr().err
    metas = {p.stem: json.loads(p.read_text()) for p in shipped_models_dir().glob("*.json")}
    kinds = {name: m.get("kind") or m["net"]["kind"] for name, m in metas.items()}
    assert "policy" in kinds.values() and len(set(kinds.values())) > 1
    assert "no model at nothere" in err
    for name, kind in kinds.items():
        assert (name in err.split("models:")[1]) == (kind == "policy"), (name, err)


def test_train_sl_stopped_inside_the_first_epoch_names_no_model_it_did_not_write(tmp_path, capsys):
    from bidlab.learn.data import generate_expert

    generate_expert(tmp_path / "exp", 40, workers=1, shard_size=40)
    with pytest.raises(SystemExit) as e:
        main(["train", "sl", "--data", str(tmp_path / "exp"), "--out", str(tmp_path / "run"), "--preset", "tiny",
              "--batch-size", "4", "--max-steps", "2"])
    out = capsys.readouterr().out
    assert e.value.code == 0
    assert not (tmp_path / "run" / "model.safetensors").exists()
    assert "model.safetensors" not in out and "no model" in out, out


def test_output_to_a_pipe_is_neither_wrapped_nor_cut(tmp_path):
    """Piped into a file, result paths stay on one line and --help shows every option name whole."""
    import typer

    from bidlab.cli import app

    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}

    def piped(args: list[str]) -> str:
        r = subprocess.run([sys.executable, "-c", "from bidlab.cli import main; main()", *args], cwd=tmp_path,
                           capture_output=True, text=True, env=env, timeout=300)
        assert r.returncode == 0, r.stderr
        return r.stdout

    tournament = typer.main.get_command(app).commands["spades"].commands["tournament"]
    names = [o for p in tournament.params for o in p.opts + p.secondary_opts if o.startswith("--")]
    shown = piped(["spades", "tournament", "--help"])
    assert max(map(len, names)) > 20  # long enough to be cut in an 80-column box
    assert [n for n in names if n not in shown] == []
    out = tmp_path / ("a-long-folder-name-" * 5) / "match"
    lines = piped(["match", "sayc", "sayc", "--boards", "1", "--workers", "1", "--out", str(out)]).splitlines()
    assert any(f"results: {out}/results.jsonl" in line for line in lines), lines


def _interrupted(argv: list[str], capsys) -> tuple[int, list[str]]:
    with pytest.raises(SystemExit) as e:
        main(argv)
    err = capsys.readouterr().err
    return e.value.code, [line for line in err.splitlines() if line.strip()]


def test_ctrl_c_says_what_was_kept(tmp_path, capsys, monkeypatch):
    """Ctrl-C ends with code 130 and one line: a resumable command says a rerun resumes it,
    another only that it stopped, and one with its own message says it once."""
    import bidlab.dd.generate
    import bidlab.eval.match
    from bidlab.search.agents import SearchAgent

    def ctrl_c(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(bidlab.eval.match.Match, "run", ctrl_c)
    code, lines = _interrupted(["match", "sayc", "sayc", "--boards", "1", "--out", str(tmp_path / "m")], capsys)
    # a match says how many boards it kept (none here: Ctrl-C came before the first chunk ended)
    assert code == 130 and lines == ["stopped; no board had finished, so nothing was saved"]

    monkeypatch.setattr(SearchAgent, "search", ctrl_c)
    code, lines = _interrupted(["explain", "N:A6.8732.42.AKQ74 J9875.T.AT9.T932 KT32.AQJ54.753.J Q4.K96.KQJ86.865",
                                "--agent", "mcs:sl"], capsys)
    assert code == 130 and lines == ["stopped"]

    monkeypatch.setattr(bidlab.dd.generate, "generate", ctrl_c)
    code, lines = _interrupted(["dd", "generate", "-n", "4", "--out", str(tmp_path / "st")], capsys)
    assert code == 130 and len(lines) == 1 and "resume" in lines[0]


def test_a_training_rerun_says_where_it_resumes(tmp_path, capsys):
    from bidlab.learn.data import generate_expert

    generate_expert(tmp_path / "exp", 40, workers=1, shard_size=40)
    argv = ["train", "sl", "--data", str(tmp_path / "exp"), "--out", str(tmp_path / "run"), "--preset", "tiny",
            "--batch-size", "4"]
    with pytest.raises(SystemExit):
        main([*argv, "--max-steps", "2"])
    assert "resuming" not in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([*argv, "--max-steps", "3"])
    assert f"resuming {tmp_path / 'run'} from its checkpoint: step 2" in capsys.readouterr().out


def test_jps_table1_says_what_its_star_means(tmp_path, capsys):
    """The star marks a column where the best seed (not the mean) reached the best known value."""
    from bidlab.cli.jps import _print_table1
    from bidlab.tabular.table1 import COLUMNS

    _print_table1(tmp_path, list(COLUMNS)[:1])
    out = " ".join(capsys.readouterr().out.split())
    assert "* after a mean: at least one seed reached the best known value" in out


def test_a_spades_tournament_rerun_says_how_many_games_were_played(tmp_path, capsys):
    argv = ["spades", "tournament", "--out", str(tmp_path / "t"), "--workers", "1"]
    with pytest.raises(SystemExit):
        main([*argv, "--games", "2"])
    assert "resuming" not in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([*argv, "--games", "4"])
    assert f"resuming {tmp_path / 't'}: 2 of 4 games already played" in " ".join(capsys.readouterr().out.split())


def test_train_rl_live_line_says_which_update_its_validation_result_is_from(tmp_path):
    """Issue 28: the live line showed "+0.00 ± 0.00" (the start policy against itself) until
    the first evaluation, as if it were the current result; it now names the update measured."""
    r = _bidlab(["train", "rl", "--init", "none", "--preset", "tiny", "--out", str(tmp_path / "run"),
                 "--updates", "12", "--eval-every", "1000"], tmp_path)
    assert r.returncode == 0, r.stderr
    live = [line for line in r.stdout.splitlines() if "IMPs vs SL" in line]
    assert live and all(" at upd 0 " in line for line in live), live
