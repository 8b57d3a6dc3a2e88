"""The persistent analysis cache: a warm check equals a cold one, and a damaged cache is never trusted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auditex.analyzers.analysis_cache import AnalysisCache
from auditex.analyzers.path_check import check_path
from auditex.cli.main import main

PAPER = {
    "main.tex": "\\documentclass{article}\n\\begin{document}\n\\input{intro}\n\\input{results}\n\\bibliography{refs}\n\\end{document}\n",
    "intro.tex": "\\section{Introduction}\\label{sec:intro}\nWe improve accuracy to 91.2\\% (Table~\\ref{tab:main}).\n\n"
    "Our method (SRU) beats prior work \\cite{smith2020}. See Section~\\ref{sec:results}.\n",
    "results.tex": "\\section{Results}\\label{sec:results}\nTable~\\ref{tab:main} reports 91.2\\% and 88.0\\%.\n\n"
    "\\begin{table}[t]\\caption{Main}\\label{tab:main}\n\\begin{tabular}{lc}\nMethod & Acc\\\\\n"
    "Ours & 91.2\\\\\nBase & 88.0\\\\\nAvg & 89.6\\\\\n\\end{tabular}\n\\end{table}\n",
    "refs.bib": "@article{smith2020, title={A}, author={Smith, J}, year={2020}, journal={J}}\n",
}


def write(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def check_in_subprocess(folder: Path, cache_dir: Path, *options: str) -> list[dict]:
    """`auditex check --format json` in a fresh process: nothing but the disk carries over."""
    env = {**os.environ, "AUDITEX_CACHE_DIR": str(cache_dir)}
    done = subprocess.run(
        [sys.executable, "-m", "auditex.cli.main", "check", str(folder), "--format", "json", "--fail-on", "never", *options],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(done.stdout)["findings"]


def as_set(findings) -> list:
    return sorted(json.dumps(finding, sort_keys=True) for finding in findings)


def cache_entries(cache_dir: Path) -> int:
    cache = AnalysisCache(Path("."), cache_dir / "analysis")
    try:
        return len(cache._store)
    finally:
        cache.close()


def test_a_warm_check_in_a_new_process_equals_a_cold_one_and_uses_the_cache(tmp_path):
    folder = tmp_path / "paper"
    write(folder, PAPER)
    cache_dir = tmp_path / "cache"
    cold = check_in_subprocess(folder, tmp_path / "empty", "--no-cache")
    first = check_in_subprocess(folder, cache_dir)
    assert cache_entries(cache_dir) > 0
    warm = check_in_subprocess(folder, cache_dir)
    assert as_set(warm) == as_set(first) == as_set(cold)
    assert cold, "the sample paper has findings to compare"
    # --no-cache neither reads nor writes: a fresh folder stays empty.
    check_in_subprocess(folder, tmp_path / "unused", "--no-cache")
    assert not (tmp_path / "unused" / "analysis").exists() or cache_entries(tmp_path / "unused") == 0


_LINES = st.sampled_from(
    [
        "We reach 91.2\\% on the benchmark.",
        "Accuracy rises from 80.0 to 85.0 (+6.0).",
        "See Table~\\ref{tab:main} and Section~\\ref{sec:missing}.",
        "Our method (SRU) is the first of its kind \\cite{smith2020,nobody2021}.",
        "\\label{sec:intro}",
        "\\begin{itemize}\\item one \\item two\\end{itemize}",
        "",
        "Three contributions: speed, accuracy and scale.",
        "$x \\in [0,1]$ and later $x \\in [2,3]$.",
    ]
)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.sampled_from(["intro.tex", "results.tex"]), st.integers(0, 40), _LINES), min_size=1, max_size=4))
def test_random_edits_checked_warm_equal_a_cold_check(tmp_path_factory, edits):
    """Each edited version is checked by a fresh engine over the shared cache (as a new process
    would be) and by a check that uses no cache: the findings are the same."""
    root = tmp_path_factory.mktemp("edits")
    folder, cache_dir = root / "paper", root / "cache"
    write(folder, PAPER)
    previous = os.environ["AUDITEX_CACHE_DIR"]
    os.environ["AUDITEX_CACHE_DIR"] = str(cache_dir)
    try:
        check_path(folder)
        for file, line, text in edits:
            lines = (folder / file).read_text(encoding="utf-8").split("\n")
            lines.insert(min(line, len(lines)), text)
            (folder / file).write_text("\n".join(lines), encoding="utf-8")
            warm = check_path(folder).findings
            cold = check_path(folder, use_cache=False).findings
            assert [f.model_dump() for f in warm] == [f.model_dump() for f in cold]
    finally:
        os.environ["AUDITEX_CACHE_DIR"] = previous


def damage(cache_dir: Path) -> int:
    """Overwrite every value file and stored value of the cache with garbage; how many were hit."""
    damaged = 0
    for path in (cache_dir / "analysis").rglob("*.val"):
        path.write_bytes(b"\x80\x04garbage that does not unpickle")
        damaged += 1
    import sqlite3

    with sqlite3.connect(cache_dir / "analysis" / "cache.db") as connection:
        damaged += connection.execute("UPDATE Cache SET value = ? WHERE value IS NOT NULL", (b"\x80\x04junk",)).rowcount
    return damaged


def test_a_damaged_cache_is_ignored_and_the_findings_stay_right(tmp_path):
    folder = tmp_path / "paper"
    write(folder, PAPER)
    cache_dir = tmp_path / "cache"
    expected = check_in_subprocess(folder, cache_dir)
    assert damage(cache_dir) > 0
    assert as_set(check_in_subprocess(folder, cache_dir)) == as_set(expected)
    # The damaged entries were dropped and replaced: the next run reads good ones.
    assert as_set(check_in_subprocess(folder, cache_dir)) == as_set(expected)


def test_an_unusable_cache_folder_or_foreign_entries_are_not_trusted(tmp_path, monkeypatch):
    folder = tmp_path / "paper"
    write(folder, PAPER)
    expected = [f.model_dump() for f in check_path(folder, use_cache=False).findings]
    # Not a database at all.
    broken = tmp_path / "broken"
    (broken / "analysis").mkdir(parents=True)
    (broken / "analysis" / "cache.db").write_bytes(b"this is not sqlite" * 100)
    monkeypatch.setenv("AUDITEX_CACHE_DIR", str(broken))
    assert [f.model_dump() for f in check_path(folder).findings] == expected
    # Entries of another auditex (another code fingerprint) under the same keys are misses.
    monkeypatch.setenv("AUDITEX_CACHE_DIR", str(tmp_path / "foreign"))
    check_path(folder)
    cache = AnalysisCache(folder.resolve(), tmp_path / "foreign" / "analysis")
    for key in list(cache._store):
        cache._store.set(key, ("another-version", {"x": "not a parse"}))
    assert cache.load("parses", "main.tex", object) == {}
    cache.close()
    assert [f.model_dump() for f in check_path(folder).findings] == expected


def test_no_cache_and_the_environment_switch_keep_the_cache_folder_untouched(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "paper"
    write(folder, PAPER)
    monkeypatch.setenv("AUDITEX_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["check", str(folder), "--no-cache", "--fail-on", "never"]) == 0
    monkeypatch.setenv("AUDITEX_NO_CACHE", "1")
    check_path(folder)
    assert not (tmp_path / "cache" / "analysis").exists()
    capsys.readouterr()
