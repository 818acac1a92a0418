"""``bidlab results``: the results registry (:mod:`bidlab.eval.measurements`): list the
stored measurements and which are stale, re-measure the stale ones, refill the documents'
quoted numbers, check the documents."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import typer
from rich.console import Console

from bidlab.cli import app
from bidlab.eval.measurements import repository_root

console = Console()


def register_option() -> object:
    return typer.Option(None, "--register", metavar="NAME",
                        help="Store the result in the results registry as measurement NAME (docs/results.jsonl, "
                        "or $BIDLAB_REGISTRY), with the fingerprints of the agents measured.")


@app.command()
def results(
    rerun: bool = typer.Option(False, "--rerun", help="Re-measure every stale measurement (runs its command again)."),
    write_docs: bool = typer.Option(False, "--write-docs", help="Refill the numbers quoted from the registry in "
                                    "README.md and docs/*.md (the only way they are written)."),
    check: bool = typer.Option(False, "--check", help="List every number in README.md and docs/ that does not come "
                               "from the registry, or quotes a stale measurement; exit 1 if any."),
    registry: Path = typer.Option(None, help="Registry file (default docs/results.jsonl of this clone, or "
                                  "$BIDLAB_REGISTRY)."),
) -> None:
    """The stored measurements behind the numbers in README.md and docs/, and which are stale.

    A measurement is stale when an agent it measured changed after it was measured (other
    weights, other SAYC rules: its fingerprint differs). Writes nothing unless --rerun or
    --write-docs asks."""
    from bidlab.eval import measurements as reg

    path = registry or reg.default_registry()
    stored = reg.load(path)
    stale = reg.stale(stored)
    if rerun and stale:
        for name in sorted(stale):
            _rerun(stored[name], path)
        stored = reg.load(path)
        stale = reg.stale(stored)
    rows = [("name", "kind", "result", "split / boards", "measured", "status")]
    for name in sorted(stored):
        m = stored[name]
        where = " / ".join(str(x) for x in (m.split, None if m.boards is None else f"{m.boards:,}") if x)
        status = "stale: " + ", ".join(stale[name]) + " changed" if name in stale else "current"
        rows.append((name, m.kind, reg.format_value(m), where, f"{m.measured[:10]} {m.commit}".strip(), status))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for r in rows:  # plain lines: never cut, whatever the width of the terminal or pipe
        console.print("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[5], highlight=False, markup=False,
                      soft_wrap=True)
    console.print(f"{len(stored)} measurements in {path}; {len(stale)} stale"
                  + (" (bidlab results --rerun re-measures them)" if stale else ""), highlight=False)
    if write_docs:
        changed = reg.write_documents(reg.documents(), stored)
        console.print(f"rewrote {len(changed)} documents" + "".join(f"\n  {p}" for p in changed), highlight=False)
    if check:
        problems = reg.check_documents(reg.documents(), stored)
        for problem in problems:
            console.print(str(problem), highlight=False, markup=False)
        console.print(f"{len(problems)} problems in README.md and docs/", highlight=False)
        if problems:
            raise typer.Exit(1)


def _rerun(m, path: Path) -> None:
    """Run the measurement's command again with ``--register NAME``, in a scratch folder
    (so that no stored match folder of the old agent is found), storing into ``path``."""
    words = shlex.split(m.command)
    if len(words) > 1 and words[0] in ("python", "python3") and words[1].startswith("benchmarks/"):
        _rerun_script(m, words[1:], path)
        return
    if not words or words[0] != "bidlab":
        console.print(f"{m.name}: cannot rerun {m.command!r} (not a bidlab command); measure it again and "
                      "store it with bidlab.eval.measurements.record()", highlight=False)
        return
    console.print(f"re-measuring {m.name}: {m.command}", highlight=False)
    env = dict(os.environ, BIDLAB_REGISTRY=str(Path(path).resolve()))
    with tempfile.TemporaryDirectory(prefix="bidlab-rerun-") as scratch:
        cmd = [sys.executable, "-c", "from bidlab.cli import main; main()", *words[1:], "--register", m.name]
        done = subprocess.run(cmd, cwd=scratch, env=env)
    if done.returncode != 0:
        console.print(f"{m.name}: the rerun failed (exit {done.returncode}); it stays stale", highlight=False)


def _rerun_script(m, words: list[str], path: Path) -> None:
    """A measurement made by one of the repository's benchmark scripts: run it again from the
    clone's root with ``--register NAME`` (the scripts write nothing else unless asked)."""
    script = repository_root() / words[0]
    if not script.is_file():
        console.print(f"{m.name}: cannot rerun {m.command!r}: {script} is not here (an installed bidlab "
                      "has no benchmarks/; rerun from a clone)", highlight=False)
        return
    console.print(f"re-measuring {m.name}: {m.command}", highlight=False)
    env = dict(os.environ, BIDLAB_REGISTRY=str(Path(path).resolve()))
    done = subprocess.run([sys.executable, str(script), *words[1:], "--register", m.name],
                          cwd=repository_root(), env=env)
    if done.returncode != 0:
        console.print(f"{m.name}: the rerun failed (exit {done.returncode}); it stays stale", highlight=False)
