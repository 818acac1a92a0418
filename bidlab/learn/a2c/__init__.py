"""A2C self-play with prioritized replay and a value net that sees the hidden hands
(Qiu et al. 2024, Sec. IV, App. C Algs. 1-2, Table I).

One module per piece:

- :mod:`.config`: :class:`A2CConfig`, every hyperparameter, with the policy and value nets'
  shapes nested (:class:`~bidlab.nets.NetConfig`); presets ``paper`` (Table I) and ``cpu``.
- :mod:`.transitions`: the replay columns, features and duplicate rewards.
- :mod:`.actor`: :class:`SelfPlayActor` bids batches of duplicate board pairs on the array env
  (:func:`bidlab.envs.rollout.rollout`) and returns their transitions with rewards. The same
  class runs in a thread (local backend) or as a Ray actor (``--backend ray``).
- :mod:`.learner`: :class:`Learner`, one A2C step on a replay batch, returns the new priorities.
- :mod:`.limiter`: the replay-ratio limiter; :mod:`.backends`: local threads or Ray actors.
- :mod:`.targets`: online JPS search targets (the hook, the queue, the two losses).
- :mod:`.evaluation`, :mod:`.checkpoint`: greedy evaluation on validation deals; checkpoints.
- :mod:`.loop`: :func:`train_rl`, the loop (actors -> replay -> learner), periodic greedy
  evaluation against the SL policy on validation deals, TensorBoard, checkpoints and resume.
- :mod:`.league`: league self-play (a pool of opponents drawn by prioritized fictitious self-play)
  and exploiters, on top of the same actor, learner and loop.
- :mod:`.main_exploiter`: a main exploiter beside the league learner (its own learner and
  replay, against a frozen copy of the learner), frozen into the pool when it stops improving.

Decisions on the points the paper leaves open (``../shared/notes/qiu-bmcs-notes.md`` §1-2
says what the authors' code does):

- **Self-play.** As in the authors' code, all four seats at both tables are the current
  network sampling from its policy; there is no frozen opponent. Each board is bid at two
  tables (rows ``0..n-1`` table 0, rows ``n..2n-1`` table 1) and every player's transitions
  get the terminal reward ``+-IMPs/24`` with ``gamma = 1``: team = ``(seat + table) % 2``,
  team 0 (NS at table 0, EW at table 1) gets ``+IMP(NS0 - NS1)/24``, team 1 the negation.
  Scores come from the deal store's double-dummy tables; a passed-out board scores 0.
- **Dealer and vulnerability are random** (uniform over the 4 x 4), not the authors'
  "dealer North, nobody vulnerable": our matches (``bidlab match``) play the 16-board cycle,
  so every dealer/vulnerability combination is evaluated, and the policy must be trained on
  the inputs it will see (vulnerability changes the right bid: sacrifices, game tries).
- **Deals:** the train split of the shipped deal store, drawn with replacement; validation
  deals for the periodic evaluation; never the test split.
- **Softmax over the legal calls only**, for sampling, the stored log-probabilities, the
  ratio and the entropy. The authors' code normalizes over all 38 calls and masks only when
  sampling; but our SL policy was trained with the legal-masked cross-entropy, so its logits
  of illegal calls carry no meaning, and an entropy over all 38 would reward mass on calls
  that can never be made. Over legal calls, the learner's distribution is exactly the one the
  actors sample from, so the importance ratio compares like with like.
- **Policy loss:** the authors' PPO-style clipped surrogate, ``-min(rho A, clip(rho, 1 +- eps) A)``
  with ``eps = 0.05``, ``rho = pi_new(a) / pi_old(a)`` from the stored log-probs, and the
  advantage ``A = r - V(h)`` detached and not normalized; minus ``c_H`` times the entropy.
- **Value loss:** ``(r - V(h))^2`` on the 636 input (480 + LHO's, partner's, RHO's cards),
  tanh head. ``--no-hidden-info`` feeds the value net the 480 only and keeps the tanh (the
  authors' no-HI net drops it; keeping it changes only the input, the thing the ablation tests).
- **Total loss** = mean over the batch of ``w * (policy + value)``, ``w`` the PER importance
  weights. Two Adan optimizers (``pytorch-optimizer``), gradient-norm clip 40 on each net.
- **Priorities:** on insert ``|r - v(h)|^alpha`` with ``v`` from the actor's (stale) value
  net; after each learner step reset to ``|r - V_learner(h)|^alpha``. See
  :mod:`bidlab.learn.replay` for the small epsilon.
- **Table I vs the authors' yaml:** the ``paper`` preset takes Table I (batch 2048, alpha 0.8,
  beta 0.6, entropy 0.01, buffer 80K, burn-in 20K, sync 10) with the yaml's learning rates
  1e-5 / 1e-4 (Table I's are garbled in the text). The ``cpu`` preset keeps the method and
  scales the sizes: the policy is the shipped SL net (4 x 512), the value net 3 x 256
  (about 0.3M parameters: cheap enough for the actor to run it on every decision), batch 512,
  and a policy learning rate of 1e-4, ten times the paper's: an hour on this shared machine
  holds only ~1-2k updates. In a 7-minute pilot (two runs sharing the loaded machine, ~190
  updates each), 1e-4 reached +0.15 +- 0.07 and 3e-5 +0.12 +- 0.06 IMPs/board against SL on
  1,000 validation boards.
- **Search targets (issue #17, online JPS):** ``train_rl(..., search=SearchTraining(...))``
  passes in a hook that the actor calls on each finished self-play batch (learning does not
  import search; the CLI builds the hook from :mod:`bidlab.search.jps`). What it returns waits
  in a small separate queue, and every learner update takes up to ``batch_size`` of them, each
  used once, and adds ``weight * sum(term) / batch_size`` to the A2C loss: with ``loss="pg"``
  (the CLI's default) each row is a searched infoset with all its candidates' values and the
  term is :func:`search_policy_gradient`; with ``loss="nll"`` each row is one improved call and
  the term is :func:`search_nll`. Used once, not resampled from a ring: in a pilot that
  sampled 32 NLL targets per update from a ring buffer, the first few dozen targets were
  replayed hundreds of times (Adan takes full-size steps along a consistent gradient) and both
  the 1-search and the JPS run lost ~0.4 IMPs/board on validation within 50 updates while
  plain A2C did not. The queue is not checkpointed: after a resume it refills from the next
  searched batches.
- **Evaluation:** greedy play of the learner's policy against the SL policy, as a duplicate
  match on a fixed sample of validation deals with the 16-board dealer/vulnerability cycle
  (the authors' Fig. 2 uses 50k validation deals; we use ``eval_boards``). The best policy on
  validation is kept as ``best.safetensors`` + ``best.json`` (a plain policy model file, so
  ``nn:runs/rl/best`` bids in ``bidlab match``); every checkpoint also writes the run's latest
  policy as ``final.safetensors`` + ``final.json`` (``nn:runs/rl/final``).
"""


