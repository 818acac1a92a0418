"""One progress display for every long command: a rich bar on a terminal, and a plain
line every ``every`` seconds when output goes to a file or a pipe (nohup, CI logs), where
a live bar would print nothing until the end."""

from __future__ import annotations

import time
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class _PlainProgress:
    def __init__(self, console: Console, every: float):
        self.console, self.every = console, every
        self.tasks: dict[int, dict] = {}
        self.t0 = time.time()
        self.last = 0.0

    def add_task(self, description: str, total: float | None = None, **fields) -> int:
        k = len(self.tasks)
        self.tasks[k] = {"description": description, "total": total, "completed": 0, **fields}
        return k

    def advance(self, task: int, amount: float = 1) -> None:
        self.update(task, completed=self.tasks[task]["completed"] + amount)

    def stop(self) -> None:
        pass

    def update(self, task: int, **kw) -> None:
        self.tasks[task].update(kw)
        now = time.time()
        t = self.tasks[task]
        finished = t["total"] is not None and t["completed"] >= t["total"]
        if now - self.last >= self.every or finished:
            self.last = now
            elapsed = now - self.t0
            line = f"{t['description']}: {t['completed']:.0f}"
            if t["total"]:
                line += f"/{t['total']:.0f}"
                if t["completed"]:
                    eta = elapsed * (t["total"] - t["completed"]) / t["completed"]
                    line += f"  elapsed {elapsed:.0f}s  eta {eta:.0f}s"
            if t.get("info"):
                line += f"  {t['info']}"
            self.console.print(line, highlight=False)


@contextmanager
def progress_bar(console: Console, every: float = 30.0):
    """Yields an object with rich's ``add_task(description, total=..., info=...)``,
    ``update``, ``advance``, ``stop`` and ``console``."""
    if console.is_terminal:
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("{task.fields[info]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                      console=console) as bar:
            yield bar
    else:
        yield _PlainProgress(console, every)
