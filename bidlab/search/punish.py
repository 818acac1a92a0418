"""Punishers (issue 44): any agent that also doubles the opponents' overbids.

``punish:SPEC[?threshold=T&judge=NAME]`` bids exactly as ``SPEC`` does, except that where
double is legal and ``SPEC`` did not double already, it doubles when the doubling judge
(:mod:`bidlab.learn.judge`, the shipped ``judge`` model) expects doubling to gain more than
``T`` IMPs over passing. The judge reads only the 480 observation of the player to act (its
own hand, the auction, vulnerability), so a punisher sees what ``SPEC`` sees and no more.
The default threshold, :data:`THRESHOLD`, was chosen by matches on VALIDATION boards
(docs/punishers.md). Options after the last ``?`` that are not the punisher's own
(``threshold``, ``judge``) stay with ``SPEC``: ``punish:bmcs:rl?k=4&threshold=1``.

``oracle-punish:SPEC[?down=2]`` is a **diagnostic, not a player**: it bids as ``SPEC`` but
doubles every opponents' contract that goes ``down`` or more tricks down double dummy (it
reads the real deal: the shipped store's DD table, or DDS for a deal not in the store). Its
margin over ``SPEC`` measures how much the opponents overbid. It may sit in ``bidlab match``;
every playing context (web app, Blue Chip, ``bidlab league``) refuses it by name
(:data:`bidlab.agents.registry.PEEKING_KINDS`), and the no-peeking test names it as its
exception.

Both kinds are declared as entry points in bidlab's ``pyproject.toml`` (so any spec resolves
them with no import first) and registered again when :mod:`bidlab.search` is imported.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from bidlab.agents.base import AgentBase
from bidlab.agents.registry import AgentSpecError, make_agent, register
from bidlab.bridge.calls import DOUBLE_ID as DOUBLE
from bidlab.bridge.calls import Call
from bidlab.envs.rollout import Decision, Policy
from bidlab.envs.state import AuctionState, contracts, packed_observations
from bidlab.errors import BidlabError
from bidlab.learn.judge import load_judge, predict

#: The punisher's default threshold (IMPs the judge must expect from doubling): the best of a
#: sweep of matches of ``punish:nn:rl@soup1?threshold=T`` against ``nn:rl@soup1`` on 4,000
#: VALIDATION boards (``benchmarks/punish_threshold.py``, registered as
#: ``punish-threshold-sweep``; docs/punishers.md).
THRESHOLD = 0.25
#: The oracle's default: double contracts that go two or more down double dummy.
ORACLE_DOWN = 2

@cache
def _judge(name: str):
    """One loaded judge per name, shared by every punisher of the process."""
    return load_judge(name)


def split_options(arg: str, own: tuple[str, ...]) -> tuple[str, dict[str, str]]:
    """``"nn:rl?threshold=1"`` -> ``("nn:rl", {"threshold": "1"})``: the wrapper's own options
    (keys in ``own``) are taken out of the last ``?...`` part, the rest stay with the base."""
    base, q, opts = arg.rpartition("?")
    if not q:
        return arg.strip(), {}
    mine, rest = {}, []
    for part in opts.split("&"):
        key, eq, val = part.partition("=")
        if key.strip() in own:
            if not eq or not val.strip():
                raise AgentSpecError(f"option {part!r} needs a value, e.g. {key.strip()}=2")
            mine[key.strip()] = val.strip()
        elif part:
            rest.append(part)
    return (base + ("?" + "&".join(rest) if rest else "")).strip(), mine


def _base(kind: str, spec: str, seed: int) -> Policy:
    if not spec:
        raise AgentSpecError(f"{kind} needs the agent it wraps, e.g. {kind}:nn:rl or {kind}:sayc")
    if spec.partition(":")[0].strip().lower() in ("punish", "oracle-punish"):
        raise AgentSpecError(f"{kind}:{spec}: a punisher wraps a bidder, not another punisher")
    return make_agent(spec, seed)


def _number(kind: str, key: str, text: str, cast):
    try:
        value = cast(text)
    except ValueError:
        raise AgentSpecError(f"{kind}: {key}={text!r} is not a {cast.__name__}") from None
    if cast is float and not np.isfinite(value):
        raise AgentSpecError(f"{kind}: {key} must be a finite number, got {text!r}")
    return value


def side_doubled(state: AuctionState) -> np.ndarray:
    """``bool[n]``: the side to act has doubled already in this auction. A punisher doubles
    once an auction: after its double the opponents' runouts and redoubles lead to auctions
    its judge never saw (on validation boards, an earlier judge's second doubles lost)."""
    h = state.history.astype(np.int64)
    k = np.arange(h.shape[1])
    ours = (k[None, :] % 2) == (state.length[:, None].astype(np.int64) % 2)   # calls made by the side to act
    return ((h == DOUBLE) & ours & (k[None, :] < state.length[:, None])).any(axis=1)


class _Doubler(AgentBase):
    """``base``'s calls, with X where :meth:`wants_double` says so (and double is legal)."""

    #: double at most once an auction (for the side); the oracle, which knows, doubles every time
    once_an_auction = True

    def __init__(self, base: Policy):
        self.base = base
        self.name = "punish"

    @property
    def deterministic(self) -> bool:
        return bool(getattr(self.base, "deterministic", False))

    def wants_double(self, state: AuctionState) -> tuple[np.ndarray, list[str]]:  # pragma: no cover
        raise NotImplementedError

    def decide(self, state: AuctionState, explain: bool = False) -> Decision:
        d = self.base.decide(state, explain=explain)
        calls = np.array(d.calls, np.int64)
        may = state.legal[:, DOUBLE] & (calls != DOUBLE)
        if self.once_an_auction:
            may &= ~side_doubled(state)
        rows = np.flatnonzero(may)
        if not len(rows):
            return d
        want, why = self.wants_double(state.take(rows))
        hit = rows[want]
        if not len(hit):
            return d
        was = calls[hit].copy()
        calls[hit] = DOUBLE
        probs = None
        if d.probs is not None:
            probs = np.array(d.probs, np.float32)
            probs[hit] = 0.0
            probs[hit, DOUBLE] = 1.0
        reasons = None
        if d.reasons is not None:
            reasons = list(d.reasons)
            for k, t in enumerate(rows):
                if want[k]:
                    reasons[t] = f"X: {why[k]}; {self.base.name} alone would have called {Call(int(was[hit == t][0]))}"
        return Decision(calls, probs, reasons)


class PunishAgent(_Doubler):
    """A base agent that doubles when the doubling judge's gain passes ``threshold`` IMPs."""

    def __init__(self, base: Policy, judge, threshold: float = THRESHOLD, judge_name: str = "judge"):
        super().__init__(base)
        self.judge, self.threshold, self.judge_name = judge, float(threshold), judge_name

    def gains(self, state: AuctionState) -> np.ndarray:
        """The judge's IMPs for doubling at every row (player to act's view only)."""
        return predict(self.judge, packed_observations(state))

    def wants_double(self, state: AuctionState) -> tuple[np.ndarray, list[str]]:
        g = self.gains(state)
        want = g > self.threshold
        why = [f"the doubling judge expects {x:+.1f} IMPs from doubling (threshold {self.threshold:+.1f})" for x in g]
        return want, why


class OraclePunishAgent(_Doubler):
    """A base agent that doubles every contract going ``down`` or more down double dummy.
    It reads the real deal: a diagnostic, never a player (module docstring)."""

    peeks = True
    once_an_auction = False

    def __init__(self, base: Policy, down: int = ORACLE_DOWN):
        super().__init__(base)
        self.down = int(down)

    def wants_double(self, state: AuctionState) -> tuple[np.ndarray, list[str]]:
        c = contracts(state)
        tricks = dd_tricks_of(state.deals, c.declarer, c.strain)
        short = c.level.astype(np.int64) + 6 - tricks
        want = short >= self.down
        return want, [f"the oracle sees {int(s)} down double dummy (peeks: diagnostic only)" for s in short]


_DD_INDEX: dict[bytes, np.ndarray] = {}


def dd_tricks_of(deals: np.ndarray, declarer: np.ndarray, strain: np.ndarray) -> np.ndarray:
    """Declarer's double-dummy tricks on the real deals: the shipped store's stored tables
    where the deal is in it (every match deal is), DDS for any other deal."""
    if not _DD_INDEX:
        from bidlab.dd import shipped_store

        all_deals, dd, _ = shipped_store().load("all")
        _DD_INDEX.update({row.tobytes(): table for row, table in zip(all_deals, dd)})
    deals = np.ascontiguousarray(deals, np.uint8)
    out = np.empty(len(deals), np.int64)
    missing = []
    for t, row in enumerate(deals):
        table = _DD_INDEX.get(row.tobytes())
        if table is None:
            missing.append(t)
        else:
            out[t] = table[int(declarer[t]), int(strain[t])]
    if missing:
        from bidlab.dd import solve_contracts

        m = np.array(missing)
        out[m] = solve_contracts(deals[m], np.asarray(declarer)[m], np.asarray(strain)[m])
    return out


def punish_factory(arg: str, seed: int) -> PunishAgent:
    """SPEC bidding, doubling when the doubling judge expects a gain: punish:SPEC[?threshold=IMPS&judge=NAME]"""
    spec, opts = split_options(arg, ("threshold", "judge"))
    threshold = _number("punish", "threshold", opts["threshold"], float) if "threshold" in opts else THRESHOLD
    name = opts.get("judge", "judge")
    base = _base("punish", spec, seed)
    try:
        judge = _judge(name)
    except BidlabError as e:
        raise AgentSpecError(f"punish: judge={name}: {e}") from None
    return PunishAgent(base, judge, threshold, name)


def oracle_punish_factory(arg: str, seed: int) -> OraclePunishAgent:
    """DIAGNOSTIC, peeks: SPEC bidding, doubling every contract that goes DOWN+ down double dummy; bidlab match only (refused by web, Blue Chip, league): oracle-punish:SPEC[?down=2]"""
    spec, opts = split_options(arg, ("down",))
    down = _number("oracle-punish", "down", opts["down"], int) if "down" in opts else ORACLE_DOWN
    if down < 1:
        raise AgentSpecError(f"oracle-punish: down must be >= 1 (tricks short of the contract), got {down}")
    return OraclePunishAgent(_base("oracle-punish", spec, seed), down)


register("punish", punish_factory.__doc__, punish_factory)
register("oracle-punish", oracle_punish_factory.__doc__, oracle_punish_factory)
