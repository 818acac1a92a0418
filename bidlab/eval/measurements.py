"""The results registry: every number that README.md and ``docs/`` quote about the agents as
shipped is a stored measurement, tied to the fingerprints of what it measured.

A measurement is one JSON line of ``docs/results.jsonl`` (plain JSON, one object a line,
sorted by name)::

    {"name": "rl-vs-sayc", "kind": "match",
     "command": "bidlab match nn:rl sayc --split test --boards 4000 --seed 0",
     "split": "test", "boards": 4000, "seed": 0,
     "result": {"imps": {"mean": 1.25, "se": 0.09}, ...},
     "fingerprints": {"nn:rl": "3f0c...", "sayc": "9a12..."},
     "measured": "2026-11-29T00:10:00Z", "commit": "4a11b00", "note": ""}

- ``kind`` says what was measured: ``match``, ``agreement``, ``benchmark``, ``calibration``,
  ``model`` ... any word; the registry does not interpret it.
- ``result`` maps field names to numbers, strings or ``{"mean": m, "se": s}`` estimates.
- ``fingerprints`` maps each thing the result depends on to its hash when measured. A key
  is an agent spec (``nn:rl``, ``sayc``, ``sayc+nn:partner``, ``bmcs:rl``; see
  :func:`bidlab.eval.fingerprint.agent_fingerprint`: weights for nets, the SAYC source for
  rules, an agent's own ``fingerprint()`` for a custom agent), ``model:NAME`` (the bytes of a
  shipped model's ``.safetensors`` and ``.json``) or ``file:PATH`` (a file of the bidlab
  package, path relative to the package folder).

A measurement is **stale** when any of its fingerprints differs from what the key hashes to
now: the agent changed after it was measured. ``bidlab results`` lists them and ``--rerun``
re-measures them by running their command again.

Documents quote a measurement through an inline marker, filled in by
``bidlab results --write-docs`` (never by hand)::

    <!-- r:rl-vs-sayc -->+1.25 ± 0.09<!-- /r -->
    <!-- r:partner-agree rate:.1% -->90.9%<!-- /r -->

``r:NAME`` quotes the measurement's main field (the first field of its result); ``r:NAME
FIELD`` another field, and ``r:NAME FIELD:SPEC`` formats it with the Python format spec SPEC.
An estimate is written ``+m ± s`` with two decimals unless a spec is given (applied to both).

Numbers about agents that are no longer shipped (the history pages, earlier generations'
tables) are kept as a record of their time: a page whose first line is ``<!-- history:
COMMIT ... -->``, or a section between ``<!-- history: COMMIT ... -->`` and ``<!-- /history
-->``, holds numbers measured at that commit and is not checked against the registry.
:func:`check_documents` finds every other quoted number that does not come from the registry.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shlex
import subprocess
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bidlab.errors import BidlabError
from bidlab.fileio import strict_json, write_text_atomic


class RegistryError(BidlabError):
    """The results registry cannot be read, or a measurement or marker is malformed."""


#: Environment variable naming another registry file (tests, reruns in a scratch folder).
REGISTRY_ENV = "BIDLAB_REGISTRY"

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]*$")


def repository_root() -> Path:
    """The folder above the ``bidlab`` package: a clone's root, where README.md and docs/ live."""
    return Path(__file__).resolve().parents[2]


def default_registry() -> Path:
    """``$BIDLAB_REGISTRY`` if set, else ``docs/results.jsonl`` of the clone bidlab runs from."""
    env = os.environ.get(REGISTRY_ENV)
    return Path(env) if env else repository_root() / "docs" / "results.jsonl"


@dataclass
class Measurement:
    """One stored measurement (see the module docstring for each field)."""

    name: str
    kind: str
    command: str
    result: dict
    fingerprints: dict[str, str | None]
    split: str | None = None
    boards: int | None = None
    seed: int | None = None
    measured: str = ""
    commit: str = ""
    note: str = ""
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, obj: dict, where: str = "") -> Measurement:
        try:
            m = cls(**obj)
        except TypeError as e:
            raise RegistryError(f"{where}: not a measurement ({e})") from None
        if not isinstance(m.result, dict) or not isinstance(m.fingerprints, dict):
            raise RegistryError(f"{where}: a measurement's result and fingerprints are objects")
        return m

    def main_field(self) -> str:
        if not self.result:
            raise RegistryError(f"measurement {self.name!r} has an empty result")
        return next(iter(self.result))


