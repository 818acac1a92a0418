"""The ``bidlab deal`` and ``bidlab score`` commands, run as a user runs them."""

import subprocess
import sys

from typer.testing import CliRunner

from bidlab.bridge import Board, contract_score
from bidlab.cards import Deal, Seat
from bidlab.cli import app

runner = CliRunner()


def test_deal_prints_diagram_with_hcp():
    result = runner.invoke(app, ["deal", "--seed", "1", "--board", "3"])
    assert result.exit_code == 0, result.output
    d = Deal.random(1)
    b = Board.numbered(3, d)
    assert f"Board 3   Dealer {b.dealer.full_name}   Vul {b.vulnerability.pbn}" in result.output
    for seat in Seat:
        assert f"{seat.full_name} ({d[seat].hcp} HCP)" in result.output
    assert d.to_pbn() in result.output


def test_score_command():
    result = runner.invoke(app, ["score", "4SX", "--tricks", "9", "--vul", "ns", "--declarer", "N"])
    assert result.exit_code == 0, result.output
    assert f"{contract_score(4, 3, 1, True, 9):+d} for NS" in result.output
    assert "down 1" in result.output


def _run(*args):
    return subprocess.run([sys.executable, "-c", "from bidlab.cli import main; main()", *args],
                          capture_output=True, text=True)


def test_bad_input_gives_message_not_traceback():
    r = _run("score", "9SX", "--tricks", "9")
    assert r.returncode == 2 and "error:" in r.stderr and "Traceback" not in r.stderr
    r = _run("deal", "--pbn", "N:AKQ.J3.T98.7654 - - -")
    assert r.returncode == 2 and "error:" in r.stderr and "Traceback" not in r.stderr
    r = _run("deal", "--board", "0")
    assert r.returncode == 2 and "Traceback" not in r.stderr
