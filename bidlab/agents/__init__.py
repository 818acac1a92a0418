"""Bidding agents behind one protocol (see :mod:`bidlab.agents.base`)."""

from bidlab.agents.base import Agent, AgentBase, BiddingView, RandomAgent

__all__ = ["Agent", "AgentBase", "BiddingView", "RandomAgent"]
