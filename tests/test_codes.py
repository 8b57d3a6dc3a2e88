"""The one table of codes (analyzers/codes.py), and what reads it: `auditex rules`, SARIF, the editor."""

from __future__ import annotations

import json
import re
from pathlib import Path

from auditex.analyzers.codes import code_names, code_table
from auditex.analyzers.finding import Category, Finding, Position, Range, Severity, Source
from auditex.analyzers.llm.codes import CRITICAL_CODE, code_for
from auditex.analyzers.llm.detection_prompts import error_types
from auditex.analyzers.reports.sarif import to_sarif
from auditex.analyzers.reports.text import rule_counts
from auditex.analyzers.rules import default_registry
from auditex.cli.main import main
from auditex.server.convert import diagnostic, hover_markdown

ROOT = Path(__file__).resolve().parents[1]


def _finding(code: str, source: Source = Source.RULE) -> Finding:
    at = Range(start=Position(line=0, character=0), end=Position(line=0, character=4))
    return Finding(
        code=code, category=Category.LATEX, severity=Severity.WARNING, message="m", file="main.tex", range=at, source=source
    ).with_fingerprint()


def test_the_table_holds_every_rule_and_every_llm_code_once():
    codes = [entry.code for entry in code_table()]
    assert len(codes) == len(set(codes))
    rules = [rule.code for rule in default_registry()]
    llm = [code_for(kind.category) for kind in error_types()]
    assert codes == [*rules, *llm, CRITICAL_CODE]  # rules by code, then the LLM codes


def test_the_names_a_check_reads_are_the_tables_in_its_order():
    assert list(code_names().items()) == [(entry.code, entry.name) for entry in code_table()]


def test_a_rule_code_says_what_the_rule_declares():
    rule = default_registry().get("REF001")
    entry = code_table().get("REF001")
    assert entry is not None and rule is not None and entry.rule is rule
    assert (entry.name, entry.category, entry.severity, entry.summary, entry.doc) == (
        "undefined-reference",
        rule.category,
        Severity.ERROR,
        rule.summary,
        rule.doc,
    )
    assert (entry.source, entry.family) == (Source.RULE, "REF")


def test_an_llm_code_has_a_doc_in_the_rules_shape_and_no_default_severity():
    entry = code_table().get("LLM-CD")
    assert entry is not None and entry.rule is None
    assert (entry.name, entry.category, entry.severity, entry.source, entry.family) == (
        "Claim Distortion",
        Category.CLAIM_DISTORTION,
        None,
        Source.LLM,
        "LLM",
    )
    assert entry.doc.startswith(f"## What it does\n{entry.summary}\n") and "ignore[LLM-CD]" in entry.doc
    critical = code_table().get("LLM-CRIT")
    assert critical is not None and critical.category is None


def test_every_code_is_documented():
    for entry in code_table():
        assert entry.doc.startswith("## What it does"), entry.code
        assert entry.summary and entry.name, entry.code


def test_a_rule_page_ends_with_how_its_module_says_it_decides(capsys):
    assert main(["rule", "NUM001"]) == 0
    page = capsys.readouterr().out
    what, _, decides = page.partition("## How it decides")
    assert "## What it does" in what and "## Confidence" in what
    assert "When several cells are one digit away" in decides and "When several cells" not in what
    assert "## How it decides" not in default_registry().get("REF002").doc


def test_a_code_is_found_by_code_in_any_case_or_by_name():
    table = code_table()
    assert table.get(" ref001 ") is table.get("REF001") is table.get("undefined-reference")
    assert table.get("llm-cd") is table.get("claim distortion") is table.get("LLM-CD")
    assert table.get("NOPE999") is None and table.get("") is None


def test_each_help_uri_points_at_the_line_or_file_that_defines_the_code():
    for entry in code_table():
        prefix = "https://github.com/auditex/auditex/blob/v0.1.0/"
        assert entry.help_uri.startswith(prefix), entry.help_uri
        path, _, line = entry.help_uri.removeprefix(prefix).partition("#L")
        text = (ROOT / path).read_text(encoding="utf-8")
        if entry.rule is not None:
            declared = "\n".join(text.splitlines()[int(line) - 1 :])
            assert re.match(rf'@rule\(\s*"{entry.code}"', declared), entry.help_uri
        else:
            assert entry.name in text, entry.help_uri


def test_the_rules_listing_is_the_table_and_fits_100_columns(capsys):
    assert main(["rules"]) == 0
    header, *rows, _, footer = capsys.readouterr().out.splitlines()
    assert header.split() == ["code", "severity", "name", "summary"]
    assert [line.split()[0] for line in rows] == [entry.code for entry in code_table()]
    assert max(len(line) for line in [header, *rows, footer]) <= 100
    assert "`auditex rule CODE`" in footer  # where the whole text is
    # A summary too long for its column is cut at a word and says so.
    summaries = {entry.code: entry.summary for entry in code_table()}
    cut = {line.split()[0]: line[header.index("summary") : -1] for line in rows if line.endswith("…")}
    assert cut and all(summaries[code].startswith(shown) and len(shown) < len(summaries[code]) for code, shown in cut.items())


def test_sarif_describes_rules_and_llm_codes_from_the_table():
    findings = [_finding("REF001"), _finding("LLM-CD", Source.LLM), _finding("XYZ999")]
    rules = {rule["id"]: rule for rule in json.loads(to_sarif(findings))["runs"][0]["tool"]["driver"]["rules"]}
    for code in ("REF001", "LLM-CD"):
        entry = code_table().get(code)
        assert entry is not None
        assert rules[code]["name"] == entry.name
        assert rules[code]["shortDescription"]["text"] == entry.summary
        assert rules[code]["help"]["markdown"] == rules[code]["fullDescription"]["text"] == entry.doc
    assert rules["REF001"]["properties"]["category"] == "latex" and rules["LLM-CD"]["properties"]["category"] == "llm"
    assert rules["XYZ999"]["name"] == rules["XYZ999"]["shortDescription"]["text"] == "XYZ999"  # a code no table knows


def test_a_diagnostic_links_its_code_and_the_hover_explains_llm_codes_too():
    for code, source in (("REF003", Source.RULE), ("LLM-EP", Source.LLM)):
        entry = code_table().get(code)
        assert entry is not None
        shown = diagnostic(_finding(code, source), Path("/paper"))
        assert shown.code == code and shown.code_description is not None
        assert shown.code_description.href == entry.help_uri
        assert f"*{entry.name}*: {entry.summary}" in hover_markdown([_finding(code, source)])
    assert diagnostic(_finding("REF003"), Path("/paper")).tags  # an unused label is marked unnecessary
    assert diagnostic(_finding("XYZ999"), Path("/paper")).code_description is None
    assert re.search(r"\*LLM finding: .*confidence 1\.00", hover_markdown([_finding("LLM-EP", Source.LLM)]))


def test_the_count_per_code_counts_each_severity_apart():
    # An audit's LLM-CD findings take the verifier's verdict: four warnings and two information, not "6 information".
    findings = [_finding("LLM-CD", Source.LLM).model_copy(update={"severity": severity}) for severity in [Severity.WARNING] * 4]
    findings += [_finding("LLM-CD", Source.LLM).model_copy(update={"severity": Severity.INFORMATION}) for _ in range(2)]
    lines = [" ".join(line.split()[:3]) for line in rule_counts(findings)]
    assert lines == ["4 LLM-CD warning", "2 LLM-CD information"]
