"""Numbers in summaries: "n/a" for a missing value, no negative zero (issue 20)."""

import math

from hypothesis import given
from hypothesis import strategies as st

from bidlab.eval.match import summarize
from bidlab.textfmt import NA, percent, plain, plus_minus, signed


@given(st.floats(allow_nan=True, allow_infinity=True), st.integers(0, 4))
def test_never_nan_and_never_negative_zero(x, digits):
    for text in (plain(x, digits), signed(x, digits)):
        if not math.isfinite(x):
            assert text == NA
            continue
        assert "nan" not in text and not (text.startswith("-") and float(text) == 0)
        assert abs(float(text) - x) <= 0.5 * 10 ** -digits + 1e-9 * abs(x)
        assert float(text) != 0 or not text.startswith("+")


def test_hand_worked_examples():
    assert signed(0.14) == "+0.14" and signed(-0.004) == "0.00" and signed(-0.07) == "-0.07"
    assert plus_minus(0.0, float("nan")) == "0.00 ± n/a" and percent(float("nan")) == NA
    assert percent(0.375) == "37.5%" and percent(-0.0001) == "0.0%"


def test_a_one_board_match_line_has_no_nan_and_no_negative_zero():
    rec = {"imps_a": 0, "a_vs_par": [0, 0]}
    line = summarize([rec], "sayc", "sayc").line()
    assert "nan" not in line and "-0.00" not in line
    assert line == ("sayc vs sayc: 0.00 ± n/a IMPs/board for sayc over 1 board; "
                    "vs par: sayc 0.00, sayc 0.00 IMPs/table")


def test_spades_summary_table_shows_n_a_for_missing_rates(monkeypatch):
    import io

    from rich.console import Console

    import bidlab.cli.spades as spades_cli

    buf = io.StringIO()
    monkeypatch.setattr(spades_cli, "console", Console(file=buf, width=200))
    nan = float("nan")
    spades_cli.print_summary({"games": 1, "rounds": 3, "win_rate_a": 1.0, "win_rate_a_se": nan,
                              "points_per_round_a": 40.0, "points_per_round_a_se": nan,
                              "points_per_round_b": -0.001, "points_per_round_b_se": nan,
                              "nil_rate_a": 0.0, "nil_success_a": nan, "nil_rate_b": 0.0, "nil_success_b": nan},
                             ("A", "B"))
    out = buf.getvalue()
    assert "nan" not in out and "-0.0" not in out and "n/a" in out and "100.0% ± n/a" in out
