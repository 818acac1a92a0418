"""`bidlab spades play --help` says one thing about who the bots are: the three bots are your
partner North and the opponents East and West (all three bid with --bots)."""

from __future__ import annotations

from typer.testing import CliRunner

from bidlab.cli import app


def test_spades_play_help_names_the_three_bots_consistently():
    out = CliRunner().invoke(app, ["spades", "play", "--help"], env={"COLUMNS": "200"}).output
    text = " ".join(out.split())
    assert "bots East and West" not in text
    assert "three bots" in text and "North" in text and "partner" in text



def test_the_jps_table1_page_does_not_promise_a_three_minute_run():
    """Comm L=7 alone takes about a minute a seed; ten seeds of it cannot fit in 3 minutes."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "paper-tian2020.md").read_text()
    text = " ".join(page.split())
    assert "about 3 minutes" not in text
    assert "--seeds-large" in text and "Comm L=7" in text
