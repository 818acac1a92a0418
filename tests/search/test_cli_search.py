"""``bidlab explain``: one search decision shown in the terminal and as a PNG (issue 16)."""

import subprocess
import sys

from typer.testing import CliRunner

from bidlab.cli import app

runner = CliRunner()
DEAL = "N:A6.8732.42.AKQ74 J9875.T.AT9.T932 KT32.AQJ54.753.J Q4.K96.KQJ86.865"


def test_explain_shows_candidates_particles_and_three_heat_maps(tmp_path):
    png = tmp_path / "x.png"
    r = runner.invoke(app, ["explain", DEAL, "--auction", "1C P 1H 2D", "--agent",
                            "bmcs:sl?k=2&pmin=0.05&rmin=20&rmax=40", "--plot", str(png)])
    assert r.exit_code == 0, r.output
    assert "candidates" in r.output and "2H" in r.output and "3H" in r.output
    assert "sampled" in r.output and "kept" in r.output
    for who in ("LHO (E)", "partner (S)", "RHO (W)"):
        assert who in r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _run(*args):
    return subprocess.run([sys.executable, "-c", "from bidlab.cli import main; main()", *args],
                          capture_output=True, text=True)


def test_explain_bad_input_is_one_line_and_exit_2():
    for args in (["explain", DEAL, "--auction", "1C P P P"],            # auction over
                 ["explain", DEAL, "--agent", "nn:sl"],                 # not a search agent
                 ["explain", DEAL, "--agent", "bmcs:sl?k=zero"]):       # bad option
        r = _run(*args)
        assert r.returncode == 2, (args, r.stderr)
        assert "Traceback" not in r.stderr and "error:" in r.stderr
