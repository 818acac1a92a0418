"""Lines over a TCP socket for the Blue Chip protocol: timeouts, LF or CRLF, and the loopback rule.

The protocol sends one message per line; the canonical line end is CRLF, and a bare LF is
accepted (and noted in the :class:`~bidlab.bluechip.protocol.ToleranceLog`). Every read has a
timeout, so a silent peer ends the session with a :class:`ConnectionLostError` instead of a hang.
"""

from __future__ import annotations

import ipaddress
import logging
import socket

from bidlab.bluechip.protocol import (
    LF,
    ConnectionLostError,
    Message,
    ProtocolError,
    ToleranceLog,
    format_message,
)
from bidlab.errors import BidlabError

#: Longest line accepted; a hand or an alert explanation is far shorter.
MAX_LINE = 4096

logger = logging.getLogger("bidlab.bluechip")


class BindRefusedError(BidlabError):
    """The table manager was asked to listen on an address other than this machine."""


def check_loopback(host: str, allow_remote: bool) -> None:
    """Refuse any host that is not a loopback address unless ``allow_remote`` is set.

    A table manager accepts programs that send it arbitrary text; listening beyond this
    machine is a choice the user must make explicitly.
    """
    if allow_remote:
        return
    try:
        infos = socket.getaddrinfo(host, None)
    except socket.gaierror as e:
        raise BindRefusedError(f"cannot resolve host {host!r}: {e.strerror}") from None
    for info in infos:
        addr = info[4][0]
        if not ipaddress.ip_address(addr.split("%")[0]).is_loopback:
            raise BindRefusedError(
                f"refusing to listen on {host} ({addr}): it is not a loopback address; "
                "pass --allow-remote to accept programs from other machines"
            )


class LineConnection:
    """One peer: send canonical lines, receive lines with a timeout.

    ``name`` appears in every error ("North", "table manager"), so the user knows which
    side broke the session.
    """

    def __init__(self, sock: socket.socket, name: str, timeout: float | None = 60.0,
                 log: ToleranceLog | None = None):
        self.sock = sock
        self.name = name
        self.timeout = timeout
        self.log = ToleranceLog() if log is None else log
        self._buf = b""
        self.closed = False
        sock.settimeout(timeout)
        try:
            # One short line per message, each awaited by the peer: Nagle's delay would add
            # ~40 ms to every exchange (hundreds per board).
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass  # not a TCP socket (a socketpair in tests)

    def send_line(self, text: str) -> None:
        logger.debug("-> %s: %s", self.name, text)
        try:
            self.sock.sendall(text.encode("utf-8") + b"\r\n")
        except OSError as e:
            raise ConnectionLostError(f"{self.name}: connection lost while sending ({e.strerror or e})") from None

    def send(self, msg: Message) -> None:
        self.send_line(format_message(msg))

    def receive_line(self, waiting_for: str = "a line") -> str:
        """The next line without its line end; raises :class:`ConnectionLostError` on EOF or timeout."""
        while True:
            i = self._buf.find(b"\n")
            if i >= 0:
                raw, self._buf = self._buf[:i], self._buf[i + 1:]
                if raw.endswith(b"\r"):
                    raw = raw[:-1]
                    crlf = True
                else:
                    crlf = False
                text = raw.replace(b"\r", b"").decode("utf-8", errors="replace")
                if not crlf:
                    self.log.note(LF, text)
                logger.debug("<- %s: %s", self.name, text)
                if not text.strip():
                    continue  # blank lines carry nothing; some programs send them between messages
                return text
            if len(self._buf) > MAX_LINE:
                raise ProtocolError(f"{self.name}: line longer than {MAX_LINE} bytes without a line end")
            try:
                chunk = self.sock.recv(4096)
            except TimeoutError:
                raise ConnectionLostError(
                    f"{self.name}: nothing received for {self.timeout:g} s while waiting for {waiting_for}"
                ) from None
            except OSError as e:
                raise ConnectionLostError(f"{self.name}: connection lost ({e.strerror or e})") from None
            if not chunk:
                raise ConnectionLostError(f"{self.name} closed the connection while we waited for {waiting_for}")
            self._buf += chunk

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
