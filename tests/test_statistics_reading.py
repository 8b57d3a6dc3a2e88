"""APA results as LaTeX authors write them: each class read, checked both ways, under the settings."""

import json
import time

import pytest
from helpers import document, make_project, rule_findings

from auditex.analyzers.apa_results import read_results
from auditex.analyzers.engine import Engine
from auditex.analyzers.p_values import Verdict, result_rows
from auditex.analyzers.project_config import OneTailed, StatisticsConfig
from auditex.cli.main import main


def rows(tmp_path, body, settings=None):
    project = make_project(tmp_path, {"main.tex": document("\\section{Results}\n" + body)})
    return result_rows(project, settings or StatisticsConfig())


def findings(tmp_path, body, config=""):
    files = {"main.tex": document("\\section{Results}\n" + body)}
    if config:
        files[".auditex.toml"] = config
    return [(f.code, f.severity.value) for f in rule_findings(tmp_path, files, "STAT001", "STAT002")]


# Each class of result, written consistently and then with a p its statistic cannot give.
CLASSES = {
    "comparison on the statistic": ("$t(28) < 2.2$, $p > .03$", "$t(28) < 2.2$, $p = .002$"),
    "F below one": ("$F(1, 24) < 1$, $p = .41$", "$F(1, 24) < 1$, $p = .21$"),
    "ns": ("$t(28) = 1.20$, ns", "$t(28) = 4.20$, n.s."),
    "thousands separator in N": ("$\\chi^2(1, N = 3{,}479) = 3.67$, $p = .055$", "$\\chi^2(1, N = 3,479) = 3.67$, $p = .075$"),
    "thousands separator in a df": ("$t(1{,}008) = 2.20$, $p = .028$", "$t(1,008) = 2.20$, $p = .048$"),
    "thousands separator in the statistic": ("$F(1, 2{,}040) = 1{,}208.5$, $p < .001$", "$F(1, 2{,}040) = 1{,}208.5$, $p = .12$"),
    "Q test": ("Q(3) = 8.10, p = .044", "Q(3) = 8.10, p = .024"),
    "Q between": ("$Q_b(1) = 3.78$, $p = .052$", "Qb(1) = 3.78, p = .082"),
    "Q within": ("$Q_{w}(12) = 20.1$, $p = .065$", "Qw(12) = 20.1, p = .025"),
    "Q between spelt out": ("$Q_{\\mathrm{Between}}(1) = 5.20$, $p = .023$", "$Q_{\\mathrm{Between}}(1) = 5.20$, $p = .053$"),
    "Q within spelt out": ("QWithin(12) = 30.10, p = .003", "Q-within(2) = 0.80, p = .370"),
    "the letter l for the digit 1": ("F(l, 76) = 4.20, p = .044", "F(l, 76) = 4.20, p = .014"),
    "chi-square as X2": ("X2(1) = 4.20, p = .040", "X2(1) = 4.20, p = .070"),
    "chi-square as x2": ("x2(2) = 6.10, p = .047", "x2(2) = 6.10, p = .027"),
    "chi-square as chi2": ("chi2(1) = 4.20, p = .040", "chi2(1) = 4.20, p = .070"),
    "chi-square as chi_2": ("chi\\_2(1) = 4.20, p = .040", "chi\\_2(1) = 4.20, p = .070"),
    "chi-square in Unicode": ("χ²(1) = 4.20, p = .040", "χ²(1) = 4.20, p = .070"),
    "chi-square in math": ("$\\chi^{2}(1) = 4.20$, $p = .040$", "$\\chi^2(1) = 4.20$, $p = .070$"),
    "ties in italics": ("\\textit{t}(28)~=~2.20, \\textit{p}~=~.036", "\\textit{t}(28)~=~2.20, \\textit{p}~=~.016"),
    "tie around a math sign": ("t(28)~$=$~2.20, p~$=$~.036", "t(28)~$=$~2.20, p~$=$~.016"),
    "braced equals and thin spaces": ("$t(28)\\,{=}\\,2.20$, $p\\,{=}\\,.036$", "$t(28)\\,{=}\\,2.20$, $p\\,{=}\\,.016$"),
    "leq and geq": ("$t(28) = 2.20$, $p \\leq .05$; $t(28) = 1.20$, $p \\geq .05$", "$t(28) = 2.20$, $p \\leq .01$"),
    "mathit and text": ("$\\mathit{t}(28) = 2.20$, $\\text{p} = .036$", "$\\mathit{t}(28) = 2.20$, $\\text{p} = .016$"),
    "siunitx": ("$t(\\num{28}) = \\num{2.20}$, $p = \\num{.036}$", "$F(\\num{1}, \\num{40}) = \\SI{4.2}{}$, $p = \\num{.017}$"),
    "p in its own parentheses": ("$t(28) = 2.20$ ($p = .036$)", "$t(28) = 2.20$ ($p = .016$)"),
    "effect size and CI between": (
        "$t(28) = 2.20$, $d = 0.81$, 95\\% CI [0.05, 1.55], $p = .036$",
        "$t(28) = 2.20$, Cohen's $d = 0.81$, 95\\% CI [0.05, 1.55], $p = .016$",
    ),
    "MSE between": ("$F(2, 40) = 4.10$, $MSE = 12.3$, $\\eta_p^2 = .17$, $p = .024$", "$F(2, 40) = 4.10$, $MSE = 12.3$, $p = .014$"),
    "Pandoc's text-mode signs": (
        "\\emph{t}(471.31) = 3.62, \\emph{p} \\textless{} .001",
        "\\emph{t}(471.31) = 1.62, \\emph{p} \\textless{} .001",
    ),
    "Unicode minus": ("t(28) = −2.20, p = .036", "t(28) = −2.20, p = .016"),
    "correlation and z": ("$r(48) = .32$, $p = .024$; $z = 2.50$, $p = .012$", "$r(48) = .32$, $p = .014$"),
}


