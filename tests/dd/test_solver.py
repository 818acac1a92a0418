"""DD tables and single-contract solves: cross-checks between DDS paths, rotation, bad input."""

import numpy as np
import pytest

from bidlab.cards import Deal, random_deals
from bidlab.dd import SolverError, dd_table, dd_tables, shipped_store, solve_contracts
from bidlab.errors import DealError


def _random_triples(n_deals, n, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(0, n_deals, n), rng.integers(0, 4, n), rng.integers(0, 5, n)


def _single_vs_full(n_deals, n_entries, seed):
    deals = random_deals(n_deals, seed=seed)
    full = dd_tables(deals)
    rows, decl, strain = _random_triples(n_deals, n_entries, seed + 1)
    single = solve_contracts(deals[rows], decl, strain)
    mismatches = np.flatnonzero(single != full[rows, decl, strain])
    assert len(mismatches) == 0, f"{len(mismatches)} of {n_entries} entries differ, first at {mismatches[:5]}"
    # the sample really spreads over declarers and strains
    assert len(set(zip(decl.tolist(), strain.tolist(), strict=True))) == 20


def test_single_contract_solves_agree_with_full_tables_fast_subset():
    """120 random (deal, declarer, strain) from 12 fresh deals: SolveBoard vs CalcAllTables."""
    _single_vs_full(12, 120, seed=11)


@pytest.mark.slow
def test_single_contract_solves_agree_with_full_tables_500_entries():
    """The issue's cross-check: 500 random entries of 500 fresh deals."""
    _single_vs_full(500, 500, seed=12)


def test_shipped_store_tables_agree_with_fresh_batched_tables():
    """Whole tables of 5 random stored deals (100 entries) re-solved by the batched path.

    The 200-entry single-contract check is `bidlab dd verify` in test_cli.py.
    """
    deals, dd, ids = shipped_store().load("all")
    rows = np.random.default_rng(3).choice(len(ids), 5, replace=False)
    assert np.array_equal(dd_tables(deals[rows]), dd[rows])


def test_rotating_a_deal_rotates_its_table():
    deals = [Deal.random(s) for s in range(2)]  # 8 tables in all
    tables = dd_tables(deals)
    for steps in (1, 2, 3):
        rotated = dd_tables([d.rotate(steps) for d in deals])
        # N's hand moves to seat steps, so the new declarer (s + steps) plays the old s's hand
        assert np.array_equal(rotated, np.roll(tables, steps, axis=1))


def test_empty_batch():
    assert dd_tables(np.empty((0, 52), np.uint8)).shape == (0, 4, 5)
    assert solve_contracts(np.empty((0, 52), np.uint8), 0, 0).shape == (0,)


def test_batches_are_split_into_dds_calls(monkeypatch):
    """With tiny per-call limits, results still line up with their deals across call boundaries."""
    from bidlab.dd import solver

    deals = random_deals(3, seed=8)
    whole = dd_tables(deals)
    monkeypatch.setattr(solver, "DEALS_PER_TABLE_CALL", 2)
    monkeypatch.setattr(solver, "MAX_BOARDS_PER_CALL", 3)
    assert np.array_equal(dd_tables(deals), whole)
    rows = np.arange(8) % 3
    assert np.array_equal(solve_contracts(deals[rows], rows % 4, rows % 5), whole[rows, rows % 4, rows % 5])


@pytest.mark.slow
def test_batches_across_the_real_dds_call_limit():
    """41 deals need two CalcAllTables calls; 201 contracts need two SolveAllBoards calls."""
    deals = random_deals(41, seed=8)
    full = dd_tables(deals)
    assert np.array_equal(full[40], dd_table(deals[40]))
    rows = np.arange(201) % 41
    single = solve_contracts(deals[rows], rows % 4, rows % 5)
    assert np.array_equal(single, full[rows, rows % 4, rows % 5])


@pytest.mark.parametrize("bad", ["not a deal", "N:AKQ.xx", "N:" + " ".join(["AKQJT98765432..."] * 4)])
def test_bad_pbn_strings_raise_deal_error(bad):
    with pytest.raises(DealError):
        dd_table(bad)


def test_bad_holder_arrays_raise_deal_error():
    good = random_deals(2, seed=1)
    wrong_count = good.copy()
    wrong_count[0, 0] = (wrong_count[0, 0] + 1) % 4
    with pytest.raises(DealError, match="row 0"):
        dd_tables(wrong_count)
    out_of_range = good.copy()
    out_of_range[1, 5] = 7
    with pytest.raises(DealError, match="row 1"):
        dd_tables(out_of_range)
    with pytest.raises(DealError, match="shape"):
        dd_tables(good[:, :51])


def test_bad_declarer_or_strain():
    deals = random_deals(1, seed=1)
    with pytest.raises(SolverError):
        solve_contracts(deals, 4, 0)
    with pytest.raises(SolverError):
        solve_contracts(deals, 0, 5)
