"""The web app's defects of issue 28 that show in its API and its command: only policy models
are offered as bidders, a ``jps:`` bot's call meanings come from its policy, a match's numbers
are rounded once (and never ``-0.0``), interrupted matches are listed, meanings from few hands
are flagged, and ``serve`` refuses bad folders before it starts."""

from __future__ import annotations

import json
import math

import pytest

from bidlab.runtime.stats import fmt

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2.*")


def _client(**kw):
    from fastapi.testclient import TestClient

    from bidlab.web import create_app

    return TestClient(create_app(**kw), raise_server_exceptions=False)


def test_api_agents_lists_only_policy_models(tmp_path, models_dir):
    """The shipped belief and tricks nets help the search; they do not bid (nn:belief fails)."""
    from bidlab.nets import build, preset, save_model
    from bidlab.web.agents import shipped_models_dir

    with _client(results_dir=tmp_path, model_dirs=[shipped_models_dir()]) as c:
        models = c.get("/api/agents").json()["models"]
    # the shipped top-level models (the kept generations in history/ are for ratings, not offered)
    kinds = {p.stem: json.loads(p.read_text()) for p in shipped_models_dir().glob("*.json")}
    policies = sorted(n for n, meta in kinds.items() if meta.get("net", {}).get("kind") == "policy")
    assert sorted(models) == policies and "belief" not in models and "tricks" not in models

    # A folder of one's own: a policy and a belief net side by side; only the policy is offered.
    mine = tmp_path / "mine"
    save_model(mine / "mypolicy", build(preset("policy", "tiny")))
    save_model(mine / "mybelief", build(preset("belief", "tiny")))
    with _client(results_dir=tmp_path, model_dirs=[mine]) as c:
        body = c.get("/api/agents").json()
    assert body["models"] == ["mypolicy"] and "nn:mybelief" not in body["suggestions"]


class RecordingMeanings:
    """A stand-in for :class:`MeaningService` that records which specs it was asked about."""

    def __init__(self):
        self.specs: list[str] = []

    def reader(self, spec, wait=None):
        self.specs.append(spec)
        return None

    def meaning(self, spec, auction, call, vulnerability, wait=None):
        self.specs.append(spec)
        return None


def test_a_jps_bots_call_meanings_come_from_its_policy(models_dir):
    """Working out what a jps: bot's calls mean bids hundreds of stored deals; with the search at
    every call that kept a core busy for minutes. Like bmcs:, its policy bids them instead."""
    from bidlab.web.agents import AgentCatalog, AgentPool
    from bidlab.web.table import NewBoard, Session

    meanings = RecordingMeanings()
    seats = ("sayc", "jps:tiny?samples=1", "you", "sayc")
    s = Session("0" * 16, NewBoard(seats=seats, number=1, seed=3), AgentCatalog([models_dir]), AgentPool(),
                meanings=meanings)
    weights = (models_dir / "tiny.safetensors").resolve()
    assert meanings.specs and all(not x.startswith("jps") for x in meanings.specs)
    assert f"nn:{weights}" in meanings.specs
    # "Why?" on East's call: its meaning is the policy's, and says so.
    east = next(i for i in range(len(s.auction.calls)) if s.auction.seat_of(i).letter == "E")
    meanings.specs.clear()
    w = s.why("this", east)
    assert meanings.specs == [f"nn:{weights}"]
    assert w.meaning.startswith("Its policy, without search:")


def test_a_match_is_rounded_once_and_never_minus_zero(results28):
    with _client(results_dir=results28) as c:
        r = c.get("/api/matches")
        m = next(x for x in r.json()["matches"] if x["name"] == "tied")
        report = c.get("/api/match", params={"name": "tied"}).json()["report"]
    assert m["imps_per_board"] == 1.125
    assert m["text"]["imps_per_board"] == fmt(1.125, signed=True)   # the report's own rounding
    assert f"| {m['text']['imps_per_board']} |" in report
    assert m["b_vs_par"] == 0 and math.copysign(1.0, m["b_vs_par"]) == 1.0
    assert "-0.0" not in r.text and m["text"]["b_vs_par"] == "+0.00"


def test_an_interrupted_match_is_listed_with_how_to_finish_it(results28):
    with _client(results_dir=results28) as c:
        body = c.get("/api/matches").json()
    assert [m["name"] for m in body["matches"]] == ["tied"]
    (stopped,) = body["interrupted"]
    assert (stopped["name"], stopped["boards"], stopped["boards_done"]) == ("stopped", 4, 2)
    assert "rerun" in stopped["message"] and str(results28 / "stopped") in stopped["message"]
    assert "--chunk-size 2" in stopped["message"] and "--seed 2" in stopped["message"]


@pytest.mark.parametrize("make_bad, fragment", [
    (lambda tmp: ["--results", str(_a_file(tmp))], "--results"),
    (lambda tmp: ["--models", str(tmp / "no-such-models")], "--models"),
    (lambda tmp: ["--models", str(_a_file(tmp))], "--models"),
])
def test_serve_refuses_bad_folders_in_one_line_before_starting(make_bad, fragment, tmp_path, monkeypatch, capsys):
    import uvicorn

    from bidlab.cli import main

    started = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: started.append(True))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--port", "0", *make_bad(tmp_path)])
    out, err = capsys.readouterr()
    lines = [x for x in err.splitlines() if x.strip()]
    assert exit_info.value.code == 2 and started == []
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], err
    assert "bidlab table at" not in out


def _a_file(tmp):
    f = tmp / "a-file"
    f.write_text("not a folder")
    return f


def test_a_card_is_taken_back_with_the_bots_cards_after_it(client):
    """Undo of a misclicked card: the board is as it was before the card, and the person plays
    again; with no card of the person's played there is nothing to take back."""
    deal = "N:AKQJT98765.A.A.A 432.KQJT9.KQJ.KQ .8765432.T98.JT9 ..765432.8765432"
    b = client.post("/api/boards", json={"deal": deal, "seed": 1, "play": True,
                                         "seats": {"N": "sayc", "E": "sayc", "S": "you", "W": "sayc"}}).json()
    while b["your_turn"]:
        b = client.post(f"/api/boards/{b['id']}/calls", json={"call": "Pass"}).json()
    assert b["play"]["your_turn"] and not b["can_undo_card"]
    r = client.post(f"/api/boards/{b['id']}/cards/undo")
    assert r.status_code == 409 and "no card" in r.json()["error"]
    before = b
    after = client.post(f"/api/boards/{b['id']}/cards", json={"card": b["play"]["legal_cards"][-1]}).json()
    assert after["can_undo_card"] and after["play"] != before["play"]
    back = client.post(f"/api/boards/{b['id']}/cards/undo").json()
    assert back["play"] == before["play"] and back["hands"] == before["hands"] and not back["can_undo_card"]
