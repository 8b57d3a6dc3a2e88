"""`auditex rules` and `auditex rule CODE`: the catalogue of codes (analyzers/codes.py), rules and LLM codes alike."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping

from ..analyzers.codes import code_table
from ..analyzers.finding import CONFIDENT
from ..analyzers.precision import (
    GENERAL_PAPERS,
    LOWER_BOUND_BAR,
    PRECISION_BAR,
    UNSURE,
    Measured,
    is_gated,
    measured,
    measured_on,
    measured_rule_tiers,
    measured_tiers,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], commands: dict[str, tuple[str, str]]) -> None:
    listing = subparsers.add_parser("rules", help=commands["rules"][1])
    listing.set_defaults(run=run_rules)
    single = subparsers.add_parser("rule", help=commands["rule"][1])
    single.add_argument("code", help="a rule code (REF001) or name (undefined-reference)")
    single.set_defaults(run=run_rule)


# The listing fits a terminal of this many columns: a summary too long is cut, and `auditex rule CODE` has it whole.
LISTING_WIDTH = 100


def run_rules(arguments: argparse.Namespace) -> int:
    entries = list(code_table())
    rows = [("code", "severity", "name", "summary")]
    for entry in entries:
        severity = entry.severity.value if entry.severity else "(verdict)"
        rows.append((entry.code, severity, entry.name, entry.summary if entry.rule else "found by `auditex audit` (LLM)"))
    widths = [max(len(row[column]) for row in rows) for column in range(3)]
    for *columns, summary in rows:
        line = " ".join(cell.ljust(width) for cell, width in zip(columns, widths, strict=True)) + " "
        print(line + _fitted(summary, LISTING_WIDTH - len(line)))
    print(f"\n{len(entries)} codes. `auditex rule CODE` prints a code's whole text.")
    return 0


def _fitted(text: str, width: int) -> str:
    """`text`, cut at a word boundary and marked "…" when it is wider than `width`."""
    if len(text) <= width:
        return text
    cut = text[: width - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def run_rule(arguments: argparse.Namespace) -> int:
    entry = code_table().get(arguments.code)
    if entry is None:
        print(f"auditex: error: no rule '{arguments.code}'; `auditex rules` lists them", file=sys.stderr)
        return 2
    if entry.rule is None:
        category = entry.category.value if entry.category else "the type the model names"
        print(f"# {entry.code} {entry.name} (LLM)\n")
        print(f"Category: {category} · found by `auditex audit` (and `auditex.audit` in the editor), never by `auditex check`.\n")
        print(entry.doc)
        return 0
    rule = entry.rule
    print(f"# {rule.code} {rule.name}\n")
    print(f"Category: {rule.category.value} · default severity: {rule.severity.value} · scope: {rule.scope.value}")
    if is_gated(rule.code):
        print(
            f"A finding with confidence below {CONFIDENT} is measured apart (its class ends {UNSURE.strip()!r}) and is"
            " information unless that class was measured precise by itself.\n"
        )
    else:
        print(f"A finding with confidence below {CONFIDENT} is reported as information, never as a warning or error.\n")
    print(rule.doc)
    print(measured_precision(rule.code))
    return 0


def _pools(pools: Mapping[str, Measured]) -> str:
    return ", ".join(f"{tier} {m.genuine}/{m.findings} ({m.precision:.0%}, bound {m.lower_bound:.0%})" for tier, m in pools.items())


def measured_precision(code: str) -> str:
    """The rule's precision per evidence class, as measured on the triaged corpus (analyzers/precision.py)."""
    lines = ["", "## Measured precision", f"On the triaged corpus ({measured_on()}):", ""]
    classes = measured(code)
    if classes:
        lines.append("| evidence class | findings | genuine | false | precision | 95% lower bound | may warn |")
        lines.append("|---|---:|---:|---:|---:|---:|---|")
        for item in classes:
            m = item.measured
            warns = ("yes" if item.warns else "no") if is_gated(code) else "not gated"
            lines.append(
                f"| {item.evidence} | {m.findings} | {m.genuine} | {m.false} | {m.precision:.0%} | {m.lower_bound:.0%} | {warns} |"
            )
    else:
        lines.append("No finding of this rule on the corpus.")
    if is_gated(code):
        own = {tier: m for (rule_code, tier), m in measured_rule_tiers().items() if rule_code == code}
        lines += [
            "",
            f"A finding of this rule is a warning only in an evidence class measured at {PRECISION_BAR:.0%} precision or more,",
            f"of which one pool, nearest first, has {PRECISION_BAR:.0%} precision and a 95% Wilson lower bound of {LOWER_BOUND_BAR:.0%} or more:",
            "the class itself, this rule's classes of its tier "
            f"({_pools(own) or 'none measured'}), or the tier over the science rules ({_pools(measured_tiers()) or 'none measured'});",
            f"or whose genuine findings, or those of this rule's classes of its tier at {PRECISION_BAR:.0%} precision, lie on"
            f" {GENERAL_PAPERS} papers or more. In any other class it is information.",
        ]
    return "\n".join(lines)
