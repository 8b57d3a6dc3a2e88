"""Rules, their stable codes, and the registry that selects them.

A rule is a small function over the project's semantic index, declared with
`@rule(...)` and the facets it reads (see facets.py). Its docstring follows ruff's shape (What it does / Why is this
bad? / Example / Use instead / Fix safety) and is what `auditex rule CODE`
prints.
"""

from __future__ import annotations

import inspect
import re
import sys
import types
from collections.abc import Callable, Iterable, Iterator
from enum import Enum
from typing import Any

from ..latex.record import record
from .facets import FACETS
from .finding import Category, Finding, Severity

# A rule module's docstring section that `auditex rule CODE` shows after the check's own docstring.
HOW_IT_DECIDES = "## How it decides"


class Scope(str, Enum):
    PROJECT = "project"  # runs once over the whole index
    SECTION = "section"  # runs per section, cached by the section's content and place
    # Runs only in the opt-in online verification pass (analyzers/online_verification.py), over the
    # verdicts of the scholarly indexes: `check(ctx, cited, verdict)`. The offline engine skips it.
    ONLINE = "online"
    # Runs after the others, over the rules the work budget stopped (work_budget.py): `check(ctx, skipped)`,
    # `skipped` the codes of those rules. Never cached: what it reads is the other rules' outcome.
    LIMIT = "limit"


@record
class Pairwise:
    """A combine split by section, for a rule that compares each section's part with what some sections
    hold (NUM001: every section's quotes against the cells of the sections that hold tables).

    `feeds(part)`: what a section's part gives the shared state, as a value of strings, numbers and
    tuples (`value_hash`), or None for nothing; `shared(ctx, [(place, section, part), ...])` builds that
    state from the feeding sections; `each(ctx, shared, place, section, part)` gives one section's
    findings against it. The engine keeps each section's findings under its key and what every section
    feeds: an edit re-runs `each` for the edited section alone, and for every section only when what
    the edited one feeds changed (a table's cell, not the prose around it). The shared state is kept across checks
    while every section feeds the same, so it may hold an older part of the edited section: `each` reads that
    section from its `part`, and `feeds` must give all that the shared state's readers use. `combine` is the whole
    paper at once.

    `feeds_all`: what a section feeds is all that `each` reads of its part (where it is as lines and characters, not
    offsets), so a section whose edit changed nothing it feeds keeps its findings, not only the other sections."""

    feeds: Callable[[Any], object | None]
    shared: Callable[..., Any]
    each: Callable[..., Iterable[Finding]]
    feeds_all: bool = False

    def fed(self, parts: list[tuple[Any, Any]]) -> list[tuple[int, Any, Any, object]]:
        """(place, section, part, what it feeds) of the sections that feed the shared state."""
        return [(place, section, part, fed) for place, (section, part) in enumerate(parts) if (fed := self.feeds(part)) is not None]

    def combine(self, ctx: Any, parts: list[tuple[Any, Any]]) -> Iterator[Finding]:
        shared = self.shared(ctx, [(place, section, part) for place, section, part, _ in self.fed(parts)])
        for place, (section, part) in enumerate(parts):
            yield from self.each(ctx, shared, place, section, part)


