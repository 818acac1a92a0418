"""Which agent specs the web app accepts, and that model references never leave the model folders."""

from __future__ import annotations

import pytest

from bidlab.agents.base import RandomAgent
from bidlab.agents.registry import _KINDS, AgentSpecError, register
from bidlab.web.agents import AgentCatalog, AgentPool


@pytest.fixture()
def catalog(models_dir):
    return AgentCatalog([models_dir])


def test_plain_specs_pass_through(catalog):
    assert catalog.resolve("sayc") == "sayc"
    assert catalog.resolve(" random:3 ") == "random:3"


def test_models_by_name_or_path_inside_the_folder(catalog, models_dir):
    weights = (models_dir / "tiny.safetensors").resolve()
    assert [m.name for m in catalog.models()] == ["tiny"]
    assert catalog.resolve("nn:tiny") == f"nn:{weights}"
    assert catalog.resolve("nn:tiny.safetensors:sample") == f"nn:{weights}:sample"
    assert catalog.resolve(f"nn:{models_dir}/../{models_dir.name}/tiny.safetensors") == f"nn:{weights}"
    assert "nn:tiny" in catalog.suggestions()


def test_symlinks_out_of_the_model_folder_are_neither_listed_nor_accepted(tmp_path, models_dir):
    root = tmp_path / "models"
    root.mkdir()
    (root / "escape.safetensors").symlink_to(models_dir / "tiny.safetensors")
    cat = AgentCatalog([root])
    assert cat.models() == []
    for spec in ("nn:escape", f"nn:{root / 'escape.safetensors'}", f"nn:{models_dir / 'tiny.safetensors'}"):
        with pytest.raises(AgentSpecError, match="unknown model"):
            cat.resolve(spec)


def test_other_kinds_may_take_no_argument_or_a_model(catalog):
    register("echo", "test kind", lambda arg, seed: RandomAgent(seed))
    try:
        assert catalog.resolve("echo") == "echo"
        with pytest.raises(AgentSpecError, match="unknown model"):
            catalog.resolve("echo:/etc/passwd")
    finally:
        _KINDS.pop("echo")


def test_pool_shares_deterministic_agents_and_seeds_random_ones_per_board():
    pool = AgentPool(size=2)
    assert pool.for_board("sayc", 1) is pool.for_board("sayc", 2)
    a, b = pool.for_board("random", 5), pool.for_board("random", 5)
    assert a is not b and a._rng.integers(1 << 30) == b._rng.integers(1 << 30)
    pool.shared("random:1"), pool.shared("random:2")
    assert len(pool._agents) == 2  # bounded: the least recently used went


def test_search_specs_keep_their_options_and_may_not_name_files():
    from bidlab.web.agents import AgentCatalog, shipped_models_dir

    cat = AgentCatalog()
    resolved = cat.resolve("bmcs:sl?k=2&rmax=60")
    assert resolved == f"bmcs:{(shipped_models_dir() / 'sl.safetensors').resolve()}?k=2&rmax=60"
    assert cat.resolve("mcs:sl").startswith("mcs:/")
    for bad in ("bmcs:sl?belief=/etc/passwd", "mcs:sl?k=2&tricks=../x"):
        with pytest.raises(AgentSpecError):
            cat.resolve(bad)
    assert {"bmcs:sl", "mcs:sl"} <= set(cat.suggestions())
    assert "nn:belief" not in cat.suggestions()
