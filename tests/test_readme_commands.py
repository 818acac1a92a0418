"""Every command in the code blocks of the README and of ``docs/*.md`` runs as pasted (issue 28),
so that an example that no longer works fails CI.

Each code block is run as one bash script (``set -e``) in a fresh temporary folder, in the order
written: later commands of a block may use what earlier ones wrote, and nothing lands in the
repository (``git status`` must not change). ``bash`` blocks run whole; in ``text`` blocks the
lines that start with ``$ `` are the commands; ``python`` blocks run as a file. Long jobs run with smaller sizes (``SHRINK``,
each rule with its reason), commands that serve forever are started and checked to answer, and
the few commands that cannot run here are listed in ``SKIP`` with the reason. The README's
blocks run in the default suite; the docs pages' blocks are marked ``slow``.

Run as a script (``python tests/test_readme_commands.py listen PORT`` / ``serve ARGS...``) this
module is also the helper that the rewritten scripts call to wait for a table manager and to
check that ``bidlab serve`` answers."""

from __future__ import annotations

import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOC_PAGES = sorted((ROOT / "docs").glob("*.md"))
HELPER = Path(__file__).resolve()

# Lines never executed here, with the reason (matched as regular expressions against a command).
SKIP: dict[str, str] = {
    r"^python3 -m venv": "install lines are checked by tests/test_readme.py, not executed",
    r"^python -m pytest": "the test suite itself",
    r"bluechip connect --host": "sits at another program's table manager",
    r"^tensorboard\b": "a viewer that serves until stopped; not part of bidlab",
    r"--ray-address auto": "needs a running Ray cluster",
    r"runs/(nosearch|one|jps|start|shipped-8750|cont|belief-rl80k)\b|runs/rl/policies":
        "needs the run folders of earlier multi-hour training runs",
    r"^bidlab train tricks\b": "trains on all 46,400 train deals (minutes); it has no smaller size",
    r"^python benchmarks/(bmcs_strength|jps_table3|spades_paper_tables|bmcs_latency|partner_frontier)\.py":
        "a benchmark of an hour or more; its options are those of the tables it made",
}

# Size rules: (pattern, replacement, reason). Applied to every command before it runs.
SHRINK: list[tuple[str, str, str]] = [
    (r"(bluechip serve\b.*?)--boards \d+", r"\1--boards 1", "a Blue Chip team match of one board"),
    (r"--boards (\d{2,})", "--boards 8", "matches and expert data on 8 boards"),
    (r"-(test|validation)-\d{2,}-s(\d+)", r"-\1-8-s\2", "the folder that the shrunk match wrote"),
    (r"--games \d+", "--games 2", "Spades tournaments of 2 games"),
    (r"--minutes \d+(\.\d+)?", "--updates 2", "A2C runs of 2 learner updates"),
    (r"--updates \d+", "--updates 2", "resumed A2C runs: a budget already reached ends at once"),
    (r"--eval-every \d+", "--eval-every 1", "an evaluation within the shortened run"),
    (r"--deals \d+", "--deals 100", "belief training and plots on 100 deals"),
    (r"--rounds \d+", "--rounds 100", "Spades fits on 100 rounds"),
    (r"(dd generate\b.*?)-n \d+", r"\1-n 8", "a deal store of 8 deals"),
    (r"(bidlab train sl\b(?!.*--max-steps).*)$", r"\1 --max-steps 2", "2 training steps"),
    (r"(bidlab train belief\b.*?)--epochs \d+", r"\1--epochs 1", "one epoch (on 100 deals, see --deals)"),
    (r"(bidlab jps table1\b(?!.*--games).*)$", r"\1 --games comm:3 -k 1", "one small Table 1 column"),
    (r"--curve-boards \d+", "--curve-boards 8", "short learning curves"),
    (r"--positions \d+", "--positions 2", "two positions"),
    (r"--search-boards \d+", "--search-boards 2", "search agents' league pairings on 2 boards"),
    (r"(bidlab train exploit\b(?!.*--test-boards).*)$", r"\1 --test-boards 8", "the exploiter's test match on 8 boards"),
    (r"--distill-steps \d+", "--distill-steps 2", "two distillation steps"),
]


