"""The matches view's pages, boards and rendered report, and /docs without a network (issue 20)."""

from __future__ import annotations

import re

from bidlab.eval.match import load_results


def _records(results_dir):
    _, records = load_results(next(results_dir.glob("*/results.jsonl")))
    return records


def test_boards_page_through_the_whole_match(client, results_dir):
    records = _records(results_dir)
    seen = []
    offset = 0
    while True:
        d = client.get("/api/match", params={"name": "m-random-sayc", "offset": offset, "limit": 4}).json()
        assert d["total_boards"] == len(records)
        if not d["boards"]:
            break
        seen += [b["board"] for b in d["boards"]]
        offset += 4
    assert seen == [r["board"] for r in records]  # every board, once (rows used to stop at 300)
    r = client.get("/api/match", params={"name": "m-random-sayc", "limit": 100_000})
    assert r.status_code == 422


def test_any_board_opens_with_its_deal_and_both_auctions(client, results_dir):
    for rec in _records(results_dir):
        b = client.get("/api/match/board", params={"name": "m-random-sayc", "board": rec["board"]}).json()
        assert b["deal"] == rec["deal"] and b["imps_a"] == rec["imps_a"] and b["par_ns"] == rec["par_ns"]
        for room in b["rooms"]:
            assert " ".join(c["call"] for c in room["calls"]) == rec[room["room"]]["auction"]
            assert room["score_ns"] == rec[room["room"]]["ns_score"]
    r = client.get("/api/match/board", params={"name": "m-random-sayc", "board": 999})
    assert r.status_code == 404 and "no board 999" in r.json()["error"]


def test_the_report_is_rendered_html_with_its_plots(client):
    d = client.get("/api/match", params={"name": "m-random-sayc"}).json()
    html = d["report_html"]
    assert "<table>" in html and "<h2>" in html and "|---" not in html
    srcs = re.findall(r'<img src="([^"]*)"', html)
    assert len(srcs) >= 3 and all(s.startswith("/api/match/plot?") for s in srcs)
    for s in srcs:
        r = client.get(s.replace("&amp;", "&"))
        assert r.status_code == 200 and r.content.startswith(b"\x89PNG")


def test_report_html_escapes_raw_html_and_drops_foreign_images():
    from bidlab.web.matches import report_html

    html = report_html("# a <script>alert(1)</script>\n\n![x](http://elsewhere/x.png) ![y](ok.png) [l](http://x)",
                       lambda p: f"/plot/{p}")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert 'src=""' in html and 'src="/plot/ok.png"' in html and "http://" not in html


def test_docs_need_no_network(client):
    page = client.get("/docs")
    assert page.status_code == 200
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert assets and all(a.startswith("/") for a in assets), assets  # nothing from a CDN
    for a in assets:
        r = client.get(a)
        assert r.status_code == 200 and len(r.content) > 1000, a
    assert client.get("/openapi.json").json()["info"]["title"] == "bidlab table"
