"""Every ``bidlab`` command with bad input, as a new user types it: a non-zero exit code, one
line on stderr that names the problem, no traceback, and nothing left on disk.

The commands run in-process through :func:`bidlab.cli.main` (the console script's entry
point); one case also runs the installed script in a subprocess to check the same path.
"""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from bidlab.cli import main

EXPLAIN_DEAL = "N:A6.8732.42.AKQ74 J9875.T.AT9.T932 KT32.AQJ54.753.J Q4.K96.KQJ86.865"
PLAY_DEAL = "N:AKQ.AQ.AKQJ.AKQJ JT98765.K.T9876. 432.32.5432.5432 .JT987654..T9876"

# (argv, a fragment the one line must contain). "{tmp}" is the test's temporary folder.
BAD_INPUTS = [
    (["deal", "--seed", "-5"], "--seed"),
    (["deal", "--board", "0"], "--board"),
    (["deal", "--pbn", "N:AKQ nonsense"], "'N:AKQ nonsense'"),
    (["score", "4SXXX", "-t", "9"], "at most XX"),
    (["score", "X", "-t", "9"], "a contract must be a bid"),
    (["score", "8S", "-t", "9"], "8S"),
    (["score", "4S", "-t", "14"], "--tricks"),
    (["score", "4S", "-t", "9", "--vul", "sometimes"], "sometimes"),
    (["score", "4S", "-t", "9", "--declarer", "Q"], "Q"),
    (["score"], "Missing argument"),
    (["match", "foo", "sayc", "--out", "{tmp}/m"], "unknown agent 'foo'"),
    (["match", "nn:sl:weird", "sayc", "--out", "{tmp}/m"], "unknown mode 'weird'"),
    (["match", "sayc", "nn:nothere", "--out", "{tmp}/m"], "no model at nothere"),
    (["match", "sayc", "random:x", "--out", "{tmp}/m"], "integer seed"),
    (["match", "sayc", "sayc", "--seed", "-1", "--out", "{tmp}/m"], "--seed"),
    (["match", "sayc", "sayc", "--boards", "0", "--out", "{tmp}/m"], "--boards"),
    (["match", "sayc", "sayc", "--split", "nope", "--out", "{tmp}/m"], "nope"),
    (["match", "sayc", "sayc", "--store", "{tmp}/nostore", "--out", "{tmp}/m"], "nostore"),
    (["match", "sayc", "sayc", "--scoring", "both", "--out", "{tmp}/m"], "--scoring"),
    (["match", "sayc", "sayc", "--scoring", "played", "--card-player", "dd", "--out", "{tmp}/m"], "peeks"),
    (["match", "sayc", "sayc", "--scoring", "played", "--card-player", "gib", "--out", "{tmp}/m"],
     "unknown card player 'gib'"),
    (["play", PLAY_DEAL, "--contract", "7NT", "--declarer", "Q"], "Q"),
    (["play", PLAY_DEAL, "--contract", "8NT", "--declarer", "S"], "8NT"),
    (["play", "N:AKQ nonsense", "--contract", "7NT", "--declarer", "S"], "'N:AKQ nonsense'"),
    (["play", PLAY_DEAL, "--contract", "7NT", "--declarer", "S", "--lead", "SA"], "not in the opening leader"),
    (["play", PLAY_DEAL, "--contract", "7NT", "--declarer", "S", "--auction", "1NT P P P"], "does not end in 7NT"),
    (["play", PLAY_DEAL, "--contract", "7NT", "--declarer", "S", "--player", "gib"], "unknown card player"),
    (["report", "{tmp}/nothere", "--out", "{tmp}/r"], "nothere"),
    (["report", "{match}", "--out", "{tmp}/afile"], "is a file"),
    (["report", "{match}", "--out", "{tmp}/afile/sub"], "afile/sub"),
    (["serve", "--port", "{busy}"], "busy"),
    (["serve", "--port", "70000"], "--port"),
    (["serve", "--host", "no.such.host.invalid"], "no.such.host.invalid"),
    (["data", "expert", "--boards", "2", "--teacher", "foo", "--out", "{tmp}/d"], "unknown agent 'foo'"),
    (["data", "expert", "--boards", "2", "--seed", "-1", "--out", "{tmp}/d"], "--seed"),
    (["data", "import-pbn", "{tmp}/nothere.pbn", "--out", "{tmp}/d"], "nothere.pbn"),
    (["data", "import-openspiel", "{tmp}/nothere.txt", "--out", "{tmp}/d"], "nothere.txt"),
    (["train", "sl", "--data", "{tmp}/nodata", "--out", "{tmp}/run"], "nodata"),
    (["train", "sl", "--data", "{tmp}/nodata", "--device", "cuda:7", "--out", "{tmp}/run"], "cuda"),
    (["train", "sl", "--data", "{tmp}/nodata", "--device", "toaster", "--out", "{tmp}/run"], "toaster"),
    (["train", "sl", "--data", "{tmp}/nodata", "--seed", "-3", "--out", "{tmp}/run"], "--seed"),
    (["train", "accuracy", "nomodel", "--data", "{tmp}/nodata"], "nomodel"),
    (["train", "rl", "--updates", "1", "--swa-from", "-1", "--out", "{tmp}/run"], "--swa-from"),
    (["train", "rl", "--updates", "1", "--swa-from", "0", "--swa-every", "0", "--out", "{tmp}/run"], "--swa-every"),
    (["train", "average", "nn:rl", "nn:belief", "--out", "{tmp}/avg"], "belief net, not a policy"),
    (["train", "average", "nn:rl", "nn:nothere", "--out", "{tmp}/avg"], "no model at nothere"),
    (["train", "average", "nn:rl", "nn:sl", "--weights", "1", "--out", "{tmp}/avg"], "1 weights for 2 nets"),
    (["train", "average", "nn:rl", "nn:sl", "--weights", "1,-2", "--out", "{tmp}/avg"], "must be >= 0"),
    (["train", "average", "nn:rl", "nn:sl", "--weights", "1,x", "--out", "{tmp}/avg"], "'1,x'"),
    (["train", "average", "nn:rl", "nn:partner", "--out", "{tmp}/avg"], "play-time settings"),
    (["train", "average", "nn:rl", "nn:sl", "--out", "{tmp}/afile/sub"], "afile"),
    (["dd", "table", "N:AKQ2 bad"], "N:AKQ2 bad"),
    (["dd", "generate", "-n", "2", "--out", "{tmp}/st", "--seed", "-1"], "--seed"),
    (["dd", "verify", "{tmp}/nostore"], "nostore"),
    (["dd", "info", "{tmp}/nostore"], "nostore"),
    (["dd", "import", "{tmp}/no.npz", "--out", "{tmp}/st", "--seed", "0", "--shard-size", "4"], "no.npz"),
    (["spades", "tournament", "--bidders", "zz", "--games", "1", "--out", "{tmp}/sp.json"], "zz"),
    (["spades", "summary", "{tmp}/afile"], "afile"),
    (["jps", "table2", "--samples", "x,y", "--results", "{tmp}/t2.json"], "--samples"),
    (["jps", "table1", "--games", "nosuchgame", "--results", "{tmp}/t1.json"], "nosuchgame"),
    (["train", "rl", "--updates", "1", "--out", "{tmp}/rl", "--jps", "0.1", "--jps-loss", "mse"], "--jps-loss"),
    # issue 28: every option and output path is checked before anything is created
    (["train", "sl", "--data", "{tmp}/nodata", "--lr", "-1", "--out", "{tmp}/run"], "--lr must be > 0, got -1"),
    (["train", "sl", "--data", "{tmp}/nodata", "--out", "{tmp}/afile"], "--out {tmp}/afile: is a file"),
    (["train", "sl", "--data", "{tmp}/nodata", "--max-steps", "0", "--out", "{tmp}/run"], "--max-steps"),
    (["train", "rl", "--updates", "1", "--lr-policy", "-1", "--out", "{tmp}/rl"], "--lr-policy must be > 0"),
    (["train", "rl", "--updates", "1", "--lr-value", "0", "--out", "{tmp}/rl"], "--lr-value must be > 0"),
    (["train", "rl", "--updates", "1", "--judge-weight", "1", "--out", "{tmp}/rl"], "need --judge"),
    (["train", "rl", "--updates", "1", "--judge", "judge", "--out", "{tmp}/rl"], "--judge needs --judge-weight"),
    (["train", "rl", "--updates", "1", "--judge", "nosuch", "--judge-weight", "1", "--out", "{tmp}/rl"], "--judge nosuch"),
    (["train", "rl", "--cpu-minutes", "0", "--out", "{tmp}/rl"], "--cpu-minutes must be > 0"),
    (["train", "rl-plot", "{tmp}/norun", "--x", "wall", "--out", "{tmp}/x.png"], "--x must be minutes, cpu or updates"),
    (["train", "rl", "--updates", "1", "--out", "{tmp}/afile"], "--out {tmp}/afile: is a file"),
    (["train", "rl", "--updates", "1", "--init", "nn:foo", "--out", "{tmp}/rl"], "no model at foo"),
    (["train", "rl", "--updates", "1", "--init", "belief", "--out", "{tmp}/rl"], "not a policy"),
    (["train", "rl", "--updates", "1", "--backend", "mpi", "--out", "{tmp}/rl"], "--backend"),
    # issue 26: the league's main exploiter
    (["train", "rl", "--updates", "1", "--league-exploiter", "0.25", "--out", "{tmp}/rl"],
     "--league-exploiter and its settings need --league"),
    (["train", "rl", "--updates", "1", "--league", "--league-fixed", "sayc", "--league-exploiter", "1.5", "--out",
      "{tmp}/rl"], "--league-exploiter must be in [0, 1), got 1.5"),
    (["train", "rl", "--updates", "1", "--league", "--league-fixed", "sayc", "--league-exploiter", "0.25",
      "--league-exploiter-patience", "-1", "--out", "{tmp}/rl"], "--league-exploiter-patience must be >= 0, got -1"),
    (["train", "rl", "--updates", "1", "--league", "--league-fixed", "sayc", "--league-exploiter", "0.25",
      "--league-exploiter-eval-every", "0", "--out", "{tmp}/rl"], "--league-exploiter-eval-every must be >= 1, got 0"),
    (["train", "rl", "--updates", "1", "--league", "--league-exploiter", "0.25", "--backend", "ray", "--out",
      "{tmp}/rl"], "--league-exploiter runs with --backend local only"),
    (["train", "rl-plot", "{tmp}/norun", "--out", "{tmp}/afile/x.png"], "--out {tmp}/afile/x.png"),
    (["belief", "plot", "--out", "{tmp}/afile/x.png"], "--out {tmp}/afile/x.png"),
    (["explain", EXPLAIN_DEAL, "--plot", "{tmp}/afile/x.png"], "--plot {tmp}/afile/x.png"),
    (["bluechip", "serve", "--boards", "1", "--out", "{tmp}/afile"], "--out {tmp}/afile: is a file"),
    (["bluechip", "connect", "--seat", "N", "--port", "1", "--agent", "foo"], "unknown agent 'foo'"),
    (["bluechip", "connect", "--seat", "N", "--port", "1", "--play", "cheat"], "--play"),
    (["spades", "fit-rb", "--rounds", "100", "--out", "{tmp}/afile/rb.json"], "--out {tmp}/afile/rb.json"),
    (["spades", "fit-curves", "--rounds", "100", "--out", "{tmp}/afile/c.json"], "--out {tmp}/afile/c.json"),
    (["match", "nn:tricks", "sayc", "--out", "{tmp}/m"], "is a tricks model"),
    (["match", "nn:belief", "sayc", "--out", "{tmp}/m"], "got a belief net"),
    (["match", "bmcs:sl?k=0", "sayc", "--out", "{tmp}/m"], "got k=0"),
    (["spades", "tournament", "--goal", "-5", "--games", "1", "--out", "{tmp}/sp"], "--goal must be > 0, got -5"),
    (["spades", "tournament", "--lose", "5", "--games", "1", "--out", "{tmp}/sp"], "--lose must be < 0, got 5"),
    (["data", "expert", "--boards", "2", "--out", "{tmp}"], "holds no manifest.json; use another folder"),
    (["data", "expert", "--boards", "2", "--seed", "5", "--out", "{auctions}"], "holds an auctions job"),
    (["nope"], "No such command"),
    (["deal", "--colour"], "--colour"),
    # issue 44: the doubling judge's training, punishers, and the oracle refused where bidlab plays
    (["train", "judge", "--preset", "huge", "--out", "{tmp}/j"], "--preset must be one of cpu, paper, got 'huge'"),
    (["train", "judge", "--deals", "0", "--out", "{tmp}/j"], "--deals must be >= 1, got 0"),
    (["train", "judge", "--deals", "99999999", "--out", "{tmp}/j"], "--deals 99999999: the train split has"),
    (["train", "judge", "--validation-deals", "99999", "--out", "{tmp}/j"], "the validation split has"),
    (["train", "judge", "--lr", "-1", "--out", "{tmp}/j"], "--lr must be > 0"),
    (["train", "judge", "--focus", "1.5", "--out", "{tmp}/j"], "--focus must be in [0, 1], got 1.5"),
    (["train", "judge", "--checkpoint-seconds", "0", "--out", "{tmp}/j"], "--checkpoint-seconds must be > 0"),
    (["train", "judge", "--agent", "foo", "--out", "{tmp}/j"], "--agent: unknown agent 'foo'"),
    (["train", "judge", "--agent", "oracle-punish:sayc", "--out", "{tmp}/j"], "looks at the hidden hands"),
    (["train", "judge", "--out", "{tmp}/afile"], "is a file"),
    (["train", "judge", "--device", "nonsense", "--out", "{tmp}/j"], "not a torch device"),
    (["match", "punish:sayc?threshold=abc", "sayc", "--out", "{tmp}/m"], "threshold='abc' is not a float"),
    (["match", "punish:", "sayc", "--out", "{tmp}/m"], "needs the agent it wraps"),
    (["match", "oracle-punish:sayc?down=0", "sayc", "--out", "{tmp}/m"], "down must be >= 1"),
    (["league", "oracle-punish:sayc", "sayc", "--results", "{tmp}/r"], "cannot sit in a league's ratings"),
    (["bluechip", "connect", "--seat", "N", "--agent", "oracle-punish:sayc", "--port", "{busy}"],
     "cannot sit in a Blue Chip table"),
]


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    """A finished 1-board match to point ``report`` at, and a port that is in use."""
    from bidlab.eval.match import Match, MatchConfig

    root = tmp_path_factory.mktemp("cli-errors")
    Match(MatchConfig("random", "sayc", boards=1, seed=1, chunk_size=1), root / "match").run(workers=1)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    from bidlab.learn.data import AuctionSet

    AuctionSet.open_or_create(root / "auctions", {"kind": "expert", "teacher": "sayc", "seed": 0, "shard_size": 5000})
    yield {"match": str(root / "match"), "busy": str(sock.getsockname()[1]), "auctions": str(root / "auctions")}
    sock.close()


def _run_main(argv, capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsys.readouterr()
    code = exit_info.value.code
    return (0 if code is None else code), out, err


@pytest.mark.parametrize("argv, fragment", BAD_INPUTS, ids=[" ".join(a[:3]) for a, _ in BAD_INPUTS])
def test_bad_input_is_one_line_on_stderr(argv, fragment, tmp_path, shared, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("not a folder")
    before = sorted(p.name for p in tmp_path.iterdir())
    argv = [a.format(tmp=tmp_path, **shared) for a in argv]
    fragment = fragment.format(tmp=tmp_path, **shared)
    code, out, err = _run_main(argv, capsys)
    assert code != 0, (argv, out, err)
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1, (argv, err)
    assert lines[0].startswith("error: ") and fragment in lines[0], (argv, lines[0])
    assert "Traceback" not in err + out and "nan" not in lines[0].split()
    # no internals (a dataclass's repr, a Python signature) and no clause said twice
    assert "Config(" not in lines[0] and "__init__()" not in lines[0], lines[0]
    clauses = lines[0].split("; ")
    assert len(clauses) == len(set(clauses)), lines[0]
    # A refused command leaves nothing behind: no match folder, no empty store, no run folder.
    assert sorted(p.name for p in tmp_path.iterdir()) == before, argv


def test_the_installed_entry_point_gives_one_line_and_exit_code_2(tmp_path):
    r = subprocess.run([sys.executable, "-c", "from bidlab.cli import main; main()", "deal", "--seed", "-5"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "--seed" in r.stderr and "Traceback" not in r.stderr


def test_version_prints_the_package_version(capsys):
    from importlib.metadata import version

    code, out, err = _run_main(["--version"], capsys)
    assert code == 0 and out.strip() == f"bidlab {version('bidlab')}" and err == ""


def _all_help_texts(command, path=()):
    """(command path, help text) of every command and option, from the click tree."""
    yield " ".join(path), command.help or ""
    for p in command.params:
        yield " ".join(path) + " " + (p.opts[0] if p.opts else p.name), getattr(p, "help", None) or ""
    for name, sub in getattr(command, "commands", {}).items():
        yield from _all_help_texts(sub, (*path, name))


def test_help_texts_do_not_describe_the_developers_machine():
    import typer

    from bidlab.cli import app

    texts = list(_all_help_texts(typer.main.get_command(app)))
    assert len(texts) > 50
    machine = ("this machine", "2 cores", "two cores", "both cores", "2-core", "/work/")
    bad = [(where, t) for where, t in texts if any(m in t.lower() for m in machine)]
    assert bad == []


def test_a_busy_port_is_refused_before_the_url_is_announced(capsys):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    try:
        code, out, err = _run_main(["serve", "--port", str(sock.getsockname()[1])], capsys)
    finally:
        sock.close()
    assert code == 2 and "http://" not in out and "busy" in err


def test_dd_generate_with_a_bad_seed_leaves_no_store(tmp_path):
    from bidlab.dd.generate import GenerateConfig, generate
    from bidlab.dd.store import StoreError

    with pytest.raises(StoreError, match="seed"):
        generate(tmp_path / "st", GenerateConfig(deals=2, seed=-1))
    assert not (tmp_path / "st").exists()


def test_a_report_over_an_existing_file_is_refused_and_the_file_kept(tmp_path, shared):
    from bidlab.eval.report import ReportError, build_report

    f = tmp_path / "summary"
    f.write_text("mine")
    with pytest.raises(ReportError, match="is a file"):
        build_report([shared["match"]], f)
    assert f.read_text() == "mine"

