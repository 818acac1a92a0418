"""The ``bidlab`` command. Each layer's commands live in their own module here and are
registered below; heavy imports (torch, endplay) stay inside the commands so that
``bidlab --help`` is fast."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer

app = typer.Typer(
    name="bidlab",
    help="Bidding agents for bridge and Spades: deal, score, solve, train, match and play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)

from bidlab.cli import bridge as _bridge  # noqa: E402,F401,I001  (registers deal, score)
from bidlab.cli import play as _play  # noqa: E402,F401,I001  (registers play)
from bidlab.cli import evaluate as _evaluate  # noqa: E402,F401,I001  (registers match, report)
from bidlab.cli import league as _league  # noqa: E402,F401,I001  (registers league)
from bidlab.cli import web as _web  # noqa: E402,F401,I001  (registers serve)
from bidlab.cli import learn as _learn  # noqa: E402,I001
from bidlab.cli import search as _search  # noqa: E402,I001  (registers explain)
from bidlab.cli import meaning as _meaning  # noqa: E402,F401,I001  (registers meaning)
from bidlab.cli import results as _results  # noqa: E402,F401,I001  (registers results)
app.add_typer(_search.belief_app, name="belief")
app.add_typer(_learn.data_app, name="data")
app.add_typer(_learn.train_app, name="train")

# Sub-command groups, one module each (keep one line per group):
# app.add_typer(module.app, name="...")
from bidlab.cli import spades as _spades; app.add_typer(_spades.app, name="spades")  # noqa: E402,E702
from bidlab.cli import dd as _dd; app.add_typer(_dd.app, name="dd")  # noqa: E402,E702
from bidlab.cli import jps as _jps; app.add_typer(_jps.app, name="jps")  # noqa: E402,E702
from bidlab.cli import bluechip as _bluechip; app.add_typer(_bluechip.app, name="bluechip")  # noqa: E402,E702


def _version(value: bool) -> None:
    if value:
        import bidlab

        typer.echo(f"bidlab {bidlab.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_version,
                                 help="Print bidlab's version and exit."),
    imports: list[str] = typer.Option(None, "--import", metavar="MODULE",
                                      help="Import MODULE first, so that the agent kinds it registers can be "
                                      "named in specs; repeatable, and accepted after any command too "
                                      "(`bidlab match --import mybots mybot:1 sayc`)."),
) -> None:
    """Bidding agents for bridge and Spades: deal, score, solve, train, match and play."""
    import_modules(imports or [])


def import_modules(modules: list[str]) -> None:
    """Import each module (the current folder first on the path, as ``python -m`` does):
    its ``register()`` calls add agent kinds here, and worker processes re-import it when
    they unpickle its factories."""
    import importlib
    import os
    import sys

    from bidlab.errors import BidlabError

    if modules and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as e:
            raise BidlabError(f"--import {name}: {e}") from None
        except Exception as e:  # noqa: BLE001 - the user's module failed: say so in one line
            raise BidlabError(f"--import {name}: the module failed while importing: {type(e).__name__}: {e}") from None


def split_imports(argv: list[str]) -> tuple[list[str], list[str]]:
    """``argv`` without its ``--import MODULE`` (or ``--import=MODULE``) options, wherever
    they stand, and those modules: every command that takes agent specs accepts them."""
    rest, modules, i = [], [], 0
    while i < len(argv):
        word = argv[i]
        if word == "--":
            rest.extend(argv[i:])
            break
        if word == "--import" and i + 1 < len(argv):
            modules.append(argv[i + 1])
            i += 2
            continue
        if word.startswith("--import="):
            modules.append(word.partition("=")[2])
        else:
            rest.append(word)
        i += 1
    return rest, modules


def _one_line(message: str) -> str:
    return " ".join(str(message).split())


#: Width the help and tables get when output goes to a file or a pipe (rich's default there is 80).
PIPED_COLUMNS = 200


@contextmanager
def _unwrapped_when_piped() -> Iterator[None]:
    """Output to a file or a pipe is not cut to 80 columns: lines (result paths) are never
    wrapped, and help and tables get :data:`PIPED_COLUMNS`, so option names are not cut.

    On a terminal nothing changes; a ``COLUMNS`` the environment sets is kept as the width."""
    import os
    import sys

    from rich.console import Console

    if sys.stdout.isatty():
        yield
        return
    consoles = [c for name, m in list(sys.modules.items()) if name.startswith("bidlab.cli")
                for c in vars(m).values() if isinstance(c, Console) and not c.is_terminal]
    saved = [(c, c.soft_wrap) for c in consoles]
    for c in consoles:
        c.soft_wrap = True
    widen = "COLUMNS" not in os.environ
    if widen:
        os.environ["COLUMNS"] = str(PIPED_COLUMNS)
    try:
        yield
    finally:
        if widen:
            os.environ.pop("COLUMNS", None)
        for c, soft in saved:
            c.soft_wrap = soft


def _command_path(argv: list[str]) -> str:
    """``match`` or ``train rl``: the command words at the start of ``argv``."""
    cmd, words = typer.main.get_command(app), []
    for word in argv:
        sub = getattr(cmd, "commands", {}).get(word)
        if sub is None:
            break
        cmd, words = sub, [*words, word]
    return " ".join(words)


def main(argv: list[str] | None = None) -> None:
    """Entry point: bad input ends with one line on stderr and exit code 2, never a traceback.

    Click's usage errors (a bad option value, a missing argument) are shown as one line too,
    naming the command, instead of click's multi-line usage box."""
    import sys

    from rich.console import Console
    from rich.markup import escape

    from bidlab.errors import BidlabError

    err = Console(stderr=True, soft_wrap=True)

    def fail(message: str, code: int = 2) -> None:
        err.print(f"[bold red]error:[/bold red] {escape(_one_line(message))}", highlight=False)
        sys.exit(code)

    from bidlab.cli import _stop

    _stop.take_said()
    try:
        argv, modules = split_imports(sys.argv[1:] if argv is None else list(argv))
        import_modules(modules)
        with _unwrapped_when_piped():
            rc = app(args=argv, standalone_mode=False)
        if rc == 130 and not _stop.take_said():  # Ctrl-C: typer exits 130 without a word
            err.print(_stop.message(_command_path(sys.argv[1:] if argv is None else argv)), highlight=False)
    except typer.TyperException as e:  # click's exceptions (typer vendors click)
        ctx = getattr(e, "ctx", None)
        if type(e).__name__ == "NoArgsIsHelpError" and ctx is not None:
            typer.echo(ctx.get_help())
            sys.exit(0)
        where = ctx.command_path if ctx is not None else "bidlab"
        fail(f"{where}: {e.format_message()} (see {where} --help)", getattr(e, "exit_code", 2))
    except (typer.Abort, KeyboardInterrupt):
        err.print(_stop.message(_command_path(sys.argv[1:] if argv is None else argv)), highlight=False)
        sys.exit(130)
    except BidlabError as e:
        fail(str(e))
    except PermissionError as e:
        fail(f"permission denied: {e.filename or e}")
    except IsADirectoryError as e:
        fail(f"is a directory, not a file: {e.filename or e}")
    except NotADirectoryError as e:
        fail(f"a part of this path is a file, not a folder: {e.filename or e}")
    except OSError as e:  # a folder that cannot be made (/proc/x, a read-only disk, a full disk): one line
        where = f": {e.filename}" if e.filename else ""
        fail(f"{e.strerror or e}{where}")
    sys.exit(rc if isinstance(rc, int) else 0)
