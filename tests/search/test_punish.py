"""Punishers and the doubling judge (issue 44): the judge reads one player's view only, a
punisher departs from its base agent only by doubling, the oracle punisher doubles exactly
the contracts that go down double dummy, and the peeking oracle is refused by name wherever
bidlab plays."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bidlab.agents.registry import AgentSpecError, make_agent, refuse_peeking
from bidlab.dd import shipped_store
from bidlab.envs.rollout import rollout
from bidlab.envs.state import AuctionState, concat, contracts, init, with_hands
from bidlab.learn.judge import load_judge
from bidlab.search.punish import OraclePunishAgent, PunishAgent, dd_tricks_of, side_doubled, split_options

DOUBLE = 1


def _double_positions(n_deals: int = 120, agents=("nn:rl@soup1", "sayc")) -> AuctionState:
    """Positions of real auctions (TRAIN deals) where the player to act may double."""
    deals, _, _ = shipped_store().load("train")
    found = []

    def hook(_pi, _rows, sub, _d):
        ok = np.flatnonzero(sub.legal[:, DOUBLE])
        if len(ok):
            found.append(sub.take(ok))

    rng = np.random.default_rng(3)
    state = init(deals[:n_deals], rng.integers(0, 4, n_deals), rng.integers(0, 4, n_deals))
    rollout(state, [make_agent(agents[0]), make_agent(agents[1])], np.array([0, 1, 0, 1]), on_decision=hook)
    return concat(found)


@pytest.fixture(scope="module")
def positions() -> AuctionState:
    return _double_positions()


@pytest.fixture(scope="module")
def punisher() -> PunishAgent:
    return make_agent("punish:nn:rl@soup1")


def _shuffle_hidden(state: AuctionState, t: int, seed: int) -> AuctionState:
    """Row ``t`` with the 39 cards its player to act cannot see dealt again among the other
    three hands (13 each): the view of the player to act is kept, nothing else."""
    rng = np.random.default_rng(seed)
    row = state.take([t])
    deals = row.deals.copy()
    me = int(row.to_act[0])
    hidden = np.flatnonzero(deals[0] != me)
    deals[0, hidden] = rng.permutation(deals[0, hidden])
    return with_hands(row, deals)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 10_000), st.integers(0, 2**32 - 1))
def test_the_judge_sees_only_one_players_view(positions, punisher, index, seed):
    t = index % positions.n
    row = positions.take([t])
    other = _shuffle_hidden(positions, t, seed)
    assert punisher.gains(other)[0] == punisher.gains(row)[0]
    assert punisher.decide(other).calls[0] == punisher.decide(row).calls[0]


def test_the_judge_would_notice_a_changed_view(positions, punisher):
    """The check above can fail: changing the acting player's own hand moves the judge."""
    moved = 0
    for t in range(min(positions.n, 40)):
        row = positions.take([t])
        deals = row.deals.copy()
        me = int(row.to_act[0])
        mine, lho = np.flatnonzero(deals[0] == me), np.flatnonzero(deals[0] == (me + 1) % 4)
        deals[0, mine[:3]], deals[0, lho[:3]] = (me + 1) % 4, me   # swap three cards with LHO
        moved += punisher.gains(with_hands(row, deals))[0] != punisher.gains(row)[0]
    assert moved > 0


@pytest.mark.parametrize("base, threshold", [("nn:rl@soup1", -1.0), ("sayc", 0.0)])
def test_a_punishers_only_departures_from_its_base_are_doubles(base, threshold):
    """Over many auctions (the punisher at all four seats, a low threshold so that it doubles
    often), every call it makes is its base agent's call at the same position, or a double."""
    punisher = make_agent(f"punish:{base}?threshold={threshold:g}")
    plain = make_agent(base)
    deals, _, _ = shipped_store().load("train")
    n = 300
    rng = np.random.default_rng(7)
    state = init(deals[1000:1000 + n], rng.integers(0, 4, n), rng.integers(0, 4, n))
    seen = {"decisions": 0, "departures": 0}

    def hook(_pi, _rows, sub, d):
        mine = np.asarray(d.calls)
        theirs = np.asarray(plain.decide(sub).calls)
        differ = mine != theirs
        assert (mine[differ] == DOUBLE).all(), "a punisher departed from its base by something other than X"
        assert sub.legal[differ, DOUBLE].all()
        seen["decisions"] += len(mine)
        seen["departures"] += int(differ.sum())

    rollout(state, [punisher], np.zeros(4, np.int64), on_decision=hook)
    assert seen["departures"] > 0 and seen["decisions"] > 4 * n


