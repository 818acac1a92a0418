"""The replay-ratio limiter of A2C self-play (``--replay-ratio``): the loop holds learned /
generated near the ratio, the actor and learner never both wait, and old runs still resume."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidlab.learn.a2c import A2CConfig, ReplayRatioLimiter, RLTrainingError, train_rl


@given(ratio=st.floats(0.01, 100), burn_in=st.integers(0, 10_000), slack=st.integers(0, 4096),
       inserted=st.integers(0, 10**7), learned=st.integers(0, 10**7))
def test_actor_or_learner_may_always_proceed(ratio, burn_in, slack, inserted, learned):
    lim = ReplayRatioLimiter(ratio, burn_in, slack)
    lim.inserted, lim.produced, lim.learned = inserted, inserted, learned
    assert lim.actor_may_play() or lim.learner_may_step()


def test_limits_by_hand():
    lim = ReplayRatioLimiter(0.5, burn_in=100, slack=64)
    lim.add_inserted(100)            # burn-in done, nothing learned: the actor may make one more batch
    assert lim.actor_may_play() and lim.learner_may_step()
    lim.add_produced(300)            # queued, not yet in the buffer: one batch ahead is allowed,
    assert lim.actor_may_play()      # 0.5 * (300 - 300 - 100) <= 0
    lim.add_produced(300)            # two batches ahead: the actor waits for the learner
    assert not lim.actor_may_play()
    lim.add_inserted(300)            # 0.5 * 300 = 150 transitions may be learned, + 64 slack
    lim.add_learned(150)
    assert lim.actor_may_play() and lim.learner_may_step()
    lim.add_learned(64)
    assert lim.learner_may_step() and not (lim.learned + 1 <= 0.5 * 300 + 64)
    lim.add_learned(1)
    assert not lim.learner_may_step()
    free = ReplayRatioLimiter(None, 100, 64)
    free.add_inserted(10**6)
    assert free.actor_may_play() and free.learner_may_step()
    with pytest.raises(RLTrainingError, match="--replay-ratio must be > 0"):
        ReplayRatioLimiter(0.0, 0, 0)


@pytest.mark.parametrize("ratio", [0.5, 4.0])
def test_training_holds_the_replay_ratio(tmp_path, ratio):
    """A tiny local run: after the burn-in, learned / generated stays within one batch of each
    side of the ratio (two on the actor's: it may start one batch ahead). Free-running, this tiny loop gives a ratio near 0.7 (measured: 1,280
    learned, 1,849 generated after the burn-in), outside both bounds below for 0.5 (the learner
    must wait) and for 4 (the actor must wait)."""
    cfg = A2CConfig.tiny(eval_every=1000, replay_ratio=ratio)
    state = train_rl(tmp_path, cfg, init=None, updates=20)
    run = state["this_run"]
    after = run["generated"] - cfg.burn_in
    learned = run["learned"]
    assert learned == 20 * cfg.batch_size
    # the actor runs at most one batch ahead of the ratio, plus the batch it is playing
    assert (learned - 2 * cfg.batch_size) / ratio <= after <= learned / ratio + 2 * run["largest_batch"]


def test_replay_ratio_does_not_change_the_training_key():
    """checkpoints/rl (made before the option existed) resumes with or without --replay-ratio."""
    old = A2CConfig.cpu().to_json()
    old.pop("replay_ratio")  # a config saved before the field existed
    assert A2CConfig.from_json(old).training_key() == A2CConfig.cpu().training_key()
    assert A2CConfig.cpu(replay_ratio=0.5).training_key() == A2CConfig.cpu().training_key()
    assert dataclasses.replace(A2CConfig.cpu(), batch_size=256).training_key() != A2CConfig.cpu().training_key()


@pytest.mark.parametrize("folder", ["rl", "rl-next", "league"])
def test_the_shipped_rl_checkpoint_still_resumes_with_or_without_a_replay_ratio(folder):
    """The command in checkpoints/README.md (cpu preset, --no-hidden-info) must match the
    training key of checkpoints/{rl,rl-next}/state.json, with or without --replay-ratio, and so must a
    state saved before ``replay_ratio`` existed (the key dropped from the same config)."""
    import json
    from pathlib import Path

    from bidlab.learn.a2c import make_config

    saved = json.loads((Path(__file__).parents[2] / "checkpoints" / folder / "state.json").read_text())["config"]
    older = {k: v for k, v in saved.items() if k != "replay_ratio"}
    for config in (saved, older):
        old = A2CConfig.from_json(config).training_key()
        for ratio in (None, 0.5):
            cfg = make_config("cpu", per=True, hidden_info=False, seed=0, replay_ratio=ratio)
            cfg = dataclasses.replace(cfg, policy=A2CConfig.from_json(config).policy)  # what --init nn:sl sets
            assert cfg.training_key() == old
