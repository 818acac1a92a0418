"""The match's progress note: only for agents that search (where a board takes long enough to
need it), worded in boards and calls, and cleared when the match ends, so that two identical
runs end on identical lines."""

from __future__ import annotations

from bidlab.eval.match import Match, MatchConfig


def _notes(tmp_path, a: str, b: str, boards: int, chunk: int, workers: int) -> list[str]:
    notes: list[str] = []
    Match(MatchConfig(a, b, boards=boards, chunk_size=chunk), tmp_path / "m").run(
        workers=workers, progress=lambda d, t: None, note=notes.append)
    return notes


def test_a_fast_match_has_no_calls_note(tmp_path):
    notes = _notes(tmp_path, "random", "sayc", 100, 50, 2)
    assert all(n == "" for n in notes), notes[:5]


def test_a_search_match_notes_its_calls_and_ends_with_no_note(tmp_path):
    notes = _notes(tmp_path, "bmcs:rl?rmax=20&rmin=5", "nn:rl", 2, 2, 1)
    assert any("call" in n for n in notes), notes
    assert notes[-1] == ""
