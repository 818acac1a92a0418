"""A board at the web table: seats (you or bots), the live auction, and the other table.

As in a duplicate match (Qiu et al. Sec. VI), the board is bid twice: at this table by the
seated players, and at the "other table" by bots alone, where every seat taken by a person
here is taken by a stand-in bot. Both final contracts are scored with declarer taking
exactly its double-dummy tricks (no card play), and the person's side wins or loses
``imps(its score here - its score there)``.

Bots bid as soon as it is their turn, so a session is always either waiting for a person
or finished. The other table is bid when the board is made, so that its bots' seeded
randomness does not depend on how the person bids.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from bidlab.agents.base import Agent, BiddingView
from bidlab.agents.registry import AgentSpecError, seat_agent_spec, team_members
from bidlab.agents.sayc import SaycAgent
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Board, Vulnerability, board_dealer, board_vulnerability
from bidlab.bridge.calls import Call
from bidlab.bridge.scoring import imps, score_contract
from bidlab.cards import Card, Deal, Seat
from bidlab.envs.rollout import HUMAN, rollout
from bidlab.envs.state import from_prefix, views_state
from bidlab.errors import BidlabError, IllegalCallError
from bidlab.search.agents import SearchAgent
from bidlab.search.bmcs import SearchResult
from bidlab.search.cardplay import card_player
from bidlab.web.agents import POLICY_SEARCH_KINDS, SEARCH_KINDS, AgentCatalog, AgentPool
from bidlab.web.alert import SaycAlert, sayc_alert
from bidlab.web.meaning import MeaningService
from bidlab.web.play import CardPlay

YOU = "you"
BOARD_ID = re.compile(r"^[0-9a-f]{16}$")
TOP_CALLS = 5


class WebError(BidlabError):
    """A request the table cannot serve; ``status`` is the HTTP status to answer with."""

    status = 400


class UnknownBoardError(WebError):
    status = 404


class NotYourTurnError(WebError):
    status = 409


#: The web setting for how bots play the cards -> the card player (bidlab.search.cardplay).
BOTS_PLAY = {"single-dummy": "sd:fast", "double-dummy": "dd"}


@dataclass(frozen=True, slots=True)
class NewBoard:
    """What a person asks for: which deal, and who sits where (``"you"`` or an agent spec)."""

    seats: tuple[str, str, str, str]
    number: int = 1
    seed: int | None = None
    deal: str | None = None
    dealer: str | None = None           # default: from the board number
    vulnerability: str | None = None    # default: from the board number
    stand_in: str | None = None         # bot for "you" seats at the other table
    play: bool = False                  # play the cards after the auction (default: bidding only)
    bots_play: str = "single-dummy"     # or "double-dummy": the labelled setting whose bots see every card


@dataclass(frozen=True, slots=True)
class Why:
    table: str
    index: int
    seat: Seat
    call: Call
    agent: str
    text: str
    top_calls: tuple[tuple[Call, float], ...] | None
    meaning: str | None = None
    search: bool = False     # made by a search bot: /search shows its candidates and beliefs
    sayc: SaycComparison | None = None   # for a person's partner: the call against SAYC's
    examples: tuple[str, ...] = ()      # hands consistent with the meaning
    sayc_rule: str | None = None         # SAYC's reading of the call, for sayc and SAYC-anchored bots


@dataclass(frozen=True, slots=True)
class SaycComparison:
    """A partner bot's call held against SAYC, the system the person opposite it bids: what
    the call means in SAYC, the call the SAYC bidder makes with the bot's hand in its seat,
    and whether the two differ (the person would then misread the call)."""

    meaning: str          # the alert line of the call made, in SAYC
    sayc_call: Call
    sayc_reason: str      # the SAYC rule's reason for its call
    departs: bool


@dataclass(frozen=True, slots=True)
class Room:
    """One table's result: the auction and its contract scored by DD tricks (NS's view)."""

    seats: tuple[str, str, str, str]
    auction: Auction
    tricks: int | None
    score_ns: int


@dataclass(frozen=True, slots=True)
class Result:
    dd: np.ndarray          # uint8[4, 5]: declarer N,E,S,W x strain C,D,H,S,NT
    par_score_ns: int
    par_contracts: tuple[str, ...]
    this: Room
    other: Room
    side: int               # the side the swing is counted for: 0 NS, 1 EW
    imps: int


@dataclass(frozen=True, slots=True)
class Played:
    """This table's hand as played: declarer's tricks, NS's score, and the swing on it."""

    tricks: int
    score_ns: int
    imps: int


