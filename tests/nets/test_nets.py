"""Networks: shapes, masking, safetensors round trips, and refusing bad model files."""

import numpy as np
import pytest
import torch

from bidlab.agents.base import BiddingView
from bidlab.agents.neural import NeuralAgent, load_neural_agent
from bidlab.agents.registry import make_agent
from bidlab.bridge import Auction, Vulnerability
from bidlab.cards import Deal, Seat
from bidlab.nets import PRESETS, ModelFileError, build, load_model, preset, save_model


@pytest.mark.parametrize("kind, name", sorted(PRESETS))
def test_every_preset_builds_with_the_documented_shapes(kind, name):
    cfg = preset(kind, name)
    net = build(cfg)
    x = torch.zeros(3, cfg.input_dim)
    out = net(x)
    if kind == "jps":
        policy, value = out
        assert policy.shape == (3, 38) and value.shape == (3,)
    elif kind == "value":
        assert out.shape == (3,) and out.abs().max() <= 1
    elif kind == "judge":  # one number per row, IMPs: unbounded
        assert out.shape == (3,)
    else:
        assert out.shape == (3, cfg.output_dim)


def test_paper_policy_is_qiu_architecture():
    net = build(preset("policy", "paper"))
    linears = [m for m in net.modules() if isinstance(m, torch.nn.Linear)]
    assert [(m.in_features, m.out_features) for m in linears] == [(480, 2048)] + [(2048, 2048)] * 3 + [(2048, 38)]
    assert any(isinstance(m, torch.nn.GELU) for m in net.modules())


def test_save_load_round_trip(tmp_path):
    torch.manual_seed(0)
    net = build(preset("policy", "tiny"))
    save_model(tmp_path / "m", net, info={"note": "test"})
    loaded, meta = load_model(tmp_path / "m.safetensors")
    x = torch.randn(5, 480)
    assert torch.equal(net(x), loaded(x))
    assert meta["net"]["preset"] == "tiny" and meta["net"]["encoder"] == "openspiel480"
    assert meta["info"]["note"] == "test" and "bidlab_version" in meta
    # Without the JSON sidecar the config is read from the safetensors metadata.
    (tmp_path / "m.json").unlink()
    loaded2, _ = load_model(tmp_path / "m")
    assert torch.equal(net(x), loaded2(x))


def test_bad_model_files(tmp_path):
    with pytest.raises(ModelFileError, match="no model file"):
        load_model(tmp_path / "missing")
    (tmp_path / "junk.safetensors").write_bytes(b"not a model at all")
    with pytest.raises(ModelFileError, match="not a readable safetensors"):
        load_model(tmp_path / "junk")
    net = build(preset("policy", "tiny"))
    save_model(tmp_path / "m", net)
    meta = (tmp_path / "m.json").read_text().replace('"hidden": 64', '"hidden": 65')
    (tmp_path / "m.json").write_text(meta)
    with pytest.raises(ModelFileError, match="does not match"):
        load_model(tmp_path / "m")
    with pytest.raises(ModelFileError, match="preset"):
        preset("policy", "huge")


def _views(n, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        d = Deal.random(rng)
        a = Auction(Seat(int(rng.integers(4))))
        for _ in range(int(rng.integers(0, 6))):
            legal = a.legal_calls()
            a = a.with_call(legal[int(rng.integers(len(legal)))])
            if a.is_over:
                break
        if a.is_over:
            a = Auction(a.dealer)
        out.append(BiddingView(a.to_act, d[a.to_act], a, Vulnerability(int(rng.integers(4)))))
    return out


def test_neural_agent_batched_equals_single_and_is_legal(tmp_path):
    torch.manual_seed(1)
    save_model(tmp_path / "m", build(preset("policy", "tiny")))
    agent = make_agent(f"nn:{tmp_path / 'm.safetensors'}")
    views = _views(40)
    batched = agent.act_batch(views)
    assert batched == [agent.act(v) for v in views]
    assert all(v.auction.is_legal(c) for v, c in zip(views, batched))
    top = agent.top_calls(views[0], k=5)
    assert abs(sum(p for _, p in agent.top_calls(views[0], k=38)) - 1) < 1e-5
    assert all(views[0].auction.is_legal(c) for c, _ in top)
    assert "policy network" in agent.explain(views[0])


def test_sampled_agent_is_seeded(tmp_path):
    save_model(tmp_path / "m", build(preset("policy", "tiny")))
    views = _views(30, seed=3)
    a1 = load_neural_agent(tmp_path / "m", mode="sample", seed=5).act_batch(views)
    a2 = load_neural_agent(tmp_path / "m", mode="sample", seed=5).act_batch(views)
    assert a1 == a2
    assert all(v.auction.is_legal(c) for v, c in zip(views, a1))
    assert isinstance(load_neural_agent(tmp_path / "m"), NeuralAgent)


def test_shipped_sl_model_loads_and_bids_legally(tmp_path, monkeypatch):
    from bidlab.agents.neural import shipped_models_dir

    weights = shipped_models_dir() / "sl.safetensors"
    assert weights.stat().st_size < 10 * 2**20  # the size limit for a shipped model
    # A folder named like the model in the working directory must not shadow it.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sl").mkdir()
    agent = make_agent("nn:sl")
    assert agent.meta["net"]["encoder"] == "openspiel480"
    assert 0 < agent.meta["info"]["validation"]["accuracy"] <= 1
    views = _views(25, seed=9)
    assert all(v.auction.is_legal(c) for v, c in zip(views, agent.act_batch(views)))
