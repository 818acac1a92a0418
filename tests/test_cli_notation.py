"""One notation on the screen: ♠♥♦♣ in what rich prints, in colour on a terminal; letters in
files (issue 20)."""

import io
import re

from rich.console import Console
from typer.testing import CliRunner

import bidlab.cli.bridge as bridge_cli
from bidlab.cards import Deal
from bidlab.cli import app
from bidlab.dd import dd_table, par

DEAL = "N:AQ954.KQT8.Q7.83 K72.A74.A832.AJ7 JT3.962.T94.KT52 86.J53.KJ65.Q964"
ANSI_BEFORE = r"\x1b\[[0-9;]*m"


def _terminal(monkeypatch, module) -> io.StringIO:
    buf = io.StringIO()
    monkeypatch.setattr(module, "console", Console(file=buf, force_terminal=True, color_system="standard",
                                                   width=120, soft_wrap=True))
    return buf


def test_the_terminal_deal_colours_every_suit_symbol(monkeypatch):
    buf = _terminal(monkeypatch, bridge_cli)
    r = CliRunner().invoke(app, ["deal", "--seed", "3"])
    assert r.exit_code == 0, r.output
    out = buf.getvalue()
    for symbol in "♠♥♦♣":
        shown = out.count(symbol)
        coloured = len(re.findall(ANSI_BEFORE + symbol, out))
        assert shown == 4 and coloured == shown, (symbol, shown, coloured)
    # Red for hearts, as on a card.
    assert re.search(r"\x1b\[[0-9;]*31m♥", out)


def test_dd_table_par_uses_suit_symbols_on_screen():
    table = dd_table(Deal.parse(DEAL))
    p = par(table)
    r = CliRunner().invoke(app, ["dd", "table", DEAL])
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if x.startswith("par "))
    assert line.startswith(p.to_str(symbols=True))
    for c in p.contracts:
        assert f"{c.level}{c.strain.symbol}" in line and f" {c.to_str()} " not in f" {line} "
    assert str(p) == p.to_str(symbols=False) and not set("♠♥♦♣") & set(str(p))  # files keep letters


def test_score_prints_the_contract_with_a_symbol(monkeypatch):
    buf = _terminal(monkeypatch, bridge_cli)
    r = CliRunner().invoke(app, ["score", "4HX", "-t", "9"])
    assert r.exit_code == 0
    assert re.search(ANSI_BEFORE + "♥", buf.getvalue()) and "4H" not in buf.getvalue()
