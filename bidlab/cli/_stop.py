"""What a command says when Ctrl-C stops it.

Typer turns Ctrl-C into exit code 130 with no word; a user then cannot tell whether the
work done so far was kept. Commands that keep finished work and resume it list themselves
in :data:`RESUMABLE`; a command that says something more precise calls :func:`stopped`."""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console

#: Commands (as typed after ``bidlab``) whose finished work is saved and resumed by a rerun.
RESUMABLE = frozenset({
    "match", "data expert", "train sl", "train rl", "train belief", "train tricks", "train judge", "dd generate",
    "spades tournament", "spades fit-curves", "bluechip serve", "jps table1", "jps table2",
})

_said = {"done": False}


def stopped(console: Console, text: str) -> NoReturn:
    """Print the command's own message for Ctrl-C and exit with 130 (the shell's code for it)."""
    console.print(text, highlight=False)
    _said["done"] = True
    raise typer.Exit(130)


def take_said() -> bool:
    """Whether the command already said what was kept (and forget it, for the next command)."""
    said, _said["done"] = _said["done"], False
    return said


def message(command: str) -> str:
    if command in RESUMABLE:
        return "stopped; finished work saved; rerun the same command to resume"
    return "stopped"
