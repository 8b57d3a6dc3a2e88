"""The citation family's science: which keys the bibliography defines and the paper cites, and how two entries differ."""

from __future__ import annotations

import re

from ....latex.bibliography import BibEntry, is_printed_field
from ...context import RuleContext


def known_keys(ctx: RuleContext) -> set[str]:
    return set(ctx.index.bib_entries) | set(ctx.index.bibitems)


def cited_keys(ctx: RuleContext) -> set[str]:
    return {cite.key for _, cite in ctx.index.cites}


def is_cited(key: str, cited: set[str]) -> bool:
    return key in cited or "*" in cited  # \nocite{*} puts every entry in the bibliography


def missing_bibliography_files(ctx: RuleContext) -> list[str]:
    targets = [problem.target for problem in ctx.project.problems if problem.kind == "missing_bibliography" and problem.target]
    return [target if target.endswith(".bib") else f"{target}.bib" for target in targets]


def differing_fields(first: BibEntry, second: BibEntry) -> list[str]:
    """Names of what differs between two entries as a reference shows them (empty when identical)."""
    if first.content() == second.content():
        return []
    differing = ["entry type"] if first.entry_type.lower() != second.entry_type.lower() else []
    names = sorted({name for name in (*first.fields, *second.fields) if is_printed_field(name)})
    differing += [name for name in names if " ".join(first.fields.get(name, "").split()) != " ".join(second.fields.get(name, "").split())]
    return [f"`{name}`" if name != "entry type" else name for name in differing]


def numbered_apart(a: str, b: str) -> bool:
    """Titles that differ only in numbers or roman numerals: volumes or parts of one series ("Vol. I", "Vol. II")."""
    differing = set(a.split()) ^ set(b.split())
    return bool(differing) and all(re.fullmatch(r"\d+|[ivxlc]+", word) for word in differing)
