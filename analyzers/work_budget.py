"""The work budget: how much pairwise work one unit of a rule may do before the rule is skipped.

A rule whose work grows with pairs (each number against the statements written the same way,
each quote against the cells one digit away) says how many items it compares through
`RuleContext.spend`. Past `WORK_LIMIT` in one unit (a project, a section, a combine), the engine
stops that rule for the project and LIM001 names it. The budget counts work, never seconds, so a
result stays a pure function of the input: the skip is cached like any other result.
"""

from __future__ import annotations

from ..latex.record import record

# Items compared or pairs considered by one unit of one rule. The largest paper of the corpus
# spends a small fraction of it; a runaway input (megabytes on one line) reaches it.
WORK_LIMIT = 2_000_000


class OverBudget(Exception):
    """A unit of a rule spent more than its work budget."""


@record
class WorkSkipped:
    """What a unit that ran out of budget leaves as its result, cached in place of its findings."""

    spent: int


class WorkBudget:
    """One unit's budget; the engine starts a fresh one for every unit it computes."""

    def __init__(self, limit: int = WORK_LIMIT) -> None:
        self.limit = limit
        self.spent = 0

    def spend(self, items: int) -> None:
        self.spent += items
        if self.spent > self.limit:
            raise OverBudget(f"more than {self.limit:,} items compared")
