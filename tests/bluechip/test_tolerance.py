"""Each variant real programs send, on the wire to a client and to the table manager.

A proxy rewrites one seat's lines the way another program writes them; the session must come
out exactly as the canonical one (same auction, contract and play) and the side that read the
variant must have logged it. Board 1 of the seed-0 sample, bid by SAYC at all four seats,
ends in notrump by South (1D Pass 2C Pass 2D Pass 2NT Pass 3NT Pass Pass Pass since SAYC
accepts a notrump invitation by what the invitation promises), dummy North, so it has an NT
bid, a dummy, and (checked below) tricks that dummy leads to. The fixture checks those
properties, not the level, so that a change of SAYC's judgement does not break the protocol tests.
"""

import json
import re

import pytest

from bidlab.bluechip import protocol as bc
from bidlab.cards import Seat

from .harness import run_session

DECLARER, DUMMY = Seat.S, Seat.N
DEFENDER = Seat.W  # opening leader


def result(run):
    assert run.error is None, run.error
    assert not run.client_errors, run.client_errors
    return [(r["auction"], r["contract"], r["declarer"], r["play"], r["played_tricks"]) for r in run.room("open")]


@pytest.fixture(scope="module")
def canonical(tmp_path_factory):
    run = run_session(tmp_path_factory.mktemp("canonical"), boards=1,
                      proxies={("open", s): {} for s in Seat})  # proxies that rewrite nothing
    res = result(run)
    auction, contract, declarer, play, _ = res[0]
    assert "NT" in auction and contract.endswith("NT") and declarer == DECLARER.letter
    assert any(line == "Dummy to lead" for line in run.proxies[("open", DECLARER)].seen_by_client)
    # Canonical lines, canonical line ends: nothing tolerated anywhere.
    assert not run.session.log.counts
    assert all(not c.log.counts for c in run.clients.values())
    return res


def upper_outside_quotes(line: str) -> str:
    parts = line.split('"')
    return '"'.join(p.upper() if i % 2 == 0 else p for i, p in enumerate(parts))


def toggle_dot(line: str) -> str:
    return line[:-1] if line.endswith(".") else line + "."


def reverse_hand(line: str) -> str:
    m = re.fullmatch(r"(.*cards : )(.*)\.", line)
    if not m:
        return line
    suits = [s.strip().split() for s in m.group(2).split(".")]
    return m.group(1) + ". ".join(" ".join([s[0]] + s[:0:-1]) for s in reversed(suits)) + "."


def suit_first(line: str) -> str:
    return re.sub(r"plays ([2-9TJQKA])([CDHS])$", r"plays \2\1", line)


def n_for_nt(line: str) -> str:
    return re.sub(r"bids (\d)NT", r"bids \1N", line)


def name(seat: Seat) -> str:
    return seat.full_name


