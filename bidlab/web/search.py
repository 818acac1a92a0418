"""``GET /api/boards/{id}/search``: what a search bot (``bmcs:``/``mcs:``) did for one of its
calls — candidates with policy probabilities, rollout counts and mean scores, particles
sampled and kept, and the belief of each hidden hand (4 x 13 per hand) — as JSON for the
page to draw beside the call. Additive: it reuses the board's "Why?" checks and its agents.
"""

from __future__ import annotations

from bidlab.agents.base import BiddingView
from bidlab.bridge.auction import Auction
from bidlab.cards import Seat
from bidlab.envs.state import views_state
from bidlab.search.agents import SearchAgent
from bidlab.web.table import WebError

SUITS = "SHDC"


class NotASearchBotError(WebError):
    status = 400


def belief_grids(belief, seat: int) -> list[dict]:
    """LHO, partner, RHO: each a 4 x 13 grid, rows S H D C, columns A .. 2."""
    out = []
    for rel, name in ((1, "LHO"), (2, "partner"), (3, "RHO")):
        s = (seat + rel) % 4
        g = [[round(float(belief[s][suit * 13 + rank]), 4) for rank in range(12, -1, -1)] for suit in (3, 2, 1, 0)]
        out.append({"who": name, "seat": Seat(s).letter, "rows": list(SUITS), "grid": g})
    return out


def search_explanation(board, table: str, index: int) -> dict:
    why = board.why(table, index)          # checks table, index and that a bot made the call
    spec = board._resolved[why.agent]
    auction = board.auction if table == "this" else board.other_auction

    def run(agent):
        if not isinstance(agent, SearchAgent):
            raise NotASearchBotError(f"call {index} was made by {why.agent}, not a search bot (bmcs:/mcs:)")
        view = BiddingView(why.seat, board.board.deal[why.seat], Auction(auction.dealer, auction.calls[:index]),
                           board.board.vulnerability)
        return agent.search(views_state([view]))

    r = board._pool.explain(spec, run)
    out = r.as_dict()
    out.pop("belief")
    out.update(index=index, table=table, agent=why.agent, made=str(why.call),
               beliefs=[] if r.belief is None else belief_grids(r.belief, r.seat))
    return out
