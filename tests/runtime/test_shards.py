"""The shard store: round trips, jobs (refuse, resume, grow), checksums, never rewriting, writers."""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bidlab.runtime.shards import (
    MANIFEST,
    ChecksumMismatchError,
    JobMismatchError,
    ManifestError,
    NotAShardStoreError,
    ShardCorruptError,
    ShardError,
    ShardExistsError,
    ShardStore,
    StoreBusyError,
)


def test_arrays_and_records_round_trip(tmp_path):
    store = ShardStore.open_job(tmp_path / "s", "example", {"seed": 1, "teacher": "sayc"})
    a = {"deals": np.arange(52 * 3, dtype=np.uint8).reshape(3, 52) % 4, "length": np.array([4, 5, 6], np.int16)}
    store.write_arrays(0, a, first_id=0)
    recs = [{"board": 1, "imps": -3.0, "auction": "1NT P P P"}, {"board": 2, "imps": float("nan")}]
    store.write_records(1, recs, source="chunk")
    again = ShardStore.open(tmp_path / "s", "example")
    got = again.read_arrays(0)
    assert set(got) == {"deals", "length"} and all(np.array_equal(got[k], a[k]) and got[k].dtype == a[k].dtype
                                                   for k in a)
    back = again.read_records(1)
    assert back[0] == recs[0] and np.isnan(back[1]["imps"])
    assert [s.count for s in again.shards] == [3, 2] and len(again) == 5
    assert again.get(0).fields == {"first_id": 0} and again.get(1).fields == {"source": "chunk"}
    assert [r["board"] for r in again.iter_records()] == [1, 2]
    with pytest.raises(ShardError, match="holds arrays, not records"):
        again.read_records(0)
    assert again.verify() == 5


def test_a_job_is_refused_by_another_job_resumed_by_itself_and_grows(tmp_path):
    job = {"agents": ["sayc", "nn:sl"], "seed": 3}
    store = ShardStore.open_job(tmp_path / "m", "match", job)
    for k in store.missing(range(2)):
        store.write_records(k, [{"k": k}])
    with pytest.raises(JobMismatchError, match=r"seed: 3 here, 4 asked.*use another folder"):
        ShardStore.open_job(tmp_path / "m", "match", dict(job, seed=4))
    with pytest.raises(NotAShardStoreError, match="holds a 'match' store, not 'tournament'"):
        ShardStore.open_job(tmp_path / "m", "tournament", job)
    # The same settings (tuples and lists alike, as JSON sees them) resume; more work grows the job.
    resumed = ShardStore.open_job(tmp_path / "m", "match", {"agents": ("sayc", "nn:sl"), "seed": 3})
    assert resumed.missing(range(4)) == [2, 3]


def test_a_finished_shard_is_never_rewritten(tmp_path):
    store = ShardStore.create(tmp_path / "s", "example")
    store.write_records(0, [{"a": 1}])
    before = (tmp_path / "s" / "shard-000000.jsonl").read_bytes()
    with pytest.raises(ShardExistsError, match="shard 0 is already written"):
        store.write_records(0, [{"a": 2}])
    stale = ShardStore.open(tmp_path / "s")
    store.write_records(1, [{"b": 1}])
    with pytest.raises(ShardExistsError):  # a writer that did not see shard 1 cannot replace it
        stale.write_records(1, [{"b": 2}])
    assert (tmp_path / "s" / "shard-000000.jsonl").read_bytes() == before
    assert ShardStore.open(tmp_path / "s").read_records(1) == [{"b": 1}]


def test_new_stores_only_in_empty_folders(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ShardError, match="not empty and holds no manifest.json"):
        ShardStore.open_job(tmp_path, "example", {})
    with pytest.raises(ShardError, match="already holds"):
        ShardStore.create(tmp_path / "x", "example").create(tmp_path / "x", "example")
    (tmp_path / "file").write_text("")
    with pytest.raises(ShardError, match="not a folder"):
        ShardStore.create(tmp_path / "file", "example")


