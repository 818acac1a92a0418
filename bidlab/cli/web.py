"""``bidlab serve``: the local web app (bid a board with and against the bots, browse matches)."""

from __future__ import annotations

import errno
import socket
from pathlib import Path

import typer
from rich.console import Console

from bidlab.cli import app
from bidlab.errors import BidlabError

console = Console()


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to bind; the default (loopback) accepts connections from this computer only."),
    port: int = typer.Option(8000, min=0, max=65535, help="Port to listen on."),
    results: Path = typer.Option(Path("results"), help="Results directory for the matches view "
                                 "(the only folder the server reads match files from)."),
    models: list[Path] = typer.Option(None, "--models", help="Folder of model files that nn:NAME seats may "
                                      "load (repeatable; default: the models shipped with bidlab and ./models)."),
    max_boards: int = typer.Option(200, min=1, help="Boards kept in memory; the least recently used is dropped."),
) -> None:
    """Serve the bidding table and the matches view at http://HOST:PORT/ (API schema at /docs)."""
    import uvicorn

    from bidlab.web import create_app
    from bidlab.web.agents import shipped_models_dir

    check_serve_folders(results, models)
    model_dirs = list(models) if models else [shipped_models_dir(), Path("models")]
    web = create_app(results_dir=results, model_dirs=model_dirs, max_boards=max_boards)
    if host not in ("127.0.0.1", "localhost", "::1"):
        console.print(f"[yellow]warning:[/yellow] serving on {host}: anyone who can reach it can use it", highlight=False)
    sock = bind_port(host, port)  # before the URL is announced: a busy port is one clear line
    port = sock.getsockname()[1]
    console.print(f"bidlab table at http://{'[' + host + ']' if ':' in host else host}:{port}/", highlight=False)
    server = uvicorn.Server(uvicorn.Config(web, host=host, port=port, log_level="warning"))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()


class ServeOptionError(BidlabError):
    """A folder option of ``serve`` that cannot be what it says."""


def check_serve_folders(results: Path, models: list[Path] | None) -> None:
    """Refuse, in one line and before the server starts, a ``--results`` that is a file (the
    matches view would silently stay empty) and a ``--models`` folder that does not exist (its
    models would silently be missing). A ``--results`` folder that does not exist yet is fine:
    matches written there later are listed."""
    if results.exists() and not results.is_dir():
        raise ServeOptionError(f"--results must be a folder of match results, got the file {results}")
    for folder in models or ():
        if not folder.exists():
            raise ServeOptionError(f"--models folder {folder} does not exist")
        if not folder.is_dir():
            raise ServeOptionError(f"--models must be a folder of model files, got the file {folder}")


class PortError(BidlabError):
    """The address to serve on cannot be bound."""


def bind_port(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; a :class:`PortError` that says why if it cannot be had."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise PortError(f"cannot serve on {host!r}: {e.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise PortError(f"port {port} on {host} is busy (another program is listening there); "
                            f"choose another with --port, e.g. --port {port + 1 if port else 8001}") from None
        if e.errno == errno.EACCES:
            raise PortError(f"no permission to listen on port {port} of {host}; ports below 1024 need root, "
                            "choose another with --port") from None
        raise PortError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock
