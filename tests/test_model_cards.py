"""Every shipped model has a card in docs/models.md, the belief net names the policy generation
it read, and the package is marked as typed (py.typed ships as package data)."""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

from bidlab.agents.neural import shipped_models_dir

ROOT = Path(__file__).resolve().parents[1]


def test_every_shipped_model_has_a_card():
    cards = (ROOT / "docs" / "models.md").read_text()
    shipped = sorted(p.stem for p in shipped_models_dir().glob("*.safetensors"))
    assert shipped
    for name in shipped:
        heading = f"## `nn:{name}`" if json.loads((shipped_models_dir() / f"{name}.json").read_text()).get(
            "net", {}).get("kind") == "policy" else f"## `{name}`"
        assert heading in cards, name


def test_the_belief_net_names_the_generation_of_the_policy_it_read():
    info = json.loads((shipped_models_dir() / "belief.json").read_text())["info"]
    generation = shipped_models_dir() / "history" / f"{info['policy_generation']}.safetensors"
    assert hashlib.sha256(generation.read_bytes()).hexdigest() == info["policy_sha256"]


def test_the_mixture_belief_names_the_generation_of_every_policy_it_read():
    info = json.loads((shipped_models_dir() / "belief-mix.json").read_text())["info"]
    assert set(info["policies_sha256"]) == set(info["policy"].split(","))
    for name, sha in info["policies_sha256"].items():
        generation = info["policy_generations"][name]
        if sha is None:  # a rule bidder: no weights
            assert generation == "sayc"
            continue
        history = shipped_models_dir() / "history" / f"{generation}.safetensors"
        path = history if history.exists() else shipped_models_dir() / f"{generation}.safetensors"
        assert hashlib.sha256(path.read_bytes()).hexdigest() == sha, name


def test_py_typed_ships_with_the_package():
    assert (ROOT / "bidlab" / "py.typed").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["bidlab"]
    assert "py.typed" in data


def test_citation_lists_the_three_papers():
    text = (ROOT / "CITATION.cff").read_text()
    for title in ("Bridge Bidding via Deep Reinforcement Learning and Belief Monte Carlo Search",
                  "Joint Policy Search for Multi-agent Collaboration with Imperfect Information", "Bidding in Spades"):
        assert title in text
