"""AuctionEnv against the scalar bidlab.bridge rules, the encoders, and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidlab.bridge import Auction, Call, Vulnerability, imps, score_contract
from bidlab.bridge.features import encode_jps267
from bidlab.cards import Seat, random_deals
from bidlab.envs import (
    NO_CALL,
    AuctionEnv,
    BatchError,
    EnvConfig,
    EnvError,
    FinishedBoardError,
    IllegalEnvCallError,
)
from bidlab.envs.state import encode_openspiel480, encode_value636


def source(n: int, seed: int):
    """Random deals with random trick tables: the env only looks the tables up, so any
    0..13 values exercise the scoring as well as real double-dummy results would."""
    rng = np.random.default_rng(seed)
    return random_deals(n, seed=seed), rng.integers(0, 14, size=(n, 4, 5), dtype=np.uint8)


def choose_calls(env: AuctionEnv, rng: np.random.Generator, pass_bias) -> np.ndarray:
    """Uniform over the env's legal mask, or Pass with probability ``pass_bias`` (per table)."""
    keys = rng.random(env.legal.shape) * env.legal
    calls = keys.argmax(axis=1)
    calls = np.where(rng.random(env.num_tables) < pass_bias, 0, calls)
    return np.where(env.done, NO_CALL, calls)


def run_against_scalar(env: AuctionEnv, deals, dd, boards_wanted: int, seed: int, check_obs_every: int = 0):
    """Step the env with random calls, replaying every table in a scalar Auction."""
    rng = np.random.default_rng(seed)
    n = env.num_tables
    auctions = [Auction(Seat(int(env.dealer[t]))) for t in range(n)]
    finished_boards = 0
    pairs_checked = 0
    pending: dict[int, int] = {}  # pair -> NS score of the table that finished first
    step = 0
    contracts_seen = {"passed": 0, "doubled": 0, "redoubled": 0}
    while finished_boards < boards_wanted:
        for t in range(n):
            if env.done[t]:
                assert not env.legal[t].any()
                continue
            a = auctions[t]
            assert env.legal[t].tolist() == a.legal_mask(), (t, str(a))
            assert int(env.to_act[t]) == int(a.to_act)
            assert Seat(int(env.dealer[t])) == a.dealer
        if check_obs_every and step % check_obs_every == 0:
            width = max(int(env.length.max()), 1)
            args = (env.deals, env.dealer, env.vulnerability, env.history[:, :width])
            live = ~env.done
            assert np.array_equal(env.observe()[live], encode_openspiel480(*args)[live])
            assert np.array_equal(env.observe_value636()[live], encode_value636(*args)[live])
            assert np.array_equal(env.observe_jps267()[live], encode_jps267(*args)[live])
        # tables differ in how often they pass, for short, long and passed-out auctions alike
        calls = choose_calls(env, rng, pass_bias=(np.arange(n) % 4) * 0.3)
        deal_before = env.deal_index.copy()
        vul_before = env.vulnerability.copy()
        r = env.step(calls)
        step += 1
        for t in range(n):
            if calls[t] == NO_CALL:
                continue
            a = auctions[t].with_call(Call(int(calls[t])))
            auctions[t] = a
            assert bool(r.finished[t]) == a.is_over, (t, str(a))
            if not a.is_over:
                continue
            finished_boards += 1
            c = a.contract
            vul = Vulnerability(int(vul_before[t]))
            if c is None:
                contracts_seen["passed"] += 1
                assert r.level[t] == 0 and r.declarer[t] == -1 and r.score[t] == 0
                ns = 0
            else:
                contracts_seen["doubled"] += c.doubled == 1
                contracts_seen["redoubled"] += c.doubled == 2
                tricks = int(dd[deal_before[t], int(c.declarer), int(c.strain)])
                assert (r.level[t], r.strain[t], r.doubled[t], r.declarer[t], r.tricks[t]) == (
                    c.level, int(c.strain), c.doubled, int(c.declarer), tricks)
                ns = score_contract(c, tricks, vul)
                assert r.score[t] == ns
            if env.config.duplicate:
                b = env.config.num_boards
                p = t % b
                if p in pending:
                    other_ns, other_t = pending.pop(p)
                    ns0, ns1 = (ns, other_ns) if t < b else (other_ns, ns)
                    assert r.pair_finished[p]
                    assert r.imps[p] == imps(ns0 - ns1)
                    assert r.reward[p] == pytest.approx(imps(ns0 - ns1) / 24)
                    pairs_checked += 1
                else:
                    # the twin is still bidding, or finished in this same step
                    twin = t + b if t < b else t - b
                    if r.finished[twin] and twin < t:
                        raise AssertionError("twin should have been seen first")
                    pending[p] = (ns, t)
                    if not r.finished[twin]:
                        assert not r.pair_finished[p]
        # tables that were reset start new scalar auctions
        for t in range(n):
            if env.length[t] == 0 and not env.done[t]:
                auctions[t] = Auction(Seat(int(env.dealer[t])))
        if env.config.duplicate:
            b = env.config.num_boards
            assert (env.deal_index[:b] == env.deal_index[b:]).all()
            assert (env.dealer[:b] == env.dealer[b:]).all()
    return finished_boards, pairs_checked, contracts_seen