def test_unwritable_folder_is_a_one_line_error(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        if os.access(ro, os.W_OK):
            pytest.skip("running as a user who can write anywhere")
        with pytest.raises(ShardError, match="cannot create a store here"):
            ShardStore.create(ro / "s", "example")
    finally:
        ro.chmod(0o700)


@pytest.mark.parametrize("damage", ["flip", "truncate", "delete"])
def test_damaged_shards_never_load(tmp_path, damage):
    store = ShardStore.create(tmp_path / "s", "example")
    store.write_arrays(0, {"x": np.arange(1000)})
    store.write_records(1, [{"i": i} for i in range(50)])
    for info in store.shards:
        f = tmp_path / "s" / info.file
        data = bytearray(f.read_bytes())
        if damage == "flip":
            data[len(data) // 2] ^= 0x20
            f.write_bytes(bytes(data))
        elif damage == "truncate":
            f.write_bytes(bytes(data[:-7]))
        else:
            f.unlink()
    expected = ShardCorruptError if damage == "delete" else ChecksumMismatchError
    with pytest.raises(expected, match="shard-000000.npz"):
        store.read_arrays(0)
    with pytest.raises(expected, match="shard-000001.jsonl"):
        store.read_records(1)


def test_bad_manifests(tmp_path):
    with pytest.raises(NotAShardStoreError, match="no manifest.json"):
        ShardStore.open(tmp_path)
    (tmp_path / MANIFEST).write_text("{ nope")
    with pytest.raises(ManifestError, match="not valid JSON"):
        ShardStore.open(tmp_path)
    store = ShardStore.create(tmp_path / "s", "example")
    store.write_records(0, [{}])
    m = json.loads((tmp_path / "s" / MANIFEST).read_text())
    m["shards"][0]["file"] = "../../etc/passwd"
    (tmp_path / "s" / MANIFEST).write_text(json.dumps(m))
    with pytest.raises(ManifestError, match="bad shard file name"):
        ShardStore.open(tmp_path / "s")


def test_leftover_temporary_files_are_removed_by_the_next_write(tmp_path):
    store = ShardStore.create(tmp_path / "s", "example")
    (tmp_path / "s" / ".shard-000000.jsonl.abc.tmp").write_text("half a shard")
    store.write_records(0, [{"a": 1}])
    assert not list((tmp_path / "s").glob(".*.tmp"))


def test_exclusive_run_lock(tmp_path):
    store = ShardStore.create(tmp_path / "s", "example")
    with store.exclusive():
        other = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
            from bidlab.runtime.shards import ShardStore, StoreBusyError
            try:
                with ShardStore.open({str(tmp_path / 's')!r}).exclusive():
                    print("got it")
            except StoreBusyError as e:
                print("busy:", e)
        """)], capture_output=True, text=True)
        assert other.stdout.startswith("busy:") and "another process is writing" in other.stdout
    with ShardStore.open(tmp_path / "s").exclusive():  # released
        pass
    assert issubclass(StoreBusyError, ShardError)


def test_two_processes_fill_one_store(tmp_path):
    """Each shard is written by exactly one process and the manifest lists all of them."""
    path = tmp_path / "shared"
    ShardStore.create(path, "example", job={"n": 40})
    code = textwrap.dedent(f"""
        import sys
        from bidlab.runtime.shards import ShardStore, ShardExistsError
        me = sys.argv[1]
        store = ShardStore.open({str(path)!r})
        for k in range(40):
            store.refresh()
            if store.has(k):
                continue
            try:
                store.write_records(k, [{{"k": k, "by": me}}])
            except ShardExistsError:
                pass
    """)
    procs = [subprocess.Popen([sys.executable, "-c", code, name]) for name in ("a", "b")]
    assert [p.wait() for p in procs] == [0, 0]
    store = ShardStore.open(path)
    assert [s.index for s in store.shards] == list(range(40))
    assert [r["k"] for r in store.iter_records()] == list(range(40))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 30), st.lists(st.integers(-5, 5), max_size=4)), max_size=8))
def test_any_writes_read_back(tmp_path_factory, writes):
    store = ShardStore.create(tmp_path_factory.mktemp("p") / "s", "example")
    expected = {}
    for k, values in writes:
        if k in expected:
            with pytest.raises(ShardExistsError):
                store.write_records(k, [{"v": v} for v in values])
        else:
            store.write_records(k, [{"v": v} for v in values])
            expected[k] = values
    again = ShardStore.open(store.path)
    assert [s.index for s in again.shards] == sorted(expected)
    for k, values in expected.items():
        assert [r["v"] for r in again.read_records(k)] == values
