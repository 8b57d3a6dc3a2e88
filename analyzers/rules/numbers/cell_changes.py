"""How NUM016 reads the change of one table cell against another (analyzers/rules/numbers/derived_extent.py): as a
share of the baseline's cell (relative), as a difference (in percentage points too, for two fraction cells) and as the
larger cell over the smaller (a ratio), each as the span the cells' rounding allows; and the mean and the extremes of
several such changes."""

from __future__ import annotations

from typing import NamedTuple

from ....latex.model import Cell
from ...quantities import slack
from .extents import End


class Change(NamedTuple):
    """A change of the method's cell against the baseline's, as the spans the cells' rounding allows."""

    relative: tuple[float, float] | None  # percent of the baseline; None for a baseline of zero
    difference: tuple[float, float]
    ratio: tuple[float, float] | None  # the larger cell over the smaller; None unless both are of one sign
    # The difference of two fraction cells in percentage points (0.774 against 0.745 is 2.9 points); read of one pair.
    points: tuple[float, float] | None = None

    def gives(self, end: End, relative: bool = True, difference: bool = True, speed: bool = False) -> bool:
        """The end, rounded or cut to its places, lies in one of the spans of its kind (a share of the baseline only
        where it may be `relative`, or the ratio less one where the change is a `speed`; a difference only where it
        may be a `difference`)."""
        step = 10.0**-end.decimals
        over_smaller = (100 * (self.ratio[0] - 1), 100 * (self.ratio[1] - 1)) if self.ratio and relative and speed else None
        spans = (
            (self.ratio,)
            if end.times
            else (self.relative if relative else None, over_smaller, *((self.difference, self.points) if difference else ()))
        )
        return any(span[0] < end.value + step and end.value - slack(end.decimals) <= span[1] for span in spans if span is not None)


def cell_change(method: Cell, baseline: Cell) -> Change:
    """The change of the method's cell against the baseline's."""
    m, b = method.value or 0.0, baseline.value or 0.0
    ms, bs = slack(method.decimals), slack(baseline.decimals)
    pairs = [(mv, bv) for mv in (m - ms, m + ms) for bv in (b - bs, b + bs)]
    relative = [abs(mv - bv) / abs(bv) * 100 for mv, bv in pairs] if abs(b) > bs else []
    ratio = [max(abs(mv), abs(bv)) / min(abs(mv), abs(bv)) for mv, bv in pairs] if min(abs(m) - ms, abs(b) - bs) > 0 and m * b > 0 else []
    difference = (max(abs(m - b) - ms - bs, 0.0), abs(m - b) + ms + bs)
    fractions = not (method.percent or baseline.percent) and max(abs(m), abs(b)) <= 1
    return Change(
        (min(relative), max(relative)) if relative else None,
        difference,
        (min(ratio), max(ratio)) if ratio else None,
        (difference[0] * 100, difference[1] * 100) if fractions else None,
    )


def mean_change(changes: list[Change]) -> Change:
    """The mean change over the columns read, each span the mean of the changes' spans (None where one has none)."""

    def mean(spans: list[tuple[float, float] | None]) -> tuple[float, float] | None:
        present = [span for span in spans if span is not None]
        if len(present) < len(spans):
            return None
        return sum(span[0] for span in present) / len(present), sum(span[1] for span in present) / len(present)

    difference = mean([change.difference for change in changes])
    return Change(mean([change.relative for change in changes]), difference or (0.0, 0.0), mean([change.ratio for change in changes]))


def signed_gain(ours: Cell, other: Cell, better: int) -> Change:
    """The change of `ours` over `other`, negative where `ours` is on the worse side (a ratio only where it is better)."""
    change = cell_change(ours, other)
    if better * ((ours.value or 0.0) - (other.value or 0.0)) >= 0:
        return change
    relative = (-change.relative[1], -change.relative[0]) if change.relative else None
    return Change(relative, (-change.difference[1], -change.difference[0]), None)


def _extreme(spans: list[tuple[float, float] | None], highest: bool) -> tuple[float, float] | None:
    """The span the lowest (or highest) of the changes lies in, given each change's span."""
    if not spans or any(span is None for span in spans):
        return None
    pick = max if highest else min
    return pick(span[0] for span in spans if span), pick(span[1] for span in spans if span)


def extreme_change(gains: list[Change], highest: bool) -> Change:
    """The lowest (or highest) of the changes, span by span."""
    relative = _extreme([gain.relative for gain in gains], highest)
    ratio = _extreme([gain.ratio for gain in gains], highest)
    return Change(relative, _extreme([gain.difference for gain in gains], highest) or (0.0, 0.0), ratio)
