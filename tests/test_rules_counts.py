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
