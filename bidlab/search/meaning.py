"""What a call means, read from the belief net: the public reading of one call of one auction.

A call's meaning is what it shows about the caller's hand to the caller's partner, the one
player whose reading of it matters for the system. The belief net (Qiu et al. 2024 Sec. V)
gives exactly that picture, P(caller holds card c), but from one player's observation, which
holds that player's own 13 cards; ``bidlab meaning AGENT "AUCTION"`` and a spectator's
"Why?" have no hand to give it. The reading made public here (method decided in this module):

1. **Partner's hand**, unknown to the audience, is drawn ``partner_hands`` times uniformly
   and weighted by the reading agent's own policy: the product, over partner's earlier calls
   in the auction, of the probability that the policy makes that call with that hand (the
   likelihood weights BMCS gives its particles, Qiu Alg. 3). A rule-based policy has no
   probabilities; it weighs 1 for the call it makes and :data:`FLOOR` for any other.
2. **The picture after the call**: for ``keep`` partner hands resampled by weight, the belief
   net reads partner's 480 observation after the call and the next hand's pass (the position
   in which partner reads it, as in the net's training data), and the deal sampler
   (:mod:`bidlab.search.sampler`) draws ``hands_each`` full deals from that belief; the
   caller's hands of all of them are the sample of what the call shows.
3. **The statement**: the HCP range is the 5th to 95th percentile of the sampled HCP (its
   stated likelihood is the share of samples inside it); per suit, of all length intervals
   holding at least :data:`SUIT_LEVEL` of the samples, the one a random hand is least likely
   to fit (the most telling), with its share. The picture *before* the call (partner's view of
   the auction without it) is drawn the same way, so the text says what the call changed.
4. **Forcing** is read from the policy too: the weighted share of partner hands with which
   partner passes the call (after the next hand's pass).

The belief net was trained on one agent's self-play bidding (``info.policy`` of its model
file); for any other agent the meaning is that agent's calls as the belief net's trainer
means them, and :attr:`CallMeaning.belief_note` says so. ``benchmarks/meaning_calibration.py``
measures how often real hands fall inside the stated ranges (``docs/meanings.md``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np
import torch

from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Vulnerability
from bidlab.bridge.calls import Call
from bidlab.cards import SUITS_HIGH_FIRST, Hand
from bidlab.envs.state import init, observe, step_
from bidlab.errors import BidlabError
from bidlab.learn.belief import is_net_name
from bidlab.learn.belief import probabilities as belief_probabilities
from bidlab.search.sampler import DealSampler, belief_by_seat

#: A rule-based policy's likelihood of a call it would not make (1 for the call it makes):
#: small, not 0, so that a hand the rules bid differently is unlikely, not impossible (when no
#: drawn hand fits the rules, the reading falls back on the belief alone and says so).
FLOOR = 1e-3
#: Share of the sampled caller's hands that a suit-length statement must hold.
SUIT_LEVEL = 0.8
#: The HCP range is this central share of the sampled HCP (5th to 95th percentile).
HCP_LEVEL = 0.9
#: Partner passes the call with less than this share of hands: the call is forcing.
FORCING_BELOW = 0.05
#: Below this effective number of drawn hands that fit the caller's calls, the reading says it is rough.
FEW_FIT = 20
_HCP_OF_RANK = np.array([0] * 9 + [1, 2, 3, 4], np.int64)
_SEARCH_KINDS = ("bmcs", "mcs", "jps")


class MeaningError(BidlabError, ValueError):
    """A meaning was asked of something that has none (no call, a bad index)."""


def reading_spec(spec: str) -> str:
    """The spec whose policy reads a call: a search bot's (``bmcs:``/``mcs:``/``jps:``) policy,
    ``nn:MODEL``; any other spec itself."""
    kind, _, arg = spec.strip().partition(":")
    if kind.lower() not in _SEARCH_KINDS:
        return spec.strip()
    model = arg.partition("?")[0]
    for suffix in (":greedy", ":sample"):
        model = model.removesuffix(suffix)
    return f"nn:{model}"


# -- hands as arrays -----------------------------------------------------------------------


def hcp_of(masks: np.ndarray) -> np.ndarray:
    """HCP of hands given as ``bool[n, 52]`` (bidlab card order)."""
    return (np.asarray(masks).reshape(-1, 4, 13) * _HCP_OF_RANK).sum(axis=(1, 2))


def lengths_of(masks: np.ndarray) -> np.ndarray:
    """Suit lengths ``int[n, 4]`` spades, hearts, diamonds, clubs of ``bool[n, 52]`` hands."""
    return np.asarray(masks).reshape(-1, 4, 13).sum(axis=2)[:, ::-1]


def _random_lengths_prior() -> np.ndarray:
    """P(a random 13-card hand holds exactly L cards of a suit), L = 0..13 (hypergeometric)."""
    from math import comb

    total = comb(52, 13)
    return np.array([comb(13, k) * comb(39, 13 - k) / total for k in range(14)])


_PRIOR = _random_lengths_prior()


# -- the statement ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SuitLength:
    """A suit-length statement: ``lo``..``hi`` cards (``hi`` 13: ``lo``+), held by ``p`` of
    the sampled hands; ``mean`` and ``mean_before`` the expected length after and before."""

    symbol: str
    lo: int
    hi: int
    p: float
    mean: float
    mean_before: float

    def span(self) -> str:
        if self.hi >= 13:
            return f"{self.lo}+"
        if self.lo == 0:
            return f"≤{self.hi}" if self.hi > 0 else "0"
        return f"{self.lo}–{self.hi}" if self.lo != self.hi else str(self.lo)

    def text(self) -> str:
        return f"{self.span()} {self.symbol} ({self.p:.2f})"

    def holds(self, length: int) -> bool:
        return self.lo <= length <= self.hi


def suit_statement(counts: np.ndarray, level: float = SUIT_LEVEL) -> tuple[int, int, float]:
    """(lo, hi, share) of the length interval holding at least ``level`` of ``counts`` (a
    histogram over lengths 0..13) that a random hand fits least often: the most telling true
    statement. Ties go to the interval holding more samples."""
    h = np.asarray(counts, np.float64)
    h = h / max(h.sum(), 1e-12)
    best = (0, 13, 1.0, 1.0)   # lo, hi, share, prior
    for lo in range(14):
        mass = prior = 0.0
        for hi in range(lo, 14):
            mass += h[hi]
            prior += _PRIOR[hi]
            if mass >= level - 1e-9:
                if prior < best[3] - 1e-12 or (abs(prior - best[3]) <= 1e-12 and mass > best[2]):
                    best = (lo, hi, mass, prior)
                break
    return best[0], best[1], float(best[2])


@dataclass(frozen=True)
class CallMeaning:
    """What one call shows about the caller's hand, as the caller's partner reads it."""

    call: Call
    caller: str                 # seat letter
    agent: str                  # the spec whose policy read the call
    hcp: tuple[int, int]
    hcp_p: float                # share of the sampled hands inside the HCP range
    hcp_before: tuple[int, int]
    lengths: tuple[SuitLength, ...]    # spades, hearts, diamonds, clubs
    pass_rate: float | None     # partner passes the call with this share of hands (None: no bid follows)
    examples: tuple[Hand, ...]
    samples: int                # caller's hands drawn
    partner_ess: float          # effective number of partner hands behind the weights
    belief_note: str = ""
    hand_samples: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def forcing(self) -> str | None:
        if self.pass_rate is None:
            return None
        return "forcing" if self.pass_rate < FORCING_BELOW else "not forcing"

    def shows(self) -> str:
        """``11–15 HCP, 5+ ♠ (0.86), ≤3 ♥ (0.84), ...``"""
        lo, hi = self.hcp
        return ", ".join([f"{lo}–{hi} HCP" if lo != hi else f"{lo} HCP", *(s.text() for s in self.lengths)])

    def forcing_text(self) -> str:
        if self.pass_rate is None:
            return ""
        return f"{self.forcing} (partner passes it {self.pass_rate:.0%} of the time)"

    def changed(self) -> str:
        """What the call changed: the HCP range before it and the suits whose expected length moved."""
        parts = []
        if self.hcp_before != self.hcp:
            parts.append(f"HCP {self.hcp_before[0]}–{self.hcp_before[1]} before it")
        moved = [s for s in self.lengths if abs(s.mean - s.mean_before) >= 0.5]
        parts += [f"{s.symbol} {s.mean_before:.1f} → {s.mean:.1f} cards" for s in moved]
        return "; ".join(parts)

    def text(self) -> str:
        """One paragraph for a bridge player."""
        out = f"{self.call.to_str(symbols=True)} shows {self.shows()}"
        if self.pass_rate is not None:
            out += f"; {self.forcing_text()}"
        change = self.changed()
        if change:
            out += f". Changed: {change}"
        if self.belief_note:
            out += f". {self.belief_note}"
        return out

    def example_lines(self) -> list[str]:
        return [h.to_symbols() + f"  ({h.hcp} HCP)" for h in self.examples]

    def holds(self, hand: Hand) -> dict:
        """Which statements a real hand fits: ``{"hcp": bool, "♠": bool, ...}``."""
        lengths = [hand.length(s) for s in SUITS_HIGH_FIRST]
        out = {"hcp": self.hcp[0] <= hand.hcp <= self.hcp[1]}
        out.update({s.symbol: s.holds(n) for s, n in zip(self.lengths, lengths)})
        return out

    def as_dict(self) -> dict:
        return {
            "call": self.call.to_str(), "caller": self.caller, "agent": self.agent,
            "hcp": list(self.hcp), "hcp_p": round(self.hcp_p, 3), "hcp_before": list(self.hcp_before),
            "lengths": [{"suit": s.symbol, "lo": s.lo, "hi": s.hi, "p": round(s.p, 3), "text": s.span(),
                         "mean": round(s.mean, 2), "mean_before": round(s.mean_before, 2)} for s in self.lengths],
            "forcing": self.forcing, "pass_rate": None if self.pass_rate is None else round(self.pass_rate, 3),
            "examples": [h.to_symbols() for h in self.examples], "samples": self.samples,
            "partner_ess": round(self.partner_ess, 1), "belief_note": self.belief_note, "text": self.text(),
        }


# -- the reader ---------------------------------------------------------------------------


def call_likelihood(agent, state, calls: np.ndarray) -> np.ndarray:
    """``float[n]``: how likely ``agent`` makes ``calls[t]`` at row ``t`` of ``state`` (its
    policy probability; for a policy without one, or one anchored to rules, 1 for the call it
    makes and :data:`FLOOR` for any other)."""
    calls = np.asarray(calls, np.int64)
    probs = getattr(agent, "probabilities", None)
    if probs is not None and getattr(agent, "sayc", None) is None:
        return probs(state)[np.arange(state.n), calls].astype(np.float64)
    return np.where(agent.decide(state).calls == calls, 1.0, FLOOR)


def _pass(agent, state) -> np.ndarray:
    probs = getattr(agent, "probabilities", None)
    if probs is not None and getattr(agent, "sayc", None) is None:
        return probs(state)[:, 0].astype(np.float64)
    return (agent.decide(state).calls == 0).astype(np.float64)


def belief_trainer(meta: dict) -> str | None:
    """The policy whose self-play bidding a belief net was trained on (``nn:rl``), from its
    model config's ``info.policy``; for a belief trained on a mixture, the bidders' specs
    joined by commas (``nn:rl,sayc``); None when not recorded."""
    policy = (meta.get("info") or {}).get("policy")
    if not policy:
        return None
    names = [p.strip() for p in str(policy).split(",")]
    return ",".join(f"nn:{n}" if is_net_name(n) else n for n in names)


def _same_policy(a: str, b: str) -> bool:
    """Two ``nn:`` specs naming the same model file (``nn:rl`` and ``nn:/path/to/rl.safetensors``)."""
    from bidlab.agents.neural import resolve_model

    def path(spec: str):
        kind, _, arg = spec.partition(":")
        if kind.lower() != "nn":
            return None
        for suffix in (":greedy", ":sample"):
            arg = arg.removesuffix(suffix)
        try:
            return resolve_model(arg).resolve()
        except BidlabError:
            return None

    pa = path(a)
    return pa is not None and pa == path(b)


def load_reader(spec: str, belief: str = "belief", seed: int = 0, **sizes) -> MeaningReader:
    """The reader of ``spec``'s calls: its policy (a search bot's policy, see
    :func:`reading_spec`) and the belief net ``belief`` (a shipped name or a path)."""
    from bidlab.agents.neural import resolve_model
    from bidlab.agents.registry import make_agent
    from bidlab.nets import load_model

    name = reading_spec(spec)
    net, meta = load_model(resolve_model(belief))
    if net.cfg.kind != "belief":
        raise MeaningError(f"{belief} is a {net.cfg.kind} net, not a belief net")
    return MeaningReader(make_agent(name, seed), net, name, belief_trainer(meta), seed=seed, **sizes)


class MeaningReader:
    """Reads calls with one agent's policy and one belief net (see the module docstring)."""

    def __init__(self, agent, belief_net, spec: str, trained_on: str | None = None,
                 partner_hands: int = 256, keep: int = 32, hands_each: int = 32, seed: int = 0,
                 caller_weight: float = 1.0):
        self.agent, self.net, self.spec = agent, belief_net.eval(), spec
        self.trained_on = trained_on
        self.mixture = [] if trained_on is None or "," not in trained_on else trained_on.split(",")
        self.same_policy = trained_on is not None and not self.mixture and _same_policy(spec, trained_on)
        self.partner_hands, self.keep, self.hands_each, self.seed = partner_hands, keep, hands_each, seed
        self.caller_weight = caller_weight
        self.lock = threading.Lock()   # torch and the agents are shared: one reading at a time

    def belief_note(self) -> str:
        if self.trained_on is None:
            return "The belief net's training policy is not recorded"
        if self.same_policy:
            return ""
        if self.mixture:
            return (f"Read with a belief net trained on the auctions of several bidders ({', '.join(self.mixture)}): "
                    f"it reads each call as they mean it on average")
        return (f"Read with a belief net trained on {self.trained_on}'s bidding, not this agent's: "
                f"it reads the calls as {self.trained_on} means them")

    def meaning(self, auction: Auction, vulnerability: Vulnerability, index: int | None = None) -> CallMeaning:
        """The meaning of call ``index`` (default the last) of ``auction``."""
        calls = auction.calls
        if not calls:
            raise MeaningError("the auction has no call yet; give at least one call")
        k = len(calls) - 1 if index is None else index
        if not 0 <= k < len(calls):
            raise MeaningError(f"the auction has {len(calls)} calls; there is no call {k} (calls count from 0)")
        with self.lock:
            return self._meaning(auction, vulnerability, k)

    def _meaning(self, auction: Auction, vul: Vulnerability, k: int) -> CallMeaning:
        # The seed depends on the position only, so the same question gets the same answer.
        key = [self.seed, int(auction.dealer), int(vul), *(c.id for c in auction.calls[:k + 1])]
        rng = np.random.default_rng(key)
        caller = int(auction.seat_of(k))
        partner = (caller + 2) % 4
        ids = [c.id for c in auction.calls[:k + 1]]
        n = self.partner_hands
        deals = _deals_with_partner_hands(rng, n, partner)
        state = init(deals, int(auction.dealer), int(vul))
        weight = np.ones(n)
        for j, cid in enumerate(ids[:k]):
            if (int(auction.dealer) + j) % 4 == partner:
                weight *= call_likelihood(self.agent, state, np.full(n, cid))
            step_(state, np.full(n, cid, np.int64))
        before = state.copy()
        step_(state, np.full(n, ids[k], np.int64))
        after = auction.calls[:k + 1]
        next_passes = not Auction(auction.dealer, after).with_call(Call.parse("P")).is_over \
            if not Auction(auction.dealer, after).is_over else False
        pass_rate = None
        if next_passes:
            step_(state, np.zeros(n, np.int64))          # the next hand passes: partner to act
            if ids[k] >= 3 or ids[k] in (1, 2):         # a pass forces nothing
                shares = _pass(self.agent, state)
                pass_rate = float((weight * shares).sum() / max(weight.sum(), 1e-300))
        ess = float(weight.sum() ** 2 / max((weight ** 2).sum(), 1e-300))
        rows = _resample(rng, weight, self.keep)
        own = deals[rows] == partner
        hands_after = self._caller_hands(state, rows, own, partner, caller, rng)
        hands_before = self._caller_hands(before, rows, own, partner, caller, rng)
        fit = float(len(hands_after))
        if self.caller_weight > 0:
            hands_after, fit = self._filtered(hands_after, own, auction, vul, caller, k + 1, rng)
            hands_before, _ = self._filtered(hands_before, own, auction, vul, caller, k, rng)
        note = self.belief_note()
        if fit < FEW_FIT:
            note = (f"Only {fit:.0f} of the {len(hands_after)} hands drawn from the belief fit this agent's calls: "
                    f"a rough reading" + (f". {note}" if note else ""))
        return _statement(Call(ids[k]), caller, self.spec, hands_after, hands_before, pass_rate, ess, note, rng)

    def _filtered(self, hands: np.ndarray, own: np.ndarray, auction: Auction, vul: Vulnerability, caller: int,
                  upto: int, rng: np.random.Generator) -> tuple[np.ndarray, float]:
        """``hands`` resampled in proportion to the policy's likelihood of the caller's calls
        among the first ``upto`` (to the power :attr:`caller_weight`): BMCS's filter of
        particles by the searcher's own policy (Qiu Alg. 3), applied to the caller's hand; and
        the effective number of hands behind the result."""
        n = len(hands)
        partner = (caller + 2) % 4
        deals = np.empty((n, 52), np.uint8)
        owner_partner = np.repeat(own, n // len(own), axis=0)
        rest = ~(hands | owner_partner)
        deals[hands] = caller
        deals[owner_partner] = partner
        others = np.argsort(~rest, axis=1, kind="stable")[:, :26]   # the 26 other cards, dealt to the opponents
        deals[np.arange(n)[:, None], others] = np.where(np.arange(26) < 13, (caller + 1) % 4,
                                                         (caller + 3) % 4)[None, :].astype(np.uint8)
        state = init(deals, int(auction.dealer), int(vul))
        weight = np.ones(n)
        for j, c in enumerate(auction.calls[:upto]):
            if (int(auction.dealer) + j) % 4 == caller:
                weight *= call_likelihood(self.agent, state, np.full(n, c.id))
            step_(state, np.full(n, c.id, np.int64))
        w = weight ** self.caller_weight
        fit = float(w.sum() ** 2 / max((w ** 2).sum(), 1e-300))    # effective number of hands
        return hands[_resample(rng, w, n)], fit

    def _caller_hands(self, state, rows: np.ndarray, own: np.ndarray, partner: int, caller: int,
                      rng: np.random.Generator) -> np.ndarray:
        """``bool[keep * hands_each, 52]``: caller's hands drawn from partner's belief at ``rows``."""
        sub = state.take(rows)
        x = torch.from_numpy(observe(sub, seat=np.full(sub.n, partner)))
        with torch.inference_mode():
            b = belief_probabilities(self.net, x).cpu().numpy()
        out = []
        for t in range(sub.n):
            belief = belief_by_seat(b[t], partner)
            dealt, _ = DealSampler(belief, own[t], partner, rng).draw(self.hands_each)
            out.append(dealt == caller)
        return np.concatenate(out)


def _deals_with_partner_hands(rng: np.random.Generator, n: int, partner: int) -> np.ndarray:
    """``uint8[n, 52]`` deals with a uniformly random hand for ``partner``; the other 39 cards
    are dealt to the other seats in a fixed order (only partner's view is ever read)."""
    order = np.argsort(rng.random((n, 52)), axis=1)
    deals = np.empty((n, 52), np.uint8)
    seats = np.array([partner, (partner + 1) % 4, (partner + 2) % 4, (partner + 3) % 4], np.uint8)
    deals[np.arange(n)[:, None], order] = np.repeat(seats, 13)[None, :]
    return deals


def _resample(rng: np.random.Generator, weight: np.ndarray, k: int) -> np.ndarray:
    """``k`` rows drawn by systematic resampling in proportion to ``weight``."""
    w = weight / weight.sum() if weight.sum() > 0 else np.full(len(weight), 1.0 / len(weight))
    edges = np.cumsum(w)
    edges[-1] = 1.0
    return np.searchsorted(edges, (rng.random() + np.arange(k)) / k, side="right").clip(0, len(w) - 1)


def _statement(call: Call, caller: int, spec: str, after: np.ndarray, before: np.ndarray,
               pass_rate: float | None, ess: float, note: str, rng: np.random.Generator) -> CallMeaning:
    from bidlab.cards import Seat

    hcp = hcp_of(after)
    lo, hi = (int(v) for v in np.percentile(hcp, [5, 95], method="inverted_cdf"))
    hcp_p = float(((hcp >= lo) & (hcp <= hi)).mean())
    hb = hcp_of(before)
    before_range = tuple(int(v) for v in np.percentile(hb, [5, 95], method="inverted_cdf"))
    la, lb = lengths_of(after), lengths_of(before)
    suits = []
    for j, s in enumerate(SUITS_HIGH_FIRST):
        s_lo, s_hi, p = suit_statement(np.bincount(la[:, j], minlength=14))
        suits.append(SuitLength(s.symbol, s_lo, s_hi, p, float(la[:, j].mean()), float(lb[:, j].mean())))
    fits = (hcp >= lo) & (hcp <= hi)
    for j, s in enumerate(suits):
        fits &= (la[:, j] >= s.lo) & (la[:, j] <= s.hi)
    pool = np.flatnonzero(fits) if fits.any() else np.arange(len(after))
    picks = rng.choice(pool, size=min(3, len(pool)), replace=False)
    examples = tuple(Hand.from_mask(int((after[i].astype(np.int64) << np.arange(52)).sum())) for i in picks)
    return CallMeaning(call, Seat(caller).letter, spec, (lo, hi), hcp_p, before_range, tuple(suits), pass_rate,
                       examples, len(after), ess, note, after)


__all__ = ["CallMeaning", "MeaningError", "MeaningReader", "SuitLength", "belief_trainer", "load_reader", "call_likelihood",
           "reading_spec", "suit_statement"]
