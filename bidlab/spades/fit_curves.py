"""Fitting BIS's success curves on simulated rounds (Cohensius et al. 2020, Sec. 4.3).

The paper learned Pr(nil succeeds | previous bids, nilValue) from 2 million online rounds
played by "the earlier version of BIS that does not use the learning component" plus "a
noisy variant of BIS for better exploration", with SRP playing. We do the same with the
tournament engine instead of an app:

- every bidder is BIS with nilProb = nilValue (:func:`bidlab.spades.bis.bootstrap_bidder`);
- exploration: in each round one bidder whose hand has nilValue >= ``explore_floor`` (and
  whose partner has not bid nil) is picked at random and bids nil whatever BIS says;
- all four seats play SRP; every nil of the round is one sample: the bidder's earlier bids
  in the round, its nilValue, and whether it took no trick.

Scores are 0 : 0 (the end-of-game rules do not fire), so the curves describe ordinary rounds.
A logistic regression (scikit-learn) on :func:`bidlab.spades.success.curve_features` gives
the full model; the same on the nilValue alone gives the single curve of Sec. 5.3.1. The
samples are saved in chunks (``.npz``, no pickle) so an interrupted run resumes.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from bidlab.fileio import write_json_atomic
from bidlab.spades.bidders import BidView
from bidlab.spades.bis import BidDecision, BISBidder, BISConfig
from bidlab.spades.engine import RoundState
from bidlab.spades.game import deal_hands
from bidlab.spades.players import StrongRulePlayer
from bidlab.spades.rules import Rules
from bidlab.spades.success import FEATURES, SINGLE_FEATURES, IdentityCurves, LogisticCurve, curve_features

CHUNK = 2000


def simulate_nil_rounds(n_rounds: int, seed: int, explore_floor: float = 0.02) -> np.ndarray:
    """Rows ``[prev bid count, prev bids (3, -1 padded), nilValue, success]`` for each nil bid."""
    rng = random.Random(seed)
    rules = Rules.paper()
    bidder = BISBidder(BISConfig(end_game=False), curves=IdentityCurves(), name="bis-bootstrap")
    player = StrongRulePlayer()
    rows = []
    for _ in range(n_rounds):
        hands = deal_hands(rng)
        dealer = rng.randrange(4)
        first = (dealer + 1) % 4
        # Which bidder explores: decided before the bidding from the hands alone.
        values = []
        for i in range(4):
            d = BidDecision()
            bidder.nil_value(hands[(first + i) % 4], d)
            values.append(d.nil_value)
        cands = [i for i in range(4) if values[i] >= explore_floor]
        forced = rng.choice(cands) if cands else -1
        bids: list[int] = []
        for i in range(4):
            seat = (first + i) % 4
            partner_i = i - 2
            partner_nil = partner_i >= 0 and bids[partner_i] == 0
            view = BidView(seat=seat, hand=hands[seat], dealer=dealer, prev_bids=tuple(bids),
                           prev_blind=(False,) * i, rules=rules)  # fmt: skip
            b = bidder.bid(view)
            if i == forced and not partner_nil:
                b = 0
            bids.append(b)
        by_seat = [0] * 4
        for i in range(4):
            by_seat[(first + i) % 4] = bids[i]
        state = RoundState(rules, hands, dealer, tuple(by_seat))  # type: ignore[arg-type]
        while state.n_played < 52:
            legal = state.legal_mask()
            if legal & (legal - 1) == 0:
                card = legal.bit_length() - 1
            else:
                card = player.play(state.view(state.to_play))
            state.play(card)
        for i in range(4):
            if bids[i] == 0:
                prev = bids[:i]
                rows.append([i, *(prev + [-1] * (3 - i)), values[i], float(state.tricks[(first + i) % 4] == 0)])
    return np.asarray(rows, dtype=np.float64).reshape(-1, 6)


def _design(rows: np.ndarray, single: bool) -> np.ndarray:
    out = []
    for r in rows:
        n = int(r[0])
        prev = tuple(int(b) for b in r[1 : 1 + n])
        out.append(curve_features(prev, float(r[4]), single))
    return np.asarray(out, dtype=np.float64)


def collect(n_rounds: int, seed: int, chunk_dir: Path, progress=None) -> np.ndarray:
    """Simulate ``n_rounds`` in chunks saved under ``chunk_dir`` (resumes finished chunks)."""
    chunk_dir.mkdir(parents=True, exist_ok=True)
    parts = []
    n_chunks = -(-n_rounds // CHUNK)
    for k in range(n_chunks):
        size = min(CHUNK, n_rounds - k * CHUNK)
        path = chunk_dir / f"chunk{k:05d}_{size}.npz"
        if path.exists():
            with np.load(path, allow_pickle=False) as z:
                rows = z["rows"]
        else:
            rows = simulate_nil_rounds(size, seed * 1_000_003 + k)
            tmp = path.with_suffix(".tmp.npz")
            np.savez(tmp, rows=rows)
            tmp.replace(path)
        parts.append(rows)
        if progress:
            progress(min(n_rounds, (k + 1) * CHUNK), n_rounds)
    return np.concatenate(parts) if parts else np.zeros((0, 6))


def fit(rows: np.ndarray, seed: int = 0) -> dict:
    """Fit both curves; report held-out log-loss against the identity curve (nilProb = nilValue)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss

    rng = np.random.default_rng(seed)
    y = rows[:, 5]
    test = rng.random(len(rows)) < 0.2
    out: dict = {}
    models = {}
    losses = {}
    for single in (False, True):
        x = _design(rows, single)
        m = LogisticRegression(C=100.0, max_iter=5000)
        m.fit(x[~test], y[~test])
        losses["single" if single else "full"] = float(log_loss(y[test], m.predict_proba(x[test])[:, 1]))
        m.fit(x, y)  # the shipped model uses every sample
        names = SINGLE_FEATURES if single else FEATURES
        models["single" if single else "full"] = LogisticCurve(
            names, tuple(float(c) for c in m.coef_[0]), float(m.intercept_[0])
        )
    ident = np.clip(rows[test, 4], 1e-6, 1 - 1e-6)
    losses["identity"] = float(log_loss(y[test], ident, labels=[0.0, 1.0]))
    out["full"] = models["full"].to_dict()
    out["single"] = models["single"].to_dict()
    out["meta"] = {
        "samples": int(len(rows)),
        "success_rate": float(y.mean()),
        "held_out_log_loss": losses,
        "fitted_by": "bidlab spades fit-curves",
    }
    return out


