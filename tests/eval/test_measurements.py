"""The results registry: every number README.md and docs/ quote comes from a stored
measurement whose agents have not changed since (bidlab.eval.measurements)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from safetensors.numpy import load_file, save_file

from bidlab.eval import measurements as reg

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def registry():
    return reg.load(ROOT / "docs" / "results.jsonl")


def test_every_number_in_the_readme_and_docs_comes_from_the_current_registry(registry):
    """The guard itself: no number outside a marker or a history record, every marker as
    the registry says, and no quoted measurement stale (an agent changed since)."""
    problems = reg.check_documents(reg.documents(ROOT), registry)
    assert not problems, "\n".join(str(p) for p in problems[:40])


def test_the_registry_file_is_strict_json_sorted_by_name():
    lines = (ROOT / "docs" / "results.jsonl").read_text().splitlines()
    names = [json.loads(line, parse_constant=lambda c: pytest.fail(f"bare {c} in the registry"))["name"]
             for line in lines]
    assert names == sorted(names) and len(set(names)) == len(names) and names


def test_a_number_written_by_hand_fails(tmp_path, registry):
    page = tmp_path / "page.md"
    page.write_text("`nn:rl` beats `sayc` by +1.31 ± 0.09 IMPs a board.\n")
    problems = reg.check_documents([page], registry)
    assert len(problems) == 1 and "not from the registry" in problems[0].what


def test_a_marker_edited_by_hand_fails(tmp_path, registry):
    name = next(iter(registry))
    page = tmp_path / "page.md"
    page.write_text(reg.fill(f"x <!-- r:{name} -->?<!-- /r -->\n", registry))
    assert reg.check_documents([page], registry) == []
    page.write_text(page.read_text().replace("<!-- /r -->", "9<!-- /r -->"))
    problems = reg.check_documents([page], registry)
    assert len(problems) == 1 and "the registry says" in problems[0].what


def test_a_marker_naming_no_measurement_fails(tmp_path, registry):
    page = tmp_path / "page.md"
    page.write_text("<!-- r:no-such-measurement -->+1.00 ± 0.10<!-- /r -->\n")
    assert "names no measurement" in reg.check_documents([page], registry)[0].what


def test_history_is_exempt_only_with_its_commit(tmp_path, registry):
    page = tmp_path / "page.md"
    page.write_text("<!-- history: 4a11b00 measured then -->\nold: -0.42 ± 0.12\n<!-- /history -->\n")
    assert reg.check_documents([page], registry) == []
    page.write_text("<!-- history: measured then -->\nold: -0.42 ± 0.12\n<!-- /history -->\n")
    assert len(reg.check_documents([page], registry)) == 1


def test_the_readme_fails_when_a_shipped_model_changes_without_re_measuring(tmp_path, monkeypatch, registry):
    """Perturb one weight of a copy of the shipped models and point bidlab at the copy: the
    README's numbers about nn:rl are then stale, and the check says so."""
    import bidlab.agents.neural as neural

    models = tmp_path / "models"
    shutil.copytree(neural.shipped_models_dir(), models)
    tensors = load_file(models / "rl.safetensors")
    first = sorted(tensors)[0]
    tensors[first] = tensors[first].copy()
    tensors[first].flat[0] += 0.5
    save_file(tensors, models / "rl.safetensors")
    monkeypatch.setattr(neural, "shipped_models_dir", lambda: models)
    problems = reg.check_documents([ROOT / "README.md"], registry)
    stale = [p for p in problems if "is stale" in p.what]
    assert stale and all("nn:rl" in p.what for p in stale), "\n".join(map(str, problems))


def test_the_readme_fails_when_sayc_changes_without_re_measuring(tmp_path):
    """A copy of bidlab whose SAYC source differs by one comment line: from that copy, the
    README's numbers about `sayc` (and about `nn:partner`, which bids SAYC's call) are stale."""
    package = ROOT / "bidlab"
    copy = tmp_path / "bidlab"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("models", "__pycache__", "data"))
    (copy / "models").symlink_to(package / "models")
    (copy / "data").symlink_to(package / "data")
    bidder = copy / "agents" / "sayc" / "bidder.py"
    bidder.write_text(bidder.read_text() + "\n# a changed rule file\n")
    code = ("import sys; from pathlib import Path; from bidlab.eval import measurements as r; "
            f"ps = r.check_documents([Path({str(ROOT / 'README.md')!r})], r.load({str(ROOT / 'docs' / 'results.jsonl')!r})); "
            "print('\\n'.join(p.what for p in ps))")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          env={**__import__("os").environ, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-2000:]
    stale = [line for line in done.stdout.splitlines() if "is stale" in line]
    assert any("sayc changed" in line or "sayc," in line for line in stale), done.stdout
    assert any("nn:partner" in line for line in stale), done.stdout


def test_record_stores_the_fingerprints_and_a_change_makes_it_stale(tmp_path):
    path = tmp_path / "r.jsonl"
    m = reg.record("sayc-random", "match", "bidlab match sayc random --boards 10",
                   {"imps": {"mean": 5.0, "se": 1.0}}, ["sayc", "random"], boards=10, path=path)
    assert m.fingerprints["sayc"] == reg.fingerprint("sayc")
    stored = reg.load(path)
    assert reg.stale(stored) == {}
    assert reg.stale(stored, lambda k: "x" if k == "random" else reg.fingerprint(k)) == {"sayc-random": ["random"]}
    assert reg.format_value(stored["sayc-random"]) == "+5.00 ± 1.00"
    with pytest.raises(reg.RegistryError, match="no spaces"):
        reg.record("bad name", "match", "x", {"v": 1}, {}, path=path)


def test_nan_is_stored_as_null(tmp_path):
    m = reg.record("n", "benchmark", "x", {"a": float("nan"), "b": [float("inf"), 1.0]}, {}, path=tmp_path / "r")
    assert m.result == {"a": None, "b": [None, 1.0]}


def test_bidlab_results_lists_and_counts_the_stale(tmp_path):
    path = tmp_path / "r.jsonl"
    reg.record("ok", "match", "bidlab match sayc random --boards 4", {"imps": {"mean": 1.0, "se": 0.5}},
               ["sayc"], path=path)
    reg.record("old", "match", "bidlab match sayc random --boards 4", {"imps": {"mean": 1.0, "se": 0.5}},
               {"sayc": "0123456789abcdef"}, path=path)
    done = subprocess.run([sys.executable, "-c", "from bidlab.cli import main; main()", "results",
                           "--registry", str(path)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "2 measurements" in done.stdout and "1 stale" in done.stdout
    assert "stale: sayc changed" in done.stdout


def test_bidlab_results_rerun_re_measures_a_stale_measurement(tmp_path):
    path = tmp_path / "r.jsonl"
    reg.record("rand", "match", "bidlab match random sayc --split test --boards 4 --seed 0",
               {"imps": {"mean": 99.0, "se": 0.5}}, {"random": "0123456789abcdef", "sayc": reg.fingerprint("sayc")},
               split="test", boards=4, seed=0, path=path)
    done = subprocess.run([sys.executable, "-c", "from bidlab.cli import main; main()", "results", "--rerun",
                           "--registry", str(path)], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "0 stale" in done.stdout, done.stdout[-2000:]
    m = reg.load(path)["rand"]
    assert m.fingerprints["random"] == reg.fingerprint("random")
    assert m.result["imps"]["mean"] != 99.0 and m.boards == 4
    assert not (tmp_path / "results").exists()  # played in a scratch folder