def load(path: str | os.PathLike | None = None) -> dict[str, Measurement]:
    """Every measurement of the registry file, by name (an absent file is an empty registry)."""
    p = Path(path) if path is not None else default_registry()
    if not p.exists():
        return {}
    out: dict[str, Measurement] = {}
    for i, line in enumerate(p.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise RegistryError(f"{p}:{i}: not JSON ({e.msg})") from None
        m = Measurement.from_json(obj, f"{p}:{i}")
        out[m.name] = m
    return out


def save(measurements: dict[str, Measurement], path: str | os.PathLike | None = None) -> None:
    """Write the registry atomically, one measurement a line, sorted by name."""
    p = Path(path) if path is not None else default_registry()
    lines = [json.dumps(measurements[k].to_json(), sort_keys=False, allow_nan=False) for k in sorted(measurements)]
    write_text_atomic(p, "".join(line + "\n" for line in lines))


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=repository_root(),
                             capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def record(name: str, kind: str, command: str, result: dict, fingerprints: dict[str, str | None] | Iterable[str],
           *, split: str | None = None, boards: int | None = None, seed: int | None = None, note: str = "",
           path: str | os.PathLike | None = None, extra: dict | None = None) -> Measurement:
    """Store (or replace) the measurement ``name`` and return it.

    ``fingerprints`` is a dict of key -> hash, or just the keys (agent specs, ``model:NAME``,
    ``file:PATH``), hashed here with :func:`fingerprint`. A key whose hash cannot be computed
    (an agent defined in a REPL) is refused: such a number could never be checked.

    Example, from any script that measured something (e.g. a calibration table)::

        from bidlab.eval.measurements import record
        record("belief-calibration", "calibration", "bidlab meaning --calibrate --deals 2000",
               {"ece": 0.031, "deals": 2000}, ["model:belief", "nn:rl"])
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise RegistryError(f"a measurement name is letters, digits and _.@- (no spaces), got {name!r}")
    if not isinstance(result, dict) or not result:
        raise RegistryError("a measurement's result is a non-empty dict of named values")
    if not isinstance(fingerprints, dict):
        fingerprints = {key: fingerprint(key) for key in fingerprints}
    missing = [k for k, v in fingerprints.items() if not v]
    if missing:
        raise RegistryError(f"cannot register {name!r}: {missing[0]!r} has no fingerprint (an agent defined "
                            "where its code cannot be read, without its own fingerprint()); the number could "
                            "never be checked against the agent it describes")
    p = Path(path) if path is not None else default_registry()
    with _registry_lock(p):  # two measurements registered at once must not lose one another
        return _store(name, kind, command, result, fingerprints, p, split=split, boards=boards, seed=seed,
                      note=note, extra=extra)


@contextmanager
def _registry_lock(p: Path) -> Iterator[None]:
    """Exclusive lock on the registry's folder (the file itself is replaced by each atomic write,
    and a lock file would be left beside the docs)."""
    fd = os.open(p.parent if p.parent.is_dir() else ".", os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _store(name, kind, command, result, fingerprints, p: Path, *, split, boards, seed, note, extra) -> Measurement:
    measurements = load(p)
    m = Measurement(name=name, kind=kind, command=command, result=strict_json(result), fingerprints=dict(fingerprints),
                    split=split, boards=boards, seed=seed,
                    measured=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), commit=_commit(), note=note,
                    extra=dict(extra or {}))
    measurements[name] = m
    save(measurements, p)
    return m


# --- fingerprints -------------------------------------------------------------------------

def _hash_files(paths: Iterable[Path]) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:16]


def fingerprint(key: str) -> str | None:
    """What ``key`` hashes to now (see the module docstring); None where it cannot be computed."""
    if key.startswith("model:"):
        from bidlab.agents.neural import resolve_model

        weights = resolve_model(key.removeprefix("model:"))
        return _hash_files([weights, weights.with_suffix(".json")])
    if key.startswith("file:"):
        return _hash_files([Path(__file__).resolve().parents[1] / key.removeprefix("file:")])
    from bidlab.eval.fingerprint import agent_fingerprint

    return agent_fingerprint(key)


def stale_keys(m: Measurement, current: Callable[[str], str | None] = fingerprint,
               cache: dict[str, str | None] | None = None) -> list[str]:
    """The keys of ``m`` whose thing has changed since it was measured."""
    cache = {} if cache is None else cache
    out = []
    for key, stored in m.fingerprints.items():
        if key not in cache:
            cache[key] = current(key)
        if cache[key] is None or cache[key] != stored:
            out.append(key)
    return out


def stale(measurements: dict[str, Measurement],
          current: Callable[[str], str | None] = fingerprint) -> dict[str, list[str]]:
    """name -> changed keys, for every stale measurement."""
    cache: dict[str, str | None] = {}
    found = {name: stale_keys(m, current, cache) for name, m in measurements.items()}
    return {name: keys for name, keys in found.items() if keys}


# --- quoting in documents -----------------------------------------------------------------

MARKER = re.compile(r"<!-- r:(?P<name>[^\s>]+)(?: (?P<field>[^\s:>]+)(?::(?P<spec>[^\s>]+))?)? -->"
                    r"(?P<body>.*?)<!-- /r -->", re.S)
HISTORY_PAGE = re.compile(r"\A<!-- history: [0-9a-f]{7,40}\b[^>]*-->")
HISTORY_BLOCK = re.compile(r"<!-- history: [0-9a-f]{7,40}\b[^>]*-->.*?<!-- /history -->", re.S)
#: What counts as a quoted result: an estimate (``+0.30 ± 0.06``, not ``± 1 SE``), a signed decimal
#: (``-0.14``, ``+1.25``, IMPs), or a percentage with a decimal (``90.9 %``).
NUMBER = re.compile(r"±\s*\d*\.\d|±\s*\d+\s*%|(?<![\w.])[+−-]\d*\.\d+(?![\w.])|(?<![\w.])\d+\.\d+ ?%")
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def format_value(m: Measurement, field_name: str | None = None, spec: str | None = None) -> str:
    """The text a marker ``r:NAME FIELD:SPEC`` stands for."""
    key = field_name or m.main_field()
    if key not in m.result:
        raise RegistryError(f"measurement {m.name!r} has no field {key!r} (fields: {', '.join(m.result)})")
    value = m.result[key]
    if isinstance(value, dict) and {"mean", "se"} <= set(value):
        if spec:
            return f"{format(value['mean'], spec)} ± {format(value['se'], spec.lstrip('+'))}"
        return f"{value['mean']:+.2f} ± {value['se']:.2f}"
    if value is None:
        return "n/a"
    if spec:
        return format(value, spec)
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def fill(text: str, measurements: dict[str, Measurement]) -> str:
    """``text`` with every marker's body set from the registry (a marker naming no
    measurement is left as it is; :func:`check_documents` reports it)."""
    code = _code_spans(text)

    def one(mt: re.Match) -> str:
        name = mt["name"]
        if name not in measurements or _inside(mt.start(), code):  # left as it is (a missing one is reported)
            return mt.group(0)
        head = mt.group(0)[: mt.start("body") - mt.start()]
        return f"{head}{format_value(measurements[name], mt['field'], mt['spec'])}<!-- /r -->"

    return MARKER.sub(one, text)


def _code_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in CODE.finditer(text)]


def _inside(pos: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= pos < b for a, b in spans)


def unquoted_numbers(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every number in ``text`` that no marker quotes from the
    registry, outside code and outside history pages and sections."""
    if HISTORY_PAGE.match(text):
        return []

    def blank(mt: re.Match) -> str:  # keep the line count
        return "\n" * mt.group(0).count("\n")

    kept = HISTORY_BLOCK.sub(blank, text)
    kept = MARKER.sub(blank, kept)
    kept = CODE.sub(blank, kept)
    kept = re.sub(r"<!--.*?-->", blank, kept, flags=re.S)
    return [(i, line) for i, line in enumerate(kept.splitlines(), 1) if NUMBER.search(line)]


