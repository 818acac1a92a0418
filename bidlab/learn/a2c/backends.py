"""Where the actors run: threads of this process (:class:`LocalBackend`) or Ray actors on one
machine or a cluster (:class:`RayBackend`). Both take the learner's weights by ``publish`` and
hand back finished batches by ``poll``."""

from __future__ import annotations

import queue
import threading
import time

import numpy as np
import torch

from bidlab.learn.a2c.actor import SelfPlayActor
from bidlab.learn.a2c.config import A2CConfig, RLTrainingError
from bidlab.learn.a2c.limiter import ReplayRatioLimiter
from bidlab.learn.a2c.targets import SearchHook
from bidlab.runtime.executor import ExecutorError, connect_ray


class LocalBackend:
    """Actors in threads of this process; torch and numpy release the GIL, so an actor thread
    and the learner (the caller's thread) overlap on two cores, and weights and transitions
    pass without pickling. (Processes are what ``--backend ray`` gives on one machine; the
    session that built this could not compare the two fairly: the 2 cores ran at a load
    average near 20, and starting Ray alone took minutes.)"""

    def __init__(self, cfg: A2CConfig, seed: int, limiter: ReplayRatioLimiter | None = None,
                 search_hook: SearchHook | None = None):
        self.limiter = limiter or ReplayRatioLimiter(None, 0, 0)
        self.cpu_seconds = 0.0  # actor threads' CPU time (time.thread_time), for the benchmark
        self.actors = [SelfPlayActor(cfg, int(np.random.SeedSequence([seed, i]).generate_state(1)[0]),
                                     search_hook=search_hook) for i in range(cfg.actors)]
        self.queue: queue.Queue = queue.Queue(maxsize=2 * cfg.actors + 2)
        self._weights: tuple | None = None
        self._league: tuple[int, list[dict]] | None = None
        self._shares: dict[str, float] = {}
        self._exploiter: dict | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._errors: list[BaseException] = []
        self.threads = [threading.Thread(target=self._run, args=(a,), daemon=True) for a in self.actors]
        self._started = False

    def publish(self, version: int, policy: dict, value: dict) -> None:
        with self._lock:
            self._weights = (version, policy, value)
        if not self._started:
            self._started = True
            for t in self.threads:
                t.start()

    def publish_league(self, version: int, members: list[dict], shares: dict[str, float]) -> None:
        """The league's members (rebuilt by each actor when ``version`` changes) and shares."""
        with self._lock:
            if self._league is None or self._league[0] != version:
                self._league = (version, members)
            self._shares = dict(shares)

    def publish_exploiter(self, payload: dict) -> None:
        """A main exploiter's weights, target and share (:meth:`MainExploiter.actor_payload`)."""
        with self._lock:
            self._exploiter = payload

    def _run(self, actor: SelfPlayActor) -> None:
        try:
            while not self._stop.is_set():
                with self._lock:
                    w, league, shares, ex = self._weights, self._league, self._shares, self._exploiter
                if ex is not None and ex["version"] != actor.exploiter_version:
                    actor.set_exploiter(ex)
                if w is not None and w[0] != actor.version:
                    actor.set_weights(*w)
                if league is not None and league[0] != actor.league_version:
                    actor.set_league(*league)
                if league is not None:
                    actor.set_shares(shares)
                if not self.limiter.wait_for_actor(self._stop):
                    continue
                c0 = time.thread_time()
                batch = actor.play()
                self.cpu_seconds += time.thread_time() - c0
                self.limiter.add_produced(len(batch["call"]))
                while not self._stop.is_set():
                    try:
                        self.queue.put(batch, timeout=0.2)
                        break
                    except queue.Full:
                        continue
        except BaseException as e:  # surfaced in the learner's thread by poll()
            self._errors.append(e)

    def poll(self, block: bool) -> list[dict]:
        if self._errors:
            raise self._errors[0]
        out = []
        try:
            out.append(self.queue.get(timeout=1.0) if block else self.queue.get_nowait())
            while True:
                out.append(self.queue.get_nowait())
        except queue.Empty:
            pass
        return out

    def stats(self) -> list[dict]:
        return [a.stats() for a in self.actors]

    def close(self) -> None:
        self._stop.set()
        for t in self.threads:
            if t.is_alive():
                t.join(timeout=30)


