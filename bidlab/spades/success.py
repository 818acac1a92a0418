"""Success curves: Pr(a nil bid succeeds | previous bids, nilValue) (Cohensius et al. 2020, Sec. 4.3).

The paper fits one logistic regression on 2 million rounds of online play and tabulates it
for all 2,955 previous-bid sequences. We fit the same kind of model on rounds simulated by
the tournament engine (:mod:`bidlab.spades.fit_curves`, ``bidlab spades fit-curves``) and
ship its coefficients as JSON (``bidlab/data/spades/success_curves.json``); evaluating the
model for a sequence is the same as looking up its tabulated curve.

Features (:func:`curve_features`): the nilValue and its logit; for each earlier bidder, seen from the agent
(left-hand opponent, partner, right-hand opponent), whether it has bid, its bid, and whether
it bid nil; the sum of the previous bids; and nilValue x partner's bid (a high partner's bid
makes a shaky nil safer, Sec. 3). The "single success curve" ablation of Sec. 5.3.1 uses the
nilValue (and its logit) alone.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from bidlab.spades.errors import SpadesError

SHIPPED = Path(__file__).resolve().parents[1] / "data" / "spades" / "success_curves.json"

FEATURES: tuple[str, ...] = (
    "nil_value", "logit_nil_value",
    "lho_bid_known", "lho_bid", "lho_nil",
    "partner_bid_known", "partner_bid", "partner_nil",
    "rho_bid_known", "rho_bid", "rho_nil",
    "sum_prev_bids",
    "nil_value_x_partner_bid",
)  # fmt: skip
SINGLE_FEATURES: tuple[str, ...] = ("nil_value", "logit_nil_value")
#: nilValue is clipped to [NV_EPS, 1 - NV_EPS] before its logit.
NV_EPS = 1e-4


def logit_nil_value(nil_value: float) -> float:
    """A hand that cannot make nil (the A of spades: nilValue 0) must get a probability near 0;
    a curve linear in the nilValue alone levels off at about 0.45 there (the simulated nils
    with nilValue 0.02-0.05 succeed 46% of the time), so the logit is a feature too."""
    p = min(1 - NV_EPS, max(NV_EPS, nil_value))
    return math.log(p / (1 - p))


def previous_by_relation(prev_bids: tuple[int, ...]) -> dict[str, int | None]:
    """The earlier bids seen from the agent: the last bidder before it is its right-hand
    opponent, the one before that its partner, the first of three its left-hand opponent."""
    n = len(prev_bids)
    return {
        "rho": prev_bids[-1] if n >= 1 else None,
        "partner": prev_bids[-2] if n >= 2 else None,
        "lho": prev_bids[-3] if n >= 3 else None,
    }


def curve_features(prev_bids: tuple[int, ...], nil_value: float, single: bool = False) -> list[float]:
    if single:
        return [nil_value, logit_nil_value(nil_value)]
    rel = previous_by_relation(prev_bids)
    out = [nil_value, logit_nil_value(nil_value)]
    for who in ("lho", "partner", "rho"):
        b = rel[who]
        out += [float(b is not None), float(b or 0), float(b == 0)]
    partner = rel["partner"] or 0
    out += [float(sum(prev_bids)), nil_value * partner]
    return out


@dataclass(frozen=True)
class LogisticCurve:
    names: tuple[str, ...]
    coef: tuple[float, ...]
    intercept: float

    def probability(self, x: list[float]) -> float:
        z = self.intercept + sum(c * v for c, v in zip(self.coef, x))
        return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0

    def to_dict(self) -> dict:
        return {"features": list(self.names), "coef": list(self.coef), "intercept": self.intercept}

    @classmethod
    def from_dict(cls, d: dict) -> LogisticCurve:
        return cls(tuple(d["features"]), tuple(float(c) for c in d["coef"]), float(d["intercept"]))


@dataclass(frozen=True)
class SuccessCurves:
    """The full model and the single-curve ablation, plus how they were fitted."""

    full: LogisticCurve
    single: LogisticCurve
    meta: dict

    def probability(self, prev_bids: tuple[int, ...], nil_value: float, single: bool = False) -> float:
        """SC(PrevBids, nilValue) of Alg. 1, line 4."""
        curve = self.single if single else self.full
        return curve.probability(curve_features(prev_bids, nil_value, single))

    def to_dict(self) -> dict:
        return {"full": self.full.to_dict(), "single": self.single.to_dict(), "meta": self.meta}

    @classmethod
    def from_dict(cls, d: dict) -> SuccessCurves:
        full, single = LogisticCurve.from_dict(d["full"]), LogisticCurve.from_dict(d["single"])
        if full.names != FEATURES or single.names != SINGLE_FEATURES:
            raise SpadesError(f"success curves use features {full.names}; this bidlab expects {FEATURES}")
        return cls(full, single, d.get("meta", {}))

    @classmethod
    def load(cls, path: Path = SHIPPED) -> SuccessCurves:
        try:
            return cls.from_dict(json.loads(Path(path).read_text()))
        except (OSError, json.JSONDecodeError, KeyError, TypeError) as e:
            raise SpadesError(f"{path}: not a success-curves file ({e})") from None


class IdentityCurves:
    """The uncorrected heuristic, Pr(nil) = nilValue: the "earlier version of BIS that does
    not use the learning component" whose games the paper learned from (Sec. 4.3)."""

    meta = {"kind": "identity"}

    def probability(self, prev_bids: tuple[int, ...], nil_value: float, single: bool = False) -> float:
        return nil_value