CASES = [
    # (variant, seat whose lines are rewritten, proxy options, which log reads the variant)
    (bc.CASE, DEFENDER, {"to_client": upper_outside_quotes}, "client"),
    (bc.CASE, DEFENDER, {"to_manager": upper_outside_quotes}, "manager"),
    (bc.LF, DEFENDER, {"client_end": b"\n"}, "client"),
    (bc.LF, DEFENDER, {"manager_end": b"\n"}, "manager"),
    (bc.DOT_MISSING, DEFENDER, {"to_client": toggle_dot}, "client"),
    (bc.DOT_EXTRA, DEFENDER, {"to_client": toggle_dot}, "client"),
    (bc.DOT_EXTRA, DEFENDER, {"to_manager": toggle_dot}, "manager"),
    (bc.N_FOR_NT, DEFENDER, {"to_client": n_for_nt}, "client"),
    (bc.N_FOR_NT, DECLARER, {"to_manager": n_for_nt}, "manager"),   # South bids the 2NT
    (bc.HAND_SUIT_ORDER, DEFENDER, {"to_client": reverse_hand}, "client"),
    (bc.HAND_RANK_ORDER, DEFENDER, {"to_client": reverse_hand}, "client"),
    (bc.HAND_RANK_ORDER, DECLARER, {"to_client": reverse_hand}, "client"),  # dummy's cards too
    (bc.SUIT_FIRST, DEFENDER, {"to_client": suit_first}, "client"),
    (bc.SUIT_FIRST, DECLARER, {"to_manager": suit_first}, "manager"),
    # "Dummy to lead" written with dummy's seat (yotaroy/bridge_env reads both) or declarer's (OpenSpiel).
    (bc.DUMMY_AS_SEAT, DECLARER, {"to_client": lambda s: s.replace("Dummy to lead", f"{name(DUMMY)} to lead")},
     "client"),
    (bc.DECLARER_FOR_DUMMY, DECLARER,
     {"to_client": lambda s: s.replace("Dummy to lead", f"{name(DECLARER)} to lead")}, "client"),
    (bc.DUMMY_AS_SEAT, DEFENDER, {"to_client": lambda s: s.replace("Dummy's cards", f"{name(DUMMY)}'s cards")},
     "client"),
    (bc.SEAT_AS_DUMMY, DEFENDER, {"to_client": lambda s: s.replace(f"{name(DUMMY)} plays", "Dummy plays")},
     "client"),
    (bc.DUMMY_AS_SEAT, DEFENDER,
     {"to_manager": lambda s: s.replace("dummy's card", f"{name(DUMMY)}'s card")}, "manager"),
    (bc.SEAT_AS_DUMMY, DECLARER, {"to_manager": lambda s: s.replace(f"{name(DUMMY)} plays", "Dummy plays")},
     "manager"),
]


@pytest.mark.parametrize("variant,seat,options,reader", CASES,
                         ids=[f"{c[0]}-{c[3]}-{c[1].letter}" for c in CASES])
def test_variant_is_accepted_and_logged(tmp_path, canonical, variant, seat, options, reader):
    run = run_session(tmp_path, boards=1, proxies={("open", seat): options})
    assert result(run) == canonical
    log = run.clients[("open", seat)].log if reader == "client" else run.session.log
    assert variant in log, log.lines()


def test_no_timing_line_is_accepted_and_logged_by_the_client(tmp_path, canonical):
    run = run_session(tmp_path, boards=1, send_timing=False)
    assert result(run) == canonical
    for c in run.clients.values():
        assert bc.NO_TIMING in c.log
    # The manager only sends Timing; with it on, no client notes its absence.
    run = run_session(tmp_path / "with", boards=1, send_timing=True)
    assert all(bc.NO_TIMING not in c.log for c in run.clients.values())


def test_tolerated_variants_are_written_with_the_session(tmp_path, canonical):
    run = run_session(tmp_path, boards=1, proxies={("open", DEFENDER): {"to_manager": upper_outside_quotes,
                                                                         "manager_end": b"\n"}})
    assert result(run) == canonical
    written = json.loads((tmp_path / "session" / "tolerated.json").read_text())
    assert {bc.CASE, bc.LF} <= set(written)
    assert written[bc.LF]["count"] > 10


def test_alerts_reach_the_opponents_only(tmp_path, canonical):
    alerted = "South bids 2C Alert. Game forcing"
    run = run_session(tmp_path, boards=1, proxies={
        ("open", Seat.S): {"to_manager": lambda s: alerted if s == "South bids 2C" else s},
        ("open", Seat.N): {}, ("open", Seat.E): {}, ("open", Seat.W): {},
    })
    assert result(run) == canonical
    for seat in (Seat.E, Seat.W):
        assert alerted in run.proxies[("open", seat)].seen_by_client
    partner = run.proxies[("open", Seat.N)].seen_by_client
    assert "South bids 2C" in partner and alerted not in partner


def test_a_teams_line_repeated_before_the_first_board_is_accepted_and_logged(tmp_path, canonical):
    """Some table managers send the Teams line twice before the first board."""
    def twice(line: str) -> str:
        return f"{line}\r\n{line}" if line.startswith("Teams") else line

    run = run_session(tmp_path, boards=1, proxies={("open", DEFENDER): {"to_client": twice}})
    assert result(run) == canonical
    seen = run.proxies[("open", DEFENDER)].seen_by_client
    assert sum(x.startswith("Teams") for x in seen) == 1  # the proxy doubled the one line the manager sent
    assert bc.TEAMS_AGAIN in run.clients[("open", DEFENDER)].log
