"""Team matches over loopback: the table manager's results equal `bidlab match` on the same boards."""

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from bidlab.bluechip.connection import BindRefusedError, check_loopback
from bidlab.bluechip.manager import load_boards
from bidlab.bridge import pbn
from bidlab.bridge.board import Board, Vulnerability
from bidlab.bridge.records import BoardRecord
from bidlab.cards import Deal, Seat
from bidlab.dd import dd_table
from bidlab.eval.match import Match, MatchConfig, load_results

from .harness import run_session

A, B = "sayc", "nn:sl"


def match_records(tmp_path, boards: int, seed: int = 0) -> list[dict]:
    Match(MatchConfig(A, B, "test", boards, seed), tmp_path / "match").run(workers=1)
    return load_results(tmp_path / "match")[1]


def assert_same_as_match(session_lines: list[dict], match_recs: list[dict]) -> None:
    assert len(session_lines) == len(match_recs)
    for ours, theirs in zip(session_lines, match_recs):
        assert ours["board"] == theirs["board"]
        assert ours["deal"] == theirs["deal"]
        for room in ("open", "closed"):
            for key in ("auction", "contract", "declarer", "tricks", "ns_score"):
                assert ours[room][key] == theirs[room][key], (ours["board"], room, key)
        assert ours["imps_team1"] == theirs["imps_a"], ours["board"]


def test_team_match_equals_bidlab_match(tmp_path):
    """8 boards, sayc (team 1) vs nn:sl, eight client threads, rule-based card play."""
    run = run_session(tmp_path, boards=8, teams={"open": (A, B), "closed": (B, A)})
    assert run.error is None and not run.client_errors
    assert_same_as_match(run.session.finished(), match_records(tmp_path, 8))
    # The summary is the mean of the per-board IMPs the files hold.
    lines = [json.loads(x) for x in (tmp_path / "session" / "results.jsonl").read_text().splitlines()[1:]]
    assert run.summary["imps_team1"]["total"] == sum(x["imps_team1"] for x in lines)
    # Every room's card play is 13 legal tricks whose count is the played result.
    for x in lines:
        for room in ("open", "closed"):
            r = x[room]
            if r["contract"] is not None:
                assert len(r["play"]) == 52 and len(set(r["play"])) == 52
                assert 0 <= r["played_tricks"] <= 13


def test_session_pbn_reads_back(tmp_path):
    run = run_session(tmp_path, boards=3, teams={"open": (A, B), "closed": (B, A)})
    assert run.error is None
    records = pbn.load(tmp_path / "session" / "session.pbn")
    lines = run.session.finished()
    assert len(records) == 2 * len(lines)
    for rec, (line, room) in zip(records, [(x, r) for x in lines for r in ("open", "closed")]):
        assert rec.board.number == line["board"]
        assert rec.auction.to_str() == line[room]["auction"]
        assert rec.tag("Room") == room.title()
        if rec.contract is not None:
            assert rec.tricks == line[room]["played_tricks"]
            play = next(t for t in rec.tags if t.name == "Play")
            assert play.value == rec.contract.declarer.lho.letter
            assert sorted(c for row in play.section for c in row.split()) == sorted(line[room]["play"])


def _free_ports() -> int:
    for _ in range(50):
        with socket.socket() as s1, socket.socket() as s2:
            s1.bind(("127.0.0.1", 0))
            p = s1.getsockname()[1]
            try:
                s2.bind(("127.0.0.1", p + 1))
            except OSError:
                continue
            return p
    raise RuntimeError("no two consecutive free ports")


def _wait_until_listening(proc, ports, seconds: float = 300.0) -> None:
    """Wait until ``proc`` listens on every port: binding one ourselves fails once it does
    (no probe connection, which the manager would take for a program)."""
    end = time.monotonic() + seconds
    for p in ports:
        while True:
            assert proc.poll() is None, proc.communicate()[0]
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", p))
                except OSError:
                    break
            assert time.monotonic() < end, f"the manager did not listen on {p} within {seconds} s"
            time.sleep(0.2)


