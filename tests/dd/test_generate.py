"""`bidlab dd generate`: determinism, resume after SIGKILL, and the import of pre-solved shards."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from bidlab.dd import DealStore, shipped_store, solve_contracts
from bidlab.dd.generate import GenerateConfig, generate, pending_shards, shard_deals
from bidlab.dd.store import MANIFEST, StoreError

CLI = [sys.executable, "-c", "from bidlab.cli import main; main()"]


def _listed_shards(path):
    try:
        return len(json.loads((path / MANIFEST).read_text())["shards"])
    except (FileNotFoundError, json.JSONDecodeError, KeyError):
        return 0


def _check_complete(path, n, shard_size, seed):
    store = DealStore.open(path)
    deals, dd, ids = store.load("all")  # checks every checksum and value
    assert len(ids) == n and len(np.unique(ids)) == n
    assert sorted(s.file for s in store.shards) == sorted(p.name for p in path.glob("shard-*.npz"))
    assert not list(path.glob(".*.tmp"))
    expected = np.concatenate([shard_deals(seed, k, min(shard_size, n - k * shard_size))
                               for k in range(-(-n // shard_size))])
    assert np.array_equal(deals, expected)
    rng = np.random.default_rng(0)
    rows, decl, strain = rng.integers(0, n, 12), rng.integers(0, 4, 12), rng.integers(0, 5, 12)
    assert np.array_equal(solve_contracts(deals[rows], decl, strain), dd[rows, decl, strain])
    return store


def _wait_for(path, proc):
    """Wait until the child writes ``path`` (it then blocks until killed); no timing guesses."""
    while not path.exists():
        assert proc.poll() is None, "the job ended before reaching the kill point"
        time.sleep(0.02)


def test_sigkill_mid_run_then_resume_gives_a_complete_store(tmp_path):
    """The job is killed at a known point: shard 0 saved, shard 1 solved but not yet saved.

    The child reports through its progress task, which writes a marker file when 8 deals
    are solved and then blocks, so the kill always lands at that point."""
    out, marker = tmp_path / "gen", tmp_path / "at-8-deals"
    child = textwrap.dedent(f"""
        import threading
        from pathlib import Path
        from bidlab.dd.generate import GenerateConfig, generate
        from bidlab.runtime.progress import CountingProgress

        class StopAfter8(CountingProgress):
            def advance(self, n=1):
                super().advance(n)
                if self.done == 8:
                    Path({str(marker)!r}).write_text("")
                    threading.Event().wait()

        generate({str(out)!r}, GenerateConfig(deals=12, seed=7, shard_size=4, threads=1), StopAfter8())
    """)
    proc = subprocess.Popen([sys.executable, "-c", child])
    try:
        _wait_for(marker, proc)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    assert _listed_shards(out) == 1
    DealStore.open(out).verify()  # what the kill left is a consistent (partial) store
    args = CLI + ["dd", "generate", "--deals", "12", "--out", str(out), "--seed", "7",
                  "--shard-size", "4", "--threads", "1"]
    again = subprocess.run(args, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert "4 deals present, 8 to solve" in again.stderr
    _check_complete(out, 12, 4, 7)


def test_generate_is_deterministic_and_extends(tmp_path):
    cfg = GenerateConfig(deals=5, seed=3, shard_size=4)
    a = generate(tmp_path / "a", cfg)
    assert [s.count for s in a.shards] == [4, 1]
    b = generate(tmp_path / "b", GenerateConfig(deals=9, seed=3, shard_size=4))
    assert np.array_equal(a.load().deals, b.load().deals[:5])
    assert np.array_equal(a.load().dd, b.load().dd[:5])
    assert pending_shards(b, GenerateConfig(deals=9, seed=3, shard_size=4)) == []
    grown = generate(tmp_path / "a", GenerateConfig(deals=7, seed=3, shard_size=4))
    assert [s.first_id for s in grown.shards] == [0, 4, 8]  # the partial shard 1 stays; shard 2 follows


def test_generate_refuses_other_settings_or_a_foreign_store(tmp_path):
    generate(tmp_path / "s", GenerateConfig(deals=1, seed=3, shard_size=4))
    with pytest.raises(StoreError, match="seed 3 and shard size 4"):
        generate(tmp_path / "s", GenerateConfig(deals=2, seed=4, shard_size=4))
    foreign = DealStore.create(tmp_path / "f")
    foreign.append(shard_deals(0, 0, 2), np.zeros((2, 4, 5), np.uint8))
    with pytest.raises(StoreError, match="not made by `bidlab dd generate`"):
        generate(tmp_path / "f", GenerateConfig(deals=4))


def test_shipped_store_follows_the_generator_recipe():
    """Its first shards are the shared data set, which is seed 2026, 2000 deals a shard."""
    s = shipped_store()
    assert s.generator["seed"] == 2026 and s.generator["shard_size"] == 2000
    first = s.read_shard(0)["deals"]
    assert np.array_equal(first[:50], shard_deals(2026, 0, 50))
    last = s.shards[-1]
    k = last.first_id // 2000
    assert np.array_equal(s.read_shard(last)["deals"][:20], shard_deals(2026, k, 20))


def test_shards_solved_out_of_order_are_appended_in_shard_order(tmp_path, monkeypatch):
    """With an executor, shard 1 finishes before shard 0 here; the store still lists shard 0
    first and equals the store of the one-at-a-time run (so a kill could never leave a gap)."""
    import threading

    import bidlab.dd.generate as gen
    from bidlab.runtime.executor import ExecutorConfig

    real, later_done = gen.solve_shard, threading.Event()

    def shard_0_last(task):
        if task[1] == 0:
            assert later_done.wait(60)
        result = real(task)
        if task[1] == 1:
            later_done.set()
        return result

    monkeypatch.setattr(gen, "solve_shard", shard_0_last)
    cfg = GenerateConfig(deals=3, seed=9, shard_size=1, threads=1)
    par = generate(tmp_path / "par", cfg, executor=ExecutorConfig("thread", workers=2))
    one = generate(tmp_path / "one", cfg)
    assert [s.first_id for s in par.shards] == [s.first_id for s in one.shards] == [0, 1, 2]
    for x, y in zip(par.load("all"), one.load("all"), strict=True):
        np.testing.assert_array_equal(x, y)
