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


# ---------------------------------------------------------------- published tables (an outside oracle)
# The ten deals of DDS's own test list, dds-bridge/dds hands/list10.txt (commit 368c9a5a), read by its
# `dtest` program: (dealer, DDS vulnerability code, deal, TABLE, PAR2 dealer-par score for NS).
# TABLE is res_table[strain][hand] for strains S, H, D, C, NT and hands N, E, S, W (library/tests/README.md);
# DDS codes vulnerability 0 none, 1 both, 2 NS, 3 EW.
DDS_LIST10 = [
    (0, 3, "N:6.QT986.8754.J65 AQT983.2.A93.AK2 KJ74.K73.KQJ.987 52.AJ54.T62.QT43",
     "3 10 3 9 7 6 7 6 4 8 4 8 4 8 4 8 5 7 5 7", -620),
    (1, 3, "N:AK98.QT954.A32.4 J732.K8.8764.873 T64.A32.95.AQT92 Q5.J76.KQJT.KJ65",
     "9 4 9 4 10 3 10 3 7 6 7 6 8 4 9 4 8 4 8 4", 420),
    (3, 1, "N:AJ75..AQ732.K972 KQ98642.K3.T5.J6 T.Q87652.K4.8543 3.AJT94.J986.AQT",
     "5 7 5 8 6 7 6 7 8 5 8 5 9 4 9 4 6 7 6 7", 110),
    (1, 1, "N:AK.AKQT3.532.843 QT4.84.AKJT987.Q J932.95.Q6.AK762 8765.J762.4.JT95",
     "8 5 8 5 9 3 9 3 5 6 5 6 9 2 9 2 6 4 6 4", 140),
    (3, 1, "N:83.Q65.AKT642.J8 KJT6.AT93.QJ9.A4 A9.842.8753.K973 Q7542.KJ7..QT652",
     "2 11 2 11 3 10 3 10 7 6 7 6 3 9 3 9 4 7 4 7", -650),
    (0, 0, "N:J9.QT92.KT.KJT94 AK84.754.9654.85 QT752.A86.3.AQ62 63.KJ3.AQJ872.73",
     "9 4 9 4 9 4 9 4 5 8 5 8 9 4 9 4 7 4 7 4", 140),
    (3, 1, "N:K43.632.T874.T54 AQ2.AQ9.653.AJ93 T95.KT754.J92.62 J876.J8.AKQ.KQ87",
     "1 12 1 11 3 10 3 10 2 11 2 11 1 12 1 11 1 12 1 11", -1440),
    (0, 3, "N:975.743.QJ765.K9 4.AQJT965.92.J75 AKQJ6.2.KT3.6432 T832.K8.A84.AQT8",
     "10 3 10 3 2 10 2 10 9 3 9 3 2 8 2 8 4 8 4 8", 200),
    (1, 0, "N:K8.A872.93.KJ764 97.KQJT6.T65.Q98 AQ532..AKJ74.AT3 JT64.9543.Q82.52",
     "12 1 12 1 8 5 8 5 12 1 12 1 13 0 13 0 12 1 12 1", 1440),
    (0, 1, "N:KQ82.AJT.AJ.AQ94 T54.K932.843.K86 A73.875.KQT5.T53 J96.Q64.9762.J72",
     "12 1 12 1 10 3 10 3 11 1 11 1 11 1 11 1 11 1 11 1", 1430),
]


def _published_table(text):
    """DDS's res_table[S, H, D, C, NT][N, E, S, W] -> bidlab's [declarer N, E, S, W][C, D, H, S, NT]."""
    dds = np.array(text.split(), dtype=np.uint8).reshape(5, 4)
    return dds[[3, 2, 1, 0, 4]].T


def test_tables_equal_the_published_dds_test_list():
    deals = [Deal.parse(d) for _, _, d, _, _ in DDS_LIST10]
    expected = np.stack([_published_table(t) for _, _, _, t, _ in DDS_LIST10])
    assert np.array_equal(dd_tables(deals), expected)
    # single-contract solves reach the same 200 entries
    holders = np.repeat(np.stack([d.to_array() for d in deals]), 20, axis=0)
    decl, strain = np.tile(np.repeat(np.arange(4), 5), 10), np.tile(np.arange(5), 40)
    assert np.array_equal(solve_contracts(holders, decl, strain), expected.reshape(-1))


