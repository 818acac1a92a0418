"""Spades rules and scoring (Cohensius et al. 2020, Sec. 2; Pagat's rules for the variants).

One frozen :class:`Rules` object carries every option a real Spades app lets users set:
the winning and losing goals, the bag limit and penalty, blind nil (on/off, the margin
by which a side must trail to bid it, its bonus and the card exchange), whether a failed
nil's tricks count toward the partner's bid, and the first-lead rule.

Scoring of one partnership for one round (:func:`score_side`):

- each nil bidder scores +nil_bonus if she took no trick, -nil_bonus otherwise
  (blind nil: +-blind_nil_bonus);
- the side's contract is the sum of its non-nil bids; the tricks counted toward it are
  the non-nil players' tricks, plus the nil bidder's tricks when
  ``failed_nil_tricks_count`` is set (Pagat's common variant; OpenSpiel does this);
- a made contract scores 10 x contract + 1 per overtrick (bag); a set contract scores
  -10 x contract; bags accumulate over the game and every ``bag_limit`` of them cost
  ``bag_penalty`` points and are removed (the rest roll over).

The game ends after the first round in which a side's score reaches the winning goal or
falls to the losing goal; the side with the higher score wins, and equal scores play on
(Sec. 2: "the winner is the partnership with the highest score that also exceeds a
predefined winning goal").
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum

from bidlab.spades.errors import RulesError


class FirstLead(StrEnum):
    """Who leads the first trick of a round."""

    #: The player to the dealer's left leads any card but a spade (unless spade-tight).
    LEFT_OF_DEALER = "left_of_dealer"
    #: The holder of the two of clubs leads it (a common online variant).
    TWO_OF_CLUBS = "two_of_clubs"


@dataclass(frozen=True, slots=True)
class Rules:
    """All rule options of one Spades game. Defaults are Pagat's standard game (500 / -200)."""

    win_goal: int = 500
    lose_goal: int = -200
    #: Bags that trigger the penalty; 0 switches bag penalties off (bags still score 1 each).
    bag_limit: int = 10
    bag_penalty: int = 100
    nil_bonus: int = 100
    blind_nil: bool = False
    #: A side may bid blind nil only when it trails the other side by at least this much.
    blind_nil_margin: int = 100
    blind_nil_bonus: int = 200
    #: Cards the blind nil bidder and partner exchange after the bidding (0 = none; usually 2).
    blind_nil_exchange: int = 0
    #: Whether a failed nil bidder's tricks count toward the partner's bid (and as bags).
    failed_nil_tricks_count: bool = False
    first_lead: FirstLead = FirstLead.LEFT_OF_DEALER
    #: A game still undecided after this many rounds ends: the higher score wins, equal is a draw.
    max_rounds: int = 100

    def __post_init__(self):
        if self.win_goal <= self.lose_goal:
            raise RulesError(f"win_goal ({self.win_goal}) must be above lose_goal ({self.lose_goal})")
        if self.win_goal <= 0:
            raise RulesError(f"win_goal must be positive, got {self.win_goal}")
        if self.lose_goal >= 0:
            raise RulesError(f"lose_goal must be negative, got {self.lose_goal}")
        if self.bag_limit < 0 or self.bag_penalty < 0:
            raise RulesError("bag_limit and bag_penalty must be >= 0")
        if self.nil_bonus < 0 or self.blind_nil_bonus < 0:
            raise RulesError("nil bonuses must be >= 0")
        if self.blind_nil_margin < 0:
            raise RulesError(f"blind_nil_margin must be >= 0, got {self.blind_nil_margin}")
        if not 0 <= self.blind_nil_exchange <= 4:
            raise RulesError(f"blind_nil_exchange must be 0..4 cards, got {self.blind_nil_exchange}")
        if not isinstance(self.first_lead, FirstLead):
            try:
                object.__setattr__(self, "first_lead", FirstLead(self.first_lead))
            except ValueError:
                raise RulesError(f"first_lead must be one of {[f.value for f in FirstLead]}") from None
        if self.max_rounds < 1:
            raise RulesError("max_rounds must be >= 1")

    @classmethod
    def paper(cls) -> Rules:
        """The goals of the paper's tournaments (Sec. 5.1): 200 / -100, no blind nil."""
        return cls(win_goal=200, lose_goal=-100)

    def with_options(self, **changes) -> Rules:
        known = {f.name for f in fields(self)}
        bad = sorted(set(changes) - known)
        if bad:
            raise RulesError(f"unknown rule option(s) {bad}; known: {sorted(known)}")
        return replace(self, **changes)

    def to_dict(self) -> dict:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["first_lead"] = self.first_lead.value
        return out

    @classmethod
    def from_dict(cls, d: dict) -> Rules:
        return cls().with_options(**d)

    def blind_nil_allowed(self, own_score: int, other_score: int) -> bool:
        """Whether a side with ``own_score`` may bid blind nil against ``other_score``."""
        return self.blind_nil and other_score - own_score >= self.blind_nil_margin


