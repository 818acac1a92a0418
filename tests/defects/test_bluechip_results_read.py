"""A Blue Chip team match folder (`bidlab bluechip serve --out`) is read by `bidlab report`
and by the web app's Matches tab, as a `bidlab match` folder is: one results format."""

from __future__ import annotations

import pytest

from bidlab.eval.match import load_results, summarize
from tests.bluechip.harness import run_session


@pytest.fixture(scope="module")
def session_folder(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("bc")
    run = run_session(tmp, boards=3, teams={"open": ("sayc", "nn:sl"), "closed": ("nn:sl", "sayc")})
    assert run.error is None
    return tmp / "session"


def test_load_results_reads_a_bluechip_session_as_match_records(session_folder):
    header, records = load_results(session_folder)
    assert header["config"]["agent_a"] == "sayc" and header["config"]["agent_b"] == "nn:sl"
    assert len(records) == 3
    for r in records:
        assert r["imps_a"] == r["imps_team1"]
        assert {"par_ns", "a_vs_par", "open", "closed", "dd", "deal"} <= set(r)
    s = summarize(records, "sayc", "nn:sl")
    assert s.boards == 3


def test_bidlab_report_reads_a_bluechip_session(session_folder, tmp_path):
    from bidlab.eval.report import build_report

    md = build_report([str(session_folder)], tmp_path / "report")
    assert "sayc" in md.read_text()


def test_the_matches_tab_lists_a_bluechip_session(session_folder):
    from fastapi.testclient import TestClient

    from bidlab.web import create_app

    app = create_app(results_dir=session_folder.parent, max_boards=10)
    with TestClient(app) as client:
        listed = client.get("/api/matches").json()
    names = [m.get("name") for m in (listed["matches"] if isinstance(listed, dict) else listed)]
    assert "session" in names, listed
