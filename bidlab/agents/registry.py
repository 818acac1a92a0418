"""Agents addressed by spec strings, so that any two can meet in a match or at the table.

Specs::

    random[:SEED]      uniformly random legal calls
    sayc               the rule-based SAYC bidder
    nn:PATH[:greedy|sample]   a neural policy saved by bidlab (safetensors + JSON config)
    bmcs:MODEL[?opts]  belief Monte Carlo search over a neural policy (bidlab.search)
    mcs:MODEL[?opts]   the same search with uniform deal sampling (bidlab.search)
    jps:MODEL[?opts]   one-step joint policy search at decision time (bidlab.search)
    punish:SPEC[?threshold=T]   SPEC, doubling when the doubling judge says so (bidlab.search.punish)
    oracle-punish:SPEC[?down=2]  SPEC, doubling every contract that goes down double dummy:
                       a peeking diagnostic for ``bidlab match`` only (:data:`PEEKING_KINDS`)
    A+B                a mixed partnership (:mod:`bidlab.agents.team`): agent A bids
                       North/East, agent B South/West; ``A+A`` is the plain agent A

Where kinds come from:

- ``random``, ``sayc`` and ``nn`` are built in here;
- installed packages declare kinds in the entry-point group ``bidlab.agents`` (name: the
  prefix; object: a factory ``(argument, seed) -> agent``, whose docstring's first line is the
  kind's summary). bidlab's own search kinds ``bmcs``, ``mcs`` and ``jps`` are declared this
  way in its ``pyproject.toml``, so they resolve without importing ``bidlab.search`` first,
  while this layer, below search, never imports it. An entry point is loaded only when its
  prefix is first asked for;
- :func:`register` adds a kind at run time (your script, a notebook, ``--import MODULE``).
  :func:`shipped_kinds` and :func:`install` carry such kinds to worker processes and Ray
  tasks (``bidlab.eval.match`` does so for every chunk it sends out).

The factory signature::

    def my_agent(arg: str, seed: int) -> Agent   # arg: the text after "prefix:" ("" if none)
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
    origin: str = "runtime"  # builtin, entry point, or runtime (register())


_KINDS: dict[str, AgentKind] = {}

#: The entry-point group installed packages declare agent kinds in.
ENTRY_POINT_GROUP = "bidlab.agents"

#: bidlab's own kinds that its pyproject declares as entry points (for the hint when an
#: installation's metadata predates them).
_OWN_ENTRY_POINTS = ("bmcs", "mcs", "jps", "punish", "oracle-punish")

#: Kinds that read hidden cards by design: diagnostics, never players. They may sit in
#: ``bidlab match`` (to measure how much an agent gives away), and are refused by name in
#: every playing context (the web app, Blue Chip, ``bidlab league`` ratings): see
#: :func:`refuse_peeking`. They are also the named exception of the no-peeking test.
PEEKING_KINDS = ("oracle-punish",)


def peeking_members(spec: str) -> list[str]:
    """The members of ``spec`` (itself, or each member of a team) whose kind peeks."""
    members = team_members(spec) if isinstance(spec, str) else None
    parts = members or ((spec or "").strip(),)
    return [m for m in parts if m.partition(":")[0].strip().lower() in PEEKING_KINDS]


def refuse_peeking(spec: str, where: str) -> None:
    """Raise :class:`AgentSpecError` when ``spec`` (or a member of it) is a peeking
    diagnostic (:data:`PEEKING_KINDS`): it cannot sit at ``where`` (a playing context)."""
    bad = peeking_members(spec)
    if bad:
        kind = bad[0].partition(":")[0].strip().lower()
        raise AgentSpecError(f"{bad[0]!r} cannot sit in {where}: {kind} looks at the hidden hands (a diagnostic "
                             "for `bidlab match` only, never a player)")


def register(prefix: str, summary: str, factory: Callable[[str, int], Agent]) -> None:
    """Add (or replace) the agent kind ``prefix``: ``make_agent("prefix:ARG", seed)`` calls
    ``factory(ARG, seed)``. A prefix is letters, digits, ``_`` and ``-`` (no ``:`` nor ``+``)."""
    if not isinstance(prefix, str) or not prefix or not all(c.isalnum() or c in "_-" for c in prefix):
        raise AgentSpecError(f"an agent kind's prefix is letters, digits, _ and -, got {prefix!r}")
    if not callable(factory):
        raise AgentSpecError(f"the factory of agent kind {prefix!r} must be callable (arg, seed) -> agent")
    # bidlab's own kinds (the search modules register theirs on import too) are found in a
    # worker on their own; only kinds from outside bidlab are shipped to workers
    module = getattr(factory, "__module__", None) or ""
    origin = "builtin" if module.split(".")[0] == "bidlab" else "runtime"
    _KINDS[prefix.lower()] = AgentKind(prefix.lower(), summary, factory, origin)


def known_kinds() -> list[AgentKind]:
    """Every kind: built in, declared by installed packages (loaded now), registered."""
    _load_builtin()
    for prefix in list(_entry_points()):
        try:
            _load_entry_point(prefix)
        except AgentSpecError:
            pass  # a broken plug-in is reported when its prefix is asked for
    return list(_KINDS.values())


def _entry_points() -> dict:
    from importlib.metadata import entry_points

    return {ep.name.lower(): ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def _load_entry_point(prefix: str) -> AgentKind | None:
    """The kind an installed package declares for ``prefix`` (loaded and registered now)."""
    if prefix in _KINDS:
        return _KINDS[prefix]
    ep = _entry_points().get(prefix)
    if ep is None:
        return None
    try:
        factory = ep.load()
    except Exception as e:  # noqa: BLE001 - a plug-in that does not import is a bad spec, not a crash
        raise AgentSpecError(f"agent kind {prefix!r} (entry point {ep.value}) does not load: "
                             f"{type(e).__name__}: {e}") from None
    if not callable(factory):
        raise AgentSpecError(f"agent kind {prefix!r}: entry point {ep.value} is not a factory (arg, seed) -> agent")
    doc = (getattr(factory, "__doc__", None) or "").strip().splitlines()
    summary = getattr(factory, "summary", None) or (doc[0] if doc else f"agent from {ep.value}")
    kind = AgentKind(prefix, summary, factory, "entry point")
    _KINDS[prefix] = kind
    return kind


def _kind(prefix: str) -> AgentKind | None:
    _load_builtin()
    return _KINDS.get(prefix) or _load_entry_point(prefix)


def shipped_kinds(specs: list[str] | tuple[str, ...]) -> tuple[AgentKind, ...]:
    """The kinds registered at run time (:func:`register`) that ``specs`` use, team members
    included: what a worker process or a Ray task must :func:`install` before it builds
    these agents. Built-in and entry-point kinds are found there on their own."""
    out: dict[str, AgentKind] = {}
    for spec in specs:
        members = team_members(spec) or (spec,)
        for member in members:
            prefix = member.strip().partition(":")[0].lower()
            kind = _KINDS.get(prefix)
            if kind is not None and kind.origin == "runtime":
                out[prefix] = kind
    return tuple(out.values())


def install(kinds: tuple[AgentKind, ...] | list[AgentKind]) -> None:
    """Register ``kinds`` here (in a worker: the parent's run-time registrations)."""
    for kind in kinds:
        _KINDS[kind.prefix] = kind


def importable_by_reference(kind: AgentKind) -> bool:
    """Whether a spawned process can unpickle ``kind``'s factory by reference (its module
    has a file to import: not a REPL, a notebook, ``python -c``, nor a lambda or a nested
    function)."""
    import pickle
    import sys

    factory = kind.factory
    module = getattr(factory, "__module__", None)
    if module is None or "<locals>" in getattr(factory, "__qualname__", "<locals>"):
        return False
    if module == "__main__" and not getattr(sys.modules.get("__main__"), "__file__", None):
        return False
    try:
        pickle.dumps(factory)
    except Exception:  # noqa: BLE001 - any pickling failure means: not by reference
        return False
    return True


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
    kind = _kind(prefix.lower())
    if kind is None:
        names = ", ".join(sorted({*_KINDS, *_entry_points()}))
        where = "" if team is None else f" in team {team!r}"
        hint = ""
        if prefix.lower() in _OWN_ENTRY_POINTS:
            hint = (f"; bidlab declares {prefix.lower()!r} as an entry point, which this installation's "
                    "metadata lacks: reinstall bidlab (pip install -e .), or import bidlab.search first")
        else:
            hint = ("; a kind of your own: register() it, load its module with --import MODULE, or install "
                    f"a package declaring it in the {ENTRY_POINT_GROUP!r} entry-point group")
        raise AgentSpecError(f"unknown agent {spec!r}{where}; known kinds: {names}{hint}")
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
    _KINDS.setdefault("random", AgentKind("random", "uniformly random legal calls (random:SEED)", _random, "builtin"))
    _KINDS.setdefault("sayc", AgentKind("sayc", "rule-based Standard American Yellow Card bidder", _sayc, "builtin"))
    _KINDS.setdefault("nn", AgentKind("nn", "neural policy: nn:PATH[:greedy|sample]", _neural, "builtin"))
