"""The anchor term of KL-regularised self-play: keep the policy readable to a partner.

Self-play RL drifts away from the bidding system the policy first learned by imitation, so
a person (or a rule bidder) opposite it can no longer read its calls (issue 29). Jacob et
al. 2022 (piKL: "Modeling Strong and Human-Like Gameplay with KL-Regularized Search",
ICML 2022) keep a policy close to a human *anchor* policy by adding a KL penalty toward it
and show the policy stays strong. Here the anchor is a SAYC imitation policy (``nn:sl``),
and the learner adds ``λ · KL(π ‖ π_anchor)`` per decision to its loss.

:func:`anchor_kl` is that KL for a batch of decisions, a pure function of tensors so that
any learner (and any test) can use it. It is the *reverse* KL, as in piKL: the expectation
is under the learner's own π, so it penalises π for putting mass where the anchor puts
little (a call the anchor's system would not make), and its gradient needs only π's
logits; the anchor's probabilities are constants (computed by the actors, batched).

Only legal calls count: π is the softmax of ``logits`` over the legal calls, and the
anchor is restricted to the same calls. An anchor may give a legal call probability 0
(a rule bidder as anchor, a float that underflowed), where ``log π_anchor`` is −∞ and the
KL infinite for any π that can still choose that call. The anchor is therefore floored at
``floor`` (default :data:`ANCHOR_FLOOR`) on every legal call and renormalised over the
legal calls, so the KL stays finite, is never negative, and is exactly 0 when π equals
the (floored) anchor. A call the anchor gives 0 costs π at most ``π(a)·(log π(a) −
log floor)``: about 13.8 nats per unit of probability at the default.
"""

from __future__ import annotations

import torch

ANCHOR_FLOOR = 1e-6
"""Least probability the anchor is taken to give any legal call (see the module docstring)."""


def anchor_kl(logits: torch.Tensor, legal: torch.Tensor, anchor_probs: torch.Tensor,
              floor: float = ANCHOR_FLOOR) -> torch.Tensor:
    """Per-row ``KL(π ‖ π_anchor)`` over the legal calls, differentiable in ``logits``.

    ``logits``: ``[n, 38]`` the learner's raw policy logits. ``legal``: ``bool[n, 38]`` the
    legal calls of each row (at least one per row). ``anchor_probs``: ``[n, 38]`` the
    anchor's call probabilities (treated as constants; values on illegal calls are
    ignored). ``floor``: the least probability the anchor gives a legal call, > 0.
    Returns ``[n]`` in ``logits``' dtype.
    """
    if not floor > 0:
        raise ValueError(f"floor must be > 0, got {floor}")
    if logits.shape != legal.shape or logits.shape != anchor_probs.shape:
        raise ValueError(f"logits {tuple(logits.shape)}, legal {tuple(legal.shape)} and anchor_probs "
                         f"{tuple(anchor_probs.shape)} must have the same shape")
    legal = legal.bool()
    # log π over the legal calls; illegal entries set to 0 *before* any product, so that no
    # 0 · (−∞) enters the forward pass or the gradient.
    log_pi = torch.log_softmax(logits.masked_fill(~legal, float("-inf")), dim=-1)
    log_pi = torch.where(legal, log_pi, torch.zeros_like(log_pi))
    pi = log_pi.exp() * legal
    anchor = torch.where(legal, anchor_probs.detach().to(logits.dtype).clamp_min(floor),
                         torch.zeros_like(log_pi))
    anchor = anchor / anchor.sum(dim=-1, keepdim=True)
    log_anchor = torch.where(legal, anchor.clamp_min(torch.finfo(logits.dtype).tiny).log(),
                             torch.zeros_like(log_pi))
    return (pi * (log_pi - log_anchor)).sum(dim=-1)


__all__ = ["ANCHOR_FLOOR", "anchor_kl"]
