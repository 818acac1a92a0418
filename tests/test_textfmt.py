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
