"""Test-wide settings.

Hypothesis's per-example ``deadline`` (200 ms by default) is a wall-clock limit inside unit
tests: on the shared 2-core machines a busy moment made a correct test fail (a deal's PBN
round trip took 316 ms under load). Speed is measured in ``benchmarks/``, so no test here
runs under a deadline; a test that wants a smaller example count still sets its own
``@settings``.
"""

import importlib.util
from pathlib import Path

import pytest
from hypothesis import settings

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"

settings.register_profile("bidlab", deadline=None)
settings.load_profile("bidlab")


@pytest.fixture(scope="session")
def benchmark_script():
    """``load(name)``: the script ``benchmarks/NAME.py`` as a module (the benchmarks are
    scripts, not a package), loaded once per session."""
    loaded = {}

    def load(name: str):
        if name not in loaded:
            spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            loaded[name] = module
        return loaded[name]

    return load
