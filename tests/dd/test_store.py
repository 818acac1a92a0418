"""The deal store: round trips, splits, append-only manifest, and every kind of bad store."""

import json

import numpy as np
import pytest

from bidlab.cards import random_deals
from bidlab.dd import (
    ChecksumMismatchError,
    DealStore,
    ManifestError,
    NotAStoreError,
    ShardCorruptError,
    StoreError,
    shipped_store,
    split_of,
)
from bidlab.dd.store import MANIFEST, SPLIT_RULE, split_mask
from bidlab.runtime.split import SplitError


def _fake_tables(n, seed):
    # Stand-in tables: the store does not care what the numbers are, only that they are tricks.
    return np.random.default_rng(seed).integers(0, 14, (n, 4, 5)).astype(np.uint8)


@pytest.fixture
def store(tmp_path):
    s = DealStore.create(tmp_path / "store", description="test")
    s.append(random_deals(30, seed=1), _fake_tables(30, 1))
    s.append(random_deals(25, seed=2), _fake_tables(25, 2), meta={"board": np.arange(25, dtype=np.uint16)})
    return s


def test_round_trip_and_ids(store):
    deals, dd, ids = DealStore.open(store.path).load("all")
    assert np.array_equal(deals, np.concatenate([random_deals(30, seed=1), random_deals(25, seed=2)]))
    assert np.array_equal(dd, np.concatenate([_fake_tables(30, 1), _fake_tables(25, 2)]))
    assert np.array_equal(ids, np.arange(55))
    assert len(store) == 55 and store.next_id == 55


def test_splits_partition_the_store_by_id_rule(store):
    parts = {sp: store.load(sp) for sp in ("train", "validation", "test")}
    all_ids = np.concatenate([p.ids for p in parts.values()])
    assert sorted(all_ids.tolist()) == list(range(55))
    for sp, p in parts.items():
        assert all(SPLIT_RULE[i % 10] == sp for i in p.ids.tolist())
        assert (split_of(p.ids) == sp).all()
        full = store.load("all")
        assert np.array_equal(p.deals, full.deals[np.isin(full.ids, p.ids)])
    assert store.count("test") == len(parts["test"].ids) == 6


def test_split_of_a_deal_never_changes_as_the_store_grows(store):
    before = store.load("test").ids
    store.append(random_deals(40, seed=3), _fake_tables(40, 3))
    after = store.load("test").ids
    assert np.array_equal(after[: len(before)], before)


def test_unknown_split(store):
    with pytest.raises(SplitError, match="unknown split"):
        store.load("training")
    with pytest.raises(SplitError):
        split_mask(np.arange(3), "dev")


def test_meta_round_trip(store, tmp_path):
    with pytest.raises(StoreError, match="shard-000000.npz: shard has no metadata 'board'"):
        store.load_meta("board", "all")  # the first shard has none
    s = DealStore.create(tmp_path / "meta")
    s.append(random_deals(12, seed=1), _fake_tables(12, 1), meta={"board": np.arange(1, 13, dtype=np.uint16)})
    s.append(random_deals(12, seed=2), _fake_tables(12, 2), meta={"board": np.arange(13, 25, dtype=np.uint16)})
    boards = DealStore.open(s.path).load_meta("board", "test")
    assert boards.tolist() == [1, 11, 21]  # ids 0, 10, 20 hold boards 1, 11, 21


def test_append_rejects_overlapping_ids_and_bad_arrays(store):
    with pytest.raises(ManifestError, match="overlap"):
        store.append(random_deals(5, seed=4), _fake_tables(5, 4), first_id=50)
    with pytest.raises(ShardCorruptError, match="shape"):
        store.append(random_deals(5, seed=4), _fake_tables(4, 4))
    bad = random_deals(5, seed=4)
    bad[2, 0] = (bad[2, 0] + 1) % 4
    with pytest.raises(ShardCorruptError, match="13 cards"):
        store.append(bad, _fake_tables(5, 4))
    with pytest.raises(StoreError, match="empty"):
        store.append(np.empty((0, 52), np.uint8), np.empty((0, 4, 5), np.uint8))
    assert len(DealStore.open(store.path)) == 55  # nothing was written


def test_append_is_refused_when_the_store_changed_on_disk(store):
    stale = DealStore.open(store.path)
    store.append(random_deals(3, seed=5), _fake_tables(3, 5))
    with pytest.raises(StoreError, match="changed on disk"):
        stale.append(random_deals(3, seed=6), _fake_tables(3, 6))


