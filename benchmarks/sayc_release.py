"""The SAYC bidder of an earlier commit, loaded beside the current one (benchmarks only).

``git archive COMMIT bidlab/agents/sayc`` is unpacked into a temporary folder as a
package renamed ``sayc_<commit>`` (its ``bidlab.agents.sayc`` imports rewritten), so
both bidders run in one process with their own rule registries and caches. The old
bidder is registered as the agent ``sayc_<commit>`` only by the script that asks for it
(never in library code), so it can meet the current ``sayc`` in ``bidlab.eval.match``.

    from sayc_release import register_release
    spec = register_release("c58ef9b")   # -> "sayc_c58ef9b"
"""

from __future__ import annotations

import importlib
import io
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from bidlab.agents.base import BiddingView, ViewPolicy
from bidlab.agents.registry import register
from bidlab.bridge.calls import Call

REPO = Path(__file__).resolve().parent.parent
BASE_COMMIT = "c58ef9b"  # the previous release's SAYC bidder (before issue 21)
_LOADED: dict[str, object] = {}


def load_release(commit: str = BASE_COMMIT):
    """The ``bidlab.agents.sayc`` package as it was at ``commit``, imported as ``sayc_<commit>``."""
    name = f"sayc_{commit}"
    if name in _LOADED:
        return _LOADED[name]
    try:
        blob = subprocess.run(["git", "-C", str(REPO), "archive", commit, "bidlab/agents/sayc"],
                              check=True, capture_output=True).stdout
    except subprocess.CalledProcessError as e:
        raise SystemExit(f"git archive {commit} failed: {e.stderr.decode().strip()}") from None
    root = Path(tempfile.mkdtemp(prefix="sayc_release_"))
    pkg = root / name
    pkg.mkdir()
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.endswith(".py"):
                text = tar.extractfile(member).read().decode()
                text = text.replace("bidlab.agents.sayc", name)
                (pkg / Path(member.name).name).write_text(text)
    sys.path.insert(0, str(root))
    module = importlib.import_module(name)
    _LOADED[name] = module
    return module


class ReleaseSayc(ViewPolicy):
    """An earlier commit's SAYC bidder behind the current agent interface."""

    def __init__(self, commit: str = BASE_COMMIT):
        self._agent = load_release(commit).SaycAgent()
        self.name = f"sayc_{commit}"

    def act(self, view: BiddingView) -> Call:
        return self._agent.act(view)

    def explain(self, view: BiddingView) -> str:
        return self._agent.explain(view)


def register_release(commit: str = BASE_COMMIT) -> str:
    """Register the agent spec ``sayc_<commit>`` in this process; returns the spec."""
    load_release(commit)
    spec = f"sayc_{commit}"

    def factory(arg: str, seed: int):
        if arg:
            raise SystemExit(f"{spec} takes no argument, got {arg!r}")
        return ReleaseSayc(commit)

    register(spec, f"the SAYC bidder of commit {commit}", factory)
    return spec
