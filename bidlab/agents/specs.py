"""Checking an agent spec string before a long job writes anything.

:func:`bidlab.agents.registry.make_agent` builds an agent from a spec; a job that makes an
output folder first (a match, an expert data set) would leave that folder behind when the
spec is bad. :func:`check_agent_spec` is called first, and also names a mode it does not
know (``nn:sl:weird``) instead of reading ``sl:weird`` as a model path. A team ``A+B`` is
checked member by member, and an error names the bad member and the team.
"""

from __future__ import annotations

from bidlab.agents.registry import AgentSpecError, known_kinds, make_agent, team_members
from bidlab.errors import BidlabError

#: The modes a neural spec may end with (``nn:PATH[:greedy|sample]``).
NEURAL_MODES = ("greedy", "sample")


def split_neural_spec(arg: str) -> tuple[str, str | None]:
    """``"sl:sample"`` -> ``("sl", "sample")``; ``"sl"`` -> ``("sl", None)``.

    A last ``:word`` that is not a known mode is an error, unless the whole argument is a
    path with a colon in it (checked by the caller building the agent)."""
    path, colon, mode = arg.rpartition(":")
    if not colon:
        return arg, None
    if mode in NEURAL_MODES:
        return path, mode
    if "/" in mode or "." in mode:  # a path with a colon in a folder name, not a mode
        return arg, None
    raise AgentSpecError(f"unknown mode {mode!r} in 'nn:{arg}'; a neural agent's mode is "
                         f"{' or '.join(NEURAL_MODES)} (nn:PATH[:greedy|sample])")


def check_agent_spec(spec: str) -> str:
    """``spec`` stripped, after building its agent once; raises :class:`AgentSpecError`."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError("agent spec must be a non-empty string such as 'sayc' or 'random'")
    s = spec.strip()
    members = team_members(s)
    if members is None:
        return _check_single(s)
    for member in dict.fromkeys(members):  # A+A: build A once
        try:
            _check_single(member, team=s)
        except AgentSpecError as e:
            if f"in team {s!r}" in str(e):
                raise
            raise AgentSpecError(f"{e} (member {member!r} in team {s!r})") from None
    return s


def _check_single(spec: str, team: str | None = None) -> str:
    s = spec
    prefix, _, arg = s.partition(":")
    kinds = {k.prefix for k in known_kinds()}
    if prefix.lower() not in kinds:
        where = "" if team is None else f" in team {team!r}"
        raise AgentSpecError(f"unknown agent {spec!r}{where}; known kinds: {', '.join(sorted(kinds))}")
    if prefix.lower() == "nn":
        split_neural_spec(arg)
    try:
        make_agent(s, 0)
    except AgentSpecError:
        raise
    except BidlabError as e:
        raise AgentSpecError(f"agent {spec!r}: {e}") from None
    except Exception as e:  # a model file that does not load is a bad spec, not a crash
        raise AgentSpecError(f"cannot build agent {spec!r}: {type(e).__name__}: {e}") from None
    return s
