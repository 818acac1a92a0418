"""Reports: every plot is built from a small match and checked against its results."""

import re
from collections import Counter

import numpy as np
from matplotlib.image import imread

from bidlab.bridge import Call
from bidlab.cards import Seat
from bidlab.eval.match import Match, MatchConfig, load_results
from bidlab.eval.report import build_report, collect, contract_matrix, opening_matrix


def test_report_plots_and_numbers(tmp_path):
    cfg = MatchConfig("random:1", "random:2", split="test", boards=40, seed=2, chunk_size=40)
    Match(cfg, tmp_path / "m").run(workers=1)
    md = build_report([str(tmp_path / "m")], tmp_path / "report")
    _, recs = load_results(tmp_path / "m")

    for name in ("openings", "contracts", "auction_lengths", "imp_swings"):
        img = imread(tmp_path / "report" / f"{name}.png")
        assert img.ndim == 3 and img.shape[0] > 200 and img.shape[1] > 300
        assert img[..., :3].std() > 0.05, f"{name}.png looks blank"

    # Summary numbers equal the ones computed here from the per-board records.
    text = md.read_text()
    x = np.array([r["imps_a"] for r in recs], dtype=float)
    row = re.search(r"\| random:1 vs random:2 \| 40 \| ([+-][\d.]+) \| ([\d.]+) \|", text)
    assert row, text
    assert float(row.group(1)) == round(x.mean(), 2)
    assert float(row.group(2)) == round(x.std(ddof=1) / np.sqrt(len(x)), 2)
    mean_len = np.mean([len(r[room]["auction"].split()) for r in recs for room in ("open", "closed")])
    assert f"mean {mean_len:.2f} calls per auction" in text
    swings = int((x != 0).sum())
    assert f"{swings} of 40 boards swing" in text
    assert "SAYC opening conformity" in text or "sayc" not in text.lower()

    # Heatmap matrices count exactly the openings and contracts found in the records.
    stats, _ = collect([str(tmp_path / "m")])
    opened = Counter()
    declared = Counter()
    for r in recs:
        for room, ns in (("open", "random:1"), ("closed", "random:2")):
            ew = "random:2" if ns == "random:1" else "random:1"
            calls = [Call.parse(t) for t in r[room]["auction"].split()]
            first = next((i for i, c in enumerate(calls) if c.is_bid), None)
            if first is not None:
                seat = Seat.parse(r["dealer"]).next(first)
                opened[ns if seat.side == 0 else ew] += 1
            if r[room]["contract"]:
                side = Seat.parse(r[room]["declarer"]).side
                declared[ns if side == 0 else ew] += 1
    for agent in ("random:1", "random:2"):
        assert opening_matrix(stats[agent]).sum() == opened[agent]
        assert contract_matrix(stats[agent]).sum() == declared[agent]
