"""A manuscript moved after an edit equals one walked from scratch.

Typing in a paragraph keeps a file's shape (its headings, markers, blocks and
includes), and then the manuscript only moves that file's blocks and runs
(see latex.manuscript._moved). These tests type at random and compare, after
every edit, the moved manuscript with a fresh walk, field by field.
"""

from __future__ import annotations

import random

import pytest
from helpers import write_project
from sample_paper import FILES, random_edit

from auditex.latex.manuscript import Manuscript, build_manuscript
from auditex.latex.project import Project


def _described(manuscript: Manuscript) -> tuple:
    def placed(item) -> tuple:
        return (item.file, item.block.start, item.block.end, item.block.kind, item.block.plain.text, item.section, item.index, item.kind)

    sections = [
        (s.id, s.title, s.level, s.kind, s.file, s.start, s.end, s.hash, s.in_appendix, list(s.runs), [placed(p) for p in s.blocks])
        for s in manuscript.sections
    ]
    places = {file: manuscript.places_of(file) for file in manuscript.layouts}  # a moved manuscript shares them
    return (sections, [placed(p) for p in manuscript.blocks], manuscript.theorem_environments, manuscript.layouts, places)


@pytest.mark.parametrize("seed", range(8))
def test_moved_manuscript_equals_a_fresh_walk(tmp_path, seed):
    write_project(tmp_path, FILES)
    rng = random.Random(seed)
    texts = {name: text for name, text in FILES.items() if name.endswith(".tex")}
    project = Project(tmp_path, "main.tex")
    moved = 0
    for step in range(60):
        name = rng.choice(sorted(texts))
        before = project.manuscript
        texts[name] = random_edit(rng, texts[name])
        project.update(name, texts[name])
        after = project.manuscript
        assert _described(after) == _described(build_manuscript(project)), f"seed {seed}, edit {step + 1} in {name}"
        # Sections the edit did not touch are shared with the previous manuscript when it was moved.
        moved += any(section is old for section, old in zip(after.sections, before.sections))
    assert moved > 10


def test_block_facts_survive_moved_manuscripts(tmp_path, monkeypatch):
    """Typing reuses each block's index contribution; a later full walk (a new paragraph) must
    still find the unchanged blocks' facts in the cache instead of re-reading every block."""
    from auditex.latex import index

    write_project(tmp_path, FILES)
    project = Project(tmp_path, "main.tex")
    project.index
    text = FILES["sections/results.tex"]
    for step in range(3):  # keystrokes: the manuscript is moved, contributions reused
        text = text.replace("compares", "compares" + "x" * (step + 1), 1)
        project.update("sections/results.tex", text)
        project.index
    read: list[str] = []
    original = index._block_facts
    monkeypatch.setattr(index, "_block_facts", lambda plain: read.append(plain) or original(plain))
    text = text.replace("On GLUE-Probe,", "\n\nOn GLUE-Probe,", 1)  # a new paragraph: a full walk
    project.update("sections/results.tex", text)
    project.index
    assert read and all("GLUE-Probe" in plain or "compares" in plain for plain in read), read


def test_a_renamed_float_label_reaches_the_tabular_it_inputs(tmp_path):
    """A tabular `\\input` into a table float is cited by the float's label; renaming that label
    keeps the outer file's shape, yet the included table must carry the new label, as a fresh walk gives."""
    float_text = "\\begin{table}\n\\caption{Scores}\\label{tab:old}\n\\input{scores}\n\\end{table}\n"
    files = {
        "main.tex": "\\documentclass{article}\n\\begin{document}\n\\section{Results}\nSee Table~\\ref{tab:old}.\n"
        + float_text
        + "\\end{document}\n",
        "scores.tex": "\\begin{tabular}{lc}\nModel & Acc \\\\\nA & 81.2 \\\\\n\\end{tabular}\n",
    }
    write_project(tmp_path, files)
    project = Project(tmp_path, "main.tex")
    project.manuscript
    project.update("main.tex", files["main.tex"].replace("tab:old", "tab:new"))
    labels = [p.block.labels for p in project.manuscript.blocks if p.block.table is not None]
    assert labels == [["tab:new"]] == [p.block.labels for p in build_manuscript(project).blocks if p.block.table is not None]


def test_an_edit_keeps_the_sections_before_it_in_its_file(tmp_path):
    """Typing in a file's last section keeps its earlier sections and their blocks (the same objects:
    what is kept by them is not read again) and gives the later ones anew, as a fresh walk has them."""
    long = "a sentence long enough to keep the scan that resumes after an edit away from the part before. " * 3
    body = "".join(f"\\section{{Part {i}}}\nParagraph one of part {i}: {long}\n\nParagraph two of part {i}: {long}\n\n" for i in range(3))
    files = {"main.tex": "\\documentclass{article}\n\\begin{document}\n\\input{body}\n\\end{document}\n", "body.tex": body}
    write_project(tmp_path, files)
    project = Project(tmp_path, "main.tex")
    before = project.manuscript
    project.update("body.tex", body.replace("two of part 2", "two of part 2x"))
    after = project.manuscript
    assert _described(after) == _described(build_manuscript(project))
    kept = [section.title for section, old in zip(after.sections, before.sections) if section is old and section.file == "body.tex"]
    assert kept == ["Part 0", "Part 1"]
    edited = next(section for section in after.sections if section.title == "Part 2")
    assert edited.blocks[-1] not in before.blocks and edited.blocks[0] in before.blocks
    # Typing before them leaves none of the file's sections as they were.
    project.update("body.tex", body.replace("one of part 0", "one of part 0x"))
    assert not [
        section for section, old in zip(project.manuscript.sections, after.sections) if section is old and section.file == "body.tex"
    ]
