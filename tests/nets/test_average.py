"""Weight averaging (SWA / model soup): the mean against numpy's on the saved tensors, the
weights, one shape only, a run folder's checkpoint as an ingredient, and the command's file."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from safetensors.numpy import load_file

from bidlab.cli import main
from bidlab.nets import ModelFileError, NetConfig, build, load_model, save_model
from bidlab.nets.average import average_nets, mixing_weights

TINY = NetConfig("policy", "tiny", 480, 16, 2, 38, "openspiel480")


def _net(seed: int, cfg: NetConfig = TINY):
    torch.manual_seed(seed)
    return build(cfg).eval()


def test_the_average_is_the_weighted_mean_of_every_tensor(tmp_path):
    nets = [_net(s) for s in (1, 2, 3)]
    for i, n in enumerate(nets):
        save_model(tmp_path / f"p{i}", n)
    avg = average_nets(nets, [1, 1, 2])
    save_model(tmp_path / "avg", avg)
    files = [load_file(tmp_path / f"p{i}.safetensors") for i in range(3)]
    got = load_file(tmp_path / "avg.safetensors")
    assert got.keys() == files[0].keys()
    for k in got:
        want = 0.25 * files[0][k].astype(np.float64) + 0.25 * files[1][k] + 0.5 * files[2][k]
        np.testing.assert_allclose(got[k], want, rtol=0, atol=1e-6)


def test_the_average_of_one_net_with_itself_bids_as_that_net():
    net = _net(4)
    x = torch.randn(64, 480)
    avg = average_nets([net, net, net])
    assert torch.allclose(avg(x), net(x), atol=1e-5)


@pytest.mark.parametrize("weights, fragment", [([1], "1 weights for 2 nets"), ([1, -1], ">= 0"),
                                               ([0, 0], "not all be 0"), ([1, float("nan")], ">= 0")])
def test_bad_weights_are_named(weights, fragment):
    with pytest.raises(ModelFileError, match=fragment):
        mixing_weights(2, weights)


def test_only_nets_of_one_shape_average():
    wide = NetConfig("policy", "tiny", 480, 32, 2, 38, "openspiel480")
    with pytest.raises(ModelFileError, match="b.json is a policy 2x32"):
        average_nets([_net(1), _net(2, wide)], names=["a.json", "b.json"])


def test_the_command_averages_a_model_file_and_a_run_folders_checkpoint(tmp_path, capsys):
    """A run folder stands for its checkpoint's policy (a run continued past its last
    ``final``); the output records each ingredient with its weight and file hash, and bids."""
    from bidlab.learn.a2c import A2CConfig, train_rl
    from bidlab.learn.a2c.checkpoint import checkpoint_tensors

    cfg = A2CConfig.tiny(eval_every=1000, checkpoint_every=2)
    train_rl(tmp_path / "run", cfg, init=None, updates=2)
    other = build(NetConfig(**json.loads((tmp_path / "run" / "final.json").read_text())["net"]))
    torch.manual_seed(9)
    for p in other.parameters():
        torch.nn.init.normal_(p)
    save_model(tmp_path / "other", other)
    with pytest.raises(SystemExit) as done:
        main(["train", "average", str(tmp_path / "run"), f"nn:{tmp_path / 'other'}", "--weights", "3,1",
              "--out", str(tmp_path / "avg")])
    assert done.value.code in (0, None)
    assert "averaged 2 policies" in capsys.readouterr().out
    ck = {k.removeprefix("policy."): v.numpy() for k, v in checkpoint_tensors(tmp_path / "run", "policy.").items()}
    mine = load_file(tmp_path / "other.safetensors")
    got = load_file(tmp_path / "avg.safetensors")
    for k in got:
        np.testing.assert_allclose(got[k], 0.75 * ck[k] + 0.25 * mine[k], rtol=1e-5, atol=1e-6)
    net, meta = load_model(tmp_path / "avg")
    assert [i["weight"] for i in meta["info"]["average"]["ingredients"]] == [0.75, 0.25]
    assert "update 2" in meta["info"]["average"]["ingredients"][0]["source"]
    from bidlab.agents.neural import load_neural_agent

    assert load_neural_agent(tmp_path / "avg").net.cfg == net.cfg
