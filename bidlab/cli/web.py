"""``bidlab serve``: the local web app (bid a board with and against the bots, browse matches)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from bidlab.cli import app

console = Console()


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to bind; the default serves this machine only."),
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

    model_dirs = list(models) if models else [shipped_models_dir(), Path("models")]
    web = create_app(results_dir=results, model_dirs=model_dirs, max_boards=max_boards)
    if host not in ("127.0.0.1", "localhost", "::1"):
        console.print(f"[yellow]warning:[/yellow] serving on {host}: anyone who can reach it can use it", highlight=False)
    console.print(f"bidlab table at http://{'[' + host + ']' if ':' in host else host}:{port}/", highlight=False)
    uvicorn.run(web, host=host, port=port, log_level="warning")