@pytest.mark.slow
def test_cli_team_match_32_boards_with_dd_play_equals_bidlab_match(tmp_path):
    """The issue's setting: `bidlab bluechip serve` and four `bidlab bluechip connect` processes
    (two agents, two tables, each process seating a pair) play 32 boards with DD card play."""
    port = _free_ports()
    exe = [os.path.join(os.path.dirname(sys.executable), "bidlab")]
    out = tmp_path / "bc"
    serve = subprocess.Popen(exe + ["bluechip", "serve", "--port", str(port), "--boards", "32", "--out", str(out),
                                    "--timeout", "600"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    _wait_until_listening(serve, (port, port + 1))  # clients started before the manager binds are refused
    clients = [subprocess.Popen(exe + ["bluechip", "connect", "--port", str(port + room), "--seat", seat,
                                       "--agent", spec, "--samples", "4", "--timeout", "600"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
               for room, seat, spec in ((0, "NS", A), (0, "EW", B), (1, "NS", B), (1, "EW", A))]
    outputs = [c.communicate()[0] for c in clients]
    serve_out = serve.communicate()[0]
    assert serve.returncode == 0, serve_out
    assert all(c.returncode == 0 for c in clients), outputs
    lines = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()[1:]]
    assert_same_as_match(lines, match_records(tmp_path, 32))


def test_refuses_to_listen_beyond_loopback():
    check_loopback("127.0.0.1", False)
    check_loopback("localhost", False)
    with pytest.raises(BindRefusedError, match="--allow-remote"):
        check_loopback("0.0.0.0", False)
    check_loopback("0.0.0.0", True)


def test_cli_errors_are_one_line_with_exit_code_2():
    exe = os.path.join(os.path.dirname(sys.executable), "bidlab")
    r = subprocess.run([exe, "bluechip", "serve", "--host", "0.0.0.0", "--boards", "1"], capture_output=True, text=True)
    assert r.returncode == 2 and "--allow-remote" in r.stderr and "Traceback" not in r.stderr
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound but not listening: the connection is refused
        r = subprocess.run([exe, "bluechip", "connect", "--seat", "N", "--port", str(port), "--timeout", "5"],
                           capture_output=True, text=True)
    assert r.returncode == 2 and "cannot connect" in r.stderr and "Traceback" not in r.stderr


def test_boards_from_a_pbn_file_keep_their_numbers_dealers_and_vulnerability(tmp_path):
    deals = [Deal.random(1), Deal.random(2)]
    boards = [Board(deals[0], 7, Seat.E, Vulnerability.BOTH), Board(deals[1], 8, Seat.W, Vulnerability.NONE)]
    pbn.dump([BoardRecord(b) for b in boards], tmp_path / "b.pbn")
    got, dd, source = load_boards(None, str(tmp_path / "b.pbn"), "test", 0, None)
    assert got == boards and source == {"pbn": str(tmp_path / "b.pbn")}
    assert (dd[1] == dd_table(deals[1])).all()
    assert load_boards(1, str(tmp_path / "b.pbn"), "test", 0, None)[0] == boards[:1]


def test_serve_says_how_many_boards_a_rerun_takes_back(tmp_path, capsys):
    """A session folder with its one board played: a rerun of `bluechip serve` says so first."""
    import pytest

    from bidlab.cli import main

    from .harness import run_session as play

    run = play(tmp_path, boards=1, teams={"open": (A, A)})
    assert run.error is None
    port = socket.socket()
    port.bind(("127.0.0.1", 0))
    free = port.getsockname()[1]
    port.close()
    with pytest.raises(SystemExit):
        main(["bluechip", "serve", "--boards", "1", "--tables", "1", "--port", str(free), "--accept-timeout", "1",
              "--out", str(tmp_path / "session")])
    out = capsys.readouterr().out
    assert f"resuming {tmp_path / 'session'}: 1 of 1 room-board already played" in " ".join(out.split()), out
