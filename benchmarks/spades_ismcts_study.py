"""Why full ISMCTS lost to WRP, and what UCT(X) needs to be a stronger player than SRP
(Cohensius et al. 2020, Sec. 5.1, App. F.3).

Part A, strength: a partnership playing module P against one playing SRP, both bidding RB,
in game pairs with shared deals (bidlab.spades.tournament): P's win rate ± SE and points per
round. P runs over WRP, SRP and the search players with greedy (bid-blind) and SRP rollouts.

Part B, the search's two inputs at decision points taken from SRP rounds:
- determinization quality: the share of unseen cards a sampled determinization puts in the
  hand that really holds them (uniform guessing gives about 1/3; known voids add a little),
- the cost of not knowing the cards: how often the search picks the same card with sampled
  determinizations as with the true hands (perfect information), per rollout policy.

    nice -n 10 python benchmarks/spades_ismcts_study.py --games 200 --points 150
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from bidlab.spades.engine import RoundState
from bidlab.spades.game import deal_hands
from bidlab.spades.ismcts import ISMCTSConfig, ISMCTSPlayer, determinize, distinct_moves
from bidlab.spades.players import StrongRulePlayer
from bidlab.spades.rules import Rules
from bidlab.spades.tournament import TournamentConfig, run_tournament


def strength(players: list[str], games: int, seed: int, out: Path) -> None:
    print("| play (both bid RB) vs SRP | games | win % ± SE | points/round P : SRP | s/game |")
    print("|---|---|---|---|---|")
    for p in players:
        t = time.time()
        cfg = TournamentConfig("rb", "rb", p, "srp", games=games, seed=seed)
        s = run_tournament(cfg, out / f"study_{p.replace(':', '-')}_vs_srp.json", workers=1)
        print(f"| {p} | {s['games']} | {100 * s['win_rate_a']:.1f} ± {100 * s['win_rate_a_se']:.1f} | "
              f"{s['points_per_round_a']:.1f} : {s['points_per_round_b']:.1f} | "
              f"{(time.time() - t) / games:.2f} |", flush=True)  # fmt: skip


def decision_points(n: int, seed: int):
    """(view, true hands) at random moments of SRP rounds where the mover has a real choice."""
    rng = random.Random(seed)
    rules = Rules.paper()
    srp = StrongRulePlayer()
    out = []
    while len(out) < n:
        hands = deal_hands(rng)
        s = RoundState(rules, hands, rng.randrange(4), (3, 3, 3, 3))
        stop = rng.randrange(4, 44)
        while s.n_played < 52:
            legal = s.legal_mask()
            if s.n_played >= stop and distinct_moves(legal, s.hands[s.to_play], s.played).bit_count() > 1:
                out.append((s.view(s.to_play), [h for h in s.hands]))
                break
            card = legal.bit_length() - 1 if legal & (legal - 1) == 0 else srp.play(s.view(s.to_play))
            s.play(card)
    return out


def determinization_study(n: int, seed: int, iterations: int) -> None:
    points = decision_points(n, seed)
    rng = random.Random(seed + 1)
    right = total = 0
    for view, true in points:
        for _ in range(20):
            sample = determinize(view, rng)
            for seat in range(4):
                if seat != view.seat:
                    right += (sample[seat] & true[seat]).bit_count()
                    total += true[seat].bit_count()
    print(f"\ndeterminization: {100 * right / total:.1f}% of unseen cards placed in the right hand "
          f"(uniform: 33.3%), {len(points)} decision points x 20 samples")  # fmt: skip
    print(f"| rollouts ({iterations} iterations) | sampled hands: same card as with the true hands | "
          "true hands: same card with another seed (the noise floor) |")  # fmt: skip
    print("|---|---|---|")
    for rollout in ("greedy", "srp"):
        same = floor = 0
        for i, (view, true) in enumerate(points):
            cfg = ISMCTSConfig(iterations=iterations, rollout=rollout)
            sampled = ISMCTSPlayer(cfg, seed=i)
            oracle = ISMCTSPlayer(cfg, seed=i)
            oracle2 = ISMCTSPlayer(cfg, seed=i + 100_000)
            for o in (oracle, oracle2):
                o.determinizer = lambda v, r, true=true: list(true)
            pick = oracle.search(view)
            same += sampled.search(view) == pick
            floor += oracle2.search(view) == pick
        n = len(points)
        print(f"| {rollout} | {100 * same / n:.1f}% | {100 * floor / n:.1f}% |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--points", type=int, default=150)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--players", default="wrp,uct3,uct3-srp,uct5,uct5-srp,ismcts,ismcts-srp")
    ap.add_argument("--out", type=Path, default=Path("results/spades/study"))
    ap.add_argument("--part", choices=["a", "b", "ab"], default="ab")
    args = ap.parse_args()
    if "a" in args.part:
        strength(args.players.split(","), args.games, args.seed, args.out)
    if "b" in args.part:
        determinization_study(args.points, args.seed, args.iterations)


if __name__ == "__main__":
    main()