@pytest.mark.parametrize("name", CLASSES)
def test_each_class_is_read_and_checked_both_ways(tmp_path, name):
    consistent, inconsistent = CLASSES[name]
    read = rows(tmp_path / "ok", consistent + ".")
    assert read and all(row.checked.verdict is Verdict.CONSISTENT for row in read), [row.verdict for row in read]
    assert findings(tmp_path / "ok2", consistent + ".") == []
    wrong = rows(tmp_path / "bad", inconsistent + ".")
    assert len(wrong) == 1 and wrong[0].checked.verdict.flagged
    assert findings(tmp_path / "bad2", inconsistent + ".")[0][1] in ("warning", "error")


def test_a_statistic_without_its_p_is_not_a_result(tmp_path):
    assert rows(tmp_path, "The model had $F(2, 45) = 3.10$ and $t(28) = 2.20$ in Table 2; but(28) = 2.20, p = .01.") == []


def test_truncated_p_is_a_warning_that_says_so(tmp_path):
    found = rule_findings(tmp_path, document("\\section{Results}\n$F(1, 186) = 5.73$, $p = .01$."), "STAT")
    assert [(f.code, f.severity.value) for f in found] == [("STAT001", "warning")]
    assert found[0].message.endswith("gives p = .018, but the text reports p = .01: consistent only if p was truncated, not rounded")


def test_an_unannounced_one_tailed_test_is_a_warning_that_says_so(tmp_path):
    found = rule_findings(tmp_path, document("\\section{Results}\n$t(19) = 3.66$, $p < .001$."), "STAT")
    assert [(f.code, f.severity.value) for f in found] == [("STAT001", "warning")]
    assert "gives p = .002 (two-tailed)" in found[0].message and "one-tailed test, which the text does not announce" in found[0].message


def test_a_one_tailed_decision_is_a_warning_and_an_announcement_anywhere_clears_it(tmp_path):
    body = "$t(28) = 1.80$, $p = .041$."
    assert findings(tmp_path / "a", body) == [("STAT002", "warning")]
    announced = document("\\section{Method}\nAll tests were one-sided.\n\\section{Results}\n" + body)
    assert rule_findings(tmp_path / "b", announced, "STAT") == []
    # "non-directional" announces the opposite
    assert findings(tmp_path / "c", "Hypotheses were non-directional. " + body) == [("STAT002", "warning")]


def test_p_zero_has_its_own_message(tmp_path):
    found = rule_findings(tmp_path, document("\\section{Results}\n$t(40) = 8.10$, $p = .000$."), "STAT")
    assert [(f.code, f.severity.value) for f in found] == [("STAT001", "warning")]
    assert found[0].message.startswith("p = .000 is impossible: a p-value is never 0") and found[0].message.endswith("report p < .001")


