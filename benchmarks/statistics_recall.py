"""How many APA results STAT001/STAT002 read and judge right, on a labelled generated set.

Run: python benchmarks/statistics_recall.py [--results 600] [--seed 22]

Each result is drawn at random: a test (t, F, r, z, chi-square, Q), its degrees of freedom
and a statistic written with two decimals. Its p-value is computed here with scipy.stats,
apart from auditex. Half the results report that p correctly (rounded to two or three
decimals, `< .001`, `< .05`, `ns` or `> .05`); the other half report a perturbed p that
the statistic cannot give under any rounding of either number, some of them across .05
(decision errors). Each is written in one of the spellings authors use: text, math and
`\\textit{}` styles, `\\chi^2`, `X2`, `chi2`, `χ²`, `Q_b`, ties `~`, `{=}`, `\\num{}`,
thousands separators, the p in its own parentheses, an effect size and a CI between the
statistic and p. The results go into LaTeX papers (one paragraph per result, 50 per
paper), which `auditex check` reads as it reads any paper; the labels are then compared
with what it read and reported.

Targets (issue 22): ≥ 95% read, ≥ 90% of the inconsistent ones flagged at warning or
above, every decision error flagged, ≥ 99% of the consistent ones without a warning.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from scipy import stats

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT.parent))

from auditex.analyzers.finding import Severity  # noqa: E402
from auditex.analyzers.p_values import result_rows  # noqa: E402
from auditex.analyzers.path_check import check_path  # noqa: E402
from auditex.analyzers.project_config import Config, RulesConfig  # noqa: E402

ALPHA = 0.05
PER_PAPER = 50
TESTS = ("t", "F", "r", "z", "chi2", "Q")
STYLES = ("text", "math", "textit")


@dataclass
class Labelled:
    latex: str
    test: str
    consistent: bool
    decision_error: bool


def p_of(test: str, value: float, df1: int, df2: int) -> float:
    if test == "t":
        return float(2 * stats.t.sf(abs(value), df1))
    if test == "F":
        return float(stats.f.sf(value, df1, df2))
    if test == "r":
        t = abs(value) * (df1 / (1 - value * value)) ** 0.5
        return float(2 * stats.t.sf(t, df1))
    if test == "z":
        return float(2 * stats.norm.sf(abs(value)))
    return float(stats.chi2.sf(value, df1))


def p_range(test: str, value: float, df1: int, df2: int) -> tuple[float, float]:
    """The p-values of every statistic that rounds to the two decimals written."""
    a, b = p_of(test, abs(value) + 0.005, df1, df2), p_of(test, max(abs(value) - 0.005, 0), df1, df2)
    return min(a, b), max(a, b)


def draw_statistic(rng: random.Random, test: str) -> tuple[float, int, int]:
    df1 = (
        rng.choice((1, 1, 2, 3, 4))
        if test in ("F", "chi2", "Q")
        else rng.randint(8, 400)
        if rng.random() < 0.85
        else rng.randint(1000, 3000)
    )
    df2 = rng.randint(10, 3000)
    if test == "r":
        value = round(rng.uniform(-0.6, 0.6), 2)
    elif test in ("t", "z"):
        value = round(rng.choice((-1, 1)) * rng.uniform(0.3, 4.5), 2)
    else:
        value = round(rng.uniform(0.2, 14.0), 2)
    return value, df1, df2


def correct_p(rng: random.Random, p: float) -> tuple[str, str]:
    """A correct report of p: (comparison, number)."""
    if p < 0.001:
        return "<", ".001"
    style = rng.random()
    if p < ALPHA and style < 0.2:
        bound = ".01" if p < 0.01 else ".05"
        return "<", bound
    if p > ALPHA and style < 0.1:
        return "ns", ""
    if p > ALPHA and style < 0.2:
        return ">", ".05"
    decimals = 2 if style < 0.35 and p >= 0.01 else 3
    return "=", f"{p:.{decimals}f}".lstrip("0")


def wrong_p(rng: random.Random, test: str, value: float, df1: int, df2: int) -> tuple[str, str, bool] | None:
    """A perturbed report that no rounding, truncation or one-tailed reading makes consistent, and whether it reverses the decision."""
    low, high = p_range(test, value, df1, df2)
    p = p_of(test, value, df1, df2)
    for _ in range(20):
        factor = rng.choice((rng.uniform(0.15, 0.6), rng.uniform(1.7, 6.0)))
        reported = round(min(p * factor, 0.99), 3)
        if reported < 0.001:
            continue
        tails = (1.0, 0.5) if test in ("t", "r", "z") else (1.0,)
        explained = any(
            (reported - 0.0005 <= high * tail and low * tail <= reported + 0.0005)  # rounded
            or (reported <= high * tail and low * tail < reported + 0.001)  # truncated
            for tail in tails
        )
        if explained:
            continue
        significant_reported = reported <= ALPHA
        decision = (significant_reported and low > ALPHA) or (not significant_reported and high < ALPHA)
        return "=", f"{reported:.3f}".lstrip("0"), decision
    return None


def spelled(rng: random.Random, test: str, value: float, df1: int, df2: int, comparison: str, p: str) -> str:
    """The result in one author's spelling."""
    style = rng.choice(STYLES)
    big_n = rng.random() < 0.15
    number = f"{value:.2f}".replace("0.", ".", 1) if test == "r" else f"{value:.2f}"
    if test == "r" and value < 0:
        number = "-" + f"{abs(value):.2f}".lstrip("0")
    if style == "math" and rng.random() < 0.1:
        number = f"\\num{{{number}}}"
    df_text = f"{df1:,}".replace(",", "{,}") if df1 >= 1000 else str(df1)
    name = {"chi2": rng.choice(("\\chi^2", "\\chi^{2}", "X2", "x2", "chi2", "χ²")), "Q": rng.choice(("Q", "Q_b", "Q_{w}", "Qb"))}.get(
        test, test
    )
    text_only = name in ("X2", "x2", "chi2", "χ²", "Qb")
    if style == "textit" and not text_only:
        name = f"\\textit{{{name}}}" if name in ("t", "F", "r", "z", "Q") else f"${name}$"
    if test == "F":
        degrees = f"({df1}, {df2:,})".replace(",", "{,}", 1 if df2 >= 1000 else 0) if df2 >= 1000 else f"({df1}, {df2})"
    elif test == "z":
        degrees = ""
    elif test == "chi2" and big_n:
        degrees = f"({df1}, N = {rng.randint(1000, 9000):,})"
    else:
        degrees = f"({df_text})"
    eq = {"text": " = ", "math": " = ", "textit": "~=~"}[style]
    if rng.random() < 0.1:
        eq = " {=} "
    if comparison == "ns":
        p_part = "ns"
    else:
        sign = {"=": "=", "<": rng.choice(("<", "\\leq")), ">": ">"}[comparison]
        p_name = "\\textit{p}" if style == "textit" else "p"
        p_part = f"{p_name}{eq if sign == '=' else f' {sign} '}{p}"
    between = ""
    if rng.random() < 0.15 and comparison != "ns":
        between = rng.choice((", d = 0.41", ", $\\eta_p^2 = .06$", ", 95\\% CI [0.12, 0.88]", ", MSE = 1.92"))
    if style == "math" and not text_only:
        statistic = f"${name}{degrees}{eq}{number}${between}"
        p_math = p_part if comparison == "ns" else f"${p_part}$"
        return f"{statistic} (${p_part}$)" if rng.random() < 0.1 and comparison != "ns" else f"{statistic}, {p_math}"
    p_text = p_part.replace("\\leq", "$\\leq$")
    statistic = f"{name}{degrees}{eq}{number}{between}"
    return f"{statistic} ({p_text})" if rng.random() < 0.1 and comparison != "ns" else f"{statistic}, {p_text}"


