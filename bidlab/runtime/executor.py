"""One executor for independent tasks: in this process, on threads, or on spawned processes.

Long jobs (matches, expert data, tournaments, DD generation) split their work into tasks
whose results are saved one by one, so results come back to the parent, which alone
writes files: :func:`run_tasks` calls ``on_result`` in the parent as each task finishes
(in completion order). On Ctrl-C or any error, tasks not started are cancelled, worker
processes are stopped, and the error propagates once; finished results are already on
disk, so rerunning the job resumes.

Backends (:class:`ExecutorConfig.backend`):

- ``serial``: in this process, in order (also used for one worker or one task);
- ``thread``: a thread pool, for work that releases the GIL (numpy, torch, DDS);
- ``process``: spawned processes (never forked: torch and DDS threads do not survive a
  fork), each limited to one BLAS/OpenMP/torch thread because the workers already use
  the cores, and each ignoring SIGINT so that Ctrl-C prints nothing from the workers;
- ``ray``: reserved for the distributed self-play of the RL work. To add it, write a
  class with the :class:`Backend` interface (``ray.init(address=config.ray_address)``,
  remote tasks, ``ray.cancel`` on close) and put it in :data:`BACKENDS`.

This module imports only the standard library and :mod:`bidlab.errors`: a spawned worker
imports it (for its initializer) before any task, so it must not load numpy first.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from contextlib import closing, contextmanager
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, Protocol

from bidlab.errors import BidlabError

#: Environment that limits a worker to one thread in every numeric library it may load.
ONE_THREAD_ENV = {
    "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1", "VECLIB_MAXIMUM_THREADS": "1",
}


class ExecutorError(BidlabError):
    """The executor cannot run as configured."""


@dataclass(frozen=True)
class ExecutorConfig:
    """How to run a job's tasks. ``ray_address`` is for the future ``ray`` backend."""

    backend: str = "process"
    workers: int = 2
    ray_address: str | None = None

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ExecutorError(f"workers must be >= 1, got {self.workers}")
        if self.backend not in BACKENDS and self.backend != "ray":
            raise ExecutorError(f"unknown executor backend {self.backend!r} "
                                f"(expected one of {', '.join(sorted(BACKENDS))})")


class Backend(Protocol):
    """What a backend provides: results of ``fn`` over tasks as they finish, and a stop."""

    def results(self, fn: Callable[[Any], Any], tasks: list[Any]) -> Iterator[Any]: ...

    def close(self, cancel: bool) -> None: ...


class _Serial:
    def __init__(self, config: ExecutorConfig):
        pass

    def results(self, fn, tasks):
        for t in tasks:
            yield fn(t)

    def close(self, cancel: bool) -> None:
        pass


def _init_worker() -> None:
    """Runs first in every spawned worker: one numeric thread, and Ctrl-C is the parent's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.update(ONE_THREAD_ENV)
    import sys

    torch = sys.modules.get("torch")  # loaded already if the parent's main module imports it
    if torch is not None:
        torch.set_num_threads(1)


@contextmanager
def _spawning_environment() -> Iterator[None]:
    """While workers are spawned, they inherit one-thread limits and an ignored SIGINT.

    An ignored SIGINT survives exec, and Python installs no KeyboardInterrupt handler for
    a signal ignored at startup, so a Ctrl-C in the terminal (sent to the whole process
    group) cannot print a traceback from a worker even while it is still starting.
    """
    saved = {k: os.environ.get(k) for k in ONE_THREAD_ENV}
    os.environ.update(ONE_THREAD_ENV)
    main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        yield
    finally:
        if main:
            signal.signal(signal.SIGINT, old)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


class _Pool:
    """Shared code of the thread and process backends (both concurrent.futures pools)."""

    pool: Executor

    def __init__(self, config: ExecutorConfig):
        self.workers = config.workers
        self.futures: list[Future] = []

    def _submit_all(self, fn, tasks) -> None:
        self.futures = [self.pool.submit(fn, t) for t in tasks]

    def results(self, fn, tasks):
        self._start(min(self.workers, len(tasks)))
        self._submit_all(fn, tasks)
        pending = set(self.futures)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                yield f.result()

    def _start(self, workers: int) -> None:
        raise NotImplementedError

    def close(self, cancel: bool) -> None:
        for f in self.futures:
            f.cancel()
        self.pool.shutdown(wait=not cancel, cancel_futures=True)


class _Threads(_Pool):
    """Threads finish the task they are on when cancelled (a thread cannot be killed)."""

    def _start(self, workers: int) -> None:
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bidlab-worker")


class _Processes(_Pool):
    def _start(self, workers: int) -> None:
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"),
                                        initializer=_init_worker)

    def _submit_all(self, fn, tasks) -> None:
        # The pool spawns its workers during the first submits; they copy this environment.
        with _spawning_environment():
            super()._submit_all(fn, tasks)

    def close(self, cancel: bool) -> None:
        if not cancel:
            self.pool.shutdown(wait=True)
            return
        # Stop the running tasks too (their results would be thrown away), and let the
        # pool fail the rest as broken. No Future.cancel() here: Python 3.11's pool then
        # tries to fail a cancelled future and prints an InvalidStateError traceback.
        terminate = getattr(self.pool, "terminate_workers", None)  # Python >= 3.14
        if terminate is not None:
            terminate()
        else:
            for p in list((getattr(self.pool, "_processes", None) or {}).values()):
                p.terminate()
        self.pool.shutdown(wait=True)


def _unavailable_ray(config: ExecutorConfig) -> Backend:
    raise ExecutorError("the 'ray' executor backend is not available in this version of bidlab; "
                        "use 'process' or 'thread'")


#: Backend name -> factory. The RL work adds ``"ray"`` here (see the module docstring).
BACKENDS: dict[str, Callable[[ExecutorConfig], Backend]] = {
    "serial": _Serial, "thread": _Threads, "process": _Processes,
}


def imap_unordered(fn: Callable[[Any], Any], tasks: Iterable[Any],
                   config: ExecutorConfig | None = None) -> Iterator[Any]:
    """Results of ``fn(task)`` as they finish. Closing the iterator early, or an error
    (Ctrl-C included) while it runs, cancels the tasks not yet finished."""
    config = config or ExecutorConfig()
    tasks = list(tasks)
    name = config.backend
    if config.workers <= 1 or len(tasks) <= 1:
        name = "serial"
    factory = BACKENDS.get(name, _unavailable_ray)
    backend = factory(config)
    finished = False
    try:
        yield from backend.results(fn, tasks)
        finished = True
    finally:
        backend.close(cancel=not finished)


def run_tasks(fn: Callable[[Any], Any], tasks: Iterable[Any], on_result: Callable[[Any], None],
              config: ExecutorConfig | None = None) -> int:
    """Call ``fn(task)`` for every task (see :class:`ExecutorConfig`) and ``on_result(result)``
    in this process as each finishes; returns the number of results."""
    n = 0
    # closing(): an error in on_result must stop the workers now, not when the
    # generator is collected (the traceback keeps it alive).
    with closing(imap_unordered(fn, tasks, config)) as results:
        for result in results:
            on_result(result)
            n += 1
    return n


__all__ = ["BACKENDS", "Backend", "ExecutorConfig", "ExecutorError", "imap_unordered", "run_tasks"]
