"""Belief Monte Carlo Search (Qiu et al. 2024 Sec. V, App. D Algs. 3-4) and its uniform
ablation RL-MCS, as policies over table rows.

One decision (:func:`search`), for the player to act at one table:

1. **Candidates**: the policy's top-``k`` legal calls with probability > ``pmin``. With one
   candidate or none, the greedy call, no search.
2. **Particles**: deals consistent with the searcher's hand, drawn from the belief net's
   prediction (:mod:`bidlab.search.sampler`; uniform for MCS), in batches. Each is
   **filtered** by replaying the real auction on it and keeping it with probability
   ``prod pi(a'|h')`` over the earlier calls of the *other three* seats (one uniform draw
   against the product: the same survival law as one draw per call). The searcher's own
   calls are skipped, as in the authors' code: the searcher's observation at its own turns
   is the same on every particle (its hand and the auction are real), so that factor is one
   constant and would only throw particles away at random. Sampling stops at ``rmax``
   survivors or ``pmax`` drawn; fewer than ``rmin`` survivors -> the greedy call. It also
   stops as soon as ``rmin`` is out of reach (futility: the survivors so far plus the
   remaining draws at a generous upper bound of the survival rate seen stay below ``rmin``).
3. **Rollouts** (Alg. 4): for each candidate, the candidate then greedy calls of the same
   policy at all four seats to the end, through :func:`bidlab.envs.rollout.rollout` on the
   particles' states (the real auction with sampled hands), all candidates in one batch.
   **Every candidate sees the same particles**, and contract values are cached per particle
   (:mod:`bidlab.search.ddcache`), so candidates reaching the same contract share a solve.
4. **Successive elimination** (``halving``): particles are used in stages (``rmin``, then
   doubling up to ``rmax``); after each stage a candidate whose paired mean difference to the
   leader is below 0 by more than ``z`` standard errors is dropped, and the search stops early
   once one candidate is left. Particles are drawn lazily, a stage at a time (the same
   sequence an up-front draw of ``rmax`` would give), so an early stop also saves the
   sampling and filtering, the most expensive part (measured: 30-50% less CPU per decision,
   same decisions).
5. **Score**: ``imps`` (default): each particle's result in IMPs against the policy's own
   first choice on the same particle (a paired, bounded score); ``points``: raw duplicate
   points from the searcher's side, summed, as the authors' code does. We default to IMPs
   because matches are scored in IMPs: raw points let one rare slam swing outweigh many
   part-score decisions, and the IMP scale bounds each particle's influence, which also
   makes the elimination test's standard errors meaningful.
   The chosen call is the best mean score among the surviving candidates.
6. **piKL** (optional, issue 29; Jacob et al. 2022): with an anchor policy (``anchor=sl``)
   and ``anchor_weight`` λ > 0, the anchor's own first choice joins the candidates and the
   search picks the call maximising ``mean − λ · KL(δ_call ‖ π_anchor) = mean + λ · log
   π_anchor(call)`` (λ in IMPs per nat), in the elimination test too. A search over a strong
   policy then leaves the anchor's system (SAYC for ``nn:sl``) only where the rollouts say it
   pays by more than λ times the surprise of the call to a partner who bids that system.
"""

from __future__ import annotations

import time
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

import numpy as np
import torch

from bidlab.bridge.calls import Call
from bidlab.envs.rollout import rollout
from bidlab.envs.scoring import imps_array
from bidlab.envs.state import AuctionState, concat, contracts, from_prefix, observe, repeat, step_, with_hands
from bidlab.errors import BidlabError
from bidlab.learn.belief import probabilities as belief_probabilities
from bidlab.nets.device import module_device
from bidlab.search.ddcache import ContractValues
from bidlab.search.sampler import DealSampler, belief_by_seat, uniform_by_seat

PHASES = ("sampling", "filter", "rollouts", "dd")
ANCHOR_FLOOR = 1e-6   # least anchor probability of a call in the piKL term (as bidlab.learn.anchor)   # the parts of a decision's time (SearchResult.timing)


class SearchError(BidlabError, ValueError):
    """Search settings are out of range."""


