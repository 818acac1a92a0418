"""`bidlab bluechip connect --seat NS --agent A+B`: each seat's connection bids with its own
member of the team, so a Blue Chip table bids as `bidlab match "A+B" ...` does (issue 29)."""

from __future__ import annotations

import socket
import threading

from bidlab.bluechip.manager import ServeConfig, Session, load_boards
from bidlab.cli import main
from bidlab.eval.match import Match, MatchConfig, load_results

TIMEOUT = 60.0
TEAM, OPPONENT = "sayc+nn:sl", "sayc"


def _connect(port: int, seat: str, agent: str, codes: list) -> None:
    try:
        main(["bluechip", "connect", "--port", str(port), "--seat", seat, "--agent", agent, "--play", "rule",
              "--timeout", str(TIMEOUT)])
    except SystemExit as e:
        codes.append(e.code)


def test_a_team_at_a_blue_chip_table_bids_each_seat_with_its_member(tmp_path, capsys):
    boards = 6
    deals, dd, source = load_boards(boards, None, "test", 0, None)
    cfg = ServeConfig(port=0, tables=1, timeout=TIMEOUT, accept_timeout=TIMEOUT)
    session = Session(deals, dd, cfg, tmp_path / "session", source)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    result: dict = {}
    manager = threading.Thread(target=lambda: result.update(summary=session.run({"open": listener})), daemon=True)
    manager.start()
    codes: list = []
    clients = [threading.Thread(target=_connect, args=(port, seat, agent, codes), daemon=True)
               for seat, agent in (("NS", TEAM), ("EW", OPPONENT))]
    for t in clients:
        t.start()
    for t in clients + [manager]:
        t.join(timeout=5 * TIMEOUT)
    assert "summary" in result and codes == [0, 0], capsys.readouterr()
    Match(MatchConfig(TEAM, OPPONENT, "test", boards, 0), tmp_path / "match").run(workers=1)
    expected = load_results(tmp_path / "match")[1]
    played = [line["open"] for line in session.finished()]
    assert [p["auction"] for p in played] == [r["open"]["auction"] for r in expected]
    # The team bid differently from the opponent's sayc pair somewhere, or the test shows nothing.
    plain = Match(MatchConfig(OPPONENT, OPPONENT, "test", boards, 0), tmp_path / "plain")
    plain.run(workers=1)
    assert [p["auction"] for p in played] != [r["open"]["auction"] for r in load_results(tmp_path / "plain")[1]]
