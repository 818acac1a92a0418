"""Joint Policy Search, tabular form (Tian et al. 2020, Alg. 1, Eq. 6; Sec. 6 sample-based).

One JPS iteration evaluates the current joint policy ``sigma`` once (``pi^sigma``, ``v^sigma``)
and then searches over *chains* of one-hot policy changes ``[(I_1, a_1), ..., (I_k, a_k)]`` with
``I_{j+1} in succ(I_j, a_j)`` (the infosets of the children of the states of ``I_j`` after
``a_j``), ``k <= D``. By Theorem 1 the value change of a chain is the sum of its edge terms

    J(I_j, a_j) = sum_{h in I_j} pi^{sigma'}(h) (v^sigma(h a_j) - v^sigma(h))     (Eqs. 5, 6)

where only the *altered reachability* ``pi^{sigma'}`` depends on the chain above. Because all
actions after the deal are public, ``I_{j+1}`` sits at a child of ``I_j``'s public node, so
``pi^{sigma'}`` of every deal at the next node is the parent's times ``sigma'`` of the step --
one multiplication per level (the "back-tracing" of Alg. 1, line 12, done incrementally). The
search keeps, for every public node it reaches, a batch of chain prefixes with their altered
reach vectors, so a whole level of Alg. 1's depth-first search is a few numpy operations. The best
chain over all prefixes (each level may also stop, "no change", worth 0) is applied (Alg. 1,
line 19); with all states, the value never goes down (Theorem 2).

Candidates for ``I_1`` (as in the authors' ``search.h``): with full depth, every infoset right after
the deal; with depth ``D``, every infoset at one public depth popped from a shuffled list of the
depths that leave room for ``D`` levels, refilled after each improvement, stopping when empty.

Sample-based JPS (Sec. 6, Table 2): at each candidate infoset, ``k`` of its states are drawn
uniformly with replacement (among those still live, i.e. in the subtrees of the states drawn
upstream); only the distinct drawn states add to ``J`` and only their subtrees stay live. The
monotone guarantee is lost, so the run keeps the best full evaluation over its iterations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bidlab.tabular.evaluate import Evaluation, evaluate, game_value
from bidlab.tabular.games import TERMINAL, Game, TabularError

Chain = tuple[tuple[int, int], ...]  # ((infoset id, action index), ...) from upstream to downstream


@dataclass(frozen=True)
class JPSConfig:
    """Hyperparameters of tabular JPS (Sec. 6; defaults follow the authors' code)."""

    depth: int | None = None  # D: longest chain; None = full depth (to the terminals)
    iterations: int = 100  # T of Alg. 1 (JSP-Main)
    samples: int = 0  # states drawn per candidate infoset; 0 = all states (Alg. 1 proper)
    improve_tol: float = 1e-4  # a gain above this counts as an improvement (refills the depths)
    stop_tol: float = 1e-12  # full-depth, all-states runs stop when the best gain is below this

    def __post_init__(self) -> None:
        if self.depth is not None and self.depth < 1:
            raise TabularError(f"JPSConfig.depth must be >= 1 or None (full depth), got {self.depth}")
        if self.iterations < 1:
            raise TabularError(f"JPSConfig.iterations must be >= 1, got {self.iterations}")
        if self.samples < 0:
            raise TabularError(f"JPSConfig.samples must be >= 0, got {self.samples}")

    @classmethod
    def paper(cls, game: Game) -> JPSConfig:
        """Sec. 6: D = 3 for Simple Bidding N=16 and Mini-Bridge N=4, 5; full depth otherwise."""
        big = game.name in ("simple_bidding(N=16)", "mini_bridge(N=4)", "mini_bridge(N=5)")
        return cls(depth=3 if big else None)

    @classmethod
    def cpu(cls, game: Game) -> JPSConfig:
        return cls.paper(game)  # every Table 1 game fits this machine with the paper's settings


@dataclass(frozen=True, eq=False)
class SearchResult:
    """Outcome of one search: the best chain, its predicted gain, how many proposals were scored."""

    gain: float
    chain: Chain
    n_proposals: int
    proposals: list[tuple[Chain, float]] | None = None  # every scored proposal, if asked for


@dataclass(eq=False)
class _Frontier:
    """Chain prefixes whose next candidate infosets sit at public node ``node``."""

    node: int
    reach: np.ndarray  # [B, D] pi^{sigma'} of every deal at ``node`` under each prefix
    gain: np.ndarray  # [B] summed edge terms of the prefix
    cand: np.ndarray  # [B, n_priv[player]] which infosets at ``node`` are in succ(prefix)
    chains: np.ndarray  # [B, length, 2] (infoset id, action) of each prefix
    live: np.ndarray | None = None  # [B, D] sample-based: states still in a sampled subtree
    length: int = 0


def _compat(game: Game, i: int, j: int) -> np.ndarray:
    """``[n_priv[i], n_priv[j]]``: private values of ``i`` and ``j`` that occur in one deal."""
    if i == j:
        return np.eye(game.n_priv[i], dtype=bool)
    return (game.group[i] @ game.group[j].T) > 0


def start_frontiers(game: Game, ev: Evaluation, start_depth: int | None) -> list[_Frontier]:
    """Candidate first infosets: those right after the deal, or all those at one public depth."""
    nodes = [0] if start_depth is None else list(game.levels[start_depth])
    out = []
    for p in nodes:
        n = game.n_priv[game.player[p]]
        out.append(
            _Frontier(
                node=int(p),
                reach=ev.reach[None, :, p].copy(),
                gain=np.zeros(1),
                cand=np.ones((1, n), dtype=bool),
                chains=np.zeros((1, 0, 2), dtype=np.int64),
                live=None,
            )
        )
    return out


def _draw(live: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Per row, ``k`` uniform draws with replacement among the ``True`` entries; returns the mask
    of distinct drawn entries (all False where a row has none)."""
    drawn = np.zeros_like(live)
    rows = np.arange(live.shape[0])
    has = live.any(axis=1)
    for _ in range(k):
        # argmax of uniform keys restricted to the live entries is a uniform pick among them
        keys = np.where(live, rng.random(live.shape), -1.0)
        pick = np.argmax(keys, axis=1)
        drawn[rows[has], pick[has]] = True
    return drawn


def search(
    game: Game,
    sigma: np.ndarray,
    ev: Evaluation,
    *,
    start_depth: int | None = None,
    max_length: int | None = None,
    samples: int = 0,
    rng: np.random.Generator | None = None,
    collect: bool = False,
) -> SearchResult:
    """One JPS search (Alg. 1, function JPS) from the current policy and its evaluation ``ev``.

    ``start_depth`` None starts from the infosets right after the deal; ``max_length`` None
    searches to the terminals. Returns the best chain (the empty chain, gain 0, if nothing
    helps)."""
    if samples and rng is None:
        raise TabularError("sample-based search needs an rng")
    limit = max_length if max_length is not None else 10**9
    best_gain, best_chain = 0.0, ()
    n_scored = 0
    collected: list[tuple[Chain, float]] | None = [] if collect else None
    stack = start_frontiers(game, ev, start_depth)
    if samples:
        for fr in stack:
            fr.live = np.ones_like(fr.reach, dtype=bool)
    v = ev.v
    while stack:
        fr = stack.pop()
        p = fr.node
        i = int(game.player[p])
        n_act = int(game.n_actions[p])
        kids = game.children[p, :n_act]
        group = game.group[i]  # [n_i, D]
        b_idx, s_idx = np.nonzero(fr.cand)
        if b_idx.size == 0:
            continue
        in_info = group[s_idx]  # [M, D]: states of the candidate infoset
        if samples:
            assert fr.live is not None
            chosen = _draw(fr.live[b_idx] & (in_info > 0), samples, rng)  # type: ignore[arg-type]
            weight = fr.reach[b_idx] * chosen
        else:
            chosen = None
            weight = fr.reach[b_idx] * in_info
        q = v[:, kids] - v[:, p, None]  # [D, A]: v(ha) - v(h)
        total = fr.gain[b_idx, None] + weight @ q  # [M, A]: prefix gain + J(I, a)  (Eq. 5, 6)
        n_scored += total.size
        infos = game.info_offset[p] + s_idx  # [M] infoset id of each candidate
        m, a = np.unravel_index(int(np.argmax(total)), total.shape)
        if total[m, a] > best_gain:
            best_gain = float(total[m, a])
            best_chain = _as_chain(fr.chains[b_idx[m]]) + ((int(infos[m]), int(a)),)
        if collected is not None:
            for mm in range(total.shape[0]):
                prefix = _as_chain(fr.chains[b_idx[mm]])
                collected.extend((prefix + ((int(infos[mm]), aa),), float(total[mm, aa])) for aa in range(n_act))
        if fr.length + 1 >= limit:
            continue
        # Altered reach one level down: sigma' is one-hot on the chosen infoset, sigma elsewhere.
        pol = sigma[game.info_offset[p] + game.priv[i], :n_act]  # [D, A] sigma at each deal's infoset
        parent_chains = fr.chains[b_idx]  # [M, L, 2]
        for a in range(n_act):
            c = int(kids[a])
            j = int(game.player[c])
            if j == TERMINAL:
                continue
            step = in_info + (1.0 - in_info) * pol[None, :, a]
            if chosen is None:
                cand = _compat(game, i, j)[s_idx]
            else:
                cand = (chosen.astype(np.float64) @ game.group[j].T) > 0
            link = np.stack([infos, np.full_like(infos, a)], axis=1)[:, None, :]
            stack.append(
                _Frontier(
                    node=c,
                    reach=fr.reach[b_idx] * step,
                    gain=total[:, a],
                    cand=cand,
                    chains=np.concatenate([parent_chains, link], axis=1),
                    live=chosen,
                    length=fr.length + 1,
                )
            )
    return SearchResult(gain=best_gain, chain=best_chain, n_proposals=n_scored, proposals=collected)


def _as_chain(rows: np.ndarray) -> Chain:
    return tuple((int(k), int(a)) for k, a in rows)


def apply_chain(sigma: np.ndarray, chain: Chain) -> np.ndarray:
    """``sigma'`` of Eq. 6: one-hot ``a_j`` at each ``I_j`` of the chain, ``sigma`` elsewhere."""
    out = sigma.copy()
    for k, a in chain:
        out[k] = 0.0
        out[k, a] = 1.0
    return out


def enumerate_chains(game: Game, *, start_depth: int | None = None, max_length: int | None = None) -> list[Chain]:
    """Every proposal the search scores, in the same order, without scoring it (for brute force)."""
    limit = max_length if max_length is not None else 10**9
    out: list[Chain] = []
    starts = [0] if start_depth is None else [int(p) for p in game.levels[start_depth]]
    stack: list[tuple[int, Chain, np.ndarray]] = [
        (p, (), np.arange(game.n_priv[game.player[p]])) for p in starts
    ]
    while stack:
        p, prefix, cands = stack.pop()
        i = int(game.player[p])
        n_act = int(game.n_actions[p])
        for s in cands:
            k = int(game.info_offset[p] + s)
            for a in range(n_act):
                chain = prefix + ((k, a),)
                out.append(chain)
                c = int(game.children[p, a])
                j = int(game.player[c])
                if j == TERMINAL or len(chain) >= limit:
                    continue
                stack.append((c, chain, np.flatnonzero(_compat(game, i, j)[s])))
    return out


def brute_force_search(
    game: Game, sigma: np.ndarray, *, start_depth: int | None = None, max_length: int | None = None
) -> SearchResult:
    """The same proposals as :func:`search`, each scored by a full re-evaluation of the game
    (O(|S| M), the baseline of Sec. 5.1)."""
    base = game_value(game, sigma)
    best_gain, best_chain = 0.0, ()
    chains = enumerate_chains(game, start_depth=start_depth, max_length=max_length)
    for chain in chains:
        gain = game_value(game, apply_chain(sigma, chain)) - base
        if gain > best_gain:
            best_gain, best_chain = gain, chain
    return SearchResult(gain=best_gain, chain=best_chain, n_proposals=len(chains))


@dataclass(eq=False)
class JPSRun:
    """Trace of a JPS run: the value after each iteration and the best policy seen."""

    start_value: float
    values: list[float] = field(default_factory=list)
    best_value: float = float("-inf")
    best_policy: np.ndarray | None = None
    iterations: int = 0


def search_depths(game: Game, depth: int) -> list[int]:
    """Public depths a D-level search may start from (leaving room for ``depth`` levels)."""
    deepest = int(game.depth.max())  # terminal depth; the tree depth of the code is this + 1
    return [d for d in range(0, deepest - depth + 1) if game.levels[d].size]


def run_jps(game: Game, sigma: np.ndarray, seed: int, config: JPSConfig | None = None) -> JPSRun:
    """JSP-Main of Alg. 1: repeat (evaluate, search, apply the best chain)."""
    config = config or JPSConfig()
    rng = np.random.default_rng(seed)
    sigma = sigma.copy()
    ev = evaluate(game, sigma)
    run = JPSRun(start_value=ev.value, best_value=ev.value, best_policy=sigma.copy())
    depths: list[int] = []
    if config.depth is not None:
        depths = search_depths(game, config.depth)
        rng.shuffle(depths)
    last = ev.value
    for _ in range(config.iterations):
        if config.depth is None:
            start = None
        else:
            if not depths:
                break
            start = depths.pop()
        res = search(
            game, sigma, ev, start_depth=start, max_length=config.depth, samples=config.samples, rng=rng
        )
        run.iterations += 1
        if config.depth is None and not config.samples and res.gain <= config.stop_tol:
            break
        sigma = apply_chain(sigma, res.chain)
        ev = evaluate(game, sigma)
        run.values.append(ev.value)
        if ev.value > run.best_value:
            run.best_value, run.best_policy = ev.value, sigma.copy()
        if config.depth is not None and ev.value - last > config.improve_tol:
            depths = search_depths(game, config.depth)
            rng.shuffle(depths)
        last = ev.value
    return run
