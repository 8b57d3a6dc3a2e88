"""CNT001: stated counts against the enumerations they announce."""

from pathlib import Path

from auditex.analyzers.check import check_path


def findings(tmp_path: Path, body: str) -> list:
    (tmp_path / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\n" + body + "\n\\end{document}\n")
    return [f for f in check_path(tmp_path).findings if f.code == "CNT001"]


def test_inline_enumeration_shorter_than_its_count(tmp_path):
    found = findings(tmp_path, "We evaluate on five datasets: CIFAR-10, CIFAR-100, SVHN and STL-10.")
    assert len(found) == 1 and "5" in found[0].message and "4 follow" in found[0].message
    assert found[0].fixes[0].edits[0].new_text == "four"


def test_list_environment_and_markers_are_counted(tmp_path):
    listing = "The protocol has three steps:\n\\begin{itemize}\n\\item one\n\\item two\n\\end{itemize}\n"
    assert len(findings(tmp_path, listing)) == 1
    markers = "There are two reasons: (1) speed; (2) memory; (3) cost.\n"
    assert len(findings(tmp_path, markers)) == 1


def test_matching_and_open_enumerations_are_fine(tmp_path):
    body = ("We evaluate on four datasets: CIFAR-10, CIFAR-100, SVHN, and STL-10.\n\n"
            "We use three baselines: e.g., ResNet and ViT.\n\n"
            "The protocol has two steps:\n\\begin{enumerate}\n\\item one\n\\begin{itemize}\\item a \\item b\\end{itemize}\n\\item two\n\\end{enumerate}\n\n"
            "% We evaluate on five datasets: A, B and C.\n")
    assert findings(tmp_path, body) == []


def test_ordinal_and_parenthesised_enumerations_are_counted(tmp_path):
    from auditex.analyzers.check import check_path
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n"
        "We make four contributions. First, we build A. Second, we test B. Third, we release C.\n\n"
        "We use four datasets (MNIST, SVHN, and CIFAR-10) here.\n\n"
        "Our method has two stages. First, it encodes. Second, it decodes.\n\n"
        "We use three datasets (MNIST, SVHN, and CIFAR-10) here.\n\n"
        "The pipeline has three steps. First, we parse. Second, we check. Finally, we report.\n\n"
        "We consider five indicators (including the ones above).\n\\end{document}\n")
    found = sorted((f.range.start.line, f.message) for f in check_path(tmp_path).findings if f.code == "CNT001")
    assert [line for line, _ in found] == [2, 4]
    assert "but 3 follow" in found[0][1] and "but 3 follow" in found[1][1]


def test_emphasised_and_joined_ordinals_are_counted(tmp_path):
    body = ("We make three observations:\n{\\em First}, A holds.\n{\\em Second}, B holds.\n\n"
            "Integration requires three steps.\nFirst, we translate.\nAnd second, we reconstruct.\n\n"
            "We prove it in three steps.\nThe first step treats points.\nFor the second step we take any point.\n\n"
            "We make two remarks:\n\\emph{First}, C.\n\\emph{Second}, D.\n")
    found = findings(tmp_path, body)
    assert [f.range.start.line for f in found] == [2, 6, 10]
    assert all("but 2 follow" in f.message for f in found)


def test_ordinal_run_goes_on_in_a_later_paragraph_of_the_same_section(tmp_path):
    body = ("It is useful to have three facts in mind.\nFirst, levels are upward-closed.\n\n"
            "\\begin{lem}A lemma.\\end{lem}\n\nSecond, the stratification is not degenerate.\n")
    found = findings(tmp_path, body)
    assert len(found) == 1 and "but 2 follow" in found[0].message
    assert findings(tmp_path, body.replace("three facts", "two facts")) == []


def test_ordinal_run_stops_at_a_new_section_and_at_the_stated_count(tmp_path):
    crossing = ("It is useful to have two facts in mind.\nFirst, levels are upward-closed.\n\n"
                "\\section{Next}\nSecond, something unrelated.\n")
    assert findings(tmp_path, crossing) == []  # one ordinal in reach: not countable
    enough = ("Our method has two stages. First, it encodes. Second, it decodes.\n\n"
              "Third, an unrelated paragraph starts with an ordinal.\n")
    assert findings(tmp_path, enough) == []
