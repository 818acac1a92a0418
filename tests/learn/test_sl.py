"""Supervised learning: importers, a few training steps, and resuming after a kill."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
import torch

from bidlab.agents.registry import make_agent
from bidlab.bridge import pbn
from bidlab.bridge.board import Board
from bidlab.bridge.records import BoardRecord
from bidlab.cards import Deal
from bidlab.errors import FileFormatError
from bidlab.learn.data import (
    AuctionSet,
    AuctionSetError,
    batch_features,
    generate_expert,
    import_openspiel,
    import_pbn,
    node_call_pairs,
)
from bidlab.learn.sl import SLConfig, TrainingError, evaluate, train_sl
from bidlab.nets import build, load_model, preset
from bidlab.runtime.progress import CountingProgress
from bidlab.runtime.split import split_mask
from tests.scalar_bidding import bid_scalar

TINY = preset("policy", "tiny")


def _openspiel_games(n, seed):
    """Random full games played in OpenSpiel itself: (action list, the calls OpenSpiel took)."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("bridge", {"use_double_dummy_result": False})
    rng = np.random.default_rng(seed)
    games = []
    for _ in range(n):
        s = game.new_initial_state()
        actions, calls = [], []
        while not s.is_terminal():
            if s.is_chance_node():
                a = int(rng.choice([o for o, _ in s.chance_outcomes()]))
            else:
                legal = s.legal_actions()
                a = 52 if (legal[0] == 52 and rng.random() < 0.5) else int(rng.choice(legal))
                if 52 <= a < 90 and s.current_phase() == 1:
                    calls.append(a - 52)
            actions.append(a)
            s.apply_action(a)
        games.append((actions, calls, str(s)))
    return games


def test_import_openspiel_file_and_train(tmp_path):
    games = _openspiel_games(30, seed=1)
    path = tmp_path / "train.txt"
    path.write_text("\n".join(" ".join(map(str, a)) for a, _, _ in games) + "\n")
    aset = import_openspiel(path, tmp_path / "os")
    arrays = aset.load()
    assert len(arrays) == 30
    for i, (_, calls, text) in enumerate(games):
        assert arrays.history[i, : arrays.length[i]].tolist() == calls
        # OpenSpiel's printed diagram shows North's spades; ours must agree.
        north = Deal.from_array(arrays.deals[i])[0]
        spades = " ".join(r.char for r in north.suit_ranks(3)).replace("T", "10")
        assert text.splitlines()[2].strip() == ("♠ " + spades).strip()
    state = train_sl(str(tmp_path / "os"), tmp_path / "run", SLConfig(net=TINY, batch_size=16, epochs=1,
                                                                       max_steps=5))
    assert state["step"] == 5


def test_import_pbn_written_here_and_train(tmp_path):
    sayc = make_agent("sayc")
    boards = [Board.numbered(i + 1, Deal.random(100 + i)) for i in range(24)]
    auctions = [bid_scalar(b, (sayc,) * 4) for b in boards]
    pbn.dump([BoardRecord(b, a, a.contract, a.is_passed_out) for b, a in zip(boards, auctions)],
             tmp_path / "sayc.pbn")
    aset = import_pbn(tmp_path / "sayc.pbn", tmp_path / "pbnset")
    arrays = aset.load()
    assert len(arrays) == 24
    assert [int(x) for x in arrays.length] == [len(a.calls) for a in auctions]
    b, s = node_call_pairs(arrays)
    x, legal, y = batch_features(arrays, b, s)
    assert x.shape == (int(arrays.length.sum()), 480)
    assert legal[np.arange(len(y)), y].all()  # every expert call is legal where it was made
    state = train_sl(str(tmp_path / "pbnset"), tmp_path / "run", SLConfig(net=TINY, batch_size=16, epochs=2))
    assert len(state["history"]) == 2 and 0 <= state["history"][-1]["accuracy"] <= 1
    net, meta = load_model(tmp_path / "run" / "model")
    assert meta["info"]["trained_on"] == [str(tmp_path / "pbnset")]


