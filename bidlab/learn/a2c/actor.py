"""The self-play actor (Qiu et al. Alg. 1): bids batches of duplicate board pairs on the array
env through :func:`bidlab.envs.rollout.rollout` and returns the transitions with their rewards.
The same class runs in a thread (local backend) or as a Ray actor."""

from __future__ import annotations

import time

import numpy as np
import torch

from bidlab.agents.base import AgentBase
from bidlab.agents.neural import NeuralAgent, load_neural_agent
from bidlab.agents.registry import make_agent
from bidlab.envs.rollout import Decision, rollout, score
from bidlab.envs.scoring import imps_array
from bidlab.envs.state import AuctionState, init, observe, observe636
from bidlab.learn.a2c.config import A2CConfig, RLTrainingError
from bidlab.learn.a2c.league import EXPLOITER, SELF
from bidlab.learn.a2c.targets import SearchHook
from bidlab.learn.a2c.transitions import duplicate_rewards
from bidlab.nets import NetConfig, build


class _SamplingPolicy:
    """The actor's policy in the rollout: samples from the legal-masked softmax with a seeded
    generator, and keeps what the transition needs (log-prob, v(h)) for the on_decision hook."""

    name = "rl-selfplay"

    def __init__(self, actor: SelfPlayActor, nets: tuple[torch.nn.Module, torch.nn.Module] | None = None):
        self.actor = actor
        # the nets that bid: the learner's, or (a main exploiter's batch) the exploiter's, without an anchor
        self.policy, self.value = nets or (actor.policy, actor.value)
        self.anchor = actor.anchor if nets is None else None
        self.last: tuple[np.ndarray, np.ndarray] | None = None

    def decide(self, state: AuctionState, explain: bool = False) -> Decision:
        a = self.actor
        t0 = time.perf_counter()
        x = observe(state)
        h = observe636(state) if a.cfg.hidden_info else x
        legal = torch.from_numpy(state.legal)
        with torch.inference_mode():
            logits = self.policy(torch.from_numpy(x)).masked_fill(~legal, float("-inf"))
            logp = torch.log_softmax(logits, dim=-1)
            calls = torch.multinomial(logp.exp(), 1, generator=a.gen).squeeze(1)
            lp = logp.gather(1, calls[:, None]).squeeze(1)
            v = self.value(torch.from_numpy(h))
            anchor = None
            if self.anchor is not None:  # the anchor's probabilities, batched with the policy's forward
                anchor = torch.softmax(self.anchor(torch.from_numpy(x)).masked_fill(~legal, float("-inf")), dim=-1)
                anchor = anchor.numpy().astype(np.float16)
        a.net_seconds += time.perf_counter() - t0
        self.last = (lp.numpy().astype(np.float32), v.numpy().astype(np.float32), anchor)
        return Decision(calls.numpy().astype(np.int64), None, None)


