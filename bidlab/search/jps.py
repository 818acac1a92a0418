"""Online Joint Policy Search for bridge bidding (Tian et al. 2020, Sec. 5.2 and Sec. 7.3, Table 3).

One search step, batched over many positions (the games that search at once). At each
position the acting player P1 and its partner P2 may change their policy jointly; the
opponent between them keeps the current policy sigma (search depth D = 3: P1, opponent, P2)::

    for each P1 call a1 with pi(a1) > threshold                     (candidates of P1)
        for j in 1..opponent_samples: o_j ~ sigma                   (paper: 5 "after P1")
            P2's infoset I2(a1, o_j): keep sigma, or play a2 with pi(a2) > threshold
            each branch: `rollouts` rollouts under sigma to the end    (paper: 5 "after P2")
            scored by double dummy, in IMPs of P1's side against a reference NS score

Every rollout of every position, candidate, opponent sample and branch is one call of
:func:`bidlab.envs.rollout.rollout` over rows built with ``take``/``repeat``/``step_`` (the
policy's forward passes are batched over all of them), plus one batch of ``rollouts x
opponent_samples`` rollouts from the position itself for ``v^sigma(h0)``.

Choices (the open points of ../shared/notes/jps-notes.md Sec. 4 "Ambiguities", item 4-5):

- **max over partner branches** (``partner="max"``, default). JPS scores a chain of policy
  changes; each level may also stop with "no change" (Alg. 1). So at every P2 infoset the
  value is ``max(v(keep sigma), max_a2 q(a2))`` and P1's candidate value is the mean of that
  over the opponent samples. The authors' "search" actor averages the partner branches
  instead (``partner="mean"``, kept for ablations): that scores a uniform mixture of P2's
  likely calls, which is not a joint policy change, and it can rank a P1 call that needs a
  specific partner answer below one that does not -- exactly what JPS is meant to fix. Max
  over noisy estimates is biased upwards (the winner's curse): the reported ``gain`` is an
  optimistic estimate, and the chosen pair is what training sees, not the gain.
- **5 x 5 as in the paper** (5 opponent samples, each P2 branch rolled out 5 times), not
  the code's 5 rollouts per P1 call with one rollout per partner branch: with one rollout a
  branch's value is a single sampled auction, and the max over branches would mostly pick
  noise. Both counts are settings; ``JPSSearchConfig.paper()`` is 5 x 5.
- **per-game dice** (Sec. 7.3: "a game thread works on one of the two modes decided by rolling
  a dice"; ``search_new`` in the code), not per move: a game chosen for search is searched at
  one uniformly drawn decision of it (:func:`jps_targets_for_batch`), so a search ratio is the
  fraction of games that contribute search targets.
- **search results enter training as supervised NLL targets** by default: the P1 call at P1's
  infoset and the P2 call at each P2 infoset where P2 deviates (:func:`training_targets`,
  ``mode="nll"``), as the NeurIPS version stores the best sequence with ``search=1``. Replacing
  ``a`` in a stored A2C transition (``mode="replace"``, the older search actor) is also
  provided, with the searched call's estimated return as the reward and its log-probability
  under the current policy as the behaviour log-prob (ratio 1 at the start): but with the
  trainer's small PPO-style clip a call the policy rarely plays moves only slowly, the
  partner's deviation sits at a state the played game never reached, and the return is a
  search estimate rather than the game's outcome. NLL moves the policy straight to the joint
  change and touches nothing else of the A2C update. In RL training (``bidlab train rl
  --jps RATIO``) :class:`RLSearchHook` runs this in the actor on each finished batch and
  :class:`bidlab.learn.a2c.SearchTraining` adds the NLL term (weight 0.1, each target used once).

Values are IMPs for P1's side against the reference NS score ``reference_ns`` (the other
table's result in self-play, Tian's duplicate reward); without one, the first rollout of the
policy from the position is the reference (the policy itself at the other table).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qsl

import numpy as np

from bidlab.agents.base import AgentBase
from bidlab.agents.neural import NeuralAgent
from bidlab.agents.registry import AgentSpecError, make_agent, register
from bidlab.bridge.calls import NUM_CALLS, Call
from bidlab.dd import solve_contracts
from bidlab.envs.rollout import Decision, Policy, TrickSolver, rollout, score
from bidlab.envs.scoring import imps_array
from bidlab.envs.state import AuctionState, concat, from_prefix, repeat, step_, with_hands
from bidlab.errors import BidlabError

PARTNER_MODES = ("max", "mean")
TARGET_MODES = ("nll", "replace")


class JPSSearchError(BidlabError, ValueError):
    """The joint search was asked something it cannot do (finished tables, no scores, bad settings)."""


@dataclass(frozen=True)
class JPSSearchConfig:
    """Settings of the one-step joint search (Sec. 7.3; module docstring for the choices)."""

    threshold: float = 0.05       # candidates: calls with pi > threshold (the policy's top call always)
    opponent_samples: int = 5     # opponent calls sampled after each P1 candidate ("5 after P1")
    rollouts: int = 5             # rollouts after each P2 branch ("5 after P2")
    partner: str = "max"          # "max": JPS, best P2 change per infoset; "mean": the code's average
    max_candidates: int = 6       # at most this many candidates per node (the most probable)
    sample_rollouts: bool = True  # sigma samples its calls in rollouts; False: the policy's own calls

    def __post_init__(self) -> None:
        if not 0.0 <= self.threshold < 1.0:
            raise JPSSearchError(f"threshold must be in [0, 1), got {self.threshold}")
        if self.opponent_samples < 1 or self.rollouts < 1 or self.max_candidates < 1:
            raise JPSSearchError("opponent_samples, rollouts and max_candidates must be at least 1, got "
                                 f"{self.opponent_samples}, {self.rollouts}, {self.max_candidates}")
        if self.partner not in PARTNER_MODES:
            raise JPSSearchError(f"partner must be one of {', '.join(PARTNER_MODES)}, got {self.partner!r}")

    @classmethod
    def paper(cls) -> JPSSearchConfig:
        """Sec. 7.3: threshold 0.05 (the authors' code), 5 x 5 rollouts, sampled sigma."""
        return cls()

    @classmethod
    def cpu(cls) -> JPSSearchConfig:
        return cls.paper()  # the search is cheap next to self-play at 1-10% of games

    @classmethod
    def test_time(cls, threshold: float = 0.05) -> JPSSearchConfig:
        """For the ``jps:`` agent over a greedy policy: rollouts are deterministic given the
        deal, so one opponent sample and one rollout per branch say everything; the averaging
        is over the sampled deals instead."""
        return cls(threshold=threshold, opponent_samples=1, rollouts=1, sample_rollouts=False)


# -- policy helpers ---------------------------------------------------------------------------


def call_probabilities(policy: Policy, state: AuctionState) -> np.ndarray:
    """sigma at every row, ``float32[n, 38]``: the policy's probabilities when it has them
    (a net's legal-masked softmax), else a one-hot of its call (a rule bidder)."""
    probs = getattr(policy, "probabilities", None)
    if callable(probs):
        return np.asarray(probs(state), np.float32)
    d = policy.decide(state)
    if d.probs is not None:
        return np.asarray(d.probs, np.float32)
    out = np.zeros((state.n, NUM_CALLS), np.float32)
    out[np.arange(state.n), np.asarray(d.calls, np.int64)] = 1.0
    return out


def sample_calls(probs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One call per row drawn from ``probs`` (rows need not be normalised): ``int64[n]``."""
    c = np.cumsum(probs, axis=1, dtype=np.float64)
    u = rng.random(len(c)) * c[:, -1]
    # the first column whose cumulative mass exceeds u has positive probability
    return np.minimum((c <= u[:, None]).sum(axis=1), NUM_CALLS - 1).astype(np.int64)


class SampledPolicy:
    """sigma as a sampler: draws each call from the policy's probabilities with ``rng``."""

    def __init__(self, policy: Policy, rng: np.random.Generator):
        self.policy = policy
        self.rng = rng
        self.name = f"sampled({getattr(policy, 'name', 'policy')})"

    def decide(self, state: AuctionState, explain: bool = False) -> Decision:
        p = call_probabilities(self.policy, state)
        return Decision(sample_calls(p, self.rng), p)


def candidate_mask(probs: np.ndarray, legal: np.ndarray, threshold: float, max_candidates: int) -> np.ndarray:
    """``bool[n, 38]``: the legal calls with pi > threshold, the most probable always among
    them, at most ``max_candidates`` per row (the most probable ones)."""
    n = len(probs)
    p = np.where(legal, probs, -1.0)
    rank = np.argsort(-p, axis=1, kind="stable")
    keep = np.zeros_like(legal)
    top = rank[:, :max_candidates]
    rows = np.arange(n)[:, None]
    keep[rows, top] = p[rows, top] > threshold
    keep[np.arange(n), rank[:, 0]] = legal[np.arange(n), rank[:, 0]]
    return keep


def _first_per_group(group: np.ndarray, *keys_desc: np.ndarray) -> np.ndarray:
    """Index of the best element of every group (``group`` sorted or not): highest first key,
    ties broken by the next keys (all descending). Returns indices in group order."""
    order = np.lexsort(tuple(-k for k in reversed(keys_desc)) + (group,))
    g = group[order]
    head = np.ones(len(g), bool)
    head[1:] = g[1:] != g[:-1]
    return order[head]


# -- the search -------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class JointSearchResult:
    """Outcome of :func:`joint_search` over ``n`` positions. Values are IMPs for P1's side.

    P1's candidates are flattened (``cand_*``, grouped by position ``cand_pos``); P2's
    infosets under the chosen P1 call are ``p2_*`` rows ``i * opponent_samples + j``.
    """

    state: AuctionState          # the positions searched (P1 to act)
    cand_pos: np.ndarray         # int64[k]: position of each P1 candidate
    cand_call: np.ndarray        # int64[k]: the candidate call
    cand_prob: np.ndarray        # float32[k]: pi(call) at P1's infoset
    one_value: np.ndarray        # float64[k]: P1 plays the call, partner keeps sigma (1-search)
    joint_value: np.ndarray      # float64[k]: P1 plays the call, P2 best change per infoset (JPS)
    policy_value: np.ndarray     # float64[n]: v^sigma(h0), sigma everywhere
    best_call: np.ndarray        # int64[n]: P1's call of the best joint change
    best_value: np.ndarray       # float64[n]
    one_call: np.ndarray         # int64[n]: the best call of 1-search (partner on policy)
    one_best_value: np.ndarray   # float64[n]
    opponent_samples: int
    p2_state: AuctionState       # [n * opponent_samples]: after best_call and o_j (P2 to act, or over)
    p2_call: np.ndarray          # int64[n * opponent_samples]: P2's change there, -1 = keep sigma
    p2_value: np.ndarray         # float64[n * opponent_samples]: value of that choice
    p2_keep_value: np.ndarray    # float64[n * opponent_samples]: value of keeping sigma there
    rollouts: int                # rollouts played in all

    @property
    def n(self) -> int:
        return self.state.n

    @property
    def gain(self) -> np.ndarray:
        """Estimated gain of the joint change over the policy's own value, IMPs."""
        return self.best_value - self.policy_value

    @property
    def one_gain(self) -> np.ndarray:
        return self.one_best_value - self.policy_value

    @property
    def partner_call(self) -> np.ndarray:
        """``int64[n]``: the P2 change chosen at most of the opponent samples (-1: none)."""
        k = self.opponent_samples
        calls = self.p2_call.reshape(self.n, k)
        pos = np.repeat(np.arange(self.n), k)
        ok = calls.ravel() >= 0
        counts = np.bincount(pos[ok] * NUM_CALLS + calls.ravel()[ok], minlength=self.n * NUM_CALLS)
        counts = counts.reshape(self.n, NUM_CALLS)
        return np.where(counts.max(axis=1) > 0, counts.argmax(axis=1), -1).astype(np.int64)

    def table(self, i: int) -> list[dict]:
        """Position ``i``'s candidates: call, pi, 1-search value, joint value (for reports)."""
        rows = np.flatnonzero(self.cand_pos == i)
        return [{"call": str(Call(int(self.cand_call[r]))), "pi": float(self.cand_prob[r]),
                 "one": float(self.one_value[r]), "joint": float(self.joint_value[r])} for r in rows]


def joint_search(state: AuctionState, policy: Policy, *, reference_ns=None, dd: np.ndarray | None = None,
                 solve: TrickSolver | None = None, config: JPSSearchConfig | None = None,
                 rng: np.random.Generator | int | None = None, joint: bool = True) -> JointSearchResult:
    """One-step joint policy search at every row of ``state`` (P1 = the player to act).

    ``policy``: sigma for every seat (P1's and P2's candidates, the opponent, the rollouts).
    ``dd``: the true deals' DD tables ``uint8[n, 4, 5]``, or ``solve`` a trick solver (e.g. a
    :class:`DDCache`). ``reference_ns``: ``int[n]`` the NS score to compare with (the other
    table's), default the first rollout of sigma from each position. ``joint=False``: only
    1-search (P2 keeps sigma), skipping the partner's branches.
    """
    cfg = config or JPSSearchConfig.paper()
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    n = state.n
    if n == 0:
        raise JPSSearchError("joint_search needs at least one position")
    if state.done.any():
        raise JPSSearchError(f"position {int(np.flatnonzero(state.done)[0])} is a finished auction; search "
                             "needs a player to act")
    if dd is None and solve is None:
        raise JPSSearchError("joint_search needs the deals' DD tables (dd=) or a trick solver (solve=)")
    if dd is not None:
        dd = np.asarray(dd)
        if dd.shape != (n, 4, 5):
            raise JPSSearchError(f"dd must have shape ({n}, 4, 5), got {dd.shape}")
    if reference_ns is not None:
        reference_ns = np.asarray(reference_ns, np.int64)
        if reference_ns.shape != (n,):
            raise JPSSearchError(f"reference_ns must have shape ({n},), got {reference_ns.shape}")
    ro, r = cfg.opponent_samples, cfg.rollouts
    sigma = SampledPolicy(policy, rng) if cfg.sample_rollouts else policy
    seats = np.zeros(4, np.int64)

    # level 1: P1's candidates
    p1 = call_probabilities(policy, state)
    pos1, a1 = np.nonzero(candidate_mask(p1, state.legal, cfg.threshold, cfg.max_candidates))
    s1 = state.take(pos1)
    step_(s1, a1)
    # level 2: the opponent's call under sigma, opponent_samples times per candidate
    s2 = repeat(s1, ro)
    parent2 = np.repeat(np.arange(len(pos1)), ro)
    rollout(s2, [sigma], seats, inplace=True, max_rounds=1)
    # level 3: P2 keeps sigma (every row of s2) or deviates to a likely call (live rows)
    r2 = np.zeros(0, np.int64)
    a2 = np.zeros(0, np.int64)
    p2 = np.zeros((len(s2), NUM_CALLS), np.float32)
    live = np.flatnonzero(~s2.done)
    if joint and live.size:
        sub = s2.take(live)
        p2[live] = call_probabilities(policy, sub)
        m2 = np.zeros((len(s2), NUM_CALLS), bool)
        m2[live] = candidate_mask(p2[live], sub.legal, cfg.threshold, cfg.max_candidates)
        r2, a2 = np.nonzero(m2)
    dev = s2.take(r2)
    step_(dev, a2)
    # every rollout at once: v(h0) x (ro * r), then every P2 branch x r
    base = ro * r
    leaves = concat([repeat(state, base), repeat(concat([s2, dev]), r)])
    pos_branch = np.concatenate([pos1[parent2], pos1[parent2[r2]]])
    pos_leaf = np.concatenate([np.repeat(np.arange(n), base), np.repeat(pos_branch, r)])
    end = rollout(leaves, [sigma], seats, inplace=True)
    ns = score(end, dd=None if dd is None else dd[pos_leaf], solve=None if dd is not None else solve).ns_score
    ns = ns.astype(np.int64)
    ref = ns[np.arange(n) * base] if reference_ns is None else reference_ns
    sign = np.where(state.to_act % 2 == 0, 1, -1).astype(np.int64)
    value = imps_array(sign[pos_leaf] * (ns - ref[pos_leaf])).astype(np.float64)
    policy_value = value[: n * base].reshape(n, base).mean(axis=1)
    branch = value[n * base:].reshape(-1, r).mean(axis=1)
    keep, q = branch[: len(s2)], branch[len(s2):]

    # P2: best change per infoset (or the mean of its likely calls, the code's variant)
    p2_best = keep.copy()
    p2_call = np.full(len(s2), -1, np.int64)
    if r2.size:
        first = _first_per_group(r2, q, p2[r2, a2])
        rows, better = r2[first], q[first] > keep[r2[first]]
        if cfg.partner == "max":
            p2_best[rows[better]] = q[first][better]
            p2_call[rows[better]] = a2[first][better]
        else:
            sums = np.bincount(r2, q, minlength=len(s2))
            cnt = np.bincount(r2, minlength=len(s2))
            has = cnt > 0
            p2_best[has] = sums[has] / cnt[has]
    k1 = len(pos1)
    one_value = np.bincount(parent2, keep, minlength=k1) / ro
    joint_value = np.bincount(parent2, p2_best, minlength=k1) / ro
    prob1 = p1[pos1, a1]
    best_k = _first_per_group(pos1, joint_value, prob1)
    one_k = _first_per_group(pos1, one_value, prob1)
    chosen = (best_k[:, None] * ro + np.arange(ro)).ravel()
    return JointSearchResult(
        state=state, cand_pos=pos1.astype(np.int64), cand_call=a1.astype(np.int64), cand_prob=prob1,
        one_value=one_value, joint_value=joint_value, policy_value=policy_value,
        best_call=a1[best_k].astype(np.int64), best_value=joint_value[best_k],
        one_call=a1[one_k].astype(np.int64), one_best_value=one_value[one_k],
        opponent_samples=ro, p2_state=s2.take(chosen),
        p2_call=p2_call[chosen] if cfg.partner == "max" else np.full(len(chosen), -1, np.int64),
        p2_value=p2_best[chosen], p2_keep_value=keep[chosen], rollouts=leaves.n,
    )


# -- training targets -------------------------------------------------------------------------


def _rows_of(state: AuctionState, rows: np.ndarray) -> dict[str, np.ndarray]:
    """The replay columns that describe the player to act at ``rows`` (RL's REPLAY_COLUMNS)."""
    sub = state.take(rows)
    return {
        "obs": sub.bits[np.arange(sub.n), sub.to_act].copy(),
        "deal": sub.deals.copy(),
        "seat": sub.to_act.astype(np.int8),
        "code": sub.code.astype(np.int32),
    }


def training_targets(result: JointSearchResult, mode: str = "nll", *, min_gain: float = 0.0,
                     policy: Policy | None = None) -> dict[str, np.ndarray]:
    """Turn search results into training rows for the RL learner (module docstring: choice).

    Only positions whose joint change is estimated to gain more than ``min_gain`` IMPs give
    rows. Each position gives P1's row (its infoset, the searched call) and, for every
    opponent sample where P2 changes, P2's row (P2's infoset there, P2's call).

    ``mode="nll"``: columns ``obs`` (packed 480 of the player to act), ``deal``, ``seat``,
    ``code``, ``call``, ``role`` (1 P1, 2 P2), ``gain`` (IMPs): train ``-log pi(call)`` on them.
    ``mode="replace"``: the same plus ``reward`` (the searched line's estimated value / 24,
    the RL reward's unit) and ``logp`` (log pi(call) under ``policy``, needed, so the
    importance ratio starts at 1): stored transitions whose ``a`` is the searched call.
    """
    if mode not in TARGET_MODES:
        raise JPSSearchError(f"target mode must be one of {', '.join(TARGET_MODES)}, got {mode!r}")
    if mode == "replace" and policy is None:
        raise JPSSearchError("mode='replace' needs the policy, for the searched calls' log-probabilities")
    good = np.flatnonzero(result.gain > min_gain)
    ro = result.opponent_samples
    p2_rows = (good[:, None] * ro + np.arange(ro)).ravel()
    p2_rows = p2_rows[result.p2_call[p2_rows] >= 0]
    cols1 = _rows_of(result.state, good)
    cols2 = _rows_of(result.p2_state, p2_rows)
    out = {k: np.concatenate([cols1[k], cols2[k]]) for k in cols1}
    out["call"] = np.concatenate([result.best_call[good], result.p2_call[p2_rows]]).astype(np.int16)
    out["role"] = np.concatenate([np.full(len(good), 1), np.full(len(p2_rows), 2)]).astype(np.int8)
    p2_gain = result.p2_value[p2_rows] - result.p2_keep_value[p2_rows]
    out["gain"] = np.concatenate([result.gain[good], p2_gain]).astype(np.float32)
    if mode == "replace":
        out["reward"] = (np.concatenate([result.best_value[good], result.p2_value[p2_rows]]) / 24.0).astype(np.float32)
        states = concat([result.state.take(good), result.p2_state.take(p2_rows)])
        p = call_probabilities(policy, states) if states.n else np.zeros((0, NUM_CALLS), np.float32)
        out["logp"] = np.log(np.maximum(p[np.arange(states.n), out["call"].astype(np.int64)], 1e-12)).astype(np.float32)
    return out


def searched_positions(end: AuctionState, ratio: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Per-game dice: the finished tables of ``end`` chosen with probability ``ratio`` and, for
    each, a decision drawn uniformly among its calls. Returns ``(rows, lengths)``: search
    the auction of table ``rows[i]`` after its first ``lengths[i]`` calls."""
    if not 0.0 <= ratio <= 1.0:
        raise JPSSearchError(f"search ratio must be in [0, 1], got {ratio}")
    if not end.done.all():
        raise JPSSearchError("searched_positions needs finished auctions")
    rows = np.flatnonzero(rng.random(end.n) < ratio)
    lengths = (rng.random(len(rows)) * end.length[rows]).astype(np.int64)
    return rows, lengths


def prefix_state(end: AuctionState, rows: np.ndarray, lengths: np.ndarray) -> AuctionState:
    """The tables ``rows`` of a finished rollout rewound to their first ``lengths`` calls
    (replayed through the env's ``step_``, so the packed observations are exact)."""
    h = end.history[rows].astype(np.int64)
    h[np.arange(h.shape[1])[None, :] >= lengths[:, None]] = -1
    width = max(int(lengths.max(initial=0)), 1)
    return from_prefix(end.deals[rows], end.dealer[rows], end.vulnerability[rows], h[:, :width])


def jps_targets_for_batch(end: AuctionState, dd: np.ndarray, policy: Policy, *, ratio: float,
                          rng: np.random.Generator, config: JPSSearchConfig | None = None,
                          mode: str = "nll", joint: bool = True, min_gain: float = 0.0) -> dict[str, np.ndarray]:
    """Search targets for one finished self-play batch of duplicate board pairs (the RL hook).

    ``end``: the actor's final state, ``2n`` rows (board ``b`` at rows ``b`` and ``n + b``, the
    layout of :func:`bidlab.envs.rollout.duplicate` and the A2C actor). ``dd``: the boards'
    DD tables, ``uint8[n, 4, 5]`` (or ``[2n, 4, 5]``, one per row). ``policy``: sigma, the
    actor's current policy (it must give probabilities). ``ratio``: the fraction of games
    searched (per-game dice, Table 3: 1%, 5%, 10%). Each chosen game is searched at one
    uniformly drawn decision on its true deal, against the other table's NS score as played.
    ``joint=False`` gives 1-search (P1 only) targets, the Table 3 ablation.
    Returns :func:`training_targets` columns (empty arrays when no game was chosen or none
    gained), plus ``searched`` (the number of positions searched) and ``rollouts``.
    """
    if end.n % 2:
        raise JPSSearchError(f"a duplicate batch has an even number of tables, got {end.n}")
    n = end.n // 2
    dd = np.asarray(dd)
    if dd.shape == (n, 4, 5):
        dd = np.concatenate([dd, dd])
    if dd.shape != (end.n, 4, 5):
        raise JPSSearchError(f"dd must have shape ({n}, 4, 5) or ({end.n}, 4, 5), got {dd.shape}")
    rows, lengths = searched_positions(end, ratio, rng)
    if rows.size == 0:
        return _empty_targets(mode)
    table_ns = score(end, dd=dd).ns_score.astype(np.int64)
    other = (rows + n) % (2 * n)
    start = prefix_state(end, rows, lengths)
    result = joint_search(start, policy, reference_ns=table_ns[other], dd=dd[rows], config=config, rng=rng,
                          joint=joint)
    out = training_targets(result, mode, min_gain=min_gain, policy=policy)
    out["searched"] = np.array(len(rows))
    out["rollouts"] = np.array(result.rollouts)
    return out


class RLSearchHook:
    """The search hook of ``bidlab train rl --jps RATIO`` (:class:`bidlab.learn.a2c.SearchTraining`):
    called by the self-play actor on each finished batch with its current policy net, it
    returns :func:`jps_targets_for_batch` NLL targets of JPS (``joint=True``) or of 1-search
    (P1 only). A plain class, so Ray can ship it to its actor processes."""

    def __init__(self, ratio: float, *, joint: bool = True, config: JPSSearchConfig | None = None,
                 min_gain: float = 0.0):
        if not 0.0 < ratio <= 1.0:
            raise JPSSearchError(f"the search ratio (fraction of games searched) must be in (0, 1], got {ratio}")
        self.ratio = float(ratio)
        self.joint = bool(joint)
        self.config = config or JPSSearchConfig.cpu()
        self.min_gain = float(min_gain)

    def settings(self) -> dict:
        """What the search is (the run records it and a resume must match it)."""
        c = self.config
        return {"search": "jps" if self.joint else "1-search", "ratio": self.ratio, "threshold": c.threshold,
                "opponent_samples": c.opponent_samples, "rollouts": c.rollouts, "partner": c.partner,
                "max_candidates": c.max_candidates, "min_gain": self.min_gain}

    def __call__(self, end: AuctionState, dd: np.ndarray, net, rng: np.random.Generator) -> dict[str, np.ndarray]:
        sigma = NeuralAgent(net, mode="sample")  # only its probabilities are used: SampledPolicy draws with rng
        return jps_targets_for_batch(end, dd, sigma, ratio=self.ratio, rng=rng, config=self.config, mode="nll",
                                     joint=self.joint, min_gain=self.min_gain)


def _empty_targets(mode: str) -> dict[str, np.ndarray]:
    out = {"obs": np.zeros((0, 60), np.uint8), "deal": np.zeros((0, 52), np.uint8), "seat": np.zeros(0, np.int8),
           "code": np.zeros(0, np.int32), "call": np.zeros(0, np.int16), "role": np.zeros(0, np.int8),
           "gain": np.zeros(0, np.float32), "searched": np.array(0), "rollouts": np.array(0)}
    if mode == "replace":
        out["reward"] = np.zeros(0, np.float32)
        out["logp"] = np.zeros(0, np.float32)
    return out


# -- test time: the jps: agent ----------------------------------------------------------------

HiddenHandSampler = Callable[[AuctionState, int, np.random.Generator], np.ndarray]
"""``sampler(state, k, rng) -> uint8[n * k, 52]``: ``k`` deals per row (rows ``t*k .. t*k+k-1``)
that keep the hand of the player to act; a belief sampler (BMCS) has this signature."""


def uniform_hidden_hands(state: AuctionState, k: int, rng: np.random.Generator) -> np.ndarray:
    """``k`` deals per row with the acting player's hand kept and the other 39 cards dealt
    uniformly at random, 13 to each other seat (no belief: what the player knows for sure)."""
    m = state.n * k
    deals = np.repeat(state.deals, k, axis=0)
    me = np.repeat(state.to_act.astype(np.int64), k)
    own = deals == me[:, None]
    keys = rng.random((m, 52))
    keys[own] = 2.0  # own cards sort last
    order = np.argsort(keys, axis=1)[:, :39]
    others = (me[:, None] + 1 + np.arange(39)[None, :] // 13) % 4
    out = deals.copy()
    np.put_along_axis(out, order, others.astype(np.uint8), axis=1)
    return out


class DDCache:
    """A trick solver (:data:`~bidlab.envs.rollout.TrickSolver`) that solves each (deal,
    declarer, strain) once with single-contract DDS and remembers it: search rollouts on
    the same sampled deal reach a few contracts many times (DESIGN.md, performance notes)."""

    def __init__(self, solver: TrickSolver | None = None, max_entries: int = 1_000_000):
        self._solve = solver or solve_contracts
        self._cache: dict[bytes, int] = {}
        self.max_entries = max_entries
        self.solved = 0
        self.lookups = 0

    def __call__(self, deals: np.ndarray, declarer: np.ndarray, strain: np.ndarray) -> np.ndarray:
        m = len(deals)
        keys = np.empty((m, 54), np.uint8)
        keys[:, :52] = deals
        keys[:, 52] = declarer
        keys[:, 53] = strain
        void = np.ascontiguousarray(keys).view(np.dtype((np.void, 54))).ravel()
        uniq, first, inverse = np.unique(void, return_index=True, return_inverse=True)
        tricks = np.empty(len(uniq), np.int16)
        missing = []
        for i, u in enumerate(uniq):
            t = self._cache.get(u.tobytes())
            if t is None:
                missing.append(i)
            else:
                tricks[i] = t
        self.lookups += m
        if missing:
            rows = first[np.asarray(missing)]
            solved = np.asarray(self._solve(keys[rows, :52], keys[rows, 52], keys[rows, 53]))
            tricks[missing] = solved
            self.solved += len(missing)
            if len(self._cache) + len(missing) > self.max_entries:
                self._cache.clear()
            for i, t in zip(missing, solved):
                self._cache[uniq[i].tobytes()] = int(t)
        return tricks[inverse.ravel()].astype(np.int8)


class JPSAgent(AgentBase):
    """Test-time joint policy search (the issue's ``jps:MODEL``): at each decision, ``samples``
    deals consistent with the bidder's hand are drawn (``sampler``, uniform by default), the
    one-step joint search of :func:`joint_search` runs on all of them at once (all rows the
    agent is asked about, times the samples, in one batch), and the call with the best mean
    joint value over the samples is played; on ties the policy's own call.

    Each sampled deal is scored against the policy's own rollout on it (the "other table" is
    sigma), with DD tricks from ``solve`` (a :class:`DDCache` over single-contract DDS).
    ``joint=False`` is the 1-search agent (P1 only), for comparison.
    """

    def __init__(self, policy: Policy, *, samples: int = 20, config: JPSSearchConfig | None = None,
                 sampler: HiddenHandSampler | None = None, solve: TrickSolver | None = None, seed: int = 0,
                 joint: bool = True):
        if samples < 1:
            raise JPSSearchError(f"samples must be at least 1, got {samples}")
        self.policy = policy
        self.samples = samples
        self.config = config or JPSSearchConfig.test_time()
        self.sampler = sampler or uniform_hidden_hands
        self.solve = solve or DDCache()
        self.rng = np.random.default_rng(seed)
        self.joint = joint
        self.name = "jps"
        self.last: JointSearchResult | None = None

    def search_values(self, state: AuctionState) -> tuple[np.ndarray, np.ndarray, JointSearchResult]:
        """``(mean value float64[n, 38] (-inf: not a candidate), policy value float64[n], result)``
        of every row's candidates over the sampled deals."""
        n, k = state.n, self.samples
        deals = np.asarray(self.sampler(state, k, self.rng), np.uint8)
        if deals.shape != (n * k, 52):
            raise JPSSearchError(f"the hand sampler returned {deals.shape}, expected ({n * k}, 52)")
        particles = with_hands(repeat(state, k), deals)
        res = joint_search(particles, self.policy, solve=self.solve, config=self.config, rng=self.rng,
                           joint=self.joint)
        value = res.joint_value if self.joint else res.one_value
        key = (res.cand_pos // k) * NUM_CALLS + res.cand_call
        sums = np.bincount(key, value, minlength=n * NUM_CALLS)
        cnt = np.bincount(key, minlength=n * NUM_CALLS)
        mean = np.where(cnt > 0, sums / np.maximum(cnt, 1), -np.inf).reshape(n, NUM_CALLS)
        return mean, res.policy_value.reshape(n, k).mean(axis=1), res

    def decide(self, state: AuctionState, explain: bool = False) -> Decision:
        n = state.n
        if n == 0:
            return Decision(np.zeros(0, np.int64), None, [] if explain else None)
        p = call_probabilities(self.policy, state)
        own = p.argmax(axis=1)
        calls = own.astype(np.int64)
        # P1's call is the only output: where sigma has a single candidate there is nothing to
        # choose, whatever the partner might change later, so those rows skip the search
        c = self.config
        open_ = np.flatnonzero(candidate_mask(p, state.legal, c.threshold, c.max_candidates).sum(axis=1) > 1)
        mean = np.full((n, NUM_CALLS), -np.inf)
        mean[np.arange(n), own] = 0.0
        v0 = np.zeros(n)
        if open_.size:
            m, v, res = self.search_values(state.take(open_))
            self.last = res
            mean[open_], v0[open_] = m, v
            best = m.argmax(axis=1)
            keep = m[np.arange(len(open_)), own[open_]] >= m[np.arange(len(open_)), best]
            calls[open_] = np.where(keep, own[open_], best)
        reasons = None
        if explain:
            reasons = []
            for t in range(n):
                if t not in set(open_.tolist()):
                    reasons.append(f"{Call(int(calls[t]))}: the policy's only call above pi = {c.threshold}; no search")
                    continue
                cand = np.flatnonzero(np.isfinite(mean[t]))
                cand = cand[np.argsort(-mean[t, cand])]
                parts = ", ".join(f"{Call(int(c))} {mean[t, c]:+.2f}" for c in cand)
                reasons.append(f"{Call(int(calls[t]))}: joint search over {self.samples} sampled deals "
                               f"(IMPs vs the policy's own line, which scores {v0[t]:+.2f}): {parts}")
        return Decision(calls, None, reasons)


def _spec_options(arg: str) -> tuple[str, dict[str, str]]:
    model, _, query = arg.partition("?")
    try:
        opts = dict(parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query)))
    except ValueError:
        raise AgentSpecError(f"jps options must look like ?samples=20&thr=0.05, got {query!r}") from None
    return model, opts


def _number(opts: dict[str, str], key: str, kind, default):
    if key not in opts:
        return default
    try:
        return kind(opts.pop(key))
    except ValueError:
        raise AgentSpecError(f"jps option {key} must be a{'n integer' if kind is int else ' number'}") from None


def make_jps_agent(arg: str, seed: int) -> JPSAgent:
    """Factory of ``jps:MODEL[?samples=20&thr=0.05&opp=1&rollouts=1&partner=max&sample=0&joint=1]``
    (MODEL as for ``nn:``; the rollouts use it greedily unless ``sample=1``)."""
    model, opts = _spec_options(arg)
    if not model:
        raise AgentSpecError("jps needs a model, e.g. jps:sl?samples=20&thr=0.05")
    samples = _number(opts, "samples", int, 20)
    thr = _number(opts, "thr", float, 0.05)
    opp = _number(opts, "opp", int, 1)
    rollouts = _number(opts, "rollouts", int, 1)
    sample = _number(opts, "sample", int, 0)
    joint = _number(opts, "joint", int, 1)
    partner = opts.pop("partner", "max")
    if opts:
        raise AgentSpecError(f"unknown jps option(s) {', '.join(sorted(opts))}; known: samples, thr, opp, "
                             "rollouts, partner, sample, joint")
    try:
        cfg = JPSSearchConfig(threshold=thr, opponent_samples=opp, rollouts=rollouts, partner=partner,
                              sample_rollouts=bool(sample))
    except JPSSearchError as e:
        raise AgentSpecError(f"jps: {e}") from None
    if samples < 1:
        raise AgentSpecError(f"jps option samples must be at least 1, got {samples}")
    base = make_agent(f"nn:{model}:{'sample' if sample else 'greedy'}", seed)
    return JPSAgent(base, samples=samples, config=cfg, seed=seed, joint=bool(joint))


register("jps", "joint policy search at decision time over a neural policy: jps:MODEL?samples=20&thr=0.05",
         make_jps_agent)
