"""Agents addressed by spec strings, so that any two can meet in a match or at the table.

Specs::

    random[:SEED]      uniformly random legal calls
    sayc               the rule-based SAYC bidder
    nn:PATH[:greedy|sample]   a neural policy saved by bidlab (safetensors + JSON config)
    bmcs:MODEL[?opts]  belief Monte Carlo search over a neural policy (bidlab.search)
    mcs:MODEL[?opts]   the same search with uniform deal sampling (bidlab.search)
    jps:MODEL[?opts]   one-step joint policy search at decision time (bidlab.search)
    A+B                a mixed partnership (:mod:`bidlab.agents.team`): agent A bids
                       North/East, agent B South/West; ``A+A`` is the plain agent A

New kinds register themselves with :func:`register`; the search kinds do so when
``bidlab.search`` is imported (the front ends and ``bidlab.eval`` import it), since this
layer sits below search and may not import it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

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


TEAM_SEPARATOR = "+"


def team_members(spec: str) -> tuple[str, str] | None:
    """``"A+B"`` -> ``("A", "B")`` (North/East member, South/West member); None for a
    single agent. A ``+`` always separates team members, so no other spec may hold one."""
    if not isinstance(spec, str) or TEAM_SEPARATOR not in spec:
        return None
    parts = [p.strip() for p in spec.strip().split(TEAM_SEPARATOR)]
    if len(parts) != 2:
        raise AgentSpecError(f"team {spec.strip()!r} has {len(parts)} members; a team is two agents, "
                             "A+B (A bids North/East, B South/West), e.g. 'sayc+nn:sl'")
    if not all(parts):
        raise AgentSpecError(f"team {spec.strip()!r} lacks a member; a team is two agents, A+B "
                             "(A bids North/East, B South/West), e.g. 'sayc+nn:sl'")
    return parts[0], parts[1]


def member_seed(seed: int, index: int) -> int:
    """The seed of a team's member ``index`` (0 North/East, 1 South/West): the team's own
    seed for the first, so that ``A+A`` and ``A`` draw the same stream, and an independent
    one for the second, so that two sampling members do not draw the same numbers."""
    if index == 0:
        return int(seed)
    return int(np.random.SeedSequence([int(seed), 29, int(index)]).generate_state(1)[0])


def seat_agent_spec(spec: str, seat: int) -> tuple[str, int]:
    """(spec of the agent bidding at ``seat``, its member index): the member of a team
    sitting there, or the agent itself (index 0). One connection per seat (Blue Chip) builds
    only its own member."""
    from bidlab.agents.team import member_index

    members = team_members(spec)
    if members is None or members[0] == members[1]:  # A+A is the plain agent A
        return spec.strip() if members is None else members[0], 0
    k = member_index(seat)
    return members[k], k


def make_agent(spec: str, seed: int = 0) -> Agent:
    """Build the agent a spec names; ``seed`` seeds any randomness it has.

    A team ``A+B`` is a :class:`~bidlab.agents.team.TeamPolicy` over its two members;
    ``A+A`` builds the plain agent ``A``, so its calls are exactly A's."""
    _load_builtin()
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError("agent spec must be a non-empty string such as 'sayc' or 'random'")
    members = team_members(spec)
    if members is None:
        return _make_single(spec.strip(), seed)
    team = spec.strip()
    if members[0] == members[1]:
        agent = _make_member(members[0], seed, team)
        agent.name = team
        return agent
    from bidlab.agents.team import TeamPolicy

    built = [_make_member(m, member_seed(seed, k), team) for k, m in enumerate(members)]
    return TeamPolicy(built, name=team)


def _make_member(member: str, seed: int, team: str) -> Agent:
    try:
        return _make_single(member, seed, team)
    except AgentSpecError as e:
        if f"in team {team!r}" in str(e):
            raise
        raise AgentSpecError(f"{e} (member {member!r} in team {team!r})") from None


def _make_single(spec: str, seed: int, team: str | None = None) -> Agent:
    prefix, _, arg = spec.partition(":")
    kind = _KINDS.get(prefix.lower())
    if kind is None:
        names = ", ".join(sorted(_KINDS))
        where = "" if team is None else f" in team {team!r}"
        raise AgentSpecError(f"unknown agent {spec!r}{where}; known kinds: {names}")
    agent = kind.factory(arg, seed)
    agent.name = spec
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
