"""`auditex rules` and `auditex rule CODE`: the rule catalogue."""

from __future__ import annotations

import argparse
import sys

from ..analyzers.finding import CONFIDENT
from ..analyzers.registry import default_registry


def register(subparsers, commands: dict[str, tuple[str, str]]) -> None:
    listing = subparsers.add_parser("rules", help=commands["rules"][1])
    listing.set_defaults(run=run_rules)
    single = subparsers.add_parser("rule", help=commands["rule"][1])
    single.add_argument("code", help="a rule code (REF001) or name (undefined-reference)")
    single.set_defaults(run=run_rule)


def run_rules(arguments: argparse.Namespace) -> int:
    for rule in default_registry():
        print(f"{rule.code:8} {rule.severity.value:12} {rule.category.value:22} {rule.name}: {rule.summary}")
    return 0


def run_rule(arguments: argparse.Namespace) -> int:
    rule = default_registry().get(arguments.code)
    if rule is None:
        print(f"auditex: error: no rule '{arguments.code}'; `auditex rules` lists them", file=sys.stderr)
        return 2
    print(f"# {rule.code} {rule.name}\n")
    print(f"Category: {rule.category.value} · default severity: {rule.severity.value} · scope: {rule.scope.value}")
    print(f"A finding with confidence below {CONFIDENT} is reported as information, never as a warning or error.\n")
    print(rule.doc)
    return 0