def test_env_equals_scalar_rules_on_10000_boards():
    deals, dd = source(3000, seed=1)
    env = AuctionEnv(deals, dd, EnvConfig.jps(num_boards=200, seed=3))
    boards, pairs, seen = run_against_scalar(env, deals, dd, 10_000, seed=4, check_obs_every=7)
    assert boards >= 10_000 and pairs >= 4_900
    # the random policy reached the interesting cases
    assert seen["passed"] > 50 and seen["doubled"] > 100 and seen["redoubled"] > 20


def test_single_table_mode_equals_scalar_rules():
    deals, dd = source(500, seed=2)
    env = AuctionEnv(deals, dd, EnvConfig(num_boards=64, dealer="board", vulnerability="board", seed=5))
    boards, pairs, _ = run_against_scalar(env, deals, dd, 1_000, seed=6, check_obs_every=3)
    assert boards >= 1_000 and pairs == 0


def test_dealer_and_vulnerability_by_board_number():
    deals, dd = source(40, seed=3)
    env = AuctionEnv(deals, dd, num_boards=32, dealer="board", vulnerability="board", order="sequential")
    from bidlab.bridge import board_dealer, board_vulnerability
    for t in range(32):
        number = int(env.deal_index[t]) + 1
        assert env.dealer[t] == board_dealer(number) and env.vulnerability[t] == board_vulnerability(number)
    assert env.deal_index.tolist() == list(range(32))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=80), st.integers(0, 3), st.integers(0, 3))
def test_any_legal_sequence_matches_scalar_auction(choices, dealer, vul):
    deals, dd = source(1, seed=7)
    env = AuctionEnv(deals, dd, num_boards=1, auto_reset=False)
    env.reset(deal_index=np.array([0]), dealer=np.array([dealer]), vulnerability=np.array([vul]))
    a = Auction(Seat(dealer))
    for ch in choices:
        if a.is_over:
            assert env.done[0]
            with pytest.raises(FinishedBoardError):
                env.step(np.array([0]))
            break
        legal = a.legal_calls()
        call = legal[ch % len(legal)]
        assert env.legal[0].tolist() == a.legal_mask()
        env.step(np.array([call.id]))
        a = a.with_call(call)
        assert env.auction(0) == a
        obs = encode_openspiel480(deals, [dealer], [vul], np.array([[c.id for c in a.calls]]))
        if not a.is_over:
            assert np.array_equal(env.observe(), obs)


def test_waiting_table_and_no_call_skips():
    deals, dd = source(10, seed=8)
    env = AuctionEnv(deals, dd, EnvConfig.qiu(num_boards=2, auto_reset=True, seed=0))
    deal0 = int(env.deal_index[0])
    # table 0 of pair 0 passes out; the pair must wait for table 2 (its twin)
    for _ in range(4):
        r = env.step(np.array([0, NO_CALL, NO_CALL, NO_CALL]))
    assert env.done[0] and not env.done[2] and not r.pair_finished.any()
    with pytest.raises(FinishedBoardError, match="board 0"):
        env.step(np.array([0, NO_CALL, NO_CALL, NO_CALL]))
    env.step(np.array([NO_CALL, NO_CALL, 3, NO_CALL]))  # 1C by North at table 1
    for _ in range(2):
        env.step(np.array([NO_CALL, NO_CALL, 0, NO_CALL]))
    r = env.step(np.array([NO_CALL, NO_CALL, 0, NO_CALL]))
    assert r.finished[2] and r.pair_finished[0] and not r.pair_finished[1]
    assert r.declarer[2] == 0 and r.level[2] == 1 and r.strain[2] == 0
    tricks = int(dd[deal0, 0, 0])
    assert r.tricks[2] == tricks
    ns1 = score_contract(Auction.parse("1C P P P", "N").contract, tricks, Vulnerability.NONE)
    assert r.score[2] == ns1
    assert r.imps[0] == imps(0 - ns1)  # team 0 is NS at table 0 (passed out) and EW at table 1
    # the pair was reset together: fresh auctions on both tables, same new deal
    assert not env.done[0] and not env.done[2] and env.length[0] == env.length[2] == 0
    assert env.deal_index[0] == env.deal_index[2]


