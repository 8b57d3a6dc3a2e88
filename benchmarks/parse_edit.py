"""Per-keystroke cost of re-parsing one file, and the cold parse of its paper.

Run: python benchmarks/parse_edit.py [--corpus ../shared/corpus] [--paper hott_book] [--file basics.tex]
     [--chunk-chars N]

Types 60 single characters into a prose line in the middle of the file, each followed by
`parse_document(path, text, previous)`, and reports the median and p95; then a cold
`Project(folder, "main.tex")` on a fresh copy. Times are this process's CPU time, so that
other work on a shared machine does not blur them. The paper is copied to a temporary folder,
so the corpus is never touched. Target: ≤ 8 ms median per edit on hott_book/basics.tex.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from auditex.latex import chunks
from auditex.latex.document import parse_document
from auditex.latex.project import Project

ROOT = Path(__file__).resolve().parents[1]
EDITS = 60


def prose_line_offset(text: str) -> int:
    """The end of the first word of a prose line at or after the middle of the text."""
    position = len(text) // 2
    while True:
        line_start = text.index("\n", position) + 1
        line_end = text.index("\n", line_start)
        line = text[line_start:line_end]
        if len(line) > 40 and line[0].isalpha():
            return line_start + line.index(" ")
        position = line_end


def per_edit_ms(path: str, text: str) -> list[float]:
    document = parse_document(path, text)
    position = prose_line_offset(text)
    timings = []
    for step in range(EDITS):
        text = text[:position] + "abcdefghij"[step % 10] + text[position:]
        position += 1
        started = time.process_time()
        document = parse_document(path, text, document)
        timings.append((time.process_time() - started) * 1000)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--paper", default="hott_book")
    parser.add_argument("--file", default="basics.tex")
    parser.add_argument("--chunk-chars", type=int, help="override TARGET_CHUNK_CHARS")
    arguments = parser.parse_args()
    source = arguments.corpus / arguments.paper
    if not (source / arguments.file).is_file():
        sys.exit(f"no {arguments.file} in {source}")
    if arguments.chunk_chars is not None:
        chunks.TARGET_CHUNK_CHARS = arguments.chunk_chars
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / arguments.paper
        shutil.copytree(source, folder)
        text = (folder / arguments.file).read_text(encoding="utf-8")
        timings = sorted(per_edit_ms(arguments.file, text))
        started = time.process_time()
        Project(folder, "main.tex")
        cold_ms = (time.process_time() - started) * 1000
    p95 = timings[min(len(timings) - 1, round(0.95 * (len(timings) - 1)))]
    header = f"{'file':28} {'KB':>5} {'chunks':>6} {'edit median ms':>14} {'edit p95 ms':>11} {'cold parse ms':>13}"
    print(header)
    print(
        f"{arguments.paper + '/' + arguments.file:28} {len(text) / 1024:5.0f} {len(chunks.split_chunks(text)):6} "
        f"{statistics.median(timings):14.2f} {p95:11.2f} {cold_ms:13.0f}"
    )


if __name__ == "__main__":
    main()
