"""The executor: results in the parent, errors and Ctrl-C stop the workers, one thread per worker."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from bidlab.runtime.executor import ExecutorConfig, ExecutorError, imap_unordered, run_tasks
from tests.runtime import _tasks


@pytest.mark.parametrize("backend", ["serial", "thread", "process"])
def test_every_result_comes_back_to_the_parent(backend):
    seen = []
    caller = threading.get_ident()

    def on_result(r):
        assert threading.get_ident() == caller  # the parent alone handles (writes) results
        seen.append(r)

    n = run_tasks(_tasks.square, range(7), on_result, ExecutorConfig(backend=backend, workers=2))
    assert n == 7 and sorted(seen) == [x * x for x in range(7)]


def test_process_workers_are_other_processes_with_one_numeric_thread(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    out = list(imap_unordered(_tasks.thread_limits, range(2), ExecutorConfig("process", workers=2)))
    assert {(env, threads, ignores_ctrl_c) for env, threads, ignores_ctrl_c, _ in out} == {("1", 1, True)}
    assert os.getpid() not in {p for *_, p in out}
    # The parent keeps its own settings and its Ctrl-C handler.
    assert os.environ["OMP_NUM_THREADS"] == "2"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.parametrize("backend", ["thread", "process"])
def test_a_failing_task_raises_in_the_parent(backend):
    with pytest.raises(ValueError, match="task 3 failed"):
        run_tasks(_tasks.fail_on, range(6), lambda r: None, ExecutorConfig(backend=backend, workers=2))


def test_an_error_in_on_result_stops_the_job():
    got = []

    def on_result(r):
        got.append(r)
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        run_tasks(_tasks.square, range(50), on_result, ExecutorConfig("thread", workers=2))
    assert len(got) == 1


def test_bad_configurations_are_one_line_errors():
    with pytest.raises(ExecutorError, match="unknown executor backend 'gpu'"):
        ExecutorConfig(backend="gpu")
    with pytest.raises(ExecutorError, match="workers must be >= 1"):
        ExecutorConfig(workers=0)


def test_ctrl_c_stops_workers_and_prints_no_traceback(tmp_path):
    """SIGINT to the whole process group, as a terminal sends it: the parent gets one
    KeyboardInterrupt, the workers print nothing and are stopped, not waited for."""
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {os.getcwd()!r})
        from bidlab.runtime.executor import ExecutorConfig, run_tasks
        from tests.runtime import _tasks
        if __name__ == "__main__":
            try:
                run_tasks(_tasks.block_forever, [({str(tmp_path)!r}, k) for k in range(6)], print,
                          ExecutorConfig("process", workers=2))
            except KeyboardInterrupt:
                print("interrupted", file=sys.stderr)
                sys.exit(130)
    """)
    (tmp_path / "job.py").write_text(script)
    proc = subprocess.Popen([sys.executable, str(tmp_path / "job.py")], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    while len(list(tmp_path.glob("started-*"))) < 2:  # both workers are inside a task
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=300)  # a hang guard only: stopped workers end at once
    assert proc.returncode == 130, err
    assert err.strip() == "interrupted", err
    for marker in tmp_path.glob("started-*"):
        worker = int(marker.name.rsplit("-", 1)[1])
        with pytest.raises(ProcessLookupError):
            os.kill(worker, 0)
    assert len(list(tmp_path.glob("started-*"))) == 2  # the other tasks were cancelled, never started
    assert not list(tmp_path.glob("interrupted-*"))