def test_the_threshold_decides_how_often_it_doubles(positions):
    eager, shy = make_agent("punish:sayc?threshold=-30"), make_agent("punish:sayc?threshold=30")
    base = make_agent("sayc")
    doubles = [int((np.asarray(a.decide(positions).calls) == DOUBLE).sum()) for a in (shy, base, eager)]
    # an eager punisher doubles everywhere, except where its side has doubled already (once an auction)
    again = side_doubled(positions) & (np.asarray(base.decide(positions).calls) != DOUBLE)
    assert 0 < again.sum() < positions.n
    assert doubles[0] == doubles[1] < doubles[2] == positions.n - again.sum()


def test_the_judge_ranks_validation_positions_by_their_gain():
    """On positions it never trained on (VALIDATION deals, the panel's auctions) the judge's
    prediction follows the realised gain of doubling: positions it rates higher gain more."""
    from bidlab.learn.judge import PANEL, build_panel, doubling_positions, predict

    deals, dd, _ = shipped_store().load("validation")
    data = doubling_positions(build_panel(PANEL[:1] + PANEL[-1:], 0), deals[:400], dd[:400], 5)
    pred = predict(load_judge("judge"), data["obs"])
    real = data["imps"].astype(float)
    assert np.corrcoef(pred, real)[0, 1] > 0.2
    assert real[pred > 0].mean() > real[pred < -4].mean() + 2


def test_oracle_doubles_exactly_the_contracts_going_down_double_dummy(positions):
    base = make_agent("sayc")
    for down in (1, 2, 3):
        oracle = make_agent(f"oracle-punish:sayc?down={down}")
        assert isinstance(oracle, OraclePunishAgent) and oracle.peeks
        calls = np.asarray(oracle.decide(positions).calls)
        plain = np.asarray(base.decide(positions).calls)
        c = contracts(positions)
        short = c.level.astype(int) + 6 - dd_tricks_of(positions.deals, c.declarer, c.strain)
        expected = np.where(short >= down, DOUBLE, plain)
        assert np.array_equal(calls, expected)


def test_the_oracle_reads_stored_tables_and_solves_other_deals():
    from bidlab.dd import solve_contracts

    deals, dd, _ = shipped_store().load("validation")
    got = dd_tricks_of(deals[:5], np.arange(5) % 4, np.arange(5) % 5)
    assert np.array_equal(got, dd[np.arange(5), np.arange(5) % 4, np.arange(5) % 5])
    fresh = np.random.default_rng(99).permutation(np.repeat(np.arange(4), 13)).astype(np.uint8)[None]
    assert np.array_equal(dd_tricks_of(fresh, [2], [4]), solve_contracts(fresh, [2], [4]))


def test_side_doubled_reads_the_auction():
    from bidlab.envs.state import from_prefix

    deals, _, _ = shipped_store().load("train")
    # the player to act's side has doubled before: partner (two calls back, four ...) or itself
    for calls, dealer, want in [("1S X", 0, False), ("1S X P", 0, True), ("1S P 2S X P", 1, True),
                                ("1C P 1H X", 2, False), ("1H X XX P 2C", 2, True), ("1C", 3, False)]:
        ids = [{"P": 0, "X": 1, "XX": 2}.get(c, None) for c in calls.split()]
        from bidlab.bridge.auction import Auction

        ids = [Auction.parse(c, "N").calls[0].id if i is None else i for c, i in zip(calls.split(), ids)]
        state = from_prefix(deals[:1], [dealer], [0], np.array([ids]))
        assert bool(side_doubled(state)[0]) is want, calls


def test_options_stay_with_the_base_agent():
    assert split_options("bmcs:rl?k=4&threshold=1", ("threshold", "judge")) == ("bmcs:rl?k=4", {"threshold": "1"})
    assert split_options("nn:rl@soup1", ("threshold",)) == ("nn:rl@soup1", {})
    assert split_options("sayc?down=1", ("down",)) == ("sayc", {"down": "1"})
    a = make_agent("punish:nn:rl@soup1?threshold=2.5")
    assert a.threshold == 2.5 and a.base.name == "nn:rl@soup1" and a.name == "punish:nn:rl@soup1?threshold=2.5"


@pytest.mark.parametrize("spec, fragment", [
    ("punish:", "needs the agent it wraps"), ("punish:sayc?threshold=x", "is not a float"),
    ("punish:sayc?threshold=nan", "finite"), ("punish:sayc?judge=nothere", "judge=nothere"),
    ("oracle-punish:sayc?down=0", "down must be >= 1"), ("punish:punish:sayc", "not another punisher"),
    ("punish:sayc?threshold", "needs a value"),
])
def test_bad_punisher_specs_say_what_is_wrong(spec, fragment):
    with pytest.raises(AgentSpecError, match=fragment):
        make_agent(spec)


