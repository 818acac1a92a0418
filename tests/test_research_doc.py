"""Every Python example of docs/research.md runs as written (each in a fresh folder, as a
file), and prints what it says it prints."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "research.md"


def _blocks() -> list[tuple[int, str]]:
    text = PAGE.read_text()
    return [(text.count("\n", 0, m.start()) + 1, m.group(1))
            for m in re.finditer(r"^```python\n(.*?)^```", text, flags=re.S | re.M)]


def test_the_page_has_its_examples():
    assert len(_blocks()) >= 6


@pytest.mark.parametrize("line,code", _blocks(), ids=[f"line{n}" for n, _ in _blocks()])
def test_example_runs(line, code, tmp_path):
    script = tmp_path / "example.py"
    script.write_text(code)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, f"docs/research.md line {line}:\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), "each example prints its result"