@lru_cache(maxsize=512)
def _dd_table(pbn: str) -> np.ndarray:
    """DD tables cached per deal: a table costs ~0.1 s and every view of a result needs it."""
    from bidlab.dd import dd_table

    t = dd_table(Deal.parse(pbn))
    t.setflags(write=False)
    return t


def dd_table_cached(deal: Deal) -> np.ndarray:
    return _dd_table(deal.to_pbn())


def _agent_seed(seed: int, which: int) -> int:
    """The seed of a board's ``which``-th agent: independent streams from one board seed."""
    return int(np.random.SeedSequence([seed, which]).generate_state(1)[0])


def _parse_deal(text: str) -> Deal:
    try:
        return Deal.parse(text)
    except BidlabError as e:
        raise WebError(f"malformed PBN deal: {e}") from None
    except Exception as e:  # the parser should only raise DealError; never let input crash the server
        raise WebError(f"malformed PBN deal: {type(e).__name__}: {e}") from None


def _parse_or_default(parse, text: str | None, default, what: str):
    if text is None or not text.strip():
        return default
    try:
        return parse(text)
    except BidlabError as e:
        raise WebError(f"bad {what}: {e}") from None


#: One search decision at a time, server-wide: a search keeps its random stream on the shared
#: agent, and two at once on two cores would only slow each other down.
SEARCH_LOCK = threading.RLock()


class RecordingSearch:
    """A search bot at one table of one board: decides as the shared :class:`SearchAgent`
    (under :data:`SEARCH_LOCK`) and hands each decision's :class:`SearchResult` to
    ``record(index of the call, result)``, so "Why?" shows the search that made the call
    instead of searching again."""

    def __init__(self, agent: SearchAgent, record):
        self.agent = agent
        self.name = agent.name
        self._record = record

    def decide(self, state, explain: bool = False):
        with SEARCH_LOCK:
            d = self.agent.decide(state, explain)
            results = list(self.agent.last)
        for t, r in enumerate(results):
            self._record(int(state.length[t]), r)
        return d


def policy_spec(spec: str) -> str:
    """The ``nn:`` spec of a search bot's policy (``bmcs:/m/rl.safetensors?k=3`` -> ``nn:/m/rl.safetensors``)."""
    model = spec.partition(":")[2].partition("?")[0]
    for suffix in (":greedy", ":sample"):
        model = model.removesuffix(suffix)
    return f"nn:{model}"


def is_search_spec(spec: str) -> bool:
    """A ``bmcs:``/``mcs:`` bot, whose "Why?" is the search that made the call."""
    return spec.partition(":")[0].strip().lower() in SEARCH_KINDS


def searches_a_policy(spec: str) -> bool:
    """A bot that searches over a neural policy (``bmcs:``, ``mcs:``, ``jps:``)."""
    return spec.partition(":")[0].strip().lower() in POLICY_SEARCH_KINDS


