"""The one split rule: id % 10, 0 test, 1 validation, else train."""

import numpy as np
import pytest

from bidlab.runtime.split import (
    RULE,
    SplitError,
    check_split,
    matches_record,
    rule_record,
    split_ids,
    split_mask,
    split_of,
)


def test_rule_hand_worked():
    assert split_of([0, 1, 2, 9, 10, 11, 25, 100]).tolist() == [
        "test", "validation", "train", "train", "test", "validation", "train", "test"]
    assert split_ids(np.arange(30), "test").tolist() == [0, 10, 20]
    assert split_ids(np.arange(30), "validation").tolist() == [1, 11, 21]
    assert len(split_ids(np.arange(30), "train")) == 24


def test_the_splits_partition_any_ids():
    ids = np.random.default_rng(0).choice(10**6, 5000, replace=False)
    masks = [split_mask(ids, s) for s in ("train", "validation", "test")]
    assert (sum(m.astype(int) for m in masks) == 1).all()
    assert split_mask(ids, "all").all()
    assert abs(masks[2].mean() - 0.1) < 0.02  # about a tenth is test


def test_bad_names_and_records():
    with pytest.raises(SplitError, match="unknown split 'dev'"):
        split_mask(np.arange(3), "dev")
    with pytest.raises(SplitError):
        check_split("all", allow_all=False)
    with pytest.raises(SplitError, match=">= 0"):
        split_of([-1])
    assert matches_record(rule_record())
    assert not matches_record({"modulus": 20, "rule": list(RULE)}) and not matches_record(None)
