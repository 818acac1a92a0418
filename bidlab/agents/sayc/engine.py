"""Named rules and the ordered lists the bidder walks through.

A rule is a small function of a :class:`~bidlab.agents.sayc.context.Ctx` that either
proposes a call with a one-line reason ("12-21 HCP, 5+ spades") or returns ``None``.
Rules register themselves in a named group with :func:`rule`; the bidder picks the
groups that fit the situation and takes the first rule whose call is legal. Rules are
pure functions of the view, so the bidder is deterministic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bidlab.agents.sayc.context import Ctx
from bidlab.bridge.calls import Call

Proposal = tuple[Call, str] | None
RuleFn = Callable[[Ctx], Proposal]


@dataclass(frozen=True, slots=True)
class Rule:
    """One SAYC rule: a name (``group.rule``) and the function that applies it."""

    name: str
    fn: RuleFn


@dataclass(frozen=True, slots=True)
class Decision:
    """The call made, the rule that made it, and why."""

    call: Call
    rule: str
    reason: str

    def explain(self) -> str:
        return f"{self.call}: {self.reason} ({self.rule})"


GROUPS: dict[str, list[Rule]] = {}


def rule(group: str) -> Callable[[RuleFn], RuleFn]:
    """Register a rule function in ``group``; rules run in the order they are defined."""

    def deco(fn: RuleFn) -> RuleFn:
        GROUPS.setdefault(group, []).append(Rule(f"{group}.{fn.__name__}", fn))
        return fn

    return deco


_FLAT: dict[tuple[str, ...], tuple[Rule, ...]] = {}


def _rules(groups: tuple[str, ...]) -> tuple[Rule, ...]:
    """The rules of ``groups`` in the order the bidder walks them (built once per tuple)."""
    rules = _FLAT.get(groups)
    if rules is None:
        rules = _FLAT[groups] = tuple(r for g in groups for r in GROUPS.get(g, ()))
    return rules


def _first_legal_of(ctx: Ctx, rules) -> Decision | None:
    for r in rules:
        p = r.fn(ctx)
        if p is not None and p[0] is not None and ctx.legal(p[0]):
            return Decision(p[0], r.name, p[1])
    return None


def first_legal(ctx: Ctx, groups: tuple[str, ...]) -> Decision | None:
    """The first rule in ``groups`` (in order) that proposes a legal call."""
    return _first_legal_of(ctx, _rules(groups))


def first_legal_after(ctx: Ctx, groups: tuple[str, ...], rule_name: str) -> Decision | None:
    """The first legal proposal of the rules that follow ``rule_name`` in ``groups``: the call
    the bidder would make with that one rule removed (the skip-one-rule audit of issue 27,
    ``benchmarks/sayc_audit.py``). A rule that is not in ``groups`` skips nothing. None when
    no rule left proposes a legal call."""
    rules = _rules(groups)
    names = [r.name for r in rules]
    start = names.index(rule_name) + 1 if rule_name in names else 0
    return _first_legal_of(ctx, rules[start:])
