"""The Spades table of the web app: a person at South bids and plays with a BIS partner
(North) against two bots (East, West), and sees why BIS bid what it bid (Cohensius et al.
2020, Alg. 1; the explanation is :meth:`bidlab.spades.bis.BidDecision.explain`).

Bots act as soon as it is their turn, so every response leaves the table waiting for the
person (a bid, a card, or "next round") or at the end of the game. The partner bids BIS
without the Big-5/Big-6 conventions (App. G.2), which a person cannot be assumed to know.

    GET  /spades                            the page
    POST /api/spades/tables                 {bots, player, goal, seed} -> a new game
    GET  /api/spades/tables/{id}            the state
    POST /api/spades/tables/{id}/bid        {bid: 0..13 | "nil"}
    POST /api/spades/tables/{id}/play       {card: "SA"}
    POST /api/spades/tables/{id}/next       deal the next round
"""

from __future__ import annotations

import random
import secrets
import textwrap
import threading
from collections import OrderedDict
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, Body
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from bidlab.cards import Card
from bidlab.errors import BidlabError, CardError
from bidlab.spades.bidders import BidView
from bidlab.spades.bis import BidDecision, BISBidder, BISConfig
from bidlab.spades.engine import RoundState, card_str, mask_cards
from bidlab.spades.errors import SpadesError
from bidlab.spades.game import deal_hands
from bidlab.spades.registry import make_bidder, make_player
from bidlab.spades.rules import Rules, game_winner
from bidlab.web.models import ErrorOut

STATIC = Path(str(resources.files("bidlab"))) / "web" / "static"
SOUTH, NORTH = 2, 0
SEATS = "NESW"
TABLE_ID = r"^[0-9a-f]{16}$"


