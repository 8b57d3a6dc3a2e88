"""`auditex inject`: patches land at the first verbatim match in include order; the manifest points at them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from review_fixtures import write_project

from auditex.cli.main import main
from auditex.evaluation.inject import MANIFEST_NAME, InjectError, inject, load_patches


def _patch(find: str, replacement: str, kind: str = "Evidence Manipulation (EM)") -> dict:
    return {"target_find": find, "replacement": replacement, "corruption_type": kind, "location": "Results", "error_explanation": "planted"}


def test_cli_applies_patches_in_order_and_writes_source_ranges(tmp_path: Path, capsys) -> None:
    project = write_project(tmp_path / "paper")
    patches = tmp_path / "patches.json"
    patches.write_text(
        json.dumps(
            {
                "edits": [
                    _patch("10 epochs", "100 epochs", "Experiment Protocol Flaws (EP)"),  # only in method.tex
                    _patch("91.2", "93.5"),  # first occurrence: the text of main.tex, not the table
                    _patch("Widgets matter.", "Widgets matter a lot.\nReally."),  # before the 91.2 edit, same file
                    _patch("not in the paper", "x"),
                ]
            }
        ),
        encoding="utf-8",
    )
    out = tmp_path / "corrupted"
    assert main(["inject", str(project), "--patches", str(patches), "--out", str(out)]) == 1
    captured = capsys.readouterr()
    assert "patch 3 (Evidence Manipulation (EM)) not applied" in captured.err and "Applied 3 of 4" in captured.out
    main_tex = (out / "main.tex").read_text(encoding="utf-8")
    assert main_tex.count("93.5") == 1 and "Ours & 91.2" in main_tex
    assert (project / "main.tex").read_text(encoding="utf-8").count("91.2") == 2  # the original is untouched
    manifest = json.loads((out / MANIFEST_NAME).read_text(encoding="utf-8"))
    edits = {e["index"]: e for e in manifest["edits"]}
    assert edits[0]["file"] == "method.tex"
    assert edits[0]["range"] == {
        "start": {"line": 1, "character": 13},
        "end": {"line": 1, "character": 23},
    }  # "We train for " is 13 characters
    # Patch 2 added a line above patch 1, so patch 1's range moved down by one line.
    lines = main_tex.splitlines()
    one = edits[1]["range"]
    assert lines[one["start"]["line"]][one["start"]["character"] : one["end"]["character"]] == "93.5"
    assert one["start"]["line"] == 12
    two = edits[2]["range"]
    assert (two["start"]["line"], two["end"]["line"]) == (8, 9) and lines[9][: two["end"]["character"]] == "Really."
    assert manifest["unmatched"] == [
        {
            "index": 3,
            "reason": "target_find occurs verbatim in no source file",
            **{k: v for k, v in _patch("not in the paper", "x").items()},
        }
    ]


def test_refuses_a_non_empty_or_nested_output_and_bad_patch_files(tmp_path: Path) -> None:
    project = write_project(tmp_path / "paper")
    with pytest.raises(InjectError, match="outside the project folder"):
        inject(project, [], project / "copy")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    with pytest.raises(InjectError, match="not empty"):
        inject(project, [], tmp_path / "full")
    bad = tmp_path / "bad.json"
    bad.write_text('[{"target_find": "a"}]')
    with pytest.raises(InjectError, match="replacement"):
        load_patches(bad)
    bad.write_text("{")
    with pytest.raises(InjectError, match="not valid JSON"):
        load_patches(bad)


def test_inject_into_a_copy_of_a_corpus_paper(corpus_dir: Path, tmp_path: Path) -> None:
    paper = corpus_dir / "linear_rnns_iclr2018"
    if not paper.is_dir():
        pytest.skip("corpus paper linear_rnns_iclr2018 is absent")
    source = tmp_path / "source"
    shutil.copytree(paper, source)
    result = inject(source, [], tmp_path / "empty")  # learn the include order first
    sentence = next(
        line.strip()
        for name in [result.root_file]
        for line in (source / name).read_text().splitlines()
        if len(line.strip()) > 60 and not line.lstrip().startswith(("%", "\\"))
    )
    target = sentence[:40]
    result = inject(source, [load_patches_from({"target_find": target, "replacement": "PLANTED ERROR"})], tmp_path / "out")
    [edit] = result.edits
    text = (tmp_path / "out" / edit.file).read_text().splitlines()
    start, end = edit.range.start, edit.range.end
    assert text[start.line][start.character : end.character] == "PLANTED ERROR"


def load_patches_from(item: dict):
    from auditex.evaluation.paperaudit import EditPatch

    return EditPatch(corruption_type="Claim Distortion (CD)", **item)
