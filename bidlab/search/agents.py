"""``bmcs:`` and ``mcs:`` agents: BMCS / uniform MCS over a neural policy, as registry specs.

Specs: ``bmcs:MODEL[?OPTIONS]`` and ``mcs:MODEL[?OPTIONS]``, e.g. ``bmcs:sl``,
``bmcs:rl?preset=paper``, ``bmcs:sl?k=4&rmax=1500&pmin=0.01&rmin=100&dd=exact``.
MODEL is a policy (a shipped name such as ``sl``/``rl`` or a path); options are those of
:func:`bidlab.search.bmcs.parse_options` plus ``belief=NAME`` (default the shipped
``belief``), ``tricks=NAME`` (default the shipped ``tricks``) and, for piKL (issue 29),
``anchor=MODEL`` with ``anchor_weight=λ`` (``bmcs:rl?anchor=sl&anchor_weight=0.5``), for
issue 44 ``opponents=SPEC`` (``bmcs:rl?opponents=punish:nn:rl``: the rollouts bid the
opponents' seats with SPEC, e.g. a punisher, so that the search sees the risk of a penalty
double; SPEC takes no ``&`` options of its own here), and
``device=cuda`` (or ``cuda:N``), where the policy, belief and trick nets compute (default
``cpu``): particles, filtering and rollouts are batched, so the paper preset's 1,500
rollouts a decision are the work a GPU helps with.

Registration: bidlab's ``pyproject.toml`` declares both factories (and ``jps``) in the
``bidlab.agents`` entry-point group, so ``make_agent("bmcs:rl")`` finds them with no import
first, while the registry, in the agents layer below search, never imports this module.
Importing :mod:`bidlab.search` also registers them with
:func:`bidlab.agents.registry.register` (the same factories).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bidlab.agents.base import AgentBase
from bidlab.agents.neural import load_neural_agent, resolve_model, shipped_models_dir
from bidlab.agents.registry import AgentSpecError, register
from bidlab.envs.rollout import Decision
from bidlab.envs.state import AuctionState
from bidlab.learn.belief import load_belief
from bidlab.learn.tricks import load_tricknet
from bidlab.nets.config import ModelFileError
from bidlab.nets.device import DeviceError, check_device
from bidlab.search.bmcs import SearchConfig, Searcher, SearchError, SearchResult, parse_options

_CACHE: dict[tuple[str, str, str], object] = {}


def _cached(kind: str, name: str, device: str, loader):
    key = (kind, name, device)
    if key not in _CACHE:
        _CACHE[key] = loader(name, device)
    return _CACHE[key]


def _trick_path(name: str) -> Path:
    p = Path(name)
    if p.with_suffix(".safetensors").is_file():
        return p
    return shipped_models_dir() / p.name


class SearchAgent(AgentBase):
    """A policy whose every call is a BMCS (or MCS) decision; ``last`` holds the most recent
    :class:`~bidlab.search.bmcs.SearchResult` of each row of the last :meth:`decide`."""

    def __init__(self, searcher: Searcher):
        self.searcher = searcher
        self.name = "bmcs"
        self.last: list[SearchResult] = []
        self.history: list[SearchResult] = []

    def search(self, state: AuctionState, row: int = 0) -> SearchResult:
        return self.searcher.search(state.take([row]))

    def decide(self, state: AuctionState, explain: bool = False) -> Decision:
        results = [self.search(state, t) for t in range(state.n)]
        self.last = results
        self.history.extend(results)
        calls = np.array([r.call for r in results], np.int64)
        reasons = [r.summary() for r in results] if explain else None
        return Decision(calls, None, reasons)


def build_search_agent(arg: str, seed: int, belief: bool) -> SearchAgent:
    model, _, opts = arg.partition("?")
    if not model:
        raise AgentSpecError(f"{'bmcs' if belief else 'mcs'} needs a policy model, e.g. bmcs:sl")
    kv = dict(p.partition("=")[::2] for p in opts.split("&") if p) if opts else {}
    belief_name = kv.pop("belief", "belief")
    tricks_name = kv.pop("tricks", "tricks")
    anchor_name = kv.pop("anchor", None)
    opponents_spec = kv.pop("opponents", None)
    device = kv.pop("device", "cpu")
    try:
        check_device(device, flag="device=")
    except DeviceError as e:
        raise AgentSpecError(str(e)) from None
    try:
        cfg = parse_options("&".join(f"{k}={v}" for k, v in kv.items()), SearchConfig(belief=belief))
        resolve_model(model, kind="policy")
        policy = load_neural_agent(model, mode="greedy", seed=seed, device=device)
        bnet = _cached("belief", belief_name, device, load_belief) if belief else None
        tnet = (_cached("tricks", tricks_name, device, lambda n, d: load_tricknet(_trick_path(n), device=d))
                if cfg.dd == "net" else None)
        anchor = None
        if anchor_name:
            try:
                resolve_model(anchor_name, kind="policy")
            except ModelFileError as e:
                raise AgentSpecError(f"anchor={anchor_name}: {e}") from None
            anchor = load_neural_agent(anchor_name, mode="greedy", seed=seed, device=device)
        opponents = _opponents(opponents_spec, seed) if opponents_spec else None
        return SearchAgent(Searcher(policy, cfg, bnet, tnet, seed=seed, anchor=anchor, opponents=opponents))
    except SearchError as e:
        raise AgentSpecError(str(e)) from None


def _opponents(spec: str, seed: int):
    """The agent that bids the opponents' seats in the rollouts (``opponents=punish:nn:rl``)."""
    from bidlab.agents.registry import make_agent, peeking_members

    if peeking_members(spec) or spec.partition(":")[0].lower() in ("bmcs", "mcs", "jps"):
        raise AgentSpecError(f"opponents={spec}: the rollouts' opponents must be a plain bidder (a net, sayc, "
                             "a punisher), not a search nor a peeking diagnostic")
    try:
        return make_agent(spec, seed)
    except AgentSpecError as e:
        raise AgentSpecError(f"opponents={spec}: {e}") from None


def bmcs_factory(arg: str, seed: int) -> SearchAgent:
    """belief Monte Carlo search over a policy: bmcs:MODEL[?k=4&rmax=1500&pmin=0.01&rmin=100&dd=net|exact&score=imps|points&preset=paper&anchor=sl&anchor_weight=0.5&opponents=punish:nn:rl&device=cuda]"""
    return build_search_agent(arg, seed, belief=True)


def mcs_factory(arg: str, seed: int) -> SearchAgent:
    """Monte Carlo search with uniform deal sampling (BMCS ablation): mcs:MODEL[?options as bmcs]"""
    return build_search_agent(arg, seed, belief=False)


register("bmcs", bmcs_factory.__doc__, bmcs_factory)
register("mcs", mcs_factory.__doc__, mcs_factory)