class Session:
    """One board at the table. Callers hold :attr:`lock` while they use it."""

    def __init__(self, board_id: str, req: NewBoard, catalog: AgentCatalog, pool: AgentPool,
                 meanings: MeaningService | None = None, meaning_wait: float = 0.0):
        self.id = board_id
        self.lock = threading.Lock()
        if req.number < 1:
            raise WebError(f"board number must be at least 1, got {req.number}")
        self.seed = secrets.randbits(31) if req.seed is None else req.seed
        deal = _parse_deal(req.deal) if req.deal else Deal.random(self.seed)
        dealer = _parse_or_default(Seat.parse, req.dealer, board_dealer(req.number), "dealer")
        vul = _parse_or_default(Vulnerability.parse, req.vulnerability, board_vulnerability(req.number),
                                "vulnerability")
        self.board = Board(deal, req.number, dealer, vul)
        for s in (*req.seats, req.stand_in or ""):
            if team_members(s) is not None:   # every member is checked, not only the seated one
                catalog.resolve(s)
        self.seats = tuple(self._seat(s, i) for i, s in enumerate(req.seats))
        self.stand_in = self._stand_in(req.stand_in)
        self.other_seats = tuple(seat_agent_spec(self.stand_in, i)[0] if s == YOU else s
                                 for i, s in enumerate(self.seats))
        # Resolved (file-safe) registry specs; one agent per distinct spec, as in a match.
        self._resolved = {s: catalog.resolve(s) for s in set(self.seats + self.other_seats) if s != YOU}
        self._pool = pool
        self._meanings, self._meaning_wait = meanings, meaning_wait
        if meanings is not None:  # start working out what the bots' calls show before anyone asks
            for spec in self._resolved.values():
                if not spec.lower().startswith("random"):
                    meanings.reader(self._meaning_spec(spec))
        self._agents: dict[str, Agent] = {
            spec: pool.for_board(self._resolved[spec], _agent_seed(self.seed, i))
            for i, spec in enumerate(sorted(self._resolved))}
        self._searches: dict[tuple[str, int], SearchResult] = {}
        try:
            other = self._bid(Auction(self.board.dealer), self.other_seats, "other")
        except Exception as e:
            raise BotError(f"a bot failed at the other table on board {self.board.number}: "
                           f"{type(e).__name__}: {e}") from e
        self.other_auction = other
        self.auction = Auction(self.board.dealer)
        self._whys: dict[tuple[str, int], Why] = {}
        self._alerts: dict[int, SaycAlert] = {}
        self.result: Result | None = None
        self.play_requested = bool(req.play)
        self.play: CardPlay | None = None
        if req.bots_play not in BOTS_PLAY:
            raise WebError(f"bots_play must be one of {', '.join(BOTS_PLAY)}, got {req.bots_play!r}")
        self.bots_play = req.bots_play
        self._card_player = card_player(BOTS_PLAY[req.bots_play], seed=self.seed or 0)
        self._advance()

    @staticmethod
    def _seat(spec: str, i: int) -> str:
        """Who bids at seat ``i``: ``you``, the agent asked for, or a team's member for this seat
        (``A+B``: A North or East, B South or West)."""
        s = spec.strip()
        if not s:
            raise AgentSpecError(f"seat {Seat(i).letter}: empty; choose 'you' or an agent such as 'sayc'")
        if s.lower() == YOU:
            return YOU
        return seat_agent_spec(s, i)[0]

    def _stand_in(self, requested: str | None) -> str:
        """The bot in the people's seats at the other table: as asked, else a partner's bot, else
        any bot at the table, else SAYC."""
        if requested is not None and requested.strip():
            s = requested.strip()
            if s.lower() == YOU:
                raise AgentSpecError("the stand-in at the other table must be an agent, not 'you'")
            return s
        humans = [Seat(i) for i, s in enumerate(self.seats) if s == YOU]
        bots_by_pref = [self.seats[h.partner] for h in humans] + [self.seats[i] for i in (0, 1, 2, 3)]
        for s in bots_by_pref:
            if s != YOU:
                return s
        return "sayc"

    # -- the auction ------------------------------------------------------------------------

    @property
    def humans(self) -> list[Seat]:
        return [Seat(i) for i, s in enumerate(self.seats) if s == YOU]

    @property
    def waiting_for_you(self) -> bool:
        return not self.auction.is_over and self.seats[self.auction.to_act] == YOU

    @property
    def over(self) -> bool:
        """The auction is over and so is the play, if the board is played."""
        return self.auction.is_over and (self.play is None or self.play.is_over)

    def person_plays(self, seat: Seat) -> bool:
        """Whether a person plays ``seat``'s cards: their own seats, and dummy and declarer both
        when the declaring side has a person."""
        p = self.play
        if p is not None and seat in (p.declarer, p.dummy):
            return YOU in (self.seats[p.declarer], self.seats[p.dummy])
        return self.seats[seat] == YOU

    @property
    def your_card(self) -> bool:
        p = self.play
        return p is not None and not p.is_over and self.person_plays(p.to_play)

    def visible_seats(self) -> set[Seat]:
        """Hands this board shows: a person's own; in the play also the hands they play and
        dummy once the opening lead is made; every hand when the board is over."""
        if self.over:
            return set(Seat)
        seen = set(self.humans)
        p = self.play
        if p is not None:
            seen |= {s for s in Seat if self.person_plays(s)}
            if p.started:
                seen.add(p.dummy)
        return seen

    def _view(self, auction: Auction) -> BiddingView:
        seat = auction.to_act
        return BiddingView(seat, self.board.deal[seat], auction, self.board.vulnerability)

    def _bid(self, auction: Auction, seats: tuple[str, ...], table: str) -> Auction:
        """``auction`` continued through :func:`rollout` by the bots in ``seats`` until a
        person (``"you"``) is to act or the auction is over; search bots' decisions are kept
        for "Why?" under (``table``, index of the call)."""
        specs = sorted({s for s in seats if s != YOU})
        seat_policy = [HUMAN if s == YOU else specs.index(s) for s in seats]
        start = from_prefix(self.board.deal.to_array()[None], int(self.board.dealer),
                            int(self.board.vulnerability), np.array([[c.id for c in auction.calls] or [-1]]))

        def record(index: int, result: SearchResult) -> None:
            self._searches[(table, index)] = result

        policies = [RecordingSearch(a, record) if isinstance(a, SearchAgent) else a
                    for a in (self._agents[s] for s in specs)]
        end = rollout(start, policies, seat_policy, inplace=True)
        return end.auction(0)

    def _advance(self) -> None:
        """Let bots call until a person is to act or the auction is over."""
        if not self.auction.is_over and not self.waiting_for_you:
            try:
                self.auction = self._bid(self.auction, self.seats, "this")
            except Exception as e:
                raise BotError(f"a bot failed to call after '{self.auction.to_str() or '(start)'}' "
                               f"on board {self.board.number}: {type(e).__name__}: {e}") from e
        if self.auction.is_over and self.result is None:
            self.result = self._score()
            contract = self.auction.contract
            if self.play_requested and contract is not None:
                self.play = CardPlay(self.board.deal, contract, self.auction, self.board.vulnerability)
                self._advance_play()

    def _advance_play(self) -> None:
        """Let bots play (single dummy, or double dummy in that setting) until a person is to
        play or the hand is over."""
        p = self.play
        while p is not None and not p.is_over and not self.person_plays(p.to_play):
            try:
                p.play(self._card_player.choose(p).card)
            except Exception as e:
                raise BotError(f"a bot failed to play a card for {p.to_play.full_name} on board "
                               f"{self.board.number}: {type(e).__name__}: {e}") from e

    def card(self, text: str) -> None:
        """A person's card; bots play until the person's next turn."""
        p = self.play
        if p is None:
            why = ("this board is bid only; deal with 'play the hand' to play it" if not self.play_requested
                   else "the auction is not over" if not self.auction.is_over else "the board was passed out")
            raise NotYourTurnError(f"no card can be played: {why}")
        if p.is_over:
            raise NotYourTurnError("all 13 tricks have been played")
        try:
            card = Card.parse(text)
        except BidlabError as e:
            raise WebError(str(e)) from None
        seat = p.to_play
        legal = p.legal_cards()
        if card not in legal:
            held = card in p.hands[seat]
            reason = (f"{seat.full_name} must follow suit ({p.trick[0].suit.symbol})" if held
                      else f"{seat.full_name} does not hold {card}")
            raise IllegalCall(f"illegal card {card}: {reason}; legal: {' '.join(map(str, legal))}")
        p.play(card)
        self._advance_play()

    def _last_card_of_a_person(self) -> int | None:
        p = self.play
        if p is None:
            return None
        mine = [i for i, (seat, _) in enumerate(p.history) if self.person_plays(seat)]
        return mine[-1] if mine else None

    @property
    def can_undo_card(self) -> bool:
        return self._last_card_of_a_person() is not None

    def undo_card(self) -> None:
        """Take back the person's last card and the bots' cards after it (a misclick); the person
        plays that card again. The bots answer the new card afresh."""
        i = self._last_card_of_a_person()
        if i is None:
            raise NotYourTurnError("you have played no card on this board to take back")
        self.play = self.play.replayed(i)

    def undo(self) -> None:
        """Take back the person's last call and the bots' calls after it; the person calls again."""
        if self.play is not None and self.play.started:
            raise NotYourTurnError("cards have been played; only calls can be taken back, before the play")
        mine = [i for i in range(len(self.auction.calls)) if self.seats[self.auction.seat_of(i)] == YOU]
        if not mine:
            raise NotYourTurnError("you have made no call on this board to take back")
        i = mine[-1]
        self.auction = Auction(self.board.dealer, self.auction.calls[:i])
        self.result, self.play = None, None
        self._whys = {k: w for k, w in self._whys.items() if not (k[0] == "this" and k[1] >= i)}
        self._alerts = {k: a for k, a in self._alerts.items() if k < i}
        self._searches = {k: r for k, r in self._searches.items() if not (k[0] == "this" and k[1] >= i)}

    def call(self, text: str) -> None:
        """A person's call; bots answer until the next person's turn."""
        if self.auction.is_over:
            raise NotYourTurnError(f"the auction is over ({self._contract_text(self.auction)}); "
                                   "no more calls can be made on this board")
        try:
            call = Call.parse(text)
        except BidlabError as e:
            raise WebError(str(e)) from None  # already says "not a call (...)"
        if not self.waiting_for_you:  # pragma: no cover - bots always finish their turns in _advance
            raise NotYourTurnError(f"it is {self.auction.to_act.full_name}'s turn, a bot")
        if not self.auction.is_legal(call):
            try:
                self.auction.with_call(call)
            except IllegalCallError as e:
                raise IllegalCall(f"illegal call {call} by {self.auction.to_act.full_name}: {e}") from None
        self.auction = self.auction.with_call(call)
        self._advance()

    @staticmethod
    def _contract_text(auction: Auction) -> str:
        c = auction.contract
        return "passed out" if c is None else f"{c.to_str()} by {c.declarer.full_name}"

    # -- scoring ----------------------------------------------------------------------------

    def _room(self, seats: tuple[str, ...], auction: Auction, dd: np.ndarray) -> Room:
        c = auction.contract
        tricks = None if c is None else int(dd[c.declarer, c.strain])
        return Room(seats, auction, tricks, score_contract(c, tricks or 0, self.board.vulnerability))  # type: ignore[arg-type]

    def _score(self) -> Result:
        from bidlab.dd import par

        dd = dd_table_cached(self.board.deal)
        p = par(dd, self.board.vulnerability, self.board.dealer)
        this = self._room(self.seats, self.auction, dd)
        other = self._room(self.other_seats, self.other_auction, dd)
        sides = {h.side for h in self.humans}
        side = sides.pop() if len(sides) == 1 else 0
        swing = imps(this.score_ns - other.score_ns)
        return Result(dd, int(p.score), tuple(str(c) for c in p.contracts), this, other, side,
                      swing if side == 0 else -swing)

    def played_result(self) -> Played | None:
        """The hand as played at this table, once all 13 tricks are in, and its IMP swing against
        the other table's (double-dummy) result, for the same side as :attr:`Result.imps`."""
        p, r = self.play, self.result
        if p is None or not p.is_over or r is None:
            return None
        tricks = p.declarer_tricks
        score_ns = score_contract(p.contract, tricks, self.board.vulnerability)
        swing = imps(score_ns - r.other.score_ns)
        return Played(tricks, score_ns, swing if r.side == 0 else -swing)

    # -- explanations -----------------------------------------------------------------------

    def _bot_call(self, table: str, index: int) -> tuple[Seat, str, Call, BiddingView]:
        """Call ``index`` of ``table``, checked to exist and to be a bot's: (seat, the seat's
        spec as asked, the call, what the bot saw)."""
        if table not in ("this", "other"):
            raise WebError(f"table must be 'this' or 'other', got {table!r}")
        if table == "other" and not self.auction.is_over:
            raise NotYourTurnError("the other table's auction is shown once this table's auction is over")
        auction, seats = (self.auction, self.seats) if table == "this" else (self.other_auction, self.other_seats)
        if not 0 <= index < len(auction.calls):
            raise UnknownCallError(f"{table} table's auction has {len(auction.calls)} calls; "
                                   f"there is no call {index} (calls count from 0)")
        seat = auction.seat_of(index)
        spec = seats[seat]
        call = auction.calls[index]
        if spec == YOU:
            raise WebError(f"call {index} ({call} by {seat.full_name}) was yours; only bot calls have a 'Why?'")
        view = BiddingView(seat, self.board.deal[seat], Auction(auction.dealer, auction.calls[:index]),
                           self.board.vulnerability)
        return seat, spec, call, view

    def why(self, table: str, index: int) -> Why:
        seat, spec, call, view = self._bot_call(table, index)
        key = (table, index)
        if key in self._whys:
            return self._whys[key]
        resolved = self._resolved[spec]
        search = is_search_spec(resolved)

        def ask(agent):
            if isinstance(agent, SearchAgent):
                top = agent.searcher.policy.top_calls
                text = None
            else:
                text = _explanation_text(agent.explain(view), call)
                top = getattr(agent, "top_calls", None)
            top_calls = None if top is None else tuple((Call.parse(c), float(p)) for c, p in top(view, k=TOP_CALLS))
            return text, top_calls

        try:
            text, top_calls = self._pool.explain(resolved, ask)
            if search:   # the summary of the search that made the call, not of a new one
                text = _explanation_text(self.search_result(table, index).summary(), call)
        except Exception as e:
            raise BotError(f"bot {spec} could not explain call {index}: {type(e).__name__}: {e}") from e
        meaning, examples, ready = None, (), True
        if self._meanings is not None and not spec.lower().startswith("random"):
            try:
                m = self._meanings.meaning(self._meaning_spec(resolved), view.auction, call, view.vulnerability,
                                           wait=self._meaning_wait)
            except Exception as e:
                raise BotError(f"the meaning of call {index} could not be read: {type(e).__name__}: {e}") from e
            if m is None:
                ready = False
                meaning = (f"what {call.to_str(symbols=True)} shows is being read from the belief net; "
                           "ask again in a moment")
            else:
                meaning, examples = m.text(), tuple(m.example_lines())
            if searches_a_policy(resolved):
                meaning = f"Its policy, without search: {meaning}"
        why = Why(table, index, seat, call, spec, text, top_calls, meaning, search,
                  self._sayc_comparison(view, call) if self.partners_a_person(table, seat) else None,
                  examples, self._sayc_rule(self._agents[spec], view, call))
        if ready:
            self._whys[key] = why
        return why

    @staticmethod
    def _sayc_rule(agent: Agent, view: BiddingView, call: Call) -> str | None:
        """SAYC's rule text for the call, beside the belief net's reading, for ``sayc`` and for
        agents anchored to SAYC (their calls are SAYC's unless the net departs)."""
        if not (isinstance(agent, SaycAgent) or getattr(agent, "sayc", None) is not None):
            return None
        return sayc_alert(view.auction, call, view.vulnerability).text()

    def partners_a_person(self, table: str, seat: Seat) -> bool:
        """A bot opposite a person at this table: the person reads its calls as SAYC calls."""
        return table == "this" and self.seats[seat] != YOU and self.seats[Seat(seat).partner] == YOU

    def _sayc_comparison(self, view: BiddingView, call: Call) -> SaycComparison:
        """The bot's call against what SAYC means by it and what SAYC would call in its seat."""
        head, _, reason = self._pool.explain("sayc", lambda sayc: sayc.explain(view)).partition(":")
        sayc_call = Call.parse(head)
        meaning = sayc_alert(view.auction, call, view.vulnerability).text()
        return SaycComparison(meaning, sayc_call, reason.strip(), sayc_call != call)

    def alerts(self) -> dict[int, SaycAlert]:
        """The SAYC alert of each call a person made at this table, by the call's index (kept:
        a call's reading never changes once it is made)."""
        for i, call in enumerate(self.auction.calls):
            # a pass is never alerted: it would only repeat "no HCP range" under every pass
            if call.id != 0 and i not in self._alerts and self.seats[self.auction.seat_of(i)] == YOU:
                before = Auction(self.auction.dealer, self.auction.calls[:i])
                self._alerts[i] = sayc_alert(before, call, self.board.vulnerability)
        n = len(self.auction.calls)
        return {i: a for i, a in self._alerts.items() if i < n and a.call == self.auction.calls[i]}

    @staticmethod
    def _meaning_spec(resolved: str) -> str:
        """The spec whose policy reads a bot's calls (bidlab.search.meaning): a search bot's
        (``bmcs:``, ``mcs:``, ``jps:``) policy."""
        return policy_spec(resolved) if searches_a_policy(resolved) else resolved

    def search_result(self, table: str, index: int) -> SearchResult:
        """The search with which a search bot made call ``index`` of ``table``: the one kept when
        the call was made, else (not expected) the same position searched again; the search is
        seeded by the position, so it repeats."""
        seat, spec, call, view = self._bot_call(table, index)
        resolved = self._resolved[spec]
        if not is_search_spec(resolved):
            raise NotASearchBotError(f"call {index} was made by {spec}, not a search bot (bmcs:/mcs:)")
        key = (table, index)
        if key not in self._searches:
            def run(agent):
                with SEARCH_LOCK:
                    return agent.search(views_state([view]))

            self._searches[key] = self._pool.explain(resolved, run)
        return self._searches[key]


