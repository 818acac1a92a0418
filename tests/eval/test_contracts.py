"""The contract account: hand-built boards whose contract classes follow from the scoring
rules (game = 3NT, 4M, 5m or higher; slam = six or seven; made = level + 6 tricks)."""

from __future__ import annotations

import json

import pytest

from bidlab.bridge.scoring import contract_score, game_level
from bidlab.cli import main
from bidlab.eval.contracts import PASSED_OUT, contract_account, contract_class


def room(contract: str | None, declarer: str | None, tricks: int | None, ns_score: int) -> dict:
    return {"contract": contract, "declarer": declarer, "tricks": tricks, "ns_score": ns_score}


@pytest.mark.parametrize("contract, declarer, tricks, holder_ns, expected", [
    ("4S", "N", 10, True, "we game made"),
    ("4S", "N", 10, False, "they game made"),
    ("3NT", "E", 8, False, "we game down"),
    ("3NT", "E", 8, True, "they game down"),
    ("4C", "S", 10, True, "we partscore made"),     # four of a minor is below game
    ("5D", "W", 11, False, "we game made"),
    ("2H", "N", 7, True, "we partscore down"),
    ("2HX", "N", 7, True, "we partscore down doubled"),
    ("1NTXX", "E", 6, False, "we partscore down doubled"),
    ("6H", "S", 12, True, "we slam made"),
    ("7NT", "W", 12, True, "they slam down"),
])
def test_contract_class(contract, declarer, tricks, holder_ns, expected):
    assert contract_class(room(contract, declarer, tricks, 0), holder_ns) == expected


def test_passed_out():
    assert contract_class(room(None, None, None, 0), True) == PASSED_OUT


def test_a_missed_game_is_charged_once_to_the_pair_that_stopped():
    # A (NS in the open room) stops in 3S making ten tricks; B (NS in the closed room) bids
    # 4S: +170 against +420 is 250 points, 6 IMPs to B.
    rec = {"imps_a": -6, "open": room("3S", "N", 10, 170), "closed": room("4S", "N", 10, 420)}
    a = contract_account([rec], "A", "B")
    assert a.boards == 1 and a.cells == {("we partscore made", "we game made"): [1, -6.0]}
    b = contract_account([rec], "A", "B", focus_is_a=False)
    assert b.cells == {("we game made", "we partscore made"): [1, 6.0]}


def test_the_account_counts_every_board_once_and_sums_to_the_match():
    recs = [
        # A, North-South in the open room, defends East-West's 4H one down (+50); B, with
        # the same North-South cards in the closed room, bids and makes 6D (+920): -13 to A.
        {"imps_a": -13, "open": room("4H", "E", 9, 50), "closed": room("6D", "S", 12, 920)},
        # passed out in the open room; East-West make 2S in the closed room (-110 to B's
        # North-South pair there, so +3 to A)
        {"imps_a": 3, "open": room(None, None, None, 0), "closed": room("2S", "W", 8, -110)},
        {"imps_a": 0, "open": room("3NT", "N", 9, 400), "closed": room("3NT", "N", 9, 400)},
        {"board": 4},  # a board not yet played: no imps_a
    ]
    acc = contract_account(recs, "A", "B")
    assert acc.boards == 3 and sum(n for n, _ in acc.cells.values()) == 3
    assert acc.total() == -13 + 3 + 0
    # Neither of A's pairs declared on board 1; it is listed as A's North-South view: they
    # (East-West) went down in game where B's pair, with A's cards, made the slam.
    assert acc.cells[("they game down", "we slam made")] == [1, -13.0]
    # Board 2 is listed from A's East-West cards, where A's pair declared: it bid and made 2S
    # where B's pair, with the same cards, passed the deal out.
    assert acc.cells[("we partscore made", PASSED_OUT)] == [1, 3.0]
    assert contract_account(recs, "A", "B", focus_is_a=False).total() == 10


def test_cli_prints_the_account_of_a_stored_match(tmp_path, capsys):
    out = tmp_path / "m"
    try:
        main(["leaks", "sayc", "random:3", "--boards", "8", "--workers", "1", "--out", str(out)])
    except SystemExit as e:
        assert e.code in (0, None)
    recs = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()[1:]]
    capsys.readouterr()
    try:
        main(["leaks", "--results", str(out), "--contracts", "50"])
    except SystemExit as e:
        assert e.code in (0, None)
    text = capsys.readouterr().out
    assert "Contract account of `sayc` against `random:3` over 8 boards" in text
    listed = [r for r in text.splitlines() if r.startswith(("| we", "| they", "| passed"))]
    acc = contract_account(recs, "sayc", "random:3")
    assert len(listed) == sum(1 for mine, theirs in acc.cells if mine != theirs)


@pytest.mark.parametrize("strain", range(5))
def test_game_level_is_where_the_game_bonus_starts(strain):
    # contract_score is the oracle: a made undoubled contract not vulnerable gets the 300
    # game bonus, a partscore 50 (below the slam levels no partscore scores 300 or more)
    for level in range(1, 6):
        made = contract_score(level, strain, 0, False, level + 6)
        assert (made >= 300) == (level >= game_level(strain)), (level, strain, made)
