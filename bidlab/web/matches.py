"""The matches view: result folders written by ``bidlab match``, their summaries and plots.

Requests name a match by the folder's path relative to the results directory, and only a
name that the listing itself produced is ever opened; plots are built by
:func:`bidlab.eval.report.build_report` into a private cache folder and served by file name
from that folder's own listing. No request can make the server read any other path.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import shutil
import tempfile
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path

from bidlab.errors import BidlabError
from bidlab.eval.match import MatchSummary, load_results, summarize
from bidlab.web.table import WebError

RESULTS_FILE = "results.jsonl"
MATCH_FILE = "match.json"
MAX_DEPTH = 3
MAX_MATCHES = 500
MAX_BOARD_ROWS = 500   # boards per page of a match's board list
PLOT_NAME = re.compile(r"^[A-Za-z0-9_.-]+\.png$")


class UnknownMatchError(WebError):
    status = 404


@dataclass(frozen=True, slots=True)
class MatchEntry:
    name: str
    path: Path            # the folder holding results.jsonl
    mtime_ns: int
    summary: MatchSummary
    records: tuple[dict, ...]


@dataclass(frozen=True, slots=True)
class InterruptedMatch:
    """A match folder with its ``match.json`` but no results file: stopped before its last board."""

    name: str
    path: Path
    mtime_ns: int
    agent_a: str
    agent_b: str
    boards: int
    boards_done: int | None
    config: dict

    def rerun_command(self) -> str:
        """The ``bidlab match`` command that resumes it (the same settings, or it refuses the folder)."""
        import shlex

        c = self.config
        parts = ["bidlab", "match", self.agent_a, self.agent_b, "--boards", str(self.boards)]
        for key, option in (("split", "--split"), ("seed", "--seed"), ("chunk_size", "--chunk-size"),
                            ("store", "--store")):
            if c.get(key) is not None:
                parts += [option, str(c[key])]
        parts += ["--out", str(self.path)]
        return shlex.join(parts)


class MatchLibrary:
    """Result folders under one results directory, read lazily and cached by modification time."""

    def __init__(self, results_dir: str | Path):
        self.root = Path(results_dir).resolve()
        self._cache: dict[Path, MatchEntry] = {}
        self._errors: dict[Path, tuple[int, str]] = {}
        self._lock = threading.Lock()
        self._report_lock = threading.Lock()
        self._reports = Path(tempfile.mkdtemp(prefix="bidlab-web-reports-"))
        weakref.finalize(self, shutil.rmtree, self._reports, True)

    def close(self) -> None:
        """Remove the cached reports (they are rebuilt on demand)."""
        with self._report_lock:
            shutil.rmtree(self._reports, ignore_errors=True)

    def _folders(self) -> list[Path]:
        if not self.root.is_dir():
            return []
        out = []
        for depth in range(MAX_DEPTH + 1):
            pattern = "/".join(["*"] * depth + [RESULTS_FILE])
            for f in sorted(self.root.glob(pattern)):
                folder = f.parent.resolve()
                # A symlink leading out of the results directory is not listed, so never opened.
                if f.is_file() and folder.is_relative_to(self.root):
                    out.append(folder)
                if len(out) >= MAX_MATCHES:
                    return out
        return out

    def scan(self) -> tuple[list[MatchEntry], list[str]]:
        """Every readable match, newest first, and a message per unreadable folder."""
        entries, errors = [], []
        with self._lock:
            for folder in self._folders():
                name = folder.relative_to(self.root).as_posix() or "."
                try:
                    mtime = (folder / RESULTS_FILE).stat().st_mtime_ns
                except OSError:
                    continue
                cached = self._cache.get(folder)
                if cached is not None and cached.mtime_ns == mtime:
                    entries.append(cached)
                    continue
                err = self._errors.get(folder)
                if err is not None and err[0] == mtime:
                    errors.append(err[1])
                    continue
                try:
                    entry = self._read(name, folder, mtime)
                except Exception as e:  # an odd file in results/ must not break the listing
                    msg = f"{name}: {e}"
                    self._errors[folder] = (mtime, msg)
                    errors.append(msg)
                    continue
                self._cache[folder] = entry
                entries.append(entry)
        entries.sort(key=lambda e: -e.mtime_ns)
        return entries, errors

    def interrupted(self) -> list[InterruptedMatch]:
        """Match folders that were stopped before their last board (a ``match.json`` and no
        results file), newest first, with how many boards their finished chunks hold. Only read:
        the folder is the user's to resume."""
        if not self.root.is_dir():
            return []
        out = []
        for depth in range(MAX_DEPTH + 1):
            for f in sorted(self.root.glob("/".join(["*"] * depth + [MATCH_FILE]))):
                folder = f.parent.resolve()
                if not f.is_file() or not folder.is_relative_to(self.root) or (folder / RESULTS_FILE).exists():
                    continue
                try:
                    header = json.loads(f.read_text())
                    cfg = header["config"]
                    entry = InterruptedMatch(
                        folder.relative_to(self.root).as_posix() or ".", folder, f.stat().st_mtime_ns,
                        str(cfg["agent_a"]), str(cfg["agent_b"]), int(cfg["boards"]), _boards_done(folder), dict(cfg))
                except (OSError, ValueError, KeyError, TypeError):
                    continue  # not a match folder of ours
                out.append(entry)
                if len(out) >= MAX_MATCHES:
                    break
        out.sort(key=lambda m: -m.mtime_ns)
        return out

    @staticmethod
    def _read(name: str, folder: Path, mtime: int) -> MatchEntry:
        header, records = load_results(folder)
        if not records:
            raise BidlabError("the results file holds no boards")
        cfg = header.get("config", {})
        summary = summarize(records, str(cfg.get("agent_a", "A")), str(cfg.get("agent_b", "B")))
        return MatchEntry(name, folder, mtime, summary, tuple(records))

    def get(self, name: str) -> MatchEntry:
        entries, _ = self.scan()
        for e in entries:
            if e.name == name:
                return e
        known = ", ".join(e.name for e in entries[:20]) or "none"
        raise UnknownMatchError(f"no match named {name!r} in the results directory; known: {known}")

    # -- plots ------------------------------------------------------------------------------

    def _report_dir(self, e: MatchEntry) -> Path:
        key = hashlib.sha256(f"{e.path}\0{e.mtime_ns}".encode()).hexdigest()[:20]
        return self._reports / key

    def report(self, e: MatchEntry) -> tuple[list[str], str]:
        """(PNG file names, Markdown) of the match's report, built once per results version."""
        from bidlab.eval.report import build_report

        out = self._report_dir(e)
        with self._report_lock:
            self._reports.mkdir(parents=True, exist_ok=True)  # again after close(): an app may be restarted
            if not (out / "summary.md").exists():
                tmp = Path(tempfile.mkdtemp(dir=self._reports, prefix=".building-"))
                try:
                    build_report([str(e.path)], tmp)
                    tmp.replace(out)
                finally:
                    shutil.rmtree(tmp, ignore_errors=True)
            plots = sorted(p.name for p in out.glob("*.png"))
            md = (out / "summary.md").read_text()
        return plots, md

    def plot_path(self, e: MatchEntry, plot: str) -> Path:
        if not PLOT_NAME.match(plot):
            raise UnknownMatchError(f"not a plot name: {plot!r}")
        plots, _ = self.report(e)
        if plot not in plots:
            raise UnknownMatchError(f"match {e.name!r} has no plot {plot!r}; plots: {', '.join(plots)}")
        return self._report_dir(e) / plot


def _boards_done(folder: Path) -> int | None:
    """Boards in a match folder's finished chunks (None if its chunk store cannot be read)."""
    from bidlab.runtime.shards import ShardError, ShardStore

    try:
        return sum(s.count for s in ShardStore.open(folder / "chunks", "match-chunks").shards)
    except (ShardError, OSError, ValueError):
        return None


def report_html(markdown: str, plot_url) -> str:
    """The report's Markdown as HTML (markdown-it-py, CommonMark with tables; raw HTML in the
    source is escaped, never passed through). Images name plot files in the report's folder;
    each becomes ``plot_url(name)``, and an image naming anything else loses its source."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(markdown)
    for tok in tokens:
        for child in tok.children or ():
            if child.type == "image":
                src = str(child.attrs.get("src", ""))
                child.attrs["src"] = plot_url(src) if PLOT_NAME.match(src) else ""
            elif child.type == "link_open":
                child.attrs["href"] = "#"  # the report links nowhere; nothing may lead off the page
    return md.renderer.render(tokens, md.options, {})


def finite_or_none(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)
