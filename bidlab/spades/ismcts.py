"""Information-Set MCTS playing module and UCT(X) (Cohensius et al. 2020, Sec. 5.1, App. F.3).

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012, the paper's ref. [8]): every
iteration samples a determinization (the unseen cards dealt to the other three hands,
respecting each seat's remaining hand size, its known voids and any card the viewer knows
it holds from a blind nil exchange), descends one tree of the viewer's information set
with UCB1 over the moves legal in that determinization (counting availability, so a move
is scored against the iterations in which it could have been played), expands one node,
finishes the round with a fast rollout policy and backs up the round's point gap
(App. F.3's ``X = points_partners - points_opponents``, bag penalties included) scored
from each mover's side, divided by :attr:`ISMCTSConfig.reward_scale`. Unlike App. F.3 we
charge every bag taken its share of the future bag penalty (:attr:`ISMCTSConfig.bag_cost`):
with the bare round score a search collects overtricks as +1 each.

``UCT(X)`` (Sec. 5.1): SRP plays the first 13 - X tricks, the search plays the last X.

The paper's UCT used 3 s per move on a phone; the ``paper`` preset keeps that time limit,
and the ``cpu`` preset an iteration budget sized for thousands of games on 2 cores.

Why full ISMCTS lost to WRP (``benchmarks/spades_ismcts_study.py``; both partnerships bid RB,
game pairs on shared deals, win rate of the search team against an SRP team):

- rollout policy: with the bid-blind greedy rollouts full ISMCTS (100 iterations) won 22.5 ±
  5.7% (40 games; WRP: 46.0 ± 2.4%). In those rollouts a nil bidder plays to win tricks and
  nobody covers or ducks bags, so every nil looks lost and every bag free. SRP rollouts, as
  App. F.3 has them, gave 42.5 ± 8.3%.
- determinization: sampled hands put 35-37% of the unseen cards in the hand that holds them
  (33% by chance: only known voids are used, not the bids). With the true hands the search
  picks the same card under another seed 56% (100 iterations) / 65% (400) of the time; with
  sampled hands it picks the true-hands card 32% / 22% of the time. So at 100 iterations
  noise and hidden cards cost about equally, and more iterations help only the first.
- hence :attr:`ISMCTSConfig.anchor`: keep SRP's card unless the search's favourite beats it by
  two standard errors. Anchored with SRP rollouts: full ISMCTS 53.3 ± 3.3% (30 games),
  UCT(3) 53.0 ± 1.7%, UCT(5) 56.0 ± 2.7% (100 games each) against SRP, where WRP got 46.0%:
  a stronger player makes a stronger team, as in Sec. 5.1.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from bidlab.spades.engine import SUIT_MASKS, PlayView, RoundState
from bidlab.spades.errors import SpadesError
from bidlab.spades.players import StrongRulePlayer, cheapest_equivalent, default_exchange
from bidlab.spades.rules import score_round


@dataclass(frozen=True, slots=True)
class ISMCTSConfig:
    """Search budget and constants."""

    iterations: int = 200
    #: Seconds per move; when set it replaces the iteration budget (runs are then not repeatable).
    time_limit: float | None = None
    #: UCB1 exploration constant on rewards scaled by ``reward_scale``.
    exploration: float = 0.7
    reward_scale: float = 100.0
    #: X of UCT(X): search only the last X tricks (SRP before); None searches every trick.
    uct_tricks: int | None = None
    #: Rollout policy: "random" (uniform legal cards), "greedy" (win cheaply / duck low, blind to
    #: bids) or "srp" (every seat plays SRP, App. F.3: "we assume the opponents are playing as
    #: SRP would play"; it knows nil bids, covers, ducks bags, ~5x slower per rollout).
    rollout: str = "greedy"
    #: Charge each bag taken its share of the future penalty (bag_penalty / bag_limit per bag),
    #: so a bag is worth 1 - 10 = -9 points instead of +1 (the round score alone ignores the
    #: penalty until the limit is crossed, which makes a search greedy for overtricks).
    bag_cost: bool = True
    #: Play SRP's card unless the searched favourite beats it by this many standard errors of
    #: the difference of their mean rewards (None: always the most visited card). With a small
    #: budget the root's averages are mostly noise; anchoring keeps the rule player's choice
    #: wherever the search has no clear evidence against it.
    anchor: float | None = None

    def __post_init__(self):
        if self.iterations < 1:
            raise SpadesError(f"ISMCTS iterations must be >= 1, got {self.iterations}")
        if self.time_limit is not None and self.time_limit <= 0:
            raise SpadesError(f"ISMCTS time_limit must be positive, got {self.time_limit}")
        if self.uct_tricks is not None and not 1 <= self.uct_tricks <= 13:
            raise SpadesError(f"UCT(X) needs 1 <= X <= 13, got {self.uct_tricks}")
        if self.rollout not in ("random", "greedy", "srp"):
            raise SpadesError(f"rollout must be 'random', 'greedy' or 'srp', got {self.rollout!r}")

    @classmethod
    def paper(cls) -> ISMCTSConfig:
        """App. F.3: a 3-second limit per move."""
        return cls(time_limit=3.0)

    @classmethod
    def cpu(cls) -> ISMCTSConfig:
        """Sized so a 2,000-game tournament fits in about an hour on 2 shared cores."""
        return cls(iterations=100)


class _Node:
    __slots__ = ("children", "visits", "total", "total_sq", "avail", "mover")

    def __init__(self, mover: int):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.total_sq = 0.0
        self.avail = 0
        self.mover = mover  # seat that played the move leading here


def determinize(view: PlayView, rng: random.Random, tries: int = 50) -> list[int]:
    """Hidden hands consistent with what ``view.seat`` knows (sizes, voids, exchanged cards)."""
    me = view.seat
    others = [s for s in range(4) if s != me]
    base = [0, 0, 0, 0]
    base[me] = view.hand
    need0 = list(view.hand_sizes)
    need0[me] = 0
    unknown = view.unseen
    for s in others:
        k = view.known[s] & unknown
        base[s] |= k
        need0[s] -= k.bit_count()
        unknown &= ~k
    cards = []
    m = unknown
    while m:
        low = m & -m
        cards.append(low.bit_length() - 1)
        m ^= low
    voids = view.voids
    elig_by_suit = [[s for s in others if not voids[s] >> suit & 1] for suit in range(4)]
    if all(len(e) == 3 for e in elig_by_suit):
        # No known voids: a uniform split of the shuffled unknown cards.
        rng.shuffle(cards)
        hands = base[:]
        i = 0
        for s in others:
            for c in cards[i : i + need0[s]]:
                hands[s] |= 1 << c
            i += need0[s]
        return hands
    by_suit = [[c for c in cards if c // 13 == suit] for suit in range(4)]
    # Most constrained suits first: those fewer seats may hold.
    order = sorted(range(4), key=lambda suit: len(elig_by_suit[suit]))
    for _ in range(tries):
        hands = base[:]
        need = need0[:]
        ok = True
        for suit in order:
            elig_all = elig_by_suit[suit]
            group = by_suit[suit]
            rng.shuffle(group)
            for c in group:
                total = 0
                for s in elig_all:
                    total += need[s]
                if total == 0:
                    if not _repair(c, hands, need, others, voids, base):
                        ok = False
                        break
                    continue
                r = rng.random() * total
                for s in elig_all:
                    r -= need[s]
                    if r < 0:
                        break
                hands[s] |= 1 << c
                need[s] -= 1
            if not ok:
                break
        if ok:
            return hands
    raise SpadesError(f"no deal is consistent with seat {'NESW'[me]}'s information (voids {voids})")


def _repair(card: int, hands: list[int], need: list[int], others: list[int], voids, base: list[int]) -> bool:
    """Give ``card`` to a seat that may hold it by moving one of that seat's cards to a seat with room."""
    suit = card // 13
    for t in others:
        if voids[t] >> suit & 1:
            continue
        movable = hands[t] & ~base[t]
        while movable:
            low = movable & -movable
            c2 = low.bit_length() - 1
            movable ^= low
            for u in others:
                if u != t and need[u] > 0 and not voids[u] >> (c2 // 13) & 1:
                    hands[t] ^= low
                    hands[u] |= low
                    need[u] -= 1
                    hands[t] |= 1 << card
                    return True
    return False


def distinct_moves(legal: int, hand: int, played: int) -> int:
    """``legal`` with equivalent cards removed: of cards of one suit with only own or played
    cards between them, keep the lowest (they win and lose the same tricks)."""
    out = 0
    for suit in range(4):
        m = legal & SUIT_MASKS[suit]
        if not m:
            continue
        prev_kept = False
        base = 13 * suit
        for c in range(base, base + 13):
            bit = 1 << c
            if m & bit:
                if not prev_kept:
                    out |= bit
                prev_kept = True
            elif not (hand & bit or played & bit):
                prev_kept = False
    return out


def _random_rollout(s: RoundState, rng: random.Random) -> None:
    randrange = rng.randrange
    while s.n_played < 52:
        legal = s.legal_mask()
        n = legal.bit_count()
        if n > 1:
            k = randrange(n)
            while k:
                legal &= legal - 1
                k -= 1
        low = legal & -legal
        s.play(low.bit_length() - 1)


def _srp_rollout(s: RoundState, rng: random.Random, srp: StrongRulePlayer) -> None:
    while s.n_played < 52:
        legal = s.legal_mask()
        if legal & (legal - 1) == 0:
            s.play(legal.bit_length() - 1)
        else:
            s.play(srp.play(s.view(s.to_play)))


def _greedy_rollout(s: RoundState, rng: random.Random) -> None:
    """A cheap WRP-like policy with 10% random moves: beat the trick with the highest card of
    the suit unless partner wins it, ruff low, else play low."""
    rand = rng.random
    randrange = rng.randrange
    while s.n_played < 52:
        legal = s.legal_mask()
        n = legal.bit_count()
        if n > 1 and rand() < 0.1:
            k = randrange(n)
            while k:
                legal &= legal - 1
                k -= 1
            card = (legal & -legal).bit_length() - 1
        elif n == 1:
            card = legal.bit_length() - 1
        elif not s.trick:
            card = legal.bit_length() - 1  # lead the top card (highest suit first)
        else:
            win = s.win_card
            seat = s.to_play
            led = s.trick[0] // 13
            follow = legal & SUIT_MASKS[led]
            if s.win_seat == seat ^ 2:
                pool = follow or legal
                card = (pool & -pool).bit_length() - 1
            elif follow:
                top = follow.bit_length() - 1
                if win // 13 == led and top > win:
                    card = top
                else:
                    card = (follow & -follow).bit_length() - 1
            else:
                sp = legal & SUIT_MASKS[3]
                if win // 13 == 3:
                    sp &= ~((2 << win) - 1)
                if sp:
                    card = (sp & -sp).bit_length() - 1
                else:
                    card = (legal & -legal).bit_length() - 1
        s.play(card)


class ISMCTSPlayer:
    """ISMCTS / UCT(X) playing module (module docstring)."""

    def __init__(self, config: ISMCTSConfig | None = None, seed: int = 0):
        self.config = config or ISMCTSConfig()
        self.rng = random.Random(seed)
        self.srp = StrongRulePlayer()
        x = self.config.uct_tricks
        self.name = "ismcts" if x is None else f"uct{x}"
        #: How hidden hands are sampled; a study can swap in the true hands (perfect information).
        self.determinizer = determinize
        self.iterations_run = 0  # total over the player's life (for reports)
        self.searches = 0

    def exchange(self, hand: int, n: int, to_niler: bool) -> int:
        return default_exchange(hand, n, to_niler)

    def play(self, view: PlayView) -> int:
        cfg = self.config
        if cfg.uct_tricks is not None and view.trick_number < 13 - cfg.uct_tricks:
            return self.srp.play(view)
        moves = distinct_moves(view.legal, view.hand, view.played)
        if moves & (moves - 1) == 0:
            return moves.bit_length() - 1  # all legal cards are equivalent: no need to search
        return self.search(view, moves)

    def search(self, view: PlayView, moves: int | None = None) -> int:
        """Run the search from ``view``; only cards in ``moves`` (default: all legal) are tried."""
        cfg = self.config
        rng = self.rng
        if cfg.rollout == "srp":
            srp = self.srp

            def rollout(s, rng):
                _srp_rollout(s, rng, srp)

        else:
            rollout = _greedy_rollout if cfg.rollout == "greedy" else _random_rollout
        bags = view.bags
        scale = cfg.reward_scale
        c_explore = cfg.exploration
        limit = view.rules.bag_limit
        per_bag = view.rules.bag_penalty / limit if cfg.bag_cost and limit else 0.0
        root = _Node(-1)
        deadline = time.perf_counter() + cfg.time_limit if cfg.time_limit else None
        n_iter = 0
        root_moves = view.legal if moves is None else moves
        while True:
            if deadline is not None:
                if n_iter > 0 and time.perf_counter() >= deadline:
                    break
            elif n_iter >= cfg.iterations:
                break
            n_iter += 1
            s = view.to_state(self.determinizer(view, rng))
            node = root
            path = [root]
            legal = root_moves
            while s.n_played < 52:
                if node is not root:
                    legal = s.legal_mask()
                children = node.children
                untried = legal
                for c in children:
                    untried &= ~(1 << c)
                if untried:
                    k = rng.randrange(untried.bit_count())
                    while k:
                        untried &= untried - 1
                        k -= 1
                    card = (untried & -untried).bit_length() - 1
                    for c, ch in children.items():
                        if legal >> c & 1:
                            ch.avail += 1
                    child = _Node(s.to_play)
                    child.avail = 1
                    children[card] = child
                    s.play(card)
                    path.append(child)
                    break
                best = -1e18
                card = -1
                bc = None
                for c, ch in children.items():
                    if legal >> c & 1:
                        ch.avail += 1
                        v = ch.total / ch.visits + c_explore * math.sqrt(math.log(ch.avail) / ch.visits)
                        if v > best:
                            best, card, bc = v, c, ch
                s.play(card)
                node = bc  # type: ignore[assignment]
                path.append(node)
            rollout(s, rng)
            ns, ew = score_round(s.rules, s.bids, s.blind, tuple(s.tricks), bags)  # type: ignore[arg-type]
            gap = ns.points - ew.points
            if per_bag:
                gap -= per_bag * (
                    (ns.bags - bags[0] + ns.bag_penalties * limit)
                    - (ew.bags - bags[1] + ew.bag_penalties * limit)
                )
            gap /= scale
            for nd in path[1:]:
                nd.visits += 1
                nd.total += gap if nd.mover & 1 == 0 else -gap
            path[1].total_sq += gap * gap
        self.iterations_run += n_iter
        self.searches += 1
        legal = view.legal
        best_card, best_visits = -1, -1
        for c, ch in root.children.items():
            if legal >> c & 1 and ch.visits > best_visits:
                best_card, best_visits = c, ch.visits
        if cfg.anchor is not None:
            return self._anchored(view, root, best_card)
        return best_card

    def _anchored(self, view: PlayView, root: _Node, best_card: int) -> int:
        """SRP's card unless the search's favourite beats it by ``anchor`` standard errors."""
        srp_card = self.srp.play(view)
        rep = cheapest_equivalent(srp_card, view.hand, view.played)
        ref = root.children.get(rep)
        best = root.children.get(best_card)
        if rep == best_card or ref is None or best is None or ref.visits < 2 or best.visits < 2:
            return srp_card

        def mean_var(nd: _Node) -> tuple[float, float]:
            m = nd.total / nd.visits  # a root child's total is from the searching seat's side
            return m, max(nd.total_sq / nd.visits - m * m, 0.0) / (nd.visits - 1)

        mb, vb = mean_var(best)
        mr, vr = mean_var(ref)
        if mb - mr > self.config.anchor * math.sqrt(vb + vr):
            return best_card
        return srp_card
