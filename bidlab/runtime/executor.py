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
- ``ray``: Ray tasks on a local Ray instance started here, or on an existing cluster
  (``ray_address``, e.g. ``auto`` or ``HOST:6379``): at most ``workers`` tasks in flight,
  each with one CPU and one numeric thread; unfinished tasks are cancelled on close. Ray is
  an optional dependency (``pip install 'bidlab[ray]'``), imported only when this backend
  runs; :func:`connect_ray` is the one place that connects to Ray (the A2C Ray actors use
  it too). A job's results do not depend on the backend: every task is seeded by its
  arguments, and the parent alone writes them.

This module imports only the standard library and :mod:`bidlab.errors`: a spawned worker
imports it (for its initializer) before any task, so it must not load numpy first.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
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
    """How to run a job's tasks. ``ray_address`` is for the ``ray`` backend (None: a local
    Ray instance, or the one this process is already connected to)."""

    backend: str = "process"
    workers: int = 2
    ray_address: str | None = None

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ExecutorError(f"workers must be >= 1, got {self.workers}")
        if self.backend not in BACKENDS:
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


def _ray_module():
    try:
        import ray
    except ImportError:
        raise ExecutorError("the 'ray' backend needs ray: pip install 'bidlab[ray]'") from None
    return ray


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast with one line if a ``HOST:PORT`` address does not answer: ``ray.init``
    alone retries for about a minute and then raises a multi-line error."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return  # "auto", "local" and other forms Ray resolves itself
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise ExecutorError(f"cannot reach the Ray cluster at {address} ({e.strerror or e}); "
                            "check --ray-address (HOST:PORT of the head node, e.g. 10.0.0.5:6379, or auto)") from None


def connect_ray(address: str | None = None, num_cpus: int | None = None):
    """Connect this process to Ray once and return the ``ray`` module.

    Already connected (e.g. by a caller's ``ray.init``): reuse that session. Otherwise
    ``address`` None starts a local instance with ``num_cpus`` CPUs (None: every core) and no
    dashboard; an address joins an existing cluster. Every failure is an :class:`ExecutorError`.
    """
    ray = _ray_module()
    if address:
        _check_reachable(address)  # even when connected already: the address asked for must answer
    if ray.is_initialized():
        return ray
    try:
        if address:
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        else:
            ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        raise ExecutorError(f"cannot connect to {where}: {first}") from None
    return ray


def _ray_task(fn: Callable[[Any], Any], task: Any) -> Any:
    """Runs in a Ray worker: one numeric thread (the task holds one CPU), then the task."""
    os.environ.update(ONE_THREAD_ENV)
    import sys

    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)
    return fn(task)


class _Ray:
    """Ray remote tasks; at most ``workers`` in flight, results in completion order."""

    def __init__(self, config: ExecutorConfig):
        self.ray = connect_ray(config.ray_address)
        self.workers = config.workers
        self.running: list[Any] = []
        self._remote = self.ray.remote(num_cpus=1, max_retries=0)(_ray_task)

    def results(self, fn, tasks):
        fn_ref = self.ray.put(fn)
        todo = iter(tasks)
        for t in todo:
            self.running.append(self._remote.remote(fn_ref, t))
            if len(self.running) >= self.workers:
                break
        while self.running:
            done, self.running = self.ray.wait(self.running, num_returns=1)
            result = self.ray.get(done[0])
            for t in todo:
                self.running.append(self._remote.remote(fn_ref, t))
                break
            yield result

    def close(self, cancel: bool) -> None:
        for ref in self.running:
            self.ray.cancel(ref, force=True)
        self.running = []


#: Backend name -> factory.
BACKENDS: dict[str, Callable[[ExecutorConfig], Backend]] = {
    "serial": _Serial, "thread": _Threads, "process": _Processes, "ray": _Ray,
}


#: What a command's ``--backend`` option offers: ``local`` (this machine, the command's usual
#: backend) or ``ray``.
CLI_BACKENDS = ("local", "ray")


def cli_executor(backend: str, workers: int, ray_address: str | None = None,
                 local: str = "process") -> ExecutorConfig:
    """The :class:`ExecutorConfig` for a command's ``--backend``/``--workers``/``--ray-address``.

    With ``ray`` it connects now, so that a missing ray or a bad address fails before the
    command writes anything."""
    if backend not in CLI_BACKENDS:
        raise ExecutorError(f"unknown backend {backend!r}; choose {' or '.join(CLI_BACKENDS)}")
    if ray_address and backend != "ray":
        raise ExecutorError("--ray-address needs --backend ray")
    if backend == "ray":
        connect_ray(ray_address)
    return ExecutorConfig("ray" if backend == "ray" else local, workers, ray_address)


def imap_unordered(fn: Callable[[Any], Any], tasks: Iterable[Any],
                   config: ExecutorConfig | None = None) -> Iterator[Any]:
    """Results of ``fn(task)`` as they finish. Closing the iterator early, or an error
    (Ctrl-C included) while it runs, cancels the tasks not yet finished."""
    config = config or ExecutorConfig()
    tasks = list(tasks)
    name = config.backend
    if name != "ray" and (config.workers <= 1 or len(tasks) <= 1):
        name = "serial"  # Ray is asked for by name (e.g. to run on a cluster): always honoured
    backend = BACKENDS[name](config)
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


__all__ = ["BACKENDS", "Backend", "ExecutorConfig", "ExecutorError", "cli_executor", "connect_ray", "imap_unordered", "run_tasks"]
