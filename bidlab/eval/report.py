"""Reports of duplicate matches: the plots and tables of Qiu et al. Sec. VI-F.

- opening-bid heatmap per agent (Fig. 4): how often each bid level x strain opens;
- final-contract heatmap per agent (Fig. 5): contracts declared by the agent's side;
- auction-length histogram (Fig. 6);
- SAYC opening conformity (Table V): per frequent opening bid, the share of an agent's
  openings that fit the SAYC opening chart (HCP and suit lengths);
- the distribution of IMP swings per board.
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bidlab.bridge.calls import Call, Strain
from bidlab.cards import Deal, Seat
from bidlab.errors import BidlabError
from bidlab.eval.doubled import doubled_contracts
from bidlab.eval.match import load_results, summarize
from bidlab.fileio import write_text_atomic
from bidlab.runtime.progress import plural
from bidlab.runtime.stats import fmt


class ReportError(BidlabError):
    """A report cannot be written where it was asked to go."""

#: The opening bids of Qiu Table V, in its order.
TABLE_V_BIDS = tuple(Call.parse(b) for b in
                     ("1C", "1D", "1H", "1S", "1NT", "2C", "2D", "2H", "2S", "2NT", "3C", "3D", "3H", "3S"))
#: The rows of the conformity table: Table V's bids, then the rest of the SAYC opening chart
#: (3NT and the 4-level preempts), whose conformity the chart defines as well.
CONFORMITY_BIDS = TABLE_V_BIDS + tuple(Call.parse(b) for b in ("3NT", "4C", "4D", "4H", "4S"))


@dataclass
class AgentStats:
    """What one agent did over all the tables it sat at."""

    openings: list[tuple[str, int]] = field(default_factory=list)   # (hand PBN, call id)
    contracts: Counter = field(default_factory=Counter)              # (level, strain) declared by its side
    passed_out: int = 0
    tables: int = 0


def _opening(auction_text: str, dealer: Seat) -> tuple[Seat, Call] | None:
    for i, tok in enumerate(auction_text.split()):
        c = Call.parse(tok)
        if c.is_bid:
            return dealer.next(i), c
    return None


def collect(paths: list[str]) -> tuple[dict[str, AgentStats], list[dict]]:
    """Per-agent statistics and per-match summaries from results files."""
    stats: dict[str, AgentStats] = defaultdict(AgentStats)
    matches = []
    for path in paths:
        header, records = load_results(path)
        a, b = header["config"]["agent_a"], header["config"]["agent_b"]
        lengths = []
        for r in records:
            deal, dealer = Deal.parse(r["deal"]), Seat.parse(r["dealer"])
            for room, ns_agent, ew_agent in (("open", a, b), ("closed", b, a)):
                t = r[room]
                lengths.append(len(t["auction"].split()))
                by_side = {0: ns_agent, 1: ew_agent}
                for agent in {ns_agent, ew_agent}:
                    stats[agent].tables += 1
                op = _opening(t["auction"], dealer)
                if op is not None:
                    seat, call = op
                    stats[by_side[seat.side]].openings.append((deal[seat].to_pbn(), call.id))
                if t["contract"] is None:
                    for agent in {ns_agent, ew_agent}:
                        stats[agent].passed_out += 1
                else:
                    decl = Seat.parse(t["declarer"])
                    c = Call.parse(t["contract"].rstrip("X"))
                    stats[by_side[decl.side]].contracts[(c.level, int(c.strain))] += 1
        s = summarize(records, a, b)
        matches.append({"path": str(path), "summary": s, "lengths": lengths,
                        "doubled": doubled_contracts(records, a, b),
                        "swings": [r["imps_a"] for r in records], "config": header["config"]})
    return dict(stats), matches


def opening_matrix(st: AgentStats) -> np.ndarray:
    """Counts of openings by level (rows 1..7) and strain (columns C, D, H, S, NT)."""
    m = np.zeros((7, 5), dtype=int)
    for _, cid in st.openings:
        c = Call(cid)
        m[c.level - 1, int(c.strain)] += 1
    return m


def contract_matrix(st: AgentStats) -> np.ndarray:
    m = np.zeros((7, 5), dtype=int)
    for (level, strain), k in st.contracts.items():
        m[level - 1, strain] += k
    return m


def conformity_table(st: AgentStats) -> dict[str, tuple[int, float]]:
    """Per opening of the SAYC chart (:data:`CONFORMITY_BIDS`): (number of openings with it, %
    that conform to SAYC)."""
    from bidlab.agents.sayc import sayc_opening_conforms
    from bidlab.cards import Hand

    out: dict[str, tuple[int, float]] = {}
    by_bid: dict[int, list[str]] = defaultdict(list)
    for hand, cid in st.openings:
        by_bid[cid].append(hand)
    for bid in CONFORMITY_BIDS:
        hands = by_bid.get(bid.id, [])
        ok = sum(sayc_opening_conforms(Hand.parse(h), bid) for h in hands)
        out[str(bid)] = (len(hands), 100.0 * ok / len(hands) if hands else float("nan"))
    return out


def _heatmap(ax, m: np.ndarray, title: str) -> None:
    im = ax.imshow(m, cmap="Blues", aspect="auto", vmin=0, vmax=max(1, int(m.max())))
    ax.set_xticks(range(5), [s.symbol for s in Strain])
    ax.set_yticks(range(7), [str(level) for level in range(1, 8)])
    ax.set_xlabel("strain")
    ax.set_ylabel("level")
    ax.set_title(title, fontsize=10)
    for (i, j), v in np.ndenumerate(m):
        if v:
            ax.text(j, i, str(v), ha="center", va="center", fontsize=7,
                    color="white" if v > m.max() * 0.6 else "black")
    ax.figure.colorbar(im, ax=ax, fraction=0.046)


def _histogram(plt, matches: list[dict], key: str, xlabel: str, ylabel: str, title: str, path: Path) -> None:
    """One integer histogram per match, overlaid."""
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for m in matches:
        s = m["summary"]
        values = m[key]
        ax.hist(values, bins=range(min(values), max(values) + 2), alpha=0.6, label=f"{s.agent_a} vs {s.agent_b}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def build_report(paths: list[str], out: str | os.PathLike) -> Path:
    """Write the plots (PNG) and ``summary.md`` for the given match results."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ReportError(f"--out {out} is a file; the report needs a folder for its plots and summary.md")
    stats, matches = collect(paths)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ReportError(f"cannot make the report folder {out}: {e.strerror or e}") from None
    if not os.access(out, os.W_OK):
        raise ReportError(f"cannot write in the report folder {out}: permission denied")
    agents = sorted(stats)
    lines = ["# bidlab match report", ""]

    lines += ["## Matches", "", "| match | boards | IMPs/board (A) | ± SE | A vs par | B vs par |",
              "|---|---|---|---|---|---|"]
    for m in matches:
        s = m["summary"]
        lines.append(f"| {s.agent_a} vs {s.agent_b} | {s.boards} | {fmt(s.imps_per_board, signed=True)} "
                     f"| {fmt(s.standard_error)} | {fmt(s.a_vs_par, signed=True)} | {fmt(s.b_vs_par, signed=True)} |")
    lines.append("")

    lines += ["## Doubled contracts", "",
              "Final contracts doubled (X) or redoubled (XX) that each side declared, their share of the "
              "side's tables, the declaring side's mean score on them, the boards on which it declared one "
              "(at either table) and its net IMPs on those boards, in all and per 100 boards of the match.", "",
              "| match | declaring side | X | XX | share of tables | mean score | boards | net IMPs "
              "| IMPs per 100 boards |", "|---|---|---|---|---|---|---|---|---|"]
    for m in matches:
        s = m["summary"]
        for side in m["doubled"]:
            score = "-" if not side.total else f"{side.mean_score:+.0f}"
            lines.append(f"| {s.agent_a} vs {s.agent_b} | {side.agent} | {side.doubled} | {side.redoubled} "
                         f"| {fmt(side.share, 1)} % | {score} | {side.doubled_boards} | {side.net_imps:+d} "
                         f"| {fmt(side.imps_per_100, 1, signed=True)} |")
    lines.append("")

    for kind, matrix_fn, fig_name in (("Opening bids", opening_matrix, "openings"),
                                      ("Final contracts", contract_matrix, "contracts")):
        fig, axes = plt.subplots(1, len(agents), figsize=(4.2 * len(agents), 4), squeeze=False)
        for ax, agent in zip(axes[0], agents):
            _heatmap(ax, matrix_fn(stats[agent]), f"{kind.lower()}: {agent}")
        fig.tight_layout()
        fig.savefig(out / f"{fig_name}.png", dpi=110)
        plt.close(fig)
        lines += [f"## {kind}", "", f"![{kind}]({fig_name}.png)", ""]

    _histogram(plt, matches, "lengths", "calls in the auction", "tables", "Auction lengths",
               out / "auction_lengths.png")
    lines += ["## Auction lengths", "", "![Auction lengths](auction_lengths.png)", ""]
    for m in matches:
        s = m["summary"]
        lines.append(f"- {s.agent_a} vs {s.agent_b}: mean {np.mean(m['lengths']):.2f} calls per auction")
    lines.append("")

    _histogram(plt, matches, "swings", "IMPs for A per board", "boards", "IMP swings", out / "imp_swings.png")
    lines += ["## IMP swings", "", "![IMP swings](imp_swings.png)", ""]
    for m in matches:
        sw = np.array(m["swings"])
        s = m["summary"]
        lines.append(f"- {s.agent_a} vs {s.agent_b}: {int((sw != 0).sum())} of {plural(len(sw), 'board')} swing; "
                     f"largest {int(np.abs(sw).max())} IMPs")
    lines.append("")

    try:
        tables = {agent: conformity_table(stats[agent]) for agent in agents}
    except ImportError:
        tables = {}
    if tables:
        lines += ["## SAYC opening conformity (Qiu Table V, with 3NT and the 4-level openings)", "",
                  "Share of each agent's openings with a bid that fit the SAYC opening chart (HCP and suit "
                  "lengths), with the number of such openings in brackets.", "",
                  "| opening | " + " | ".join(agents) + " |", "|---|" + "---|" * len(agents)]
        for bid in CONFORMITY_BIDS:
            cells = []
            for agent in agents:
                n, pct = tables[agent][str(bid)]
                cells.append("-" if n == 0 else f"{fmt(pct)} ({n})")
            lines.append(f"| {bid} | " + " | ".join(cells) + " |")
        lines.append("")
    md = out / "summary.md"
    write_text_atomic(md, "\n".join(lines) + "\n")
    return md

