"""Proportional prioritized experience replay (Schaul et al. 2016), as Qiu et al. Sec. IV uses it.

A :class:`SumTree` keeps the priorities of a fixed-capacity ring buffer in a flat numpy
array (leaf ``i`` at ``capacity + i``, node ``k``'s children at ``2k`` and ``2k + 1``), so
one update or one batch of samples costs ``log2(capacity)`` vector operations whatever the
batch size: no Python loop per sample.

:class:`ReplayBuffer` stores transitions column by column (any fixed-shape numpy arrays) and
samples them

- proportionally (``prioritized=True``): stratified, one uniform draw in each of ``batch``
  equal slices of the total priority, item ``i`` drawn with ``P(i) = p_i / sum p``;
  importance-sampling weights ``w_i = (N P(i))^-beta`` divided by the batch maximum
  (the authors' ``cpp/replay_buffer.h`` normalizes by the batch maximum too);
- uniformly (``prioritized=False``, the ``--no-per`` ablation): weights all 1.

Priorities are stored as given: the caller raises them to ``alpha`` (``|r - v(h)|^alpha``).
The buffer adds ``eps`` (1e-4) to every stored priority. The authors' code uses no epsilon;
we add one because in bridge self-play many boards score exactly 0 IMPs and a value net that
learns to say 0 there would make those transitions unsampleable forever.

``ready`` is false until the buffer holds ``burn_in`` transitions (the learner waits).
"""

from __future__ import annotations

import numpy as np

from bidlab.errors import BidlabError


class ReplayError(BidlabError):
    """A replay buffer was built or used with inconsistent shapes or settings."""


class SumTree:
    """Priorities of ``capacity`` slots with O(log n) vectorized update and sampling."""

    def __init__(self, capacity: int):
        if capacity < 1:
            raise ReplayError(f"a sum tree needs a capacity of at least 1, got {capacity}")
        self.capacity = int(capacity)
        self._leaves = 1 << max(0, (self.capacity - 1).bit_length())
        self.depth = self._leaves.bit_length() - 1
        self.tree = np.zeros(2 * self._leaves, np.float64)

    @property
    def total(self) -> float:
        return float(self.tree[1])

    def priorities(self, idx=None) -> np.ndarray:
        leaves = self.tree[self._leaves:self._leaves + self.capacity]
        return leaves.copy() if idx is None else leaves[np.asarray(idx, np.intp)]

    def update(self, idx, priority) -> None:
        """Set the priorities of slots ``idx`` (repeats: the last one wins) and refresh their ancestors."""
        idx = np.asarray(idx, np.intp).ravel()
        priority = np.broadcast_to(np.asarray(priority, np.float64), idx.shape)
        if idx.size == 0:
            return
        if idx.min() < 0 or idx.max() >= self.capacity:
            raise ReplayError(f"slot index outside 0..{self.capacity - 1}")
        if not np.isfinite(priority).all() or (priority < 0).any():
            raise ReplayError("priorities must be finite and non-negative")
        node = idx + self._leaves
        self.tree[node] = priority  # fancy assignment: the last of repeated indices wins
        node = np.unique(node >> 1)
        while node.size and node[0] >= 1:
            # recompute sums from the children (not deltas), so no rounding drift accumulates
            self.tree[node] = self.tree[2 * node] + self.tree[2 * node + 1]
            if node[0] == 1:
                break
            node = np.unique(node >> 1)

    def find(self, mass) -> np.ndarray:
        """For each value in ``[0, total)`` the slot whose cumulative-priority interval holds it."""
        u = np.array(mass, np.float64, copy=True).ravel()
        node = np.ones(u.shape, np.intp)
        for _ in range(self.depth):
            left = self.tree[2 * node]
            right = self.tree[2 * node + 1]
            # go right past the left mass; never step into an empty subtree (rounding at the edges)
            go_right = ((u >= left) & (right > 0)) | (left <= 0)
            u = np.where(go_right, u - left, u)
            node = 2 * node + go_right
        return node - self._leaves

    def sample(self, batch: int, rng: np.random.Generator) -> np.ndarray:
        """``batch`` slots, stratified: one uniform draw in each of ``batch`` equal slices of the mass."""
        total = self.total
        if total <= 0:
            raise ReplayError("cannot sample from a sum tree whose priorities are all zero")
        u = (np.arange(batch) + rng.random(batch)) * (total / batch)
        return self.find(np.minimum(u, np.nextafter(total, 0)))


class ReplayBuffer:
    """A ring buffer of transitions with proportional (or uniform) sampling; see the module docstring."""

    def __init__(self, capacity: int, columns: dict[str, tuple[tuple[int, ...], np.dtype]], *,
                 prioritized: bool = True, beta: float = 0.6, burn_in: int = 0, eps: float = 1e-4,
                 seed: int = 0):
        if burn_in > capacity:
            raise ReplayError(f"burn-in {burn_in} is larger than the buffer ({capacity})")
        self.capacity = int(capacity)
        self.data = {k: np.zeros((self.capacity, *shape), dtype) for k, (shape, dtype) in columns.items()}
        self.tree = SumTree(self.capacity)
        self.prioritized = prioritized
        self.beta = float(beta)
        self.burn_in = int(burn_in)
        self.eps = float(eps)
        self.size = 0
        self.ptr = 0
        self.inserted = 0
        self.rng = np.random.default_rng(seed)

    def __len__(self) -> int:
        return self.size

    @property
    def ready(self) -> bool:
        return self.size >= max(self.burn_in, 1)

    def add(self, batch: dict[str, np.ndarray], priority: np.ndarray) -> np.ndarray:
        """Insert ``k`` transitions (overwriting the oldest when full); returns their slots."""
        k = len(priority)
        if set(batch) != set(self.data):
            raise ReplayError(f"transition columns {sorted(batch)} != buffer columns {sorted(self.data)}")
        if k > self.capacity:  # keep the newest capacity transitions
            batch = {c: v[-self.capacity:] for c, v in batch.items()}
            priority = priority[-self.capacity:]
            k = self.capacity
        slots = (self.ptr + np.arange(k)) % self.capacity
        for c, v in batch.items():
            if len(v) != k:
                raise ReplayError(f"column {c} has {len(v)} rows, priorities {k}")
            self.data[c][slots] = v
        self.tree.update(slots, np.asarray(priority, np.float64) + self.eps)
        self.ptr = int((self.ptr + k) % self.capacity)
        self.size = min(self.capacity, self.size + k)
        self.inserted += k
        return slots

    def sample(self, batch: int) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray]:
        """(slots, columns, importance-sampling weights float32[batch])."""
        if self.size == 0:
            raise ReplayError("cannot sample from an empty replay buffer")
        if self.prioritized:
            slots = self.tree.sample(batch, self.rng)
            p = self.tree.priorities(slots) / self.tree.total
            w = (self.size * p) ** (-self.beta)
            w = (w / w.max()).astype(np.float32)
        else:
            slots = self.rng.integers(0, self.size, batch)
            w = np.ones(batch, np.float32)
        return slots, {c: v[slots] for c, v in self.data.items()}, w

    def update_priorities(self, slots: np.ndarray, priority: np.ndarray) -> None:
        """New priorities (already raised to alpha) of sampled slots after a learner step."""
        if self.prioritized:
            self.tree.update(slots, np.asarray(priority, np.float64) + self.eps)

    def mean_priority(self) -> float:
        return self.tree.total / max(self.size, 1)
