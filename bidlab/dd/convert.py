"""The one place that converts between bidlab's orders and DDS's (as exposed by endplay).

bidlab (../shared/DESIGN.md): seats N, E, S, W = 0..3; suits and strains clubs,
diamonds, hearts, spades (, notrump) = 0..3 (4); card index = suit * 13 + rank with
rank 2..A = 0..12; a deal is ``uint8[52]``, the seat holding each card; a DD table
is ``uint8[4, 5]`` indexed ``[declarer, strain]``.

DDS (and endplay's ``Denom``): suits and strains spades, hearts, diamonds, clubs,
notrump = 0..4; a hand is ``remainCards[seat][dds_suit]``, a bit mask with bit
``r + 2`` set for rank ``r`` (DDS ranks run 2..14); a table is
``resTable[dds_strain][seat]``. Seats agree (N, E, S, W = 0..3), and so does
vulnerability only partly: DDS numbers it none, both, NS, EW = 0..3.

Nothing else in bidlab should know these orders: everything that talks to DDS goes
through the functions here.
"""

from __future__ import annotations

import numpy as np

from bidlab.bridge.board import Vulnerability

#: ``DDS_STRAIN[s]`` is DDS's number for bidlab strain ``s`` (C, D, H, S, NT -> 3, 2, 1, 0, 4).
#: The map is its own inverse, so it also turns a DDS strain into bidlab's.
DDS_STRAIN = np.array([3, 2, 1, 0, 4], dtype=np.intp)

#: DDS vulnerability code for each bidlab :class:`Vulnerability` (NONE, NS, EW, BOTH).
_DDS_VUL = {Vulnerability.NONE: 0, Vulnerability.BOTH: 1, Vulnerability.NS: 2, Vulnerability.EW: 3}

# Weight of each rank's bit in a DDS holding: rank r (2 = 0) is bit r + 2.
_RANK_BITS = (1 << (np.arange(13, dtype=np.uint32) + 2)).astype(np.uint32)
_SEATS = np.arange(4, dtype=np.uint8)


def dds_strain(strain: int) -> int:
    """DDS's strain (and trump) number for a bidlab strain 0..4."""
    return int(DDS_STRAIN[strain])


def bidlab_strain(dds: int) -> int:
    """bidlab's strain for a DDS strain number 0..4."""
    return int(DDS_STRAIN[dds])


def dds_vulnerability(vul: Vulnerability | int) -> int:
    """DDS's vulnerability code (0 none, 1 both, 2 NS, 3 EW)."""
    return _DDS_VUL[Vulnerability(vul)]


def holders_to_dds_hands(deals: np.ndarray) -> np.ndarray:
    """``uint8[n, 52]`` holder arrays -> ``uint32[n, 4, 4]`` DDS ``remainCards``.

    Axis 1 is the seat, axis 2 DDS's suit (spades first). Vectorized: one
    comparison per seat and a dot product with the rank bits.
    """
    d = np.asarray(deals)
    held = d[:, None, :] == _SEATS[None, :, None]            # [n, seat, card]
    masks = held.reshape(len(d), 4, 4, 13).astype(np.uint32) @ _RANK_BITS  # [n, seat, suit C..S]
    return np.ascontiguousarray(masks[:, :, ::-1])          # suits S, H, D, C


def dds_hands_to_holders(hands: np.ndarray) -> np.ndarray:
    """Inverse of :func:`holders_to_dds_hands`: ``uint32[n, 4, 4]`` -> ``uint8[n, 52]``."""
    h = np.asarray(hands, dtype=np.uint32)[:, :, ::-1]       # suits C..S
    bits = (h[..., None] & _RANK_BITS) != 0                   # [n, seat, suit, rank]
    per_card = bits.reshape(len(h), 4, 52)
    return np.argmax(per_card, axis=1).astype(np.uint8)


def dds_tables_to_bidlab(res: np.ndarray) -> np.ndarray:
    """``int[n, 5, 4]`` DDS ``resTable`` ([dds_strain, seat]) -> ``uint8[n, 4, 5]`` ([seat, strain])."""
    r = np.asarray(res)
    return np.ascontiguousarray(r[:, DDS_STRAIN, :].transpose(0, 2, 1)).astype(np.uint8)


def bidlab_tables_to_dds(tables: np.ndarray) -> np.ndarray:
    """``uint8[n, 4, 5]`` ([seat, strain]) -> ``int32[n, 5, 4]`` DDS ``resTable``."""
    t = np.asarray(tables).transpose(0, 2, 1)
    return np.ascontiguousarray(t[:, DDS_STRAIN, :]).astype(np.int32)


#: DDS's par routines number strains differently again: NT, S, H, D, C = 0..4.
#: ``PAR_DENOM_TO_STRAIN[d]`` is bidlab's strain for par denomination ``d``.
PAR_DENOM_TO_STRAIN = np.array([4, 3, 2, 1, 0], dtype=np.intp)


def par_seats_to_declarers(seats: int) -> tuple[int, ...]:
    """Declarer seat(s) of a DDS par contract: 0..3 one seat, 4 either of N/S, 5 either of E/W."""
    if 0 <= seats <= 3:
        return (seats,)
    if seats == 4:
        return (0, 2)
    if seats == 5:
        return (1, 3)
    raise ValueError(f"DDS par seats code must be 0..5, got {seats}")