def documents(root: Path | None = None) -> list[Path]:
    """README.md and every page of docs/ (the texts the registry answers for)."""
    root = repository_root() if root is None else root
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


@dataclass
class DocumentProblem:
    path: Path
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def check_documents(paths: Iterable[Path], measurements: dict[str, Measurement],
                    current: Callable[[str], str | None] = fingerprint) -> list[DocumentProblem]:
    """Every way the documents' numbers fail the registry: a number not quoted from it, a
    marker whose text differs from the registry's (edited by hand, or not rewritten), a
    marker naming no measurement, and a quoted measurement that is stale."""
    problems: list[DocumentProblem] = []
    quoted: dict[str, tuple[Path, int]] = {}
    for path in paths:
        text = path.read_text()
        for line, content in unquoted_numbers(text):
            problems.append(DocumentProblem(path, line, f"number not from the registry: {content.strip()[:120]}"))
        code = _code_spans(text)
        for mt in MARKER.finditer(text):
            if _inside(mt.start(), code):  # a marker shown as an example, in code
                continue
            line = text.count("\n", 0, mt.start()) + 1
            m = measurements.get(mt["name"])
            if m is None:
                problems.append(DocumentProblem(path, line, f"marker r:{mt['name']} names no measurement"))
                continue
            quoted.setdefault(m.name, (path, line))
            try:
                want = format_value(m, mt["field"], mt["spec"])
            except RegistryError as e:
                problems.append(DocumentProblem(path, line, str(e)))
                continue
            if mt["body"] != want:
                problems.append(DocumentProblem(path, line, f"r:{m.name} reads {mt['body']!r}, the registry "
                                                f"says {want!r} (run `bidlab results --write-docs`)"))
    for name, keys in stale({n: measurements[n] for n in quoted}, current).items():
        path, line = quoted[name]
        problems.append(DocumentProblem(path, line, f"r:{name} is stale: {', '.join(keys)} changed since it "
                                        "was measured (run `bidlab results --rerun`)"))
    return problems


