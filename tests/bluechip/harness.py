"""Blue Chip sessions inside one test process: a table manager thread, client threads, and a
line-rewriting proxy to put another program's habits (case, line ends, dots, ...) on the wire."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from bidlab.agents.registry import make_agent
from bidlab.bluechip.client import BlueChipClient, make_player
from bidlab.bluechip.connection import LineConnection
from bidlab.bluechip.manager import ServeConfig, Session, load_boards
from bidlab.cards import Seat

#: Generous per-line timeout: it only bounds a broken test, it never decides a result.
TIMEOUT = 30.0

Rewrite = Callable[[str], str | None]


class LineProxy:
    """Forwards lines between a client (socketpair end) and the table manager (TCP), rewriting them.

    ``to_client``/``to_manager`` rewrite each line (None drops it); ``client_end``/``manager_end``
    are the line ends written. ``seen_by_client``/``sent_by_client`` record the original lines.
    """

    def __init__(self, port: int, to_client: Rewrite | None = None, to_manager: Rewrite | None = None,
                 client_end: bytes = b"\r\n", manager_end: bytes = b"\r\n"):
        self.client_sock, self._inner = socket.socketpair()
        self._tm = socket.create_connection(("127.0.0.1", port))
        self.seen_by_client: list[str] = []
        self.sent_by_client: list[str] = []
        self._threads = [
            threading.Thread(target=self._pump, args=(self._tm, self._inner, to_client, client_end,
                                                      self.seen_by_client), daemon=True),
            threading.Thread(target=self._pump, args=(self._inner, self._tm, to_manager, manager_end,
                                                      self.sent_by_client), daemon=True),
        ]
        for t in self._threads:
            t.start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket, rewrite: Rewrite | None, end: bytes,
              record: list[str]) -> None:
        buf = b""
        try:
            while True:
                chunk = src.recv(4096)
                if not chunk:
                    break
                buf += chunk
                while b"\n" in buf:
                    raw, buf = buf.split(b"\n", 1)
                    line = raw.rstrip(b"\r").decode()
                    record.append(line)
                    out = rewrite(line) if rewrite else line
                    if out is not None:
                        dst.sendall(out.encode() + end)
        except OSError:
            pass
        finally:
            for s in (dst, src):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


@dataclass
class Run:
    session: Session
    summary: dict | None = None
    error: BaseException | None = None
    clients: dict[tuple[str, Seat], BlueChipClient] = field(default_factory=dict)
    client_errors: dict[tuple[str, Seat], BaseException] = field(default_factory=dict)
    proxies: dict[tuple[str, Seat], LineProxy] = field(default_factory=dict)

    def room(self, name: str) -> list[dict]:
        return [line[name] for line in self.session.finished() if line.get(name)]


def run_session(tmp_path, *, boards: int = 2, seed: int = 0, teams: dict[str, tuple[str, str]] | None = None,
                play: str = "rule", samples: int = 2, send_timing: bool = True,
                proxies: dict[tuple[str, Seat], dict] | None = None,
                scripted: dict[tuple[str, Seat], Callable[[int], None]] | None = None) -> Run:
    """Play a session over loopback and return what happened (never raises for a failed session).

    ``teams`` maps room to the (NS, EW) agent specs; ``proxies`` puts a :class:`LineProxy`
    with the given options between one seat and the manager; ``scripted`` replaces a seat's
    client by a function called with the room's port (it must connect and close by itself).
    """
    teams = teams or {"open": ("sayc", "sayc")}
    deals, dd, source = load_boards(boards, None, "test", seed, None)
    cfg = ServeConfig(port=0, tables=len(teams), timeout=TIMEOUT, accept_timeout=TIMEOUT, send_timing=send_timing)
    session = Session(deals, dd, cfg, tmp_path / "session", source)
    run = Run(session)
    listeners = {room: socket.create_server(("127.0.0.1", 0)) for room in session.rooms}

    def manager() -> None:
        try:
            run.summary = session.run(listeners)
        except BaseException as e:  # noqa: BLE001 - the test inspects it
            run.error = e

    threads = [threading.Thread(target=manager, daemon=True)]
    for room, (ns, ew) in teams.items():
        port = listeners[room].getsockname()[1]
        for seat in Seat:
            key = (room, seat)
            if scripted and key in scripted:
                threads.append(threading.Thread(target=scripted[key], args=(port,), daemon=True))
                continue
            spec = ns if seat.side == 0 else ew
            if proxies and key in proxies:
                proxy = LineProxy(port, **proxies[key])
                run.proxies[key] = proxy
                sock = proxy.client_sock
            else:
                sock = socket.create_connection(("127.0.0.1", port))
            client = BlueChipClient(LineConnection(sock, "table manager", TIMEOUT), seat, make_agent(spec, 0),
                                    spec, make_player(play, samples, int(seat)))
            run.clients[key] = client

            def go(c=client, k=key) -> None:
                try:
                    c.run()
                except BaseException as e:  # noqa: BLE001 - the test checks it is a BidlabError
                    run.client_errors[k] = e

            threads.append(threading.Thread(target=go, daemon=True))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return run
