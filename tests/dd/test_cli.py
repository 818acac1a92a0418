"""`bidlab dd table / verify / info / import` through the real typer app."""

import json

import numpy as np
from typer.testing import CliRunner

from bidlab.cards import Deal
from bidlab.cli import app
from bidlab.dd import DealStore, dd_table, dd_tables, par, shipped_store_path
from bidlab.dd.generate import shard_deals

runner = CliRunner()


def test_table_prints_the_table_and_par():
    deal = Deal.random(1)
    result = runner.invoke(app, ["dd", "table", deal.to_pbn(), "--vul", "ns", "--dealer", "E"])
    assert result.exit_code == 0, result.output
    table = dd_table(deal)
    lines = result.output.splitlines()
    for seat, name in enumerate(("North", "East", "South", "West")):
        row = next(line for line in lines if name in line)
        assert [int(x) for x in row.replace("│", " ").split()[1:]] == table[seat].tolist()
    assert f"par {par(table, 'ns', 'E').score:+d}" in result.output


def test_table_rejects_a_non_deal_with_exit_code_2():
    result = runner.invoke(app, ["dd", "table", "N:AKQ.xx"])
    assert result.exit_code == 2
    assert "4 hands" in result.output


def test_verify_the_shipped_store_with_200_entries():
    result = runner.invoke(app, ["dd", "verify", str(shipped_store_path()), "--sample", "200", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "checksums and values OK" in result.output
    assert "200 agree, 0 mismatch" in result.output


def test_verify_reports_wrong_entries(tmp_path):
    store = DealStore.create(tmp_path / "s")
    deals = shard_deals(0, 0, 2)
    wrong = (dd_tables(deals) + 1) % 14  # every entry off by one
    store.append(deals, wrong)
    result = runner.invoke(app, ["dd", "verify", str(store.path), "--sample", "6"])
    assert result.exit_code == 1
    assert "mismatch: deal id" in result.output
    assert "0 agree, 6 mismatch" in result.output


def test_verify_names_the_corrupt_shard_and_exits_2(tmp_path):
    store = DealStore.create(tmp_path / "s")
    store.append(shard_deals(0, 0, 3), np.zeros((3, 4, 5), np.uint8))
    m = json.loads((store.path / "manifest.json").read_text())
    m["shards"][0]["sha256"] = "f" * 64
    (store.path / "manifest.json").write_text(json.dumps(m))
    result = runner.invoke(app, ["dd", "verify", str(store.path), "--sample", "1"])
    assert result.exit_code == 2
    assert "shard-000000.npz" in result.output and "sha256" in result.output


def test_verify_a_directory_that_is_not_a_store(tmp_path):
    result = runner.invoke(app, ["dd", "verify", str(tmp_path)])
    assert result.exit_code == 2
    assert "not a deal store" in result.output and str(tmp_path) in result.output


def test_info_of_the_shipped_store():
    result = runner.invoke(app, ["dd", "info"])
    assert result.exit_code == 0, result.output
    assert "test " in result.output and "2026" in result.output


def test_import_checks_every_deal_against_the_recipe(tmp_path):
    good = tmp_path / "good.npz"
    np.savez(good, deals=shard_deals(5, 0, 4), dd=np.zeros((4, 4, 5), np.uint8))
    bad = tmp_path / "bad.npz"
    np.savez(bad, deals=shard_deals(5, 0, 4), dd=np.zeros((4, 4, 5), np.uint8))  # shard 0 again, not shard 1
    out = tmp_path / "store"
    ok = runner.invoke(app, ["dd", "import", str(good), "--out", str(out), "--seed", "5", "--shard-size", "4"])
    assert ok.exit_code == 0, ok.output
    result = runner.invoke(app, ["dd", "import", str(bad), str(good), "--out", str(out), "--seed", "5",
                                 "--shard-size", "4"])
    assert result.exit_code == 2
    assert "good.npz" in result.output and "not shard 1" in result.output
    assert len(DealStore.open(out)) == 4
