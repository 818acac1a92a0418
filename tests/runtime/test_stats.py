"""Means ± standard errors against hand-worked values and the statistics module; printing."""

import math
import statistics

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidlab.runtime.stats import Estimate, fmt, fmt_percent, mean_se, paired_mean_se, ratio_se


def test_mean_se_hand_worked():
    # 1, 2, 3, 6: mean 3, sample variance (4 + 1 + 0 + 9) / 3 = 14/3, SE = sqrt(14/3 / 4)
    e = mean_se([1, 2, 3, 6])
    assert e.mean == 3 and e.n == 4 and e.se == pytest.approx(math.sqrt(14 / 12))
    one = mean_se([2.5])
    assert one.mean == 2.5 and math.isnan(one.se)
    none = mean_se([])
    assert none.n == 0 and math.isnan(none.mean)


@given(st.lists(st.floats(-1e3, 1e3), min_size=2, max_size=50))
def test_mean_se_agrees_with_the_statistics_module(xs):
    e = mean_se(xs)
    assert e.mean == pytest.approx(statistics.fmean(xs), abs=1e-9)
    assert e.se == pytest.approx(statistics.stdev(xs) / math.sqrt(len(xs)), abs=1e-9)


def test_paired_is_the_mean_of_differences():
    e = paired_mean_se([5, 7, 9], [4, 7, 6])  # differences 1, 0, 3
    assert e.mean == pytest.approx(4 / 3)
    assert e.se == pytest.approx(statistics.stdev([1, 0, 3]) / math.sqrt(3))
    with pytest.raises(ValueError, match="differ in length"):
        paired_mean_se([1, 2], [1])


def test_ratio_se_hand_worked():
    # Clusters (num, den): (3, 2), (1, 2), (4, 4): r = 8/8 = 1; residuals 1, -1, 0;
    # SE = sqrt(3/2 * 2) / 8
    e = ratio_se([3, 1, 4], [2, 2, 4])
    assert e.mean == 1 and e.se == pytest.approx(math.sqrt(3) / 8) and e.n == 3
    # With equal denominators it is the SE of the mean of num/den.
    nums = [1.0, 0.0, 1.0, 1.0, 0.5]
    assert ratio_se(nums, [1] * 5).se == pytest.approx(mean_se(nums).se)
    assert math.isnan(ratio_se([1], [2]).se) and math.isnan(ratio_se([], []).mean)


@pytest.mark.parametrize("value,digits,signed,text", [
    (float("nan"), 2, False, "n/a"), (None, 2, True, "n/a"), (float("inf"), 1, False, "n/a"),
    (-0.001, 2, False, "0.00"), (-0.004, 2, True, "+0.00"), (-0.0, 2, False, "0.00"),
    (-0.006, 2, True, "-0.01"), (0.125, 1, True, "+0.1"), (3.14159, 3, False, "3.142"),
])
def test_fmt(value, digits, signed, text):
    assert fmt(value, digits, signed=signed) == text


def test_estimate_and_percent_printing():
    assert Estimate(-0.14, 0.07, 2000).format(signed=True) == "-0.14 ± 0.07"
    assert Estimate(0.5, float("nan"), 1).format() == "0.50 ± n/a"
    assert Estimate(float("nan"), float("nan"), 0).format() == "n/a"
    assert str(Estimate(-0.001, 0.0, 3)) == "0.00 ± 0.00"
    assert fmt_percent(0.9585) == "95.8%" or fmt_percent(0.9585) == "95.9%"
    assert fmt_percent(float("nan")) == "n/a" and fmt_percent(1) == "100.0%"
    assert np.isnan(mean_se(np.array([1.0])).se)
