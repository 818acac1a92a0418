"""``bidlab bluechip``: seat a bidlab agent at a Blue Chip table, or host a table for four programs."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import typer
from rich.console import Console

from bidlab.cli._checks import check_output_folder
from bidlab.errors import BidlabError
from bidlab.runtime.progress import from_counts, plural, progress_display

app = typer.Typer(help="Blue Chip Bridge table protocol: a client for any table manager, and a table manager.",
                  no_args_is_help=True)
console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)


def _fail(e: BidlabError) -> None:
    err_console.print(f"[bold red]error:[/bold red] {e}", highlight=False)
    raise typer.Exit(2)


def _seats(text: str):
    from bidlab.cards import Seat

    t = text.strip().upper()
    names = {"NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W"}
    t = names.get(t, t)
    if not t or any(ch not in "NESW" for ch in t) or len(set(t)) != len(t):
        raise typer.BadParameter(f"seat must be N, E, S, W or several of them like NS, got {text!r}")
    return [Seat.parse(ch) for ch in t]


@app.command()
def connect(
    host: str = typer.Option("127.0.0.1", help="Table manager's address."),
    port: int = typer.Option(2000, min=1, max=65535, help="Table manager's port (one port per table)."),
    seat: str = typer.Option(..., help="Seat to take: N, E, S or W; NS or EW takes both seats of a pair "
                             "(one protocol connection each)."),
    agent: str = typer.Option("sayc", help="Bidding agent spec, any bidlab agent: sayc, nn:sl, nn:rl, bmcs:rl, "
                              "jps:rl, random:SEED, nn:PATH ...; a team A+B bids with A at North/East and B at "
                              "South/West (e.g. --seat NS --agent sayc+nn:sl)."),
    team: str = typer.Option(None, help="Team name sent when connecting (default: the agent spec)."),
    seed: int = typer.Option(0, help="Seed for the agent and the card player."),
    play: str = typer.Option("dd", help="Card play: dd (double dummy on sampled deals) or rule (fast heuristic)."),
    samples: int = typer.Option(8, min=1, help="Deals sampled per card for --play dd."),
    timeout: float = typer.Option(600.0, min=0.1, help="Seconds to wait for any one line before giving up."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Print every line sent and received."),
) -> None:
    """Sit at a Blue Chip table and play a session: bid with AGENT, play by double dummy on sampled deals."""
    import bidlab.search  # noqa: F401  (registers bmcs:, mcs:, jps:, also as team members)
    from bidlab.agents.registry import make_agent, member_seed, refuse_peeking, seat_agent_spec
    from bidlab.agents.specs import check_agent_spec
    from bidlab.bluechip.client import PLAYERS, BlueChipClient, make_player
    from bidlab.bluechip.client import connect as open_connection
    from bidlab.bluechip.connection import LineConnection

    if verbose:
        logging.basicConfig(level=logging.DEBUG, format="%(message)s")
    seats = _seats(seat)
    try:
        # the agent and the card player are checked (and built) before connecting: a bad
        # option must not take a seat at the table and then leave it
        if play not in PLAYERS:
            raise BidlabError(f"--play must be {' or '.join(PLAYERS)}, got {play!r}")
        refuse_peeking(agent, "a Blue Chip table")
        agent = check_agent_spec(agent)
        seated = []
        for s in seats:
            # Each seat's connection bids with its own member of a team A+B, seeded as the
            # team would seed it; a single agent is its own member.
            spec, k = seat_agent_spec(agent, int(s))
            seated.append((s, make_agent(spec, member_seed(seed, k)), make_player(play, samples, seed + int(s))))
        clients = []
        for s, bidder, player in seated:
            conn = LineConnection(open_connection(host, port, timeout), "table manager", timeout)
            clients.append(BlueChipClient(conn, s, bidder, team or agent, player))
    except BidlabError as e:
        _fail(e)
    errors: list[BidlabError] = []

    def run(c) -> None:
        try:
            c.run()
        except BidlabError as e:
            errors.append(e)

    threads = [threading.Thread(target=run, args=(c,), daemon=True) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for c in clients:
        console.print(f"{c.seat.full_name}: {plural(len(c.session.boards), 'board')} played", highlight=False)
        for line in c.log.lines():
            console.print(f"  {line}", highlight=False)
    if errors:
        _fail(errors[0])


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on; only loopback unless --allow-remote."),
    port: int = typer.Option(2000, min=1, max=65534, help="Port of the open room; the closed room uses PORT+1."),
    boards: int = typer.Option(None, min=1, help="Boards to play (default 32, or every board of --pbn)."),
    pbn_file: Path = typer.Option(None, "--pbn", help="Play the boards of this PBN file instead."),
    tables: int = typer.Option(2, min=1, max=2, help="1 table, or 2 for a team match (open and closed room, IMPs)."),
    split: str = typer.Option("test", help="Deal split of the store, as `bidlab match` uses."),
    seed: int = typer.Option(0, help="Seed of the deal sample: the same boards as `bidlab match --seed`."),
    store: Path = typer.Option(None, help="Deal store folder (default: the store shipped with bidlab)."),
    out: Path = typer.Option(None, help="Output folder (default results/bluechip-N-sSEED)."),
    timeout: float = typer.Option(600.0, min=0.1, help="Seconds a program may take for any one line."),
    accept_timeout: float = typer.Option(3600.0, min=0.1, help="Seconds to wait for the programs to connect."),
    timing: bool = typer.Option(True, help="Send the Timing line after each board (some managers do not)."),
    allow_remote: bool = typer.Option(False, "--allow-remote", help="Allow listening on a non-loopback address."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Print every line sent and received."),
) -> None:
    """Host a Blue Chip session: seat four programs per table, deal, relay, check, score, record.

    Boards are scored by the contract's double-dummy tricks, as `bidlab match` scores them
    (IMPs for the team seated NS in the open room), and by the tricks taken in the play."""
    from bidlab.bluechip.connection import check_loopback
    from bidlab.bluechip.manager import ServeConfig, Session, load_boards

    if verbose:
        logging.basicConfig(level=logging.DEBUG, format="%(threadName)s %(message)s")
    try:
        check_loopback(host, allow_remote)
        cfg = ServeConfig(host, port, tables, timeout, accept_timeout, timing, allow_remote)
        deals, dd, source = load_boards(boards, None if pbn_file is None else str(pbn_file), split, seed,
                                        None if store is None else str(store))
        folder = out or Path("results") / f"bluechip-{len(deals)}-s{seed}"
        # checked before any program is waited for: a folder that cannot take the results
        # would otherwise be found out only after the first board was played
        check_output_folder(folder)
        session = Session(deals, dd, cfg, folder, source)
        rooms = " and ".join(f"{r} room on {host}:{port + k}" for k, r in enumerate(session.rooms))
        already = sum(x is not None for r in session.rooms for x in session.results[r])
        if already:
            console.print(f"resuming {folder}: {already} of {plural(len(deals) * tables, 'room-board')} "
                          "already played", highlight=False)
        console.print(f"{plural(len(deals), 'board')}; waiting for programs: {rooms}", highlight=False)
        with progress_display(console) as display:
            update = from_counts(display.task("room-boards"))
            done = {r: 0 for r in session.rooms}
            update(0, len(deals) * tables)

            def progress(room: str, n: int) -> None:
                done[room] = n
                update(sum(done.values()), len(deals) * tables)

            summary = session.run(progress=progress)
    except BidlabError as e:
        _fail(e)
    for line in session.log.lines():
        console.print(line, highlight=False)
    if "imps_team1" in summary:
        t = summary["teams"]["open"]
        for key, what in (("imps_team1", "double dummy"), ("imps_team1_played", "as played")):
            s = summary[key]
            console.print(f"{t['ns']} vs {t['ew']}: {s['per_board']:+.2f} ± {s['se']:.2f} IMPs/board for "
                          f"{t['ns']} ({what}) over {plural(s['boards'], 'board')}", highlight=False)
    console.print(f"results: {folder}/results.jsonl, record: {folder}/session.pbn", highlight=False)
