"""Prioritized replay: the sum tree against brute-force prefix sums, sampling proportions,
importance-sampling weights (Schaul et al. 2016, as Qiu et al. Sec. IV uses them)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidlab.learn.replay import ReplayBuffer, ReplayError, SumTree


def brute_find(p: np.ndarray, mass: float) -> int:
    """The slot whose cumulative interval [c_{i-1}, c_i) holds ``mass`` (zero-priority slots own none)."""
    c = np.cumsum(p)
    return int(np.searchsorted(c, mass, side="right"))


@settings(max_examples=60, deadline=None)
@given(capacity=st.integers(1, 70),
       ops=st.lists(st.tuples(st.lists(st.integers(0, 69), min_size=1, max_size=20),
                              st.lists(st.floats(0, 100, allow_nan=False), min_size=1, max_size=20)),
                    min_size=1, max_size=8))
def test_sum_tree_matches_brute_force(capacity, ops):
    tree = SumTree(capacity)
    ref = np.zeros(capacity)
    for idx, pr in ops:
        k = min(len(idx), len(pr))
        idx = np.array(idx[:k]) % capacity
        pr = np.array(pr[:k])
        tree.update(idx, pr)
        for i, v in zip(idx, pr):  # sequential semantics: the last write to a slot wins
            ref[i] = v
        np.testing.assert_allclose(tree.priorities(), ref)
        assert tree.total == pytest.approx(ref.sum(), rel=1e-12, abs=1e-9)
    if ref.sum() > 0:
        c = np.cumsum(ref)
        # masses strictly inside intervals (away from the edges, where rounding may legitimately differ)
        lo = np.concatenate([[0.0], c[:-1]])
        inside = (ref > 1e-6)
        masses = (lo + 0.5 * ref)[inside]
        np.testing.assert_array_equal(tree.find(masses), [brute_find(ref, m) for m in masses])
        # no mass ever lands on a zero-priority slot, even at the very top
        hit = tree.find(np.array([0.0, np.nextafter(tree.total, 0)]))
        assert (ref[hit] > 0).all()


def test_sampling_proportions_chi_square():
    rng = np.random.default_rng(1)
    p = np.array([1.0, 2.0, 0.0, 5.0, 0.5, 1.5, 10.0])
    tree = SumTree(len(p))
    tree.update(np.arange(len(p)), p)
    counts = np.zeros(len(p))
    draws = 0
    for _ in range(400):
        s = tree.sample(64, rng)
        np.add.at(counts, s, 1)
        draws += 64
    expected = draws * p / p.sum()
    assert counts[2] == 0
    keep = p > 0
    chi2 = (((counts - expected) ** 2)[keep] / expected[keep]).sum()
    # 5 degrees of freedom; stratified sampling has less variance than multinomial, so this
    # bound (the 99.9% point of chi2(5) is 20.5) is loose but not vacuous: a tree that ignored
    # priorities would give chi2 in the thousands
    assert chi2 < 20.5


def test_importance_weights_by_hand():
    buf = ReplayBuffer(4, {"x": ((), np.int64)}, beta=0.5, eps=0.0, seed=0)
    buf.add({"x": np.arange(4)}, np.array([1.0, 1.0, 2.0, 4.0]))
    slots, cols, w = buf.sample(4)
    np.testing.assert_array_equal(cols["x"], slots)
    # P = p / 8; w = (N P)^-beta / max = (p / 2)^-0.5 / max over the batch
    raw = (np.array([1.0, 1.0, 2.0, 4.0])[slots] / 2) ** -0.5
    np.testing.assert_allclose(w, raw / raw.max(), rtol=1e-6)
    # the four strata of mass 2 hit slots {0 or 1}, 2, 3, 3
    assert sorted(slots.tolist())[-2:] == [3, 3]


def test_ring_buffer_overwrites_oldest_and_uniform_mode():
    buf = ReplayBuffer(5, {"x": ((2,), np.int32)}, prioritized=False, burn_in=3, seed=0)
    assert not buf.ready
    buf.add({"x": np.arange(8).reshape(4, 2)}, np.ones(4))
    assert buf.ready and len(buf) == 4
    buf.add({"x": np.arange(8, 14).reshape(3, 2)}, np.ones(3))
    assert len(buf) == 5 and buf.inserted == 7
    # slots 0, 1 were overwritten by the 6th and 7th rows
    np.testing.assert_array_equal(buf.data["x"][:, 0], [10, 12, 4, 6, 8])
    slots, cols, w = buf.sample(1000)
    assert (w == 1).all() and set(slots.tolist()) == set(range(5))


def test_priority_updates_change_sampling():
    buf = ReplayBuffer(3, {"x": ((), np.int64)}, eps=0.0, seed=0)
    buf.add({"x": np.arange(3)}, np.array([1.0, 1.0, 1.0]))
    buf.update_priorities(np.array([0, 1]), np.array([0.0, 0.0]))
    slots, _, _ = buf.sample(50)
    assert (slots == 2).all()


def test_bad_settings_raise_specific_errors():
    with pytest.raises(ReplayError, match="burn-in"):
        ReplayBuffer(4, {"x": ((), np.int64)}, burn_in=5)
    tree = SumTree(4)
    with pytest.raises(ReplayError, match="non-negative"):
        tree.update([0], [-1.0])
    with pytest.raises(ReplayError, match="all zero"):
        tree.sample(2, np.random.default_rng(0))
