"""Which agents a browser may seat, and how a request names them without naming files.

Any registry spec works at a seat (``random``, ``random:SEED``, ``sayc``, ``nn:...``), with one
restriction that keeps a local server from reading arbitrary files for whoever can reach it:
a spec whose argument is a model (``nn:PATH[:greedy|sample]`` and any other kind that loads
a file) must name a model found in one of the server's model folders, either by the name
``/api/agents`` lists or by a path inside such a folder.

A team ``A+B`` (a mixed partnership, :mod:`bidlab.agents.team`) is accepted wherever one
agent is, each member checked as above: at a seat, the team's member for that seat bids
(A North or East, B South or West), so the same team chosen for both seats of a partnership
seats the whole pair, e.g. the opponents ``sayc+nn:rl``.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import bidlab.search  # noqa: F401  (registers the bmcs: and mcs: agent kinds)
from bidlab.agents.base import Agent
from bidlab.agents.registry import (
    PEEKING_KINDS,
    TEAM_SEPARATOR,
    AgentSpecError,
    known_kinds,
    make_agent,
    refuse_peeking,
    team_members,
)
from bidlab.agents.specs import split_neural_spec

#: Spec kinds whose argument is not a file; any other kind's argument must be a model file.
PLAIN_KINDS = frozenset({"random", "sayc"})
#: Kinds that cannot do without a model.
MODEL_KINDS = frozenset({"nn", "bmcs", "mcs", "jps"})
#: Kinds that take search options after the model (``bmcs:sl?k=4&rmax=1500``, ``jps:rl?samples=20``);
#: options that name files (``belief=``, ``tricks=``) are refused, so a request can only use shipped nets.
OPTION_KINDS = frozenset({"bmcs", "mcs", "jps"})
#: Kinds whose "Why?" shows the search that made the call (candidates, particles, beliefs).
SEARCH_KINDS = frozenset({"bmcs", "mcs"})
#: Kinds that search over a neural policy at every call: what their calls mean is read with
#: the policy (bidlab.search.meaning), which the search follows.
POLICY_SEARCH_KINDS = frozenset({"bmcs", "mcs", "jps"})
FILE_OPTIONS = ("belief=", "tricks=", "opponents=")   # opponents= names an agent, and through it a file
#: What a request writes at a seat for a person (never an agent, so never a team member).
YOU_SPEC = "you"
#: The model whose policy is a person's default partner once it is shipped (issue 29).
PARTNER_MODEL = "partner"
MODE_SUFFIXES = (":greedy", ":sample")
MODEL_SUFFIX = ".safetensors"
MAX_MODELS = 200


def shipped_models_dir() -> Path:
    """``bidlab/models``: the models installed with the package (may not exist)."""
    return Path(str(resources.files("bidlab"))) / "models"


@dataclass(frozen=True, slots=True)
class ModelFile:
    name: str    # what a request may write after "nn:": the path in its folder without ".safetensors", e.g. "sl"
    path: Path   # resolved absolute path

    @property
    def kind(self) -> str | None:
        """The net's kind from its config (``policy``, ``belief``, ``tricks``, ...); None if unreadable."""
        return model_kind(self.path)


def model_kind(weights: Path) -> str | None:
    """The kind a model file's config names, read from ``NAME.json`` or else the safetensors
    header, without loading the weights. Only ``policy`` nets bid (``nn:``); a ``belief`` or
    ``tricks`` net is a search's helper."""
    import json

    meta = None
    try:
        meta = json.loads(weights.with_suffix(".json").read_text())
    except (OSError, ValueError):
        try:
            from safetensors import safe_open

            with safe_open(str(weights), framework="pt") as f:
                meta = json.loads((f.metadata() or {}).get("bidlab", "null"))
        except Exception:  # a foreign or damaged file: no kind, so not offered as a bidder
            return None
    if not isinstance(meta, dict):
        return None
    net = meta.get("net") if isinstance(meta.get("net"), dict) else {}
    kind = net.get("kind") or meta.get("kind")
    return str(kind) if kind else None