def test_bad_data_inputs(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2 3\n")
    with pytest.raises(FileFormatError, match="line 1"):
        import_openspiel(bad, tmp_path / "o")
    games = _openspiel_games(1, seed=2)
    actions = games[0][0]
    broken = actions[:52] + [52 + 5, 52 + 4]  # 1D then 1C: not higher
    bad.write_text(" ".join(map(str, broken)) + "\n")
    with pytest.raises(FileFormatError, match="call 2"):
        import_openspiel(bad, tmp_path / "o2")
    with pytest.raises(AuctionSetError, match="not an auction set"):
        AuctionSet.open(tmp_path)
    aset = generate_expert(tmp_path / "ex", 20, teacher="random", shard_size=10, workers=1)
    shard = tmp_path / "ex" / aset.shards[0].file
    shard.write_bytes(shard.read_bytes()[:-10])
    with pytest.raises(AuctionSetError, match="does not match the manifest"):
        AuctionSet.open(tmp_path / "ex").load()
    with pytest.raises(TrainingError, match="train and validation splits"):
        one = generate_expert(tmp_path / "one", 1, teacher="random", shard_size=1, workers=1)
        train_sl(str(one.path), tmp_path / "run", SLConfig(net=TINY))


def _run_cli(args, **kw):
    return subprocess.Popen([sys.executable, "-c", "from bidlab.cli import main; main()", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, **kw)


def test_killed_training_resumes_from_last_checkpoint(tmp_path):
    """Killed at step 10 (checkpoints every 4 steps), the run resumes from step 8 and ends
    exactly as an uninterrupted run. The child's progress task writes a marker at step 10
    and blocks there, so the kill lands at that step every time."""
    generate_expert(tmp_path / "ex", 60, teacher="random", shard_size=60, workers=1, seed=4)
    common = ["train", "sl", "--data", str(tmp_path / "ex"), "--preset", "tiny", "--batch-size", "32",
              "--epochs", "2", "--checkpoint-every", "4", "--threads", "1"]
    # Reference: an uninterrupted run.
    ref = _run_cli(common + ["--out", str(tmp_path / "ref")])
    assert ref.wait() == 0, ref.stderr.read()

    marker = tmp_path / "at-step-10"
    child = textwrap.dedent(f"""
        import threading
        from pathlib import Path
        import torch
        from bidlab.learn.sl import SLConfig, train_sl
        from bidlab.nets import preset
        from bidlab.runtime.progress import CountingProgress

        class StopAt10(CountingProgress):
            def advance(self, n=1):
                super().advance(n)
                if self.done == 10:
                    Path({str(marker)!r}).write_text("")
                    threading.Event().wait()

        torch.set_num_threads(1)
        cfg = SLConfig(net=preset("policy", "tiny"), batch_size=32, epochs=2, checkpoint_every=4)
        train_sl([{str(tmp_path / "ex")!r}], {str(tmp_path / "cut")!r}, cfg, progress=StopAt10())
    """)
    run = subprocess.Popen([sys.executable, "-c", child])
    try:
        while not marker.exists():
            assert run.poll() is None, "training ended before step 10"
            time.sleep(0.02)
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
    finally:
        if run.poll() is None:
            run.kill()
    state_file = tmp_path / "cut" / "state.json"
    assert json.loads(state_file.read_text())["step"] == 8  # the last checkpoint before the kill

    resumed = _run_cli(common + ["--out", str(tmp_path / "cut")])
    assert resumed.wait() == 0, resumed.stderr.read()
    cut_state = json.loads(state_file.read_text())
    ref_state = json.loads((tmp_path / "ref" / "state.json").read_text())
    assert cut_state["step"] == ref_state["step"] > 10
    a, _ = load_model(tmp_path / "ref" / "model")
    b, _ = load_model(tmp_path / "cut" / "model")
    for (k, va), (_, vb) in zip(a.state_dict().items(), b.state_dict().items()):
        assert torch.allclose(va, vb, atol=1e-6), k
    assert [h["accuracy"] for h in cut_state["history"]] == pytest.approx([h["accuracy"] for h in ref_state["history"]])

    # Resuming with other settings is refused, and the run folder is left as it was.
    other = _run_cli(common[:-4] + ["--epochs", "2", "--lr", "0.01", "--out", str(tmp_path / "cut")])
    assert other.wait() == 2
    assert "other settings" in other.stderr.read()
    assert json.loads(state_file.read_text())["step"] == cut_state["step"]


def test_sl_learns_the_teacher_on_a_fixed_set(tmp_path):
    """Against the same net untrained, a few hundred steps on SAYC auctions lower the
    validation loss and raise the validation accuracy well beyond it, and the training
    loss falls from the first steps to the last."""
    aset = generate_expert(tmp_path / "ex", 200, teacher="sayc", shard_size=200, workers=1, seed=5)
    cfg = SLConfig(net=TINY, batch_size=64, epochs=3, lr=3e-3, seed=2)
    steps = CountingProgress()
    state = train_sl(str(aset.path), tmp_path / "run", cfg, progress=steps)

    arrays = aset.load()
    validation = np.flatnonzero(split_mask(np.arange(len(arrays)), "validation"))
    torch.manual_seed(cfg.seed)  # train_sl builds its net right after this seed
    untrained = evaluate(build(TINY), arrays, validation, "cpu")
    trained, _ = load_model(tmp_path / "run" / "model")
    after = evaluate(trained, arrays, validation, "cpu")
    # Measured: accuracy 2% -> 62%, loss 3.40 -> 1.41 on 202 validation calls.
    assert after["pairs"] == untrained["pairs"] > 150
    assert untrained["accuracy"] < 0.2 and after["accuracy"] > untrained["accuracy"] + 0.3, (untrained, after)
    assert after["loss"] < 0.6 * untrained["loss"], (untrained, after)
    assert state["best_accuracy"] == pytest.approx(after["accuracy"])

    losses = [float(n.split("loss ")[1].split()[0]) for n in steps.notes]
    assert len(losses) == state["step"] == steps.done
    assert np.mean(losses[-10:]) < 0.6 * np.mean(losses[:10])


def test_expert_generation_resumes_and_repeats(tmp_path):
    full = generate_expert(tmp_path / "full", 30, teacher="sayc", shard_size=10, workers=1, seed=3).load()
    cut = generate_expert(tmp_path / "cut", 20, teacher="sayc", shard_size=10, workers=1, seed=3)
    assert len(cut) == 20
    # Asking for more boards with the same settings only bids the missing shard.
    resumed = generate_expert(tmp_path / "cut", 30, teacher="sayc", shard_size=10, workers=1, seed=3).load()
    for name in ("deals", "dealer", "vulnerability", "length"):
        assert np.array_equal(getattr(full, name), getattr(resumed, name)), name
    assert np.array_equal(full.history, resumed.history)
    # Dealers and vulnerabilities follow the 16-board cycle.
    assert full.dealer[:4].tolist() == [0, 1, 2, 3] and full.vulnerability[:4].tolist() == [0, 1, 2, 3]
    with pytest.raises(AuctionSetError, match="use another folder"):
        generate_expert(tmp_path / "cut", 30, teacher="random", shard_size=10, workers=1, seed=3)


def test_fine_tuning_starts_from_the_given_model(tmp_path):
    aset = generate_expert(tmp_path / "ex", 40, teacher="sayc", shard_size=40, workers=1, seed=8)
    first = train_sl(str(aset.path), tmp_path / "a", SLConfig(net=TINY, batch_size=16, epochs=1))
    start, _ = load_model(tmp_path / "a" / "model")
    # Zero steps of fine-tuning: the run's model is exactly the starting model.
    tuned = train_sl(str(aset.path), tmp_path / "b",
                     SLConfig(net=TINY, batch_size=16, epochs=1, max_steps=0, init=str(tmp_path / "a" / "model")))
    assert tuned["step"] == 0 and first["step"] > 0
    from safetensors.torch import load

    saved = load((tmp_path / "b" / "checkpoint.safetensors").read_bytes())
    for k, v in start.state_dict().items():
        assert torch.equal(saved[f"net.{k}"], v), k
    with pytest.raises(TrainingError, match="not the 'cpu' policy"):
        train_sl(str(aset.path), tmp_path / "c", SLConfig.cpu(init=str(tmp_path / "a" / "model")))