class NotASearchBotError(WebError):
    status = 400


class IllegalCall(WebError):
    status = 409


class BotError(WebError):
    """A bot failed: the server's fault, not the request's."""

    status = 500


class UnknownCallError(WebError):
    status = 404


def _explanation_text(text: str, made: Call) -> str:
    """An agent's ``"CALL: reason"`` told about the call actually made.

    A sampling agent's explainer may draw a different call than the one made at the table;
    its reason (e.g. "uniformly random among 20 legal calls") still holds for the call made.
    """
    head, sep, reason = str(text).partition(":")
    if sep:
        try:
            if Call.parse(head) != made:
                return f"{made}:{reason}"
        except BidlabError:
            pass
    return str(text)


@dataclass
class BoardStore:
    """Sessions by id, at most ``capacity`` of them; the least recently used is dropped."""

    catalog: AgentCatalog
    capacity: int = 200
    pool: AgentPool = field(default_factory=AgentPool)
    meanings: MeaningService | None = None
    meaning_wait: float = 3.0
    _sessions: OrderedDict[str, Session] = field(default_factory=OrderedDict)
    lock: threading.RLock = field(default_factory=threading.RLock)

    def create(self, req: NewBoard) -> Session:
        board_id = secrets.token_hex(8)
        s = Session(board_id, req, self.catalog, self.pool, self.meanings, self.meaning_wait)
        with self.lock:
            self._sessions[board_id] = s
            while len(self._sessions) > self.capacity:
                self._sessions.popitem(last=False)
        return s

    def get(self, board_id: str) -> Session:
        with self.lock:
            s = self._sessions.get(board_id) if BOARD_ID.match(board_id) else None
            if s is None:
                raise UnknownBoardError(
                    f"unknown board id {board_id!r}: it never existed or was dropped "
                    f"(the server keeps the {self.capacity} most recently used boards); deal a new board")
            self._sessions.move_to_end(board_id)
            return s

    def __len__(self) -> int:
        return len(self._sessions)


__all__ = [
    "YOU", "BoardStore", "BotError", "IllegalCall", "NewBoard", "NotYourTurnError", "Played", "Result", "Room",
    "Session", "UnknownBoardError", "UnknownCallError", "WebError", "Why", "dd_table_cached",
]
