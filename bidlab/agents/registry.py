"""Agents addressed by spec strings, so that any two can meet in a match or at the table.

Specs::

    random[:SEED]      uniformly random legal calls
    sayc               the rule-based SAYC bidder
    nn:PATH[:greedy|sample]   a neural policy saved by bidlab (safetensors + JSON config)
    bmcs:MODEL[?opts]  belief Monte Carlo search over a neural policy (bidlab.search)
    mcs:MODEL[?opts]   the same search with uniform deal sampling (bidlab.search)
    jps:MODEL[?opts]   one-step joint policy search at decision time (bidlab.search)

New kinds register themselves with :func:`register`; the search kinds do so when
``bidlab.search`` is imported (the front ends and ``bidlab.eval`` import it), since this
layer sits below search and may not import it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bidlab.agents.base import Agent, RandomAgent
from bidlab.errors import BidlabError


class AgentSpecError(BidlabError, ValueError):
    """An agent spec string does not name a known agent, or its argument is bad."""


@dataclass(frozen=True, slots=True)
class AgentKind:
    prefix: str
    summary: str
    factory: Callable[[str, int], Agent]  # (argument after "prefix:", seed) -> agent


_KINDS: dict[str, AgentKind] = {}


def register(prefix: str, summary: str, factory: Callable[[str, int], Agent]) -> None:
    _KINDS[prefix] = AgentKind(prefix, summary, factory)


def known_kinds() -> list[AgentKind]:
    _load_builtin()
    return list(_KINDS.values())


def make_agent(spec: str, seed: int = 0) -> Agent:
    """Build the agent a spec names; ``seed`` seeds any randomness it has."""
    _load_builtin()
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError("agent spec must be a non-empty string such as 'sayc' or 'random'")
    prefix, _, arg = spec.strip().partition(":")
    kind = _KINDS.get(prefix.lower())
    if kind is None:
        names = ", ".join(sorted(_KINDS))
        raise AgentSpecError(f"unknown agent {spec!r}; known kinds: {names}")
    agent = kind.factory(arg, seed)
    agent.name = spec.strip()
    return agent


def _random(arg: str, seed: int) -> Agent:
    if arg:
        try:
            seed = int(arg)
        except ValueError:
            raise AgentSpecError(f"random agent's argument must be an integer seed, got {arg!r}") from None
    return RandomAgent(seed)


def _sayc(arg: str, seed: int) -> Agent:
    if arg:
        raise AgentSpecError(f"sayc takes no argument, got {arg!r}")
    try:
        from bidlab.agents.sayc import SaycAgent
    except ImportError as e:  # pragma: no cover - present once the SAYC bidder is installed
        raise AgentSpecError(f"the SAYC bidder is not available: {e}") from None
    return SaycAgent()


def _neural(arg: str, seed: int) -> Agent:
    try:
        from bidlab.agents.neural import load_neural_agent
    except ImportError as e:
        raise AgentSpecError(f"neural agents are not available in this installation: {e}") from None
    path, _, mode = arg.rpartition(":") if arg.endswith((":greedy", ":sample")) else (arg, "", "greedy")
    if not path:
        raise AgentSpecError("nn needs a model path, e.g. nn:models/sl.safetensors")
    return load_neural_agent(path, mode=mode or "greedy", seed=seed)


_BUILTIN_LOADED = False


def _load_builtin() -> None:
    global _BUILTIN_LOADED
    if _BUILTIN_LOADED:
        return
    _BUILTIN_LOADED = True
    _KINDS.setdefault("random", AgentKind("random", "uniformly random legal calls (random:SEED)", _random))
    _KINDS.setdefault("sayc", AgentKind("sayc", "rule-based Standard American Yellow Card bidder", _sayc))
    _KINDS.setdefault("nn", AgentKind("nn", "neural policy: nn:PATH[:greedy|sample]", _neural))
