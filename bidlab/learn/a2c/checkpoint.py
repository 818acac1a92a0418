"""Training state on disk: weights, optimizer moments and counters in one safetensors file
(replaced in one atomic rename), a readable ``state.json`` copy, and the one reader of a run's
counters that a resume, ``train rl-plot`` and the kill tests share."""

from __future__ import annotations

import json
from pathlib import Path

from bidlab.fileio import write_bytes_atomic, write_json_atomic
from bidlab.learn.a2c.config import RLTrainingError
from bidlab.learn.a2c.learner import Learner
from bidlab.nets import NetConfig, build, load_optimizer, optimizer_tensors


def save_checkpoint(out: Path, learner: Learner, state: dict, extra: dict | None = None) -> None:
    """Weights, optimizer moments and counters in one safetensors file (the counters in its
    metadata, so they are replaced together in one atomic rename); state.json is a readable copy.
    ``extra``: more tensors for the same file (a main exploiter's, under their own prefix)."""
    from safetensors.torch import save

    tensors = dict(extra or {})
    tensors.update({f"policy.{k}": v.detach().cpu().contiguous() for k, v in learner.policy.state_dict().items()})
    tensors.update({f"value.{k}": v.detach().cpu().contiguous() for k, v in learner.value.state_dict().items()})
    tp, ep = optimizer_tensors(learner.opt_policy, "opt_policy")
    tv, evv = optimizer_tensors(learner.opt_value, "opt_value")
    tensors.update(tp)
    tensors.update(tv)
    full = dict(state, optimizers={"opt_policy": ep, "opt_value": evv})
    write_bytes_atomic(out / "checkpoint.safetensors", save(tensors, metadata={"state": json.dumps(full)}))
    write_json_atomic(out / "state.json", full)


def checkpoint_state(path: Path) -> dict:
    """The counters (and optimizer metadata) stored in a checkpoint file's metadata."""
    from safetensors import safe_open

    try:
        with safe_open(str(path), framework="pt") as f:
            return json.loads((f.metadata() or {})["state"])
    except Exception as e:  # a truncated or foreign file
        raise RLTrainingError(f"{path} is not a readable checkpoint ({e})") from None


def checkpoint_tensors(out: Path, prefix: str) -> dict:
    """The tensors of a run's checkpoint file whose names start with ``prefix`` (all of them, names
    unchanged); none for a checkpoint written without them."""
    from safetensors import safe_open

    path = out / "checkpoint.safetensors"
    try:
        with safe_open(str(path), framework="pt") as f:
            return {k: f.get_tensor(k) for k in f.keys() if k.startswith(prefix)}
    except Exception as e:  # a truncated or foreign file
        raise RLTrainingError(f"{path} is not a readable checkpoint ({e})") from None


def load_checkpoint(out: Path, learner: Learner) -> dict:
    from safetensors.torch import load

    path = out / "checkpoint.safetensors"
    state = checkpoint_state(path)
    try:
        tensors = load(path.read_bytes())
    except Exception as e:  # a truncated or foreign file
        raise RLTrainingError(f"{path} is not a readable checkpoint ({e})") from None
    dev = learner.device
    learner.policy.load_state_dict({k[7:]: v.to(dev) for k, v in tensors.items() if k.startswith("policy.")})
    learner.value.load_state_dict({k[6:]: v.to(dev) for k, v in tensors.items() if k.startswith("value.")})
    load_optimizer(learner.opt_policy, tensors, state["optimizers"]["opt_policy"], "opt_policy")
    load_optimizer(learner.opt_value, tensors, state["optimizers"]["opt_value"], "opt_value")
    # the saved param groups carry the old learning rates; a resume with other rates anneals the run
    for opt, lr in ((learner.opt_policy, learner.cfg.lr_policy), (learner.opt_value, learner.cfg.lr_value)):
        for group in opt.param_groups:
            group["lr"] = lr
    state.pop("optimizers")
    return state




def load_state(out: str | Path) -> dict:
    """The run's counters as a resume would see them: from the checkpoint's metadata. state.json
    is written just after the checkpoint, so a kill between the two leaves it one checkpoint
    behind; it is read only for a folder that has no checkpoint file."""
    ck, js = Path(out) / "checkpoint.safetensors", Path(out) / "state.json"
    if ck.exists():
        state = checkpoint_state(ck)
        state.pop("optimizers", None)
        return state
    if not js.exists():
        raise RLTrainingError(f"no training state in {out}")
    return json.loads(js.read_text())


def checkpoint_policy(out: str | Path):
    """The learner's policy in a run's checkpoint (a run folder that has no ``final`` model yet,
    or whose checkpoint is newer), as a net in eval mode."""
    out = Path(out)
    if not (out / "checkpoint.safetensors").exists():
        raise RLTrainingError(f"no checkpoint.safetensors in {out}")
    cfg = NetConfig(**load_state(out)["config"]["policy"])
    tensors = {k.removeprefix("policy."): v for k, v in checkpoint_tensors(out, "policy.").items()}
    net = build(cfg)
    try:
        net.load_state_dict(tensors)
    except RuntimeError as e:
        raise RLTrainingError(f"{out}/checkpoint.safetensors does not hold its {cfg.layers}x{cfg.hidden} policy ({e})") from None
    return net.eval()
