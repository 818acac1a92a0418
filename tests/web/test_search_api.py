"""``/api/boards/{id}/search``: a search bot's candidates and belief heat maps (issue 16)."""

from tests.web.test_api import new_board

SEARCH_BOT = "bmcs:tiny?k=3&pmin=0.0&rmin=10&rmax=20"


def test_search_endpoint_gives_candidates_and_three_belief_grids(client):
    s = new_board(client, number=1, seed=5, seats={"N": SEARCH_BOT, "E": "sayc", "S": "sayc", "W": "sayc"})
    north = [c for c in s["calls"] if c["seat"] == "N"]
    assert north
    r = client.get(f"/api/boards/{s['id']}/search", params={"index": north[0]["index"]})
    assert r.status_code == 200, r.text
    j = r.json()
    assert j["made"] == north[0]["call"] and j["call"] == north[0]["call"]
    assert len(j["candidates"]) >= 1 and all({"call", "prob", "rollouts", "mean"} <= set(c) for c in j["candidates"])
    assert [b["who"] for b in j["beliefs"]] == ["LHO", "partner", "RHO"]
    assert [b["seat"] for b in j["beliefs"]] == ["E", "S", "W"]
    for b in j["beliefs"]:
        assert len(b["grid"]) == 4 and all(len(row) == 13 for row in b["grid"])
        assert all(0.0 <= v <= 1.0 for row in b["grid"] for v in row)
    if j["searched"]:
        assert j["kept"] >= 10 and j["sampled"] >= j["kept"]
    east = [c for c in s["calls"] if c["seat"] == "E"][0]
    r = client.get(f"/api/boards/{s['id']}/search", params={"index": east["index"]})
    assert r.status_code == 400 and "not a search bot" in r.json()["error"]