class AgentCatalog:
    """The agent specs a server accepts, with model references resolved to files."""

    def __init__(self, model_dirs: list[str | os.PathLike] | None = None):
        dirs = [shipped_models_dir()] if model_dirs is None else [Path(d) for d in model_dirs]
        self.model_dirs = tuple(d.resolve() for d in dirs)

    def models(self) -> list[ModelFile]:
        """Model files in the model folders, by name (the first folder wins a clash)."""
        found: dict[str, ModelFile] = {}
        shipped = shipped_models_dir().resolve()
        for root in self.model_dirs:
            if not root.is_dir():
                continue
            for p in sorted(root.rglob(f"*{MODEL_SUFFIX}"))[:MAX_MODELS]:
                rp = p.resolve()
                if rp.is_file() and rp.is_relative_to(root):
                    name = p.relative_to(root).as_posix().removesuffix(MODEL_SUFFIX)
                    if root == shipped and name.startswith("history/"):
                        continue  # earlier generations (nn:rl@8750) are for ratings, not the seat chooser
                    found.setdefault(name, ModelFile(name, rp))
        return list(found.values())

    def policies(self) -> list[ModelFile]:
        """The model files that can bid: policy nets (not the search's belief and tricks nets)."""
        return [m for m in self.models() if m.kind == "policy"]

    def suggestions(self) -> list[str]:
        """Specs to offer in a seat chooser."""
        out = ["sayc", "random"]
        search_nets = ("belief", "tricks")   # the search's own nets, not policies
        policies = [m.name for m in self.policies()]
        out += [f"nn:{name}" for name in policies]
        if set(search_nets) <= {m.name for m in self.models()}:
            out += [f"{kind}:{name}" for name in policies for kind in ("bmcs", "mcs")]
        # mixed partnerships: SAYC North/East with a net South/West (chosen for both seats of a side)
        out += [f"sayc{TEAM_SEPARATOR}nn:{name}" for name in policies if "/" not in name]
        return out

    def default_partner(self) -> str:
        """The person's partner on a new page: ``nn:partner`` when a policy named ``partner``
        is in the model folders (a policy trained to partner a SAYC player), else ``sayc``."""
        return f"nn:{PARTNER_MODEL}" if any(m.name == PARTNER_MODEL for m in self.policies()) else "sayc"

    def kinds(self) -> list[tuple[str, str]]:
        """The kinds a seat may hold (peeking diagnostics such as ``oracle-punish`` are not offered)."""
        return [(k.prefix, k.summary) for k in known_kinds() if k.prefix not in PEEKING_KINDS]

    def resolve(self, spec: str) -> str:
        """The registry spec to build for a requested one; raises :class:`AgentSpecError`.
        A team ``A+B`` resolves member by member. A peeking diagnostic (``oracle-punish:``)
        is refused by name: it is never a player."""
        refuse_peeking(spec, "the web app")
        members = team_members(spec)
        if members is not None:
            if YOU_SPEC in (m.lower() for m in members):
                raise AgentSpecError(f"team {spec.strip()!r}: a team's members are agents; to bid a seat "
                                     "yourself choose 'you' at that seat")
            resolved = []
            for m in members:
                try:
                    resolved.append(self.resolve(m))
                except AgentSpecError as e:
                    raise AgentSpecError(f"{e} (member {m!r} of team {spec.strip()!r})") from None
            return TEAM_SEPARATOR.join(resolved)
        s = spec.strip()
        prefix, colon, arg = s.partition(":")
        prefix = prefix.lower()
        kinds = {k.prefix for k in known_kinds()}
        if prefix not in kinds:
            raise AgentSpecError(f"unknown agent {spec!r}; known kinds: {', '.join(sorted(kinds))}, or 'you'")
        if prefix in PLAIN_KINDS:
            return s
        if prefix == "punish":   # the wrapped agent resolves as any seat's; the judge is the shipped one
            from bidlab.search.punish import split_options

            base, opts = split_options(arg, ("threshold", "judge"))
            if "judge" in opts:
                raise AgentSpecError("punish options may not name files (judge=) on the web")
            inner = self.resolve(base)
            extra = "" if "threshold" not in opts else ("&" if "?" in inner else "?") + f"threshold={opts['threshold']}"
            return f"punish:{inner}{extra}"
        options = ""
        if prefix in OPTION_KINDS:
            arg, q, options = arg.partition("?")
            if any(o.strip().lower().startswith(FILE_OPTIONS) for o in options.split("&")):
                raise AgentSpecError(f"{prefix} options may not name files ({', '.join(FILE_OPTIONS)}) on the web")
            options = q + options
        mode = ""
        if prefix == "nn":
            arg, m = split_neural_spec(arg)
            mode = "" if m is None else f":{m}"
        else:
            for suffix in MODE_SUFFIXES:
                if arg.endswith(suffix):
                    arg, mode = arg[: -len(suffix)], suffix
        if not arg:
            if prefix in MODEL_KINDS:
                raise AgentSpecError(f"{prefix} needs a model, e.g. {prefix}:NAME; available: {self._model_names()}")
            return s  # a kind without an argument names no file
        return f"{prefix}:{self._model_path(arg)}{mode}{options}"

    def _model_names(self) -> str:
        """The bidding models (policies) a spec may name; the search's belief and trick nets bid nothing."""
        names = [m.name for m in self.policies()]
        return ", ".join(names) if names else "none (no policy models in the server's model folders)"

    def _model_path(self, ref: str) -> Path:
        for m in self.models():
            if ref in (m.name, m.name + MODEL_SUFFIX):
                return m.path
        try:
            p = Path(ref).resolve()
        except (OSError, RuntimeError, ValueError):
            p = None
        if p is not None and p.is_file() and any(p.is_relative_to(d) for d in self.model_dirs):
            return p
        raise AgentSpecError(f"unknown model {ref!r}; available: {self._model_names()}")


