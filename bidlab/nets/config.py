"""Configurations of the bridge networks, with the papers' sizes as named presets.

A :class:`NetConfig` fixes a network's shape and input encoding. Each kind has a
``paper`` preset (Qiu et al. 2024 Table VI; Tian et al. 2020 appendix D), a ``cpu``
preset sized for a shared 2-core machine, and a ``tiny`` one for tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bidlab.errors import BidlabError


class ModelFileError(BidlabError):
    """A model file is missing, corrupt, or not a bidlab model."""


@dataclass(frozen=True)
class NetConfig:
    """Shape of a network; ``kind`` picks the class, ``encoder`` its input features."""

    kind: str                 # "policy", "value", "belief", "jps" or "judge"
    preset: str
    input_dim: int
    hidden: int
    layers: int
    output_dim: int
    encoder: str
    extra: dict = field(default_factory=dict)


PRESETS: dict[tuple[str, str], NetConfig] = {
    ("policy", "paper"): NetConfig("policy", "paper", 480, 2048, 4, 38, "openspiel480"),
    ("policy", "cpu"): NetConfig("policy", "cpu", 480, 512, 4, 38, "openspiel480"),
    ("policy", "tiny"): NetConfig("policy", "tiny", 480, 64, 2, 38, "openspiel480"),
    ("value", "paper"): NetConfig("value", "paper", 636, 1024, 5, 1, "value636"),
    ("value", "cpu"): NetConfig("value", "cpu", 636, 512, 4, 1, "value636"),
    ("value", "tiny"): NetConfig("value", "tiny", 636, 64, 2, 1, "value636"),
    ("belief", "paper"): NetConfig("belief", "paper", 480, 1024, 4, 156, "openspiel480"),
    ("belief", "cpu"): NetConfig("belief", "cpu", 480, 512, 4, 156, "openspiel480"),
    ("belief", "tiny"): NetConfig("belief", "tiny", 480, 64, 2, 156, "openspiel480"),
    ("jps", "paper"): NetConfig("jps", "paper", 267, 200, 4, 38, "jps267"),
    ("jps", "cpu"): NetConfig("jps", "cpu", 267, 200, 4, 38, "jps267"),
    ("jps", "tiny"): NetConfig("jps", "tiny", 267, 32, 2, 38, "jps267"),
    # the doubling judge (issue 44): one player's 480 -> the IMPs doubling gains over passing
    ("judge", "paper"): NetConfig("judge", "paper", 480, 1024, 4, 1, "openspiel480"),
    ("judge", "cpu"): NetConfig("judge", "cpu", 480, 256, 3, 1, "openspiel480"),
    ("judge", "tiny"): NetConfig("judge", "tiny", 480, 32, 2, 1, "openspiel480"),
}


def preset(kind: str, name: str) -> NetConfig:
    try:
        return PRESETS[(kind, name)]
    except KeyError:
        names = sorted(p for k, p in PRESETS if k == kind)
        raise ModelFileError(f"no {kind} preset {name!r}; choose one of {', '.join(names)}") from None


def policy_paper() -> NetConfig:
    """Qiu et al.'s policy net: 480 -> 4 x 2048 GELU -> 38."""
    return PRESETS[("policy", "paper")]


def policy_cpu() -> NetConfig:
    """The shipped policy's size: 480 -> 4 x 512 GELU -> 38."""
    return PRESETS[("policy", "cpu")]
