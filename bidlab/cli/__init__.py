"""The ``bidlab`` command. Each layer's commands live in their own module here and are
registered below; heavy imports (torch, endplay) stay inside the commands so that
``bidlab --help`` is fast."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="bidlab",
    help="Bidding agents for bridge and Spades: deal, score, solve, train, match and play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)

from bidlab.cli import bridge as _bridge  # noqa: E402,F401,I001  (registers deal, score)
from bidlab.cli import evaluate as _evaluate  # noqa: E402,F401,I001  (registers match, report)
from bidlab.cli import web as _web  # noqa: E402,F401,I001  (registers serve)
from bidlab.cli import learn as _learn  # noqa: E402,I001
from bidlab.search import jps as _search_jps  # noqa: E402,F401,I001  (registers the jps: agent kind)
app.add_typer(_learn.data_app, name="data")
app.add_typer(_learn.train_app, name="train")

# Sub-command groups, one module each (keep one line per group):
# app.add_typer(module.app, name="...")
from bidlab.cli import spades as _spades; app.add_typer(_spades.app, name="spades")  # noqa: E402,E702
from bidlab.cli import dd as _dd; app.add_typer(_dd.app, name="dd")  # noqa: E402,E702
from bidlab.cli import jps as _jps; app.add_typer(_jps.app, name="jps")  # noqa: E402,E702


def main() -> None:
    """Entry point: bad input ends with a one-line message and exit code 2, not a traceback."""
    import sys

    from rich.console import Console

    from bidlab.errors import BidlabError

    try:
        app()
    except BidlabError as e:
        Console(stderr=True).print(f"[bold red]error:[/bold red] {e}", highlight=False)
        sys.exit(2)