class SelfPlayActor:
    """Bids batches of duplicate board pairs with the current policy (all four seats, both
    tables) and returns their transitions. Runs in a thread or as a Ray actor unchanged.

    In a league (:mod:`bidlab.learn.a2c.league`) each batch is bid against one opponent team
    drawn from the pool's shares (:meth:`set_league`): against ``self`` as above; against any
    other member the learner sits North-South at table 0 and East-West at table 1, the member
    at the other seats, and only the learner's own decisions become transitions (a frozen
    opponent's calls were not made by the policy being trained, so they have no place in its
    replay). The reward is the same duplicate reward: the learner's team is team 0 at both
    tables.

    With a partner (``cfg.partner``, issue #29's ad-hoc teamwork), a share of the self-play
    batches seats one team as the learner and that agent (``sayc``): North-South at table 0
    and East-West at table 1, the learner at North/East or South/West by the dice, the
    learner at the other three seats; every call of the learner is a transition, the
    partner's are not. So the policy learns to partner a player of the partner's system, and
    to play against such a pair. In a league the share applies to member batches too: the
    learner and its partner then meet the member drawn (``sayc`` in the pool: the pair
    ``sayc+X`` against ``sayc``, issue 29's cross-play), and only the learner's calls are kept.

    With a main exploiter (:meth:`set_exploiter`, :mod:`bidlab.learn.a2c.main_exploiter`), a
    share of the batches is bid by the exploiter (team 0, as the learner against a member)
    against a frozen copy of the learner; those transitions are the exploiter's calls only, and
    the batch is labelled ``opponent = "main-exploiter"`` with the exploiter's generation."""

    def __init__(self, cfg: A2CConfig, seed: int, split: str = "train", search_hook: SearchHook | None = None):
        from bidlab.dd import shipped_store

        self.cfg = cfg
        self.search_hook = search_hook
        self.search_rng = np.random.default_rng([seed, 17])
        self.search_seconds = 0.0
        self.policy = build(cfg.policy).eval()
        self.value = build(cfg.value).eval()
        self.anchor = None if cfg.anchor is None else load_neural_agent(cfg.anchor.removeprefix("nn:")).net.eval()
        self.deals, self.dd, _ = shipped_store().load(split)
        self.rng = np.random.default_rng(seed)
        self.gen = torch.Generator().manual_seed(int(seed))
        self.version = -1
        self.net_seconds = 0.0
        self.total_seconds = 0.0
        self.generated = 0
        self.seed = int(seed)
        self.league_rng = np.random.default_rng([seed, 29])  # its own stream: plain runs draw as before
        self.league_version = -1
        self.opponents: dict[str, AgentBase] = {}
        self.shares: dict[str, float] = {}
        self.partner = None if not cfg.partner else make_agent(cfg.partner, int(seed) + 1)
        self.exploiter_rng = np.random.default_rng([seed, 37])  # its own stream, as the league's
        self.exploiter_version = -1
        self.exploiter_generation = -1
        self.exploiter_share = 0.0
        self.exploiter_nets: tuple[torch.nn.Module, torch.nn.Module] | None = None
        self.exploiter_target: NeuralAgent | None = None

    def set_exploiter(self, payload: dict) -> None:
        """Load a main exploiter's nets, its target's weights and its share of the batches
        (:meth:`MainExploiter.actor_payload`)."""
        if self.exploiter_nets is None:
            self.exploiter_nets = (build(self.cfg.policy).eval(), build(self.cfg.value).eval())
            seed = int(np.random.SeedSequence([self.seed, 41]).generate_state(1)[0])
            self.exploiter_target = NeuralAgent(build(self.cfg.policy).eval(), mode=payload["target_mode"], seed=seed)
            self.exploiter_target.name = "learner"
        policy, value = self.exploiter_nets
        with torch.no_grad():
            policy.load_state_dict({k: torch.as_tensor(v) for k, v in payload["policy"].items()})
            value.load_state_dict({k: torch.as_tensor(v) for k, v in payload["value"].items()})
            self.exploiter_target.net.load_state_dict({k: torch.as_tensor(v) for k, v in payload["target"].items()})
        self.exploiter_version = int(payload["version"])
        self.exploiter_generation = int(payload["generation"])
        self.exploiter_share = float(payload["share"])

    def set_weights(self, version: int, policy: dict, value: dict) -> None:
        """Load the learner's weights (tensors or numpy arrays) tagged with ``version``."""
        with torch.no_grad():
            self.policy.load_state_dict({k: torch.as_tensor(v) for k, v in policy.items()})
            self.value.load_state_dict({k: torch.as_tensor(v) for k, v in value.items()})
        self.version = int(version)

    def set_league(self, version: int, members: list[dict]) -> None:
        """Build the pool's members (:meth:`League.actor_members`: neural ones from their
        weights, the rest from their specs) tagged with the pool's ``version``."""
        built = {}
        for i, m in enumerate(members):
            seed = int(np.random.SeedSequence([self.seed, 31, i]).generate_state(1)[0])
            if "weights" in m:
                net = build(NetConfig(**m["net"])).eval()
                with torch.no_grad():
                    net.load_state_dict({k: torch.as_tensor(v) for k, v in m["weights"].items()})
                agent = NeuralAgent(net, mode=m["mode"], seed=seed)
            else:
                agent = make_agent(m["spec"], seed)
            agent.name = m["name"]
            built[m["name"]] = agent
        self.opponents = built
        self.league_version = int(version)

    def set_shares(self, shares: dict[str, float]) -> None:
        """Each member's share of the batches (``self`` included), as the league weighs them now."""
        self.shares = {k: v for k, v in shares.items() if k == SELF or k in self.opponents}

    def draw_opponent(self) -> str:
        if not self.shares:
            return SELF
        names = list(self.shares)
        p = np.array([self.shares[k] for k in names], np.float64)
        return names[int(self.league_rng.choice(len(names), p=p / p.sum()))]

    def stats(self) -> dict:
        return {"generated": self.generated, "net_seconds": self.net_seconds, "total_seconds": self.total_seconds,
                "search_seconds": self.search_seconds}

    def play(self, boards: int | None = None, deal_rows: np.ndarray | None = None, dealer=None,
             vulnerability=None, opponent: str | None = None) -> dict[str, np.ndarray]:
        """Bid ``boards`` board pairs (random train deals, dealers, vulnerabilities unless given)
        and return their transitions: :data:`REPLAY_COLUMNS` plus ``v`` (the actor's v(h)),
        ``row`` (table row), ``length`` (calls before this one), per-board ``imps`` and the
        ``opponent`` member's name. ``opponent``: a pool member (default: drawn by the
        league's shares; ``self`` without a league); against one, ``imps`` are the learner's.
        ``opponent="main-exploiter"`` (or drawn by its share): the main exploiter bids against
        the learner's frozen copy; ``imps`` and the transitions are the exploiter's."""
        t0 = time.perf_counter()
        if opponent is None and self.exploiter_share > 0 and self.exploiter_rng.random() < self.exploiter_share:
            opponent = EXPLOITER
        opponent = self.draw_opponent() if opponent is None else opponent
        if opponent == EXPLOITER and self.exploiter_nets is None:
            raise RLTrainingError("no main exploiter at this actor")
        if opponent not in (SELF, EXPLOITER) and opponent not in self.opponents:
            raise RLTrainingError(f"no league member {opponent!r} at this actor")
        n = int(boards or self.cfg.boards_per_batch)
        if deal_rows is None:
            deal_rows = self.rng.integers(0, len(self.deals), n)
        n = len(deal_rows)
        dealer = self.rng.integers(0, 4, n) if dealer is None else np.broadcast_to(dealer, (n,))
        vul = self.rng.integers(0, 4, n) if vulnerability is None else np.broadcast_to(vulnerability, (n,))
        deals, dd = self.deals[deal_rows], self.dd[deal_rows]
        state = init(np.concatenate([deals, deals]), np.tile(dealer, 2), np.tile(vul, 2))
        pol = _SamplingPolicy(self, self.exploiter_nets if opponent == EXPLOITER else None)
        keys = ("row", "length", "obs", "seat", "code", "call", "logp", "v") + (("anchor",) if pol.anchor is not None else ())
        parts: dict[str, list[np.ndarray]] = {k: [] for k in keys}

        partnered = (opponent != EXPLOITER and self.partner is not None and self.cfg.partner_share > 0
                     and self.league_rng.random() < self.cfg.partner_share)
        if partnered:
            # team 0 = learner + partner (NS at table 0, EW at table 1); team 1 = the learner twice
            # in self-play, else the league member drawn (the cross-play of issue 29: sayc+X vs sayc)
            member = opponent != SELF
            policies = [pol, self.partner] + ([self.opponents[opponent]] if member else [])
            seat_policy = np.zeros((2 * n, 4), np.int64)
            if member:
                seat_policy[:n, 1::2] = 2  # the member East-West at table 0 ...
                seat_policy[n:, 0::2] = 2  # ... and North-South at table 1
            low = int(self.league_rng.integers(2))  # the partner at N/E (0) or at S/W (1)
            seat_policy[:n, 2 * low] = 1      # N or S at table 0
            seat_policy[n:, 1 + 2 * low] = 1  # E or W at table 1
            # not a member's name: the league's results against a member stay those of the learner's team
            opponent = f"partner:{self.cfg.partner}" + (f" vs {opponent}" if member else "")
        elif opponent == SELF:
            policies, seat_policy = [pol], np.zeros(4, np.int64)
        else:
            policies = [pol, self.exploiter_target if opponent == EXPLOITER else self.opponents[opponent]]
            seat_policy = np.empty((2 * n, 4), np.int64)
            seat_policy[:n] = (0, 1, 0, 1)  # the learner North-South at table 0 ...
            seat_policy[n:] = (1, 0, 1, 0)  # ... and East-West at table 1: team 0 at both

        def record(p: int, rows: np.ndarray, sub: AuctionState, d: Decision) -> None:
            if p != 0:  # an opponent's call: not the learner's to learn from
                return
            lp, v, anchor = pol.last
            if anchor is not None:
                parts["anchor"].append(anchor)
            parts["row"].append(rows.astype(np.int32))
            parts["length"].append(sub.length.astype(np.int16))
            parts["obs"].append(sub.bits[np.arange(sub.n), sub.to_act])
            parts["seat"].append(sub.to_act.astype(np.int8))
            parts["code"].append(sub.code.astype(np.int32))
            parts["call"].append(d.calls.astype(np.int16))
            parts["logp"].append(lp)
            parts["v"].append(v)

        end = rollout(state, policies, seat_policy, inplace=True, on_decision=record)
        s = score(end, np.concatenate([dd, dd]))
        imps = imps_array(s.ns_score[:n].astype(np.int64) - s.ns_score[n:].astype(np.int64))
        out = {k: np.concatenate(v) for k, v in parts.items()}
        out["deal"] = end.deals[out["row"]]
        out["reward"] = duplicate_rewards(imps, out["row"], out["seat"], n)
        out["imps"] = imps
        out["opponent"] = opponent
        if opponent == EXPLOITER:
            out["exploiter"] = np.array(self.exploiter_generation)
        self.generated += len(out["call"])
        # the joint search assumes all four seats bid with the policy: it runs on self-play batches
        if self.search_hook is not None and opponent == SELF:
            t1 = time.perf_counter()
            out["targets"] = self.search_hook(end, dd, self.policy, self.search_rng)
            self.search_seconds += time.perf_counter() - t1
        self.total_seconds += time.perf_counter() - t0
        out["version"] = np.array(self.version)
        return out