from bidlab.learn.a2c.actor import SelfPlayActor
from bidlab.learn.a2c.backends import LocalBackend, RayBackend
from bidlab.learn.a2c.checkpoint import checkpoint_state, load_checkpoint, load_state, save_checkpoint
from bidlab.learn.a2c.config import PRESETS, A2CConfig, RLTrainingError, make_config
from bidlab.learn.a2c.evaluation import EvalDeals, evaluate_against, validation_deals
from bidlab.learn.a2c.learner import Learner, a2c_loss
from bidlab.learn.a2c.limiter import ReplayRatioLimiter
from bidlab.learn.a2c.loop import initial_policy, train_rl
from bidlab.learn.a2c.targets import (
    SEARCH_LOSSES,
    TARGET_COLUMNS,
    SearchHook,
    SearchTraining,
    TargetQueue,
    search_nll,
    search_policy_gradient,
)
from bidlab.learn.a2c.transitions import REPLAY_COLUMNS, duplicate_rewards, features, insert_priorities

__all__ = ["PRESETS", "REPLAY_COLUMNS", "SEARCH_LOSSES", "TARGET_COLUMNS", "A2CConfig", "EvalDeals", "Learner",
           "LocalBackend", "RLTrainingError", "RayBackend", "ReplayRatioLimiter", "SearchHook", "SearchTraining",
           "SelfPlayActor", "TargetQueue", "a2c_loss", "checkpoint_state", "duplicate_rewards", "evaluate_against",
           "features", "initial_policy", "insert_priorities", "load_checkpoint", "load_state", "make_config",
           "save_checkpoint", "search_nll", "search_policy_gradient", "train_rl", "validation_deals"]