def fit_and_write(n_rounds: int, seed: int, out: Path, chunk_dir: Path, progress=None) -> dict:
    rows = collect(n_rounds, seed, chunk_dir, progress)
    model = fit(rows, seed)
    model["meta"].update({"rounds": n_rounds, "seed": seed})
    write_json_atomic(out, model)
    return model


# -- RB's per-card values (Sec. 5.1, App. F.2) ---------------------------------------------


def trick_winners(plays: list[int] | tuple[int, ...]) -> list[int]:
    """The winning card of each trick of a finished round's plays."""
    out = []
    for t in range(0, len(plays), 4):
        trick = plays[t : t + 4]
        led = trick[0] // 13
        spades = [c for c in trick if c // 13 == 3]
        out.append(max(spades) if spades else max(c for c in trick if c // 13 == led))
    return out


def measure_card_values(n_rounds: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Tricks won and cards seen per (spades?, rank, suit length): sums and counts, [2, 13, 14].

    The paper gives RB's form - "a sum of values of each card in hand; each card has a value
    that depends on the number of cards from that suit" - but not its table. We measure the
    table: the average number of tricks a card of that rank and suit length wins in rounds
    bid by RB's published nil rule and the old reconstruction and played by SRP (cards of nil
    bidders are left out: they try to lose).
    """
    from bidlab.spades.bidders import RBBidder

    rng = random.Random(seed)
    rules = Rules.paper()
    bidder = RBBidder(values=None)  # the first reconstruction bids the measuring rounds
    player = StrongRulePlayer()
    won = np.zeros((2, 13, 14))
    seen = np.zeros((2, 13, 14))
    for _ in range(n_rounds):
        hands = deal_hands(rng)
        dealer = rng.randrange(4)
        first = (dealer + 1) % 4
        bids: list[int] = []
        for i in range(4):
            seat = (first + i) % 4
            view = BidView(seat=seat, hand=hands[seat], dealer=dealer, prev_bids=tuple(bids),
                           prev_blind=(False,) * i, rules=rules)  # fmt: skip
            bids.append(bidder.bid(view))
        by_seat = [0] * 4
        for i in range(4):
            by_seat[(first + i) % 4] = bids[i]
        state = RoundState(rules, list(hands), dealer, tuple(by_seat))  # type: ignore[arg-type]
        while state.n_played < 52:
            legal = state.legal_mask()
            card = legal.bit_length() - 1 if legal & (legal - 1) == 0 else player.play(state.view(state.to_play))
            state.play(card)
        winners = set(trick_winners(state.plays))
        for seat in range(4):
            if by_seat[seat] == 0:
                continue
            hand = hands[seat]
            for s in range(4):
                m = hand >> (13 * s) & 0x1FFF
                n = m.bit_count()
                for r in range(13):
                    if m >> r & 1:
                        seen[int(s == 3), r, n] += 1
                        won[int(s == 3), r, n] += (13 * s + r) in winners
    return won, seen


def rb_values_table(won: np.ndarray, seen: np.ndarray, min_cards: int = 200) -> dict:
    """Average tricks per card; cells seen fewer than ``min_cards`` times borrow the nearest
    shorter length's value (long suits are rare), and a cell is 0 when that is all there is."""
    values = np.zeros((2, 13, 14))
    for kind in range(2):
        for r in range(13):
            last = 0.0
            for n in range(1, 14):
                if seen[kind, r, n] >= min_cards:
                    last = won[kind, r, n] / seen[kind, r, n]
                values[kind, r, n] = last
    return {
        "what": "RB per-card values (Cohensius et al. 2020, Sec. 5.1): average tricks won by a card of "
        "rank r (0 = deuce) in a suit of length n, side suits and spades; measured by bidlab spades fit-rb",
        "side": np.round(values[0], 4).tolist(),
        "spades": np.round(values[1], 4).tolist(),
        "cards_seen": seen.astype(int).tolist(),
    }
