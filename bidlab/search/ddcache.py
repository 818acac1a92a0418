"""Scoring search rollouts: each (particle, declarer, strain) a rollout reaches is solved or
estimated once per decision and shared by every candidate that reaches it (Qiu et al. Alg. 4
scores rollouts by DDS; the authors solve every rollout again, sequentially).

Two trick sources with one interface, :meth:`ContractValues.points`:

- ``exact``: single-contract DDS (:func:`bidlab.dd.solve_contracts`), only the pairs not yet
  in the cache, in one batched call;
- ``net``: the trick estimator (:class:`bidlab.learn.tricks.TrickNet`), one forward per
  particle for all 20 pairs; a contract is worth its *expected* score over the estimated
  trick distribution.
"""

from __future__ import annotations

import time

import numpy as np

from bidlab.envs.scoring import ns_scores
from bidlab.envs.state import Contracts


class ContractValues:
    """North-South scores of contracts on a fixed set of particle deals, cached per decision."""

    def __init__(self, deals: np.ndarray, vulnerability: int, trick_net=None):
        self.deals = deals
        self.vul = int(vulnerability)
        self.net = trick_net
        self._tricks: dict[int, int] = {}          # particle * 20 + declarer * 5 + strain -> tricks
        self._probs = np.zeros((len(deals), 4, 5, 14), np.float32) if trick_net is not None else None
        self._have = np.zeros(len(deals), bool)
        self.solves = 0
        self.seconds = 0.0

    def points(self, particle: np.ndarray, c: Contracts) -> np.ndarray:
        """NS score (float64) of contract ``c[i]`` on particle ``particle[i]``; 0 if passed out."""
        t0 = time.perf_counter()
        played = c.level > 0
        out = np.zeros(len(particle), np.float64)
        if played.any():
            p = particle[played]
            dec = c.declarer[played].astype(np.int64)
            strain = c.strain[played].astype(np.int64)
            lvl, dbl = c.level[played], c.doubled[played]
            vul = np.full(len(p), self.vul)
            if self.net is None:
                tricks = self._exact(p, dec, strain)
                out[played] = ns_scores(lvl, strain, dbl, dec, tricks, vul)
            else:
                need = np.unique(p[~self._have[p]])
                if need.size:
                    self._probs[need] = self.net.trick_probabilities(self.deals[need])
                    self._have[need] = True
                    self.solves += int(need.size)
                prob = self._probs[p, dec, strain]                     # [m, 14]
                per_t = np.stack([ns_scores(lvl, strain, dbl, dec, np.full(len(p), t), vul) for t in range(14)], 1)
                out[played] = (prob * per_t).sum(axis=1)
        self.seconds += time.perf_counter() - t0
        return out

    def _exact(self, p: np.ndarray, dec: np.ndarray, strain: np.ndarray) -> np.ndarray:
        from bidlab.dd import solve_contracts

        key = p.astype(np.int64) * 20 + dec * 5 + strain
        uniq = np.unique(key)
        todo = np.array([k for k in uniq.tolist() if k not in self._tricks], np.int64)
        if todo.size:
            got = solve_contracts(self.deals[todo // 20], (todo % 20) // 5, todo % 5)
            self._tricks.update(zip(todo.tolist(), got.tolist()))
            self.solves += int(todo.size)
        return np.array([self._tricks[k] for k in key.tolist()], np.int64)