@dataclass(frozen=True)
class SearchConfig:
    """BMCS settings. :meth:`paper` is the authors' setting against WBridge5 (notes §4);
    the defaults are the fast setting (about 1 s a decision on two busy cores)."""

    k: int = 3
    pmin: float = 0.05
    rmin: int = 40
    rmax: int = 240
    pmax: int = 4000
    batch: int = 1000
    belief: bool = True        # False: uniform sampling (RL-MCS)
    score: str = "imps"        # or "points"
    dd: str = "net"            # or "exact"
    halving: bool = True
    z: float = 2.0
    max_prob: float = 1.0      # top call at least this probable: no search
    calibrate: int = 1         # sampler's fixed-point steps (bidlab.search.sampler)
    anchor_weight: float = 0.0  # piKL's lambda, IMPs per nat of -log anchor(call) (needs an anchor policy)

    @classmethod
    def paper(cls, **kw) -> SearchConfig:
        return cls(**{"k": 4, "pmin": 0.01, "rmin": 100, "rmax": 1500, "pmax": 100_000, **kw})

    def check(self) -> SearchConfig:
        if self.k < 1 or not 0 <= self.pmin < 1 or self.rmin < 1 or self.rmax < self.rmin or self.pmax < self.rmax:
            raise SearchError(f"search options need k >= 1, 0 <= pmin < 1, 1 <= rmin <= rmax <= pmax; got k={self.k}, "
                              f"pmin={self.pmin:g}, rmin={self.rmin}, rmax={self.rmax}, pmax={self.pmax}")
        if not self.anchor_weight >= 0:
            raise SearchError(f"anchor_weight must be >= 0, got {self.anchor_weight:g}")
        if self.score not in ("imps", "points") or self.dd not in ("net", "exact"):
            raise SearchError(f"score must be imps or points and dd net or exact, got {self.score!r}, {self.dd!r}")
        return self


@dataclass
class Candidate:
    call: int
    prob: float
    rollouts: int = 0
    mean: float = 0.0
    se: float = 0.0
    alive: bool = True
    contracts: dict = field(default_factory=dict)   # contract text -> count

    def as_dict(self) -> dict:
        return {"call": str(Call(self.call)), "prob": self.prob, "rollouts": self.rollouts, "mean": self.mean,
                "se": self.se, "alive": self.alive, "contracts": dict(self.contracts)}


@dataclass
class SearchResult:
    """What one decision did (for ``explain``, the web app and the latency benchmark)."""

    call: int
    greedy: int
    searched: bool
    reason: str
    candidates: list[Candidate]
    sampled: int = 0
    kept: int = 0
    belief: np.ndarray | None = None        # float32[4, 52] by absolute seat (searcher's row = its hand)
    seat: int = 0
    score: str = "imps"
    timing: dict = field(default_factory=dict)
    solves: int = 0

    def as_dict(self) -> dict:
        return {"call": str(Call(self.call)), "greedy": str(Call(self.greedy)), "searched": self.searched,
                "reason": self.reason, "candidates": [c.as_dict() for c in self.candidates],
                "sampled": self.sampled, "kept": self.kept, "solves": self.solves, "seat": self.seat, "score": self.score,
                "belief": None if self.belief is None else np.round(self.belief, 4).tolist(),
                "timing": {k: round(v, 4) for k, v in self.timing.items()}}

    def summary(self) -> str:
        if not self.searched:
            return f"{Call(self.call)}: {self.reason}"
        unit = "IMPs vs the policy's first choice" if self.score == "imps" else "points"
        parts = "; ".join(f"{Call(c.call)} p={c.prob:.2f} {c.rollouts} rollouts {c.mean:+.2f}"
                          f"{'' if c.alive else ' (dropped)'}" for c in self.candidates)
        return (f"{Call(self.call)}: search over {self.kept} of {self.sampled} sampled deals kept; "
                f"mean {unit}: {parts}")


def net_beliefs(net, state: AuctionState) -> np.ndarray:
    """``float32[n, 4, 52]``: the belief net's belief of the player to act at every row of
    ``state``, by absolute seat (:func:`~bidlab.search.sampler.belief_by_seat`), with that
    player's own row holding its hand. Shared by BMCS and the ``jps:`` agent's sampler."""
    with torch.inference_mode():
        x = torch.from_numpy(observe(state)).to(module_device(net))
        b = belief_probabilities(net, x).cpu().numpy()
    out = np.empty((state.n, 4, 52), np.float32)
    for t in range(state.n):
        seat = int(state.to_act[t])
        out[t] = belief_by_seat(b[t], seat)
        out[t, seat] = state.deals[t] == seat
    return out


