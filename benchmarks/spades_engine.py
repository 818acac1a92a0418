"""Spades play-engine speed: bidlab's bitmask RoundState vs OpenSpiel's C++ ``spades`` via pyspiel.

Baseline (named): OpenSpiel 2.0 ``spades`` driven from Python the usual way
(``legal_actions()`` + ``apply_action()``), playing the same random legal rounds (deal,
fixed bids, uniformly random legal cards), measured in the same run; runs are interleaved
so load from other processes hits both about equally. Also prints the costs that size a
tournament: rule-based rounds (SRP, WRP) and ISMCTS / UCT(X) decisions per second.

    python benchmarks/spades_engine.py --rounds 300 --repeats 3
"""

from __future__ import annotations

import argparse
import random
import time


def bidlab_rounds(n: int, seed: int) -> float:
    from bidlab.spades.engine import RoundState
    from bidlab.spades.game import deal_hands
    from bidlab.spades.rules import Rules

    rules = Rules()
    rng = random.Random(seed)
    t = time.perf_counter()
    for _ in range(n):
        s = RoundState(rules, deal_hands(rng), 3, (3, 3, 3, 3))
        while s.n_played < 52:
            legal = s.legal_mask()
            k = rng.randrange(legal.bit_count())
            while k:
                legal &= legal - 1
                k -= 1
            s.play((legal & -legal).bit_length() - 1)
        s.score()
    return time.perf_counter() - t


def openspiel_rounds(n: int, seed: int) -> float:
    import pyspiel

    game = pyspiel.load_game("spades", {"use_mercy_rule": False, "win_threshold": 1_000_000})
    rng = random.Random(seed)
    t = time.perf_counter()
    for _ in range(n):
        st = game.new_initial_state()
        cards = list(range(52))
        rng.shuffle(cards)
        for c in cards:
            st.apply_action(c)
        for _ in range(4):
            st.apply_action(52 + 3)
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
        st.returns()
    return time.perf_counter() - t


def rule_rounds(player: str, n: int, seed: int) -> float:
    from bidlab.spades.game import deal_hands, play_round
    from bidlab.spades.registry import make_bidder, make_player
    from bidlab.spades.rules import Rules

    rng = random.Random(seed)
    bidders = [make_bidder("rb")] * 4
    players = [make_player(player, seed=s) for s in range(4)]
    t = time.perf_counter()
    for i in range(n):
        play_round(Rules.paper(), deal_hands(rng), i % 4, bidders, players)
    return time.perf_counter() - t


def search_rate(spec: str, n_rounds: int, seed: int) -> tuple[float, int]:
    """Seconds per search decision of ``spec`` playing North-South against WRP."""
    from bidlab.spades.game import deal_hands, play_round
    from bidlab.spades.registry import make_bidder, make_player
    from bidlab.spades.rules import Rules

    rng = random.Random(seed)
    bidders = [make_bidder("rb")] * 4
    searchers = [make_player(spec, seed=s) for s in (0, 2)]
    players = [searchers[0], make_player("wrp"), searchers[1], make_player("wrp")]
    t = time.perf_counter()
    for i in range(n_rounds):
        play_round(Rules.paper(), deal_hands(rng), i % 4, bidders, players)
    dt = time.perf_counter() - t
    searches = sum(p.searches for p in searchers)
    return dt, searches


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=300, help="random rounds per timed run")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--search-rounds", type=int, default=4, help="rounds for the ISMCTS / UCT(X) timing")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    ours, base = [], []
    for r in range(args.repeats):
        base.append(openspiel_rounds(args.rounds, args.seed + r))
        ours.append(bidlab_rounds(args.rounds, args.seed + r))
    b, o = min(base), min(ours)
    print(
        f"random legal rounds/s: bidlab {args.rounds / o:,.0f}   OpenSpiel (pyspiel) {args.rounds / b:,.0f}"
    )
    print(f"ratio bidlab / OpenSpiel-from-Python: {b / o:.2f}x")
    for p in ("wrp", "srp"):
        dt = rule_rounds(p, args.rounds, args.seed)
        print(f"{p}: {args.rounds / dt:,.0f} rounds/s (all four seats, RB bidding)")
    for spec in ("uct5:200", "ismcts:100"):
        dt, searches = search_rate(spec, args.search_rounds, args.seed)
        print(
            f"{spec}: {searches / dt:.1f} search decisions/s, {dt / args.search_rounds:.2f} s per round (two seats searching)"
        )


if __name__ == "__main__":
    main()