def test_p_zero_has_its_own_message_whatever_the_statistic_gives(tmp_path):
    body = "\\section{Results}\n$t(40) = 2.10$, $p = .000$. And $F(1, 20) = 1.20$, $p = .000$."
    found = sorted(rule_findings(tmp_path, document(body), "STAT"), key=lambda finding: finding.range.start.character)
    assert [finding.code for finding in found] == ["STAT001", "STAT002"]
    assert [finding.message for finding in found] == [
        "p = .000 is impossible: a p-value is never 0 (t(40) = 2.10 gives p = .042 (two-tailed)); report the p the statistic gives",
        "p = .000 is impossible: a p-value is never 0 (F(1, 20) = 1.20 gives p = .286); report the p the statistic gives, "
        "which reverses its significance at .05",
    ]


def test_ns_for_a_significant_statistic_is_a_decision_error(tmp_path):
    assert findings(tmp_path, "$t(28) = 3.20$, ns.") == [("STAT002", "error")]


def test_settings_alpha_and_p_equal_alpha(tmp_path):
    body = "$t(28) = 2.20$, $p = .036$; $z = 1.96$, $p = .05$."
    assert findings(tmp_path / "a", body) == []
    # At alpha .01, neither is significant: p = .036 is consistent, and called non-significant rightly.
    assert findings(tmp_path / "b", body, "[statistics]\nalpha = 0.01\n") == []
    # F(1, 100) = 3.70 gives .057: "p = .05" is it truncated, and significant only when p = alpha counts.
    assert findings(tmp_path / "c", "$F(1, 100) = 3.70$, $p = .05$.") == [("STAT002", "error")]
    assert findings(tmp_path / "d", "$F(1, 100) = 3.70$, $p = .05$.", "[statistics]\np-equal-alpha-significant = false\n") == [
        ("STAT001", "warning")
    ]


def test_setting_one_tailed(tmp_path):
    body = "$t(28) = 1.80$, $p = .041$."
    assert findings(tmp_path / "a", body, '[statistics]\none-tailed = "always"\n') == []
    assert findings(tmp_path / "b", "A one-tailed test: " + body, '[statistics]\none-tailed = "never"\n') == [("STAT002", "error")]
    always = rows(tmp_path / "c", "$t(28) = 2.20$, $p = .018$.", StatisticsConfig(one_tailed=OneTailed.ALWAYS))
    assert [row.checked.verdict for row in always] == [Verdict.ONE_TAILED]


def test_changing_a_setting_does_not_reuse_cached_results(tmp_path):
    body = "$t(28) = 1.80$, $p = .041$."
    assert findings(tmp_path, body) == [("STAT002", "warning")]
    assert findings(tmp_path, body, '[statistics]\none-tailed = "always"\n') == []


def test_an_invalid_setting_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "main.tex").write_text(document("x"), encoding="utf-8")
    (tmp_path / ".auditex.toml").write_text('[statistics]\none-tailed = "allways"\n', encoding="utf-8")
    assert main(["check", str(tmp_path / "main.tex")]) == 2
    assert "one-tailed: 'allways' is not a setting (did you mean 'always'?)" in capsys.readouterr().err


def test_json_lists_every_result_read_and_text_shows_the_table(tmp_path, capsys):
    (tmp_path / "main.tex").write_text(
        document("\\section{Results}\n$t(28) = 2.20$, $p = .036$.\n\n$F(2, 45) = 1.10$, $p < .05$."), encoding="utf-8"
    )
    main(["check", str(tmp_path / "main.tex"), "--format", "json", "--no-cache"])
    listed = json.loads(capsys.readouterr().out)["statistics"]
    assert [(row["statistic"], row["reported"], row["computed"], row["verdict"], row["line"]) for row in listed] == [
        ("t(28) = 2.20", "p = .036", "p = .036", "consistent", 4),
        ("F(2, 45) = 1.10", "p < .05", "p = .342", "decision error", 6),
    ]
    assert [(row["test"], row["df1"], row["df2"], row["value"]) for row in listed] == [("t", 28, None, 2.2), ("F", 2, 45, 1.1)]
    assert listed[0]["reported_p"] == 0.036 and abs(listed[0]["computed_p"] - 0.0362) < 1e-4 and listed[0]["tails"] == 2
    main(["check", str(tmp_path / "main.tex"), "--statistics", "--no-cache"])
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["where", "test", "reported", "computed", "verdict"]
    assert table[2].split()[-2:] == ["decision", "error"] and "F(2, 45) = 1.10" in table[2]
    assert table[1].split()[0].endswith("main.tex:5") and table[2].split()[0].endswith("main.tex:7")  # the text table counts from 1
    assert table[3] == "2 test results read, 1 flagged."
    # Without STAT001 and STAT002, the JSON report lists nothing of them.
    main(["check", str(tmp_path / "main.tex"), "--format", "json", "--select", "REF", "--no-cache"])
    assert "statistics" not in json.loads(capsys.readouterr().out)