class Searcher:
    """BMCS (or MCS) over a neural policy; ``policy`` needs ``probabilities(state)`` and
    ``decide(state)`` (a greedy :class:`~bidlab.agents.neural.NeuralAgent`)."""

    def __init__(self, policy, cfg: SearchConfig, belief_net=None, trick_net=None, seed: int = 0, anchor=None,
                 opponents=None):
        self.policy = policy
        # who bids the opponents' seats in the rollouts (issue 44: a punisher, so that the search
        # sees the danger of being doubled); None: the searcher's own policy, as in Qiu et al.
        self.opponents = opponents
        self.cfg = cfg.check()
        if cfg.anchor_weight > 0 and anchor is None:
            raise SearchError("anchor_weight needs an anchor policy (e.g. anchor=sl)")
        self.anchor = anchor if cfg.anchor_weight > 0 else None   # piKL: needs probabilities(state)
        if cfg.belief and belief_net is None:
            raise SearchError("BMCS needs a belief net (or set belief=False for MCS)")
        if cfg.dd == "net" and trick_net is None:
            raise SearchError("dd=net needs a trick estimator (or set dd=exact)")
        self.belief_net = belief_net
        self.trick_net = trick_net if cfg.dd == "net" else None
        self.seed = int(seed)
        self.rng = np.random.default_rng(seed)

    # -- the pieces -------------------------------------------------------------------------

    def belief(self, root: AuctionState) -> np.ndarray:
        """``float32[4, 52]``: the belief of the player to act at table 0 of ``root``
        (its own row holds its hand)."""
        if self.cfg.belief:
            return net_beliefs(self.belief_net, root.take([0]))[0]
        seat = int(root.to_act[0])
        own = root.deals[0] == seat
        out = uniform_by_seat(own, seat)
        out[seat] = own
        return out

    def particles(self, root: AuctionState, belief: np.ndarray, timing: dict) -> tuple[AuctionState, int]:
        """Sample and filter until ``rmax`` survive or ``pmax`` are drawn: (the survivors'
        states at the real auction, trimmed to ``rmax``; number drawn)."""
        pool = _ParticlePool(self.particle_batches(root, belief, timing), self.cfg.rmax)
        n = pool.fill(self.cfg.rmax)
        return (pool.slice(0, n) if n else root.take(np.zeros(0, np.intp))), pool.drawn

    def particle_batches(self, root: AuctionState, belief: np.ndarray, timing: dict):
        """The sampling loop as a generator: yields (one batch's survivors, number drawn so
        far) until ``rmax`` have survived or ``pmax`` are drawn (or ``rmin`` is out of reach).
        :meth:`search` pulls batches only while its stages need particles."""
        cfg = self.cfg
        seat = int(root.to_act[0])
        own = root.deals[0] == seat
        history = root.history[0, :root.length[0]].astype(np.int64)
        dealer, vul = int(root.dealer[0]), int(root.vulnerability[0])
        n_kept = drawn = 0
        accept = 1.0
        with _timed(timing, "sampling"):
            sampler = DealSampler(belief, own, seat, self.rng, calibrate=cfg.calibrate if cfg.belief else 0,
                                  pilot=cfg.batch)
        # the other seats' calls, and the real auction just before each (one row; the particles'
        # states there are these rows with the sampled hands, built only for the live particles)
        judged = [i for i in range(len(history)) if (dealer + i) % 4 != seat]
        before = {i: from_prefix(root.deals[:1], dealer, vul, history[:i]) for i in judged}
        order: list[int] | None = None
        while n_kept < cfg.rmax and drawn < cfg.pmax:
            # size the batch by the acceptance rate seen so far (one batch when it is high)
            want = (cfg.rmax - n_kept) / max(accept, 1e-3) * 1.2
            b = int(min(max(want, 64), cfg.batch, cfg.pmax - drawn))
            with _timed(timing, "sampling"):
                deals, ok = sampler.draw(b)
            t0, c0 = time.perf_counter(), time.process_time()
            drawn += b
            deals = deals[ok]
            if order is None:
                order = self._filter_order(judged, before, history, deals[:64])
            # keep a particle with probability prod pi(call) over the other seats' calls: draw
            # its uniform first and drop it as soon as the running product falls below it. The
            # product does not depend on the order of its factors, so the calls are judged
            # most selective first (measured once on a pilot): most particles die after one
            # forward. The survivors are the same as in auction order.
            u = self.rng.random(len(deals))
            live = np.arange(len(deals))
            survive = np.ones(len(deals))
            for i in order:
                if not live.size:
                    break
                st = with_hands(before[i].take(np.zeros(live.size, np.intp)), deals[live])
                survive = survive * self.policy.probabilities(st)[:, history[i]]
                keep = survive >= u[live]
                live, survive = live[keep], survive[keep]
            state = with_hands(root.take(np.zeros(live.size, np.intp)), deals[live])
            timing["filter"] = timing.get("filter", 0.0) + time.perf_counter() - t0
            timing["cpu_filter"] = timing.get("cpu_filter", 0.0) + time.process_time() - c0
            accept = (n_kept + state.n) / drawn
            n_kept += state.n
            yield state, drawn
            # futility stop: even at a generous upper bound of the survival rate seen so far
            # (about 2 SE above, Poisson), the draws left cannot reach r_min, so the decision
            # is the greedy fallback anyway; stop paying for the filter
            upper = (n_kept + 2.0 * np.sqrt(n_kept + 1.0) + 2.0) / drawn
            if n_kept < cfg.rmin and n_kept + upper * (cfg.pmax - drawn) < cfg.rmin:
                break

    def _filter_order(self, judged: list[int], before: dict, history: np.ndarray, pilot: np.ndarray) -> list[int]:
        """The calls to judge, by increasing mean probability on ``pilot`` deals (the order of
        the filter's factors that drops particles soonest; no random numbers used)."""
        if len(judged) <= 1 or not len(pilot):
            return list(judged)
        mean = [float(self.policy.probabilities(with_hands(before[i].take(np.zeros(len(pilot), np.intp)), pilot))
                      [:, history[i]].mean()) for i in judged]
        return [judged[j] for j in np.argsort(mean, kind="stable")]

    def _rollouts(self, parts: AuctionState, calls: list[int], seat: int = 0) -> AuctionState:
        """Each call in ``calls`` applied to every particle, then greedy to the end (``seat``:
        the searcher's, whose opponents bid with :attr:`opponents` when one is given)."""
        st = repeat(parts, len(calls)).take(
            np.arange(parts.n * len(calls)).reshape(parts.n, len(calls)).T.reshape(-1))
        step_(st, np.repeat(np.asarray(calls, np.int64), parts.n))
        live = ~st.done
        if live.any():
            if self.opponents is None:
                policies, seats = [self.policy], np.zeros(4, np.int64)
            else:   # the searcher's side bids with the policy, the other side with ``opponents``
                policies, seats = [self.policy, self.opponents], (np.arange(4) + seat) % 2
            sub = rollout(st.take(np.flatnonzero(live)), policies, seats, inplace=True)
            st.put(np.flatnonzero(live), sub)
        return st

    # -- one decision -----------------------------------------------------------------------

    def search(self, root: AuctionState) -> SearchResult:
        """Search the position of table 0 of ``root`` (the searcher is the player to act)."""
        cfg = self.cfg
        timing = {k: 0.0 for k in PHASES + ("total",)} | {f"cpu_{k}": 0.0 for k in PHASES + ("total",)}
        t_start, c_start = time.perf_counter(), time.process_time()
        root = root.take([0])
        seat = int(root.to_act[0])
        # the random stream is a function of the seed and of what the searcher sees, so the
        # same position always gets the same search (a "why?" asked later reproduces the call)
        self.rng = np.random.default_rng([self.seed, _position_key(root, seat)])
        p = self.policy.probabilities(root)[0]
        greedy = int(p.argmax())
        order = [int(c) for c in np.argsort(-p, kind="stable")[:cfg.k] if p[c] > cfg.pmin]
        bonus = np.zeros(38)   # piKL: lambda * log anchor(call), 0 without an anchor
        if self.anchor is not None:
            q = self.anchor.probabilities(root)[0]
            bonus = cfg.anchor_weight * np.log(np.maximum(q, ANCHOR_FLOOR))
            if int(q.argmax()) not in order:
                order.append(int(q.argmax()))   # the anchor's own choice is always a candidate
        cands = [Candidate(c, float(p[c])) for c in order]
        belief = self.belief(root)    # one forward; shown by explain even when there is no search
        if len(cands) <= 1 or p[greedy] >= cfg.max_prob:
            return SearchResult(greedy, greedy, False, f"policy's call ({p[greedy]:.0%}); no other candidate "
                                f"above p_min {cfg.pmin}", cands, belief=belief, seat=seat, score=cfg.score,
                                timing=dict(timing, total=time.perf_counter() - t_start,
                                            cpu_total=time.process_time() - c_start))
        # particles are drawn lazily, stage by stage: once elimination leaves one candidate no
        # more are sampled. The particle sequence is the one an up-front draw would give (one
        # random stream, pulled in the same batches), so the decision is the same, only cheaper.
        pool = _ParticlePool(self.particle_batches(root, belief, timing), cfg.rmax)
        have = pool.fill(cfg.rmin)
        res = SearchResult(greedy, greedy, False, "", cands, pool.drawn, have, belief, seat, cfg.score, timing)
        if have < cfg.rmin:
            res.reason = (f"policy's call: only {have} of {pool.drawn} sampled deals fit the auction "
                          f"(fewer than r_min {cfg.rmin})")
            timing["total"] = time.perf_counter() - t_start
            timing["cpu_total"] = time.process_time() - c_start
            return res
        sign = 1.0 if seat % 2 == 0 else -1.0
        raw = np.full((len(cands), cfg.rmax), np.nan)     # searcher-side points per particle
        done, end, solves = 0, cfg.rmin, 0
        while True:
            alive = [i for i, c in enumerate(cands) if c.alive]
            rolled = sorted(set(alive) | {0})             # the reference (first choice) always
            chunk = pool.slice(done, end)
            # each particle is scored in one stage only, so a cache per stage shares all it can
            values = ContractValues(chunk.deals, int(root.vulnerability[0]), self.trick_net)
            with _timed(timing, "rollouts"):
                st = self._rollouts(chunk, [cands[i].call for i in rolled], seat)
            c = contracts(st)
            particle = np.tile(np.arange(end - done), len(rolled))
            with _timed(timing, "dd"):
                pts = sign * values.points(particle, c).reshape(len(rolled), end - done)
            solves += values.solves
            for j, i in enumerate(rolled):
                raw[i, done:end] = pts[j]
                if i in alive or i == 0:
                    _count_contracts(cands[i], st, slice(j * (end - done), (j + 1) * (end - done)))
            done = end
            scores = self._scores(raw[:, :done])
            for i in alive:
                cands[i].rollouts = done
            for i, cd in enumerate(cands):
                if cd.rollouts:
                    s = scores[i, :cd.rollouts]
                    cd.mean = float(s.mean())
                    cd.se = float(s.std(ddof=1) / np.sqrt(len(s))) if len(s) > 1 else 0.0
            if done >= cfg.rmax:
                break
            if cfg.halving:
                # (eliminating after the last stage changes no decision: the leader always stays)
                lead = max(alive, key=lambda i: cands[i].mean + bonus[cands[i].call])
                for i in alive:
                    if i == lead:
                        continue
                    d = scores[i, :done] - scores[lead, :done] + (bonus[cands[i].call] - bonus[cands[lead].call])
                    se = d.std(ddof=1) / np.sqrt(done)
                    if d.mean() + cfg.z * se < 0:
                        cands[i].alive = False
                if sum(c.alive for c in cands) == 1:
                    break
            end = pool.fill(min(done * 2, cfg.rmax) if cfg.halving else cfg.rmax)
            if end <= done:                                # sampling ended: no particles left
                break
        res.sampled, res.kept = pool.drawn, done
        best = max((c for c in cands if c.alive), key=lambda c: c.mean + bonus[c.call])
        res.call, res.searched = best.call, True
        res.reason = "best mean score" if self.anchor is None else \
            f"best mean score + {cfg.anchor_weight:g} x log anchor probability (piKL)"
        timing["total"] = time.perf_counter() - t_start
        timing["cpu_total"] = time.process_time() - c_start
        res.solves = solves
        return res

    def _scores(self, raw: np.ndarray) -> np.ndarray:
        if self.cfg.score == "points":
            return raw
        ref = raw[0]
        out = np.full_like(raw, np.nan)
        ok = ~np.isnan(raw)
        diff = np.where(ok, raw - ref[None, :], 0.0)
        # expected scores from the estimator are fractional: round to whole points for the IMP scale
        out[ok] = imps_array(np.rint(diff[ok]).astype(np.int64))
        return out


