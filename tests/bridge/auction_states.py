"""Random auction states for the encoder tests (scalar Auction, seeded)."""

from __future__ import annotations

import numpy as np

from bidlab.bridge import Auction
from bidlab.cards import Seat, random_deals

MAX_LEN = 320


def random_auction_states(n_auctions: int, seed: int, dealer=None):
    """All non-final states of random auctions (uniform legal calls, scalar Auction)."""
    rng = np.random.default_rng(seed)
    deals = random_deals(n_auctions, seed=seed)
    states = []
    for i in range(n_auctions):
        d = int(rng.integers(4)) if dealer is None else dealer
        vul = int(rng.integers(4))
        a = Auction(Seat(d))
        # Random policy biased towards pass so that auctions are long and varied as well.
        while not a.is_over:
            states.append((i, d, vul, tuple(c.id for c in a.calls)))
            legal = a.legal_calls()
            if rng.random() < 0.5:
                call = legal[0]
            else:
                call = legal[int(rng.integers(len(legal)))]
            a = a.with_call(call)
    return deals, states


def batch(deals, states):
    n = len(states)
    d = np.array([s[1] for s in states])
    v = np.array([s[2] for s in states])
    L = max(len(s[3]) for s in states) or 1
    h = np.full((n, L), -1, dtype=np.int8)
    for j, s in enumerate(states):
        h[j, :len(s[3])] = s[3]
    return deals[[s[0] for s in states]], d, v, h