def test_team_to_act_swaps_between_tables():
    deals, dd = source(4, seed=9)
    env = AuctionEnv(deals, dd, EnvConfig.qiu(num_boards=2))
    # North deals at both tables: North is team 0 at table 0 and team 1 at table 1.
    assert env.team_to_act.tolist() == [0, 0, 1, 1]


def test_random_calls_are_legal_and_uniform():
    deals, dd = source(50, seed=10)
    env = AuctionEnv(deals, dd, num_boards=1, auto_reset=False)
    env.reset(deal_index=np.array([0]), dealer=np.array([0]), vulnerability=np.array([0]))
    env.step(np.array([Call.parse("6NT").id]))  # E may pass, double, or bid 7C..7NT: 7 calls
    rng = np.random.default_rng(0)
    counts = np.zeros(38, int)
    for _ in range(7000):
        counts[env.random_calls(rng)[0]] += 1
    legal = np.flatnonzero(env.legal[0])
    assert set(np.flatnonzero(counts)) == set(legal) and len(legal) == 7
    assert counts[legal].min() > 850 and counts[legal].max() < 1150  # 1000 expected each


def test_bad_calls_name_board_and_call():
    deals, dd = source(10, seed=11)
    env = AuctionEnv(deals, dd, num_boards=3, dealer="N", auto_reset=False)
    env.step(np.array([3, 3, 3]))  # 1C by North everywhere
    with pytest.raises(IllegalEnvCallError, match=r"board 1: 1C is not legal after N: 1C by E") as e:
        env.step(np.array([0, 3, 0]))
    assert e.value.board == 1 and e.value.call == 3
    with pytest.raises(IllegalEnvCallError, match="board 2: XX is not legal"):
        env.step(np.array([0, 0, 2]))
    with pytest.raises(IllegalEnvCallError, match="board 0: call id 38 is not a call"):
        env.step(np.array([38, 0, 0]))
    with pytest.raises(BatchError, match=r"calls must have shape \(3,\)"):
        env.step(np.array([0, 0]))
    with pytest.raises(BatchError, match="integer"):
        env.step(np.array([0.0, 0.0, 0.0]))
    # a rejected step changes nothing
    assert env.length.tolist() == [1, 1, 1]


@pytest.mark.parametrize("kwargs,match", [
    (dict(deals=np.zeros((2, 52), np.uint8)), r"deals\[0\] is not a deal"),
    (dict(dd=np.zeros((2, 4, 4), np.uint8)), r"dd must have shape \(2, 4, 5\)"),
    (dict(dd=np.full((2, 4, 5), 14, np.uint8)), r"dd\[0\] has trick counts outside"),
    (dict(deals=np.zeros((2, 13), np.uint8)), "deals must be uint8"),
    (dict(num_boards=0), "num_boards must be a positive integer"),
    (dict(dealer="X"), "dealer must be a seat"),
    (dict(vulnerability="maybe"), "vulnerability must be"),
    (dict(order="shuffled"), "order must be"),
])
def test_bad_construction(kwargs, match):
    deals, dd = source(2, seed=12)
    args = dict(deals=deals, dd=dd)
    for k in ("deals", "dd"):
        if k in kwargs:
            args[k] = kwargs.pop(k)
    with pytest.raises(EnvError, match=match):
        AuctionEnv(args["deals"], args["dd"], **kwargs)


def test_bad_reset_and_out_buffers():
    deals, dd = source(5, seed=13)
    env = AuctionEnv(deals, dd, num_boards=2)
    with pytest.raises(BatchError, match=r"deal_index\[1\] = 5 is outside 0..4"):
        env.reset(deal_index=np.array([0, 5]))
    with pytest.raises(BatchError, match=r"dealer must be an integer array of shape \(2,\)"):
        env.reset(dealer=np.array([0, 1, 2]))
    with pytest.raises(BatchError, match="out must be float32"):
        env.observe(np.zeros((2, 480), np.float64))


def test_same_seed_same_boards():
    deals, dd = source(100, seed=14)
    runs = []
    for _ in range(2):
        env = AuctionEnv(deals, dd, EnvConfig.jps(num_boards=8, seed=42))
        rng = np.random.default_rng(1)
        scores = []
        for _ in range(60):
            scores.append(env.step(env.random_calls(rng)).score.copy())
        runs.append(np.stack(scores))
    assert np.array_equal(runs[0], runs[1])


