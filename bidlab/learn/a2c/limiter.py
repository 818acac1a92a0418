"""The replay-ratio limiter that lets the actors and the learner keep a chosen pace."""

from __future__ import annotations

import threading
import time

from bidlab.learn.a2c.config import RLTrainingError


class ReplayRatioLimiter:
    """Holds the replay ratio (transitions learned per transition generated) near ``ratio``,
    like Reverb's ``SampleToInsertRatio``: after the burn-in, an actor starts a batch only while
    ``ratio * (inserted - largest_batch - burn_in) <= learned`` (one batch ahead, so actor and
    learner overlap: without it they took turns and both idled ~40% of a measured run), and the learner steps only while
    ``learned <= ratio * (inserted - burn_in) + slack`` (``slack``: one learner batch). One of
    the two may always proceed (batches queued by an actor count for the actor at once and for
    the learner when the loop inserts them, which it does while the learner waits), so they
    never wait for each other. ``ratio`` None: no limit (the actors generate as fast as they
    can: the default, and the behaviour of older runs).

    What "the learner keeps pace" means here (our decision): the loop holds a chosen replay
    ratio at steady state, rather than whatever the two threads' speeds give. On this 2-core
    machine one actor thread generates about 3x as many transitions per CPU-second as the
    learner learns (a learned transition costs a forward and a backward pass of both nets, a
    generated one a forward pass), so a free-running actor fills the buffer with transitions
    the learner mostly never samples (replay ratio ~0.34, the buffer turning over every few
    seconds). ``0.5`` keeps the learner saturated and the generation above 10,000
    transitions/s (README, ``benchmarks/selfplay_throughput.py``); the actor waits for the rest
    of its time. The ratio does not enter :meth:`A2CConfig.training_key`: runs resume with or
    without it."""

    def __init__(self, ratio: float | None, burn_in: int, slack: int):
        if ratio is not None and not ratio > 0:
            raise RLTrainingError(f"--replay-ratio must be > 0, got {ratio}")
        self.ratio, self.burn_in, self.slack = ratio, burn_in, slack
        self.inserted = 0   # transitions in the replay buffer's count (added by the loop)
        self.produced = 0   # transitions made by local actor threads, queued ones included
        self.largest = 0    # largest actor batch: an actor overshoots by at most one batch
        self.learned = 0
        self.actor_wait_seconds = 0.0
        self._cond = threading.Condition()

    def actor_may_play(self) -> bool:
        made = max(self.produced, self.inserted)  # batches waiting in a queue count as made
        # one batch ahead: the actor starts its next batch while the learner still has that
        # batch's worth of allowance, so the two run side by side instead of taking turns
        return self.ratio is None or self.ratio * (made - self.largest - self.burn_in) <= self.learned

    def learner_may_step(self) -> bool:
        return self.ratio is None or self.learned <= self.ratio * (self.inserted - self.burn_in) + self.slack

    def add_inserted(self, n: int) -> None:
        with self._cond:
            self.inserted += n
            self.largest = max(self.largest, n)
            self._cond.notify_all()

    def add_produced(self, n: int) -> None:
        with self._cond:
            self.produced += n
            self.largest = max(self.largest, n)

    def add_learned(self, n: int) -> None:
        with self._cond:
            self.learned += n
            self._cond.notify_all()

    def wait_for_actor(self, stop: threading.Event, timeout: float = 0.2) -> bool:
        """Block an actor thread until it may play (True) or ``timeout`` passes (False)."""
        if self.actor_may_play():
            return True
        t0 = time.perf_counter()
        with self._cond:
            ok = self._cond.wait_for(lambda: stop.is_set() or self.actor_may_play(), timeout)
        self.actor_wait_seconds += time.perf_counter() - t0
        return bool(ok) and not stop.is_set()
