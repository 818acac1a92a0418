"""Environments: the vectorized auction env and thin Gymnasium / PettingZoo adapters.

The adapters live in :mod:`bidlab.envs.gym` and :mod:`bidlab.envs.pettingzoo` and import
their (optional) libraries only when used.
"""

from bidlab.envs.auction import (
    MAX_AUCTION_LENGTH,
    NO_CALL,
    AuctionEnv,
    BatchError,
    EnvConfig,
    EnvError,
    FinishedBoardError,
    IllegalEnvCallError,
    StepResult,
)

__all__ = [
    "MAX_AUCTION_LENGTH", "NO_CALL", "AuctionEnv", "BatchError", "EnvConfig", "EnvError",
    "FinishedBoardError", "IllegalEnvCallError", "StepResult",
]