def test_from_store_with_real_double_dummy_tables(tmp_path):
    """A store written with DDS tables feeds the env; scores follow the scalar rules on them."""
    from bidlab.dd import DealStore, dd_tables

    deals = random_deals(2, seed=15)  # DDS costs ~0.1-1 s a table here
    dd = dd_tables(deals)
    store = DealStore.create(tmp_path / "store")
    store.append(deals, dd)
    env = AuctionEnv.from_store(tmp_path / "store", split="all", config=EnvConfig.qiu(num_boards=3, seed=1))
    assert env.store_ids.tolist() == [0, 1]
    boards, pairs, _ = run_against_scalar(env, deals, dd, 60, seed=2)
    assert boards >= 60 and pairs >= 25


def test_from_shipped_store():
    env = AuctionEnv.from_store(split="test", num_boards=4, order="sequential")
    assert (env.store_ids[env.deal_index] % 10 == 0).all()  # the test split: deal id % 10 == 0
    rng = np.random.default_rng(0)
    while not env.step(env.random_calls(rng)).finished.any():
        pass


def test_unscored_env_and_replay_of_recorded_auctions():
    """dd=None reports contracts only; replay() reaches the same state as calling one by one."""
    deals, _ = source(20, seed=16)
    texts = ["1S P 4S P P P", "P P P P", "1NT X XX P P P", "1C 1D 1H 1S P P P"]
    dealers = np.array([0, 1, 2, 3])
    env = AuctionEnv(deals, None, num_boards=4, auto_reset=False)
    env.reset(deal_index=np.arange(4), dealer=dealers, vulnerability=np.zeros(4, np.int64))
    auctions = [Auction.parse(t, Seat(int(d))) for t, d in zip(texts, dealers)]
    width = max(len(a) for a in auctions)
    h = np.full((4, width), NO_CALL)
    for t, a in enumerate(auctions):
        h[t, :len(a)] = [c.id for c in a.calls]
    results = env.replay(h)
    assert env.done.all()
    for t, a in enumerate(auctions):
        assert env.auction(t) == a
        r = results[len(a) - 1]
        assert r.finished[t] and r.score[t] == 0
        c = a.contract
        if c is None:
            assert r.level[t] == 0 and r.declarer[t] == -1
        else:
            assert (r.level[t], r.strain[t], r.doubled[t], r.declarer[t], r.tricks[t]) == (
                c.level, int(c.strain), c.doubled, int(c.declarer), -1)
    with pytest.raises(BatchError, match="history must be an integer array of shape"):
        env.replay(np.zeros((3, 2), np.int64))
    with pytest.raises(EnvError, match="duplicate mode .* needs dd tables"):
        AuctionEnv(deals, None, EnvConfig.qiu(num_boards=2))


def test_observe_any_seat_equals_encoder():
    """Every seat's view (not only the player to act's) as the belief net's training needs."""
    deals, dd = source(200, seed=17)
    env = AuctionEnv(deals, dd, EnvConfig.jps(num_boards=64, seed=3))
    rng = np.random.default_rng(5)
    for _ in range(40):
        width = max(int(env.length.max()), 1)
        for seat in range(4):
            seats = np.full(env.num_tables, seat)
            expect = encode_openspiel480(env.deals, env.dealer, env.vulnerability, env.history[:, :width],
                                         observer=seats)
            live = ~env.done
            assert np.array_equal(env.observe(seat=seats)[live], expect[live])
        env.step(env.random_calls(rng))
    with pytest.raises(BatchError, match="seat must be an integer array"):
        env.observe(seat=np.full(env.num_tables, 4))


def test_redoubled_seven_notrump_bits_next_to_the_hand():
    """The last bid's redoubled values (columns 424..427) share a packed byte with the hand."""
    deals, dd = source(4, seed=18)
    env = AuctionEnv(deals, dd, num_boards=4, auto_reset=False)
    env.reset(deal_index=np.arange(4), dealer=np.arange(4), vulnerability=np.arange(4))
    for call in ("7NT", "X", "XX"):
        env.step(np.full(4, Call.parse(call).id))
    width = int(env.length.max())
    for seat in range(4):
        seats = np.full(4, seat)
        got = env.observe(seat=seats)
        assert np.array_equal(got, encode_openspiel480(env.deals, env.dealer, env.vulnerability,
                                                       env.history[:, :width], observer=seats))
        assert got[:, 424:428].sum() == 4 and (got[:, 428:].sum(axis=1) == 13).all()
