"""A clean run leaves no lock files in its output folder, and strict JSON everywhere."""

from __future__ import annotations

import json

from bidlab.eval.match import Match, MatchConfig
from bidlab.runtime.shards import ShardStore


def test_a_finished_match_leaves_no_lock_files(tmp_path):
    Match(MatchConfig("random", "sayc", boards=4, chunk_size=2), tmp_path / "m").run(workers=1)
    assert sorted(p.name for p in (tmp_path / "m").rglob("*.lock")) == []


def test_a_store_lock_still_excludes_a_second_job_and_is_gone_after(tmp_path):
    import pytest

    from bidlab.runtime.shards import StoreBusyError

    store = ShardStore.open_job(tmp_path / "s", "test-kind", {"a": 1})
    with store.exclusive():
        other = ShardStore.open(tmp_path / "s", "test-kind")
        with pytest.raises(StoreBusyError):
            with other.exclusive():
                pass
        store.write_records(0, [{"x": 1}])
    assert list((tmp_path / "s").glob(".*.lock")) == []
    with other.exclusive():  # free again
        pass


def test_summary_json_is_strict_json_when_no_contract_was_doubled(tmp_path):
    """A mean over no doubled contracts was written as a bare NaN, which strict parsers reject."""
    Match(MatchConfig("sayc", "sayc", boards=2, chunk_size=2), tmp_path / "m").run(workers=1)
    text = (tmp_path / "m" / "summary.json").read_text()
    json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(f"bare {c}")))