class RayBackend:
    """The same :class:`SelfPlayActor` as Ray actors (one process each, one torch thread), on a
    local Ray instance or an existing cluster (``address``); the learner stays in this process."""

    def __init__(self, cfg: A2CConfig, seed: int, address: str | None = None, num_cpus: int | None = None,
                 limiter: ReplayRatioLimiter | None = None, search_hook: SearchHook | None = None):
        try:
            ray = connect_ray(address, num_cpus)
        except ExecutorError as e:
            raise RLTrainingError(str(e)) from None
        self.ray = ray
        self.limiter = limiter or ReplayRatioLimiter(None, 0, 0)
        self.idle: list[int] = []  # actors held back by the replay-ratio limiter
        remote = ray.remote(num_cpus=1)(_RayActor)
        self.actors = [remote.remote(cfg, int(np.random.SeedSequence([seed, i]).generate_state(1)[0]), search_hook)
                       for i in range(cfg.actors)]
        self.versions = {i: -1 for i in range(len(self.actors))}
        self.league_versions = {i: -1 for i in range(len(self.actors))}
        self.pending: dict = {}
        self._weights = None
        self._league = None  # (version, members in the object store, shares)

    def publish(self, version: int, policy: dict, value: dict) -> None:
        self._weights = (version, self.ray.put({k: v.numpy() for k, v in policy.items()}),
                         self.ray.put({k: v.numpy() for k, v in value.items()}))
        if not self.pending and not self.idle:  # the first publish starts every actor
            for i in range(len(self.actors)):
                self._submit(i)

    def publish_league(self, version: int, members: list[dict], shares: dict[str, float]) -> None:
        """The league's members (sent to each actor once per ``version``) and shares."""
        if self._league is None or self._league[0] != version:
            self._league = (version, self.ray.put(members), dict(shares))
        else:
            self._league = (version, self._league[1], dict(shares))

    def _submit(self, i: int) -> None:
        if not self.limiter.actor_may_play():
            self.idle.append(i)
            return
        a = self.actors[i]
        if self._weights is not None and self.versions[i] != self._weights[0]:
            a.set_weights.remote(*self._weights)  # a Ray actor runs its calls in submission order
            self.versions[i] = self._weights[0]
        if self._league is not None:
            if self.league_versions[i] != self._league[0]:
                a.set_league.remote(self._league[0], self._league[1])
                self.league_versions[i] = self._league[0]
            a.set_shares.remote(self._league[2])
        self.pending[a.play.remote()] = i

    def poll(self, block: bool) -> list[dict]:
        idle, self.idle = self.idle, []
        for i in idle:
            self._submit(i)
        if not self.pending:
            return []
        ready, _ = self.ray.wait(list(self.pending), num_returns=1, timeout=1.0 if block else 0)
        out = []
        for ref in ready:
            i = self.pending.pop(ref)
            out.append(self.ray.get(ref))
            self._submit(i)
        return out

    def stats(self) -> list[dict]:
        return self.ray.get([a.stats.remote() for a in self.actors])

    def close(self) -> None:
        for a in self.actors:
            self.ray.kill(a)
        self.pending.clear()


class _RayActor(SelfPlayActor):
    """A :class:`SelfPlayActor` in its own process: one torch thread (the process has one core)."""

    def __init__(self, cfg: A2CConfig, seed: int, search_hook: SearchHook | None = None):
        torch.set_num_threads(1)
        super().__init__(cfg, seed, search_hook=search_hook)
