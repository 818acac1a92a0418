"""Test-time search over a bidding policy: deal sampling from a belief (:mod:`.sampler`),
BMCS and uniform MCS (Qiu et al. 2024 Sec. V, App. D Algs. 3-4; :mod:`.bmcs`), the
per-decision DD cache and trick-estimator scoring (:mod:`.ddcache`), and one-step joint
policy search (Tian et al. 2020 Sec. 5.2, 7; :mod:`.jps`). Importing the package registers
the ``bmcs:``, ``mcs:``, ``jps:``, ``punish:`` and ``oracle-punish:`` agent kinds (punishers:
:mod:`.punish`)."""

from bidlab.search import agents as _agents  # noqa: F401  (registers bmcs:, mcs:)
from bidlab.search import jps as _jps  # noqa: F401  (registers jps:)
from bidlab.search import punish as _punish  # noqa: F401  (registers punish:, oracle-punish:)
from bidlab.search.bmcs import SearchConfig, Searcher, SearchResult
from bidlab.search.sampler import sample_deals

__all__ = ["SearchConfig", "SearchResult", "Searcher", "sample_deals"]