def test_dealer_par_equals_the_published_dds_test_list():
    from bidlab.bridge.board import Vulnerability
    from bidlab.cards import Seat
    from bidlab.dd import par

    dds_vul = {0: Vulnerability.NONE, 1: Vulnerability.BOTH, 2: Vulnerability.NS, 3: Vulnerability.EW}
    for dealer, vul, _, table, score in DDS_LIST10:
        assert par(_published_table(table), dds_vul[vul], Seat(dealer)).score == score


def test_a_hand_worked_ending():
    """Each hand holds one whole suit: N spades, E hearts, S diamonds, W clubs. Worked by hand:
    the opening leader (declarer's left) is an opponent, and he simply runs his suit unless
    the declaring side holds the trump suit, which then ruffs the first trick and draws every
    trick after. So a side takes 13 tricks in its own two suits, 0 in the others and at NT."""
    deal = Deal.parse("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
    holder_of_strain = {3: 0, 2: 1, 1: 2, 0: 3}  # bidlab strains C, D, H, S = 0..3
    expected = np.array([[13 if holder_of_strain[s] % 2 == declarer % 2 else 0 for s in range(4)] + [0]
                         for declarer in range(4)])
    assert np.array_equal(dd_table(deal), expected)


def test_solver_refuses_an_endplay_it_was_not_written_for(monkeypatch):
    from bidlab.dd import solver

    assert solver.check_endplay_version() in solver.ENDPLAY_VERSIONS
    with pytest.raises(SolverError, match=r"endplay 0\.6\.0 is installed.*endplay==0\.5\.12"):
        solver.check_endplay_version("0.6.0")
    # Loading DDS checks the installed version before touching its structures.
    monkeypatch.setattr(solver, "_installed_endplay_version", lambda: "0.4.2")
    solver._dds.cache_clear()
    solver._table_buffers.cache_clear()
    try:
        with pytest.raises(SolverError, match="endplay 0.4.2 is installed"):
            dd_table(Deal.random(1))
    finally:
        monkeypatch.undo()
        solver._dds.cache_clear()
        solver._table_buffers.cache_clear()
    assert dd_table(Deal.random(1)).shape == (4, 5)


def test_solve_position_of_a_one_card_ending_by_hand():
    """N SA, E S2, S H3, W H4 at no trump: North's ace wins if North leads; if West leads
    the H4, North and East discard and South's H3 is beaten."""
    from bidlab.dd.solver import solve_position

    pbn = "N:A... 2... .3.. .4.."
    assert solve_position(pbn, 4, 0) == {"SA": 1}
    assert solve_position(pbn, 4, 3) == {"H4": 1}
    # with spades trumps, West's lead is ruffed: East-West take nothing
    assert solve_position(pbn, 3, 3) == {"H4": 0}
    # in the middle of the trick: West led the H4, North (to play) must discard the ace
    assert solve_position(pbn, 4, 3, ["H4"]) == {"SA": 0}


def test_solve_position_at_trick_one_agrees_with_the_table_solver():
    """The opening leader's best card takes 13 minus declarer's tricks of CalcAllTables."""
    from bidlab.dd.solver import solve_position

    deals = random_deals(3, seed=21)
    tables = dd_tables(deals)
    for d, table in zip(deals, tables):
        pbn = Deal.from_array(d).to_pbn()
        for declarer, strain in ((0, 4), (1, 0), (2, 3), (3, 2)):
            best = max(solve_position(pbn, strain, (declarer + 1) % 4).values())
            assert best == 13 - int(table[declarer, strain])


def test_solve_position_rejects_a_bad_position():
    from bidlab.dd.solver import solve_position

    with pytest.raises(SolverError, match="strain must be"):
        solve_position("N:A... 2... .3.. .4..", 5, 0)
    with pytest.raises(SolverError, match="not a position"):
        solve_position("N:A... 2... .3.. .4..", 4, 0, ["HK"])
