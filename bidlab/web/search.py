"""``GET /api/boards/{id}/search``: what a search bot (``bmcs:``/``mcs:``) did for one of its
calls — candidates with policy probabilities, rollout counts and mean scores, particles
sampled and kept, and the belief of each hidden hand (4 x 13 per hand) — as JSON for the
page to draw beside the call (issue 16; Qiu et al. 2024, Sec. V and App. D Alg. 3).

The search shown is the one that made the call, kept by the board when the bot called
(:meth:`bidlab.web.table.Session.search_result`), so asking costs nothing and shows what
the bot actually weighed.
"""

from __future__ import annotations

from bidlab.cards import Seat
from bidlab.web.table import NotASearchBotError, Session

__all__ = ["NotASearchBotError", "belief_grids", "search_explanation"]

SUITS = "SHDC"
RANKS = "AKQJT98765432"
RELATIVE = ((1, "LHO"), (2, "partner"), (3, "RHO"))


def belief_grids(belief, seat: int) -> list[dict]:
    """LHO, partner, RHO of ``seat``: each a 4 x 13 grid of P(the hand holds the card), rows
    S H D C, columns A .. 2 (``belief`` is ``[4, 52]`` by absolute seat, bidlab card order
    ``suit * 13 + rank`` with clubs 0 and the deuce 0; the searcher's row is its hand)."""
    own = [float(v) > 0.5 for v in belief[seat]]    # the searcher's row holds its own hand (0/1)
    out = []
    for rel, name in RELATIVE:
        s = (seat + rel) % 4
        # the searcher's own cards are known to be in no other hand, whatever the net outputs
        g = [[0.0 if own[suit * 13 + rank] else round(float(belief[s][suit * 13 + rank]), 4)
              for rank in range(12, -1, -1)] for suit in (3, 2, 1, 0)]
        out.append({"who": name, "seat": Seat(s).letter, "rows": list(SUITS), "columns": list(RANKS), "grid": g})
    return out


def search_explanation(board: Session, table: str, index: int) -> dict:
    """The JSON of call ``index`` of ``table`` (``"this"``/``"other"``) on ``board``."""
    r = board.search_result(table, index)     # checks table, index, a bot's call, a search bot
    seat, spec, call, _ = board._bot_call(table, index)
    out = r.as_dict()
    out.pop("belief")
    out.update(index=index, table=table, agent=spec, made=str(call), seat=seat.letter,
               beliefs=[] if r.belief is None else belief_grids(r.belief, r.seat))
    return out
