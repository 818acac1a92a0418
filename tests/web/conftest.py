"""Fixtures for the web app: a results folder with a small real match, a folder with a tiny
neural model, and a TestClient over an app that reads only those."""

from __future__ import annotations

import json

import pytest


@pytest.fixture(scope="session")
def results_dir(tmp_path_factory):
    """A results directory holding one 6-board random-vs-sayc match written by the match harness."""
    from bidlab.eval.match import Match, MatchConfig

    root = tmp_path_factory.mktemp("results")
    Match(MatchConfig("random", "sayc", boards=6, seed=3, chunk_size=6), root / "m-random-sayc").run(workers=1)
    return root


@pytest.fixture(scope="session")
def models_dir(tmp_path_factory):
    """A model folder with one tiny (untrained) policy net saved by bidlab: ``nn:tiny``."""
    import torch

    from bidlab.nets import build, preset, save_model

    root = tmp_path_factory.mktemp("models")
    # Seeded: the same tiny net in every run, whatever the tests before it drew from torch's
    # global generator (unseeded, a run could build a net whose North opens 7NT).
    with torch.random.fork_rng():
        torch.manual_seed(0)
        save_model(root / "tiny", build(preset("policy", "tiny")))
    return root


MEANING_SAMPLES = 64


@pytest.fixture(scope="session")
def app(results_dir, models_dir, tmp_path_factory):
    """The app; "Why?" meanings read from 64 partner hands, waited for (so answers repeat)."""
    from bidlab.web import create_app

    return create_app(results_dir=results_dir, model_dirs=[models_dir], max_boards=50,
                      meaning_samples=MEANING_SAMPLES,
                      meaning_wait=300.0)


@pytest.fixture()
def client(app):
    from fastapi.testclient import TestClient

    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="session")
def results28(tmp_path_factory):
    """A results folder: an 8-board match whose IMPs sum to 9 (1.125 a board: a tie at two
    decimals, which JavaScript's toFixed rounds up and Python's format to even) and whose
    vs-par IMPs are all 0 (B's is then minus 0); and a match stopped after 2 of its 4 boards."""
    from bidlab.eval.match import Match, MatchConfig, _run_chunk

    root = tmp_path_factory.mktemp("results28")
    Match(MatchConfig("random", "sayc", boards=8, seed=5, chunk_size=8), root / "tied").run(workers=1)
    path = root / "tied" / "results.jsonl"
    header, *records = [json.loads(x) for x in path.read_text().splitlines()]
    for i, r in enumerate(records):
        r["imps_a"] = 9 if i == 0 else 0
        r["a_vs_par"] = [0, 0]
    path.write_text("".join(json.dumps(x) + "\n" for x in [header, *records]))

    stopped = Match(MatchConfig("random", "sayc", boards=4, seed=2, chunk_size=2), root / "stopped")
    k, recs = _run_chunk(stopped._task(0))
    stopped.chunks.write_records(k, recs)
    return root


@pytest.fixture(scope="module")
def browser():
    """Headless Debian chromium for one test module (tests/web/chromium.py)."""
    from playwright.sync_api import sync_playwright

    from tests.web.chromium import launch

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture()
def new_page(browser):
    """``new_page(**options)``: a page that fails the test on any script error."""
    pages, errors = [], []

    def make(**options):
        pg = browser.new_page(**options)
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pages.append(pg)
        return pg

    yield make
    for pg in pages:
        pg.close()
    assert errors == [], errors
