"""Fuzzing both sides with malformed, truncated, reordered and out-of-turn lines.

A recorded canonical two-board session is replayed to one side with a mutation. Whatever the
mutation, the side under test must end (no hang: the peer closes after its script, and every
read has a timeout), either normally or with a BidlabError that names the problem, never
another exception; and when the mutation falls in board 2, board 1 must be kept as played.
"""

import json
import socket
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bidlab.agents.registry import make_agent
from bidlab.bluechip.client import BlueChipClient
from bidlab.bluechip.connection import LineConnection
from bidlab.bluechip.play import RulePlayer
from bidlab.cards import Card, Deal, Seat
from bidlab.errors import BidlabError

from .harness import TIMEOUT, run_session

SEAT = Seat.W

CLIENT_INTRUDERS = [
    "East bids 1C", "North plays 2C", "Dummy to lead", "Start of board", "End of session",
    "West's cards : S A. H -. D -. C -.", "Board number 1. Dealer North. Neither vulnerable.",
    "Dummy's cards : S A K Q J T 9 8 7 6 5 4 3 2. H -. D -. C -.", "North bids 1C", "Error: stop",
    "West to lead", "South plays AS", "Timing - whatever",
]
MANAGER_INTRUDERS = [
    "East bids 1C", "West bids 7NT", "West plays AS", "North passes", "West ready for North's bid",
    "West ready for dummy", "Start of board", "End of session", "West doubles", "West redoubles",
    "West ready for deal", "West ready for East's card to trick 1", "West plays 2C", "Error: giving up",
]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    run = run_session(tmp_path_factory.mktemp("recorded"), boards=2, proxies={("open", SEAT): {}})
    assert run.error is None and not run.client_errors
    proxy = run.proxies[("open", SEAT)]
    return {
        "to_client": list(proxy.seen_by_client),
        "to_manager": list(proxy.sent_by_client),
        "client_board1": run.clients[("open", SEAT)].session.boards[0].to_json(),
        "manager_board1": run.session.finished()[0],
    }


def mutations(intruders):
    """(kind, index fraction, payload) -> a function of the line list."""
    return st.tuples(
        st.sampled_from(["truncate", "drop", "swap", "duplicate", "garble", "cut_line", "insert", "case"]),
        st.floats(0, 1, exclude_max=True),
        st.one_of(st.text(max_size=40), st.sampled_from(intruders)),
        st.integers(0, 60),
    )


def mutate(lines, m, first):
    kind, where, payload, cut = m
    k = first + int(where * (len(lines) - first))
    out = list(lines)
    if kind == "truncate":
        out = out[:k]
    elif kind == "drop":
        del out[k]
    elif kind == "swap" and k + 1 < len(out):
        out[k], out[k + 1] = out[k + 1], out[k]
    elif kind == "duplicate":
        out.insert(k, out[k])
    elif kind == "garble":
        out[k] = payload.replace("\n", " ").replace("\r", " ")
    elif kind == "cut_line":
        out[k] = out[k][: cut % max(1, len(out[k]))]
    elif kind == "insert":
        out.insert(k, payload.replace("\n", " ").replace("\r", " "))
    elif kind == "case":
        out[k] = out[k].swapcase()
    return out, k


def board2_start(lines, marker):
    return [i for i, x in enumerate(lines) if x == marker][1]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(m=mutations(CLIENT_INTRUDERS))
def test_client_survives_a_mutated_table_manager(recorded, m):
    lines, k = mutate(recorded["to_client"], m, 0)
    ours, theirs = socket.socketpair()

    def table_manager():
        try:
            theirs.sendall("".join(x + "\r\n" for x in lines).encode())
            theirs.shutdown(socket.SHUT_WR)
            while theirs.recv(4096):
                pass
        except OSError:
            pass
        finally:
            theirs.close()

    t = threading.Thread(target=table_manager, daemon=True)
    t.start()
    client = BlueChipClient(LineConnection(ours, "table manager", TIMEOUT), SEAT, make_agent("sayc"), "sayc",
                            RulePlayer())
    try:
        client.run()
    except BidlabError as e:
        assert str(e)
    t.join()
    if k >= board2_start(recorded["to_client"], "Start of board"):
        assert client.session.boards and client.session.boards[0].to_json() == recorded["client_board1"]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(m=mutations(MANAGER_INTRUDERS))
def test_manager_survives_a_mutated_client(recorded, m):
    # Index 0 is the Connecting line; a bad one is refused and the seat stays open (tested below).
    lines, k = mutate(recorded["to_manager"], m, 1)

    def west(port):
        with socket.create_connection(("127.0.0.1", port)) as s:
            try:
                s.sendall("".join(x + "\r\n" for x in lines).encode())
                s.shutdown(socket.SHUT_WR)
                while s.recv(4096):
                    pass
            except OSError:
                pass

    tmp = Path(tempfile.mkdtemp())
    run = run_session(tmp, boards=2, scripted={("open", SEAT): west})
    assert run.error is None or isinstance(run.error, BidlabError), repr(run.error)
    assert all(isinstance(e, BidlabError) for e in run.client_errors.values()), run.client_errors
    if run.error is not None:
        assert str(run.error)
    if k >= board2_start(recorded["to_manager"], "West ready for deal"):
        assert run.session.finished()[0] == recorded["manager_board1"]
        on_disk = [json.loads(x) for x in (tmp / "session" / "results.jsonl").read_text().splitlines()[1:]]
        assert on_disk[0] == recorded["manager_board1"]


