"""Task functions for the executor tests (spawned workers import them from here)."""

import os
import threading
import time
from pathlib import Path


def square(x):
    return x * x


def fail_on(x):
    if x == 3:
        raise ValueError("task 3 failed")
    time.sleep(0.01)
    return x


def thread_limits(_):
    import signal

    import torch

    ignores_ctrl_c = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    return os.environ.get("OMP_NUM_THREADS"), torch.get_num_threads(), ignores_ctrl_c, os.getpid()


def block_forever(args):
    """Say that this task started (a marker file with the worker's pid), then never finish."""
    folder, k = args
    Path(folder, f"started-{k}-{os.getpid()}").write_text("")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:  # a worker must never see the terminal's Ctrl-C
        Path(folder, f"interrupted-{k}").write_text("")
        raise


def pid(_):
    return os.getpid()
