"""One rule's results by unit within a check, and what the check spent on each rule (the engine's bookkeeping)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from .context import RuleContext
from .facets import UndeclaredFacet
from .registry import Rule
from .work_budget import OverBudget, WorkBudget, WorkSkipped

log = logging.getLogger(__name__)


@dataclass
class CheckStats:
    rules_run: int = 0
    rules_cached: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    # CPU seconds of this thread per rule code, and per facet digest (taken once, for the first rule that
    # reads it, and not counted in that rule's): what benchmarks/check_speed.py --per-rule reports.
    rule_seconds: dict[str, float] = field(default_factory=dict)
    facet_seconds: dict[str, float] = field(default_factory=dict)
    facets_total: float = 0.0  # the sum of `facet_seconds`, kept as they are taken: each rule's cost subtracts it

    def rule_cost(self, code: str, started: float, facets_before: float) -> float:
        """Count the CPU time since `started` to rule `code`, less the facet digests taken meanwhile; the time now, where
        the next rule starts (one reading of the thread's clock, a system call, per rule)."""
        now = time.thread_time()
        spent = max(0.0, now - started - (self.facets_total - facets_before))  # never below 0 by the rounding of the subtraction
        self.rule_seconds[code] = self.rule_seconds.get(code, 0.0) + spent
        return now


class Skipped(Exception):
    """A unit of the rule ran out of its work budget (now or when its cached result was computed)."""


class Units:
    """One rule's results by unit: reused when cached, computed (a rule bug costing only its unit) when not.
    A unit past its work budget stops the rule: its WorkSkipped result is kept (cached) like any other.

    `carried`: the last check's units in memory are carried forward, the same dictionary, in which this check
    replaces what it computed anew and drops what it no longer names (`retire`), instead of a new dictionary of
    every section's units per check. A unit's name says all it depends on, so a unit left behind is never wrong."""

    def __init__(
        self,
        key: tuple[str, str, str],
        rule: Rule,
        context: RuleContext,
        stats: CheckStats,
        previous: dict[str, list[Any]],
        carried: bool,
    ) -> None:
        self.key = key
        self.rule = rule
        self.context = context
        self.stats = stats
        self.previous = previous
        self.carried = carried
        self.current: dict[str, list[Any]] = previous if carried else {}
        self.read: set[str] = set()  # the names this check read or computed
        self.stale: set[str] = set()  # the names the last check used and this one may not
        self.computed = False

    def get(self, unit: str, compute: Callable[..., list[Any]]) -> list[Any]:  # lambdas binding their section
        # A pair of sections reads each section's part once per pair: what this check computed is read first.
        value = self.current.get(unit) if not self.carried or unit in self.read else None
        if value is None:
            value = self.previous.get(unit)
            if value is not None:
                self.stats.rules_cached += 1
        if value is None:
            outer = self.context.budget  # a part computed within a combine leaves the combine's budget as it was
            self.context.budget = WorkBudget(self.context.config.rules.work_limit)  # per unit: a unit's result depends on its input alone
            try:
                value = compute()
            except OverBudget:
                value = [WorkSkipped(self.context.budget.spent)]
            except (UndeclaredFacet, Skipped):  # a test caught a rule reading beyond its facets; a part ran out of budget
                raise
            except Exception:  # a rule bug must not take the audit down
                log.exception("rule %s failed", self.rule.code)
                self.stats.failures.append(self.rule.code)
                value = []
            finally:
                self.context.budget = outer
            self.stats.rules_run += 1
            self.computed = True
        self.current[unit] = value
        self.read.add(unit)
        if value and isinstance(value[0], WorkSkipped):
            raise Skipped
        return value

    def keep(self, units: AbstractSet[str]) -> None:
        """Carry units this check did not need over to the next one, as if they had been read (set operations:
        an edit reads a few of a book's 190 parts, and each of its combining rules carries the others)."""
        current, previous = self.current, self.previous
        if self.carried or current.keys() >= units:  # carried, or every part was read: a combine computed anew reads them all
            return
        for unit in (previous.keys() & units) - current.keys():
            current[unit] = previous[unit]

    def reuse(self, names: list[str], values: list[list[Any]], cached: int) -> None:
        """Units read (`cached` of them as the last check left them, without a look-up each; carried, they are there)."""
        if not self.carried:
            self.current.update(zip(names, values))
        self.stats.rules_cached += cached

    def retire(self, names: Iterable[str]) -> None:
        """Names the last check used that this one may have replaced."""
        self.stale.update(names)

    def finish(self) -> None:
        """Drop the retired units this check did not read: those of the sections that changed or went, and the
        combine of the paper before the edit."""
        for unit in self.stale - self.read:
            self.current.pop(unit, None)
