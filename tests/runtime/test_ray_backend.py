"""The Ray executor backend: same results as the local backend for the executor itself,
`bidlab dd generate` and `bidlab match`, and one-line errors when Ray cannot be used.

One local Ray session (one CPU) serves every test of this module: starting Ray costs seconds.
"""

from __future__ import annotations

import socket
import sys

import numpy as np
import pytest
from typer.testing import CliRunner

from bidlab.cli import app, main
from bidlab.runtime.executor import ExecutorConfig, ExecutorError, cli_executor, connect_ray, run_tasks
from tests.runtime import _tasks

runner = CliRunner()


@pytest.fixture(scope="module")
def ray_session():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def _closed_port() -> int:
    """A local port nobody listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_ray_tasks_return_every_result_to_the_parent(ray_session):
    seen = []
    n = run_tasks(_tasks.square, range(7), seen.append, ExecutorConfig("ray", workers=2))
    assert n == 7 and sorted(seen) == [x * x for x in range(7)]
    # the tasks ran in Ray worker processes, each with one numeric thread
    out = []
    run_tasks(_tasks.thread_limits, range(2), out.append, ExecutorConfig("ray", workers=2))
    assert {(env, threads) for env, threads, _, _ in out} == {("1", 1)}


def test_a_failing_ray_task_raises_its_error_in_the_parent(ray_session):
    with pytest.raises(ValueError, match="task 3 failed"):
        run_tasks(_tasks.fail_on, range(6), lambda r: None, ExecutorConfig("ray", workers=2))


def test_dd_generate_on_ray_makes_the_local_store(ray_session, tmp_path):
    from bidlab.dd import DealStore

    local, remote = tmp_path / "local", tmp_path / "ray"
    args = ["dd", "generate", "-n", "3", "--shard-size", "2", "--seed", "5", "--threads", "1"]
    r1 = runner.invoke(app, [*args, "--out", str(local)])
    r2 = runner.invoke(app, [*args, "--out", str(remote), "--backend", "ray", "--workers", "2"])
    assert r1.exit_code == 0, r1.output
    assert r2.exit_code == 0, r2.output
    a, b = DealStore.open(local), DealStore.open(remote)
    for x, y in zip(a.load("all"), b.load("all"), strict=True):
        np.testing.assert_array_equal(x, y)
    assert [(s.first_id, s.count) for s in a.shards] == [(s.first_id, s.count) for s in b.shards] == \
        [(0, 2), (2, 1)]


def test_match_on_ray_gives_the_local_results(ray_session, tmp_path):
    from bidlab.eval.match import load_results

    args = ["match", "random:3", "sayc", "--boards", "6", "--chunk-size", "2", "--seed", "4"]
    r1 = runner.invoke(app, [*args, "--out", str(tmp_path / "local"), "--workers", "1"])
    r2 = runner.invoke(app, [*args, "--out", str(tmp_path / "ray"), "--backend", "ray"])
    assert r1.exit_code == 0, r1.output
    assert r2.exit_code == 0, r2.output
    h1, rec1 = load_results(tmp_path / "local")
    h2, rec2 = load_results(tmp_path / "ray")
    assert rec1 == rec2 and len(rec1) == 6
    assert h1["deal_ids"] == h2["deal_ids"]
    line = [x for x in r1.output.splitlines() if "IMPs/board" in x]
    assert line and line == [x for x in r2.output.splitlines() if "IMPs/board" in x]


COMMANDS = {
    "match": ["match", "sayc", "sayc", "--boards", "2", "--out"],
    "dd generate": ["dd", "generate", "-n", "2", "--out"],
}


def _one_line_error(argv, capsys) -> str:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("command", COMMANDS)
def test_an_unreachable_ray_address_is_a_one_line_error(tmp_path, capsys, command):
    port = _closed_port()
    with pytest.raises(ExecutorError, match=f"cannot reach the Ray cluster at 127.0.0.1:{port}"):
        connect_ray(f"127.0.0.1:{port}")
    out = tmp_path / "out"
    err = _one_line_error([*COMMANDS[command], str(out), "--backend", "ray", "--ray-address", f"127.0.0.1:{port}"],
                          capsys)
    assert f"cannot reach the Ray cluster at 127.0.0.1:{port}" in err
    assert not out.exists()  # nothing written before the connection failed


@pytest.mark.parametrize("command", COMMANDS)
def test_bad_backend_options_on_the_command_line(tmp_path, capsys, command):
    out = tmp_path / "out"
    assert "unknown backend 'mpi'; choose local or ray" in _one_line_error(
        [*COMMANDS[command], str(out), "--backend", "mpi"], capsys)
    assert "--ray-address needs --backend ray" in _one_line_error(
        [*COMMANDS[command], str(out), "--ray-address", "auto"], capsys)
    assert not out.exists()


def test_missing_ray_and_bad_backend_options_are_clear_errors(monkeypatch):
    with pytest.raises(ExecutorError, match="unknown backend 'mpi'; choose local or ray"):
        cli_executor("mpi", 2)
    with pytest.raises(ExecutorError, match="--ray-address needs --backend ray"):
        cli_executor("local", 2, "auto")
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` then fails as if ray were not installed
    with pytest.raises(ExecutorError, match=r"needs ray: pip install 'bidlab\[ray\]'"):
        run_tasks(_tasks.square, range(3), print, ExecutorConfig("ray", workers=2))


@pytest.mark.slow  # ~25 s: a Ray actor process loads torch and the deal store
def test_rl_ray_actors_hold_the_replay_ratio(ray_session, tmp_path):
    """The A2C Ray actors share this module's Ray session (connect_ray) and obey --replay-ratio:
    one batch in flight per actor, so the bounds of the local test hold."""
    from bidlab.learn.a2c import A2CConfig, train_rl

    cfg = A2CConfig.tiny(eval_every=1000, replay_ratio=0.5)
    state = train_rl(tmp_path, cfg, init=None, updates=10, backend="ray")
    run = state["this_run"]
    after, learned = run["generated"] - cfg.burn_in, run["learned"]
    assert learned == 10 * cfg.batch_size
    assert (learned - 2 * cfg.batch_size) / 0.5 <= after <= learned / 0.5 + run["largest_batch"]
