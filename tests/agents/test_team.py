"""Mixed partnerships ``A+B`` (issue 29): each member bids at its own seats in both rooms of a
duplicate match, one batched ``decide`` per member per round, ``A+A`` is exactly ``A``, and a
bad member is named in the error."""

from __future__ import annotations

import numpy as np
import pytest

from bidlab.agents.base import ViewPolicy
from bidlab.agents.registry import AgentSpecError, make_agent, register, seat_agent_spec
from bidlab.agents.specs import check_agent_spec
from bidlab.agents.team import TeamPolicy
from bidlab.bridge import PASS, Call
from bidlab.bridge.calls import Strain
from bidlab.cards import Seat, random_deals
from bidlab.cli import main
from bidlab.envs.rollout import duplicate
from bidlab.eval.match import Match, MatchConfig, load_results


class StrainTag(ViewPolicy):
    """Shows who sat where: on its first call a player bids the cheapest legal bid of its own
    strain, then passes; so the first four calls of every auction name the agent at each seat
    (four bids, three passes)."""

    def __init__(self, strain: Strain):
        self.strain = strain
        self.name = f"tag:{strain.letter}"
        self.decide_calls = 0

    def decide(self, state, explain=False):
        self.decide_calls += 1
        return super().decide(state, explain)

    def act(self, view):
        if len(view.auction) >= 4:
            return PASS
        return next(c for c in view.auction.legal_calls() if c.is_bid and c.strain == self.strain)


register("tag", "test: bids its strain once, then passes (tag:C, tag:D, ...)",
         lambda arg, seed: StrainTag(Strain.parse(arg)))


def _first_call_strains(auction_text: str, dealer: Seat) -> dict[Seat, str]:
    calls = [Call.parse(t) for t in auction_text.split()]
    return {dealer.next(i): calls[i].strain.letter for i in range(4)}


def test_a_team_seats_each_member_where_it_says_in_both_rooms(tmp_path):
    # Team clubs (N/E) + diamonds (S/W) against hearts at both seats, through the spec,
    # the match's chunks and its result files (a '+' in the agent name and the folder).
    cfg = MatchConfig("tag:C+tag:D", "tag:H", boards=8, seed=3, chunk_size=8)
    Match(cfg, tmp_path / "m-tag:C+tag:D").run(workers=1)
    _, records = load_results(tmp_path / "m-tag:C+tag:D")
    assert len(records) == 8
    expected = {"open": {Seat.N: "C", Seat.E: "H", Seat.S: "D", Seat.W: "H"},
                "closed": {Seat.N: "H", Seat.E: "C", Seat.S: "H", Seat.W: "D"}}
    dealers = set()
    for r in records:
        dealer = Seat.parse(r["dealer"])
        dealers.add(dealer)
        for room in ("open", "closed"):
            assert _first_call_strains(r[room]["auction"], dealer) == expected[room], (room, r)
    assert dealers == set(Seat)  # every seat deals once: each member was asked first, second, ...
    pbn = (tmp_path / "m-tag:C+tag:D" / "auctions.pbn").read_text()
    assert '[North "tag:C"]' in pbn and '[South "tag:D"]' in pbn and '[East "tag:C"]' in pbn


def test_a_team_answers_with_one_batched_decide_per_member_per_round():
    clubs, diamonds, hearts = StrainTag(Strain.CLUBS), StrainTag(Strain.DIAMONDS), StrainTag(Strain.HEARTS)
    team = TeamPolicy([clubs, diamonds])
    n = 12
    result = duplicate(random_deals(n, seed=5), np.arange(n) % 4, np.zeros(n, np.int64), team, hearts,
                       dd=np.zeros((n, 4, 5), np.uint8))
    # Every auction has 7 calls, so 7 rounds; a member asked row by row would be called 2n times.
    assert 1 <= clubs.decide_calls <= 7 and 1 <= diamonds.decide_calls <= 7
    for i in range(n):
        dealer = Seat(int(i % 4))
        assert _first_call_strains(result.open.auction(i).to_str(), dealer)[Seat.S] == "D"
        assert _first_call_strains(result.closed.auction(i).to_str(), dealer)[Seat.W] == "D"
    # One object at both seats of the team: still one decide per round, for all its rows.
    spades = StrainTag(Strain.SPADES)
    duplicate(random_deals(n, seed=6), np.arange(n) % 4, np.zeros(n, np.int64), TeamPolicy([spades, spades]),
              hearts, dd=np.zeros((n, 4, 5), np.uint8))
    assert 1 <= spades.decide_calls <= 7