class _ParticlePool:
    """The survivors of :meth:`Searcher.particle_batches`, in order, pulled on demand."""

    def __init__(self, batches, rmax: int):
        self.batches, self.rmax = batches, rmax
        self.parts: list[AuctionState] = []
        self.n = self.drawn = 0
        self.exhausted = False
        self._all: AuctionState | None = None

    def fill(self, n: int) -> int:
        """Pull batches until ``n`` (at most ``rmax``) survivors are in hand or sampling has
        ended; returns how many are available (at most ``n`` and ``rmax``)."""
        want = min(n, self.rmax)
        while self.n < want and not self.exhausted:
            try:
                state, self.drawn = next(self.batches)
            except StopIteration:
                self.exhausted = True
                break
            if state.n:
                self.parts.append(state)
                self.n += state.n
                self._all = None
        return min(self.n, want)

    def slice(self, start: int, stop: int) -> AuctionState:
        if self._all is None:
            self._all = concat(self.parts) if self.parts else None
        if self._all is None:
            raise SearchError("no particles drawn")
        return self._all.take(np.arange(start, stop))


@contextmanager
def _timed(timing: dict, phase: str):
    """Add the wall seconds (``timing[phase]``) and this process's CPU seconds
    (``timing["cpu_" + phase]``) of the block: wall time depends on the machine's load."""
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        yield
    finally:
        timing[phase] = timing.get(phase, 0.0) + time.perf_counter() - t0
        timing["cpu_" + phase] = timing.get("cpu_" + phase, 0.0) + time.process_time() - c0


