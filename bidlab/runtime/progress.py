"""One progress interface for long jobs, and one display of it.

Library code takes a :class:`ProgressTask` (or ``None``) and calls ``start(total, done)``
once, then ``advance(n)`` as work finishes, and ``note(text)`` for a short status such as
the loss; it never prints. Front ends make the tasks with :func:`progress_display`: a
rich bar on a terminal, and a plain line every ``every`` seconds when output goes to a
file or a pipe (nohup, CI logs), where a live bar would print nothing until the end.

This module imports rich but nothing from the CLI, so any layer may use it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol, runtime_checkable

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 board``, ``2 boards``: a count with its noun in the right number."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


@runtime_checkable
class ProgressTask(Protocol):
    """What a long job reports to: its size, finished units, and a short status."""

    def start(self, total: int | None, done: int = 0) -> None: ...

    def advance(self, n: int = 1) -> None: ...

    def note(self, text: str) -> None: ...


class NullProgress:
    """A task that shows nothing (the default when a caller passes ``None``)."""

    def start(self, total: int | None, done: int = 0) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def note(self, text: str) -> None:
        pass


def task_or_null(progress: ProgressTask | None) -> ProgressTask:
    return NullProgress() if progress is None else progress


class CountingProgress(NullProgress):
    """A task that only counts (tests and callers that want the numbers)."""

    def __init__(self) -> None:
        self.total: int | None = None
        self.done = 0
        self.notes: list[str] = []

    def start(self, total: int | None, done: int = 0) -> None:
        self.total, self.done = total, done

    def advance(self, n: int = 1) -> None:
        self.done += n

    def note(self, text: str) -> None:
        self.notes.append(text)


def from_counts(task: ProgressTask) -> Callable[[int, int], None]:
    """A ``progress(done, total)`` callback that drives ``task``, for jobs not yet moved
    onto :class:`ProgressTask` (matches, expert data and tournaments report so)."""
    seen: dict[str, int] = {}

    def update(done: int, total: int) -> None:
        if "done" not in seen:
            task.start(total, done)
        elif done > seen["done"]:
            task.advance(done - seen["done"])
        seen["done"] = done

    return update


class _RichTask:
    def __init__(self, bar: Progress, task: TaskID):
        self._bar, self._task = bar, task

    def start(self, total: int | None, done: int = 0) -> None:
        self._bar.update(self._task, total=total, completed=done)

    def advance(self, n: int = 1) -> None:
        self._bar.advance(self._task, n)

    def note(self, text: str) -> None:
        self._bar.update(self._task, info=text)


class _PlainTask:
    def __init__(self, display: _PlainDisplay, description: str):
        self._display, self.description = display, description
        self.total: int | None = None
        self.done = 0
        self.info = ""
        self.t0 = time.monotonic()
        self.start_done = 0

    def start(self, total: int | None, done: int = 0) -> None:
        self.total, self.done, self.start_done, self.t0 = total, done, done, time.monotonic()
        self._display.show(self, force=True)

    def advance(self, n: int = 1) -> None:
        self.done += n
        self._display.show(self, force=self.total is not None and self.done >= self.total)

    def note(self, text: str) -> None:
        self.info = text

    def line(self) -> str:
        elapsed = time.monotonic() - self.t0
        line = f"{self.description}: {self.done}"
        if self.total:
            line += f"/{self.total}"
            if self.done > self.start_done:
                eta = elapsed * (self.total - self.done) / (self.done - self.start_done)
                line += f"  elapsed {elapsed:.0f}s  eta {eta:.0f}s"
        if self.info:
            line += f"  {self.info}"
        return line


class _PlainDisplay:
    def __init__(self, console: Console, every: float):
        self.console, self.every = console, every
        self.last = float("-inf")

    def show(self, task: _PlainTask, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self.last >= self.every:
            self.last = now
            self.console.print(task.line(), highlight=False, markup=False)


class ProgressDisplay:
    """Makes progress tasks; one line or bar per task."""

    def __init__(self, console: Console, bar: Progress | None, every: float):
        self.console = console
        self._bar = bar
        self._plain = _PlainDisplay(console, every) if bar is None else None

    def task(self, description: str, total: int | None = None, done: int = 0) -> ProgressTask:
        if self._bar is not None:
            t = _RichTask(self._bar, self._bar.add_task(description, total=total, completed=done, info=""))
            return t
        t = _PlainTask(self._plain, description)
        t.total, t.done, t.start_done = total, done, done
        return t


@contextmanager
def progress_display(console: Console | None = None, every: float = 30.0) -> Iterator[ProgressDisplay]:
    """A :class:`ProgressDisplay` for the duration of a job (a live bar on a terminal)."""
    console = console or Console(stderr=True)
    if console.is_terminal:
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("{task.fields[info]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                      console=console) as bar:
            yield ProgressDisplay(console, bar, every)
    else:
        yield ProgressDisplay(console, None, every)


__all__ = ["CountingProgress", "from_counts", "NullProgress", "ProgressDisplay", "ProgressTask", "progress_display",
           "task_or_null"]
