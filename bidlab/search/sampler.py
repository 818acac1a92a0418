"""Deal sampling from a belief over the hidden hands (Qiu et al. 2024 Sec. V, Alg. 3 line 4).

A *belief* gives, for each of the 39 cards the searcher cannot see, the probability that
LHO, partner and RHO hold it (the belief net's 156 sigmoids). A *particle* is a full deal:
the searcher's own 13 cards, and the 39 others split 13/13/13 among the three hidden hands.

Method (decided here; the authors' sampler is in ../shared/notes/qiu-bmcs-notes.md §3):
the authors fill partner, then LHO, then RHO, each with 13 cards drawn in proportion to the
sigmoids without replacement, rejecting a deal when a hand runs out of possible cards. That
draws partner's hand from the belief, but LHO's and above all RHO's hands are whatever is
left, so the three hands are not treated alike and RHO's belief is never used. We use a
consistent joint sampler instead, vectorized over particles:

1. **Balance** the 39 x 3 matrix with a few Sinkhorn steps so that every card's three
   probabilities sum to 1 (each card is somewhere) and every hand's column sums to 13 (each
   hand holds 13 cards). Zeros stay zeros: a card the belief rules out of a hand is never
   dealt there.
2. **Gumbel-max per card**: each card's seat is the argmax of ``log w + Gumbel`` over the
   three hands, which draws it from the balanced row exactly.
3. **Capacity repair**: the 117 (card, hand) scores of a particle are visited from the
   highest down (cards the belief allows in fewer hands first), and a card goes to the
   first hand with room left. Without the 13-card limit
   this is exactly step 2 (a card's best score comes first), so only the last few cards of a
   particle are moved, to their next-best hand.

A particle that would have to put a card in a hand whose belief is exactly 0 is flagged
infeasible (only possible with hard zeros; sigmoid outputs never are).
Tests: a belief that puts cards surely in a hand always deals them there; a uniform belief
gives 1/3 marginals; a balanced random belief's marginals are followed closely.
"""

from __future__ import annotations

import numpy as np

from bidlab.bridge.features import OPENSPIEL_CARD
from bidlab.errors import BidlabError


class BeliefError(BidlabError, ValueError):
    """A belief or a searcher's hand given to the sampler is malformed."""


def belief_by_seat(belief156: np.ndarray, seat: int) -> np.ndarray:
    """The belief net's 156 outputs (LHO, partner, RHO; OpenSpiel card order) of the player
    at ``seat`` as ``float32[4, 52]``: row = absolute seat, column = bidlab card; the
    searcher's row is 0 (its cards are known, set by the caller)."""
    b = np.asarray(belief156, np.float32)
    if b.shape != (156,):
        raise BeliefError(f"a belief has 156 values (LHO, partner, RHO x 52 cards), got shape {b.shape}")
    out = np.zeros((4, 52), np.float32)
    for rel in range(3):
        out[(seat + 1 + rel) % 4] = b[rel * 52 + OPENSPIEL_CARD]
    return out


def uniform_by_seat(own_hand: np.ndarray, seat: int) -> np.ndarray:
    """The uniform belief (each unseen card 1/3 in each other hand), as :func:`belief_by_seat`."""
    own = np.asarray(own_hand, bool)
    out = np.where(own, 0.0, 1.0 / 3.0).astype(np.float32)[None, :].repeat(4, axis=0)
    out[seat] = 0.0
    return out


def balance(w: np.ndarray, iters: int = 30) -> np.ndarray:
    """Sinkhorn scaling of ``w`` ``[39, 3]``: rows sum to 1, columns to 13 (zeros kept)."""
    w = np.asarray(w, np.float64).copy()
    for _ in range(iters):
        w /= np.maximum(w.sum(axis=1, keepdims=True), 1e-300)
        w *= 13.0 / np.maximum(w.sum(axis=0, keepdims=True), 1e-300)
    w /= np.maximum(w.sum(axis=1, keepdims=True), 1e-300)
    return w