def test_gaps_in_ids_are_allowed(store):
    store.append(random_deals(4, seed=7), _fake_tables(4, 7), first_id=1000)
    ids = DealStore.open(store.path).load("all").ids
    assert ids[-4:].tolist() == [1000, 1001, 1002, 1003]


# ---------------------------------------------------------------- bad stores name the file

def test_not_a_store(tmp_path):
    with pytest.raises(NotAStoreError, match="no manifest.json") as e:
        DealStore.open(tmp_path)
    assert str(tmp_path) in str(e.value)
    with pytest.raises(NotAStoreError, match="not a folder"):
        DealStore.open(tmp_path / "missing")
    (tmp_path / MANIFEST).write_text(json.dumps({"format": "something-else"}))
    with pytest.raises(NotAStoreError, match="format"):
        DealStore.open(tmp_path)


def test_manifest_not_json(store):
    (store.path / MANIFEST).write_text("{ not json")
    with pytest.raises(ManifestError, match="manifest.json: not valid JSON"):
        DealStore.open(store.path)


def test_manifest_with_a_bad_entry(store):
    m = json.loads((store.path / MANIFEST).read_text())
    del m["shards"][0]["sha256"]
    (store.path / MANIFEST).write_text(json.dumps(m))
    with pytest.raises(ManifestError, match="malformed shard entry"):
        DealStore.open(store.path)