@record
class Rule:
    code: str
    name: str
    category: Category
    severity: Severity
    scope: Scope
    reads: tuple[str, ...]
    check: Callable[..., Iterable[Any]]  # findings; a combining rule's check yields its parts
    # Diagnostics of this rule mark code the author may delete (LSP "Unnecessary").
    unnecessary: bool = False
    # A section rule that needs the whole paper: `check(ctx, section)` returns what the section
    # contributes (cached per section), `combine(ctx, [(section, part), ...])` the findings.
    # A part may hold offsets (a PlacedBlock): it is kept while its section's text and the characters
    # it starts at are the same, so typing earlier in its file reads the section again.
    combine: Callable[..., Iterable[Finding]] | None = None
    # A combine split by section (the engine re-runs only the sections an edit concerns); `combine` is its whole-paper form.
    pairwise: Pairwise | None = None
    # The parts hold lines and columns (ranges, ctx.range/report/related), never offsets: a part is kept while its
    # section's text and place are the same, so a section that typing earlier in its file moved is not read again.
    placed_parts: bool = False

    @property
    def doc(self) -> str:
        """The check's docstring, then its module's "## How it decides" section when it has one: the long
        account of a rule's judgement lives beside its code, so the check function stays short."""
        doc = inspect.cleandoc(self.check.__doc__ or "")
        _, heading, detail = (inspect.getdoc(sys.modules[self.check.__module__]) or "").partition(HOW_IT_DECIDES)
        return f"{doc}\n\n{heading}{detail}" if heading else doc

    @property
    def summary(self) -> str:
        """The first sentence of "What it does" (the whole of it, across its wrapped lines)."""
        paragraph: list[str] = []
        for line in self.doc.splitlines():
            stripped = line.strip()
            if stripped.startswith("#") or (not stripped and paragraph):
                if paragraph:
                    break
                continue
            if stripped:
                paragraph.append(stripped)
        text = " ".join(paragraph)
        end = re.search(r"(?<!e\.g)(?<!i\.e)\.(\s|$)", text)
        return text[: end.start() + 1] if end else text or self.name


def rule(
    code: str,
    name: str,
    category: Category,
    severity: Severity,
    *,
    reads: Iterable[str],
    scope: Scope = Scope.PROJECT,
    unnecessary: bool = False,
    combine: Callable[..., Iterable[Finding]] | Pairwise | None = None,
    placed_parts: bool = False,
) -> Callable[[Callable[..., Iterable[Any]]], Rule]:
    reads = tuple(reads)
    unknown = set(reads) - FACETS.keys()
    if unknown:
        raise ValueError(f"rule {code} reads unknown facets {sorted(unknown)}")
    if combine is not None and scope is not Scope.SECTION:
        raise ValueError(f"rule {code}: only a section rule combines its sections' parts")

    def register(check: Callable[..., Iterable[Any]]) -> Rule:
        if not check.__doc__ or "## What it does" not in check.__doc__:
            raise ValueError(f"rule {code} needs a docstring with '## What it does'")
        if isinstance(combine, Pairwise):
            return Rule(code, name, category, severity, scope, reads, check, unnecessary, combine.combine, combine, placed_parts)
        return Rule(code, name, category, severity, scope, reads, check, unnecessary, combine, None, placed_parts)

    return register


def rules_in(*modules: types.ModuleType) -> Iterator[Rule]:
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, Rule):
                yield value


class Registry:
    def __init__(self, rules: Iterable[Rule]) -> None:
        self._rules: dict[str, Rule] = {}
        for item in rules:
            if item.code in self._rules:
                raise ValueError(f"two rules share code {item.code}")
            self._rules[item.code] = item

    def __iter__(self) -> Iterator[Rule]:
        return iter(sorted(self._rules.values(), key=lambda item: item.code))

    def __len__(self) -> int:
        return len(self._rules)

    def get(self, code_or_name: str) -> Rule | None:
        key = code_or_name.strip()
        found = self._rules.get(key.upper())
        if found is not None:
            return found
        return next((item for item in self._rules.values() if item.name == key.lower()), None)

    def select(self, select: Iterable[str] = (), ignore: Iterable[str] = ()) -> list[Rule]:
        """Rules whose code starts with a selected prefix and no ignored one (ruff-style)."""
        return [item for item in self if is_selected(item.code, select, ignore)]


def is_selected(code: str, select: Iterable[str] = (), ignore: Iterable[str] = ()) -> bool:
    """Whether `code` starts with a selected prefix (any, when none is) and with no ignored one."""
    selected = tuple(prefix.upper() for prefix in select) or ("",)
    return code.startswith(selected) and not code.startswith(tuple(prefix.upper() for prefix in ignore))
