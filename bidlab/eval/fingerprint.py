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
- a rule-based agent: the source files of the package its class lives in (the SAYC rules).
"""

from __future__ import annotations

import hashlib
import inspect
from pathlib import Path

import torch

from bidlab.agents.neural import NeuralAgent
from bidlab.agents.registry import make_agent
from bidlab.agents.team import TeamPolicy
from bidlab.search.agents import SearchAgent


def agent_fingerprint(spec: str) -> str:
    """A 16-hex-digit hash of what the agent ``spec`` names now (see the module docstring)."""
    h = hashlib.sha256()
    _feed(h, make_agent(spec, seed=0))
    return h.hexdigest()[:16]


def _feed(h, agent) -> None:
    if isinstance(agent, TeamPolicy):
        for member in agent.members:
            h.update(b"member:")
            _feed(h, member)
    elif isinstance(agent, SearchAgent):
        searcher = agent.searcher
        h.update(b"search:")
        _feed(h, searcher.policy)
        for net in (searcher.belief_net, searcher.trick_net):
            _feed_weights(h, net)
    elif isinstance(agent, NeuralAgent):
        h.update(b"nn:" + agent.mode.encode())
        _feed_weights(h, agent.net)
        if agent.sayc_margin is not None:  # anchored to SAYC at play time: the rules bid too
            h.update(f"sayc_margin:{agent.sayc_margin!r}".encode())
            _feed(h, agent.sayc)
    else:
        # rules: the calls are a function of the code of the bidder's package
        source = Path(inspect.getfile(type(agent)))
        h.update(b"code:" + type(agent).__qualname__.encode())
        for path in sorted(source.parent.glob("*.py")):
            h.update(path.name.encode() + path.read_bytes())


def _feed_weights(h, net: torch.nn.Module | None) -> None:
    if net is None:
        h.update(b"none")
        return
    for name, tensor in sorted(net.state_dict().items()):
        h.update(name.encode() + tensor.detach().cpu().contiguous().numpy().tobytes())
