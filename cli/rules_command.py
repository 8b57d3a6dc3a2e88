"""`auditex rules` and `auditex rule CODE`: the rule catalogue."""

from __future__ import annotations

import argparse
import sys

from ..analyzers.finding import CONFIDENT
from ..analyzers.llm.codes import LLMCode, llm_codes
from ..analyzers.precision import LOWER_BOUND_BAR, PRECISION_BAR, is_gated, measured, measured_on, measured_tiers
from ..analyzers.rules import default_registry


def register(subparsers, commands: dict[str, tuple[str, str]]) -> None:
    listing = subparsers.add_parser("rules", help=commands["rules"][1])
    listing.set_defaults(run=run_rules)
    single = subparsers.add_parser("rule", help=commands["rule"][1])
    single.add_argument("code", help="a rule code (REF001) or name (undefined-reference)")
    single.set_defaults(run=run_rule)


def run_rules(arguments: argparse.Namespace) -> int:
    for rule in default_registry():
        print(f"{rule.code:8} {rule.severity.value:12} {rule.category.value:22} {rule.name}: {rule.summary}")
    for code in llm_codes().values():
        print(f"{code.code:8} {'(confidence)':12} {code.category.value if code.category else 'any':22} {code.name} (LLM, `auditex audit`)")
    return 0


def run_rule(arguments: argparse.Namespace) -> int:
    rule = default_registry().get(arguments.code)
    if rule is None:
        llm = llm_codes().get(arguments.code.strip().upper())
        if llm is not None:
            print(llm_doc(llm))
            return 0
        print(f"auditex: error: no rule '{arguments.code}'; `auditex rules` lists them", file=sys.stderr)
        return 2
    print(f"# {rule.code} {rule.name}\n")
    print(f"Category: {rule.category.value} · default severity: {rule.severity.value} · scope: {rule.scope.value}")
    print(f"A finding with confidence below {CONFIDENT} is reported as information, never as a warning or error.\n")
    print(rule.doc)
    print(measured_precision(rule.code))
    return 0


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
        tiers = ", ".join(
            f"{tier} {m.genuine}/{m.findings} ({m.precision:.0%}, bound {m.lower_bound:.0%})" for tier, m in measured_tiers().items()
        )
        lines += [
            "",
            f"A finding of this rule is a warning only in an evidence class measured at {PRECISION_BAR:.0%} precision or more,",
            f"whose evidence tier, pooled over the science rules, has {PRECISION_BAR:.0%} precision and a 95% Wilson lower bound",
            f"of {LOWER_BOUND_BAR:.0%} or more ({tiers or 'no tier measured'}); in any other class it is information.",
        ]
    return "\n".join(lines)


def llm_doc(code: LLMCode) -> str:
    category = code.category.value if code.category else "the type the model names"
    return f"""# {code.code} {code.name} (LLM)

Category: {category} · found by `auditex audit` (and `auditex.audit` in the editor), never by `auditex check`.

## What it does
{code.definition}

## Severity
From the model's confidence, per `[llm.severity]` in `.auditex.toml`: warning at 0.8 and above,
information at 0.5, hint below; rhetoric bias is capped at information. A finding whose quote is
not in the paper is dropped.

## Options
Like rule codes: `[rules] ignore = ["{code.code}"]`, `--ignore {code.code}`, `[rules] severity`,
and `% auditex: ignore[{code.code}]` on the line or the line above."""
