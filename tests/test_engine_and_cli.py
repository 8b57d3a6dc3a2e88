"""Rule engine, suppressions, config, dismissals and the `auditex check` contract."""

import json
import subprocess
import sys

from helpers import document, write_project

from auditex.analyzers.dismissals import Dismissals
from auditex.analyzers.engine import Engine
from auditex.analyzers.path_check import check_path
from auditex.analyzers.project_config import load_config
from auditex.analyzers.rules import default_registry
from auditex.cli.main import main
from auditex.latex.project import Project

BROKEN = {
    "main.tex": document("\\section{A}\\label{sec:a}\\label{sec:a}\nSee \\ref{sec:b} and \\cite{knuth84,missing}.\n\\bibliography{refs}"),
    "refs.bib": "@book{knuth84, title={TeX}}\n@book{unused, title={U}}\n@misc{bad, title = {unclosed\n",
}


def codes(findings):
    return sorted(f.code for f in findings)


def test_first_rules_fire_with_fixes_and_related(tmp_path):
    write_project(tmp_path, BROKEN)
    findings = check_path(tmp_path).findings
    assert {"REF001", "REF002", "CIT001", "CIT003", "CIT004"} <= set(codes(findings))
    undefined = next(f for f in findings if f.code == "REF001")
    assert undefined.fixes and undefined.fixes[0].edits[0].new_text == "sec:a"
    duplicate = next(f for f in findings if f.code == "REF002")
    assert duplicate.related and duplicate.related[0].message.startswith("first definition")


def test_every_rule_is_documented_in_ruff_shape():
    registry = default_registry()
    assert len(registry) >= 12
    for rule in registry:
        assert rule.doc.startswith("## What it does"), rule.code
        assert "## Why is this bad?" in rule.doc and "## Example" in rule.doc and "## Use instead" in rule.doc, rule.code
        assert registry.get(rule.name) is rule


def test_suppression_comments_same_line_and_line_above(tmp_path):
    write_project(
        tmp_path,
        {
            "main.tex": document(
                "\\ref{x1} % auditex: ignore[REF001]\n% auditex: ignore\n\\ref{x2}\n\\ref{x3} % auditex: ignore[CIT001]\n\\ref{x4}"
            ),
        },
    )
    lines = [f.range.start.line for f in check_path(tmp_path).findings if f.code == "REF001"]
    assert lines == [6, 7]  # x3 (other code suppressed) and x4


def test_config_selects_ignores_overrides_and_excludes(tmp_path):
    write_project(
        tmp_path, {**BROKEN, ".auditex.toml": '[rules]\nignore = ["CIT"]\nseverity = { REF001 = "warning" }\nexclude = ["other/*"]\n'}
    )
    findings = check_path(tmp_path).findings
    assert not any(f.code.startswith("CIT") for f in findings)
    assert next(f for f in findings if f.code == "REF001").severity.value == "warning"
    broken = tmp_path / "x"
    write_project(broken, {**BROKEN, ".auditex.toml": "[rules\nnot toml"})
    config = load_config(broken)
    assert config.problems and "could not be read" in config.problems[0]


def test_dismissed_findings_stay_hidden_and_can_be_restored(tmp_path):
    write_project(tmp_path, BROKEN)
    finding = next(f for f in check_path(tmp_path).findings if f.code == "REF001")
    Dismissals(tmp_path).dismiss(finding.fingerprint, finding.code, finding.file, finding.message)
    assert finding.fingerprint not in {f.fingerprint for f in check_path(tmp_path).findings}
    assert Dismissals(tmp_path).restore(finding.fingerprint)
    assert finding.fingerprint in {f.fingerprint for f in check_path(tmp_path).findings}


def test_fingerprints_survive_edits_elsewhere(tmp_path):
    write_project(tmp_path, BROKEN)
    before = {f.code: f.fingerprint for f in check_path(tmp_path).findings}
    main = tmp_path / "main.tex"
    main.write_text("% a new first line\n\nSome new paragraph.\n\n" + main.read_text())
    after = {f.code: f.fingerprint for f in check_path(tmp_path).findings}
    assert before["REF001"] == after["REF001"] and before["CIT001"] == after["CIT001"]


def test_engine_counts_each_rules_cpu_and_each_facet_digest_once(tmp_path):
    write_project(tmp_path, BROKEN)
    engine = Engine()
    engine.check(Project(tmp_path, "main.tex"))
    stats = engine.last_stats
    assert set(stats.rule_seconds) == {rule.code for rule in engine.enabled_rules}
    assert all(seconds >= 0 for seconds in stats.rule_seconds.values())
    read = {facet for rule in engine.enabled_rules for facet in rule.reads}
    assert "cites" in stats.facet_seconds and set(stats.facet_seconds) <= read


