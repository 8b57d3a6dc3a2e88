"""benchmarks/inject_errors.py: the slips shaped like an author's are found in a small paper and planted as intended."""

import importlib.util
import sys
from pathlib import Path

import pytest

from auditex.analyzers.projects import open_projects

_SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "inject_errors.py"
sys.path.insert(0, str(_SCRIPT.parent))  # as when it runs as a script: the planters are its neighbours
_SPEC = importlib.util.spec_from_file_location("inject_errors", _SCRIPT)
inject = importlib.util.module_from_spec(_SPEC)  # type: ignore[arg-type]
sys.modules["inject_errors"] = inject
_SPEC.loader.exec_module(inject)  # type: ignore[union-attr]

_FILLER = (
    "We describe every part of the approach in detail so that the reader can reproduce each of the steps on their own data, "
    "and we report the settings we used for every run in the appendix. "
)
PAPER = rf"""\documentclass{{article}}
\usepackage{{amsthm}}
\newtheorem{{theorem}}{{Theorem}}
\newcommand{{\method}}{{DualNet}}
\begin{{document}}
\begin{{abstract}}
We present \method, which reaches 81.5\% accuracy on the benchmark and improves over prior work.
\end{{abstract}}
\section{{Introduction}}
We study recurrent models. The Simple Recurrent Unit (SRU) is a fast recurrent layer, and \method builds on it. {_FILLER}

\section{{Method}}
\begin{{theorem}}\label{{thm:bound}} The bound holds.\end{{theorem}}
PROOF
The layers of \method are stacked as in prior work, with a gate between them. {_FILLER}

\section{{Results}}
\begin{{table}}[t]\centering
\begin{{tabular}}{{lccc}}
\toprule
Method & A & B & Avg \\
\midrule
Base & 70.0 & 80.0 & 75.0 \\
Ours & 80.0 & 83.0 & 81.5 \\
\bottomrule
\end{{tabular}}
\caption{{Results.}}\label{{tab:main}}
\end{{table}}
As shown in Table~\ref{{tab:main}}, \method reaches 81.5\% accuracy on the benchmark. {_FILLER}

The SRU layers train fast on every benchmark we tried. {_FILLER}
\end{{document}}
"""
PROOF = r"\begin{proof}[Proof of \ref{thm:bound}] It follows from the definitions. \end{proof}"


def _planted(tmp_path: Path, proof: str = PROOF) -> dict[str, list[str]]:
    """Every site of every slip kind, as the edited main.tex."""
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "main.tex").write_text(PAPER.replace("PROOF", proof))
    _, projects = open_projects(paper)
    project = projects[0]
    text = project.documents["main.tex"].source.text
    return {kind: [edit.apply(text) for edit in inject.PLANTERS[kind](project)] for kind in inject.SLIPS}


@pytest.mark.parametrize(
    ("kind", "planted"),
    [
        ("cited_table_number", r"Table~\ref{tab:main}, \method reaches 61.5\%"),
        ("abstract_restated", r"which reaches 61.5\%"),
        ("table_aggregate", r"Base & 70.0 & 80.0 & 85.0 \\"),
        ("acronym_same_initials", "(SRU) here."),
        ("acronym_other_initials", "the Adaptive Recurrent Unit (SRU) here."),
        ("macro_renewed", r"\renewcommand{\method}{\widetilde{DualNet}}"),
        ("label_in_optional", r"\begin{proof}[Proof of \ref{thm:bonud}]"),
    ],
)
def test_each_slip_is_planted_at_the_site_the_paper_offers(tmp_path, kind, planted):
    copies = _planted(tmp_path)[kind]
    assert any(planted in copy for copy in copies), copies
    assert all(copy.count("81.5") == 2 and "61.5" in copy for copy in copies if kind in ("cited_table_number", "abstract_restated"))


def test_same_initials_spell_the_acronym_and_other_initials_do_not(tmp_path):
    same = _planted(tmp_path)["acronym_same_initials"][0]
    expansion = same.split("We also rely on the ")[1].split(" (SRU)")[0]
    assert "".join(word[0] for word in expansion.split()) == "SRU" and expansion != "Simple Recurrent Unit"


def test_a_paper_without_a_reference_in_an_optional_argument_gets_one_inserted(tmp_path):
    copies = _planted(tmp_path, proof="")["label_in_optional"]
    assert any("\n\n\\begin{proof}[Proof of \\ref{thm:bonud}]\nThis follows from the definitions.\n\\end{proof}" in copy for copy in copies)


def test_the_summary_reports_each_slip_and_the_author_slips_line(tmp_path, capsys):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "paper").mkdir()
    (corpus / "paper" / "main.tex").write_text(PAPER.replace("PROOF", PROOF))
    assert inject.main(["--corpus", str(corpus), "--kinds", "slips,aggregate", "--per-paper", "1"]) == 0
    table = capsys.readouterr().out
    assert all(f"\n{kind} " in table for kind in inject.SLIPS)
    assert "\nauthor slips " in table and "\ntotal " not in table  # the alias names a slip kind, counted once


def test_in_memory_rechecks_measure_what_cold_checks_of_a_copy_measure(tmp_path):
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "main.tex").write_text(PAPER.replace("PROOF", PROOF))
    kinds = ["table_aggregate", "acronym_other_initials", "macro_renewed", "label_in_optional"]
    in_memory = inject.measure_paper(paper, kinds, per_paper=2)
    assert in_memory == inject.measure_paper(paper, kinds, per_paper=2, cold=True)
    assert (paper / "main.tex").read_text() == PAPER.replace("PROOF", PROOF)  # the paper itself is never written