def code_blocks(path: Path) -> list[tuple[str, int, str]]:
    """(language, first line number, script) of each ``bash``, ``text`` or ``python`` block; a
    text block keeps only its ``$ `` lines, as commands; a python block is run as a file."""
    text = path.read_text()
    blocks = []
    for m in re.finditer(r"^```(bash|text|python)\n(.*?)^```", text, flags=re.S | re.M):
        lang, body = m.group(1), m.group(2)
        line = text.count("\n", 0, m.start()) + 1
        if lang == "text":
            body = "".join(ln[2:] + "\n" for ln in body.splitlines() if ln.startswith("$ "))
        if body.strip():
            blocks.append((lang, line, body))
    return blocks


def commands(script: str) -> list[str]:
    """The script's commands, one per line: continuations joined, comments and blanks dropped."""
    out = []
    for line in script.replace("\\\n", " ").splitlines():
        line = re.sub(r"\s+#.*$", "", line).strip()
        if line and not line.startswith("#"):
            out.append(re.sub(r"\s+", " ", line))
    return out


def skip_reason(cmd: str) -> str | None:
    return next((why for pat, why in SKIP.items() if re.search(pat, cmd)), None)


def rewrite(cmd: str, ports: tuple[int, int]) -> str:
    """One command as the test runs it: the install chain reduced to its bidlab part, sizes
    shrunk, servers checked instead of left running, Blue Chip on free ports."""
    parts = [p.strip() for p in cmd.split("&&")]
    parts = [p for p in parts if not re.match(r"(python3 -m venv|\. \.venv/bin/activate|pip install)", p)]
    if not parts:
        return ": install line"
    out = []
    for part in parts:
        if skip_reason(part):
            out.append(f": skipped {shlex.quote(part)}")
            continue
        for pat, repl, _why in SHRINK:
            part = re.sub(pat, repl, part)
        part = re.sub(r"--port 2000\b", f"--port {ports[0]}", part)
        part = re.sub(r"--port 2001\b", f"--port {ports[1]}", part)
        if re.match(r"bidlab serve\b", part):
            args = re.sub(r"--port \d+", "", part[len("bidlab serve"):]).strip()
            part = f"python {HELPER} serve {args}"
        elif re.fullmatch(r"sleep \d+(\.\d+)?", part):     # the manager's rooms are open
            part = f"python {HELPER} listen {ports[0]} $!"   # $!: the manager started just before
        elif part == "wait":                               # each background job must succeed
            part = 'for job in $(jobs -p); do wait "$job"; done'
        out.append(part)
    return " && ".join(out)


def free_port_pair() -> tuple[int, int]:
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port < 65000 and not port_taken(port + 1):
            return port, port + 1
    raise RuntimeError("no two adjacent free ports")


