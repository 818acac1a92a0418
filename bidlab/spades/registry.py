"""Bidders and playing modules by name: the spec strings of the tournament CLI and the web app.

This module sits above :mod:`~bidlab.spades.bidders`, :mod:`~bidlab.spades.bis`,
:mod:`~bidlab.spades.players` and :mod:`~bidlab.spades.ismcts` and imports all of them, so
none of those needs to import another to build a player or bidder by name (the search
player uses SRP for the early tricks of UCT(X); the registry is what knows every module).

Bidder specs: ``io``, ``ms``, ``rb`` (``rb-v1``: its first reconstruction), ``bis`` and the BIS ablations ``bis-nonil``,
``bis-noend``, ``bis-noconv``, ``bis-1curve``, ``bis-threshold`` (Table 4; see
:data:`BIS_VARIANTS`). Player specs: ``wrp``, ``srp``, ``ismcts[:N|:Ts]``, ``uct<X>[:N|:Ts]``,
``ismcts-random[:N]``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bidlab.spades.bidders import Bidder, IOBidder, MSBidder, RBBidder
from bidlab.spades.bis import BISBidder, BISConfig
from bidlab.spades.errors import SpadesError, TournamentError
from bidlab.spades.ismcts import ISMCTSConfig, ISMCTSPlayer
from bidlab.spades.players import Player, StrongRulePlayer, WeakRulePlayer

#: BIS with one component disabled or changed (Sec. 5.3, Table 4).
BIS_VARIANTS: dict[str, dict] = {
    "bis": {},
    "bis-nonil": {"nil": False},
    "bis-noend": {"end_game": False},
    "bis-noconv": {"conventions": False},
    "bis-1curve": {"single_curve": True},
    "bis-threshold": {"bid_sensitive_threshold": True},
}

_BIDDERS: dict[str, Callable[[int], Bidder]] = {
    "io": lambda seed: IOBidder(),
    "ms": lambda seed: MSBidder(),
    "rb": lambda seed: RBBidder(),
    "rb-v1": lambda seed: RBBidder(values=None),  # the first reconstruction, for comparison
    **{f"rb@{a}": (lambda seed, a=a: RBBidder(scale=a / 100)) for a in range(50, 101, 5)},
}
for _name, _changes in BIS_VARIANTS.items():
    _BIDDERS[_name] = lambda seed, _n=_name, _c=_changes: BISBidder(replace(BISConfig(), **_c), name=_n)

_PLAYERS: dict[str, Callable[[int], Player]] = {
    "wrp": lambda seed: WeakRulePlayer(),
    "srp": lambda seed: StrongRulePlayer(),
}


def register_bidder(name: str, factory: Callable[[int], Bidder]) -> None:
    """Make ``name`` available to :func:`make_bidder` (and the tournament CLI); ``factory(seed)``."""
    _BIDDERS[name.lower()] = factory


def register_player(name: str, factory: Callable[[int], Player]) -> None:
    _PLAYERS[name.lower()] = factory


def bidder_names() -> list[str]:
    return sorted(_BIDDERS)


def player_names() -> list[str]:
    return sorted(_PLAYERS)


def make_bidder(name: str, seed: int = 0) -> Bidder:
    try:
        factory = _BIDDERS[name.strip().lower()]
    except KeyError:
        raise TournamentError(f"unknown bidder {name!r}; known: {', '.join(bidder_names())}") from None
    return factory(seed)


def make_player(spec: str, seed: int = 0) -> Player:
    """A player from its spec: ``wrp``, ``srp``, ``ismcts[:iterations]``, ``uct<X>[:iterations]``."""
    name = spec.strip().lower()
    base, _, arg = name.partition(":")
    if base in _PLAYERS and not arg:
        return _PLAYERS[base](seed)
    return make_search_player(spec, seed)


def make_search_player(spec: str, seed: int = 0) -> ISMCTSPlayer:
    """``ismcts``, ``ismcts:500`` (iterations), ``ismcts:2s`` (time), ``uct5``, ``uct5:300``,
    ``ismcts-random:200`` (random rollouts), ``uct3-srp`` (SRP rollouts), ``ismcts-srp-anchor``
    (SRP's card unless the search beats it by 2 standard errors)."""
    name = spec.strip().lower()
    base, _, arg = name.partition(":")
    rollout = "greedy"
    anchor = None
    if base.endswith("-anchor"):
        base, anchor = base[: -len("-anchor")], 2.0
    for kind in ("random", "srp"):
        if base.endswith(f"-{kind}"):
            base, rollout = base[: -len(kind) - 1], kind
    cfg = replace(ISMCTSConfig.cpu(), rollout=rollout, anchor=anchor)
    if base == "ismcts":
        pass
    elif base.startswith("uct") and base[3:].isdigit():
        try:
            cfg = replace(cfg, uct_tricks=int(base[3:]))
        except SpadesError as e:
            raise TournamentError(f"player {spec!r}: {e}") from None
    else:
        known = "wrp, srp, ismcts[:N|:Ts], uct<X>[:N|:Ts]"
        raise TournamentError(f"unknown player {spec!r}; known: {known}")
    if arg:
        try:
            if arg.endswith("s"):
                cfg = replace(cfg, time_limit=float(arg[:-1]))
            else:
                cfg = replace(cfg, iterations=int(arg))
        except ValueError:
            raise TournamentError(f"bad budget {arg!r} in player {spec!r} (use e.g. :200 or :1.5s)") from None
        except SpadesError as e:
            raise TournamentError(f"player {spec!r}: {e}") from None
    try:
        return ISMCTSPlayer(cfg, seed)
    except SpadesError as e:
        raise TournamentError(f"player {spec!r}: {e}") from None
