"""Evaluation: duplicate matches scored by double dummy, reports and plots."""

from bidlab.eval.bidding import AgentError, Table, bid_tables
from bidlab.eval.match import Match, MatchConfig, MatchError, MatchSummary, load_results, summarize

__all__ = ["AgentError", "Match", "MatchConfig", "MatchError", "MatchSummary", "Table", "bid_tables",
           "load_results", "summarize"]
