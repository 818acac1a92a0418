"""The progress display: plain lines off a terminal, the counts adapter, the null task."""

import io

from rich.console import Console

from bidlab.runtime.progress import (
    CountingProgress,
    NullProgress,
    ProgressTask,
    from_counts,
    progress_display,
)


def test_plain_lines_when_output_is_not_a_terminal():
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=False, width=200)
    with progress_display(console, every=3600) as display:
        task = display.task("solving deals")
        task.start(10, 4)          # a resumed job: 4 of 10 already done
        task.note("loss 0.5")
        task.advance(3)            # throttled: no line before `every` seconds ...
        task.advance(3)            # ... except when the job is finished
    lines = buf.getvalue().splitlines()
    assert lines[0] == "solving deals: 4/10"
    assert lines[1].startswith("solving deals: 10/10  elapsed") and lines[1].endswith("loss 0.5")
    assert len(lines) == 2


def test_from_counts_drives_a_task_from_done_total_reports():
    task = CountingProgress()
    report = from_counts(task)
    report(50, 200)
    report(100, 200)
    report(100, 200)
    report(200, 200)
    assert (task.total, task.done) == (200, 200)


def test_tasks_satisfy_the_protocol():
    assert isinstance(NullProgress(), ProgressTask) and isinstance(CountingProgress(), ProgressTask)
    with progress_display(Console(file=io.StringIO())) as display:
        assert isinstance(display.task("x", total=3), ProgressTask)