def test_json_rows_keep_the_sign_as_written(tmp_path, capsys):
    body = "\\section{Results}\n$t(28) = 2.20$, $p \\leq .04$.\n\n$F(2, 45) = 1.10$, $p \\geq .05$."
    (tmp_path / "main.tex").write_text(document(body), encoding="utf-8")
    main(["check", str(tmp_path / "main.tex"), "--format", "json", "--no-cache"])
    listed = json.loads(capsys.readouterr().out)["statistics"]
    # `\geq` is "at least", not "more than": the rows say what the paper says.
    assert [(row["statistic"], row["reported"]) for row in listed] == [("t(28) = 2.20", "p ≤ .04"), ("F(2, 45) = 1.10", "p ≥ .05")]


def test_an_infinite_interval_bound_announces_a_one_sided_test(tmp_path):
    # CI [-9.54, ∞]: a test of "greater", whose p for a negative statistic lies near 1, not a reversed decision.
    greater = "The difference was not positive, $t(40) = -2.38$, 95\\% CI [-9.54, $\\infty$], $p = .989$."
    assert findings(tmp_path / "greater", greater) == []
    assert [row.checked.verdict for row in rows(tmp_path / "greater rows", greater)] == [Verdict.ONE_TAILED]
    less = "The difference was negative, $t(40) = -2.38$, 95\\% CI [$-\\infty$, -1.2], $p = .011$."
    assert findings(tmp_path / "less", less) == []
    # The direction counts: a test of "less" gives .011 for this statistic, never .989.
    assert findings(tmp_path / "wrong way", less.replace(".011", ".989")) == [("STAT002", "error")]
    assert findings(tmp_path / "two-sided", greater.replace("$\\infty$", "4.1")) == [("STAT002", "error")]


def test_an_equivalence_test_is_listed_but_not_checked(tmp_path):
    body = "With equivalence bounds of $r = \\pm 0.18$, the two one-sided tests show equivalence, $r(229) = -0.04$, $p = .015$."
    assert [row.checked.verdict for row in rows(tmp_path / "a", body)] == [Verdict.EQUIVALENCE_TEST]
    assert findings(tmp_path / "b", body) == []


def test_long_runs_of_spaces_and_ties_are_read_in_linear_time():
    # Two gaps side by side once split a run of spaces every way: seconds per paragraph.
    text = ("t(28) = 2.20 " + "~ " * 500) * 20
    started = time.perf_counter()
    assert read_results(text) == ()
    assert time.perf_counter() - started < 1.0


def test_an_announcement_typed_in_another_section_reaches_the_cached_results(tmp_path):
    text = document("\\section{Method}\nWe ran t-tests.\n\n\\section{Results}\n$t(28) = 1.80$, $p = .041$.")
    project = make_project(tmp_path, {"main.tex": text})
    engine = Engine()
    assert [f.code for f in engine.check(project) if f.code.startswith("STAT")] == ["STAT002"]
    project.update("main.tex", text.replace("We ran t-tests.", "We ran one-tailed t-tests."))
    assert [f.code for f in engine.check(project) if f.code.startswith("STAT")] == []


def test_a_table_row_gives_the_statistic_and_its_p_in_neighbouring_cells():
    row = "Order & F(1,267)=2.739 & p=.765\nGroup & F(1,267)=12.10 & p<.001"
    assert [(result.statistic, result.p_text) for result in read_results(row)] == [("F(1,267)=2.739", ".765"), ("F(1,267)=12.10", ".001")]
    # A bare number in the next cell is not a p: the row says what it is only through its header.
    assert read_results("Order & F(1,267)=2.739 & .765") == ()