def write_documents(paths: Iterable[Path], measurements: dict[str, Measurement]) -> list[Path]:
    """Refill every marker of ``paths``; returns the files that changed."""
    changed = []
    for path in paths:
        text = path.read_text()
        new = fill(text, measurements)
        if new != text:
            write_text_atomic(path, new)
            changed.append(path)
    return changed


# --- the commands' --register -------------------------------------------------------------

#: What a played-out score depends on besides the two bidders: the single-dummy card player's
#: code and the belief net it samples the hidden hands from.
PLAYED_OUT_KEYS = ("model:belief", "file:search/cardplay.py", "file:search/sampler.py")


def record_match(name: str, cfg, summary, fingerprints: dict[str, str | None],
                 path: str | os.PathLike | None = None) -> Measurement:
    """Store a finished match (``bidlab match ... --register NAME``): IMPs/board for A ± SE
    first, then A's and B's IMPs against par."""
    command = " ".join(["bidlab match", shlex.quote(cfg.agent_a), shlex.quote(cfg.agent_b), "--split", cfg.split,
                        "--boards", str(cfg.boards), "--seed", str(cfg.seed)]
                       + ([] if cfg.store is None else ["--store", shlex.quote(str(cfg.store))]))
    result = {"imps": {"mean": summary.imps_per_board, "se": summary.standard_error},
              "a_vs_par": {"mean": summary.a_vs_par, "se": summary.a_vs_par_se},
              "agent_a": cfg.agent_a, "agent_b": cfg.agent_b}
    if cfg.scoring == "played":  # IMPs as played out; the same boards scored DD and the paired difference beside
        command += f" --scoring played --card-player {shlex.quote(cfg.card_player)}"
        result.update(dd_scored=summary.extra["dd_scored"], paired_difference=summary.extra["paired_difference"])
        fingerprints = {**fingerprints, **{k: fingerprint(k) for k in PLAYED_OUT_KEYS}}
    return record(name, "match", command, result, fingerprints, split=cfg.split, boards=cfg.boards, seed=cfg.seed,
                  path=path)


def record_agreement(name: str, result, path: str | os.PathLike | None = None) -> Measurement:
    """Store an agreement measure (``bidlab agree ... --register NAME``): the share of the
    agent's decisions where the reference makes the same call, all and after round one."""
    command = (f"bidlab agree {shlex.quote(result.agent)} --with {shlex.quote(result.reference)} "
               f"--deals {result.deals} --seed {result.seed}")
    values = {"rate": result.rate, "later_rate": result.later_rate, "decisions": result.decisions,
              "later_decisions": result.later_decisions, "agent": result.agent, "reference": result.reference}
    return record(name, "agreement", command, values, [result.agent, result.reference], boards=result.deals,
                  seed=result.seed, split="fresh")