class DealSampler:
    """The sampler of one decision: the belief balanced (and calibrated) once, then
    :meth:`draw` any number of times."""

    def __init__(self, belief: np.ndarray, own_hand: np.ndarray, seat: int, rng: np.random.Generator,
                 calibrate: int = 0, pilot: int = 2000):
        own = np.asarray(own_hand, bool)
        if own.shape != (52,) or own.sum() != 13:
            raise BeliefError(f"the searcher's hand must be 13 of 52 cards, got {int(own.sum())} cards")
        if not 0 <= seat <= 3:
            raise BeliefError(f"seat must be 0..3, got {seat}")
        belief = np.asarray(belief, np.float64)
        if belief.shape != (4, 52) or not np.isfinite(belief).all() or (belief < 0).any():
            raise BeliefError(f"belief must be non-negative finite [4, 52], got shape {belief.shape}")
        self.own, self.seat, self.rng = own, seat, rng
        self.others = np.array([(seat + 1 + r) % 4 for r in range(3)])
        self.unseen = np.flatnonzero(~own)                     # the 39 hidden cards
        w = belief[self.others][:, self.unseen].T              # [39, 3]
        if (w.sum(axis=1) <= 0).any():
            raise BeliefError("the belief puts some unseen card in no hand")
        self.target = w = balance(w)
        for _ in range(calibrate):
            emp = _assign(w, pilot, rng).mean(axis=0)
            w = balance(w * np.where(self.target > 0, self.target / np.maximum(emp, 1e-3), 0.0))
        self.weights = w

    def draw(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        owner, feasible = _assign(self.weights, n, self.rng, onehot=False)
        deals = np.empty((n, 52), np.uint8)
        deals[:, self.own] = self.seat
        deals[:, self.unseen] = self.others[owner]
        return deals, feasible


def sample_deals(belief: np.ndarray, own_hand: np.ndarray, seat: int, n: int,
                 rng: np.random.Generator, calibrate: int = 0, pilot: int = 2000) -> tuple[np.ndarray, np.ndarray]:
    """``n`` deals ``uint8[n, 52]`` (holder of each card) consistent with the searcher's hand,
    drawn from ``belief`` ``[4, 52]`` (row per absolute seat, as :func:`belief_by_seat`),
    and ``bool[n]`` feasible (see the module docstring for the method). ``calibrate``
    fixed-point steps (each on ``pilot`` particles) correct the weights for the distortion of
    the capacity repair, so that the marginals follow the balanced belief more closely."""
    return DealSampler(belief, own_hand, seat, rng, calibrate, pilot).draw(n)


def _assign(w: np.ndarray, n: int, rng: np.random.Generator, onehot: bool = True):
    """Gumbel-max per card with capacity repair over ``n`` particles: the owner (0..2) of
    each of the 39 cards, and feasibility; or, with ``onehot``, ``float[n, 39, 3]``."""
    with np.errstate(divide="ignore"):
        logw = np.log(w)
    # cards with fewer possible hands are placed first (a sure card can never be crowded out)
    rank = 1e6 * (3 - (w > 0).sum(axis=1, keepdims=True))
    scores = (logw + rank)[None] + rng.gumbel(size=(n, 39, 3))   # -inf where the belief is 0
    order = np.argsort(-scores.reshape(n, 117), axis=1)
    rows = np.arange(n)
    owner = np.full((n, 39), -1, np.int8)
    room = np.full((n, 3), 13, np.int8)
    for j in range(117):
        pair = order[:, j]
        card, hand = pair // 3, pair % 3
        free = (owner[rows, card] < 0) & (room[rows, hand] > 0)
        r = rows[free]
        owner[r, card[free]] = hand[free]
        room[r, hand[free]] -= 1
    feasible = np.isfinite(logw[np.arange(39)[None, :], owner]).all(axis=1)
    if onehot:
        return np.eye(3)[owner]
    return owner, feasible