@dataclass(frozen=True, slots=True)
class SideScore:
    """One partnership's result for one round."""

    points: int  # points scored this round, bag penalties included
    bags: int  # the side's bag count after the round (after any penalty)
    contract: int  # sum of non-nil bids
    tricks: int  # tricks counted toward the contract
    made: bool  # contract made (True also when the contract is 0)
    nils_made: int
    nils_failed: int
    bag_penalties: int  # how many times the bag penalty applied this round


def score_side(
    rules: Rules,
    bids: tuple[int, int],
    blind: tuple[bool, bool],
    tricks: tuple[int, int],
    bags_before: int,
) -> SideScore:
    """Score one partnership's round (module docstring; Sec. 2 of the paper).

    ``bids``, ``blind`` and ``tricks`` list the two partners; ``bags_before`` is the side's
    bag count carried from earlier rounds.
    """
    points = 0
    contract = 0
    counted = 0
    nils_made = nils_failed = 0
    for bid, is_blind, took in zip(bids, blind, tricks):
        if bid == 0:
            bonus = rules.blind_nil_bonus if is_blind else rules.nil_bonus
            if took == 0:
                points += bonus
                nils_made += 1
            else:
                points -= bonus
                nils_failed += 1
                if rules.failed_nil_tricks_count:
                    counted += took
        else:
            contract += bid
            counted += took
    made = counted >= contract
    bags = bags_before
    if made:
        over = counted - contract
        points += 10 * contract + over
        bags += over
    else:
        points -= 10 * contract
    penalties = 0
    if rules.bag_limit > 0 and bags >= rules.bag_limit:
        penalties, bags = divmod(bags, rules.bag_limit)
        points -= penalties * rules.bag_penalty
    return SideScore(points, bags, contract, counted, made, nils_made, nils_failed, penalties)


def score_round(
    rules: Rules,
    bids: tuple[int, int, int, int],
    blind: tuple[bool, bool, bool, bool],
    tricks: tuple[int, int, int, int],
    bags_before: tuple[int, int],
) -> tuple[SideScore, SideScore]:
    """Both sides' results; seats N, E, S, W = 0..3 and sides NS = 0, EW = 1."""
    if sum(tricks) != 13:
        raise RulesError(f"a round has 13 tricks, got {sum(tricks)} ({tricks})")
    return tuple(  # type: ignore[return-value]
        score_side(
            rules,
            (bids[s], bids[s + 2]),
            (blind[s], blind[s + 2]),
            (tricks[s], tricks[s + 2]),
            bags_before[s],
        )
        for s in (0, 1)
    )


def game_winner(rules: Rules, scores: tuple[int, int], rounds_played: int) -> int | None:
    """The winning side (0 NS, 1 EW), -1 for a draw, or None while the game goes on.

    The game ends once a side reaches ``win_goal`` or falls to ``lose_goal``; the higher
    score wins; equal scores play another round (until ``max_rounds``, then a draw).
    """
    a, b = scores
    crossed = a >= rules.win_goal or b >= rules.win_goal or a <= rules.lose_goal or b <= rules.lose_goal
    if crossed or rounds_played >= rules.max_rounds:
        if a != b:
            return 0 if a > b else 1
        if rounds_played >= rules.max_rounds:
            return -1
    return None