def generate(count: int, seed: int) -> list[Labelled]:
    rng = random.Random(seed)
    results: list[Labelled] = []
    while len(results) < count:
        test = TESTS[len(results) % len(TESTS)]
        value, df1, df2 = draw_statistic(rng, test)
        p = p_of(test, value, df1, df2)
        if len(results) % 2 == 0:
            comparison, number = correct_p(rng, p)
            results.append(Labelled(spelled(rng, test, value, df1, df2, comparison, number), test, True, False))
        else:
            wrong = wrong_p(rng, test, value, df1, df2)
            if wrong is None:
                continue
            comparison, number, decision = wrong
            results.append(Labelled(spelled(rng, test, value, df1, df2, comparison, number), test, False, decision))
    return results


def measure(results: list[Labelled]) -> dict[str, tuple[int, int]]:
    config = Config(rules=RulesConfig(select=["STAT001", "STAT002"]))
    read = flagged = inconsistent = decisions = decisions_flagged = decisions_errors = consistent = consistent_quiet = 0
    misses: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        for first in range(0, len(results), PER_PAPER):
            batch = results[first : first + PER_PAPER]
            paper = Path(folder) / f"paper{first}"
            paper.mkdir()
            paragraphs = [f"In study {index + 1}, the effect was {result.latex}." for index, result in enumerate(batch)]
            body = "\n\n".join(paragraphs)
            (paper / "main.tex").write_text(
                f"\\documentclass{{article}}\n\\usepackage{{siunitx}}\n\\begin{{document}}\n\\section{{Results}}\n{body}\n\\end{{document}}\n",
                encoding="utf-8",
            )
            checked = check_path(paper, config=config, use_cache=False, parse_workers=1)
            lines_read = {row.line for project in checked.projects for row in result_rows(project, config.statistics)}
            severity: dict[int, int] = {}
            for finding in checked.findings:
                line = finding.range.start.line + 1
                if finding.severity.rank >= Severity.WARNING.rank:
                    severity[line] = max(severity.get(line, 0), finding.severity.rank)
            for index, result in enumerate(batch):
                line = 5 + 2 * index
                was_read = line in lines_read
                read += was_read
                warned = line in severity
                if not was_read:
                    misses.append(f"not read: {result.latex}")
                if result.consistent:
                    consistent += 1
                    consistent_quiet += not warned
                    if warned:
                        misses.append(f"false warning: {result.latex}")
                else:
                    inconsistent += 1
                    flagged += warned
                    if not warned and was_read:
                        misses.append(f"not flagged: {result.latex}")
                    if result.decision_error:
                        decisions += 1
                        decisions_flagged += warned
                        decisions_errors += severity.get(line) == Severity.ERROR.rank
    for miss in misses[:15]:
        print("  " + miss)
    return {
        "results read": (read, len(results)),
        "inconsistent flagged at warning or above": (flagged, inconsistent),
        "decision errors flagged": (decisions_flagged, decisions),
        "decision errors reported as errors": (decisions_errors, decisions),
        "consistent left without a warning": (consistent_quiet, consistent),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=600, help="how many results to generate (default 600)")
    parser.add_argument("--seed", type=int, default=22)
    arguments = parser.parse_args()
    results = generate(arguments.results, arguments.seed)
    print(f"{len(results)} generated APA results ({sum(r.consistent for r in results)} consistent), seed {arguments.seed}")
    targets = {
        "results read": 0.95,
        "inconsistent flagged at warning or above": 0.90,
        "decision errors flagged": 1.0,
        "decision errors reported as errors": 1.0,
        "consistent left without a warning": 0.99,
    }
    for name, (hits, total) in measure(results).items():
        share = hits / total if total else 1.0
        verdict = "ok" if share >= targets[name] else "BELOW TARGET"
        print(f"{name:42} {hits:4}/{total:<4} {100 * share:6.1f}%  (target ≥ {100 * targets[name]:.0f}%)  {verdict}")


if __name__ == "__main__":
    main()