class AgentPool:
    """Agents shared by all boards, so that a model is loaded once, not once per board.

    Deterministic agents (``sayc``, greedy ``nn``) are used as they are by every board.
    Agents that draw random numbers get one instance per board from the board's seed, so a
    seeded board repeats: ``random`` is built anew (it is cheap), a sampling ``nn`` gets a
    new agent around the shared network. "Why?" is answered by the shared instance, so that
    explaining never moves a board's own random generator.
    """

    def __init__(self, size: int = 8):
        self.size = size
        self._agents: OrderedDict[str, Agent] = OrderedDict()
        self._lock = threading.Lock()

    def shared(self, spec: str) -> Agent:
        with self._lock:
            agent = self._agents.pop(spec, None)
            if agent is None:
                agent = build_agent(spec, seed=0)
            self._agents[spec] = agent
            while len(self._agents) > self.size:
                self._agents.popitem(last=False)
            return agent

    def for_board(self, spec: str, seed: int) -> Agent:
        kind = spec.partition(":")[0].lower()
        if kind == "random":
            return build_agent(spec, seed)
        agent = self.shared(spec)
        if kind == "nn" and getattr(agent, "mode", "greedy") == "sample":
            from bidlab.agents.neural import NeuralAgent

            if isinstance(agent, NeuralAgent):
                own = NeuralAgent(agent.net, agent.meta, mode="sample", seed=seed, device=agent.device)
                own.name = agent.name
                return own
        return agent

    def explain(self, spec: str, fn):
        """``fn(agent)`` with the shared agent, one explanation at a time."""
        agent = self.shared(spec)
        with self._lock:
            return fn(agent)


def build_agent(spec: str, seed: int) -> Agent:
    """``make_agent`` with any failure to load reported as a bad spec, not a crash (and a
    peeking diagnostic refused by name)."""
    refuse_peeking(spec, "the web app")
    try:
        return make_agent(spec, seed)
    except AgentSpecError:
        raise
    except Exception as e:  # a model file that does not load is the request's problem to hear about
        raise AgentSpecError(f"cannot load agent {spec!r}: {type(e).__name__}: {e}") from None
