"""Readability (issue 29): agreement of an agent's calls with SAYC's on fresh self-play deals."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from bidlab.agents.base import BiddingView, ViewPolicy
from bidlab.agents.sayc import SaycAgent
from bidlab.bridge import PASS
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Vulnerability
from bidlab.cards import Deal, Seat
from bidlab.cli import main
from bidlab.eval.agreement import AgreementError, agreement, fresh_boards


class AlwaysPass(ViewPolicy):
    name = "pass"

    def act(self, view):
        return PASS


class HashBidder(ViewPolicy):
    """Deterministic but varied: a legal call picked by a hash of the view, passing half the time."""

    name = "hash"

    def act(self, view):
        legal = view.auction.legal_calls()
        h = zlib.crc32(f"{view.hand.to_pbn()}|{view.auction.to_str()}".encode())
        return PASS if h % 2 else legal[h % min(len(legal), 8)]


def _count_one_view_at_a_time(agent, deals: int, seed: int) -> tuple[int, int, int, int]:
    """The same measure the slow way: each auction replayed call by call through the scalar
    ``act`` of both agents, counting by the number of calls made before each decision."""
    boards = fresh_boards(deals, seed)
    sayc = SaycAgent()
    n = agreed = later = later_agreed = 0
    for t in range(deals):
        deal = Deal.from_array(boards.deals[t])
        auction = Auction(Seat(int(boards.dealer[t])))
        while not auction.is_over:
            seat = auction.to_act
            view = BiddingView(seat, deal[seat], auction, Vulnerability(int(boards.vulnerability[t])))
            mine, theirs = agent.act(view), sayc.act(view)
            n += 1
            agreed += mine == theirs
            if len(auction) >= 4:
                later += 1
                later_agreed += mine == theirs
            auction = auction.with_call(mine)
    return n, agreed, later, later_agreed


def test_sayc_agrees_with_itself_on_every_decision():
    r = agreement("sayc", "sayc", deals=40, seed=5)
    assert r.decisions >= 4 * 40 and r.later_decisions > 0
    assert (r.agreed, r.later_agreed) == (r.decisions, r.later_decisions)
    assert r.rate == 1.0 and r.later_rate == 1.0


def test_an_agent_that_always_passes_agrees_where_sayc_passes():
    r = agreement(AlwaysPass(), "sayc", deals=40, seed=6)
    n, agreed, later, later_agreed = _count_one_view_at_a_time(AlwaysPass(), 40, 6)
    assert r.decisions == n == 4 * 40 and r.later_decisions == later == 0
    assert r.agreed == agreed
    assert 0 < agreed < n  # sayc opens some of these hands and passes others


def test_agreement_after_the_first_round_counts_the_later_decisions():
    r = agreement(HashBidder(), SaycAgent(), deals=30, seed=7)
    expected = _count_one_view_at_a_time(HashBidder(), 30, 7)
    assert (r.decisions, r.agreed, r.later_decisions, r.later_agreed) == expected
    assert expected[2] > 0 and expected[3] < expected[2]


def test_fresh_deals_are_seeded_and_not_the_expert_data_deals():
    a, b = fresh_boards(20, 1), fresh_boards(20, 1)
    assert np.array_equal(a.deals, b.deals) and not np.array_equal(a.deals, fresh_boards(20, 2).deals)
    assert list(a.dealer[:5]) == [0, 1, 2, 3, 0]
    from bidlab.cards import random_deals

    assert not np.array_equal(a.deals, random_deals(20, seed=1))


def test_bad_arguments_are_refused():
    with pytest.raises(AgreementError, match="deals"):
        agreement("sayc", deals=0)


def test_the_agree_command_prints_the_functions_counts(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as e:
        main(["agree", "random:3", "--deals", "12", "--seed", "4"])
    out = " ".join(capsys.readouterr().out.split())
    assert e.value.code in (0, None)
    r = agreement("random:3", "sayc", deals=12, seed=4)
    assert f"of {r.decisions} decisions ({r.agreed})" in out
    assert f"of {r.later_decisions} ({r.later_agreed})" in out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, fragment", [
    (["agree", "nn:sl", "--with", "foo"], "unknown agent 'foo'"),
    (["agree", "sayc+bar"], "unknown agent 'bar' in team 'sayc+bar'"),
    (["agree", "sayc", "--deals", "0"], "--deals"),
    (["agree", "sayc", "--seed", "-1"], "--seed"),
])
def test_bad_input_to_agree_is_one_line(argv, fragment, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    out, err = capsys.readouterr()
    lines = [x for x in err.splitlines() if x.strip()]
    assert e.value.code != 0 and len(lines) == 1 and fragment in lines[0] and "Traceback" not in out + err
