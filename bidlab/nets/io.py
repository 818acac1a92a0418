"""Model files: ``NAME.safetensors`` (weights, config in its metadata) + ``NAME.json`` (config).

Loading never unpickles anything.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path

from torch import nn

import bidlab
from bidlab.fileio import write_bytes_atomic, write_json_atomic
from bidlab.nets.config import ModelFileError, NetConfig
from bidlab.nets.modules import build


def _config_json(cfg: NetConfig, info: dict | None) -> dict:
    return {"format": "bidlab-model", "bidlab_version": bidlab.__version__, "net": asdict(cfg),
            "info": dict(info or {})}


def model_paths(path: str | os.PathLike) -> tuple[Path, Path]:
    """(weights, config) paths of a model given either file or the stem."""
    p = Path(path)
    if p.suffix in (".safetensors", ".json"):
        p = p.with_suffix("")
    return p.with_suffix(".safetensors"), p.with_suffix(".json")


def save_model(path: str | os.PathLike, net: nn.Module, info: dict | None = None) -> Path:
    """Write ``NAME.safetensors`` and ``NAME.json`` atomically; returns the weights path."""
    from safetensors.torch import save

    weights, config = model_paths(path)
    meta = _config_json(net.cfg, info)
    tensors = {k: v.detach().to("cpu").contiguous() for k, v in net.state_dict().items()}
    write_bytes_atomic(weights, save(tensors, metadata={"bidlab": json.dumps(meta)}))
    write_json_atomic(config, meta)
    return weights


def load_model(path: str | os.PathLike, device: str = "cpu") -> tuple[nn.Module, dict]:
    """Load a model saved by :func:`save_model`; returns (network in eval mode, config JSON)."""
    from safetensors import SafetensorError
    from safetensors.torch import load

    weights, config = model_paths(path)
    if not weights.exists():
        raise ModelFileError(f"no model file {weights}")
    data = weights.read_bytes()
    try:
        tensors = load(data)
    except (SafetensorError, Exception) as e:  # a truncated or foreign file
        raise ModelFileError(f"{weights} is not a readable safetensors file ({e})") from None
    if config.exists():
        try:
            meta = json.loads(config.read_text())
        except json.JSONDecodeError as e:
            raise ModelFileError(f"{config} is not valid JSON ({e})") from None
    else:
        from safetensors import safe_open

        with safe_open(str(weights), framework="pt") as f:
            raw = (f.metadata() or {}).get("bidlab")
        if raw is None:
            raise ModelFileError(f"{weights} has no bidlab config (no {config.name} and no metadata)")
        meta = json.loads(raw)
    if meta.get("format") != "bidlab-model":
        raise ModelFileError(f"{config} is not a bidlab model config")
    other = meta.get("kind")  # a model of another family (the trick estimator) names its kind at the top
    if other is not None:
        raise ModelFileError(f"{weights} is a {other} model, not a policy, value or belief net")
    try:
        cfg = NetConfig(**meta["net"])
        net = build(cfg)
        net.load_state_dict(tensors)
    except (TypeError, KeyError, RuntimeError) as e:
        raise ModelFileError(f"{weights} does not match its config ({e})") from None
    return net.to(device).eval(), meta

def optimizer_tensors(opt, prefix: str = "opt") -> tuple[dict, dict]:
    """An optimizer's state for a safetensors checkpoint: its tensors (named
    ``PREFIX.PARAM.NAME``) and a JSON-able rest (param groups, scalar state)."""
    import torch

    sd = opt.state_dict()
    tensors, scalars = {}, {}
    for pid, st in sd["state"].items():
        for k, v in st.items():
            if torch.is_tensor(v):
                tensors[f"{prefix}.{pid}.{k}"] = v.detach().cpu().contiguous()
            else:
                scalars[f"{pid}.{k}"] = v
    return tensors, {"param_groups": sd["param_groups"], "scalars": scalars}


def load_optimizer(opt, tensors: dict, extra: dict, prefix: str = "opt") -> None:
    """Restore what :func:`optimizer_tensors` saved (``tensors`` may hold other entries too)."""
    state: dict[int, dict] = {}
    for key, v in tensors.items():
        if key.startswith(prefix + "."):
            pid, name = key[len(prefix) + 1:].split(".", 1)
            state.setdefault(int(pid), {})[name] = v
    for key, v in extra["scalars"].items():
        pid, name = key.split(".", 1)
        state.setdefault(int(pid), {})[name] = v
    opt.load_state_dict({"state": state, "param_groups": extra["param_groups"]})
