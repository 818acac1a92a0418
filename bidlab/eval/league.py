"""A league: every pairing of a panel of agents as a duplicate match, then one rating each.

Each pairing is an ordinary :class:`~bidlab.eval.match.Match` in the folder ``bidlab match``
would use by default (:func:`~bidlab.eval.match.match_folder`), so a league reuses the
matches played before, by ``bidlab match`` or by an earlier league, and resumes an
interrupted one. A pairing A-B stored as B-A (same deals, same settings) is reused with
its sign flipped. Search agents (``bmcs:``, ``mcs:``, ``jps:``) are slow, so their
pairings may play fewer boards; their larger SE then weighs them less in the fit.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bidlab.agents.registry import peeking_members
from bidlab.errors import BidlabError
from bidlab.eval.fingerprint import agent_fingerprint
from bidlab.eval.match import (  # noqa: F401  (SEARCH_KINDS, is_search_agent: re-exported for the CLI)
    SEARCH_KINDS,
    Match,
    MatchConfig,
    MatchSummary,
    changed_agents,
    describe_config,
    is_search_agent,
    match_folder,
    summarize,
)
from bidlab.eval.ratings import PairResult


class LeagueError(BidlabError):
    """A league cannot run as asked."""


@dataclass(frozen=True)
class Pairing:
    """One pairing of the league: the match played (or stored) for it, and where."""

    agent_a: str            # the league's order: A is listed before B
    agent_b: str
    config: MatchConfig     # the match as stored; A-B, or B-A when ``flipped``
    folder: Path
    flipped: bool           # the stored match is B vs A: its IMPs are B's

    def stored_boards(self) -> int:
        """Boards already played in the folder (0 for a match not started)."""
        if not (self.folder / "match.json").exists():
            return 0
        return Match(self.config, self.folder).boards_done()


def _stored_header(folder: Path) -> dict | None:
    path = folder / "match.json"
    if not path.exists():
        return None
    try:
        header = json.loads(path.read_text())
        if not isinstance(header, dict):
            raise AttributeError("not a JSON object")
        return header
    except (OSError, json.JSONDecodeError, AttributeError) as e:
        raise LeagueError(f"{path} is not a bidlab match file ({e}); move it aside") from None


def plan_league(agents: Sequence[str], boards: int, search_boards: int, *, split: str = "test", seed: int = 0,
                store: str | None = None, chunk_size: int = 50,
                root: str | os.PathLike = "results") -> list[Pairing]:
    """Every pairing of ``agents`` (each unordered pair once), with the folder of its match:
    a stored A-B, else a stored B-A (flipped), else a new A-B. Creates nothing; a folder
    that holds another match under the expected name is an error now, not half-way."""
    if len(agents) < 2:
        raise LeagueError(f"a league needs at least 2 agents, got {len(agents)}")
    for a in agents:
        if peeking_members(a):
            raise LeagueError(f"{peeking_members(a)[0]!r} cannot sit in a league's ratings: it looks at the hidden "
                              "hands (a diagnostic for `bidlab match` only, never a player)")
    twice = sorted({a for a in agents if list(agents).count(a) > 1})
    if twice:
        raise LeagueError(f"agent {twice[0]!r} is listed twice; list each agent once")
    fingerprints = {a: agent_fingerprint(a) for a in agents}
    out = []
    for i, a in enumerate(agents):
        for b in agents[i + 1:]:
            n = min(search_boards, boards) if is_search_agent(a) or is_search_agent(b) else boards
            forward = MatchConfig(a, b, split, n, seed, store, chunk_size)
            backward = MatchConfig(b, a, split, n, seed, store, chunk_size)
            chosen = None
            for cfg, flipped in ((forward, False), (backward, True)):
                folder = match_folder(cfg, root)
                header = _stored_header(folder)
                if header is None:
                    continue
                old = header.get("config")
                if old != cfg.to_json():
                    raise LeagueError(f"{folder} holds a different match ({describe_config(old)}); move it aside, or rerun "
                                      "the league with the settings it was played with")
                changed = changed_agents(header, cfg, {"a": fingerprints[cfg.agent_a],
                                                       "b": fingerprints[cfg.agent_b]})
                if changed:
                    raise LeagueError(f"{folder} holds games of an earlier {changed[0]!r}: the agent has changed "
                                      "since (other weights or rules); move the folder aside to replay it")
                chosen = Pairing(a, b, cfg, folder, flipped)
                break
            if chosen is None and match_folder(forward, root).exists() and any(match_folder(forward, root).iterdir()):
                raise LeagueError(f"{match_folder(forward, root)} is not empty and holds no match.json; move it aside")
            out.append(chosen or Pairing(a, b, forward, match_folder(forward, root), False))
    return out


@dataclass(frozen=True)
class PairingResult:
    pairing: Pairing
    summary: MatchSummary   # as stored (B's IMPs when the pairing is flipped)
    reused: bool            # every board came from an earlier run

    def result(self) -> PairResult:
        s = self.summary
        r = PairResult(s.agent_a, s.agent_b, s.imps_per_board, s.standard_error, s.boards)
        return r.flipped() if self.pairing.flipped else r


def play_pairing(pairing: Pairing, *, workers: int = 2, executor=None,
                 progress: Callable[[int, int], None] | None = None,
                 note: Callable[[str], None] | None = None) -> PairingResult:
    """Play the pairing's missing boards; a finished match is only read back (its files
    are not rewritten)."""
    m = Match(pairing.config, pairing.folder)
    if not m.pending() and (pairing.folder / "results.jsonl").exists():
        if progress:
            progress(pairing.config.boards, pairing.config.boards)
        return PairingResult(pairing, summarize(m.records(), pairing.config.agent_a, pairing.config.agent_b), True)
    reused = not m.pending()
    summary = m.run(workers=workers, progress=progress, executor=executor, note=note)
    return PairingResult(pairing, summary, reused)