def port_taken(port: int) -> bool:
    """Whether something listens on ``port``, found by trying to bind it (no connection is made,
    so a table manager does not see a newcomer)."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def run_block(path: Path, lang: str, line: int, script: str, tmp_path: Path) -> None:
    ports = free_port_pair()
    if lang == "python":
        (tmp_path / "snippet.py").write_text(script)
        body = "python snippet.py"
    else:
        cmds = commands(script)
        assert cmds, f"{path.name}:{line}: an empty code block"
        body = "\n".join(rewrite(c, ports) for c in cmds)
    for name in ("checkpoints", "benchmarks"):          # what doc commands read from a checkout
        (tmp_path / name).symlink_to(ROOT / name)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               COLUMNS="200", PYTHONPATH=str(ROOT))
    before = git_status()
    # background jobs (a table manager) end with the block, even when a command of it failed
    script = "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n" + body
    proc = subprocess.Popen(["bash", "-e", "-c", script], cwd=tmp_path, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        stdout, stderr = proc.communicate()
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    r = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    where = f"{path.relative_to(ROOT)}:{line}"
    assert r.returncode == 0, f"{where} failed (exit {r.returncode}):\n{body}\n--- stdout\n{r.stdout[-3000:]}\n" \
                              f"--- stderr\n{r.stderr[-3000:]}"
    assert "Traceback" not in r.stdout + r.stderr, f"{where}:\n{r.stderr[-3000:]}"
    assert git_status() == before, f"{where} wrote into the repository:\n{body}"


def git_status() -> str:
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                          capture_output=True, text=True).stdout


def _params(paths: list[Path], marks=()):
    import pytest

    return [pytest.param(p, lang, line, script, id=f"{p.name}:{line}", marks=marks)
            for p in paths for lang, line, script in code_blocks(p)
            if lang == "python" or any(not skip_reason(c) for c in commands(script))]


if __name__ != "__main__":
    import pytest

    @pytest.mark.parametrize("path,lang,line,script", _params([README]))
    def test_readme_command_block_runs(path, lang, line, script, tmp_path):
        run_block(path, lang, line, script, tmp_path)

    @pytest.mark.slow
    @pytest.mark.parametrize("path,lang,line,script", _params(DOC_PAGES))
    def test_docs_command_block_runs(path, lang, line, script, tmp_path):
        run_block(path, lang, line, script, tmp_path)

    def test_the_readme_tour_is_covered():
        """The README shows each main feature with a command this test runs, and every skip has a
        reason (an empty list of blocks would make the tests above pass vacuously)."""
        cmds = [c for _lang, _line, s in code_blocks(README) for c in commands(s)]
        for feature in ("bidlab match", "bidlab serve", "bidlab explain", "bidlab train sl", "bidlab train rl",
                        "bidlab spades", "bidlab bluechip serve", "bidlab bluechip connect", "bidlab dd table"):
            assert any(feature in c and not skip_reason(c) for c in cmds), feature
        assert len(README.read_text().splitlines()) <= 150

    def test_explain_defaults_to_the_search_agent_the_readme_names():
        """The README's ``bidlab explain`` example leaves ``--agent`` to its default and says which
        agent that is; the command's default must be that agent (it was ``bmcs:sl`` while every
        example used ``bmcs:rl``)."""
        import inspect

        from bidlab.cli.search import explain

        said = re.search(r"`--agent` defaults to `([^`]+)`", " ".join(README.read_text().split()))
        assert said, "the README no longer says which agent explain uses by default"
        default = inspect.signature(explain).parameters["agent"].default.default
        assert default == said.group(1)
        for p in [README, *DOC_PAGES]:       # examples that name an agent search over the same policy
            for _l, _n, s in code_blocks(p):
                for c in commands(s):
                    for agent in re.findall(r"bidlab explain .*--agent (\S+)", c):
                        assert agent.split("?")[0] in {default, "mcs:rl"}, (p.name, agent)

    def test_the_dd_table_examples_are_full_deals():
        """Every ``bidlab dd table "DEAL"`` the README or a docs page shows, in a code block or in
        the text, is a complete deal (the old README's was 'N:AKQ2.J3.T98.7654 ...')."""
        from bidlab.cards import Deal

        shown = [d for p in [README, *DOC_PAGES] for d in re.findall(r'bidlab dd table "([^"]*)"', p.read_text())]
        assert any(d for d in re.findall(r'bidlab dd table "([^"]*)"', README.read_text()))
        for deal in shown:
            Deal.parse(deal)


    def test_links_between_the_pages_resolve():
        """Every relative link and figure of the README and the docs pages names a file that
        exists (pages moved into docs/ link to each other and to the figures beside them)."""
        for page in [README, *DOC_PAGES]:
            for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
                if re.match(r"[a-z]+:", target) or target.startswith("#"):
                    continue
                assert (page.parent / target.split("#")[0]).exists(), (page.name, target)


def _serve(args: list[str]) -> None:
    """Start ``bidlab serve ARGS`` on a free port, check that its page answers, stop it."""
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(["bidlab", "serve", *args, "--port", str(port)])
    try:
        while not port_taken(port):
            if proc.poll() is not None:
                sys.exit(f"bidlab serve exited with {proc.returncode} before listening")
            time.sleep(0.2)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as page:
            assert page.status == 200 and b"<html" in page.read().lower()
        print(f"bidlab serve answered on port {port}")
    finally:
        proc.terminate()
        proc.wait()


def _listen(port: int, pid: int) -> None:
    """Wait until the table manager (process ``pid``) listens on ``port``; fail if it exits."""
    while not port_taken(port):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            sys.exit(f"the table manager (pid {pid}) exited before listening on {port}")
        time.sleep(0.2)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        _serve(sys.argv[2:])
    elif sys.argv[1] == "listen":
        _listen(int(sys.argv[2]), int(sys.argv[3]))