@pytest.mark.parametrize("spec", ["oracle-punish:nn:rl", "sayc+oracle-punish:sayc", " Oracle-Punish:sayc?down=1"])
def test_the_oracle_is_refused_by_name_in_playing_contexts(spec):
    with pytest.raises(AgentSpecError, match="looks at the hidden hands"):
        refuse_peeking(spec, "the web app")
    refuse_peeking("punish:nn:rl", "the web app")  # the judge's punisher is a player


def test_the_oracle_is_refused_by_the_web_catalog_and_by_a_league_plan(tmp_path):
    from bidlab.eval.league import LeagueError, plan_league
    from bidlab.web.agents import AgentCatalog, build_agent

    with pytest.raises(AgentSpecError, match="looks at the hidden hands"):
        AgentCatalog().resolve("oracle-punish:sayc")
    with pytest.raises(AgentSpecError, match="looks at the hidden hands"):
        build_agent("oracle-punish:sayc", 0)
    assert "oracle-punish" not in {k for k, _ in AgentCatalog().kinds()}
    with pytest.raises(LeagueError, match="looks at the hidden hands"):
        plan_league(["sayc", "oracle-punish:sayc"], 10, 10, root=tmp_path)
    assert not any(tmp_path.iterdir())


def test_the_oracle_is_refused_by_a_blue_chip_client():
    from bidlab.bluechip.client import BlueChipClient
    from bidlab.cards import Seat
    from bidlab.errors import BidlabError

    with pytest.raises(BidlabError, match="looks at the hidden hands"):
        BlueChipClient(None, Seat.N, make_agent("oracle-punish:sayc"), "t")


def test_the_judge_model_is_a_judge():
    net = load_judge("judge")
    assert net.cfg.kind == "judge" and net.cfg.encoder == "openspiel480" and net.cfg.input_dim == 480


# -- BMCS rollouts with punishing opponents (bmcs:MODEL?opponents=SPEC) -----------------------

FAST = "bmcs:rl?k=2&rmin=4&rmax=8&pmax=400&pmin=0.01&dd=exact"


class _Recorder:
    """Wraps a bidder and records the seats it was asked to bid for."""

    name = "recorder"

    def __init__(self, inner):
        self.inner, self.seats = inner, []

    def decide(self, state, explain=False):
        self.seats.extend(int(s) for s in state.to_act)
        return self.inner.decide(state, explain)


def test_bmcs_rollouts_bid_the_opponents_seats_with_the_given_agent(positions):
    agent = make_agent(FAST + "&opponents=punish:nn:rl")
    searcher = agent.searcher
    assert isinstance(searcher.opponents, PunishAgent)
    recorder = _Recorder(searcher.opponents)
    searcher.opponents = recorder
    for t in range(6):
        row = positions.take([t])
        seat = int(row.to_act[0])
        recorder.seats.clear()
        legal = np.flatnonzero(row.legal[0])
        end = searcher._rollouts(row.take([0, 0, 0]), [int(legal[0]), int(legal[-1])], seat)
        assert end.done.all()
        assert recorder.seats and all((s - seat) % 2 == 1 for s in recorder.seats)   # only the opponents' seats
    assert make_agent(FAST).searcher.opponents is None


def test_bmcs_opponents_change_the_fingerprint_and_bad_opponents_are_refused():
    from bidlab.eval.fingerprint import agent_fingerprint

    assert agent_fingerprint(FAST + "&opponents=punish:nn:rl") != agent_fingerprint(FAST)
    for bad, fragment in (("oracle-punish:nn:rl", "peeking"), ("bmcs:rl", "not a search"), ("foo", "unknown agent")):
        with pytest.raises(AgentSpecError, match=fragment):
            make_agent(f"{FAST}&opponents={bad}")


def test_the_threshold_sweep_takes_a_candidate_judge_and_refuses_bad_options(benchmark_script, capsys):
    sweep = benchmark_script("punish_threshold")
    for argv, message in {("--judge", "/no/such/judge"): "--judge: punish: judge=/no/such/judge: no model",
                          ("--judge", "judge", "--register", "x"): "ship the candidate judge first",
                          ("--base", "nope"): "--base: unknown agent 'nope'"}.items():
        assert sweep.main([*argv, "--boards", "4"]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err
    assert sweep.main(["--judge", "judge", "--thresholds", "1", "--boards", "4"]) == 0
    assert "`punish:nn:rl@soup1?threshold=T&judge=judge` against" in capsys.readouterr().out


def test_the_first_judge_stays_loadable_by_name():
    """Issue 44 keeps every earlier model loadable by name: the first judge is ``judge@v1``."""
    import torch

    first, shipped = load_judge("judge@v1"), load_judge("judge")
    assert first.cfg.kind == shipped.cfg.kind == "judge"
    assert any(not torch.equal(a, b) for a, b in zip(first.state_dict().values(), shipped.state_dict().values()))
    assert make_agent("punish:sayc?judge=judge@v1&threshold=1", 0) is not None
