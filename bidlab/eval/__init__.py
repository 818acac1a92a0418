"""Evaluation: duplicate matches scored by double dummy, reports and plots."""

from bidlab.eval.match import Match, MatchConfig, MatchError, MatchSummary, load_results, summarize

__all__ = ["Match", "MatchConfig", "MatchError", "MatchSummary", "load_results", "summarize"]
