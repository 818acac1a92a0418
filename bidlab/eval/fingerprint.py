"""What an agent spec means today, as a short hash, so that a stored match notices when it
no longer holds the games of the agent its name now builds.

Matches are stored under their agents' specs (``results/match-nn_rl-vs-sayc-...``), and a
spec is only a name: ``nn:rl`` is whatever policy ships today, ``sayc`` whatever rules the
bidder has. A match played before a new ``nn:rl`` shipped, or before the SAYC rules changed,
must not be resumed with the new agent nor reused by ``bidlab league`` as if it were the
new agent's. The fingerprint hashes what decides the agent's calls:

- a neural policy: its weights and its mode (greedy or sampling);
- a search agent: its policy's fingerprint and its belief and trick nets' weights (its
  search settings are in the spec, and a match is stored under its spec already);
- a team: its members' fingerprints, in seat order;
- a punisher (``punish:SPEC``): its base agent's fingerprint, the judge's weights, its
  threshold and the punishers' code; the oracle punisher (``oracle-punish:SPEC``): its
  base's, its ``down`` and the same code;
- a rule-based agent of bidlab: the source files of the package its class lives in (the SAYC rules);
- any other agent (yours): its own ``fingerprint()`` when it has one (a hash of its weights
  file, say), else the source file of its class and the state it holds (every torch module's
  weights, every numpy array), so that new weights loaded into the same code are a new agent.

An agent whose code cannot be read (defined in a REPL, a notebook or ``python -c``) and that
has no ``fingerprint()`` has no fingerprint: :func:`agent_fingerprint` returns None, a match
says so once and never reuses stored results for it.
"""

from __future__ import annotations

import hashlib
import inspect
from pathlib import Path

import numpy as np
import torch

from bidlab.agents.neural import NeuralAgent
from bidlab.agents.registry import make_agent
from bidlab.agents.team import TeamPolicy
from bidlab.search.agents import SearchAgent
from bidlab.search.punish import OraclePunishAgent, PunishAgent


class NoFingerprint(Exception):
    """An agent whose code cannot be read and that supplies no fingerprint of its own."""


def agent_fingerprint(spec: str) -> str | None:
    """A 16-hex-digit hash of what the agent ``spec`` names now (see the module docstring),
    or None when the agent has no computable fingerprint."""
    h = hashlib.sha256()
    try:
        _feed(h, make_agent(spec, seed=0))
    except NoFingerprint:
        return None
    return h.hexdigest()[:16]


def _bidlab_class(agent) -> bool:
    return type(agent).__module__.split(".")[0] == "bidlab"


def _feed(h, agent) -> None:
    own = getattr(agent, "fingerprint", None)
    if callable(own) and not _bidlab_class(agent):
        value = own()
        if not isinstance(value, str) or not value:
            raise NoFingerprint(f"{type(agent).__qualname__}.fingerprint() must return a non-empty str")
        h.update(b"own:" + value.encode())
    elif isinstance(agent, TeamPolicy):
        for member in agent.members:
            h.update(b"member:")
            _feed(h, member)
    elif isinstance(agent, PunishAgent):
        h.update(f"punish:{agent.threshold!r}:".encode() + Path(inspect.getfile(PunishAgent)).read_bytes())
        _feed(h, agent.base)
        _feed_weights(h, agent.judge)
    elif isinstance(agent, OraclePunishAgent):
        h.update(f"oracle-punish:{agent.down}:".encode() + Path(inspect.getfile(OraclePunishAgent)).read_bytes())
        _feed(h, agent.base)
    elif isinstance(agent, SearchAgent):
        searcher = agent.searcher
        h.update(b"search:")
        _feed(h, searcher.policy)
        for net in (searcher.belief_net, searcher.trick_net):
            _feed_weights(h, net)
        if getattr(searcher, "opponents", None) is not None:   # bmcs:...?opponents=SPEC
            h.update(b"opponents:")
            _feed(h, searcher.opponents)
    elif isinstance(agent, NeuralAgent):
        h.update(b"nn:" + agent.mode.encode())
        _feed_weights(h, agent.net)
        if agent.sayc_margin is not None:  # anchored to SAYC at play time: the rules bid too
            h.update(f"sayc_margin:{agent.sayc_margin!r}".encode())
            _feed(h, agent.sayc)
    elif _bidlab_class(agent):
        # rules: the calls are a function of the code of the bidder's package
        source = Path(inspect.getfile(type(agent)))
        h.update(b"code:" + type(agent).__qualname__.encode())
        for path in sorted(source.parent.glob("*.py")):
            h.update(path.name.encode() + path.read_bytes())
    else:
        _feed_custom(h, agent)


def _feed_custom(h, agent) -> None:
    """An agent from outside bidlab without its own fingerprint: its class's source file and
    the weights it holds. Its folder's other files are not read: they may be anything."""
    try:
        source = Path(inspect.getfile(type(agent)))
        code = source.read_bytes()
    except (OSError, TypeError):  # defined in a REPL or `python -c`: no source to hash
        raise NoFingerprint(type(agent).__qualname__) from None
    h.update(b"custom:" + type(agent).__qualname__.encode() + code)
    for name, value in sorted(vars(agent).items()) if hasattr(agent, "__dict__") else ():
        if isinstance(value, torch.nn.Module):
            h.update(b"module:" + name.encode())
            _feed_weights(h, value)
        elif isinstance(value, torch.Tensor):
            h.update(b"tensor:" + name.encode() + value.detach().cpu().contiguous().numpy().tobytes())
        elif isinstance(value, np.ndarray):
            h.update(b"array:" + name.encode() + np.ascontiguousarray(value).tobytes())


def _feed_weights(h, net: torch.nn.Module | None) -> None:
    if net is None:
        h.update(b"none")
        return
    for name, tensor in sorted(net.state_dict().items()):
        h.update(name.encode() + tensor.detach().cpu().contiguous().numpy().tobytes())