def _count_contracts(cand: Candidate, st: AuctionState, rows: slice) -> None:
    c = contracts(st.take(np.arange(st.n)[rows]))
    texts = np.where(c.level > 0, [f"{lv}{'CDHSN'[s]}{'' if d == 0 else 'X' * d}{'NESW'[de]}"
                                   for lv, s, d, de in zip(c.level, c.strain, c.doubled, c.declarer)], "P")
    u, n = np.unique(texts, return_counts=True)
    for t, k in zip(u.tolist(), n.tolist()):
        cand.contracts[t] = cand.contracts.get(t, 0) + k


def parse_options(text: str, base: SearchConfig) -> SearchConfig:
    """``k=4&rmax=1500&pmin=0.01&rmin=100&dd=exact&score=points&halving=0&preset=paper``."""
    if not text:
        return base
    kv = {}
    for part in text.split("&"):
        key, eq, val = part.partition("=")
        if not eq or not key:
            raise SearchError(f"search option {part!r} is not key=value")
        kv[key.strip().lower()] = val.strip()
    if kv.pop("preset", "fast") == "paper":
        base = SearchConfig.paper(belief=base.belief)
    types = {"k": int, "rmin": int, "rmax": int, "pmax": int, "batch": int, "pmin": float, "z": float,
             "max_prob": float, "calibrate": int, "anchor_weight": float, "score": str, "dd": str, "halving": lambda v: v not in ("0", "false", "no")}
    out = {}
    for key, val in kv.items():
        if key not in types:
            raise SearchError(f"unknown search option {key!r}; known: preset, {', '.join(sorted(types))}")
        try:
            out[key] = types[key](val)
        except ValueError:
            raise SearchError(f"search option {key}={val!r} is not a valid {types[key].__name__}") from None
    return replace(base, **out).check()


def _position_key(root: AuctionState, seat: int) -> int:
    """A stable 32-bit key of what the player to act at table 0 sees: its hand, the dealer,
    the vulnerability and the calls."""
    seen = np.concatenate([(root.deals[0] == seat).astype(np.int8),
                           [root.dealer[0], root.vulnerability[0]], root.history[0, :root.length[0]]])
    return zlib.crc32(seen.astype(np.int8).tobytes())
