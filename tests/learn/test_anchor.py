"""The anchor term KL(π ‖ π_anchor) of issue 29 (piKL, Jacob et al. 2022)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from bidlab.learn.anchor import anchor_kl


def _batch(n: int = 6, seed: int = 0, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn(n, 38, generator=g, dtype=dtype) * 2
    legal = torch.rand(n, 38, generator=g) < 0.5
    legal[:, 0] = True  # Pass is always legal
    return logits, legal


def _masked_softmax(logits, legal):
    return torch.softmax(logits.masked_fill(~legal, float("-inf")), dim=-1)


def test_the_kl_is_zero_when_the_policy_is_the_anchor():
    logits, legal = _batch()
    anchor = _masked_softmax(logits, legal)
    # Whatever the anchor says on illegal calls is ignored.
    anchor = torch.where(legal, anchor, torch.rand_like(anchor))
    kl = anchor_kl(logits, legal, anchor)
    assert kl.shape == (6,)
    assert torch.allclose(kl, torch.zeros(6, dtype=torch.float64), atol=1e-12)


def test_the_kl_is_the_textbook_sum_over_legal_calls():
    logits, legal = _batch(seed=1)
    g = torch.Generator().manual_seed(2)
    anchor = _masked_softmax(torch.randn(6, 38, generator=g, dtype=torch.float64), legal)
    kl = anchor_kl(logits, legal, anchor).numpy()
    p, q, m = _masked_softmax(logits, legal).numpy(), anchor.numpy(), legal.numpy()
    expected = [sum(p[t, a] * np.log(p[t, a] / q[t, a]) for a in range(38) if m[t, a]) for t in range(6)]
    assert np.allclose(kl, expected, rtol=1e-9)
    assert (kl > 0).all()


def test_the_gradient_matches_finite_differences():
    logits, legal = _batch(n=4, seed=3)
    g = torch.Generator().manual_seed(4)
    anchor = _masked_softmax(torch.randn(4, 38, generator=g, dtype=torch.float64), legal)
    anchor[0, legal[0].nonzero()[1, 0]] = 0.0  # a legal call the anchor never makes
    x = logits.clone().requires_grad_(True)
    assert torch.autograd.gradcheck(lambda z: anchor_kl(z, legal, anchor), (x,), eps=1e-6, atol=1e-6)


def test_an_anchor_that_never_makes_a_legal_call_gives_a_finite_kl_and_gradient():
    logits, legal = _batch(n=3, seed=5)
    anchor = torch.zeros(3, 38, dtype=torch.float64)
    anchor[:, 0] = 1.0  # a rule bidder that passes: probability 0 on every other legal call
    x = logits.clone().requires_grad_(True)
    kl = anchor_kl(x, legal, anchor)
    kl.sum().backward()
    assert torch.isfinite(kl).all() and (kl >= 0).all()
    assert torch.isfinite(x.grad).all() and (x.grad[~legal] == 0).all()
    # Moving probability toward Pass lowers the KL.
    assert (x.grad[:, 0] < 0).all()
    with pytest.raises(ValueError, match="floor"):
        anchor_kl(logits, legal, anchor, floor=0.0)


def test_minimising_only_the_kl_drives_the_policy_to_the_anchor():
    logits, legal = _batch(n=5, seed=6, dtype=torch.float32)
    g = torch.Generator().manual_seed(7)
    anchor = _masked_softmax(torch.randn(5, 38, generator=g) * 2, legal)
    start_gap = (_masked_softmax(logits, legal) - anchor).abs().max().item()
    x = logits.clone().requires_grad_(True)
    opt = torch.optim.Adam([x], lr=0.1)
    for _ in range(1000):
        opt.zero_grad()
        anchor_kl(x, legal, anchor).sum().backward()
        opt.step()
    gap = (_masked_softmax(x.detach(), legal) - anchor).abs().max().item()
    assert start_gap > 0.1 and gap < 1e-3, (start_gap, gap)