def test_flipped_byte_is_a_checksum_mismatch_naming_the_shard(store):
    shard = store.path / store.shards[1].file
    data = bytearray(shard.read_bytes())
    data[len(data) // 2] ^= 0xFF
    shard.write_bytes(bytes(data))
    with pytest.raises(ChecksumMismatchError, match=store.shards[1].file):
        DealStore.open(store.path).load("all")
    # the clean shard still loads on its own; the corrupt one never does, even for one split
    assert len(store.read_shard(0)["deals"]) == 30
    for split in ("train", "validation", "test"):
        with pytest.raises(ShardCorruptError):
            DealStore.open(store.path).load(split)


def test_truncated_shard_never_loads_even_without_checksums(store):
    shard = store.path / store.shards[0].file
    shard.write_bytes(shard.read_bytes()[:-100])
    with pytest.raises(ChecksumMismatchError, match=store.shards[0].file):
        store.load("all")
    with pytest.raises(ShardCorruptError, match=store.shards[0].file):
        store.load("all", verify=False)


@pytest.mark.parametrize("position", [0.3, 0.5, 0.7, 0.9])
def test_damaged_bytes_raise_shard_corrupt_error_whatever_they_hit(store, position):
    shard = store.path / store.shards[0].file
    data = bytearray(shard.read_bytes())
    data[int(len(data) * position)] ^= 0x55
    shard.write_bytes(bytes(data))
    with pytest.raises(ChecksumMismatchError, match=store.shards[0].file):
        store.load("all")
    try:  # without the checksum, damage is caught while decoding or loads identical arrays
        arrays = store.read_shard(0, verify=False)
    except ShardCorruptError as e:
        assert store.shards[0].file in str(e)
    else:
        assert np.array_equal(arrays["deals"], random_deals(30, seed=1))


def test_manifest_checksum_mismatch(store):
    m = json.loads((store.path / MANIFEST).read_text())
    m["shards"][0]["sha256"] = "0" * 64
    (store.path / MANIFEST).write_text(json.dumps(m))
    with pytest.raises(ChecksumMismatchError, match="shard-000000.npz"):
        DealStore.open(store.path).load("test")


def test_consistent_checksum_but_impossible_contents(store):
    """A shard rewritten with a matching checksum but a deal with 14 cards in a hand."""
    import hashlib
    import io

    deals = random_deals(30, seed=1)
    deals[0, :14] = 0
    deals[0, 14:] = np.repeat([1, 2, 3], [13, 13, 12])
    buf = io.BytesIO()
    np.savez_compressed(buf, deals=deals, dd=_fake_tables(30, 1))
    (store.path / store.shards[0].file).write_bytes(buf.getvalue())
    m = json.loads((store.path / MANIFEST).read_text())
    m["shards"][0]["sha256"] = hashlib.sha256(buf.getvalue()).hexdigest()
    (store.path / MANIFEST).write_text(json.dumps(m))
    with pytest.raises(ShardCorruptError, match="deal id 0 does not give each seat 13 cards"):
        DealStore.open(store.path).load("all")


def test_missing_shard(store):
    (store.path / store.shards[1].file).unlink()
    with pytest.raises(ShardCorruptError, match="missing"):
        store.verify()


def test_create_refuses_an_existing_store(store):
    with pytest.raises(StoreError, match="already holds"):
        DealStore.create(store.path)


def test_a_store_written_before_the_shard_store_opens_and_grows(tmp_path):
    """A version-1 ``bidlab-dd-store`` manifest (as every store was before bidlab.runtime)
    loads as it is, and the next append rewrites the manifest in the shard-store format."""
    import hashlib
    import io

    path = tmp_path / "old"
    path.mkdir()
    deals, dd = random_deals(12, seed=1), _fake_tables(12, 1)
    buf = io.BytesIO()
    np.savez_compressed(buf, deals=deals, dd=dd)
    (path / "shard-000000.npz").write_bytes(buf.getvalue())
    legacy = {"format": "bidlab-dd-store", "version": 1, "description": "old",
              "splits": {"modulus": 10, "rule": list(SPLIT_RULE)},
              "generator": {"seed": 5, "shard_size": 12, "recipe": "r"},
              "shards": [{"file": "shard-000000.npz", "first_id": 0, "count": 12,
                          "sha256": hashlib.sha256(buf.getvalue()).hexdigest(), "source": "s"}]}
    (path / MANIFEST).write_text(json.dumps(legacy))
    old = DealStore.open(path)
    assert old.generator == legacy["generator"] and old.description == "old"
    assert np.array_equal(old.load("test").deals, deals[[0, 10]])
    old.append(random_deals(3, seed=2), _fake_tables(3, 2))
    m = json.loads((path / MANIFEST).read_text())
    assert m["format"] == "bidlab-shards" and m["job"] == legacy["generator"]
    assert [s["first_id"] for s in m["shards"]] == [0, 12]
    assert np.array_equal(DealStore.open(path).load("all").ids, np.arange(15))
    legacy["splits"]["modulus"] = 20
    (path / MANIFEST).write_text(json.dumps(legacy))
    with pytest.raises(ManifestError, match="split rule differs"):
        DealStore.open(path)


# ---------------------------------------------------------------- the shipped store

def test_shipped_store_is_sound_and_has_a_big_test_split():
    s = shipped_store()
    deals, dd, ids = s.load("all")
    assert len(ids) >= 58_000
    assert len(np.unique(ids)) == len(ids)
    test_ids = s.load("test").ids
    assert len(test_ids) >= 5_000
    assert (ids % 10 == 0).sum() == len(test_ids)
    train_ids = s.load("train").ids
    assert not np.intersect1d(train_ids, test_ids).size
    assert dd.shape == (len(ids), 4, 5) and deals.shape == (len(ids), 52)
    # no deal repeated under two ids
    assert len(np.unique(deals, axis=0)) == len(deals)


# ---------------------------------------------------------------- property: any append sequence

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sizes=st.lists(st.integers(1, 23), min_size=1, max_size=5), gap=st.integers(0, 7), seed=st.integers(0, 99))
def test_any_sequence_of_appends_loads_back_exactly(tmp_path_factory, sizes, gap, seed):
    path = tmp_path_factory.mktemp("prop") / "s"
    store = DealStore.create(path)
    all_deals, all_dd, all_ids = [], [], []
    next_id = 0
    for i, n in enumerate(sizes):
        deals, dd = random_deals(n, seed=seed * 10 + i), _fake_tables(n, seed * 10 + i)
        store.append(deals, dd, first_id=next_id)
        all_deals.append(deals)
        all_dd.append(dd)
        all_ids.append(np.arange(next_id, next_id + n))
        next_id += n + gap
    deals, dd, ids = np.concatenate(all_deals), np.concatenate(all_dd), np.concatenate(all_ids)
    reopened = DealStore.open(path)
    for split in ("all", "train", "validation", "test"):
        got = reopened.load(split)
        keep = split_mask(ids, split)
        assert np.array_equal(got.ids, ids[keep])
        assert np.array_equal(got.deals, deals[keep])
        assert np.array_equal(got.dd, dd[keep])
