"""The analysis session: one merge rule for every source, edits equal to a cold check, and the
front ends built on it (Engine built in one module, no import circle in the server)."""

from __future__ import annotations

import ast
from pathlib import Path

from test_analysis_cache import PAPER, write
from test_architecture import package_modules

from auditex.analyzers.engine import RuleEngines
from auditex.analyzers.finding import Category, Finding, Range, Severity, Source
from auditex.analyzers.path_check import check_path
from auditex.analyzers.policy import merged
from auditex.analyzers.session import Session

PACKAGE = Path(__file__).resolve().parents[1]


def finding(
    code: str, line: int, fingerprint: str, source: Source = Source.RULE, category: Category = Category.EVIDENCE_MANIPULATION, **extra
) -> Finding:
    return Finding(
        code=code,
        category=category,
        severity=extra.pop("severity", Severity.WARNING),
        message=f"{code} on line {line}",
        file="main.tex",
        range=Range.of(line, 0, line, 10),
        source=source,
        fingerprint=fingerprint,
        **extra,
    )


def test_one_finding_per_fingerprint_whichever_sources_report_it_in_report_order():
    rule = finding("NUM001", 5, "a")
    online = finding("BIB001", 2, "b", category=Category.REFERENCE_FABRICATION)
    again = finding("BIB001", 2, "b", category=Category.REFERENCE_FABRICATION)
    assert merged([rule], [online, again]) == [online, rule]


def test_the_audits_report_of_a_rule_finding_wins_and_rejected_ones_are_left_out():
    confirmed = finding("NUM001", 5, "a")
    rejected = finding("NUM002", 7, "r")
    rated = confirmed.model_copy(update={"severity": Severity.ERROR, "verified": True})
    assert merged([confirmed, rejected], judged=[rated], refuted=["r"]) == [rated]


def test_an_llm_finding_that_repeats_a_deterministic_one_on_the_same_text_is_left_out():
    rule = finding("NUM001", 5, "a")
    repeat = finding("LLM-NUM", 5, "l1", Source.LLM)
    elsewhere = finding("LLM-NUM", 9, "l2", Source.LLM)
    other_kind = finding("LLM-CLAIM", 5, "l3", Source.LLM, category=Category.CLAIM_DISTORTION)
    assert merged([rule], others=[repeat, elsewhere, other_kind]) == [other_kind, rule, elsewhere]  # code breaks the tie


def test_edits_fed_to_a_session_give_what_a_cold_check_of_the_same_texts_gives(tmp_path):
    folder = tmp_path / "paper"
    write(folder, PAPER)
    session = Session(folder, rules=RuleEngines(), use_cache=False)
    session.check()
    edited = PAPER["results.tex"].replace("\\ref{tab:main} reports", "\\ref{tab:none} reports")
    session.apply({"results.tex": edited})
    session.check()
    (folder / "results.tex").write_text(edited, encoding="utf-8")
    cold = check_path(folder, use_cache=False)
    assert [f.model_dump() for f in session.findings] == [f.model_dump() for f in cold.findings]
    assert any("tab:none" in f.message for f in session.findings)


def test_a_session_answered_by_its_record_opens_its_projects_with_the_records_findings(tmp_path, monkeypatch):
    monkeypatch.setenv("AUDITEX_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "paper"
    write(folder, PAPER)
    first = check_path(folder)
    again = Session(folder, rules=RuleEngines())
    assert again.record is not None and again.check()
    assert again.states is None, "the record answered: nothing was parsed"
    assert [project.root_file for project in again.projects] == ["main.tex"]
    assert [f.model_dump() for f in again.findings] == [f.model_dump() for f in first.findings]


def _imports(path: Path) -> list[str]:
    """The modules `path` imports relatively (for type checking too), as dotted names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            module = f"{base}.{node.module}" if node.module else base
            found += [module] if node.module else [f"{module}.{alias.name}" for alias in node.names]
    return found


def _builds_engine(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and "Engine" in (getattr(node.func, "id", None), getattr(node.func, "attr", None)):
            return True
    return False


def test_engine_is_built_in_one_module():
    """The rule engine, that is (by the rules source, `RuleEngines`): batch's engines (a pool, Ray) are another
    kind. Only the package's own modules count: `pip install .` leaves a copy of them under build/, which is no
    second builder."""
    building = sorted(
        path.relative_to(PACKAGE).as_posix() for path in package_modules(PACKAGE, PACKAGE.name).values() if _builds_engine(path)
    )
    assert building == ["analyzers/engine.py"]


def test_the_servers_modules_import_in_one_direction():
    server = PACKAGE / "server"
    graph = {f"{PACKAGE.name}.server.{path.stem}": set(_imports(path)) for path in server.glob("*.py")}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for module in graph.get(start, ()):
            if module == goal or (module not in seen and (seen.add(module) or reaches(module, goal, seen))):
                return True
        return False

    circles = sorted(module for module in graph if reaches(module, module, set()))
    assert circles == []
    assert f"{PACKAGE.name}.server.main" not in set().union(*graph.values()), "no feature imports main"
