"""Test-time search over a bidding policy (Qiu et al. 2024 Sec. V, App. D Algs. 3-4):
deal sampling from a belief (:mod:`.sampler`), BMCS and uniform MCS (:mod:`.bmcs`),
the per-decision DD cache and trick estimator scoring (:mod:`.ddcache`), and the ``bmcs:``
and ``mcs:`` agent kinds (:mod:`.agents`), registered on import."""

from bidlab.search import agents as _agents  # noqa: F401  (registers bmcs:, mcs:)
from bidlab.search.bmcs import SearchConfig, Searcher, SearchResult
from bidlab.search.sampler import sample_deals

__all__ = ["SearchConfig", "SearchResult", "Searcher", "sample_deals"]