def test_engine_reuses_rule_results_until_what_they_read_changes(tmp_path):
    write_project(tmp_path, BROKEN)
    project = Project(tmp_path, "main.tex")
    engine = Engine()
    first = engine.check(project)
    assert engine.last_stats.rules_cached == 0
    again = engine.check(project)
    assert engine.last_stats.rules_run == 0 and again == first
    project.update("refs.bib", "@book{knuth84, title={TeX}}\n@book{missing, title={M}}\n")
    engine.check(project)
    assert 0 < engine.last_stats.rules_run < len(engine.enabled_rules)
    assert not any(f.code == "CIT001" for f in engine.check(project))


def test_an_engine_checking_another_project_or_stage_reads_that_one(tmp_path):
    """The engine makes each rule's context and a stage's selection once: a check of another project (a session that
    opened the folder again) reads that project, and another selection runs its own rules."""
    write_project(tmp_path / "a", BROKEN)
    write_project(tmp_path / "b", {**BROKEN, "main.tex": BROKEN["main.tex"].replace("knuth84,missing", "knuth84")})
    engine = Engine()
    engine.check(Project(tmp_path / "a", "main.tex"))
    other = Project(tmp_path / "b", "main.tex")
    assert [f.model_dump() for f in engine.check(other)] == [f.model_dump() for f in Engine().check(other)]
    for family in ("CIT", "REF"):
        found = {f.code for f in engine.check(other, only=lambda code, family=family: code.startswith(family))}
        assert found and all(code.startswith(family) for code in found)


