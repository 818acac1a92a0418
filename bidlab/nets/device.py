"""Which torch device a command or an agent may compute on, checked before any work starts.

One home for the check, shared by ``bidlab train ... --device`` and the search agents'
``device=`` option (``bmcs:rl?device=cuda``), so both say the same thing when the installed
torch cannot use the device asked for.
"""

from __future__ import annotations

import torch

from bidlab.errors import BidlabError


class DeviceError(BidlabError):
    """A torch device that this installation of torch cannot use."""


def check_device(device: str, flag: str = "--device ") -> str:
    """``device`` if torch can compute on it here, else a :class:`DeviceError` that says why.

    ``flag`` is how the caller spells the option in its messages (``"--device "`` for the
    CLI, ``"device="`` for an agent spec)."""
    try:
        dev = torch.device(device)
    except (RuntimeError, ValueError) as e:
        raise DeviceError(f"not a torch device: {device!r} ({e}); use cpu, cuda or cuda:N") from None
    if dev.type == "cpu":
        return device
    if dev.type == "cuda":
        if torch.version.cuda is None:
            raise DeviceError(f"{flag}{device}: this torch ({torch.__version__}) is a CPU-only build without "
                              f"CUDA; use {flag}cpu, or install a CUDA build of torch")
        n = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if n == 0:
            raise DeviceError(f"{flag}{device}: torch was built with CUDA {torch.version.cuda} but finds no "
                              f"CUDA device here; use {flag}cpu")
        if dev.index is not None and dev.index >= n:
            raise DeviceError(f"{flag}{device}: only {n} CUDA device(s) here (cuda:0..cuda:{n - 1})")
        return device
    if dev.type == "mps" and not torch.backends.mps.is_available():
        raise DeviceError(f"{flag}{device}: Apple's MPS is not available here; use {flag}cpu")
    return device


def module_device(net: torch.nn.Module) -> torch.device:
    """The device a network's weights sit on (inputs are moved there before a forward)."""
    return next(net.parameters()).device
