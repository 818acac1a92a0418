"""Environments: the vectorized auction env and thin Gymnasium / PettingZoo adapters.

A self-play loop over ``B`` deal pairs (Qiu et al. Sec. IV), one batched forward per step::

    env = AuctionEnv.from_store(split="train", config=EnvConfig.qiu(num_boards=512, seed=1))
    obs = np.empty((env.num_tables, 480), np.float32)          # reused every step
    while training:
        env.observe(obs)                                       # player to act at every table
        team = env.team_to_act                                 # 0/1: whose transition it is
        calls = sample(policy(obs), env.legal)                 # done rows: empty mask
        result = env.step(np.where(env.done, NO_CALL, calls))  # waiting tables do not call
        # result.pair_finished[p]: both tables of pair p are over; team 0 earns
        # result.reward[p] (IMPs / 24), team 1 its negative; the pair is already re-dealt.

A match between two agents uses ``auto_reset=False``, ``order="sequential"`` and
``reset(deal_index=...)``; a search can build an unscored env (``dd=None``) over sampled
deals, :meth:`AuctionEnv.replay` the real auction on them and read the contracts reached.

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