def test_check_text_json_sarif_markdown_and_exit_codes(tmp_path, capsys):
    write_project(tmp_path, BROKEN)
    assert main(["check", str(tmp_path)]) == 1
    text = capsys.readouterr().out
    assert "main.tex:5:10: error REF001" in text
    assert main(["check", str(tmp_path), "--format", "json", "--fail-on", "never"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["version"] == 2 and payload["root"] == "main.tex"
    finding = payload["findings"][0]
    assert set(finding) >= {
        "code",
        "category",
        "severity",
        "message",
        "file",
        "range",
        "related",
        "source",
        "confidence",
        "fingerprint",
        "fixes",
    }
    assert main(["check", str(tmp_path), "--format", "sarif", "--fail-on", "error"]) == 1
    sarif = json.loads(capsys.readouterr().out)
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1
    assert main(["check", str(tmp_path), "--format", "markdown", "--fail-on", "never"]) == 0
    assert capsys.readouterr().out.startswith("# auditex report")
    assert main(["check", str(tmp_path / "nope")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_rule_and_rules_commands(capsys):
    assert main(["rule", "REF001"]) == 0
    assert "## What it does" in capsys.readouterr().out
    assert main(["rule", "unsafe-archive-member"]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("# SUB001 unsafe-archive-member") and "## Use instead\nAn archive of the project folder itself" in shown
    assert main(["rules"]) == 0
    assert "REF001" in capsys.readouterr().out
    assert main(["rule", "NOPE999"]) == 2


def test_sarif_validates_against_the_schema_shape(tmp_path):
    write_project(tmp_path, BROKEN)
    out = subprocess.run(
        [sys.executable, "-m", "auditex.cli.main", "check", str(tmp_path), "--format", "sarif"], capture_output=True, text=True, timeout=120
    )
    sarif = json.loads(out.stdout)
    run = sarif["runs"][0]
    rule_ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    for result in run["results"]:
        assert rule_ids[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] in {"error", "warning", "note", "none"}
        assert result["partialFingerprints"]["auditex/v1"]


def test_an_edit_reruns_section_rules_only_on_its_section_and_matches_a_cold_check(tmp_path):
    from auditex.analyzers.registry import Scope

    sections = "".join(f"\\section{{Part {i}}}\nWe found $t(28) = 2.20$, $p = .036$ in run {i}.\n\n" for i in range(6))
    write_project(tmp_path, {"main.tex": document(sections)})
    project = Project(tmp_path, "main.tex")
    engine = Engine()
    engine.check(project)
    section_rules = sum(1 for rule in engine.enabled_rules if rule.scope is Scope.SECTION)
    assert section_rules > 0
    text = project.documents["main.tex"].text.replace("in run 3.", "in run 3, $p = .9$ was wrong: $t(28) = 2.20$, $p = .9$.")
    project.update("main.tex", text)
    incremental = engine.check(project)
    project_rules = len(engine.enabled_rules) - section_rules
    combining = sum(1 for rule in engine.enabled_rules if rule.combine is not None)
    pairwise = sum(1 for rule in engine.enabled_rules if rule.pairwise is not None)  # also digest what the section feeds
    shifted = 2  # parts 4 and 5: the same text at other offsets, read again by a combine that recomputes
    # Only the edited section and the combines of its parts (and, at most, every project rule) ran again.
    assert engine.last_stats.rules_run <= section_rules + combining * (1 + shifted) + pairwise + project_rules
    assert engine.last_stats.rules_cached >= section_rules * 5
    (tmp_path / "main.tex").write_text(text)
    assert incremental == Engine().check(Project(tmp_path, "main.tex"))
    assert any(f.code.startswith("STAT") for f in incremental)


# What a new user hit (issue 13, item 7)


def test_an_invalid_config_is_a_usage_error_with_a_suggestion(tmp_path, capsys):
    write_project(tmp_path, BROKEN)
    for toml, expected in (
        ('[rules]\nselct = ["REF"]\n', "did you mean 'select'?"),
        ('[rulez]\nignore = ["REF"]\n', "did you mean 'rules'?"),
        ('[rules]\nseverity = { REF001 = "hnt" }\n', "did you mean 'hint'?"),
    ):
        (tmp_path / ".auditex.toml").write_text(toml, encoding="utf-8")
        assert main(["check", str(tmp_path)]) == 2
        captured = capsys.readouterr()
        assert expected in captured.err and captured.out == ""
    (tmp_path / ".auditex.toml").write_text('[rules]\nignore = ["REF01", "RHE", "LLM-EP"]\n', encoding="utf-8")
    assert main(["check", str(tmp_path), "--fail-on", "never"]) == 0
    warnings = capsys.readouterr().err.splitlines()
    assert len(warnings) == 1 and "unknown code 'REF01' in ignore" in warnings[0] and "did you mean 'REF001'?" in warnings[0]


def test_command_line_select_ignore_and_min_severity_filter_like_the_config(tmp_path, capsys):
    write_project(tmp_path, BROKEN)
    everything = {f.code for f in check_path(tmp_path).findings}
    assert {"REF001", "CIT001"} <= everything
    main(["check", str(tmp_path), "--format", "json", "--select", "REF,CIT", "--ignore", "CIT"])
    assert {f["code"] for f in json.loads(capsys.readouterr().out)["findings"]} == {c for c in everything if c.startswith("REF")}
    main(["check", str(tmp_path), "--format", "json", "--min-severity", "error"])
    assert {f["severity"] for f in json.loads(capsys.readouterr().out)["findings"]} == {"error"}


def test_text_hides_hints_unless_asked_and_ends_with_counts_per_code(tmp_path, capsys, monkeypatch):
    write_project(tmp_path / "paper", BROKEN)
    monkeypatch.chdir(tmp_path)
    main(["check", "paper", "--fail-on", "never"])
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert " hint " not in text and "not shown (--hints shows them)" in lines[-1]
    assert "Checked paper/main.tex." in lines
    severities = [line.split(": ", 1)[1].split()[0] for line in lines if line.startswith("paper/")]
    assert severities == sorted(severities, key=["error", "warning", "information"].index)
    assert any(line.split()[1:3] == ["REF001", "error"] for line in lines if line[:1].strip().isdigit() or line.startswith(" "))
    main(["check", "paper", "--hints", "--fail-on", "never"])
    assert " hint " in capsys.readouterr().out
    main(["check", "paper", "--format", "sarif", "--fail-on", "never"])
    sarif = json.loads(capsys.readouterr().out)["runs"][0]
    assert sarif["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.resolve().as_uri() + "/"
    assert sarif["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith("paper/")


def test_output_into_a_missing_folder_creates_it_and_an_unwritable_one_is_a_usage_error(tmp_path, capsys):
    write_project(tmp_path / "paper", BROKEN)
    report = tmp_path / "out" / "deep" / "report.json"
    assert main(["check", str(tmp_path / "paper"), "--format", "json", "-o", str(report), "--fail-on", "never"]) == 0
    assert json.loads(report.read_text())["findings"]
    (tmp_path / "file").write_text("")
    assert main(["check", str(tmp_path / "paper"), "-o", str(tmp_path / "file" / "report.txt")]) == 2
    err = capsys.readouterr().err
    assert "cannot write the report" in err and "Traceback" not in err


def test_llm_codes_are_documented(capsys):
    assert main(["rule", "LLM-CD"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# LLM-CD Claim Distortion") and "ignore[LLM-CD]" in out
    main(["rules"])
    listing = capsys.readouterr().out.splitlines()
    assert any(line.startswith("LLM-EP") and line.endswith("found by `auditex audit` (LLM)") for line in listing)


def test_latin1_and_unclosed_brace_are_located(tmp_path):
    write_project(tmp_path, {"main.tex": "\\documentclass{article}\n\\begin{document}\n\\section{Intro\nText.\n\\end{document}\n"})
    brace = next(f for f in check_path(tmp_path).findings if "never closed" in f.message)
    assert (brace.range.start.line, brace.range.start.character) == (2, 8)
    (tmp_path / "main.tex").write_bytes(b"\\documentclass{article}\n\\begin{document}\nCaf\xe9.\n\\end{document}\n")
    latin = next(f for f in check_path(tmp_path).findings if f.code == "INC004")
    assert (latin.range.start.line, latin.range.start.character) == (2, 3)
    assert "line 3, column 4" in latin.message and "re-save the file as UTF-8" in latin.message
