"""Start a training command in a child process and kill -9 it once its state.json shows enough
updates: the shared start of the resume-after-kill tests (waits on the file, never on a sleep)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from bidlab.learn.a2c import load_state


def run_until_then_kill9(cmd: list[str], state: Path, key: str, at: int) -> None:
    """Run ``cmd`` until ``state`` (a run's state.json) records ``key`` >= ``at``, then SIGKILL it."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        while True:
            if proc.poll() is not None:
                raise AssertionError(proc.stderr.read().decode())
            if state.exists():
                try:
                    if json.loads(state.read_text())[key] >= at:
                        break
                except (json.JSONDecodeError, KeyError):
                    pass
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()


def run_until_updates_then_kill9(cmd: list[str], state: Path, updates: int = 20) -> dict:
    """Run ``cmd`` until ``state`` (a run's state.json) records ``updates`` or more, SIGKILL it,
    and return the state a resume continues from: the checkpoint's, which may be one checkpoint
    ahead of state.json when the kill lands between the two writes."""
    run_until_then_kill9(cmd, state, "updates", updates)
    return load_state(state.parent)
