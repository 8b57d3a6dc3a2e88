"""auditex against a peer lint and the parser alone, on every corpus paper, in one run.

For each paper, on a private copy (the analysis cache is keyed by folder):
- **cold**: `auditex check` in a new process with an empty cache directory;
- **warm**: the same command again, served by the analysis cache;
- **changed**: one prose line in the middle of the paper's largest file changed in place (a word
  added at its end), then the command again;
- **inserted**: then one new line inserted in the middle of that file, then the command again
  (every section below it moves);
- **chktex**: `chktex -q` on each root file (it follows `\\input` itself); the column says
  "absent" when chktex is not installed (`apt-get install chktex`);
- **parse**: pylatexenc's `get_latex_nodes` over every file of the project, in-process, with its
  default context: the library floor any LaTeX-reading tool pays.

auditex times are wall-clock seconds of `check_path` inside that new process (the in-process
time the targets speak of); "cold process" is the whole cold process, interpreter start-up and
imports included. chktex times are whole processes; parse is in-process. auditex's bytecode is
compiled first, as an installed package's is (with PYTHONDONTWRITEBYTECODE set, an editable
install would otherwise compile its changed modules in every process).
Run: python benchmarks/speed_side_by_side.py [--corpus DIR] [--papers a,b]
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


# A new process that checks a folder as `auditex check` does and prints the seconds `check_path` took.
_CHECK = (
    "import sys, time; from pathlib import Path; from auditex.analyzers.path_check import check_path; "
    "started = time.perf_counter(); check_path(Path(sys.argv[1])); print(time.perf_counter() - started)"
)


def timed(command: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> float:
    started = time.perf_counter()
    subprocess.run(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def checked(folder: Path, env: dict[str, str]) -> tuple[float, float]:
    """(seconds of check_path in a new process, seconds of the whole process)."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _CHECK, str(folder)], env=env, capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1]), time.perf_counter() - started


def parse_floor(folder: Path, files: list[str]) -> float:
    from pylatexenc.latexwalker import LatexWalker

    texts = [(folder / path).read_text(encoding="utf-8", errors="replace") for path in files]
    started = time.perf_counter()
    for text in texts:
        LatexWalker(text, tolerant_parsing=True).get_latex_nodes()
    return time.perf_counter() - started


def largest(folder: Path, files: list[str]) -> tuple[Path, str]:
    """The largest file and its text, line endings as they are (a CRLF file stays CRLF when written back)."""
    target = folder / max(files, key=lambda path: (folder / path).stat().st_size)
    return target, target.read_bytes().decode("utf-8", errors="surrogateescape")


def write(target: Path, text: str) -> None:
    target.write_bytes(text.encode("utf-8", errors="surrogateescape"))


def change_line(folder: Path, files: list[str]) -> None:
    """A word added at the end of a prose line in the middle of the largest file: no line moves."""
    target, text = largest(folder, files)
    lines = text.split("\n")
    middle = len(lines) // 2
    prose = [n for n, line in enumerate(lines) if len(line) > 20 and line.lstrip()[:1].isalpha() and "%" not in line]
    line = min(prose, key=lambda n: abs(n - middle)) if prose else middle
    ending = "\r" if lines[line].endswith("\r") else ""
    lines[line] = lines[line].removesuffix("\r") + " indeed" + ending
    write(target, "\n".join(lines))


def insert_line(folder: Path, files: list[str]) -> None:
    """One new prose line in the middle of the largest file, at a paragraph break."""
    target, text = largest(folder, files)
    newline = "\r\n" if "\r\n" in text else "\n"
    middle = text.find(newline * 2, len(text) // 2)
    middle = middle if middle != -1 else len(text) // 2
    write(target, text[:middle] + f"{newline * 2}One more sentence, added for the benchmark.{newline}" + text[middle:])


def measure(paper: Path, chktex: str | None) -> dict[str, Any]:
    from auditex.analyzers.projects import open_projects

    work = Path(tempfile.mkdtemp(prefix="auditex-side-"))
    try:
        folder = work / paper.name
        shutil.copytree(paper, folder)
        _, projects = open_projects(folder)
        files = list(dict.fromkeys(path for project in projects for path in project.files))
        roots = [project.root_file for project in projects]
        size = sum((folder / path).stat().st_size for path in files)
        env = {**os.environ, "AUDITEX_CACHE_DIR": str(work / "cache")}
        env.pop("AUDITEX_NO_CACHE", None)
        cold, cold_process = checked(folder, env)
        row = {"paper": paper.name, "kb": round(size / 1024), "cold": cold, "cold_process": cold_process, "warm": checked(folder, env)[0]}
        change_line(folder, files)
        row["changed"] = checked(folder, env)[0]
        insert_line(folder, files)
        row["inserted"] = checked(folder, env)[0]
        row["chktex"] = sum(timed([chktex, "-q", root], cwd=folder) for root in roots) if chktex else None
        row["parse"] = parse_floor(folder, files)
        return row
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--papers", help="comma-separated paper folders (default: all)")
    arguments = parser.parse_args()
    if not arguments.corpus.is_dir():
        sys.exit(f"no corpus at {arguments.corpus}")
    chktex = shutil.which("chktex")
    compileall.compile_dir(ROOT, quiet=1, rx=re.compile(r"/(?:\.venv|node_modules|\.git)/"))
    names = arguments.papers.split(",") if arguments.papers else None
    papers = sorted(p for p in arguments.corpus.iterdir() if p.is_dir() and (names is None or p.name in names))
    rows = [measure(paper, chktex) for paper in papers]
    print(
        "| paper | KB | cold (s) | cold process (s) | warm (s) | warm/cold | line changed (s) | changed/cold | line inserted (s) | "
        "inserted/cold | chktex (s) | pylatexenc parse (s) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in sorted(rows, key=lambda row: row["kb"]):
        chktex_cell = f"{row['chktex']:.2f}" if row["chktex"] is not None else "absent"
        print(
            f"| {row['paper']} | {row['kb']} | {row['cold']:.2f} | {row['cold_process']:.2f} | {row['warm']:.2f} | {row['warm'] / row['cold']:.0%} | "
            f"{row['changed']:.2f} | {row['changed'] / row['cold']:.0%} | {row['inserted']:.2f} | {row['inserted'] / row['cold']:.0%} | "
            f"{chktex_cell} | {row['parse']:.2f} |"
        )
    total = {key: sum(row[key] for row in rows) for key in ("cold", "cold_process", "warm", "changed", "inserted", "parse")}
    chktex_total = f"{sum(row['chktex'] for row in rows):.1f}" if chktex else "absent"
    print(
        f"| **all {len(rows)}** | {sum(row['kb'] for row in rows)} | {total['cold']:.1f} | {total['cold_process']:.1f} | {total['warm']:.1f} | "
        f"{total['warm'] / total['cold']:.0%} | {total['changed']:.1f} | {total['changed'] / total['cold']:.0%} | "
        f"{total['inserted']:.1f} | {total['inserted'] / total['cold']:.0%} | "
        f"{chktex_total} | {total['parse']:.1f} |"
    )
    if not chktex:
        print("\nchktex is not installed (apt-get install chktex): its column is left out.")


if __name__ == "__main__":
    main()
