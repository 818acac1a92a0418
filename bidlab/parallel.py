"""Run independent tasks on worker processes and hand back each result as it finishes.

Long jobs (matches, expert data, tournaments) split their work into chunks that are
saved one by one, so ``on_result`` runs in the parent, which alone writes files. On
Ctrl-C or any error, tasks not yet started are cancelled and the error propagates;
finished chunks are already on disk, so rerunning the job resumes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import Any


def _one_thread_per_process() -> None:
    # The workers already use every core; BLAS or torch threads inside each would fight.
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("MKL_NUM_THREADS", "1")


def run_tasks(fn: Callable[[Any], Any], tasks: Iterable[Any], workers: int,
              on_result: Callable[[Any], None]) -> None:
    """Call ``fn(task)`` for every task, in ``workers`` spawned processes (in this one if 1)."""
    tasks = list(tasks)
    if workers <= 1 or len(tasks) <= 1:
        for t in tasks:
            on_result(fn(t))
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"),
                             initializer=_one_thread_per_process) as pool:
        futures = [pool.submit(fn, t) for t in tasks]
        try:
            for fut in as_completed(futures):
                on_result(fut.result())
        except BaseException:
            for f in futures:
                f.cancel()
            raise
