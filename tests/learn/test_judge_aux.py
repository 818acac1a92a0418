"""The doubling judge's advice as an auxiliary A2C loss (issue 44): ``-log pi(X)`` where the
judge expects more than the threshold from doubling."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from bidlab.learn.a2c.config import RLTrainingError, make_config
from bidlab.learn.a2c.learner import DOUBLE, judge_nll


def _batch(n: int = 8, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn(n, 38, generator=g) * 2
    legal = torch.rand(n, 38, generator=g) < 0.5
    legal[:, 0] = True
    return logits, legal


def test_only_advised_rows_with_a_legal_double_count():
    logits, legal = _batch()
    legal[:4, DOUBLE] = True
    legal[4:, DOUBLE] = False
    gains = torch.tensor([3.0, 0.5, 2.0, -1.0, 5.0, 5.0, 5.0, 5.0])  # rows 4.. advised but X illegal
    term, advised = judge_nll(logits, legal, gains, threshold=1.0, floor=-1e9)
    logp = torch.log_softmax(logits.masked_fill(~legal, float("-inf")), dim=-1)
    expected = -(logp[0, DOUBLE] + logp[2, DOUBLE]) / 8
    assert torch.isclose(term, expected)
    assert advised.item() == pytest.approx(2 / 8)


def test_nothing_advised_gives_zero_and_no_gradient():
    logits, legal = _batch(seed=1)
    legal[:, DOUBLE] = True
    x = logits.clone().requires_grad_(True)
    term, advised = judge_nll(x, legal, torch.zeros(8), threshold=1.0, floor=-1.0)
    term.backward()
    assert term.item() == 0 and advised.item() == 0
    assert (x.grad == 0).all()


def test_minimising_the_term_makes_the_advised_double_the_policy_s_call():
    logits, legal = _batch(n=6, seed=2)
    legal[:, DOUBLE] = True
    gains = torch.tensor([4.0, 4.0, 4.0, 0.0, 0.0, 0.0])
    x = logits.clone().requires_grad_(True)
    before = torch.softmax(logits.masked_fill(~legal, float("-inf")), -1)
    opt = torch.optim.Adam([x], lr=0.1)
    for _ in range(200):
        opt.zero_grad()
        judge_nll(x, legal, gains, threshold=1.0, floor=-1.0)[0].backward()
        opt.step()
    after = torch.softmax(x.detach().masked_fill(~legal, float("-inf")), -1)
    assert (after[:3].argmax(1) == DOUBLE).all()
    assert torch.allclose(after[3:], before[3:])  # rows not advised are left alone


def test_the_floor_pushes_x_down_where_the_judge_expects_a_loss():
    logits, legal = _batch(n=4, seed=3)
    legal[:, DOUBLE] = True
    logits[:, DOUBLE] = 3.0  # a policy that likes to double
    gains = torch.tensor([-3.0, -3.0, 0.5, 0.5])  # rows 0-1 below the floor, rows 2-3 in the band
    x = logits.clone().requires_grad_(True)
    term, advised = judge_nll(x, legal, gains, threshold=1.0, floor=0.0)
    logp = torch.log_softmax(logits.masked_fill(~legal, float("-inf")), dim=-1)[:, DOUBLE]
    assert torch.isclose(term, -torch.log1p(-logp[:2].exp()).sum() / 4, rtol=1e-5)
    assert advised.item() == 0
    term.backward()
    assert (x.grad[:2, DOUBLE] > 0).all()  # descent lowers X's logit where the judge expects a loss
    assert (x.grad[2:] == 0).all()         # the band between floor and threshold is left alone


def test_the_config_refuses_a_weight_without_a_judge():
    with pytest.raises(RLTrainingError, match="--judge-weight needs --judge"):
        make_config("tiny", judge_weight=0.5)
    with pytest.raises(RLTrainingError, match="--judge-floor"):
        make_config("tiny", judge="judge", judge_weight=1.0, judge_threshold=0.0, judge_floor=1.0)
    with pytest.raises(RLTrainingError, match="--judge-weight must be >= 0"):
        make_config("tiny", judge="judge", judge_weight=-1.0)


def test_a_resume_may_add_the_judge():
    base = make_config("tiny")
    assert base.training_key() == make_config("tiny", judge="judge", judge_weight=1.0).training_key()
    assert np.isfinite(make_config("tiny", judge="judge", judge_weight=1.0).judge_threshold)
