"""Bridge rules: calls, auctions, boards, duplicate scoring, IMPs and file formats."""

from bidlab.bridge import lin, pbn  # noqa: E402  (file formats)
from bidlab.bridge.auction import Auction, Contract
from bidlab.bridge.board import Board, Vulnerability, board_dealer, board_vulnerability
from bidlab.bridge.calls import ALL_CALLS, DOUBLE, NUM_CALLS, PASS, REDOUBLE, Call, Strain
from bidlab.bridge.scoring import contract_score, imps, score_contract

__all__ = [
    "ALL_CALLS", "DOUBLE", "NUM_CALLS", "PASS", "REDOUBLE", "Auction", "Board", "Call",
    "Contract", "Strain", "Vulnerability", "board_dealer", "board_vulnerability",
    "contract_score", "imps", "lin", "pbn", "score_contract",
]
