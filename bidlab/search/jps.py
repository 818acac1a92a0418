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
- **rollouts: greedy in training by default, 5 x 5 sampled as a setting.** The paper samples
  5 opponent calls after P1 and 5 rollouts after P2 (``JPSSearchConfig.paper()``; the code
  has 5 rollouts per P1 call and one per partner branch). ``bidlab train rl --jps`` uses
  ``JPSSearchConfig.greedy()``: one opponent call and one rollout per branch, all by the
  greedy policy, the way the trained policy bids in matches. On the true deal a greedy
  continuation is deterministic, so every candidate's value is exact on that deal: no
  estimation noise, and the max over P2's branches is a real best response on the deal, not
  the winner's curse of a max over 5-sample means (which made most of the first version's
  targets noise). The averaging over hidden hands that the 5 x 5 sampling was doing comes
  from self-play itself: each searched infoset is reached on many deals over training.
- **per-game dice** (Sec. 7.3: "a game thread works on one of the two modes decided by rolling
  a dice"; ``search_new`` in the code), not per move: a game chosen for search is searched at
  one uniformly drawn decision of it (:func:`jps_targets_for_batch`), so a search ratio is the
  fraction of games that contribute search targets. The decision is drawn among those where
  sigma has two or more candidates (``informative=True``, the training default): a forced pass
  has nothing to search.
- **search results enter training as a policy-gradient term over all candidates** by
  default (:func:`training_targets`, ``mode="pg"``, and
  :func:`bidlab.learn.a2c.search_policy_gradient`): at P1's infoset every candidate with its
  joint value (P2 best-responding), and at P2's infosets under P1's chosen call every P2
  candidate with its value; the learner ascends ``sum_a pi_C(a) q(a)``. This is the gradient
  of the searched infoset's expected value, so over the deals that reach an infoset it moves
  towards the call with the best *mean* value; NLL of each deal's best call (the NeurIPS
  version's ``search=1`` sequences, ``mode="nll"``) moves towards the call that is *most often*
  best, and with full knowledge of the deal that is a different call wherever one call wins
  a little on most deals and loses a lot on the rest. Replacing ``a`` in a stored A2C
  transition (``mode="replace"``, the older search actor) is also provided, with the searched
  call's estimated return as the reward and its log-probability under the current policy as
  the behaviour log-prob (ratio 1 at the start): but with the trainer's small PPO-style clip a
  call the policy rarely plays moves only slowly, the partner's deviation sits at a state the
  played game never reached, and the return is a search estimate rather than the game's
  outcome. In RL training (``bidlab train rl --jps RATIO``) :class:`RLSearchHook` runs this in
  the actor on each finished batch and :class:`bidlab.learn.a2c.SearchTraining` adds the term
  (weight 1, up to 128 searched infosets per update, each used once).

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
from bidlab.learn.belief import load_belief
from bidlab.nets import ModelFileError
from bidlab.search.bmcs import net_beliefs
from bidlab.search.sampler import DealSampler

PARTNER_MODES = ("max", "mean")
TARGET_MODES = ("pg", "nll", "replace")


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
    def greedy(cls, threshold: float = 0.05) -> JPSSearchConfig:
        """Rollouts by the greedy policy, the way the trained policy bids in matches: every
        continuation is deterministic given the deal, so one opponent call and one rollout per
        branch give each candidate's exact value on the deal (no estimation noise, no winner's
        curse in the max over P2's branches). The default of ``bidlab train rl --jps``."""
        return cls(threshold=threshold, opponent_samples=1, rollouts=1, sample_rollouts=False)

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
    p2_cand_row: np.ndarray      # int64[m]: P2's candidates at the p2_* rows (index into p2_state)
    p2_cand_call: np.ndarray     # int64[m]: the candidate call
    p2_cand_value: np.ndarray    # float64[m]: its value (P2 plays it, sigma after)
    p2_cand_prob: np.ndarray     # float32[m]: pi(call) at P2's infoset

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
    # P2's candidates at the infosets of the chosen P1 calls (the policy-gradient targets)
    where = np.full(len(s2), -1, np.int64)
    where[chosen] = np.arange(len(chosen))
    at = where[r2] >= 0
    return JointSearchResult(
        state=state, cand_pos=pos1.astype(np.int64), cand_call=a1.astype(np.int64), cand_prob=prob1,
        one_value=one_value, joint_value=joint_value, policy_value=policy_value,
        best_call=a1[best_k].astype(np.int64), best_value=joint_value[best_k],
        one_call=a1[one_k].astype(np.int64), one_best_value=one_value[one_k],
        opponent_samples=ro, p2_state=s2.take(chosen),
        p2_call=p2_call[chosen] if cfg.partner == "max" else np.full(len(chosen), -1, np.int64),
        p2_value=p2_best[chosen], p2_keep_value=keep[chosen], rollouts=leaves.n,
        p2_cand_row=where[r2[at]], p2_cand_call=a2[at].astype(np.int64), p2_cand_value=q[at],
        p2_cand_prob=p2[r2[at], a2[at]],
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


def _value_rows(state: AuctionState, row: np.ndarray, call: np.ndarray, value: np.ndarray,
                probs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Candidates ``(row, call, value)`` grouped into ``cand bool[m, 38]`` and ``q float32[m, 38]``
    (IMPs, 0 off the candidates) at the rows of ``state`` whose candidates' values differ (where
    all are equal the policy gradient is zero). Returns ``(rows, cand, q, gain)``: ``gain`` is
    the best value minus the policy-weighted mean over the candidates (IMPs)."""
    cand = np.zeros((state.n, NUM_CALLS), bool)
    q = np.zeros((state.n, NUM_CALLS), np.float64)
    cand[row, call] = True
    q[row, call] = value
    hi = np.where(cand, q, -np.inf).max(axis=1)
    lo = np.where(cand, q, np.inf).min(axis=1)
    rows = np.flatnonzero(hi > lo)
    w = np.where(cand[rows], probs[rows], 0.0)
    w /= np.maximum(w.sum(axis=1, keepdims=True), 1e-12)
    gain = hi[rows] - (w * q[rows]).sum(axis=1)
    return rows, cand[rows], q[rows].astype(np.float32), gain.astype(np.float32)


def training_targets(result: JointSearchResult, mode: str = "pg", *, min_gain: float = 0.0,
                     policy: Policy | None = None) -> dict[str, np.ndarray]:
    """Turn search results into training rows for the RL learner (module docstring: choice).

    ``mode="pg"`` (the default): every searched infoset whose candidates' values differ gives
    one row with all its candidates and their values: P1's row (values: the joint values, P2
    best-responding; with ``joint=False`` the search's joint value is the 1-search value) and
    P2's rows at its infosets under P1's chosen call (values: P2 plays the candidate, sigma
    after). Columns ``obs`` (packed 480 of the player to act), ``deal``, ``seat``, ``code``,
    ``cand`` (``bool[38]``), ``q`` (``float32[38]``, IMPs), ``call`` (the best candidate),
    ``role`` (1 P1, 2 P2), ``gain`` (best minus the policy's mean over the candidates, IMPs).
    The learner ascends ``sum_a pi_C(a) q(a)`` (:func:`bidlab.learn.a2c.search_policy_gradient`).
    ``min_gain`` is not used: an infoset where the policy is already best still holds it there.

    Only positions whose joint change is estimated to gain more than ``min_gain`` IMPs give
    rows in the other modes. Each position gives P1's row (its infoset, the searched call)
    and, for every opponent sample where P2 changes, P2's row (P2's infoset there, P2's call).

    ``mode="nll"``: columns ``obs``, ``deal``, ``seat``, ``code``, ``call``, ``role`` and
    ``gain`` (IMPs), plus ``cand``/``q`` as the one-hot of the call and zeros: train
    ``-log pi(call)`` on them.
    ``mode="replace"``: the NLL columns plus ``reward`` (the searched line's estimated value / 24,
    the RL reward's unit) and ``logp`` (log pi(call) under ``policy``, needed, so the
    importance ratio starts at 1): stored transitions whose ``a`` is the searched call.
    """
    if mode not in TARGET_MODES:
        raise JPSSearchError(f"target mode must be one of {', '.join(TARGET_MODES)}, got {mode!r}")
    if mode == "replace" and policy is None:
        raise JPSSearchError("mode='replace' needs the policy, for the searched calls' log-probabilities")
    if mode == "pg":
        p1_probs = np.zeros((result.n, NUM_CALLS), np.float32)
        p1_probs[result.cand_pos, result.cand_call] = result.cand_prob
        rows1, cand1, q1, gain1 = _value_rows(result.state, result.cand_pos, result.cand_call,
                                              result.joint_value, p1_probs)
        p2 = result.p2_state
        p2_probs = np.zeros((p2.n, NUM_CALLS), np.float32)
        p2_probs[result.p2_cand_row, result.p2_cand_call] = result.p2_cand_prob
        rows2, cand2, q2, gain2 = _value_rows(p2, result.p2_cand_row, result.p2_cand_call,
                                              result.p2_cand_value, p2_probs)
        cols1, cols2 = _rows_of(result.state, rows1), _rows_of(p2, rows2)
        out = {k: np.concatenate([cols1[k], cols2[k]]) for k in cols1}
        out["cand"] = np.concatenate([cand1, cand2])
        out["q"] = np.concatenate([q1, q2])
        out["call"] = np.where(out["cand"], out["q"], -np.inf).argmax(axis=1).astype(np.int16)
        out["role"] = np.concatenate([np.full(len(rows1), 1), np.full(len(rows2), 2)]).astype(np.int8)
        out["gain"] = np.concatenate([gain1, gain2])
        return out
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
    out["cand"] = np.zeros((len(out["call"]), NUM_CALLS), bool)
    out["cand"][np.arange(len(out["call"])), out["call"].astype(np.int64)] = True
    out["q"] = np.zeros((len(out["call"]), NUM_CALLS), np.float32)
    if mode == "replace":
        out["reward"] = (np.concatenate([result.best_value[good], result.p2_value[p2_rows]]) / 24.0).astype(np.float32)
        states = concat([result.state.take(good), result.p2_state.take(p2_rows)])
        p = call_probabilities(policy, states) if states.n else np.zeros((0, NUM_CALLS), np.float32)
        out["logp"] = np.log(np.maximum(p[np.arange(states.n), out["call"].astype(np.int64)], 1e-12)).astype(np.float32)
    return out


def searched_positions(end: AuctionState, ratio: float, rng: np.random.Generator, *,
                       policy: Policy | None = None, config: JPSSearchConfig | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per-game dice: the finished tables of ``end`` chosen with probability ``ratio`` and, for
    each, a decision drawn uniformly among its calls. Returns ``(rows, lengths)``: search
    the auction of table ``rows[i]`` after its first ``lengths[i]`` calls.

    With ``policy`` the decision is drawn uniformly among those where sigma has two or more
    candidates (``config``'s threshold): about half of a self-play auction's calls are passes
    the policy makes with pi > 0.95, where the search has nothing to compare (one candidate)
    and would spend its rollouts on the policy's own line. Tables with no such decision are
    not searched."""
    if not 0.0 <= ratio <= 1.0:
        raise JPSSearchError(f"search ratio must be in [0, 1], got {ratio}")
    if not end.done.all():
        raise JPSSearchError("searched_positions needs finished auctions")
    rows = np.flatnonzero(rng.random(end.n) < ratio)
    if policy is None or rows.size == 0:
        lengths = (rng.random(len(rows)) * end.length[rows]).astype(np.int64)
        return rows, lengths
    cfg = config or JPSSearchConfig.paper()
    # every decision of the chosen tables, with how many candidates sigma has there
    n_calls = end.length[rows].astype(np.int64)
    table = np.repeat(np.arange(len(rows)), n_calls)
    at = np.arange(len(table)) - np.repeat(np.cumsum(n_calls) - n_calls, n_calls)
    prefixes = prefix_state(end, rows[table], at)
    n_cand = candidate_mask(call_probabilities(policy, prefixes), prefixes.legal, cfg.threshold,
                            cfg.max_candidates).sum(axis=1)
    open_ = n_cand >= 2
    # one open decision per table, uniformly: the open decision with the smallest random key
    key = np.where(open_, rng.random(len(table)), np.inf)
    first = _first_per_group(table, -key)
    first = first[np.isfinite(key[first])]
    return rows[table[first]], at[first]


def prefix_state(end: AuctionState, rows: np.ndarray, lengths: np.ndarray) -> AuctionState:
    """The tables ``rows`` of a finished rollout rewound to their first ``lengths`` calls
    (replayed through the env's ``step_``, so the packed observations are exact)."""
    h = end.history[rows].astype(np.int64)
    h[np.arange(h.shape[1])[None, :] >= lengths[:, None]] = -1
    width = max(int(lengths.max(initial=0)), 1)
    return from_prefix(end.deals[rows], end.dealer[rows], end.vulnerability[rows], h[:, :width])


def jps_targets_for_batch(end: AuctionState, dd: np.ndarray, policy: Policy, *, ratio: float,
                          rng: np.random.Generator, config: JPSSearchConfig | None = None,
                          mode: str = "pg", joint: bool = True, min_gain: float = 0.0,
                          informative: bool = True) -> dict[str, np.ndarray]:
    """Search targets for one finished self-play batch of duplicate board pairs (the RL hook).

    ``end``: the actor's final state, ``2n`` rows (board ``b`` at rows ``b`` and ``n + b``, the
    layout of :func:`bidlab.envs.rollout.duplicate` and the A2C actor). ``dd``: the boards'
    DD tables, ``uint8[n, 4, 5]`` (or ``[2n, 4, 5]``, one per row). ``policy``: sigma, the
    actor's current policy (it must give probabilities). ``ratio``: the fraction of games
    searched (per-game dice, Table 3: 1%, 5%, 10%). Each chosen game is searched at one
    uniformly drawn decision on its true deal, against the other table's NS score as played.
    ``joint=False`` gives 1-search (P1 only) targets, the Table 3 ablation. ``informative``:
    draw the searched decision among those where sigma has two or more candidates
    (:func:`searched_positions`).
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
    rows, lengths = searched_positions(end, ratio, rng, policy=policy if informative else None, config=config)
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
    returns :func:`jps_targets_for_batch` targets of JPS (``joint=True``) or of 1-search (P1
    only). A plain class, so Ray can ship it to its actor processes.

    Defaults (``loss="pg"``, ``JPSSearchConfig.greedy()``, ``informative=True``): the searched
    decision is one where sigma hesitates, every candidate is rolled out by the greedy policy
    on the true deal, and all candidates' values go to the learner's policy-gradient term.
    ``loss="nll"`` with ``JPSSearchConfig.paper()`` and ``informative=False`` is the first
    version (5 x 5 sampled rollouts, the best call as an NLL target; Table 3's older rows)."""

    def __init__(self, ratio: float, *, joint: bool = True, config: JPSSearchConfig | None = None,
                 min_gain: float = 0.0, loss: str = "pg", informative: bool = True):
        if not 0.0 < ratio <= 1.0:
            raise JPSSearchError(f"the search ratio (fraction of games searched) must be in (0, 1], got {ratio}")
        if loss not in ("pg", "nll"):
            raise JPSSearchError(f"the search loss must be pg or nll, got {loss!r}")
        self.ratio = float(ratio)
        self.joint = bool(joint)
        self.loss = loss
        self.informative = bool(informative)
        self.config = config or (JPSSearchConfig.greedy() if loss == "pg" else JPSSearchConfig.paper())
        self.min_gain = float(min_gain)

    def settings(self) -> dict:
        """What the search is (the run records it and a resume must match it)."""
        c = self.config
        return {"search": "jps" if self.joint else "1-search", "ratio": self.ratio, "threshold": c.threshold,
                "opponent_samples": c.opponent_samples, "rollouts": c.rollouts, "partner": c.partner,
                "max_candidates": c.max_candidates, "sample_rollouts": c.sample_rollouts, "min_gain": self.min_gain,
                "loss": self.loss, "informative": self.informative}

    def __call__(self, end: AuctionState, dd: np.ndarray, net, rng: np.random.Generator) -> dict[str, np.ndarray]:
        # sampled rollouts draw from sigma's probabilities with rng (SampledPolicy); greedy ones
        # play the net's top call, as the trained policy does in matches
        sigma = NeuralAgent(net, mode="sample" if self.config.sample_rollouts else "greedy")
        return jps_targets_for_batch(end, dd, sigma, ratio=self.ratio, rng=rng, config=self.config, mode=self.loss,
                                     joint=self.joint, min_gain=self.min_gain, informative=self.informative)


def _empty_targets(mode: str) -> dict[str, np.ndarray]:
    out = {"obs": np.zeros((0, 60), np.uint8), "deal": np.zeros((0, 52), np.uint8), "seat": np.zeros(0, np.int8),
           "code": np.zeros(0, np.int32), "call": np.zeros(0, np.int16), "role": np.zeros(0, np.int8),
           "gain": np.zeros(0, np.float32), "cand": np.zeros((0, NUM_CALLS), bool),
           "q": np.zeros((0, NUM_CALLS), np.float32), "searched": np.array(0), "rollouts": np.array(0)}
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


class BeliefHiddenHands:
    """A :data:`HiddenHandSampler` from a belief net (Qiu et al. Sec. V): each row's belief over
    the three hidden hands, and the joint deal sampler of BMCS (:class:`bidlab.search.sampler.
    DealSampler`: Sinkhorn-balanced, Gumbel-max per card, capacity repair) draws its deals.
    No particle filter: the belief already reads the auction, and JPS averages its joint
    values over whatever deals it is given. Draws that the capacity repair cannot make
    feasible are redrawn (at most ``tries`` rounds; then uniform deals fill the rest)."""

    def __init__(self, net, calibrate: int = 1, tries: int = 8):
        self.net = net
        self.calibrate = calibrate
        self.tries = tries

    def __call__(self, state: AuctionState, k: int, rng: np.random.Generator) -> np.ndarray:
        beliefs = net_beliefs(self.net, state)
        out = np.empty((state.n * k, 52), np.uint8)
        for t in range(state.n):
            seat = int(state.to_act[t])
            own = state.deals[t] == seat
            sampler = DealSampler(beliefs[t], own, seat, rng, calibrate=self.calibrate, pilot=500)
            got = np.zeros((0, 52), np.uint8)
            for _ in range(self.tries):
                deals, ok = sampler.draw(2 * k)
                got = np.concatenate([got, deals[ok]])
                if len(got) >= k:
                    break
            if len(got) < k:
                got = np.concatenate([got, uniform_hidden_hands(state.take([t]), k - len(got), rng)])
            out[t * k:(t + 1) * k] = got[:k]
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
    """Factory of ``jps:MODEL[?samples=20&thr=0.05&opp=1&rollouts=1&partner=max&sample=0&joint=1&belief=belief]``
    (MODEL as for ``nn:``; the rollouts use it greedily unless ``sample=1``). The hidden hands
    are drawn from the belief net ``belief`` (default the shipped ``belief``; a name or a
    path), or uniformly with ``belief=none`` or when no such belief model exists."""
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
    belief_name = opts.pop("belief", "belief")
    if opts:
        raise AgentSpecError(f"unknown jps option(s) {', '.join(sorted(opts))}; known: samples, thr, opp, "
                             "rollouts, partner, sample, joint, belief")
    try:
        cfg = JPSSearchConfig(threshold=thr, opponent_samples=opp, rollouts=rollouts, partner=partner,
                              sample_rollouts=bool(sample))
    except JPSSearchError as e:
        raise AgentSpecError(f"jps: {e}") from None
    if samples < 1:
        raise AgentSpecError(f"jps option samples must be at least 1, got {samples}")
    base = make_agent(f"nn:{model}:{'sample' if sample else 'greedy'}", seed)
    sampler = None
    if belief_name != "none":
        try:
            sampler = BeliefHiddenHands(load_belief(belief_name))
        except ModelFileError:
            if belief_name != "belief":  # a belief asked for by name must exist
                raise AgentSpecError(f"jps: no belief model {belief_name!r} (belief=none samples uniformly)") from None
    return JPSAgent(base, samples=samples, config=cfg, sampler=sampler, seed=seed, joint=bool(joint))


register("jps", "joint policy search at decision time over a neural policy, hidden hands from the belief net: "
         "jps:MODEL?samples=20&thr=0.05&belief=belief|none",
         make_jps_agent)
