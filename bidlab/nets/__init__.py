"""The networks of the bridge pipelines, their configurations, and their safetensors + JSON files.

Below the agents and the learners, so that both use the nets without importing each other.

- :class:`PolicyNet` (Qiu et al. Sec. III, Appendix B): 480 auction features -> MLP with
  GELU -> 38 call logits, illegal calls masked. ``paper`` preset 4 x 2048; ``cpu`` preset
  4 x 512 (1.05M parameters, a 4.2 MB file), sized so SL and self-play keep pace on a
  shared 2-core machine.
- :class:`ValueNet` (Qiu Sec. IV, Table VI): 636 features (480 + the 156 hidden cards of
  LHO, partner, RHO) -> 5 x 1024 GELU -> tanh scalar in [-1, 1] (the IMP/24 reward).
- :class:`BeliefNet` (Qiu Sec. V): 480 -> 4 x 1024 GELU -> 156 sigmoids, the probability
  that LHO, partner, RHO hold each card (blocks of 52 in OpenSpiel's card order, the
  order of the 480 input's own-hand block).
- :class:`JudgeNet` (issue 44): 480 -> 3 x 256 GELU -> 1, the IMPs that doubling the
  opponents' contract gains over passing, for the player to act (see :mod:`bidlab.learn.judge`).
- :class:`JpsNet` (Tian et al. Sec. 7 and appendix D): 267 -> 200, then 4 layers of 200
  with a skip connection every two layers, a 38-way policy head and a value head.

A model file is ``NAME.safetensors`` (weights, with the config also in its metadata) and
``NAME.json`` (the same config: kind, preset, sizes, encoder, bidlab version, and what
it was trained on). Loading never unpickles anything.
"""

from __future__ import annotations

from bidlab.nets.config import PRESETS, ModelFileError, NetConfig, policy_cpu, policy_paper, preset
from bidlab.nets.io import load_model, load_optimizer, model_paths, optimizer_tensors, save_model
from bidlab.nets.modules import BeliefNet, JpsNet, JudgeNet, PolicyNet, ValueNet, build

__all__ = [
    "PRESETS", "BeliefNet", "JpsNet", "JudgeNet", "ModelFileError", "NetConfig", "PolicyNet", "ValueNet", "build",
    "load_model", "load_optimizer", "model_paths", "optimizer_tensors", "policy_cpu", "policy_paper", "preset", "save_model",
]
