"""Par: the score both sides reach when each bids to its best double-dummy result.

Computed by DDS's ``DealerParBin`` from a full table. The dealer matters only when
both sides could make the same contract and whoever bids it first gets it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bidlab.bridge.auction import Contract
from bidlab.bridge.board import Board, Vulnerability
from bidlab.bridge.calls import Strain
from bidlab.cards import Seat
from bidlab.dd.convert import (
    PAR_DENOM_TO_STRAIN,
    bidlab_tables_to_dds,
    dds_vulnerability,
    par_seats_to_declarers,
)
from bidlab.dd.solver import SolverError, _dds, _lock


@dataclass(frozen=True, slots=True)
class Par:
    """Par score (North-South's view) and the contracts that reach it."""

    score: int
    contracts: tuple[Contract, ...]

    def __str__(self) -> str:
        return self.to_str()

    def to_str(self, symbols: bool = False) -> str:
        """``par +420 for NS: 4S by N``; with ``symbols`` the strains are ♠♥♦♣ (for screens)."""
        if not self.contracts:
            return f"par {self.score:+d} (passed out)"
        names = ", ".join(f"{c.to_str(symbols)} by {c.declarer.letter}" for c in self.contracts)
        return f"par {self.score:+d} for NS: {names}"


def par(table: np.ndarray, vulnerability: Vulnerability | int | str = Vulnerability.NONE,
        dealer: Seat | int | str = Seat.N) -> Par:
    """Par of a ``uint8[4, 5]`` DD table (declarer x strain) for a vulnerability and dealer."""
    t = np.asarray(table)
    if t.shape != (4, 5):
        raise SolverError(f"a DD table has shape (4, 5), got {t.shape}")
    if t.min() < 0 or t.max() > 13:
        raise SolverError("DD table entries must be 0..13 tricks")
    vul = Vulnerability.parse(vulnerability) if not isinstance(vulnerability, Vulnerability) else vulnerability
    seat = Seat.parse(dealer)
    dds = _dds()
    res = dds.ddTableResults()
    flat = bidlab_tables_to_dds(t[None])[0]
    for strain in range(5):
        for s in range(4):
            res.resTable[strain][s] = int(flat[strain, s])
    out = dds.parResultsMaster()
    with _lock:
        try:
            dds.DealerParBin(res, out, int(seat), dds_vulnerability(vul))
        except dds.DDSError as e:
            raise SolverError(f"DDS DealerParBin failed: {e}") from None
    contracts = []
    for i in range(out.number):
        c = out.contracts[i]
        if c.level == 0:  # DDS lists a passed-out board as a level-0 contract
            continue
        strain = Strain(int(PAR_DENOM_TO_STRAIN[c.denom]))
        for decl in par_seats_to_declarers(c.seats):
            contracts.append(Contract(c.level, strain, 1 if c.underTricks > 0 else 0, Seat(decl)))
    return Par(int(out.score), tuple(contracts))


def board_par(board: Board, table: np.ndarray) -> Par:
    """Par of a board: its vulnerability and dealer with the deal's table."""
    return par(table, board.vulnerability, board.dealer)
