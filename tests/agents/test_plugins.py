"""Your own agent, first class: a kind registered in ``python -c``, one loaded with
``--import MODULE``, one an installed package declares by entry point, and the built-in
search kinds, each seated in a match the way a user would (a fresh Python process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
CLI = "from bidlab.cli import main; main()"


def _env(*paths: Path) -> dict:
    extra = [str(p) for p in paths] + [str(ROOT)]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(extra + [os.environ.get("PYTHONPATH", "")]))


def _run(args: list[str], cwd: Path, *paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env=_env(*paths), capture_output=True, text=True, timeout=600)


# A bot that passes, except that it opens 1C when it holds the ace of clubs; deterministic,
# no weights.
BOT = textwrap.dedent("""
    import numpy as np
    from bidlab.agents.registry import register
    from bidlab.envs.rollout import Decision

    class AceBot:
        name = "acebot"
        deterministic = True
        def decide(self, state, explain=False):
            ace_of_clubs = 12  # card index suit*13 + rank, clubs first, 2 low
            mine = state.deals[:, ace_of_clubs] == state.to_act
            opening = state.length == 0
            return Decision(np.where(mine & opening, 3, 0).astype(np.int64))

    def make(arg, seed):
        return AceBot()
""")


def test_an_agent_defined_in_python_c_plays_a_match_with_two_workers(tmp_path):
    code = BOT + textwrap.dedent("""
        register("acebot", "passes, or opens 1C with the ace of clubs", make)
        from bidlab.eval.match import Match, MatchConfig
        s = Match(MatchConfig("acebot", "sayc", boards=12, chunk_size=4), "m").run(workers=2)
        print("BOARDS", s.boards)
    """)
    done = _run([sys.executable, "-c", code], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "BOARDS 12" in done.stdout
    # no source: said once, and the folder is never reused for it
    assert done.stderr.count("UserWarning: agent 'acebot' has no fingerprint") == 1
    again = _run([sys.executable, "-c", code], tmp_path)
    assert again.returncode != 0 and "never reused" in again.stderr


def test_match_import_module_seats_the_module_agent_in_two_worker_processes(tmp_path):
    (tmp_path / "mybots.py").write_text(BOT + textwrap.dedent("""
        import os
        def make_logged(arg, seed):
            open(f"built-{os.getpid()}", "w").close()  # which processes built it
            return AceBot()
        register("acebot", "passes, or opens 1C with the ace of clubs", make_logged)
    """))
    done = _run([sys.executable, "-c", CLI, "match", "--import", "mybots", "acebot", "sayc", "--boards", "8",
                 "--chunk-size", "2", "--workers", "2", "--out", "m"], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "acebot vs sayc" in done.stdout
    header = json.loads((tmp_path / "m" / "results.jsonl").read_text().splitlines()[0])
    assert header["config"]["agent_a"] == "acebot"
    # built in the parent (spec check, fingerprint) and in at least one spawned worker
    pids = {p.name for p in tmp_path.glob("built-*")}
    assert len(pids) >= 2, pids


def test_an_unknown_module_in_import_is_one_line(tmp_path):
    done = _run([sys.executable, "-c", CLI, "match", "--import", "no_such_bots", "acebot", "sayc"], tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "no_such_bots" in done.stderr
    assert not (tmp_path / "results").exists()


def test_an_installed_package_registers_an_agent_by_entry_point(tmp_path):
    site = tmp_path / "site"
    (site / "tinybots").mkdir(parents=True)
    (site / "tinybots" / "__init__.py").write_text(BOT.replace("from bidlab.agents.registry import register\n", ""))
    info = site / "tinybots-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tinybots\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[bidlab.agents]\ntiny = tinybots:make\n")
    work = tmp_path / "work"
    work.mkdir()
    done = _run([sys.executable, "-c", CLI, "match", "tiny", "sayc", "--boards", "4", "--chunk-size", "2",
                 "--workers", "2", "--out", "m"], work, site)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "tiny vs sayc" in done.stdout
    listed = _run([sys.executable, "-c", "from bidlab.agents.registry import known_kinds; "
                   "print({k.prefix: k.origin for k in known_kinds()})"], work, site)
    assert "'tiny': 'entry point'" in listed.stdout


def test_the_search_kinds_resolve_with_no_import_of_bidlab_search(tmp_path):
    code = ("import sys\nfrom bidlab.agents.registry import make_agent\n"
            "assert 'bidlab.search' not in sys.modules\n"
            "for spec in ('bmcs:rl', 'mcs:rl', 'jps:rl'):\n    print(type(make_agent(spec)).__name__)\n")
    done = _run([sys.executable, "-c", code], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["SearchAgent", "SearchAgent", "JPSAgent"]


def test_changing_an_agents_weights_means_the_stored_match_is_not_reused(tmp_path):
    """A custom agent without its own fingerprint() is hashed by its class's code and the
    weights it holds (here a numpy array read from a file): new weights, same code, same
    folder -> the stored match is refused, not returned."""
    (tmp_path / "weighted.py").write_text(textwrap.dedent("""
        import numpy as np
        from bidlab.agents.registry import register
        from bidlab.envs.rollout import Decision

        class Weighted:
            deterministic = True
            def __init__(self, path):
                self.weights = np.load(path)   # one number per call: it bids the best legal one
            def decide(self, state, explain=False):
                mask = state.legal
                scores = np.where(mask, self.weights[None, :], -np.inf)
                return Decision(scores.argmax(axis=1).astype(np.int64))

        register("weighted", "bids the legal call of highest weight", lambda arg, seed: Weighted(arg))
    """).replace('register("weighted", "bids the legal call of highest weight", lambda arg, seed: Weighted(arg))',
                 'def make(arg, seed):\n    return Weighted(arg)\n\n\nregister("weighted", "bids by weight", make)'))
    weights = tmp_path / "w.npy"
    w = np.zeros(38)
    w[0] = 1.0  # pass
    np.save(weights, w)
    args = [sys.executable, "-c", CLI, "match", "--import", "weighted", f"weighted:{weights}", "sayc",
            "--boards", "4", "--workers", "1", "--out", "m"]
    first = _run(args, tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    again = _run(args, tmp_path)  # same weights: the stored match is read back
    assert again.returncode == 0 and first.stdout.splitlines()[-3] == again.stdout.splitlines()[-3]
    w[5] = 2.0  # 1NT... any other call: the agent bids differently now
    np.save(weights, w)
    changed = _run(args, tmp_path)
    assert changed.returncode == 2
    assert "holds games of an earlier" in changed.stderr


def test_an_unknown_kind_says_how_to_add_one():
    from bidlab.agents.registry import AgentSpecError, make_agent

    with pytest.raises(AgentSpecError, match="--import MODULE"):
        make_agent("mybot:1")


@pytest.mark.slow
def test_an_agent_defined_in_python_c_plays_on_ray_tasks(tmp_path):
    """Ray pickles the factory by value (cloudpickle), so a REPL agent reaches its tasks."""
    pytest.importorskip("ray")
    code = BOT + textwrap.dedent("""
        register("acebot", "passes, or opens 1C with the ace of clubs", make)
        from bidlab.eval.match import Match, MatchConfig
        from bidlab.runtime.executor import ExecutorConfig
        m = Match(MatchConfig("acebot", "sayc", boards=4, chunk_size=2), "m")
        print("BOARDS", m.run(executor=ExecutorConfig("ray", 2)).boards)
    """)
    done = _run([sys.executable, "-c", code], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "BOARDS 4" in done.stdout


class _OwnPrint:
    """An agent that names its own fingerprint (as one would from its weights file's hash)."""

    deterministic = True
    version = "weights-v1"

    def fingerprint(self) -> str:
        return self.version

    def decide(self, state, explain=False):
        from bidlab.envs.rollout import Decision

        return Decision(np.zeros(state.n, np.int64))


def test_an_agent_may_supply_its_own_fingerprint(monkeypatch):
    from bidlab.agents.registry import _KINDS, register
    from bidlab.eval.fingerprint import agent_fingerprint

    monkeypatch.setitem(_KINDS, "ownprint", None)  # restored (removed) after the test
    register("ownprint", "passes; fingerprint of its own", lambda arg, seed: _OwnPrint())
    first = agent_fingerprint("ownprint")
    assert first == agent_fingerprint("ownprint")
    monkeypatch.setattr(_OwnPrint, "version", "weights-v2")
    assert agent_fingerprint("ownprint") not in (None, first)
