"""Blue Chip lines: canonical round trip, lines real programs send, and clear errors for the rest."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bidlab.bluechip import protocol as bc
from bidlab.bluechip.protocol import ProtocolError, ToleranceLog, format_message, parse
from bidlab.bridge.board import Vulnerability
from bidlab.bridge.calls import ALL_CALLS, Call
from bidlab.cards import Card, Deal, Hand, Seat

seats = st.sampled_from(list(Seat))
opt_seats = st.one_of(st.none(), seats)
names = st.text(st.characters(min_codepoint=32, max_codepoint=126, blacklist_characters='"'), max_size=20).map(str.strip)
cards = st.integers(0, 51).map(Card.from_index)
hands = st.integers(0, 2**32 - 1).map(lambda s: Deal.random(s)[Seat.N])
messages = st.one_of(
    st.builds(bc.Connecting, names, opt_seats, st.just(18)),
    st.builds(bc.Seated, seats, names),
    st.builds(bc.ReadyForTeams, seats),
    st.builds(bc.Teams, names, names),
    st.builds(bc.ReadyToStart, seats),
    st.just(bc.StartOfBoard()),
    st.builds(bc.ReadyForDeal, seats),
    st.builds(bc.BoardInfo, st.integers(1, 10_000), seats, st.sampled_from(list(Vulnerability))),
    st.builds(bc.ReadyForCards, seats),
    st.builds(bc.HandCards, opt_seats, hands),
    st.builds(bc.CallMade, seats, st.sampled_from(ALL_CALLS)),
    st.builds(bc.ReadyForBid, seats, seats),
    st.builds(bc.ToLead, opt_seats),
    st.builds(bc.CardPlayed, opt_seats, cards),
    st.builds(bc.ReadyForCard, seats, opt_seats, st.integers(1, 13)),
    st.builds(bc.ReadyForDummy, seats),
    st.just(bc.EndOfSession()),
)


@given(messages)
@example(bc.Connecting("0  0", None, 18))  # blanks inside quotes are the name's own
def test_canonical_lines_round_trip_with_nothing_tolerated(msg):
    log = ToleranceLog()
    line = format_message(msg)
    assert parse(line, log) == msg
    assert not log.counts, log.lines()


@settings(max_examples=300)
@given(st.text(max_size=200))
def test_any_text_parses_or_raises_protocol_error(text):
    try:
        parse(text)
    except ProtocolError:
        pass


def H(pbn: str) -> Hand:
    return Hand.parse(pbn)


# Lines as known programs send them (OpenSpiel's WBridge5 wrapper and its recorded session,
# BEN's client, Sodes' table manager, yotaroy/bridge_env), with what they mean worked out by hand.
REAL_LINES = [
    ('Connecting "WBridge5" as ANYPL using protocol version 18', bc.Connecting("WBridge5", None), set()),
    ('WEST ("WBridge5") seated', bc.Seated(Seat.W, "WBridge5"), {bc.CASE}),
    ("WEST ready for  NORTH's bid", bc.ReadyForBid(Seat.W, Seat.N), {bc.CASE, bc.SPACES}),
    ('Teams: N/S "silent" E/W "bidders"', bc.Teams("silent", "bidders"), {bc.TEAMS_FORMAT}),
    ('Teams : N/S : "ben". E/W : "wbridge5"', bc.Teams("ben", "wbridge5"), {bc.TEAMS_FORMAT}),
    ('Teams : N/S : "a b" E/W : "c"', bc.Teams("a b", "c"), set()),
    ("start of board", bc.StartOfBoard(), {bc.CASE}),
    ("Board number 8. Dealer WEST. Neither vulnerable.", bc.BoardInfo(8, Seat.W, Vulnerability.NONE), {bc.CASE}),
    ("Board number 3. Dealer South. E/W vulnerable", bc.BoardInfo(3, Seat.S, Vulnerability.EW), {bc.DOT_MISSING}),
    ("WEST's cards: S A T 9 5. H K 6 5. D Q J 8 7 6. C 7.", bc.HandCards(Seat.W, H("AT95.K65.QJ876.7")),
     {bc.CASE, bc.COLON_SPACING}),
    ("North's cards : S 9 3. H -. D J 7 5. C A T 9 8 6 4 3 2.", bc.HandCards(Seat.N, H("93..J75.AT986432")), set()),
    ("North's cards : C 2 3 4 6 8 9 10 A. D 5 7 J. H . S 3 9", bc.HandCards(Seat.N, H("93..J75.AT986432")),
     {bc.HAND_SUIT_ORDER, bc.HAND_RANK_ORDER, bc.TEN_AS_10, bc.VOID_EMPTY, bc.DOT_MISSING}),
    ("Dummy's cards : S A Q T 8 2. H K 7. D K 5 2. C A 7 6.", bc.HandCards(None, H("AQT82.K7.K52.A76")), set()),
    ("EAST bids 1C", bc.CallMade(Seat.E, Call.parse("1C")), {bc.CASE}),
    ("WEST PASSES", bc.CallMade(Seat.W, Call.parse("P")), {bc.CASE}),
    ("North bids 1N", bc.CallMade(Seat.N, Call.parse("1NT")), {bc.N_FOR_NT}),
    ("North bids 2C.", bc.CallMade(Seat.N, Call.parse("2C")), {bc.DOT_EXTRA}),
    ("North bids 2C Alert. Strong, artificial.", bc.CallMade(Seat.N, Call.parse("2C"), True, "Strong, artificial"), set()),
    ("South doubles Infos. Takeout", bc.CallMade(Seat.S, Call.parse("X"), False, "Takeout"), set()),
    ("North to lead", bc.ToLead(Seat.N), set()),
    ("Dummy to lead", bc.ToLead(None), set()),
    ("WEST plays kc", bc.CardPlayed(Seat.W, Card.parse("CK")), {bc.CASE}),
    ("South plays HT", bc.CardPlayed(Seat.S, Card.parse("HT")), {bc.SUIT_FIRST}),
    ("South plays 10H", bc.CardPlayed(Seat.S, Card.parse("HT")), {bc.TEN_AS_10}),
    ("East ready for dummy's card to trick 2", bc.ReadyForCard(Seat.E, None, 2), set()),
    ("East ready for North's card to trick 13", bc.ReadyForCard(Seat.E, Seat.N, 13), set()),
    ("North team seated", bc.Seated(Seat.N, "team"), set()),
    ("Timing - N/S : this board  [1:15],  total  [0:11:23].  E/W : this board  [1:18],  total  [0:10:23]",
     bc.Timing("Timing - N/S : this board [1:15], total [0:11:23]. E/W : this board [1:18], total [0:10:23]"),
     {bc.SPACES}),
    ("End of session", bc.EndOfSession(), set()),
]


@pytest.mark.parametrize("line,expected,variants", REAL_LINES)
def test_lines_real_programs_send(line, expected, variants):
    log = ToleranceLog()
    assert parse(line, log) == expected
    assert set(log.counts) == variants


@pytest.mark.parametrize("line,problem", [
    ("North bids 8C", "not a Blue Chip message"),
    ("North plays 1S", "not a Blue Chip message"),
    ("Board number 0. Dealer North. Neither vulnerable.", "at least 1"),
    ("North's cards : S A K Q J T 9 8 7 6 5 4 3. H -. D -.", "four suits"),
    ("North's cards : S A K. H -. D -. C 2.", "13 cards"),
    ("North's cards : S A A K Q J T 9 8 7 6 5 4 3. H -. D -. C -.", "twice"),
    ("North's cards : S A K Q J T 9 8 7 6 5 4 3. S -. D -. C -.", "twice"),
    ("East ready for North's card to trick 14", "1..13"),
    ("", "empty"),
    ("Hello table", "not a Blue Chip message"),
])
def test_bad_lines_say_what_is_wrong(line, problem):
    with pytest.raises(ProtocolError, match=problem):
        parse(line)