def test_manager_refuses_a_bad_newcomer_and_keeps_the_seat_open(tmp_path, recorded):
    replies: list[str] = []

    def west(port):
        with socket.create_connection(("127.0.0.1", port)) as bad:
            bad.sendall(b"Hello, I am West\r\n")
            replies.append(bad.makefile().readline())
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall("".join(x + "\r\n" for x in recorded["to_manager"]).encode())
            s.shutdown(socket.SHUT_WR)
            while s.recv(4096):
                pass

    run = run_session(tmp_path, boards=2, scripted={("open", SEAT): west})
    assert replies[0].startswith("Error: expected 'Connecting") and "Hello, I am West" in replies[0]
    assert run.error is None and not run.client_errors
    assert run.session.finished()[0] == recorded["manager_board1"]


def test_illegal_call_and_card_are_refused_with_a_reason(tmp_path, recorded):
    """An insufficient bid from West: the manager tells West why and stops; board 1 is kept."""
    lines = list(recorded["to_manager"])
    start = board2_start(lines, "West ready for deal")
    first_call = next(i for i in range(start, len(lines)) if lines[i].startswith("West ") and
                      (" bids " in lines[i] or lines[i].endswith(("passes", "doubles", "redoubles"))))
    replies: list[str] = []

    def west(port):
        with socket.create_connection(("127.0.0.1", port)) as s:
            f = s.makefile("rb")
            s.sendall("".join(x + "\r\n" for x in lines[:first_call] + ["West doubles"]).encode())
            for raw in f:
                replies.append(raw.decode().strip())

    run = run_session(tmp_path, boards=2, scripted={("open", SEAT): west})
    assert isinstance(run.error, BidlabError) and "West's X" in str(run.error)
    assert any(r.startswith("Error:") and "X" in r for r in replies)
    assert len(run.session.finished()) == 1 and run.session.finished()[0] == recorded["manager_board1"]


def test_card_not_held_is_refused_with_a_reason(tmp_path, recorded):
    """West's first card replaced by one West does not hold: refused, named, session stopped."""
    lines = list(recorded["to_manager"])
    i = next(i for i, x in enumerate(lines) if x.startswith("West plays "))
    west_hand = Deal.parse(recorded["manager_board1"]["deal"])[Seat.W]
    alien = next(c for c in (Card.from_index(j) for j in range(52)) if c not in west_hand)
    lines[i] = f"West plays {alien.rank.char}{alien.suit.letter}"

    def west(port):
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall("".join(x + "\r\n" for x in lines[: i + 1]).encode())
            while s.recv(4096):
                pass

    run = run_session(tmp_path, boards=2, scripted={("open", SEAT): west})
    assert isinstance(run.error, BidlabError) and "does not hold" in str(run.error)
    assert run.session.finished() == []


def test_a_stopped_session_resumes_where_it_stopped(tmp_path, recorded):
    """Board 2 breaks (West redoubles instead of asking for its cards); the rerun plays board 2 only, and the whole
    session then equals one that never stopped."""
    lines = list(recorded["to_manager"])
    start = board2_start(lines, "West ready for deal")

    def west(port):
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall("".join(x + "\r\n" for x in lines[:start] + ["West ready for deal", "West redoubles"]).encode())
            while s.recv(4096):
                pass

    first = run_session(tmp_path, boards=2, scripted={("open", SEAT): west})
    assert isinstance(first.error, BidlabError) and len(first.session.finished()) == 1
    second = run_session(tmp_path, boards=2)
    assert second.error is None and not second.client_errors
    # The clients of the second run saw only board 2.
    assert [b.number for b in second.clients[("open", SEAT)].session.boards] == [2]
    whole = run_session(tmp_path / "whole", boards=2)
    assert second.session.finished() == whole.session.finished()


def test_the_seat_at_fault_is_told_why_before_the_table_closes(tmp_path, recorded):
    lines = list(recorded["to_manager"])
    assert lines[1] == "West ready for teams"
    replies: list[str] = []

    def west(port):
        with socket.create_connection(("127.0.0.1", port)) as s:
            f = s.makefile("rb")
            s.sendall(f"{lines[0]}\r\nWest ready for cards\r\n".encode())
            for raw in f:
                replies.append(raw.decode().strip())

    run = run_session(tmp_path, boards=1, scripted={("open", SEAT): west})
    assert isinstance(run.error, BidlabError)
    assert replies[-1].startswith("Error:") and "ready for teams" in replies[-1] and "ready for cards" in replies[-1]
    # The other three programs are disconnected cleanly: a connection error, nothing else.
    assert set(run.client_errors) == {("open", s) for s in Seat if s != SEAT}
    assert all("closed the connection" in str(e) for e in run.client_errors.values())