class SpadesWebError(BidlabError):
    """A request the Spades table cannot honour; ``status`` is the HTTP code."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


class NewGameIn(BaseModel):
    bots: Literal["rb", "ms", "io", "bis"] = Field("rb", description="Bidder of East and West.")
    # Search players only with their small default budget: a request must not buy minutes of CPU.
    player: Literal["srp", "wrp", "uct3-srp-anchor"] = Field("srp", description="Playing module of the three bots.")
    goal: int = Field(200, ge=10, le=1000, description="Winning goal (the paper's tournaments: 200).")
    seed: int | None = Field(None, ge=0, le=2**62, description="Seed of the deals (random if omitted).")


class BidIn(BaseModel):
    bid: int | str = Field(..., description="0..13, or 'nil'.")


class CardIn(BaseModel):
    card: str = Field(..., max_length=8, description="A card like SA, H10, 7C.")


class PlayedCardOut(BaseModel):
    seat: str
    card: str


class RoundOut(BaseModel):
    dealer: str
    bids: list[int] = Field(description="N, E, S, W; 0 is nil.")
    tricks: list[int]
    points: list[int] = Field(description="North-South, East-West.")
    scores: list[int]


class SpadesGameOut(BaseModel):
    id: str
    phase: Literal["bidding", "play", "round_over", "over"]
    dealer: str
    scores: dict[str, int]
    bags: dict[str, int]
    goal: int
    lose: int = Field(description="The losing limit: a side whose score falls to it ends the game.")
    end_reason: str | None = Field(description="Why the game ended (None while it goes on).")
    hand: list[str] = Field(description="Your (South's) cards.")
    bids: dict[str, int | None]
    bid_order: list[str]
    your_turn_to_bid: bool
    to_play: str | None
    legal: list[str] = Field(description="The cards you may play now.")
    trick: list[PlayedCardOut]
    last_trick: list[PlayedCardOut]
    tricks: dict[str, int]
    partner_explanation: str = Field(description="Why BIS (North) bid what it bid (Alg. 1, step by step).")
    rounds: list[RoundOut]
    winner: str | None
    players: dict[str, str]


ERRORS = {code: {"model": ErrorOut} for code in (400, 404, 409, 413, 422)}


class SpadesGame:
    """One game: rounds of bidding and play, with South waiting on the person."""

    def __init__(self, bots: str, player: str, goal: int, seed: int | None):
        self.rules = Rules.paper().with_options(win_goal=goal)
        self.rng = random.Random(seed)
        self.partner = BISBidder(BISConfig(conventions=False), name="bis")
        self.bidders = {1: make_bidder(bots), 3: make_bidder(bots), NORTH: self.partner}
        self.players = {s: make_player(player, self.rng.getrandbits(32)) for s in (0, 1, 3)}
        self.names = {"bots": bots, "player": player}
        self.scores = (0, 0)
        self.bags = (0, 0)
        self.dealer = self.rng.randrange(4)
        self.rounds: list[dict] = []
        self.lock = threading.Lock()
        self.winner: int | None = None
        self._new_round()

    # -- flow ------------------------------------------------------------------------------
    def _new_round(self) -> None:
        self.hands = deal_hands(self.rng)
        self.bids: list[int | None] = [None] * 4
        self.order: list[int] = []
        self.explanations: dict[int, BidDecision] = {}
        self.state: RoundState | None = None
        self.phase = "bidding"
        self.last_trick: list[tuple[int, int]] = []
        self._advance()

    def _view(self, seat: int, hand: int) -> BidView:
        side = seat & 1
        prev = tuple(self.bids[s] for s in self.order)  # type: ignore[misc]
        return BidView(seat=seat, hand=hand, dealer=self.dealer, prev_bids=prev, prev_blind=(False,) * len(prev),
                       rules=self.rules, our_score=self.scores[side], their_score=self.scores[1 - side],
                       our_bags=self.bags[side], their_bags=self.bags[1 - side])  # fmt: skip

    def _bidder_to_act(self) -> int:
        return (self.dealer + 1 + len(self.order)) % 4

    def _advance(self) -> None:
        """Let the bots act until the person must (or the round is over)."""
        while self.phase == "bidding":
            seat = self._bidder_to_act()
            if seat == SOUTH:
                return
            view = self._view(seat, self.hands[seat])
            if seat == NORTH:
                d = self.partner.decide(view)
                self.explanations[seat] = d
                bid = d.bid
            else:
                bid = self.bidders[seat].bid(view)
            self._record_bid(seat, bid)
        while self.phase == "play":
            s = self.state
            assert s is not None
            if s.to_play == SOUTH:
                return
            legal = s.legal_mask()
            if legal & (legal - 1) == 0:
                card = legal.bit_length() - 1
            else:
                card = self.players[s.to_play].play(s.view(s.to_play, self.scores, self.bags))
            self._play(card)

    def _record_bid(self, seat: int, bid: int) -> None:
        self.bids[seat] = bid
        self.order.append(seat)
        if len(self.order) == 4:
            self.state = RoundState(self.rules, list(self.hands), self.dealer, tuple(self.bids))  # type: ignore[arg-type]
            self.phase = "play"

    def _play(self, card: int) -> None:
        s = self.state
        assert s is not None
        seat = s.to_play
        before = len(s.trick)
        s.play(card)
        if before == 3:
            lead = s.leaders[-1]
            cards = s.plays[-4:]
            self.last_trick = [((lead + i) % 4, c) for i, c in enumerate(cards)]
        del seat
        if s.is_over:
            self._finish_round()

    def _finish_round(self) -> None:
        s = self.state
        assert s is not None
        ns, ew = s.score(self.bags)
        self.scores = (self.scores[0] + ns.points, self.scores[1] + ew.points)
        self.bags = (ns.bags, ew.bags)
        self.rounds.append({"dealer": SEATS[self.dealer], "bids": list(s.bids), "tricks": list(s.tricks),
                            "points": [ns.points, ew.points], "scores": list(self.scores)})  # fmt: skip
        self.winner = game_winner(self.rules, self.scores, len(self.rounds))
        self.phase = "over" if self.winner is not None else "round_over"

    # -- the person's moves -------------------------------------------------------------------
    def bid(self, value: int | str) -> None:
        if self.phase != "bidding" or self._bidder_to_act() != SOUTH:
            raise SpadesWebError("it is not your turn to bid", 409)
        if isinstance(value, str):
            v = value.strip().lower()
            if v == "nil":
                value = 0
            elif v.isdigit():
                value = int(v)
            else:
                raise SpadesWebError(f"{value!r} is not a bid; bid 0..13 or 'nil'")
        if not 0 <= value <= 13:
            raise SpadesWebError(f"a bid is 0..13, got {value}")
        self._record_bid(SOUTH, value)
        self._advance()

    def play(self, text: str) -> None:
        s = self.state
        if self.phase != "play" or s is None or s.to_play != SOUTH:
            raise SpadesWebError("it is not your turn to play", 409)
        try:
            card = Card.parse(text).index
        except CardError as e:
            raise SpadesWebError(str(e)) from None
        if not s.hands[SOUTH] >> card & 1:
            raise SpadesWebError(f"you do not hold {card_str(card)}", 409)
        if not s.legal_mask() >> card & 1:
            raise SpadesWebError(f"{card_str(card)} is not legal here (follow suit; spades must be broken)", 409)
        self._play(card)
        self._advance()

    def next_round(self) -> None:
        if self.phase != "round_over":
            raise SpadesWebError("the round is not over" if self.phase != "over" else "the game is over", 409)
        self.dealer = (self.dealer + 1) % 4
        self._new_round()

    # -- what the person sees -----------------------------------------------------------------
    def _end_reason(self) -> str | None:
        """Why the game ended, in words: the goal reached, the losing limit reached, or the last round."""
        if self.phase != "over":
            return None
        r = self.rules
        names = ("North-South", "East-West")
        parts = [f"{names[i]} reached the goal {r.win_goal} with {_pts(s)}" for i, s in enumerate(self.scores)
                 if s >= r.win_goal]
        parts += [f"{names[i]} fell to {_pts(s)}, at or below the losing limit {_pts(r.lose_goal)}"
                  for i, s in enumerate(self.scores) if s <= r.lose_goal]
        if not parts:
            parts.append(f"the game's {len(self.rounds)} rounds are played (the most it has)")
        high = "a draw" if self.winner == -1 else f"{names[self.winner]} win with the higher score"
        return f"{'; '.join(parts)}: {high}."

    def _partner_explanation(self) -> str:
        """BIS's reasons: in full once the round is over; before, without partner's cards."""
        d = self.explanations.get(NORTH)
        if d is None:
            return ""
        return narrow(d.explain() if self.phase in ("round_over", "over") else public_explanation(d))

    def to_json(self, table_id: str) -> dict:
        s = self.state
        hand = s.hands[SOUTH] if s is not None else self.hands[SOUTH]
        legal = mask_cards(s.legal_mask()) if s is not None and self.phase == "play" and s.to_play == SOUTH else []
        trick = []
        if s is not None and s.trick:
            trick = [{"seat": SEATS[(s.leader + i) % 4], "card": card_str(c)} for i, c in enumerate(s.trick)]
        out = {
            "id": table_id,
            "phase": self.phase,
            "dealer": SEATS[self.dealer],
            "scores": {"NS": self.scores[0], "EW": self.scores[1]},
            "bags": {"NS": self.bags[0], "EW": self.bags[1]},
            "goal": self.rules.win_goal,
            "lose": self.rules.lose_goal,
            "end_reason": self._end_reason(),
            "hand": [card_str(c) for c in sorted(mask_cards(hand), key=lambda c: (-(c // 13), -(c % 13)))],
            "bids": {SEATS[i]: self.bids[i] for i in range(4)},
            "bid_order": [SEATS[i] for i in self.order],
            "your_turn_to_bid": self.phase == "bidding" and self._bidder_to_act() == SOUTH,
            "to_play": SEATS[s.to_play] if s is not None and self.phase == "play" else None,
            "legal": [card_str(c) for c in legal],
            "trick": trick,
            "last_trick": [{"seat": SEATS[p], "card": card_str(c)} for p, c in self.last_trick],
            "tricks": {SEATS[i]: (s.tricks[i] if s is not None else 0) for i in range(4)},
            "partner_explanation": self._partner_explanation(),
            "rounds": self.rounds,
            "winner": None if self.winner is None else {0: "NS", 1: "EW", -1: "draw"}[self.winner],
            "players": self.names,
        }
        return out


def _pts(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


#: The explanation is a column-aligned table, never wrapped by the page: lines longer than
#: this are broken here, so that a phone (390 px) shows every line whole without scrolling.
EXPLANATION_WIDTH = 44


def narrow(text: str, width: int = EXPLANATION_WIDTH) -> str:
    """``text`` with each line longer than ``width`` broken at spaces, the rest indented."""
    out = []
    for line in text.splitlines():
        if len(line) <= width:
            out.append(line)
            continue
        lead = " " * (len(line) - len(line.lstrip()))
        out += textwrap.wrap(line, width, initial_indent=lead, subsequent_indent=lead + "  ",
                             break_long_words=True, break_on_hyphens=False)
    return "\n".join(out)


def public_explanation(d: BidDecision) -> str:
    """Why BIS bid what it bid, without a card of its hand: the sums of Alg. 1, not the
    card-by-card takes or the nil holdings (those name partner's cards; they are shown once
    the round is over)."""
    if d.blind:
        return "(the reasons name partner's cards: shown once the round is over)\nbid: blind nil"
    lines = [f"regular takes (Sec. 4.1): {d.raw_takes:.3f} from its honours, long spades and ruffs",
             f"previous-bids factor {d.prev_factor:+.3f}; regularTakes = {d.regular_takes}",
             f"nilValue = {d.nil_value:.3f} (Sec. 4.2)"]
    if d.nil_prob is None:
        lines.append("nil not considered")
    else:
        lines.append(f"nilProb = {d.nil_prob:.3f}; expNilScore = {d.exp_nil_score:+.1f} vs threshold "
                     f"{d.threshold:+.1f}")
    lines.append("(card by card, with partner's holdings, once the round is over)")
    lines.append(f"bid: {'nil' if d.bid == 0 else d.bid}")
    return "\n".join(lines)


class SpadesStore:
    """Games in memory, the oldest dropped past ``capacity``."""

    def __init__(self, capacity: int = 200):
        self.capacity = capacity
        self.games: OrderedDict[str, SpadesGame] = OrderedDict()
        self.lock = threading.Lock()

    def create(self, req: NewGameIn) -> tuple[str, SpadesGame]:
        try:
            game = SpadesGame(req.bots, req.player, req.goal, req.seed)
        except SpadesError as e:
            raise SpadesWebError(str(e)) from None
        table_id = secrets.token_hex(8)
        with self.lock:
            self.games[table_id] = game
            while len(self.games) > self.capacity:
                self.games.popitem(last=False)
        return table_id, game

    def get(self, table_id: str) -> SpadesGame:
        with self.lock:
            game = self.games.get(table_id)
        if game is None:
            raise SpadesWebError(f"no Spades game {table_id}", 404)
        return game


TableId = Annotated[str, PathParam(pattern=TABLE_ID, description="A game id from POST /api/spades/tables.")]


def spades_router(capacity: int = 200) -> APIRouter:
    router = APIRouter()
    store = SpadesStore(capacity)

    @router.get("/spades", include_in_schema=False)
    def page():
        return FileResponse(STATIC / "spades.html", media_type="text/html")

    @router.post("/api/spades/tables", status_code=201, response_model=SpadesGameOut, responses=ERRORS,
                 summary="Start a Spades game with a BIS partner")
    def new_game(req: Annotated[NewGameIn, Body()]):
        table_id, game = store.create(req)
        with game.lock:
            return game.to_json(table_id)

    @router.get("/api/spades/tables/{table_id}", response_model=SpadesGameOut, responses=ERRORS,
                summary="A Spades game's state")
    def get_game(table_id: TableId):
        game = store.get(table_id)
        with game.lock:
            return game.to_json(table_id)

    @router.post("/api/spades/tables/{table_id}/bid", response_model=SpadesGameOut, responses=ERRORS,
                 summary="Your bid; the bots bid and play until your turn")
    def bid(table_id: TableId, body: Annotated[BidIn, Body()]):
        game = store.get(table_id)
        with game.lock:
            game.bid(body.bid)
            return game.to_json(table_id)

    @router.post("/api/spades/tables/{table_id}/play", response_model=SpadesGameOut, responses=ERRORS,
                 summary="Play a card; the bots play until your turn")
    def play(table_id: TableId, body: Annotated[CardIn, Body()]):
        game = store.get(table_id)
        with game.lock:
            game.play(body.card)
            return game.to_json(table_id)

    @router.post("/api/spades/tables/{table_id}/next", response_model=SpadesGameOut, responses=ERRORS,
                 summary="Deal the next round")
    def next_round(table_id: TableId):
        game = store.get(table_id)
        with game.lock:
            game.next_round()
            return game.to_json(table_id)

    return router