def test_a_team_explains_with_the_member_at_the_seat():
    team = make_agent("tag:C+nn:sl")
    assert isinstance(team, TeamPolicy) and team.name == "tag:C+nn:sl"
    from bidlab.agents.base import BiddingView
    from bidlab.bridge.auction import Auction
    from bidlab.bridge.board import Vulnerability
    from bidlab.cards import Deal

    deal = Deal.random(7)
    north = BiddingView(Seat.N, deal[Seat.N], Auction(Seat.N), Vulnerability.NONE)
    south = BiddingView(Seat.S, deal[Seat.S], Auction(Seat.N, ["P", "P"]), Vulnerability.NONE)
    assert team.explain(north).endswith("chosen by tag:C")
    assert "policy network" in team.explain(south)
    assert team.act(south) == make_agent("nn:sl").act(south)


@pytest.mark.parametrize("agent", ["nn:sl:sample", "sayc"])
def test_a_team_of_one_agent_twice_equals_that_agent(agent, tmp_path):
    assert not isinstance(make_agent(f"{agent}+{agent}"), TeamPolicy)
    boards = {}
    for spec in (agent, f"{agent}+{agent}"):
        Match(MatchConfig(spec, "nn:sl", boards=24, seed=11, chunk_size=12), tmp_path / spec).run(workers=1)
        boards[spec] = load_results(tmp_path / spec)[1]
    plain, team = boards[agent], boards[f"{agent}+{agent}"]
    assert [r["imps_a"] for r in plain] == [r["imps_a"] for r in team]
    for room in ("open", "closed"):
        assert [(r[room]["auction"], r[room]["contract"]) for r in plain] == \
               [(r[room]["auction"], r[room]["contract"]) for r in team]


def test_search_agents_can_be_team_members():
    team = make_agent("sayc+jps:sl?samples=2")
    assert isinstance(team, TeamPolicy) and type(team.members[1]).__module__.startswith("bidlab.search")


def test_blue_chip_seats_build_their_own_member():
    assert seat_agent_spec("sayc+nn:sl", Seat.N) == ("sayc", 0)
    assert seat_agent_spec("sayc+nn:sl", Seat.E) == ("sayc", 0)
    assert seat_agent_spec("sayc+nn:sl", Seat.S) == ("nn:sl", 1)
    assert seat_agent_spec("sayc+nn:sl", Seat.W) == ("nn:sl", 1)
    assert seat_agent_spec("nn:sl+nn:sl", Seat.S) == ("nn:sl", 0)
    assert seat_agent_spec("sayc", Seat.S) == ("sayc", 0)


@pytest.mark.parametrize("spec, fragment", [
    ("sayc+foo", "unknown agent 'foo' in team 'sayc+foo'"),
    ("foo+sayc", "unknown agent 'foo' in team 'foo+sayc'"),
    ("sayc+", "team 'sayc+' lacks a member"),
    ("+sayc", "lacks a member"),
    ("sayc+sayc+sayc", "has 3 members"),
    ("sayc+nn:nothere", "member 'nn:nothere' in team 'sayc+nn:nothere'"),
    ("sayc+nn:sl:weird", "unknown mode 'weird'"),
    ("random:x+sayc", "member 'random:x' in team"),
])
def test_a_bad_team_spec_names_the_bad_member(spec, fragment):
    with pytest.raises(AgentSpecError, match=None) as e:
        check_agent_spec(spec)
    assert fragment in str(e.value)


@pytest.mark.parametrize("argv, fragment", [
    (["match", "sayc+foo", "sayc", "--boards", "1"], "unknown agent 'foo' in team 'sayc+foo'"),
    (["bluechip", "connect", "--seat", "NS", "--agent", "sayc+foo", "--port", "9"], "in team 'sayc+foo'"),
])
def test_a_bad_team_on_the_command_line_is_one_line_and_leaves_nothing(argv, fragment, tmp_path, capsys,
                                                                       monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsys.readouterr()
    assert exit_info.value.code != 0
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], err
    assert "Traceback" not in out + err and list(tmp_path.iterdir()) == []
