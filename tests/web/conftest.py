"""Fixtures for the web app: a results folder with a small real match, a folder with a tiny
neural model, and a TestClient over an app that reads only those."""

from __future__ import annotations

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
    from bidlab.nets import build, preset, save_model

    root = tmp_path_factory.mktemp("models")
    save_model(root / "tiny", build(preset("policy", "tiny")))
    return root


MEANING_DEALS = 40


@pytest.fixture(scope="session")
def app(results_dir, models_dir, tmp_path_factory):
    """The app; "Why?" meanings come from 40 stored deals and are waited for (so answers repeat)."""
    from bidlab.web import create_app

    return create_app(results_dir=results_dir, model_dirs=[models_dir], max_boards=50,
                      meaning_deals=MEANING_DEALS, meaning_cache=tmp_path_factory.mktemp("meanings"),
                      meaning_wait=300.0)


@pytest.fixture()
def client(app):
    from fastapi.testclient import TestClient

    with TestClient(app, raise_server_exceptions=False) as c:
        yield c
