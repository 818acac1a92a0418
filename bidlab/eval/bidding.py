"""Bid many tables at once, one batched ``act_batch`` call per agent per round.

Each table has four agents (one per seat). In every round the tables still bidding are
grouped by the agent whose turn it is, and that agent answers all of them in one
call, so a neural agent makes one forward pass per round instead of one per board.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from bidlab.agents.base import Agent, BiddingView
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Board
from bidlab.errors import BidlabError


class AgentError(BidlabError):
    """An agent returned something that is not a legal call."""


@dataclass(frozen=True, slots=True)
class Table:
    """One board at one table: the board and the agents sitting N, E, S, W."""

    board: Board
    seats: tuple[Agent, Agent, Agent, Agent]


def bid_tables(tables: Sequence[Table]) -> list[Auction]:
    """Bid every table to the end; returns the finished auctions in table order."""
    auctions = [Auction(t.board.dealer) for t in tables]
    active = [i for i, a in enumerate(auctions) if not a.is_over]
    while active:
        groups: dict[int, list[int]] = defaultdict(list)
        agents: dict[int, Agent] = {}
        for i in active:
            agent = tables[i].seats[auctions[i].to_act]
            groups[id(agent)].append(i)
            agents[id(agent)] = agent
        for key, idx in groups.items():
            agent = agents[key]
            views = [
                BiddingView(
                    seat=auctions[i].to_act,
                    hand=tables[i].board.deal[auctions[i].to_act],
                    auction=auctions[i],
                    vulnerability=tables[i].board.vulnerability,
                )
                for i in idx
            ]
            calls = agent.act_batch(views)
            if len(calls) != len(idx):
                raise AgentError(f"agent {agent.name} answered {len(calls)} calls for {len(idx)} views")
            for i, call in zip(idx, calls):
                if not auctions[i].is_legal(call):
                    raise AgentError(
                        f"agent {agent.name} made the illegal call {call} at board {tables[i].board.number} "
                        f"after '{auctions[i].to_str() or '(start)'}'"
                    )
                auctions[i] = auctions[i].with_call(call)
        active = [i for i in active if not auctions[i].is_over]
    return auctions
